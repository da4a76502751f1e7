#!/usr/bin/env bash
# Installs what redunit needs on a Debian/Ubuntu machine: Verilator (cosimulation), Yosys
# (synthesis checks; its yosys-smtbmc with the z3 solver runs the formal proofs), Icarus
# Verilog (the event-driven simulation test), a C++ compiler and make; rustfmt through rustup
# (the tests check the formatting). Safe to run again; does nothing when all is there. Rust
# comes from rustup (https://rustup.rs) and is not installed here.
set -euo pipefail
need=()
command -v verilator >/dev/null || need+=(verilator)
command -v yosys >/dev/null || need+=(yosys)
command -v iverilog >/dev/null || need+=(iverilog)
command -v z3 >/dev/null || need+=(z3)
command -v g++ >/dev/null || need+=(g++)
command -v make >/dev/null || need+=(make)
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}"
  if ! command -v apt-get >/dev/null; then
    echo "setup: missing ${need[*]} and apt-get is not available: install them with your package manager" >&2
    exit 1
  fi
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "setup: missing ${need[*]}: run this script as root to install them" >&2; exit 1; }
    sudo=sudo
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi
if ! command -v cargo >/dev/null; then
  echo "setup: cargo not found: install Rust from https://rustup.rs, then run this again" >&2
  exit 1
fi
# rustfmt: the tests check that the workspace is formatted.
if ! cargo fmt --version >/dev/null 2>&1; then
  if command -v rustup >/dev/null; then
    rustup component add rustfmt
  else
    echo "setup: cargo fmt not found: install rustfmt with your Rust toolchain, then run this again" >&2
    exit 1
  fi
fi
echo "setup: $(verilator --version | head -1), $(yosys -V | head -1), $(iverilog -V 2>/dev/null | head -1), $(z3 --version), $(cargo --version)"
