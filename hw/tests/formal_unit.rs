//! Formal proofs of the L2-slice unit's flow control with Yosys' SMT flow (see `formal.rs`
//! for the flow and the FIFO's and the queue's proofs), at the unit's shallowest and its
//! default depths: the accept stage from the port to the queue's push and the flow from issue
//! to response, each with the rest of the unit cut (the queue and the data path among it);
//! for every property a mutation that must make the check from reset fail on it. All are
//! `#[ignore]`d (minutes each): `cargo test --release -p hw --test formal_unit --
//! --include-ignored`, or `scripts/formal.sh`.

mod formal_run;

use formal_run::{Check, Mode, Verdict, depth, unit_queue_key_defines};

/// The unit built with `cfg` (64-byte memory) with its queue cut too (`unit_flow_props.sv`),
/// with the probes of the induction's invariants: the cut queue's issue port, the
/// pipeline's valid bits and ids from issue to response, the credit count, the response
/// FIFO's registers.
fn unit_flow_with(name: &'static str, cfg: &hw::Config) -> Check<'static> {
    unit_flow_live(name, cfg, None)
}

/// `unit_flow_with` with `unit_no_loss`'s bound `live` instead of the places and the FIFO's.
fn unit_flow_live(name: &'static str, cfg: &hw::Config, live: Option<usize>) -> Check<'static> {
    let v = hw::unit_verilog_with(64, cfg);
    let sh = hw::slice_unit::shape(cfg);
    assert_eq!(sh.write_at, sh.stages - 1, "the last stage pushes the response");
    let bits = hw::response_fifo::RSP_ENTRY_BITS;
    // The id's offset in the queue's payload: op (12), offset (4), size (3), fp (1), status (2).
    let pid = 22;
    // The places from issue to response: sc, si, sr, s1, s1b (sc carries no payload), then
    // sp[0..stages]; each place's valid bit and id bit 15.
    let mut places: Vec<(String, Option<String>)> = vec![("sc_valid$q".into(), None)];
    for p in ["si", "sr", "s1", "s1b"] {
        places.push((format!("{p}_valid$q"), Some(format!("{p}_payload$q[{}]", pid + 15))));
    }
    for j in 0..sh.stages {
        places.push((format!("sp_valid${j}$q"), Some(format!("sp_id${j}$q[15]"))));
    }
    let id_from = places.iter().position(|p| p.1.is_some()).unwrap() + 1;
    let (lat, depth) = (places.len(), sh.rsp_depth);
    let cmax = depth - 1;
    let defs = vec![
        format!("DEPTH={depth}"),
        format!("CMAX={cmax}"),
        format!("LAT={lat}"),
        format!("ID_FROM={id_from}"),
        // Its places, then a place per cycle through the FIFO.
        format!("LIVE_BOUND={}", live.unwrap_or(lat + depth)),
    ];
    let defs: Vec<&str> = defs.iter().map(String::as_str).collect();
    let cut = unit_flow_cut(&v);
    let mut c = Check::new(name, "unit_flow_props.sv", v, &defs).cut(cut);
    c = c.probe("p_issue", "queue$issue_valid").probe("p_issue_en", "queue$issue_enable");
    c = c.probe("p_issue_id15", &format!("queue$issue_payload_late[{}]", pid + 15));
    for (j, (valid, id)) in places.iter().enumerate() {
        c = c.probe(&format!("p_v[{j}]"), valid);
        if let Some(id) = id {
            c = c.probe(&format!("p_id[{j}]"), id);
        }
    }
    c = c.probe("p_credits", "credit.credits$q").probe("p_cr_full", "credit.cr_full$q");
    for (w, s) in [("head", "head$q"), ("head_v", "head_v$q"), ("stored", "stored$q"), ("reset_r", "reset_r$q")] {
        c = c.probe(&format!("p_{w}"), &format!("rsp_fifo.{s}"));
    }
    for (w, s) in [("wr", "wr_ptr$q"), ("rd", "rd_ptr$q"), ("count", "count$q")] {
        c = c.probe(&format!("p_{w}"), &format!("rsp_fifo.{s}"));
    }
    for i in 0..depth {
        c = c.probe(&format!("p_mem[{}:{}]", bits * i + bits - 1, bits * i), &format!("rsp_fifo.ram.mem[{i}]"));
    }
    c
}

/// The unit at its shallowest depths (`Config::default()`: ALU latency 3) from issue to
/// response.
fn unit_flow(name: &'static str) -> Check<'static> {
    unit_flow_with(name, &hw::Config::default())
}

/// The unit's cuts for the flow from issue to response: every block and register of the
/// unit's top level but the pipeline's valid bits and ids from issue to response, the credit
/// count and the response FIFO (the ordering queue among them: the harness assumes its proven
/// issue guarantee). A cut block's outputs are free, which only adds behaviours.
fn unit_flow_cut(v: &str) -> String {
    unit_cut(v, |n: &str| {
        let stages = ["sc_valid", "si_valid", "si_payload", "sr_valid", "sr_payload", "s1_valid", "s1_payload"];
        stages.contains(&n)
            || ["s1b_valid", "s1b_payload", "credit", "rsp_fifo"].contains(&n)
            || n.starts_with("sp_valid$")
            || n.starts_with("sp_id$")
    })
}

/// The cut of every block and register of the unit's top level (`v`) but those `keep` names.
fn unit_cut(v: &str, keep: impl Fn(&str) -> bool) -> String {
    let top = &v[v.find("module top(").unwrap()..];
    let top = &top[..top.find("endmodule").unwrap()];
    let mut cut = String::from("cutpoint");
    for l in top.lines() {
        let w: Vec<&str> = l.split_whitespace().collect();
        if let [m, inst] = w[..]
            && let Some(name) = inst.strip_suffix('(')
            && m == format!("top${name}")
            && !keep(name)
        {
            cut += &format!(" {m}");
        }
    }
    assert!(cut.contains("top$queue") && cut.contains("top$alu"), "the unit's top level has changed: {cut}");
    cut
}

/// Asserts that `c` is proven by k-induction of length `REDUNIT_FORMAL_UNIT_K` (default 2).
fn proves(c: Check) {
    assert_eq!(c.run(Mode::Prove(depth("REDUNIT_FORMAL_UNIT_K", 2))), Verdict::Pass);
}

/// The unit at its shallowest depths from issue to response, proven by k-induction:
/// `unit_answered`, `unit_rsp_hold`, `unit_once`, `unit_no_loss` (an issued request answered
/// within its 10 places and the FIFO's 32 while rsp_ready stays high),
/// `unit_fifo_no_overflow`.
#[test]
#[ignore = "k-induction of the unit, a minute: scripts/formal.sh"]
fn unit_flow_proof() {
    proves(unit_flow("unit_flow"));
}

/// The unit's default configuration (`Config::unit_default()`, ALU latency 14) from issue
/// to response, proven by k-induction: the same properties, `unit_no_loss` within 53 cycles
/// of the issue (its 21 places, then a place per cycle through the FIFO's 32), for every
/// issue pattern the queue may produce (its issue a cycle after its pick, its late payload
/// the issued one's).
#[test]
#[ignore = "k-induction of the unit at its default depths, minutes: scripts/formal.sh"]
fn unit_flow_registered_proof() {
    proves(unit_flow_with("unit_flow_registered", &hw::Config::unit_default()));
}

/// The mutations' check at the shallowest depths: the invariants left out, from reset.
fn unit_flow_mutant(name: &'static str) -> Check<'static> {
    unit_flow(name).define("NO_INV")
}

/// The FIFO's head leaves whatever rsp_ready says.
#[test]
#[ignore = "model check of the unit, half a minute: scripts/formal.sh"]
fn unit_flow_mutation_hold_fails() {
    let c = unit_flow_mutant("unit_mut_hold").edit("rsp_fifo$out_ready = rsp_ready;", "rsp_fifo$out_ready = 1'b1;");
    assert!(c.run(Mode::Bmc(16)).fails_on("unit_rsp_hold"));
}

/// sc loaded without an issue.
#[test]
#[ignore = "model check of the unit, half a minute: scripts/formal.sh"]
fn unit_flow_mutation_answered_fails() {
    let c = unit_flow_mutant("unit_mut_answered").edit("sc_valid$d$c = issue && ~reset;", "sc_valid$d$c = ~reset;");
    assert!(c.run(Mode::Bmc(16)).fails_on("unit_answered"));
}

/// The response FIFO's read pointer stuck: a response in its RAM leaves twice
/// (`unit_answered`, which this breaks first, left out).
#[test]
#[ignore = "model check of the unit, half a minute: scripts/formal.sh"]
fn unit_flow_mutation_once_fails() {
    let c = unit_flow_mutant("unit_mut_once").define("SKIP_ANSWERED");
    let c = c.edit("rd_ptr$d$c = (rd_ptr$q + one5) & ptr_mask;", "rd_ptr$d$c = rd_ptr$q;");
    assert!(c.run(Mode::Bmc(18)).fails_on("unit_once"));
}

/// The lost-response check's harness: rsp_ready always high, so an issued request is
/// answered within its 10 places and a few cycles through the FIFO (bound 14, not 42).
fn unit_flow_lost(name: &'static str) -> Check<'static> {
    unit_flow_live(name, &hw::Config::default(), Some(14)).define("NO_INV").define("RSP_READY")
}

/// Responses with status bit 0 set are dropped (the same check without the edit passes:
/// `unit_flow_lost_control_passes`).
#[test]
#[ignore = "model check of the unit, a minute: scripts/formal.sh"]
fn unit_flow_mutation_lost_fails() {
    let c =
        unit_flow_lost("unit_mut_lost").edit("rsp_fifo$push = w_valid;", "rsp_fifo$push = w_valid && ~w_status[0];");
    assert!(c.run(Mode::Bmc(18)).fails_on("unit_no_loss"));
}

/// The lost-response check's control: without the edit its shorter bound holds.
#[test]
#[ignore = "model check of the unit, a minute: scripts/formal.sh"]
fn unit_flow_lost_control_passes() {
    assert_eq!(unit_flow_lost("unit_lost_control").run(Mode::Bmc(18)), Verdict::Pass);
}

/// The default unit's mutations' check: the invariants left out, from reset.
fn unit_flow_registered_mutant(name: &'static str) -> Check<'static> {
    unit_flow_with(name, &hw::Config::unit_default()).define("NO_INV")
}

/// The default unit's si stage takes the queue's issue payload (the slot of this cycle's
/// issue, or nothing) instead of the late payload (the last cycle's): a response carries the
/// id of a request never issued.
#[test]
#[ignore = "model check of the default unit, minutes: scripts/formal.sh"]
fn unit_flow_registered_mutation_late_fails() {
    let c = unit_flow_registered_mutant("unit_reg_mut_late")
        .edit("si_payload$d$c = queue$issue_payload_late;", "si_payload$d$c = queue$issue_payload;");
    assert!(c.run(Mode::Bmc(26)).fails_on("unit_once"));
}

/// The unit's accept stage (`accept_props.sv`) for `cfg` (64-byte memory) with every other
/// top-level block cut, the probes of its push into the cut queue and of its registers.
fn accept_with(name: &'static str, cfg: &hw::Config) -> Check<'static> {
    let v = hw::unit_verilog_with(64, cfg);
    let cut = unit_cut(&v, |n| n == "accept");
    // The id's offset in the queue's payload (see `unit_flow_with`).
    let pid = 22;
    // The key's defines as the queue's proof takes them.
    let mut defs = unit_queue_key_defines();
    defs.push("LIVE_BOUND=3".into());
    let defs: Vec<&str> = defs.iter().map(String::as_str).collect();
    let mut c = Check::new(name, "accept_props.sv", v, &defs).cut(cut);
    for (w, s) in [("ad_v", "ad_valid$q"), ("ac_v", "ac_valid$q"), ("ad_ld", "ad_ld$q"), ("ac_ld", "ac_ld$q")] {
        c = c.probe(&format!("p_{w}"), &format!("accept.{s}"));
    }
    c = c.probe("p_ac_ld_q", "accept.ac_ld_q$q");
    c = c.probe("p_ad_a", "accept.ad_id$q[15]").probe("p_ad_b", "accept.ad_id$q[14]");
    c = c.probe("p_ac_a", &format!("accept.ac_payload$q[{}]", pid + 15));
    c = c.probe("p_ac_b", &format!("accept.ac_payload$q[{}]", pid + 14));
    for (w, s) in [("wait", "ad_wait$q"), ("key", "ad_key$q"), ("words", "ad_words$q")] {
        c = c.probe(&format!("p_ad_{w}"), &format!("accept.{s}"));
    }
    for w in ["ready", "ready_nx", "valid", "nx_keep", "line", "line_nx", "key", "key_nx", "words", "words_nx", "wait"]
    {
        c = c.probe(&format!("push_{w}"), &format!("queue$push_{w}"));
    }
    c.probe("push_id[1:0]", &format!("queue$push_payload[{}:{}]", pid + 15, pid + 14))
}

/// The unit's accept stage (`Config::unit_default()`).
fn accept(name: &'static str) -> Check<'static> {
    accept_with(name, &hw::Config::unit_default())
}

/// The unit's accept stage, proven by k-induction: `acc_valid` (a push only with
/// an accepted request held), `acc_ready` (req_ready low exactly when ad and ac both hold a
/// request and the queue refuses the push), `acc_once`, `acc_order` (pushed in acceptance
/// order), `acc_no_loss` (pushed within 3 cycles of acceptance while push_ready stays high),
/// `acc_nx` and `acc_key` (the registered push's contracts that the queue's proof assumes:
/// the next line, key and words a cycle ahead; the key's window and words).
#[test]
#[ignore = "k-induction of the unit's accept stage, a minute: scripts/formal.sh"]
fn accept_proof() {
    proves(accept("accept"));
}

/// The accept stage's mutations: the invariants left out, the Verilog edit `from` → `to`,
/// `steps` cycles from reset.
fn accept_mutant(name: &'static str, from: &'static str, to: &'static str, steps: usize) -> Verdict {
    accept(name).define("NO_INV").edit(from, to).run(Mode::Bmc(steps))
}

/// A push with nothing held.
#[test]
#[ignore = "model check of the unit's accept stage, half a minute: scripts/formal.sh"]
fn accept_mutation_valid_fails() {
    let v = accept_mutant("acc_mut_valid", "push_valid = ac_valid$q;", "push_valid = 1'b1;", 4);
    assert!(v.fails_on("acc_valid"));
}

/// ad loads while ac holds a request the queue refuses: req_ready high with both full.
#[test]
#[ignore = "model check of the unit's accept stage, half a minute: scripts/formal.sh"]
fn accept_mutation_ready_fails() {
    let from = "ad_ld$d$c = ~ad_v_nx || ~ac_v_nx || push_ready_nx;";
    let v = accept_mutant("acc_mut_ready", from, "ad_ld$d$c = ~ad_v_nx || push_ready_nx;", 6);
    assert!(v.fails_on("acc_ready"));
}

/// ac never reloads while it holds a request: the pushed request is pushed again.
#[test]
#[ignore = "model check of the unit's accept stage, half a minute: scripts/formal.sh"]
fn accept_mutation_once_fails() {
    let v = accept_mutant("acc_mut_once", "ac_ld$d$c = ~ac_v_nx || push_ready_nx;", "ac_ld$d$c = ~ac_v_nx;", 6);
    assert!(v.fails_on("acc_once"));
}

/// B may be presented before A (a harness mutation), so it is pushed first.
#[test]
#[ignore = "model check of the unit's accept stage, half a minute: scripts/formal.sh"]
fn accept_mutation_order_fails() {
    let c = accept("acc_mut_order").define("NO_INV").define("MUT_B_FIRST");
    assert!(c.run(Mode::Bmc(6)).fails_on("acc_order"));
}

/// The bound one cycle short.
#[test]
#[ignore = "model check of the unit's accept stage, half a minute: scripts/formal.sh"]
fn accept_mutation_bound_fails() {
    let mut c = accept("acc_mut_bound").define("NO_INV");
    c.defines.retain(|d| !d.starts_with("LIVE_BOUND"));
    assert!(c.define("LIVE_BOUND=2").run(Mode::Bmc(6)).fails_on("acc_no_loss"));
}

/// keep never set: the queue takes the next line while ac holds its request.
#[test]
#[ignore = "model check of the unit's accept stage, half a minute: scripts/formal.sh"]
fn accept_mutation_nx_fails() {
    let v = accept_mutant("acc_mut_nx", "push_nx_keep = ~ac_ld_q$q;", "push_nx_keep = 1'b0;", 6);
    assert!(v.fails_on("acc_nx"));
}

/// The decoder's words of an 8-byte access one word short: a fast key no longer names the
/// words its access touches.
#[test]
#[ignore = "model check of the unit's accept stage, half a minute: scripts/formal.sh"]
fn accept_mutation_key_fails() {
    let (from, to) = ("words$c = three4 << addr", "words$c = one4 << addr");
    assert!(accept_mutant("acc_mut_key", from, to, 4).fails_on("acc_key"));
}

/// A credit limit of 32 for the default unit's 32-place FIFO: its count sees an issue a
/// cycle after the pick, so a 33rd request issues and overflows the FIFO. The FIFO's RAM is
/// cut as well (the overflow is in its count; the responses' ids become free, so `unit_once`
/// is left out), so that a model check reaches the 56 cycles it takes; it checks cycles 56
/// to 59 only.
#[test]
#[ignore = "deep model check of the default unit: scripts/formal.sh"]
fn unit_flow_registered_mutation_overflow_fails() {
    let mut c = unit_flow_registered_mutant("unit_reg_mut_overflow").define("SKIP_ONCE").edit(
        "localparam  credit_max = 6'b11111;\n    localparam  credit_max_m1 = 6'b11110;\n    localparam  credit_max_p1 = 6'b100000;",
        "localparam  credit_max = 6'b100000;\n    localparam  credit_max_m1 = 6'b11111;\n    localparam  credit_max_p1 = 6'b100001;",
    );
    c.probes.retain(|(w, _)| !w.starts_with("p_mem"));
    c.cut.push_str(" top$rsp_fifo$ram");
    assert!(c.run(Mode::BmcLast(56, 60)).fails_on("unit_fifo_no_overflow"));
}
