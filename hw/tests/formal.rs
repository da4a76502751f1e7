//! Formal proofs with Yosys' SMT flow (`yosys-smtbmc` with z3): a SystemVerilog harness per
//! block (`hw/formal/*.sv`, `assume`/`assert` read with `read_verilog -formal`) around the
//! block's generated Verilog, proven by k-induction where it closes (the check of `k` cycles
//! from reset and the induction step of length `k` both pass), otherwise model-checked to a
//! bounded depth from reset; and for every property a mutation that must make the check from
//! reset fail on that property (so a harness that checks nothing cannot pass).
//!
//! Flow per check (`formal_run`): `flatten; memory_map`, the harness's probes connected to the
//! design's registers (the induction's invariants read them), `prep -top harness`, then
//! the logic is lowered to AND gates (`techmap; abc -g AND`) before `write_smt2`: z3 hangs on
//! the word-level SMT2 of rust-hdl's long `always @(*)` chains (each loop step re-assigning
//! a vector), but not on the gate-level one. Registers start at rust-hdl's power-up values
//! and `reset` is high in cycle 0 only.
//!
//! This file: the response FIFO and the ordering queue; `formal_unit.rs`: the unit's flow.
//! The quick checks run by default; the long ones are `#[ignore]`: `cargo test --release -p
//! hw --test formal -- --include-ignored`, or `scripts/formal.sh`. Each test fails when
//! yosys or yosys-smtbmc or z3 is missing (run `scripts/setup.sh`).

mod formal_run;

use formal_run::{Check, Mode, Verdict, depth, unit_queue_key_defines, unit_queue_wmax};
use hw::ordering_queue::OrderingQueue;
use hw::response_fifo::ResponseFifo;

/// The default queue (8 slots, hazard windows up to 2, push and issue in one cycle).
fn queue_default() -> String {
    hw::verilog::verilog(&mut OrderingQueue::default())
}

/// The default queue's defines: 8 slots, windows 0..=2, lines over 4 values, and the bound of
/// `no_loss`: an entry issues within `DEPTH * (WMAX + 1) + 1` = 25 cycles of its push while
/// issue_enable stays high (each of the at most 7 entries ahead of it, and itself, issues at
/// most WMAX + 1 cycles after the one before).
const Q: [&str; 4] = ["DEPTH=8", "WMAX=2", "LBITS=2", "LIVE_BOUND=25"];

fn q_defs(extra: &[&'static str]) -> Vec<&'static str> {
    Q.iter().copied().chain(extra.iter().copied()).collect()
}

/// The probes of the queue's invariants (`queue_inv.svh`): per slot, its registers in the
/// blocks `slots` (request state, age matrix) and `ent` (dependences, counts, eligibility).
fn queue_probes(mut c: Check<'static>) -> Check<'static> {
    let d = hw::ordering_queue::QUEUE_DEPTH;
    for i in 0..d {
        for (w, s) in [("valid", "e_valid"), ("ordered", "e_ordered"), ("late", "e_late")] {
            c = c.probe(&format!("p_{w}[{i}]"), &format!("slots.{s}${i}$q"));
        }
        c = c.probe(&format!("p_pay0[{i}]"), &format!("slots.pay.mem[{i}][0]"));
        c = c.probe(&format!("p_pay1[{i}]"), &format!("slots.pay.mem[{i}][1]"));
        for (w, s, n) in [
            ("older", "slots.e_older", d),
            ("dep", "ent.e_dep", d),
            ("cnt", "ent.e_cnt", 16),
            ("wt", "slots.e_wt", 16),
            ("line", "slots.e_line", 28),
            ("words", "slots.e_words", 4),
        ] {
            c = c.probe(&format!("p_{w}[{}:{}]", n * i + n - 1, n * i), &format!("{s}${i}$q"));
        }
        for (w, s) in [("elig", "ent.e_elig"), ("hzc", "ent.e_hzc"), ("fb", "ent.e_fb")] {
            c = c.probe(&format!("p_{w}[{i}]"), &format!("{s}${i}$q"));
        }
    }
    c.probe("p_ht", "history.h_t$0$q").define("INV")
}

/// The probes of the registered queue's invariants (`queue_inv_reg.svh`): those of the default
/// queue's but the lateness, and the pick of the cycle before, the slot chosen for the next
/// push, the pushed line's, words' and key's registered matches, the history's newest place,
/// the issued window that joins the counts a cycle late, per slot the chain key, the windows
/// of 2 or more among its dependences, its chain producers, its last fast predecessor (and
/// whether it waits for it), whether it is its chain's youngest and whether a window joins its
/// count late; and for `no_loss` the history's places and windows.
fn queue_reg_probes(mut c: Check<'static>) -> Check<'static> {
    let d = hw::ordering_queue::QUEUE_DEPTH;
    for i in 0..d {
        for (w, s) in [
            ("valid", "slots.e_valid"),
            ("ordered", "slots.e_ordered"),
            ("elig", "ent.e_elig"),
            ("hzc", "ent.e_hzc"),
            ("fb", "ent.e_fb"),
            ("hw", "ent.e_hw"),
            ("hc", "ent.e_hc"),
            ("lc", "ent.e_lc"),
        ] {
            c = c.probe(&format!("p_{w}[{i}]"), &format!("{s}${i}$q"));
        }
        c = c.probe(&format!("p_pay0[{i}]"), &format!("slots.pay.mem[{i}][0]"));
        c = c.probe(&format!("p_pay1[{i}]"), &format!("slots.pay.mem[{i}][1]"));
        let vecs = [
            ("older", "slots.e_older", d),
            ("dep", "ent.e_dep", d),
            ("dw", "ent.e_dw", d),
            ("ch", "ent.e_ch", d),
            ("lp", "ent.e_lp", d),
            ("cnt", "ent.e_cnt", 16),
            ("wt", "slots.e_wt", 16),
            ("line", "slots.e_line", 28),
            ("words", "slots.e_words", 4),
            ("key", "slots.e_key", hw::ordering_queue::QUEUE_KEY_BITS),
        ];
        for (w, s, n) in vecs {
            c = c.probe(&format!("p_{w}[{}:{}]", n * i + n - 1, n * i), &format!("{s}${i}$q"));
        }
    }
    for (w, s) in [
        ("last_fs", "pick.last_fs$q"),
        ("last_fire", "pick.last_fire$q"),
        ("fr", "alloc.fr$q"),
        ("fr_any", "alloc.fr_any$q"),
        ("tl", "ent.e_tl$q"),
        ("fr_bin", "alloc.fr_bin$q"),
        ("last_bin", "pick.last_bin$q"),
    ] {
        c = c.probe(&format!("p_{w}"), s);
    }
    for (w, s) in [
        ("m_r", "push.m_r$q"),
        ("w_r", "push.w_r$q"),
        ("pc_r", "push.pc_r$q"),
        ("pf_r", "push.pf_r$q"),
        ("ph_we", "history.ph_we$q"),
        ("ph_w0", "history.ph_w$0$q"),
        ("ph_wh0", "history.ph_wh$0$q"),
        ("iwr", "ent.i_wt_r$q"),
    ] {
        c = c.probe(&format!("p_{w}"), s);
    }
    // The ranking of `no_loss` (`inv_live`): the history's places and the windows it holds.
    for p in 0..unit_queue_wmax() - 1 {
        c = c.probe(&format!("p_ht[{}:{}]", 16 * p + 15, 16 * p), &format!("history.h_t${p}$q"));
    }
    for (w, s) in [("ph_w1", "history.ph_w$1$q"), ("ph_hr0", "history.ph_hr$0$q"), ("ph_hr1", "history.ph_hr$1$q")] {
        c = c.probe(&format!("p_{w}"), s);
    }
    c.define("INV")
}

/// The default queue (`OrderingQueue::default()`: 8 slots, windows 0..=2; lines over 4
/// values, `LBITS=2`: the queue compares lines only for equality), proven by k-induction:
/// `issue_enable`, `issue_valid`, `capacity`, `push_ready`, `once`, `order`, and `no_loss`
/// (issued within 25 cycles of its push while issue_enable stays high, [`Q`]), by
/// the ranking invariant `inv_live` (`queue_inv.svh`).
#[test]
#[ignore = "k-induction, two minutes: scripts/formal.sh"]
fn queue_proof() {
    let k = depth("REDUNIT_FORMAL_QUEUE_K", 2);
    let c = queue_probes(Check::new("queue_proof", "queue_props.sv", queue_default(), &Q));
    assert_eq!(c.run(Mode::Prove(k)), Verdict::Pass);
}

/// The default queue's `no_loss` bound, `DEPTH * (WMAX + 1) + 1`, with windows up to 1
/// (`WMAX=1`): proven at 17 cycles; and the property can fail: a bound of 3 fails from reset
/// (an entry behind an older one to its line waits for that one's issue and window).
#[test]
#[ignore = "k-induction and a model check, two minutes: scripts/formal.sh"]
fn queue_mutation_bound_fails() {
    let d17 = [Q[0], "WMAX=1", Q[2], "LIVE_BOUND=17"];
    let d3 = [Q[0], "WMAX=1", Q[2], "LIVE_BOUND=3"];
    let c = queue_probes(Check::new("queue_bound_w1", "queue_props.sv", queue_default(), &d17));
    assert_eq!(c.run(Mode::Prove(2)), Verdict::Pass);
    let c = Check::new("queue_bound", "queue_props.sv", queue_default(), &d3);
    assert!(c.run(Mode::Bmc(8)).fails_on("no_loss"));
}

/// The default unit's queue (registered push, windows 0..=16, chain windows 1 and 13 (long);
/// lines over 4 values), proven by k-induction: `issue_valid`, `capacity`, `push_ready`,
/// `once`, `order`, and `no_loss` (issued within [`queue_registered_live_bound`] cycles of its
/// push while issue_enable stays high), by the ranking invariant `inv_live`
/// (`queue_inv_reg.svh`).
#[test]
#[ignore = "k-induction of the registered queue, ten minutes or more: scripts/formal.sh"]
fn queue_registered_proof() {
    let k = depth("REDUNIT_FORMAL_QUEUE_REG_K", 2);
    let (v, defs) = queue_registered();
    let defs: Vec<&str> = defs.iter().map(|s| s.as_str()).collect();
    let c = queue_reg_probes(Check::new("queue_registered_proof", "queue_props.sv", v, &defs));
    assert_eq!(c.run(Mode::Prove(k)), Verdict::Pass);
}

/// The registered queue's bounded response, `8 * WMAX + 18` (146 for the unit's 16): the entry
/// waits at most WMAX + 2 cycles per entry ahead of it (7 at most), its own first cycle
/// WMAX + 1, and a cycle from its pick to its issue output.
fn queue_registered_live_bound() -> usize {
    8 * unit_queue_wmax() + 18
}

/// The default unit's queue (`Config::unit_default()`: registered push, the unit's windows
/// and chain window) and its harness defines.
fn queue_registered() -> (String, Vec<String>) {
    let sh = hw::slice_unit::shape(&hw::Config::unit_default());
    let v = hw::verilog::verilog(
        &mut OrderingQueue::with_registered_push(unit_queue_wmax(), true)
            .with_chain_wait(sh.win_chain)
            .with_long_chain_wait(sh.win_fp_chain),
    );
    let mut defs = unit_queue_key_defines();
    let live = format!("LIVE_BOUND={}", queue_registered_live_bound());
    defs.extend(["DEPTH=8".to_string(), "LBITS=2".into(), live, "REGISTERED".into()]);
    (v, defs)
}

/// The registered queue's harness with the defines `extra` (a mutation, a group left out).
fn queue_registered_mutant(name: &'static str, extra: &[&'static str]) -> Check<'static> {
    let (v, defs) = queue_registered();
    let mut defs: Vec<&str> = defs.iter().map(|s| s.as_str()).collect();
    defs.extend(extra);
    Check::new(name, "queue_props.sv", v, &defs)
}

/// The registered queue with B allowed on another line, which may overtake A.
#[test]
#[ignore = "model check of the registered queue, half a minute: scripts/formal.sh"]
fn queue_registered_mutation_other_line_fails() {
    let c = queue_registered_mutant("queue_reg_other_line", &["MUT_OTHER_LINE", "SKIP_OCC"]);
    assert!(c.run(Mode::Bmc(8)).fails_on("order"));
}

/// The registered queue with the order check taking fast-equal keys as chain-equal ones: a
/// fast chain's dependent issues a cycle after its producer, sooner than a chain's.
#[test]
#[ignore = "model check of the registered queue, half a minute: scripts/formal.sh"]
fn queue_registered_mutation_no_fast_fails() {
    let c = queue_registered_mutant("queue_reg_no_fast", &["MUT_NO_FAST", "SKIP_OCC"]);
    assert!(c.run(Mode::Bmc(8)).fails_on("order"));
}

/// The registered queue's pick ignores issue_enable.
#[test]
#[ignore = "model check of the registered queue, half a minute: scripts/formal.sh"]
fn queue_registered_mutation_enable_fails() {
    let c = queue_registered_mutant("queue_reg_enable", &["SKIP_MARK", "SKIP_OCC"]);
    assert!(c.edit("en = issue_enable && ~reset;", "en = ~reset;").run(Mode::Bmc(8)).fails_on("issue_enable"));
}

/// The late payload is this cycle's issue payload, not the last cycle's (its register left
/// out).
#[test]
#[ignore = "model check of the registered queue, half a minute: scripts/formal.sh"]
fn queue_registered_mutation_late_fails() {
    let c = queue_registered_mutant("queue_reg_late", &["SKIP_MARK", "SKIP_OCC"]);
    let c = c.edit("issue_payload_late$c = late$q;", "issue_payload_late$c = rd_payload;");
    assert!(c.run(Mode::Bmc(10)).fails_on("late"));
}

/// The registered queue's push_ready_nx always high: it promises a place it does not have.
#[test]
#[ignore = "model check of the registered queue, a minute: scripts/formal.sh"]
fn queue_registered_mutation_ready_nx_fails() {
    let c = queue_registered_mutant("queue_reg_ready_nx", &["SKIP_MARK", "SKIP_OCC"]);
    assert!(c.edit("push_ready_nx = fr_any_nx;", "push_ready_nx = 1'b1;").run(Mode::Bmc(12)).fails_on("ready_nx"));
}

/// The pick ignores issue_enable.
#[test]
fn queue_mutation_enable_fails() {
    let c = Check::new("queue_enable", "queue_props.sv", queue_default(), &q_defs(&["SKIP_MARK"]));
    assert!(c.edit("en = issue_enable && ~reset;", "en = ~reset;").run(Mode::Bmc(4)).fails_on("issue_enable"));
}

#[test]
fn queue_mutation_drop_push_fails() {
    let c = Check::new("queue_drop", "queue_props.sv", queue_default(), &q_defs(&["MUT_DROP_PUSH", "SKIP_MARK"]));
    assert!(c.run(Mode::Bmc(12)).fails_on("capacity"));
}

#[test]
fn queue_mutation_other_line_fails() {
    let defs = q_defs(&["MUT_OTHER_LINE", "SKIP_OCC"]);
    assert!(
        Check::new("queue_other_line", "queue_props.sv", queue_default(), &defs).run(Mode::Bmc(8)).fails_on("order")
    );
}

#[test]
fn queue_mutation_ready_fails() {
    let c = Check::new("queue_ready", "queue_props.sv", queue_default(), &q_defs(&["MUT_READY", "SKIP_MARK"]));
    assert!(c.run(Mode::Bmc(4)).fails_on("push_ready"));
}

/// The response FIFO of `depth` places in its harness, with the probes its invariants read.
fn fifo(name: &'static str, depth: usize) -> Check<'static> {
    let v = hw::verilog::verilog(&mut ResponseFifo::new(depth));
    let defs = [format!("DEPTH={depth}"), format!("LIVE_BOUND={depth}")];
    let mut c = Check::new(name, "fifo_props.sv", v, &[&defs[0], &defs[1]]);
    for (w, s) in [("head", "head$q"), ("head_v", "head_v$q"), ("stored", "stored$q"), ("reset_r", "reset_r$q")] {
        c = c.probe(&format!("p_{w}"), s);
    }
    for (w, s) in [("wr", "wr_ptr$q"), ("rd", "rd_ptr$q"), ("count", "count$q")] {
        c = c.probe(&format!("p_{w}"), s);
    }
    let bits = hw::response_fifo::RSP_ENTRY_BITS;
    for i in 0..depth {
        c = c.probe(&format!("p_mem[{}:{}]", bits * i + bits - 1, bits * i), &format!("ram.mem[{i}]"));
    }
    c
}

/// Response FIFO of 8 places (its smallest depth), proven by k-induction (k = 2):
/// `fifo_valid`, `fifo_hold` (valid/ready: a stalled response holds), `fifo_once` (no loss
/// to overwriting, no duplicate), `fifo_order`, `fifo_no_loss` (a response pushed in cycle t
/// leaves by cycle t + DEPTH - 1 while out_ready stays high), given a producer that keeps
/// the unit's count (fewer than DEPTH responses when it pushes).
#[test]
fn fifo_proof() {
    assert_eq!(fifo("fifo8", 8).run(Mode::Prove(2)), Verdict::Pass);
}

/// The same for the deeper FIFOs the unit takes (16 and 32 places).
#[test]
#[ignore = "k-induction, half a minute: scripts/formal.sh"]
fn fifo_deep_proof() {
    assert_eq!(fifo("fifo16", 16).run(Mode::Prove(2)), Verdict::Pass);
    assert_eq!(fifo("fifo32", 32).run(Mode::Prove(2)), Verdict::Pass);
}

/// The mutations' check: the invariants left out, from reset, 12 cycles.
fn fifo_mutant(name: &'static str) -> Check<'static> {
    fifo(name, 8).define("NO_INV")
}

/// out_valid without a response in the FIFO.
#[test]
fn fifo_mutation_valid_fails() {
    let c = fifo_mutant("fifo_mut_valid").edit("out_valid = head_v$q && ~reset", "out_valid = ~reset");
    assert!(c.run(Mode::Bmc(12)).fails_on("fifo_valid"));
}

/// The head taken over while stalled.
#[test]
fn fifo_mutation_hold_fails() {
    let c = fifo_mutant("fifo_mut_hold").edit("head_free = ~head_v$q || out_ready;", "head_free = 1'b1;");
    assert!(c.run(Mode::Bmc(12)).fails_on("fifo_hold"));
}

/// The read pointer stuck: the RAM's oldest response leaves again.
#[test]
fn fifo_mutation_duplicate_fails() {
    let c = fifo_mutant("fifo_mut_dup").edit("rd_ptr$d$c = (rd_ptr$q + one5) & ptr_mask;", "rd_ptr$d$c = rd_ptr$q;");
    assert!(c.run(Mode::Bmc(12)).fails_on("fifo_once"));
}

/// The producer pushes past its count: the FIFO overwrites a response (one lost, or a later
/// one out before it).
#[test]
fn fifo_mutation_overfill_fails() {
    let v = fifo_mutant("fifo_mut_overfill").define("MUT_OVERFILL").run(Mode::Bmc(16));
    assert!(v.fails_on("fifo_once") || v.fails_on("fifo_order"), "{v:?}");
}

/// A push into a free head bypasses the responses in the RAM (they stay there).
#[test]
fn fifo_mutation_order_fails() {
    let c = fifo_mutant("fifo_mut_order")
        .edit("ram_read = head_free && stored$q;", "ram_read = head_free && stored$q && ~push;")
        .edit("ram_write = push && ~(head_free && ~stored$q);", "ram_write = push && ~head_free;")
        .edit("if (stored$q) begin", "if (stored$q && ~push) begin");
    assert!(c.run(Mode::Bmc(12)).fails_on("fifo_order"));
}

/// out_valid only while a second response waits behind the head: the last one stays (the
/// order's assertion left out: a later response would overtake it first).
#[test]
fn fifo_mutation_stuck_fails() {
    let c = fifo_mutant("fifo_mut_stuck")
        .define("NO_ORDER")
        .edit("out_valid = head_v$q && ~reset", "out_valid = head_v$q && stored$q && ~reset");
    assert!(c.run(Mode::Bmc(14)).fails_on("fifo_no_loss"));
}

/// The stated bound is exact: one cycle less fails.
#[test]
#[ignore = "model check of 18 cycles, a minute: scripts/formal.sh"]
fn fifo_mutation_bound_fails() {
    let mut c = fifo_mutant("fifo_mut_bound");
    c.defines.retain(|d| !d.starts_with("LIVE_BOUND"));
    assert!(c.define("LIVE_BOUND=7").run(Mode::Bmc(18)).fails_on("fifo_no_loss"));
}
