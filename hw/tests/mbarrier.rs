//! The mbarrier block against the model (`sim::mbarrier::MbarTable`), cycle by cycle with a
//! barrier operation and a complete-tx in the same cycle (often on the same mbarrier), more
//! addresses than table entries (the table fills, overflows and frees entries); the async unit
//! (`AsyncUnit`) in rust-hdl's simulator: a phase flips exactly when the last byte of its
//! red.async requests completes, and a test_wait while they are in flight is taken at once
//! and sees the phase incomplete; and both blocks' Verilog through Yosys and Verilator lint.

mod common;
use common::{Rng, b128, lint, seed, u128_of};
use hw::async_unit::{
    ASYNC_FLIP_AFTER_RESPONSE, ASYNC_FLIP_LATENCY, ASYNC_UNIT_CONFIG, ASYNC_UNIT_MAX_INTERVAL, AsyncUnit,
};
use hw::mbarrier::Mbarrier as MbarBlock;
use rust_hdl::prelude::*;
use sim::mbarrier::{MBAR_MAX, MbarError, MbarOp, MbarTable};
use sim::red_async::RedAsync;
use sim::{Access, Memory, Request};

fn random_op(rng: &mut Rng) -> MbarOp {
    let small = |rng: &mut Rng| [0, 4, 8, 12, 16][rng.below(5)];
    let bytes = |rng: &mut Rng| if rng.below(200) == 0 { MBAR_MAX - rng.below(3) as u32 } else { small(rng) };
    match rng.below(21) {
        20 => MbarOp::Inval,
        0 => MbarOp::Init(if rng.below(30) == 0 { 0 } else { 1 + rng.below(3) as u32 }),
        1..=5 => MbarOp::Arrive,
        6..=8 => MbarOp::ArriveExpectTx(bytes(rng)),
        9..=10 => MbarOp::ExpectTx(bytes(rng)),
        11..=12 => MbarOp::CompleteTx(bytes(rng)),
        _ => MbarOp::TestWait(rng.below(2) == 1),
    }
}

/// Mbarrier addresses / 8 of the test: more than the table has entries.
const ADDRS: [u64; 10] = [1, 2, 3, 0x1000, 0x1001, 0x1002, 0x1003, 0x1004, 0x1005, 0x1fff];

#[test]
fn mbarrier_block_matches_the_model() {
    let s = seed("mbarrier_block_matches_the_model");
    let mut rng = Rng(s);
    let mut uut = MbarBlock::default();
    uut.connect_all();
    let mut model = MbarTable::default();
    let (mut flips, mut both_same, mut fulls, mut invals) = (0, 0, 0, 0);
    let mut model_errors = Vec::new();
    for cycle in 0..8000u64 {
        let reset = cycle < 2 || rng.below(3000) == 0;
        // Mostly three hot mbarriers, so the operation and the completion often meet on one.
        let pick = |rng: &mut Rng| if rng.below(4) != 0 { ADDRS[rng.below(3)] } else { ADDRS[rng.below(ADDRS.len())] };
        let op = (rng.below(4) != 0).then(|| {
            let addr = pick(&mut rng);
            // An mbarrier with an error, or not in the table, is soon initialised again.
            let m = model.get(addr);
            if m.is_none_or(|m| m.error.is_some()) && rng.below(3) == 0 {
                (addr, MbarOp::Init(1 + rng.below(2) as u32))
            } else {
                (addr, random_op(&mut rng))
            }
        });
        let cpl = (rng.below(2) == 0).then(|| (pick(&mut rng), [4u32, 8][rng.below(2)]));
        uut.clock.next = Clock::from(false);
        uut.reset.next = reset;
        uut.op_valid.next = op.is_some();
        let (addr, o) = op.unwrap_or((0, MbarOp::Arrive));
        let (code, arg) = o.code();
        uut.op_code.next = b128(code as u128);
        uut.op_addr.next = b128(addr as u128);
        uut.op_arg.next = b128(arg as u128);
        uut.cpl_valid.next = cpl.is_some();
        let (caddr, cbytes) = cpl.unwrap_or((0, 0));
        uut.cpl_addr.next = b128(caddr as u128);
        uut.cpl_bytes.next = b128(cbytes as u128);
        assert!(simulate(&mut uut, 1000), "did not settle");
        // Outputs before the edge: the addressed object's state and the entry vectors.
        let m = model.get(addr).copied();
        let ctx = format!("seed {s}, cycle {cycle}, op {op:?}, cpl {cpl:?}, object {m:?}");
        if cycle >= 2 {
            assert_eq!(uut.op_parity.val(), m.is_some_and(|m| m.parity), "{ctx}");
            let err = m.map_or(Some(MbarError::Uninitialized), |m| m.error);
            assert_eq!(u128_of(uut.op_err.val()) as u8, err.map_or(0, MbarError::code), "{ctx}");
            if let Some(m) = m.filter(|m| m.error.is_none()) {
                assert_eq!(u128_of(uut.op_pending.val()) as u32, m.pending, "{ctx}");
                let tx = u128_of(uut.op_tx.val()) as i64;
                let tx = if tx >= 1 << 21 { tx - (1 << 22) } else { tx };
                assert_eq!(tx, m.tx as i64, "{ctx}");
            }
            assert_eq!(u128_of(uut.valid.val()) as u64, model.valid(), "{ctx}: valid");
            assert_eq!(u128_of(uut.phase.val()) as u64, model.parities(), "{ctx}: phase");
            let errs = u128_of(uut.errs.val()) as usize;
            for (i, e) in model.entries.iter().enumerate() {
                if let Some((_, b)) = e {
                    assert_eq!(errs >> i & 1 == 1, b.error.is_some(), "{ctx}: error of entry {i}");
                }
            }
        }
        // The model: the operation, then the completion.
        let mut flip = 0usize;
        let mut wait = false;
        let mut full = false;
        if reset {
            model = MbarTable::default();
        } else {
            if let Some((a, o)) = op {
                let e = model.apply(a, o);
                wait = e.effect.wait_complete;
                full = e.full;
                fulls += full as u32;
                invals += (o == MbarOp::Inval && e.entry.is_some()) as u32;
                flip |= (e.effect.flipped as usize) << e.entry.unwrap_or(0);
            }
            if let Some((ca, b)) = cpl {
                let e = model.apply(ca, MbarOp::CompleteTx(b));
                flip |= (e.effect.flipped as usize) << e.entry.unwrap_or(0);
                both_same += op.is_some_and(|(a, _)| a == ca) as u32;
            }
        }
        if cycle >= 2 && !reset {
            if let Some((_, MbarOp::TestWait(_))) = op {
                assert_eq!(uut.op_wait_complete.val(), wait, "{ctx}: test_wait");
            }
            if let Some((_, MbarOp::Init(_))) = op {
                assert_eq!(uut.op_full.val(), full, "{ctx}: table full");
            }
            assert_eq!(u128_of(uut.flip.val()) as usize, flip, "{ctx}: flip");
        }
        flips += flip.count_ones();
        model_errors.extend(model.entries.iter().filter_map(|e| e.and_then(|(_, m)| m.error)));
        uut.clock.next = Clock::from(true);
        assert!(simulate(&mut uut, 1000), "did not settle");
    }
    let kinds = |k: MbarError| model_errors.iter().filter(|e| **e == k).count();
    assert!(kinds(MbarError::TxRange) > 0 && kinds(MbarError::Count) > 0, "error statuses not reached");
    assert!(
        flips > 100 && both_same > 500 && fulls > 10 && invals > 50,
        "weak stimulus: {flips} flips, {both_same} same-mbarrier cycles, {fulls} inits on a full table, {invals} invals"
    );
}

/// Drives the async unit in rust-hdl's simulator, one cycle per call.
struct Async {
    uut: AsyncUnit,
    cycle: u64,
}

#[derive(Default, Clone, Copy)]
struct In {
    req: Option<(Access, u32, u128, Option<u64>)>,
    bar: Option<(u64, MbarOp)>,
}

#[derive(Debug, Default, Clone, Copy)]
struct Out {
    req_taken: bool,
    bar_taken: bool,
    wait_complete: bool,
    rsp: Option<(u128, u8)>,
    phase: u8,
    tx: Option<(u64, u32)>,
    u_rsp: bool,
}

impl Async {
    fn new() -> Self {
        let mut uut = AsyncUnit::new(4096);
        uut.connect_all();
        let mut a = Async { uut, cycle: 0 };
        a.uut.reset.next = true;
        a.step(In::default());
        a.step(In::default());
        a.uut.reset.next = false;
        a
    }

    fn step(&mut self, i: In) -> Out {
        let u = &mut self.uut;
        u.clock.next = Clock::from(false);
        u.rsp_ready.next = true;
        u.req_valid.next = i.req.is_some();
        if let Some((a, addr, data, mbar)) = i.req {
            u.req_op.next = b128(a.code() as u128);
            u.req_addr.next = b128(addr as u128);
            u.req_data.next = b128(data);
            u.req_mbar_en.next = mbar.is_some();
            u.req_mbar.next = b128(mbar.unwrap_or(0) as u128);
        }
        u.bar_valid.next = i.bar.is_some();
        if let Some((addr, op)) = i.bar {
            let (c, arg) = op.code();
            u.bar_op.next = b128(c as u128);
            u.bar_addr.next = b128(addr as u128);
            u.bar_arg.next = b128(arg as u128);
        }
        assert!(simulate(u, 10_000), "did not settle");
        let o = Out {
            req_taken: i.req.is_some() && u.req_ready.val(),
            bar_taken: i.bar.is_some() && u.bar_ready.val(),
            wait_complete: u.bar_wait_complete.val(),
            rsp: u.rsp_valid.val().then(|| (u128_of(u.rsp_data.val()), u128_of(u.rsp_status.val()) as u8)),
            phase: u128_of(u.phase.val()) as u8,
            tx: u.tx_valid.val().then(|| (u128_of(u.tx_addr.val()) as u64, u128_of(u.tx_bytes.val()) as u32)),
            u_rsp: u.u_rsp_valid.val(),
        };
        u.clock.next = Clock::from(true);
        assert!(simulate(u, 10_000), "did not settle");
        self.cycle += 1;
        o
    }
}

/// Three `red.async.relaxed ... add.u32` (4 bytes each) on the mbarrier at 8 (tag 1) that
/// expects 12 bytes and one arrival (table entry 0): the phase must flip in the cycle after the third
/// complete-tx, never before; the memory holds the sum; a test_wait on the mbarrier in every
/// cycle is taken at once and sees the phase incomplete until the flip, complete from then.
#[test]
fn async_unit_flips_the_phase_on_the_last_byte() {
    let mut a = Async::new();
    let ra: RedAsync =
        "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32".parse().unwrap();
    let red = Access::Red(ra.red_form());
    let mut mem = Memory::new(4096);
    // init(1), arrive.expect_tx(12) on slot 1.
    for op in [MbarOp::Init(1), MbarOp::ArriveExpectTx(12)] {
        assert!(a.step(In { bar: Some((1, op)), ..In::default() }).bar_taken);
    }
    let mut accepted = vec![];
    let mut txs = vec![];
    let mut flip_cycle = None;
    let mut last_u_rsp = 0;
    let mut k = 0;
    let addrs = [0x40u32, 0x80, 0x40];
    let mut waits_in_flight = 0;
    while a.cycle < 200 {
        let req = (k < 3).then(|| (red, addrs[k], 5u128 + k as u128, Some(1)));
        let bar = Some((1, MbarOp::TestWait(false)));
        let before = a.cycle;
        let o = a.step(In { req, bar });
        if o.req_taken {
            mem.execute(&Request { access: red, addr: addrs[k] as u64, value: 5 + k as u128 }).unwrap();
            accepted.push(before);
            k += 1;
        }
        if o.u_rsp {
            last_u_rsp = before;
        }
        if let Some(t) = o.tx {
            assert_eq!(t, (1, 4));
            txs.push(before);
        }
        if o.phase & 1 != 0 && flip_cycle.is_none() {
            flip_cycle = Some(before);
            assert_eq!(txs.len(), 3, "the phase flipped before the last byte completed");
            assert_eq!(before, txs[2] + 1, "the flip is visible the cycle after the last complete-tx");
        }
        if o.phase & 1 == 0 {
            assert!(txs.len() < 3 || before <= txs[2], "the phase did not flip after the last byte");
        }
        assert!(o.bar_taken, "cycle {before}: a barrier operation is taken at once");
        assert_eq!(o.wait_complete, flip_cycle.is_some(), "cycle {before}: test_wait sees the phase of this cycle");
        if flip_cycle.is_none() && !accepted.is_empty() {
            waits_in_flight += 1;
        }
        if flip_cycle.is_some_and(|f| before > f + 2) {
            break;
        }
    }
    assert!(waits_in_flight >= ASYNC_FLIP_LATENCY, "test_wait while the red.async were in flight: {waits_in_flight}");
    let flip = flip_cycle.expect("the phase never flipped");
    assert_eq!(flip - accepted[2], ASYNC_FLIP_LATENCY as u64, "flip latency from the last acceptance");
    assert_eq!(flip - last_u_rsp, ASYNC_FLIP_AFTER_RESPONSE as u64, "flip latency from the last unit response");
    // The reductions landed: read both words back.
    for addr in [0x40u32, 0x80] {
        let mut got = None;
        let mut sent = false;
        for _ in 0..ASYNC_FLIP_LATENCY + 10 {
            let req = (!sent).then_some((Access::Ld(sim::Width::B32), addr, 0, None));
            let o = a.step(In { req, bar: None });
            sent |= o.req_taken;
            if let (true, Some((d, 0))) = (sent, o.rsp) {
                got = Some(d);
                break;
            }
        }
        let exp = mem.execute(&Request { access: Access::Ld(sim::Width::B32), addr: addr as u64, value: 0 }).unwrap();
        assert_eq!(got, exp, "memory at {addr:#x}");
    }
}

/// The completion bound's step is the longest interval between dependent requests of the
/// unit inside: its longest hazard window and one (a dependent of another form on the same
/// bytes waits its producer's whole window), at least every `red`/`atom` form's and memory
/// access's chained interval.
#[test]
fn async_bound_steps_by_the_units_longest_dependent_interval() {
    let mut accesses: Vec<Access> =
        sim::Form::all().into_iter().flat_map(|f| [Access::Red(f), Access::Atom(f)]).collect();
    accesses.extend([Access::Ld(sim::Width::B32), Access::St(sim::Width::B128), Access::Cas(sim::Width::B64)]);
    let chained =
        accesses.iter().map(|&a| hw::slice_unit::dependent_issue_interval_with(a, &ASYNC_UNIT_CONFIG)).max().unwrap();
    let sh = hw::slice_unit::shape(&ASYNC_UNIT_CONFIG);
    let window =
        [sh.win_fp, sh.win_int, sh.win_mem, sh.win_cas, sh.win_chain, sh.win_fp_chain].into_iter().max().unwrap();
    assert_eq!(window + 1, ASYNC_UNIT_MAX_INTERVAL);
    assert!(chained <= ASYNC_UNIT_MAX_INTERVAL, "chained interval {chained}");
    assert_eq!(ASYNC_UNIT_CONFIG, hw::Config::unit_default(), "the async unit holds the unit's default configuration");
}

#[test]
fn lint_mbarrier() {
    lint("mbarrier", &hw::mbarrier_verilog(), true);
}

#[test]
fn lint_async_unit() {
    lint("async_unit", &hw::async_verilog(4096), false);
}
