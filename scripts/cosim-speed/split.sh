#!/usr/bin/env bash
# The "separate models" route for the cosimulation speed (BENCHMARKS.md, "Tried and measured,
# not taken"): every lane of the ALU's units as a Verilated model of its own, clocked
# only when an operation enters it (split.cpp). With run.sh's "ALU's own logic alone" (the
# units stubbed, variants.py `glue`), a bound on that route. Needs a release build (cargo build
# --release), Verilator and python3; about 2 minutes.
#
#   scripts/cosim-speed/split.sh [OPS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
vl=${VERILATOR:-verilator}
work="$root/target/cosim-speed/split"
ops=${1:-2000000}
redunit="$root/target/release/redunit"
[ -x "$redunit" ] || { echo "split.sh: $redunit is missing: run 'cargo build --release' first" >&2; exit 1; }
mkdir -p "$work"
"$redunit" verilog --top alu -o "$work/base.v" >/dev/null
"$redunit" forms --csv >"$work/forms.csv"
python3 "$here/variants.py" "$work"   # for units.h (and the variants run.sh builds)
echo "building 5 Verilator models in $work ..."
objs=()
for pair in int:int-alu add16:fp-add16 mm16:fp-minmax16 f32:fp-add-f32 f64:fp-add-f64; do
    p=${pair%%:*}; top=${pair#*:}
    "$redunit" verilog --top "$top" -o "$work/$p.v" >/dev/null
    rm -rf "$work/obj_$p"
    "$vl" --cc --top-module top --prefix "V$p" --x-assign fast --x-initial fast \
        -Wno-fatal -Wno-WIDTH -Wno-UNUSED -Wno-DECLFILENAME -Mdir "$work/obj_$p" "$work/$p.v" >"$work/build_$p.log" 2>&1
    make -s -C "$work/obj_$p" -f "V$p.mk" OPT_FAST=-O2 "V${p}__ALL.a" >>"$work/build_$p.log" 2>&1 \
        || { echo "split.sh: build of $p failed, see $work/build_$p.log" >&2; exit 1; }
    objs+=("$work/obj_$p/V${p}__ALL.a")
done
make -s -C "$work/obj_int" -f Vint.mk OPT_FAST=-O2 verilated.o verilated_threads.o >>"$work/build_int.log" 2>&1
inc=$("$vl" --getenv VERILATOR_ROOT)/include
incs=(-I"$inc" -I"$inc/vltstd" -I"$work")
for p in int add16 mm16 f32 f64; do incs+=(-I"$work/obj_$p"); done
g++ -O2 -std=c++17 "${incs[@]}" "$here/split.cpp" "${objs[@]}" "$work/obj_int/verilated.o" \
    "$work/obj_int/verilated_threads.o" -lpthread -o "$work/split"
echo "lanes as separate models, clocked only when used: $("$work/split" "$ops")"
