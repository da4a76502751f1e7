//! `redunit run` on traces with `red.async` and mbarrier rows (header `op,addr,value,mbar`, or
//! `op,addr,value,mbar,cta`), on the golden model ([`model`], [`model_events`]) or the
//! Verilated async unit ([`rtl`], `hw::AsyncUnit`), and `redunit bench-async`.
//!
//! # Rows
//!
//! | `op` | `addr` | `value` | `mbar` |
//! | --- | --- | --- | --- |
//! | `ld.*`, `st.*`, a `red` form, `atom.` + a `red` form | byte address | as in `op,addr,value` traces | empty |
//! | a `red.async` form ([`sim::red_async`]) | byte address `a` | `b` (hex, the type's width) | `.relaxed`: the mbarrier's address; `.release`: empty |
//! | `mbarrier.init` | mbarrier address | expected arrival count (hex, at most `fffff`) | empty |
//! | `mbarrier.arrive`, `mbarrier.inval` | mbarrier address | empty | empty |
//! | `mbarrier.arrive.expect_tx`, `mbarrier.expect_tx`, `mbarrier.complete_tx` | mbarrier address | bytes (hex, at most `fffff`) | empty |
//! | `mbarrier.test_wait.parity` | mbarrier address | the parity, `0` or `1` | empty |
//!
//! The optional fifth column `cta` is the CTA that executes the row (`0` or `1`). Without it,
//! a row executes in CTA 0, except the rows PTX confines to the executing CTA's own shared
//! memory — `mbarrier.init`, `inval` and `test_wait` ([`own_cta_only`]) and `.shared`
//! (`.shared::cta`) requests — which execute in the CTA that holds their address.
//!
//! # Two memories, the cluster, and mbarriers as objects
//! Global and shared are separate memories ([`sim::Spaces`]): global of `--mem-bytes`, shared
//! the cluster's shared memory of [`CLUSTER_SHARED_BYTES`]. The trace addresses a cluster of
//! [`sim::mbarrier::CLUSTER_CTAS`] CTAs: `.shared::cluster` address `x` is byte
//! `x % CTA_SHARED_BYTES` of CTA `x / CTA_SHARED_BYTES`'s shared memory (CTA 0: `0`-`7fff`,
//! CTA 1: `8000`-`ffff`), and the shared memory holds them at those addresses. Plain requests
//! name their space as in `op,addr,value` traces ([`resolve_access`]): `.global` and a generic
//! address outside the shared window are global; `.shared::cluster` and a generic address in
//! the window (`SHARED_WINDOW_BASE` + `x`) are shared `x`; `.shared` (`.shared::cta`) is the
//! executing CTA's own shared memory, at its `.shared::cluster` addresses (another CTA's is
//! refused when the row names its CTA). A `.release` `red.async` writes global memory (a generic address in the shared
//! window is refused), a `.relaxed` one shared memory. An mbarrier is an 8-byte object at an
//! 8-aligned `.shared::cluster` address below `CLUSTER_SHARED_BYTES`; the unit keeps the live
//! objects in a table of [`MBARRIER_SLOTS`] entries ([`sim::mbarrier::MbarTable`]): an `init`
//! with the table full reports `error:mbarrier-table-full`, `mbarrier.inval` frees an entry,
//! an operation on an address not in the table finds it uninitialised.
//!
//! A `.relaxed` `red.async` names `a` and `mbar` as `.shared::cluster` addresses (with
//! `.shared::cluster`) or generic ones in the shared window (without it: `SHARED_WINDOW_BASE`
//! + the `.shared::cluster` address; any other generic address is refused). PTX requires that
//! both are in the same CTA and that it is a peer of the executing CTA ([`peer_rule`]), and
//! that `mbarrier.init`, `inval` and `test_wait` name an mbarrier of the executing CTA
//! ([`own_cta_rule`]); a row that breaks a rule is refused with a message (an `a` beyond the
//! cluster's shared memory is the memory's `out-of-range` instead).
//!
//! # Order: completion events
//! The reductions take effect in trace order (per word, as in the unit). A `red.async`
//! completes (performs complete-tx on its mbarrier with its bytes,
//! [`sim::red_async::RedAsync::complete_tx_bytes`]) at a point of an event sequence
//! ([`Event`]); a failed `red.async` (misaligned, out of range) stores and completes nothing.
//! - The model engine by default completes each `red.async` right after its own row
//!   ([`trace_order`]): what silicon showed.
//! - With a lag ([`lagged`], `redunit run --lag-seed S --lag-rows N`) each completion comes
//!   after a seeded random 0..=N later rows, and completions that land at one point come in a
//!   random order: PTX lets an asynchronous completion lag behind later operations of the
//!   issuing thread and complete in any order with other ones; it stays after its own
//!   reduction (the complete-tx has release semantics) and happens by the end of the trace.
//! - The RTL completes when the unit retires the request (the async unit's memory is the
//!   shared memory; global rows run on a plain unit, [`driver`]); a barrier operation takes effect at
//!   once and sees the mbarrier of that cycle, so a `test_wait` while the `red.async` is in
//!   flight sees the phase incomplete. The golden model follows the RTL's events
//!   ([`RtlRun::events`], [`model_events`]), as pulp's `golden_memory` follows the DUT's
//!   commit order.
//!
//! # Output
//! `index,op,addr,result` as for plain traces: one row per `ld`/`atom` (the old value), per
//! failed request (`error:misaligned`, `error:out-of-range`), per `mbarrier.init` on a full
//! table (`error:mbarrier-table-full`) and per `mbarrier.test_wait.parity`: `1` when the phase
//! with that parity has completed, `0` when not, `error:mbarrier-uninitialized` /
//! `error:mbarrier-tx-range` / `error:mbarrier-count` when the mbarrier is in that error state
//! ([`sim::mbarrier`]).
//!
//! # Cycle-level check (RTL)
//! Every cycle the driver applies the barrier operation the unit took and the complete-tx it
//! performed to a shadow table, and checks: a complete-tx happens in the cycle the
//! `red.async`'s response retires (with its mbarrier and bytes) and in no other; the unit's
//! `flip` is exactly the shadow's phase completions, `phase` and `mbar_valid` in the next
//! cycle are the shadow's; a `test_wait` result and an init's `bar_full` are the shadow's;
//! and no `red.async` is in flight longer than `hw::ASYNC_COMPLETION_BOUND` cycles. So a
//! phase never completes before all its bytes and arrivals, and always within that bound
//! after them.

use std::io::Write;

use anyhow::bail;
use sim::mbarrier::{
    CLUSTER_SHARED_BYTES, CTA_SHARED_BYTES, MBARRIER_BYTES, MBARRIER_SLOTS, MbarError, MbarOp, MbarTable,
};
use sim::red_async::RedAsync;
use sim::spaces::{Resolved, SHARED_WINDOW_BASE, Spaces};
use sim::{Access, MemError, Request, Space, TraceOp};

use crate::hex;

mod driver;
mod parse;
mod random;
pub use driver::{ASYNC_MEM_BYTES, RtlAsync, RtlRun, RtlStats, check_against_model, rtl};
pub use parse::{default_cta, own_cta_only, own_cta_rule, parse, parse_prefix, peer_rule, resolve_access};
pub use random::{RandomTraceMix, random_trace, random_trace_mix};

/// The header that selects this format.
pub const HEADER: &str = "op,addr,value,mbar";
/// The header with the executing CTA's column.
pub const HEADER_CTA: &str = "op,addr,value,mbar,cta";
/// `hw::ASYNC_COMPLETION_BOUND`: the most cycles from a `red.async`'s acceptance to its
/// complete-tx.
pub const COMPLETION_BOUND: u64 = hw::ASYNC_COMPLETION_BOUND as u64;

/// One row of a trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row {
    /// A plain request: `op` and `addr` as written, `at` the memory and the request there.
    Access { op: TraceOp, addr: u64, at: Resolved },
    /// `addr` as written; `mbar`: the mbarrier's `.shared::cluster` address.
    RedAsync { form: RedAsync, addr: u64, value: u128, mbar: Option<u64> },
    /// `addr`: the mbarrier's `.shared::cluster` address.
    Bar { addr: u64, op: MbarOp },
}

/// A point of a run: a row takes effect, or the `red.async` of a row completes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    Row(usize),
    Complete(usize),
}

/// The outcome of a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowResult {
    /// No result row (st, red, successful red.async, barrier ops but test_wait).
    None,
    /// `ld`/`atom`: the old value.
    Value(u128),
    Mem(MemError),
    Wait(bool),
    Mbar(MbarError),
    /// `mbarrier.init` found the table full.
    TableFull,
}

const BAR_OPS: [&str; 7] = [
    "mbarrier.init",
    "mbarrier.arrive",
    "mbarrier.arrive.expect_tx",
    "mbarrier.expect_tx",
    "mbarrier.complete_tx",
    "mbarrier.test_wait.parity",
    "mbarrier.inval",
];

fn bar_name(op: MbarOp) -> &'static str {
    match op {
        MbarOp::Init(_) => BAR_OPS[0],
        MbarOp::Arrive => BAR_OPS[1],
        MbarOp::ArriveExpectTx(_) => BAR_OPS[2],
        MbarOp::ExpectTx(_) => BAR_OPS[3],
        MbarOp::CompleteTx(_) => BAR_OPS[4],
        MbarOp::TestWait(_) => BAR_OPS[5],
        MbarOp::Inval => BAR_OPS[6],
    }
}

impl Row {
    /// A plain request (`op` a trace op: `ld.shared::cluster.b64`, `global.add.u32`, ...),
    /// executed by no CTA in particular. Panics on a row [`parse`] refuses: for generated
    /// traces.
    pub fn access(op: &str, addr: u64, value: u128) -> Row {
        resolve_access(op.parse().expect("a trace op"), addr, value, None).expect("a legal row")
    }
    fn op_name(&self) -> String {
        match self {
            Row::Access { op, .. } => op.to_string(),
            Row::RedAsync { form, .. } => form.to_string(),
            Row::Bar { op, .. } => bar_name(*op).into(),
        }
    }
    fn addr(&self) -> u64 {
        match self {
            Row::Access { addr, .. } => *addr,
            Row::RedAsync { addr, .. } => *addr,
            Row::Bar { addr, .. } => *addr,
        }
    }
    /// The memory a request runs in: global, or the cluster's shared memory (`.relaxed`
    /// `red.async` always; `.release` always global); `None` for barrier operations.
    pub fn space(&self) -> Option<Space> {
        match *self {
            Row::Access { at, .. } => Some(at.space),
            Row::RedAsync { form, .. } => Some(if form.has_mbarrier() { Space::Shared } else { Space::Global }),
            Row::Bar { .. } => None,
        }
    }
    /// The request the unit executes, for accesses and red.async, its address in the memory
    /// of [`Row::space`] (a generic `.relaxed` address is resolved to its `.shared::cluster`
    /// address).
    pub fn request(&self) -> Option<Request> {
        match *self {
            Row::Access { at, .. } => Some(at.req),
            Row::RedAsync { form, addr, value, .. } => {
                let addr = if form.has_mbarrier() && !form.explicit_space() { addr - SHARED_WINDOW_BASE } else { addr };
                Some(Request { access: Access::Red(form.red_form()), addr, value })
            }
            Row::Bar { .. } => None,
        }
    }
    /// The mbarrier a `.relaxed` `red.async` completes on.
    pub fn completes_on(&self) -> Option<(u64, u32)> {
        match *self {
            Row::RedAsync { form, mbar: Some(m), .. } => Some((m, form.complete_tx_bytes().unwrap())),
            _ => None,
        }
    }
}

/// The events of the model engine's default order: each `red.async` completes right after its
/// own row.
pub fn trace_order(rows: &[Row]) -> Vec<Event> {
    let mut ev = Vec::with_capacity(rows.len() + rows.len() / 2);
    for (i, r) in rows.iter().enumerate() {
        ev.push(Event::Row(i));
        if r.completes_on().is_some() {
            ev.push(Event::Complete(i));
        }
    }
    ev
}

/// The events of the lagging order (module doc): each `red.async`'s completion comes after
/// `0..=max_lag` later rows (seeded), completions at one point in a random order, the rest at
/// the end of the trace.
pub fn lagged(rows: &[Row], seed: u64, max_lag: usize) -> Vec<Event> {
    let mut rng = seed;
    let mut r = move || sim::splitmix64_next(&mut rng);
    let n = rows.len();
    let mut at: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
    for (i, row) in rows.iter().enumerate() {
        if row.completes_on().is_some() {
            let d = (r() % (max_lag as u64 + 1)) as usize;
            at[(i + d).min(n)].push(i);
        }
    }
    let mut ev = Vec::with_capacity(n * 2);
    for (j, bucket) in at.iter_mut().enumerate() {
        if j < n {
            ev.push(Event::Row(j));
        }
        // Fisher-Yates: completions that land together come in any order.
        for k in (1..bucket.len()).rev() {
            bucket.swap(k, (r() % (k as u64 + 1)) as usize);
        }
        ev.extend(bucket.iter().map(|&i| Event::Complete(i)));
    }
    ev
}

/// The golden model following `events`: the global memory (`mem_bytes`), the cluster's shared
/// memory and the mbarrier table. `Complete(i)` must come
/// after `Row(i)`, once, for a `.relaxed` `red.async` (it does nothing when the reduction
/// failed); an event sequence that breaks this is an error.
pub fn model_events(rows: &[Row], events: &[Event], mem_bytes: usize) -> Result<Vec<RowResult>, String> {
    let mut mem = Spaces::new(mem_bytes, CLUSTER_SHARED_BYTES as usize);
    // Traces start on a reset unit: the table is empty.
    let mut table = MbarTable::default();
    let mut results = vec![RowResult::None; rows.len()];
    let mut done = vec![0u8; rows.len()];
    for &e in events {
        match e {
            Event::Row(i) => {
                if done[i] & 1 != 0 {
                    return Err(format!("row {i} takes effect twice"));
                }
                done[i] |= 1;
                results[i] = match rows[i] {
                    Row::Bar { addr, op } => {
                        let t = table.apply(addr, op);
                        match (op, t.error) {
                            (MbarOp::Init(_), _) if t.full => RowResult::TableFull,
                            (MbarOp::TestWait(_), Some(err)) => RowResult::Mbar(err),
                            (MbarOp::TestWait(_), None) => RowResult::Wait(t.effect.wait_complete),
                            _ => RowResult::None,
                        }
                    }
                    ref row => match mem.memory(row.space().unwrap()).execute(&row.request().unwrap()) {
                        Ok(v) => v.map_or(RowResult::None, RowResult::Value),
                        Err(e) => RowResult::Mem(e),
                    },
                };
            }
            Event::Complete(i) => {
                let Some((m, bytes)) = rows.get(i).and_then(Row::completes_on) else {
                    return Err(format!("row {i} completes, but it is not a red.async with an mbarrier"));
                };
                if done[i] != 1 {
                    return Err(format!("row {i} completes before its row or twice"));
                }
                done[i] |= 2;
                if results[i] == RowResult::None {
                    table.apply(m, MbarOp::CompleteTx(bytes));
                }
            }
        }
    }
    Ok(results)
}

/// The golden model in trace order ([`trace_order`]).
pub fn model(rows: &[Row], mem_bytes: usize) -> Vec<RowResult> {
    model_events(rows, &trace_order(rows), mem_bytes).expect("trace order is a valid event sequence")
}

/// Writes the `index,op,addr,result` rows.
pub fn write_results(rows: &[Row], results: &[RowResult], mut out: impl Write) -> anyhow::Result<()> {
    let mut buf = Vec::new();
    buf.extend_from_slice(b"index,op,addr,result\n");
    for (i, (row, r)) in rows.iter().zip(results).enumerate() {
        let text = match r {
            RowResult::None => continue,
            RowResult::Value(v) => hex::format(*v, row.request().unwrap().access.bytes() as u32 * 8),
            RowResult::Mem(e) => format!("error:{e}"),
            RowResult::Wait(w) => (*w as u8).to_string(),
            RowResult::Mbar(e) => format!("error:{}", e.name()),
            RowResult::TableFull => "error:mbarrier-table-full".into(),
        };
        writeln!(buf, "{i},{},{:x},{text}", row.op_name(), row.addr())?;
    }
    out.write_all(&buf)?;
    out.flush()?;
    Ok(())
}

/// `redunit run` with the [`HEADER`] format: parses `input`, executes it and writes the
/// results; on an RTL cycle-level mismatch prints them to stderr and returns exit status 1.
/// On a bad row, the rows before it are executed and written, and the error is an
/// [`InputError`](crate::InputError).
pub fn run_cmd(input: &[u8], rtl_engine: bool, mem_bytes: usize, out: impl Write) -> anyhow::Result<u8> {
    run_cmd_lag(input, rtl_engine, mem_bytes, None, out)
}

/// [`run_cmd`] with the model engine's lagging completions: `lag` = (seed, most rows).
pub fn run_cmd_lag(
    input: &[u8],
    rtl_engine: bool,
    mem_bytes: usize,
    lag: Option<(u64, usize)>,
    out: impl Write,
) -> anyhow::Result<u8> {
    if rtl_engine && lag.is_some() {
        bail!("--lag-seed needs --engine model: the RTL completes when the unit retires the request");
    }
    let parsed = parse_prefix(input)?;
    let rows = &parsed.rows;
    if !rtl_engine {
        let events = match lag {
            Some((seed, n)) => lagged(rows, seed, n),
            None => trace_order(rows),
        };
        let results = model_events(rows, &events, mem_bytes).map_err(|e| anyhow::anyhow!("internal: {e}"))?;
        write_results(rows, &results, out)?;
        return parsed.then(0);
    }
    if mem_bytes != ASYNC_MEM_BYTES {
        bail!(
            "--mem-bytes {mem_bytes}: the async unit (traces with the mbar column) is built with {ASYNC_MEM_BYTES} bytes only; \
             drop --mem-bytes or use --engine model"
        );
    }
    let mut run = rtl(&mut RtlAsync::new(), rows)?;
    let more = check_against_model(rows, &run, mem_bytes);
    run.mismatches.extend(more);
    write_results(rows, &run.results, out)?;
    for m in &run.mismatches {
        eprintln!("redunit: RTL mismatch: {m}");
    }
    parsed.then(if run.mismatches.is_empty() { 0 } else { 1 })
}

/// The address of the `k`-th mbarrier of the generated traces: in CTA 1's shared memory.
pub fn mbar_at(k: usize) -> u64 {
    CTA_SHARED_BYTES + k as u64 * MBARRIER_BYTES
}

/// A trace of `phases` phases on each of the 8 mbarriers in turn: `arrive.expect_tx` of
/// `per_phase` × 4 bytes, then `per_phase` `red.async ... add.u32` to distinct lines, then a
/// `test_wait.parity` — the barrier pattern of a producer filling a buffer. Rows execute in
/// CTA 0; the mbarriers and the destinations are in CTA 1.
pub fn bench_trace(phases: usize, per_phase: usize) -> Vec<Row> {
    let form: RedAsync =
        "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32".parse().unwrap();
    let mut rows: Vec<Row> = (0..MBARRIER_SLOTS).map(|s| Row::Bar { addr: mbar_at(s), op: MbarOp::Init(1) }).collect();
    let mut line = 0u64;
    for p in 0..phases {
        let s = p % MBARRIER_SLOTS;
        let parity = (p / MBARRIER_SLOTS) % 2 == 1;
        rows.push(Row::Bar { addr: mbar_at(s), op: MbarOp::ArriveExpectTx(4 * per_phase as u32) });
        for _ in 0..per_phase {
            rows.push(Row::RedAsync {
                form,
                addr: CTA_SHARED_BYTES + 0x100 + (line % 2000) * 16,
                value: 1,
                mbar: Some(mbar_at(s)),
            });
            line += 1;
        }
        rows.push(Row::Bar { addr: mbar_at(s), op: MbarOp::TestWait(parity) });
    }
    rows
}

/// A stream of `n` `red.async ... add.u32` to distinct lines, spread over the 8 mbarriers,
/// each of which expects all of its bytes first and is tested at the end: the throughput of
/// `red.async` through the async unit.
pub fn stream_trace(n: usize) -> Vec<Row> {
    let form: RedAsync =
        "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32".parse().unwrap();
    let mut rows = Vec::new();
    for s in 0..MBARRIER_SLOTS {
        let mine = n / MBARRIER_SLOTS + (s < n % MBARRIER_SLOTS) as usize;
        rows.push(Row::Bar { addr: mbar_at(s), op: MbarOp::Init(1) });
        rows.push(Row::Bar { addr: mbar_at(s), op: MbarOp::ArriveExpectTx(4 * mine as u32) });
    }
    for k in 0..n {
        let addr = CTA_SHARED_BYTES + 0x100 + (k as u64 % 2000) * 16;
        rows.push(Row::RedAsync { form, addr, value: 1, mbar: Some(mbar_at(k % MBARRIER_SLOTS)) });
    }
    for s in 0..MBARRIER_SLOTS {
        rows.push(Row::Bar { addr: mbar_at(s), op: MbarOp::TestWait(false) });
    }
    rows
}

/// `redunit bench-async`: the figures of the async unit (a text table).
pub fn bench(phases: usize, per_phase: usize, stream: usize) -> anyhow::Result<String> {
    use std::fmt::Write as _;
    let mut out = String::new();
    let check = |rows: &[Row], run: &RtlRun| -> anyhow::Result<()> {
        if !run.mismatches.is_empty() {
            bail!("RTL mismatch: {}", run.mismatches.join("; "));
        }
        let m = check_against_model(rows, run, ASYNC_MEM_BYTES);
        if !m.is_empty() {
            bail!("the RTL's results differ from the model following its completions: {}", m.join("; "));
        }
        Ok(())
    };
    let stat = |v: &[u64]| -> String {
        let (min, max) = (v.iter().min().copied().unwrap_or(0), v.iter().max().copied().unwrap_or(0));
        let mean = v.iter().sum::<u64>() as f64 / v.len().max(1) as f64;
        format!("min {min}, mean {mean:.2}, max {max}")
    };
    writeln!(
        out,
        "async unit (hw::AsyncUnit, {ASYNC_MEM_BYTES} bytes), Verilated; every run checked cycle by cycle against the model"
    )?;
    // 1. Phases: expect_tx, the red.async of the phase, test_wait.
    let rows = bench_trace(phases, per_phase);
    let t = std::time::Instant::now();
    let run = rtl(&mut RtlAsync::new(), &rows)?;
    let secs = t.elapsed().as_secs_f64();
    check(&rows, &run)?;
    let s = &run.stats;
    writeln!(
        out,
        "phases: {phases} phases of {per_phase} red.async.add.u32 (4 bytes each), arrive.expect_tx before, test_wait after"
    )?;
    writeln!(out, "  flips caused by the last byte:            {}", s.flips_by_bytes)?;
    writeln!(out, "  flip latency from the last red.async's acceptance: {} cycles", stat(&s.flip_after_accept))?;
    writeln!(out, "  flip latency from its unit response:              {} cycles", stat(&s.flip_after_response))?;
    writeln!(
        out,
        "  {} cycles for {} rows ({} requests; {} of {} test_waits while red.async were in flight saw the phase incomplete; \
         acceptance to complete-tx at most {} cycles, bound {COMPLETION_BOUND}); {:.0} rows/s cosimulation",
        s.cycles,
        rows.len(),
        s.requests,
        s.waits_in_flight_incomplete,
        s.waits_in_flight,
        s.max_completion,
        rows.len() as f64 / secs
    )?;
    // 2. A stream.
    let rows = stream_trace(stream);
    let t = std::time::Instant::now();
    let run = rtl(&mut RtlAsync::new(), &rows)?;
    let secs = t.elapsed().as_secs_f64();
    check(&rows, &run)?;
    let s = &run.stats;
    writeln!(
        out,
        "stream: {stream} red.async.add.u32 to distinct lines over 8 mbarriers: {:.4} red.async/cycle ({} requests in {} cycles, first acceptance to last response); {:.0} rows/s cosimulation",
        s.requests as f64 / s.request_cycles.max(1) as f64,
        s.requests,
        s.request_cycles,
        rows.len() as f64 / secs
    )?;
    Ok(out)
}
