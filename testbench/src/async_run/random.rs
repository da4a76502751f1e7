//! Seeded random `red.async`/mbarrier traces: the cosimulation test (`tests/async_cosim.rs`)
//! and `redunit regress --only async` draw them and compare the Verilated async unit with the
//! golden model following its completion events.

use sim::mbarrier::{CLUSTER_SHARED_BYTES, CTA_SHARED_BYTES, MBARRIER_SLOTS, MbarOp};
use sim::ptx::AddrSpace;
use sim::red_async::RedAsync;
use sim::spaces::SHARED_WINDOW_BASE;
use sim::{Space, TraceOp};

use super::{Row, mbar_at};

/// Mbarrier addresses of the random traces: more than the table has entries.
const RANDOM_MBARS: usize = MBARRIER_SLOTS + 2;

/// A plain request of the random traces on the hot lines of `line` (an offset in CTA 1's
/// shared memory): the same offsets in shared memory (`.shared::cluster`, generic through the
/// window) and in global memory (`.global`, generic), so that one memory standing in for both
/// would show; `.shared` of CTA 0 (the executing CTA's own) now and then.
fn plain(pick: u64, line: u64) -> Row {
    let w = SHARED_WINDOW_BASE + line;
    match pick % 10 {
        0 => Row::access("ld.shared::cluster.b64", line, 0),
        1 => Row::access("ld.b64", w, 0),
        2 => Row::access("shared::cluster.add.u64", line, 1),
        3 => Row::access("red.relaxed.cluster.add.u64", w, 1),
        4 => Row::access("atom.shared::cluster.max.u32", line, 7),
        5 => Row::access("ld.global.b64", line, 0),
        6 => Row::access("ld.b64", line, 0),
        7 => Row::access("global.add.u64", line, 1),
        8 => Row::access("atom.release.gpu.add.u64", line, 1),
        _ => Row::access("st.shared.b64", line - CTA_SHARED_BYTES, 3),
    }
}

/// A hot address of the random traces: one of 8 lines of CTA 1's shared memory, aligned to
/// `bytes`.
fn hot(r: &mut impl FnMut() -> u64, bytes: u64) -> u64 {
    CTA_SHARED_BYTES + (r() % 8) * 16 + (r() % (16 / bytes)) * bytes
}

/// A seeded random trace (the cosimulation test and `redunit regress`), executed by CTA 0 on
/// mbarriers and destinations in CTA 1 (the mbarriers' `init`, `inval` and `test_wait` by
/// CTA 1, their owner): phases on a few mbarriers, each a `test_wait` before it, its
/// `arrive.expect_tx`, `red.async` to a few hot lines, a `test_wait` right after them (in
/// flight on the RTL), plain requests, and a `test_wait` after; with noise: single
/// `red.async`, extra arrivals, complete_tx/expect_tx by hand, plain requests that mix the
/// global and the shared memory at the same offsets (named and generic addresses, `.sem` and
/// `.scope`), misaligned and out-of-range `red.async`, re-inits, invals, uninitialised
/// mbarriers, more mbarriers than table entries, huge counts.
pub fn random_trace(rng: &mut u64, n: usize) -> Vec<Row> {
    let mut r = || sim::splitmix64_next(rng);
    let forms = RedAsync::all();
    let relaxed: Vec<RedAsync> = forms.iter().copied().filter(|f| f.has_mbarrier()).collect();
    let mut rows: Vec<Row> = (0..MBARRIER_SLOTS - 1)
        .map(|s| Row::Bar { addr: mbar_at(s), op: MbarOp::Init(1 + (r() % 3) as u32) })
        .collect();
    while rows.len() < n {
        // Mostly the first 8; the last two overflow the table unless an entry was freed.
        let k =
            if r() % 8 == 0 { (r() % RANDOM_MBARS as u64) as usize } else { (r() % MBARRIER_SLOTS as u64) as usize };
        let addr = mbar_at(k);
        match r() % 18 {
            0..=5 => {
                let form = forms[(r() % forms.len() as u64) as usize];
                let bytes = form.bytes() as u64;
                let mut a = match r() % 40 {
                    0 => CTA_SHARED_BYTES + 2,            // misaligned
                    1 => CLUSTER_SHARED_BYTES,            // out of range
                    2 if !form.has_mbarrier() => 1 << 40, // beyond the 32-bit port
                    _ => hot(&mut r, bytes),
                };
                if form.has_mbarrier() && !form.explicit_space() {
                    a += SHARED_WINDOW_BASE;
                }
                let value = (r() as u128) & ((1u128 << (8 * bytes)) - 1);
                let mbar = form.has_mbarrier().then_some(addr);
                rows.push(Row::RedAsync { form, addr: a, value, mbar });
            }
            6..=7 => {
                // A phase: test_waits before, right after and some rows after its red.async.
                let parity = r() % 2 == 1;
                rows.push(Row::Bar { addr, op: MbarOp::TestWait(parity) });
                let reds: Vec<RedAsync> =
                    (0..1 + r() % 4).map(|_| relaxed[(r() % relaxed.len() as u64) as usize]).collect();
                let tx: u32 = reds.iter().map(|f| f.bytes() as u32).sum();
                rows.push(Row::Bar { addr, op: MbarOp::ArriveExpectTx(tx) });
                for form in reds {
                    let bytes = form.bytes() as u64;
                    let a = hot(&mut r, bytes) + if form.explicit_space() { 0 } else { SHARED_WINDOW_BASE };
                    let value = (r() as u128) & ((1u128 << (8 * bytes)) - 1);
                    rows.push(Row::RedAsync { form, addr: a, value, mbar: Some(addr) });
                }
                rows.push(Row::Bar { addr, op: MbarOp::TestWait(parity) });
                for _ in 0..r() % 12 {
                    let line = CTA_SHARED_BYTES + (r() % 8) * 16 + (r() % 2) * 8;
                    rows.push(plain(r(), line));
                }
                rows.push(Row::Bar { addr, op: MbarOp::TestWait(parity) });
            }
            8 => {
                let bytes = [4u32, 8, 12, 16, 32][(r() % 5) as usize];
                rows.push(Row::Bar { addr, op: MbarOp::ArriveExpectTx(bytes) });
            }
            9 if r() % 2 == 0 => rows.push(Row::Bar { addr, op: MbarOp::Arrive }),
            9..=11 => rows.push(Row::Bar { addr, op: MbarOp::TestWait(r() % 2 == 1) }),
            12 => rows.push(Row::Bar {
                addr,
                op: [
                    MbarOp::ExpectTx(4),
                    MbarOp::CompleteTx(4),
                    MbarOp::ExpectTx(4),
                    MbarOp::CompleteTx(4),
                    MbarOp::ExpectTx(0xf_ffff),
                    MbarOp::Init(0),
                    MbarOp::Inval,
                ][(r() % 7) as usize],
            }),
            13 => rows.push(Row::Bar { addr, op: MbarOp::Init(1 + (r() % 2) as u32) }),
            _ => {
                let line = CTA_SHARED_BYTES + (r() % 8) * 16 + (r() % 2) * 8;
                rows.push(plain(r(), line));
            }
        }
    }
    // A phase may run past `n`: exactly `n` rows, so that a regression's row count is its size.
    rows.truncate(n);
    rows
}

/// What a trace holds, by kind: the test holds [`random_trace`] to drawing each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RandomTraceMix {
    /// Plain requests in global and in shared memory, and those of them with a generic
    /// address or with a `.sem`/`.scope`.
    pub global: usize,
    pub shared: usize,
    pub generic: usize,
    pub qualified: usize,
    /// `red.async` with an mbarrier (`.relaxed`) and without (`.release`).
    pub relaxed: usize,
    pub release: usize,
    /// `test_wait`s, and those right after a `red.async` on their mbarrier (in flight on the
    /// RTL, which takes a row per cycle).
    pub test_waits: usize,
    pub waits_right_after: usize,
}

/// Counts the kinds of `rows`.
pub fn random_trace_mix(rows: &[Row]) -> RandomTraceMix {
    let mut m = RandomTraceMix::default();
    for (i, row) in rows.iter().enumerate() {
        match *row {
            Row::Access { op, at, .. } => {
                *if at.space == Space::Global { &mut m.global } else { &mut m.shared } += 1;
                let (space, qualified) = match op {
                    TraceOp::Ld(_, s) | TraceOp::St(_, s) | TraceOp::Cas(_, s) => (s, false),
                    TraceOp::Red(x) | TraceOp::Atom(x) => (x.space, x.sem.is_some() || x.scope.is_some()),
                };
                m.generic += (space == AddrSpace::Generic) as usize;
                m.qualified += qualified as usize;
            }
            Row::RedAsync { mbar, .. } => *if mbar.is_some() { &mut m.relaxed } else { &mut m.release } += 1,
            Row::Bar { addr, op: MbarOp::TestWait(_) } => {
                m.test_waits += 1;
                let prev = i.checked_sub(1).and_then(|p| rows[p].completes_on());
                m.waits_right_after += prev.is_some_and(|(b, _)| b == addr) as usize;
            }
            Row::Bar { .. } => {}
        }
    }
    m
}
