//! Generic synthesis (Debian's Yosys: `synth`, `check -assert`, `stat`) of every block: no
//! latches, no combinational loops, no undriven nets (`check -assert` fails on both), and the
//! unit's RAM inferred as a memory. The whole ALU and the whole unit take minutes: they are
//! the ignored tests of `tests/lint.rs` and `tests/slice_unit_synth.rs`, which `.ci/run` runs.

use rust_hdl::prelude::*;
use std::path::PathBuf;
use std::process::Command;

/// Runs `script` on `verilog` (file `top.v`) in a fresh folder; returns the log.
fn yosys(name: &str, verilog: &str, script: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("generic_synth").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("top.v"), verilog).unwrap();
    let out = Command::new("yosys").current_dir(&dir).args(["-q", "-l", "yosys.log", "-p", script]).output().unwrap();
    let log = std::fs::read_to_string(dir.join("yosys.log")).unwrap_or_default();
    assert!(
        out.status.success(),
        "yosys failed on {name} ({}):\n{}\n{}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr),
        &log[log.len().saturating_sub(4000)..]
    );
    log
}

/// The number after `name` in the last `stat` of a Yosys log (0 if absent).
fn stat_count(log: &str, name: &str) -> usize {
    let tail = &log[log.rfind("Number of cells").unwrap_or(0)..];
    tail.lines()
        .filter_map(|l| {
            let mut w = l.split_whitespace();
            (w.next() == Some(name)).then(|| w.next().and_then(|n| n.parse().ok())).flatten()
        })
        .next()
        .unwrap_or(0)
}

const NO_LATCHES: &str = "select -assert-none t:$dlatch t:$adlatch t:$dlatchsr t:$_DLATCH_* t:$_DLATCHSR_*";

/// Full generic `synth` (flattened), `check -assert`, no latches, `stat`: returns the cells.
fn generic(name: &str, verilog: &str) -> usize {
    let log = yosys(name, verilog, &format!("read_verilog top.v; synth -top top -flatten; check -assert; {NO_LATCHES}; stat"));
    assert!(!log.contains("Latch inferred"), "{name}: latch");
    let cells = stat_count(&log, "Number of cells:");
    let cells = if cells == 0 {
        log[log.rfind("Number of cells:").unwrap()..].split_whitespace().nth(3).and_then(|n| n.parse().ok()).unwrap_or(0)
    } else {
        cells
    };
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

/// The line RAM: generic `synth` up to `fine` keeps it as one `$mem_v2` (generic synthesis has
/// no block RAM and would map it to flip-flops), the rest of the script without
/// `memory_map`, `check -assert`, no latches.
#[test]
fn generic_synth_line_memory_is_a_memory() {
    let log = yosys(
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
