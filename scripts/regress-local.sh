#!/usr/bin/env bash
# Runs a regression as N shards on this machine (`redunit regress --shard K/N`, JOBS at a time
# through xargs -P), then sums them with `redunit merge`. The exit status is merge's: 0 PASS,
# 1 a mismatch or a coverage hole over all shards, 2 a missing or bad shard result.
#
#   scripts/regress-local.sh N [regress flags]     e.g. scripts/regress-local.sh 4 --seed 1 --ops 8000000
#
# The sizes are the whole regression's; every shard gets the same flags and the same seed
# (--seed, else REDUNIT_SEED, else one drawn here). Environment: REDUNIT (the binary, default
# target/release/redunit, built if missing), JOBS (default: the cores), OUT (the results
# folder, default target/regress-shards: shard-K.json, shard-K.log, merged.json).
set -euo pipefail
n=${1:?usage: scripts/regress-local.sh N [regress flags]}
shift
root=$(cd "$(dirname "$0")/.." && pwd)
if [[ -z ${REDUNIT:-} ]]; then
    REDUNIT=$root/target/release/redunit
    [[ -x $REDUNIT ]] || (cd "$root" && cargo build --release -p testbench --bin redunit)
fi
OUT=${OUT:-$root/target/regress-shards}
JOBS=${JOBS:-$(nproc)}
# One seed for all shards (an explicit --seed among the flags wins over it).
export REDUNIT_SEED=${REDUNIT_SEED:-$(( ($(date +%s%N) ^ $$) & 0x7fffffffffffffff ))}
mkdir -p "$OUT"
rm -f "$OUT"/shard-*.json "$OUT"/merged.json
export REDUNIT OUT N=$n
# A shard that finds a mismatch exits 1; merge reports it, so the shards' statuses are only logged.
seq 0 $((n - 1)) | xargs -P "$JOBS" -I{} bash -c \
    '"$REDUNIT" regress --shard {}/"$N" --json "$OUT/shard-{}.json" "$@" >"$OUT/shard-{}.log" 2>&1; echo "shard {}/$N: exit $? ($OUT/shard-{}.log)"' _ "$@" \
    || true
files=()
for k in $(seq 0 $((n - 1))); do files+=("$OUT/shard-$k.json"); done
exec "$REDUNIT" merge --json "$OUT/merged.json" "${files[@]}"
