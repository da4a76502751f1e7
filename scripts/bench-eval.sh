#!/usr/bin/env bash
# Measures `redunit eval` throughput: every H100 vector of every form, repeated to about
# 9.5 million rows, piped through the release binary. Usage: scripts/bench-eval.sh [REPEATS]
set -euo pipefail
cd "$(dirname "$0")/.."
repeats=${1:-10}
cargo build --release -q
input=$(mktemp --suffix=.csv)
trap 'rm -f "$input"' EXIT
{
  echo "form,init,b"
  for i in $(seq "$repeats"); do
    for f in testbench/h100/vectors/*.csv.gz; do
      form=$(basename "$f" .csv.gz)
      zcat "$f" | tail -n +2 | cut -d, -f1,2 | sed "s/^/$form,/"
    done
  done
} > "$input"
rows=$(($(wc -l < "$input") - 1))
start=$(date +%s.%N)
./target/release/redunit eval < "$input" > /dev/null
end=$(date +%s.%N)
awk -v r="$rows" -v s="$start" -v e="$end" 'BEGIN { t = e - s; printf "eval: %d rows in %.2f s = %.2f M rows/s\n", r, t, r / t / 1e6 }'
