#!/usr/bin/env bash
# Formal proofs with Yosys' SMT flow (yosys-smtbmc + z3): the mutation checks and the bounded
# model checks of the ordering queue and the response FIFO (hw/tests/formal.rs, harnesses in
# hw/formal/). Depths: REDUNIT_FORMAL_QUEUE_STEPS (default 14), REDUNIT_FORMAL_FIFO_STEPS
# (default 20). Models, logs and counterexample traces: target/tmp/formal/<check>/.
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in yosys yosys-smtbmc z3; do
  command -v "$tool" >/dev/null || { echo "formal: $tool not found: run scripts/setup.sh" >&2; exit 1; }
done
exec cargo test --release -p hw --test formal -- --include-ignored --test-threads 1 --nocapture "$@"
