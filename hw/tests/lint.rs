//! Every block's generated Verilog through Yosys (no latches, nothing undriven:
//! `check -assert`) and `verilator --lint-only -Wall` (waivers: `hw/lint/waivers.vlt`).

mod common;
use common::lint;
use hw::fp_add::{FpAddF32, FpAddF64};
use hw::fp_add16::FpAdd16;
use hw::fp_minmax16::FpMinMax16;
use hw::int_alu::IntAlu;
use rust_hdl::prelude::*;

fn verilog<B: Block + Default>() -> String {
    hw::verilog::verilog(&mut B::default())
}

#[test]
fn lint_int_alu() {
    lint("int_alu", &verilog::<IntAlu>(), true);
}

#[test]
fn lint_fp_minmax16() {
    lint("fp_minmax16", &verilog::<FpMinMax16>(), true);
}

#[test]
fn lint_fp_add16() {
    lint("fp_add16", &verilog::<FpAdd16>(), true);
}

#[test]
fn lint_fp_add_f32() {
    lint("fp_add_f32", &verilog::<FpAddF32>(), true);
}

#[test]
fn lint_fp_add_f64() {
    lint("fp_add_f64", &verilog::<FpAddF64>(), true);
}

#[test]
fn lint_reduction_alu() {
    lint("reduction_alu", &hw::alu_verilog(), false);
}

/// The whole ALU through the full generic Yosys `synth` (about 45 s and 39k cells on the
/// 2-core build machine, so not in the default run; `lint_reduction_alu` already finds
/// latches and undriven signals after `proc`). Run with `cargo test -p hw -- --ignored`.
#[test]
#[ignore]
fn lint_reduction_alu_full_synth() {
    lint("reduction_alu_full", &hw::alu_verilog(), true);
}

#[test]
fn lint_redux_sync() {
    lint("redux_sync", &hw::redux_verilog(), false);
}

/// The redux block through the full generic Yosys `synth` (about 20 s on the 2-core build
/// machine, 35 s loaded; `lint_redux_sync` already finds latches and undriven signals after `proc`).
#[test]
#[ignore]
fn lint_redux_sync_full_synth() {
    lint("redux_sync_full", &hw::redux_verilog(), true);
}

#[test]
fn lint_ordering_queue() {
    lint("ordering_queue", &verilog::<hw::ordering_queue::OrderingQueue>(), true);
}

#[test]
fn lint_response_fifo() {
    lint("response_fifo", &verilog::<hw::response_fifo::ResponseFifo>(), true);
}

#[test]
fn lint_line_memory() {
    // A size that is not a power of two: the address bits above those it uses are unused.
    // (Generic `synth` would map the RAM to flip-flops; `tests/slice_unit_synth.rs` checks
    // that Yosys infers it as a memory.)
    lint("line_memory", &hw::verilog::verilog(&mut hw::line_memory::LineMemory::new(3072)), false);
}

/// The whole unit (64 KiB) at its shallowest depths (`Config::most_ops_per_cycle`) through
/// Yosys `proc; check -assert` and Verilator `-Wall`. (The unit's default configuration, every
/// block at its deepest, takes minutes: `lint_slice_unit_fastest_clock`, ignored.)
#[test]
fn lint_slice_unit() {
    lint("slice_unit", &hw::unit_verilog_with(65536, &hw::Config::most_ops_per_cycle()), false);
}

/// The warp coalescer alone, through Yosys `proc; check -assert` and Verilator `-Wall`.
#[test]
fn lint_warp_coalescer() {
    lint("warp_coalescer", &verilog::<hw::WarpCoalescer>(), false);
}

/// The unit at the fastest clock (`Config::fastest_clock`, the unit's default
/// configuration: every block at its deepest; written by `hw::unit_verilog`, checked equal here). About two
/// minutes (86k lines of Verilog): run with `cargo test --release -p hw -- --ignored`, as CI
/// does.
#[test]
#[ignore]
fn lint_slice_unit_fastest_clock() {
    assert_eq!(hw::Config::unit_default(), hw::Config::fastest_clock());
    lint("slice_unit_fastest", &hw::unit_verilog(65536), false);
}

/// The coalescer in front of the unit (`redunit verilog --top warp`).
#[test]
#[ignore = "a minute: the unit in its default configuration; CI runs it: cargo test --release -p hw -- --ignored"]
fn lint_warp_unit() {
    lint("warp_unit", &hw::warp_verilog(65536), false);
}

/// The deepest configuration (every candidate cut a register): the same checks.
#[test]
fn lint_fp_add_f32_fastest_clock() {
    lint("fp_add_f32_fastest", &hw::verilog::verilog(&mut FpAddF32::new(&hw::Config::fastest_clock())), true);
}

#[test]
fn lint_fp_add_f64_fastest_clock() {
    lint("fp_add_f64_fastest", &hw::verilog::verilog(&mut FpAddF64::new(&hw::Config::fastest_clock())), true);
}

/// The ALU at the fastest clock (its lanes delayed to the deepest adders): lint and `proc`
/// checks (the full synthesis of the deeper ALU is left to `redunit synth --top alu`).
#[test]
fn lint_reduction_alu_fastest_clock() {
    lint("reduction_alu_fastest", &hw::alu_verilog_with(&hw::Config::fastest_clock()), false);
}

#[test]
fn lint_int_alu_fastest_clock() {
    lint("int_alu_fastest", &hw::verilog::verilog(&mut IntAlu::new(&hw::Config::fastest_clock())), true);
}

/// The deepest f16/bf16 lane (the segmented datapath, every candidate cut a register).
#[test]
fn lint_fp_add16_fastest_clock() {
    lint("fp_add16_fastest", &hw::verilog::verilog(&mut FpAdd16::new(&hw::Config::fastest_clock())), true);
}

/// The segmented datapath with every cut a wire (the longest combinational paths).
#[test]
fn lint_fp_add16_segmented_no_cut() {
    lint("fp_add16_no_cut", &hw::verilog::verilog(&mut FpAdd16::with_cuts(0)), true);
}

/// The AXI front end in front of the unit (`redunit verilog --top axi`), with the unit at its
/// shallowest depths (the fastest to lint).
#[test]
#[ignore = "a minute of Verilator on the AXI top; CI runs it: cargo test --release -p hw -- --ignored"]
fn lint_axi_unit() {
    lint("axi_unit", &hw::axi_verilog_with(65536, &hw::Config::most_ops_per_cycle()), false);
}

/// The AXI front end alone (no unit behind it would be a different top): its blocks through
/// the full generic Yosys `synth`, which finds latches and undriven bits after optimisation.
#[test]
fn lint_axi_blocks() {
    lint("axi_write", &verilog::<hw::axi::write::AxiWrite<4>>(), true);
    lint("axi_read", &verilog::<hw::axi::read::AxiRead<4>>(), true);
    lint("axi_rob", &verilog::<hw::axi::rob::ResponseOrder<4>>(), true);
    // Other ID widths.
    lint("axi_rob_id1", &verilog::<hw::axi::rob::ResponseOrder<1>>(), true);
    lint("axi_write_id12", &verilog::<hw::axi::write::AxiWrite<12>>(), true);
    lint("axi_read_id12", &verilog::<hw::axi::read::AxiRead<12>>(), true);
}
