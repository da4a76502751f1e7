#!/usr/bin/env bash
# Formal proofs with Yosys' SMT flow (yosys-smtbmc + z3), hw/tests/formal.rs and
# formal_unit.rs with the harnesses in hw/formal/: k-induction proofs (the check of k cycles
# from reset and the induction step of length k both pass) of the response FIFO (8, 16, 32
# places), the ordering queue (the queue's default and the unit's, with a registered push,
# each with its bounded response), the unit's flow from issue to response at its shallowest
# and its default depths (queue and data path cut), and the unit's accept stage from the port
# to the queue's push; and a mutation per property that must fail from reset on that property.
# Induction lengths: REDUNIT_FORMAL_QUEUE_K, REDUNIT_FORMAL_QUEUE_REG_K, REDUNIT_FORMAL_UNIT_K
# (default 2). Models, logs and counterexample traces: target/tmp/formal/<check>/ (bmc.*,
# induction.*). See docs/testing.md, "Formal proofs".
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in yosys yosys-smtbmc z3; do
  command -v "$tool" >/dev/null || { echo "formal: $tool not found: run scripts/setup.sh" >&2; exit 1; }
done
exec cargo test --release -p hw --test formal --test formal_unit -- --include-ignored --test-threads 1 --nocapture "$@"
