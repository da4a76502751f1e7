#!/usr/bin/env bash
# Captures redux.sync integer results on an NVIDIA GPU (sm_80+) into OUTDIR (default
# testbench/h100/redux): compiles redux_sync.cu with nvcc, runs it, gzips the CSVs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../../testbench/h100/redux}
n=${2:-4096}
mkdir -p "$out"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
nvcc -O2 -arch="sm_$arch" -o "$out/.redux_sync" "$here/redux_sync.cu"
"$out/.redux_sync" "$out" "$n"
rm -f "$out/.redux_sync"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/DEVICE.txt"
nvcc --version | tail -2 >> "$out/DEVICE.txt"
gzip -9f "$out"/*.csv
ls -la "$out"
