//! Yosys on the unit's Verilog: the backing RAM is inferred as one memory (a `$mem_v2` of
//! 128-bit words, with its read register merged into the read port), not as flip-flops; and
//! (ignored by default, minutes) a full generic synthesis with the memory kept as a memory.

use std::path::PathBuf;
use std::process::Command;

fn yosys(name: &str, verilog: &str, script: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("synth").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("top.v"), verilog).unwrap();
    let out = Command::new("yosys").current_dir(&dir).args(["-q", "-l", "yosys.log", "-p", script]).output().unwrap();
    let log = std::fs::read_to_string(dir.join("yosys.log")).unwrap_or_default();
    assert!(out.status.success(), "yosys failed ({}):\n{}\n{log}", dir.display(), String::from_utf8_lossy(&out.stderr));
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

#[test]
fn slice_unit_ram_inferred_as_memory() {
    let log = yosys(
        "unit_memory",
        &hw::unit_verilog(65536),
        "read_verilog top.v; hierarchy -check -top top; proc; opt -fast; memory -nomap; opt_clean; \
         flatten; opt_clean; stat; \
         select -assert-count 1 t:$mem_v2; \
         select -assert-count 1 t:$mem_v2 r:SIZE=4096 %i r:WIDTH=128 %i r:RD_PORTS=1 %i r:WR_PORTS=1 %i",
    );
    // 4096 lines of 128 bits, one synchronous read port (its output register merged into
    // the memory), one write port.
    assert_eq!(stat_count(&log, "$mem_v2"), 1, "one memory expected");
}

/// Generic synthesis without mapping the memory to flip-flops (`synth` up to `fine`, then the
/// rest of its script but `memory_map`), `check -assert`, no latches, the memory kept.
#[test]
#[ignore]
fn slice_unit_full_synth_keeps_memory() {
    let log = yosys(
        "unit_full",
        &hw::unit_verilog(65536),
        "read_verilog top.v; synth -top top -flatten -run :fine; opt -fast -full; techmap; opt -fast; \
         abc -fast; opt -fast; check -assert; \
         select -assert-none t:$dlatch t:$adlatch t:$dlatchsr t:$_DLATCH_* t:$_DLATCHSR_*; stat",
    );
    assert_eq!(stat_count(&log, "$mem_v2"), 1);
    eprintln!("{}", &log[log.rfind("Number of wires").unwrap_or(0)..]);
}
