#!/usr/bin/env bash
# A regression as a Slurm job array: N tasks (`sbatch --array=0-(N-1)`), task K running
# `redunit regress --shard K/N` into a shared folder, and a job that depends on the array
# (afterany: it runs whatever the shards' statuses) and merges the results there.
#
#   scripts/regress-slurm.sh N DIR [regress flags]    e.g. scripts/regress-slurm.sh 64 /shared/regress-1 --seed 1 --ops 640000000
#
# DIR must be visible to every node (shard-K.json, shard-K.log, merged.json, merge.out go
# there), and so must this checkout and its release build (`cargo build --release -p
# testbench --bin redunit`; REDUNIT names another binary). The sizes are the whole
# regression's; every task gets the same seed (--seed, else REDUNIT_SEED, else one drawn at
# submission). The merge job's exit status is merge's: 0 PASS, 1 a mismatch or a coverage hole
# over all shards, 2 a missing or bad shard result. Extra sbatch options: SBATCH_OPTS.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
REDUNIT=${REDUNIT:-$root/target/release/redunit}
mode=submit
if [[ ${1:-} == --task || ${1:-} == --merge ]]; then
    mode=${1#--}
    shift
fi
n=${1:?usage: scripts/regress-slurm.sh N DIR [regress flags]}
dir=${2:?usage: scripts/regress-slurm.sh N DIR [regress flags]}
shift 2
case $mode in
submit)
    [[ -x $REDUNIT ]] || { echo "regress-slurm: no $REDUNIT: build it first (cargo build --release -p testbench --bin redunit)" >&2; exit 2; }
    mkdir -p "$dir"
    export REDUNIT_SEED=${REDUNIT_SEED:-$(( ($(date +%s%N) ^ $$) & 0x7fffffffffffffff ))}
    # (sbatch copies the environment, REDUNIT_SEED and REDUNIT included, into the jobs.)
    array=$(sbatch --parsable ${SBATCH_OPTS:-} --array=0-$((n - 1)) --job-name=redunit-shard \
        --output="$dir/shard-%a.log" "$0" --task "$n" "$dir" "$@")
    merge=$(sbatch --parsable ${SBATCH_OPTS:-} --dependency=afterany:"$array" --job-name=redunit-merge \
        --output="$dir/merge.out" "$0" --merge "$n" "$dir")
    echo "regress-slurm: seed $REDUNIT_SEED, shards: job $array (0-$((n - 1))), merge: job $merge; results in $dir"
    ;;
task)
    k=${SLURM_ARRAY_TASK_ID:?--task runs inside a Slurm array job}
    # Each task in its own folder: regress writes synth/out/ and target/ (waveforms) under it.
    mkdir -p "$dir/work-$k"
    cd "$dir/work-$k"
    exec "$REDUNIT" regress --shard "$k/$n" --json "$dir/shard-$k.json" "$@"
    ;;
merge)
    files=()
    for k in $(seq 0 $((n - 1))); do files+=("$dir/shard-$k.json"); done
    exec "$REDUNIT" merge --json "$dir/merged.json" "${files[@]}"
    ;;
esac
