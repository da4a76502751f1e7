#!/usr/bin/env bash
# Formal proofs with Yosys' SMT flow (yosys-smtbmc + z3): the mutation checks and the bounded
# model checks of the ordering queue, the response FIFO and the unit's flow control
# (hw/tests/formal.rs, harnesses in hw/formal/). Depths in cycles: REDUNIT_FORMAL_QUEUE_STEPS
# (default 14), REDUNIT_FORMAL_QUEUE_REG_STEPS (12), REDUNIT_FORMAL_FIFO_STEPS (20),
# REDUNIT_FORMAL_UNIT_STEPS (12). Models, logs and counterexample traces:
# target/tmp/formal/<check>/.
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in yosys yosys-smtbmc z3; do
  command -v "$tool" >/dev/null || { echo "formal: $tool not found: run scripts/setup.sh" >&2; exit 1; }
done
exec cargo test --release -p hw --test formal -- --include-ignored --test-threads 1 --nocapture "$@"
