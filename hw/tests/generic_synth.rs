//! Generic synthesis (Debian's Yosys: `synth`, `check -assert`, `stat`) of every block: no
//! latches, no combinational loops, no undriven nets (`check -assert` fails on both), and the
//! unit's RAM inferred as a memory. The whole ALU and the whole unit take minutes: they are
//! the ignored tests of `tests/lint.rs` and `tests/slice_unit_synth.rs`, which `.ci/run` runs.

mod common;
use common::{NO_LATCHES, stat_count, yosys};
use rust_hdl::prelude::*;

/// Full generic `synth` (flattened), `check -assert`, no latches, `stat`: returns the cells.
fn generic(name: &str, verilog: &str) -> usize {
    let log = yosys(
        "generic_synth",
        name,
        verilog,
        &format!("read_verilog top.v; synth -top top -flatten; check -assert; {NO_LATCHES}; stat"),
    );
    assert!(!log.contains("Latch inferred"), "{name}: latch");
    let cells: usize = log[log.rfind("Number of cells:").unwrap()..]
        .split_whitespace()
        .nth(3)
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    eprintln!("{name}: {cells} cells after generic synth");
    assert!(cells > 0, "{name}: empty netlist");
    cells
}

fn v<B: Block + Default>() -> String {
    hw::verilog::verilog(&mut B::default())
}

#[test]
fn generic_synth_int_alu() {
    generic("int_alu", &v::<hw::int_alu::IntAlu>());
}

#[test]
fn generic_synth_fp_add16() {
    generic("fp_add16", &v::<hw::fp_add16::FpAdd16>());
}

#[test]
fn generic_synth_fp_add_f32() {
    generic("fp_add_f32", &v::<hw::fp_add::FpAddF32>());
}

#[test]
fn generic_synth_fp_add_f64() {
    generic("fp_add_f64", &v::<hw::fp_add::FpAddF64>());
}

#[test]
fn generic_synth_fp_minmax16() {
    generic("fp_minmax16", &v::<hw::fp_minmax16::FpMinMax16>());
}

#[test]
fn generic_synth_ordering_queue() {
    generic("ordering_queue", &v::<hw::ordering_queue::OrderingQueue>());
}

#[test]
fn generic_synth_response_fifo() {
    generic("response_fifo", &v::<hw::response_fifo::ResponseFifo>());
}

/// The queue and the response FIFO as the unit builds them (windows up to 16 with the
/// registered push; 32 places), and the min/max lane split in two.
#[test]
fn generic_synth_registered_pipeline_blocks() {
    generic(
        "ordering_queue_registered",
        &hw::verilog::verilog(&mut hw::ordering_queue::OrderingQueue::with_registered_push(16, true)),
    );
    generic("response_fifo_32", &hw::verilog::verilog(&mut hw::response_fifo::ResponseFifo::new(32)));
    generic(
        "fp_minmax16_split",
        &hw::verilog::verilog(&mut hw::fp_minmax16::FpMinMax16::new(&hw::Config::fastest_clock())),
    );
}

/// The line RAM: generic `synth` up to `fine` keeps it as one `$mem_v2` (generic synthesis has
/// no block RAM and would map it to flip-flops), the rest of the script without
/// `memory_map`, `check -assert`, no latches.
#[test]
fn generic_synth_line_memory_is_a_memory() {
    let log = yosys(
        "generic_synth",
        "line_memory",
        &hw::verilog::verilog(&mut hw::line_memory::LineMemory::new(256)),
        &format!(
            "read_verilog top.v; synth -top top -flatten -run :fine; opt -fast -full; techmap; opt -fast; abc -fast; \
             opt -fast; check -assert; {NO_LATCHES}; stat; \
             select -assert-count 1 t:$mem_v2 r:SIZE=256 %i r:WIDTH=128 %i"
        ),
    );
    assert_eq!(stat_count(&log, "$mem_v2"), 1, "one memory expected");
    assert_eq!(stat_count(&log, "$_DFF_P_"), 0, "the RAM's words must not become flip-flops");
}

/// The ECP5 flow's memory with an output register (`REDUNIT_ECP5`, as `redunit synth` reads
/// it): 32 DP16KD in 4K x 4 mode that read through their own output register, every pin and
/// parameter one the primitive has (Yosys's ECP5 cell library as black boxes), no memory
/// left for inference. 256 lines: the unused high address bits are tied off; 4096 lines: all
/// twelve are used.
#[test]
fn line_memory_ecp5_reads_through_the_block_rams_output_register() {
    for lines in [256, 4096] {
        let log = yosys(
            "generic_synth",
            &format!("line_memory_ecp5_{lines}"),
            &hw::verilog::verilog(&mut hw::line_memory::LineMemory::with_output_register(lines, true)),
            "read_verilog -lib +/ecp5/cells_sim.v; read_verilog -DREDUNIT_ECP5 top.v; hierarchy -check -top top; \
             proc; flatten; opt_clean; check -assert; stat; \
             select -assert-count 32 t:DP16KD r:REGMODE_B=OUTREG %i r:DATA_WIDTH_A=4 %i r:DATA_WIDTH_B=4 %i; \
             select -assert-none t:$mem_v2 t:$memrd_v2 t:$memwr_v2",
        );
        assert_eq!(stat_count(&log, "DP16KD"), 32, "{lines} lines: 32 block RAMs expected");
    }
}

/// Flip-flops after a flattened generic `synth` (the `$_DFF_P_` cells).
fn flip_flops(name: &str, verilog: &str) -> usize {
    let log = yosys(
        "generic_synth",
        name,
        verilog,
        &format!("read_verilog top.v; synth -top top -flatten; check -assert; {NO_LATCHES}; stat"),
    );
    stat_count(&log, "$_DFF_P_")
}

/// The depth is real hardware: every extra stage of the f32 adder keeps registers that the
/// shallower configuration folds away (a cut whose constant did not reach the Verilog, or a
/// register Yosys removed, would leave the counts equal).
#[test]
fn generic_synth_fp_add_f32_depth_adds_registers() {
    let mut last = 0;
    for stages in [3, 4, 14] {
        let cfg = hw::Config { fp_stages: stages, ..hw::Config::default() };
        let ff =
            flip_flops(&format!("fp_add_f32_fp{stages}"), &hw::verilog::verilog(&mut hw::fp_add::FpAddF32::new(&cfg)));
        eprintln!("fp_add_f32 at {stages} stages: {ff} flip-flops");
        assert!(ff > last, "{stages} stages: {ff} flip-flops, not more than the shallower depth's {last}");
        last = ff;
    }
}

/// The same for the f16/bf16 lane: every depth from 4 (the segmented lane) to the deepest keeps
/// more registers than the one before (each candidate cut reaches the hardware).
#[test]
fn generic_synth_fp_add16_depth_adds_registers() {
    use hw::config::{FP16_STAGES_MAX, FP16_STAGES_MIN};
    let mut last = 0;
    for stages in FP16_STAGES_MIN + 1..=FP16_STAGES_MAX {
        let cfg = hw::Config { fp16_stages: stages, ..hw::Config::default() };
        let ff =
            flip_flops(&format!("fp_add16_h{stages}"), &hw::verilog::verilog(&mut hw::fp_add16::FpAdd16::new(&cfg)));
        eprintln!("fp_add16 at {stages} stages: {ff} flip-flops");
        assert!(ff > last, "{stages} stages: {ff} flip-flops, not more than the shallower depth's {last}");
        last = ff;
    }
}
