//! Yosys on the unit's Verilog at its shallowest depths (`Config::most_ops_per_cycle`): the
//! backing RAM is inferred as one memory (a `$mem_v2` of 128-bit words, with its read register
//! merged into the read port), not as flip-flops, and so are the response FIFO's places and the
//! ordering queue's payloads (small memories with an asynchronous read: LUT RAM on the ECP5);
//! and a full generic synthesis with the three memories kept as memories. Both take minutes: ignored by default, run by CI.

mod common;
use common::{NO_LATCHES, stat_count, yosys};

#[test]
#[ignore = "minutes of Yosys on the whole unit; CI runs it: cargo test --release -p hw -- --ignored"]
fn slice_unit_ram_inferred_as_memory() {
    let log = yosys(
        "synth",
        "unit_memory",
        &hw::unit_verilog_with(65536, &hw::Config::most_ops_per_cycle()),
        "read_verilog top.v; hierarchy -check -top top; proc; opt -fast; memory -nomap; opt_clean; \
         flatten; opt_clean; stat; \
         select -assert-count 3 t:$mem_v2; \
         select -assert-count 1 t:$mem_v2 r:SIZE=4096 %i r:WIDTH=128 %i r:RD_PORTS=1 %i r:WR_PORTS=1 %i; \
         select -assert-count 1 t:$mem_v2 r:SIZE=32 %i r:WIDTH=146 %i r:RD_PORTS=1 %i r:WR_PORTS=1 %i; \
         select -assert-count 1 t:$mem_v2 r:SIZE=8 %i r:WIDTH=174 %i r:RD_PORTS=1 %i r:WR_PORTS=1 %i",
    );
    // 4096 lines of 128 bits, one synchronous read port (its output register merged into
    // the memory), one write port; the response FIFO's 32 places of 146 bits; the queue's 8
    // payloads of 174 bits.
    assert_eq!(
        stat_count(&log, "$mem_v2"),
        3,
        "three memories expected: the line RAM, the response FIFO's places and the queue's payloads"
    );
}

/// Generic synthesis without mapping the memory to flip-flops (`synth` up to `fine`, then the
/// rest of its script but `memory_map`), `check -assert`, no latches, the memory kept.
#[test]
#[ignore]
fn slice_unit_full_synth_keeps_memory() {
    let log = yosys(
        "synth",
        "unit_full",
        &hw::unit_verilog_with(65536, &hw::Config::most_ops_per_cycle()),
        &format!(
            "read_verilog top.v; synth -top top -flatten -run :fine; opt -fast -full; techmap; opt -fast; \
             abc -fast; opt -fast; check -assert; {NO_LATCHES}; stat"
        ),
    );
    assert_eq!(stat_count(&log, "$mem_v2"), 3, "the line RAM, the response FIFO's places and the queue's payloads");
    eprintln!("{}", &log[log.rfind("Number of wires").unwrap_or(0)..]);
}
