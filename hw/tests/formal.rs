//! Formal proofs with Yosys' SMT flow (`yosys-smtbmc` with z3): a SystemVerilog harness per
//! block (`hw/formal/*.sv`, `assume`/`assert` read with `read_verilog -formal`) around the
//! block's generated Verilog, bounded model checks from reset, and for every property set
//! mutations that must make the check fail (so a harness that checks nothing cannot pass).
//!
//! Flow per check: `prep -top harness; flatten; memory_map`, then the logic is lowered to
//! AND gates (`techmap; abc -g AND`) before `write_smt2`: z3 hangs on the word-level SMT2 of
//! rust-hdl's long `always @(*)` chains (each loop step re-assigning a vector), but not on
//! the gate-level one. Registers start at rust-hdl's power-up values and `reset` is high
//! in cycle 0 only.
//!
//! The quick checks (mutations, which fail within a few cycles) run by default; the bounded
//! proofs are `#[ignore]` (minutes each): `cargo test --release -p hw --test formal --
//! --include-ignored`, or `scripts/formal.sh`. Each test fails when yosys or yosys-smtbmc or
//! z3 is missing (run `scripts/setup.sh`).

use hw::ordering_queue::OrderingQueue;
use hw::response_fifo::ResponseFifo;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// The outcome of one check.
#[derive(Debug, PartialEq)]
enum Verdict {
    Pass,
    Fail,
}

/// The harness `file` (in `hw/formal`) around `dut` (the block's Verilog, module `top`), with
/// `defines`, model-checked for `steps` cycles from reset. Panics when a tool is missing or
/// errs.
fn check(name: &str, file: &str, dut: &str, defines: &[&str], steps: usize) -> Verdict {
    check_cut(name, file, dut, defines, steps, "")
}

/// [`check`] with Yosys commands `cut` run on the elaborated design before `prep` (cut
/// points).
fn check_cut(name: &str, file: &str, dut: &str, defines: &[&str], steps: usize, cut: &str) -> Verdict {
    for tool in ["yosys", "yosys-smtbmc", "z3"] {
        let found = Command::new("sh").arg("-c").arg(format!("command -v {tool}")).output().unwrap();
        assert!(found.status.success(), "{tool} not found: run scripts/setup.sh (it installs yosys and z3)");
    }
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("formal").join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("dut.v"), dut).unwrap();
    let harness = Path::new(env!("CARGO_MANIFEST_DIR")).join("formal").join(file);
    let defs: String = defines.iter().map(|d| format!(" -D{d}")).collect();
    let script = format!(
        "read_verilog -formal dut.v\n\
         read_verilog -formal -sv{defs} {h}\n\
         hierarchy -top harness\nproc\n{cut}\n\
         prep -top harness\nflatten\nmemory_map\nopt -full\ntechmap\nopt -fast\nabc -g AND\n\
         opt_clean\nasync2sync\ndffunmap\nopt_clean\nwrite_smt2 -wires model.smt2\n",
        h = harness.display()
    );
    std::fs::write(dir.join("model.ys"), &script).unwrap();
    let y = Command::new("yosys").current_dir(&dir).args(["-q", "-l", "yosys.log", "model.ys"]).output().unwrap();
    assert!(y.status.success(), "{name}: yosys failed (log in {})", dir.display());
    let t = Instant::now();
    let bmc = Command::new("yosys-smtbmc")
        .current_dir(&dir)
        .args(["-s", "z3", "--presat", "--noincr", "-t", &steps.to_string(), "--dump-vcd", "trace.vcd", "model.smt2"])
        .output()
        .unwrap();
    let log = format!("{}{}", String::from_utf8_lossy(&bmc.stdout), String::from_utf8_lossy(&bmc.stderr));
    std::fs::write(dir.join("smtbmc.log"), &log).unwrap();
    let verdict = if log.contains("Status: PASSED") {
        Verdict::Pass
    } else if log.contains("Status: FAILED") {
        Verdict::Fail
    } else {
        panic!("{name}: yosys-smtbmc gave no status (log in {})", dir.display())
    };
    let failed: Vec<&str> = log.lines().filter(|l| l.contains("Assert failed")).collect();
    eprintln!("{name}: {verdict:?} at {steps} steps in {:.1} s {failed:?}", t.elapsed().as_secs_f64());
    verdict
}

/// The default queue (8 slots, hazard windows up to 2, push and issue in one cycle).
fn queue_default() -> String {
    hw::verilog::verilog(&mut OrderingQueue::default())
}

/// The default queue's defines: 8 slots, windows 0..=2, lines over 4 values.
const Q: [&str; 4] = ["DEPTH=8", "WMAX=2", "LBITS=2", "LIVE_BOUND=30"];

fn q_defs(extra: &[&'static str]) -> Vec<&'static str> {
    Q.iter().copied().chain(extra.iter().copied()).collect()
}

/// Queue: order per line, exactly-once, issue only of a held entry, push_ready low only when
/// full, bounded from reset.
#[test]
#[ignore = "bounded model check, minutes: scripts/formal.sh"]
fn queue_properties_bounded() {
    let steps = depth("REDUNIT_FORMAL_QUEUE_STEPS", 14);
    assert_eq!(check("queue", "queue_props.sv", &queue_default(), &Q, steps), Verdict::Pass);
}

/// The default unit's queue (`Config::unit_default()`: registered push, issue outputs a cycle
/// after the pick, windows up to 16), with the same properties, bounded from reset.
#[test]
#[ignore = "bounded model check, minutes: scripts/formal.sh"]
fn queue_registered_properties_bounded() {
    let steps = depth("REDUNIT_FORMAL_QUEUE_REG_STEPS", 12);
    let sh = hw::slice_unit::shape(&hw::Config::unit_default());
    let w = sh.win_fp.max(1);
    let v = hw::verilog::verilog(&mut OrderingQueue::with_registered_push(w, true).with_chain_wait(sh.win_chain));
    let wmax = format!("WMAX={w}");
    let cw = format!("CHAIN_WAIT={}", sh.win_chain);
    let defs = ["DEPTH=8", &wmax, "LBITS=2", "LIVE_BOUND=200", "REGISTERED", &cw];
    assert_eq!(check("queue_registered", "queue_props.sv", &v, &defs, steps), Verdict::Pass);
}

#[test]
fn queue_mutation_drop_push_fails() {
    assert_eq!(check("queue_drop", "queue_props.sv", &queue_default(), &q_defs(&["MUT_DROP_PUSH", "SKIP_MARK"]), 12), Verdict::Fail);
}

#[test]
fn queue_mutation_other_line_fails() {
    let defs = q_defs(&["MUT_OTHER_LINE", "SKIP_OCC"]);
    assert_eq!(check("queue_other_line", "queue_props.sv", &queue_default(), &defs, 8), Verdict::Fail);
}

#[test]
fn queue_mutation_ready_fails() {
    assert_eq!(check("queue_ready", "queue_props.sv", &queue_default(), &q_defs(&["MUT_READY", "SKIP_MARK"]), 4), Verdict::Fail);
}

fn fifo(depth: usize) -> String {
    hw::verilog::verilog(&mut ResponseFifo::new(depth))
}

/// Response FIFO (the shallow unit's 8 places): valid/ready hold, exactly-once, order, and
/// every response out within 10 cycles of its push while out_ready stays high.
#[test]
#[ignore = "bounded model check, minutes: scripts/formal.sh"]
fn fifo_properties_bounded() {
    let steps = depth("REDUNIT_FORMAL_FIFO_STEPS", 20);
    assert_eq!(check("fifo8", "fifo_props.sv", &fifo(8), &["DEPTH=8", "LIVE_BOUND=10"], steps), Verdict::Pass);
}

#[test]
fn fifo_mutation_overfill_fails() {
    assert_eq!(check("fifo_overfill", "fifo_props.sv", &fifo(8), &["DEPTH=8", "LIVE_BOUND=10", "MUT_OVERFILL"], 16), Verdict::Fail);
}

#[test]
fn fifo_mutation_no_hold_fails() {
    assert_eq!(check("fifo_no_hold", "fifo_props.sv", &fifo(8), &["DEPTH=8", "LIVE_BOUND=10", "MUT_NO_HOLD"], 6), Verdict::Fail);
}

/// The shallow unit (`Config::default()`, the most operations per cycle: 8-place response
/// FIFO, latency 6) with 64 bytes of memory, and an assertion spliced into its response FIFO:
/// the responses behind the FIFO's head never exceed its 8 places (no overflow).
fn unit_shallow() -> String {
    let v = hw::unit_verilog_with(64, &hw::Config::default());
    let end = "endmodule // top$rsp_fifo\n";
    assert!(v.contains(end), "the unit's Verilog has no module top$rsp_fifo");
    let check = "`ifdef FORMAL\n    // unit_fifo_no_overflow\n    always @(*) if (!reset) assert(count$q <= 6'd8);\n`endif\n";
    v.replace(end, &format!("{check}{end}"))
}

/// The unit's ALU results and memory data become free inputs (sound for flow control, which
/// does not look at data).
const UNIT_CUT: &str = "cutpoint top$alu/w:out_data top$int_alu/w:y top$mem/w:read_data";

/// Unit: response hold, answered once, answers only to accepted requests, response FIFO
/// never over its places; bounded from reset.
#[test]
#[ignore = "bounded model check, minutes: scripts/formal.sh"]
fn unit_properties_bounded() {
    let steps = depth("REDUNIT_FORMAL_UNIT_STEPS", 12);
    let v = check_cut("unit", "unit_props.sv", &unit_shallow(), &["LIVE_BOUND=20"], steps, UNIT_CUT);
    assert_eq!(v, Verdict::Pass);
}

#[test]
#[ignore = "model check of the whole unit, a minute: scripts/formal.sh"]
fn unit_mutation_ignore_ready_fails() {
    let v = check_cut("unit_ignore_ready", "unit_props.sv", &unit_shallow(), &["LIVE_BOUND=20", "MUT_IGNORE_READY"], 12, UNIT_CUT);
    assert_eq!(v, Verdict::Fail);
}

/// The check depth: `var` or `default` cycles.
fn depth(var: &str, default: usize) -> usize {
    std::env::var(var).ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}
