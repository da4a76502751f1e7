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
//! The optional fifth column `cta` is the CTA that executes the row (`0` or `1`, default `0`).
//!
//! # The cluster, and mbarriers as objects
//! The trace addresses a cluster of [`CLUSTER_CTAS`] CTAs: `.shared::cluster` address `x` is
//! byte `x % CTA_SHARED_BYTES` of CTA `x / CTA_SHARED_BYTES`'s shared memory (CTA 0:
//! `0`-`7fff`, CTA 1: `8000`-`ffff`); the memory of the trace holds them at those addresses
//! (and the `.release` forms' and the plain accesses' global addresses too: one memory). An
//! mbarrier is an 8-byte object at an 8-aligned `.shared::cluster` address below
//! `CLUSTER_SHARED_BYTES`; the unit keeps the live objects in a table of [`MBARRIER_SLOTS`]
//! entries ([`sim::mbarrier::MbarTable`]): an `init` with the table full reports
//! `error:mbarrier-table-full`, `mbarrier.inval` frees an entry, an operation on an address
//! not in the table finds it uninitialised.
//!
//! A `.relaxed` `red.async` names `a` and `mbar` as `.shared::cluster` addresses (with
//! `.shared::cluster`) or generic ones in the shared window (without it: `SHARED_WINDOW_BASE`
//! + the `.shared::cluster` address; any other generic address is refused). PTX requires that
//! both are in the same CTA and that it is a peer of the executing CTA; a row that breaks the
//! rule is refused with a message (an `a` beyond the cluster's shared memory is the memory's
//! `out-of-range` instead).
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
//! - The RTL completes when the unit retires the request; a barrier operation takes effect at
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

use std::io::{Read, Write};

use anyhow::bail;
use sim::mbarrier::{
    CLUSTER_CTAS, CLUSTER_SHARED_BYTES, CTA_SHARED_BYTES, MBAR_MAX, MBARRIER_BYTES, MBARRIER_SLOTS, MbarError, MbarOp,
    MbarTable, cta_of,
};
use sim::red_async::RedAsync;
use sim::spaces::SHARED_WINDOW_BASE;
use sim::{Access, MemError, Memory, Request};

use crate::hex;
use crate::input_error::{InputError, Parsed, Rows, next_record};

mod driver;
pub use driver::{ASYNC_MEM_BYTES, RtlAsync, RtlRun, RtlStats, check_against_model, rtl};

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
    Access(Request),
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
    fn op_name(&self) -> String {
        match self {
            Row::Access(r) => r.access.to_string(),
            Row::RedAsync { form, .. } => form.to_string(),
            Row::Bar { op, .. } => bar_name(*op).into(),
        }
    }
    fn addr(&self) -> u64 {
        match self {
            Row::Access(r) => r.addr,
            Row::RedAsync { addr, .. } => *addr,
            Row::Bar { addr, .. } => *addr,
        }
    }
    /// The request the unit executes, for accesses and red.async (a generic `.relaxed`
    /// address is resolved to its `.shared::cluster` address).
    pub fn request(&self) -> Option<Request> {
        match *self {
            Row::Access(r) => Some(r),
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

fn mbar_addr(field: &[u8], what: &str) -> Result<u64, String> {
    let a = hex::parse(field, 64).map_err(|e| format!("{what}: {e}"))?;
    check_mbar(a, what)
}

fn check_mbar(a: u128, what: &str) -> Result<u64, String> {
    if a % MBARRIER_BYTES as u128 != 0 || a >= CLUSTER_SHARED_BYTES as u128 {
        return Err(format!(
            "{what}: `{a:x}` is not an mbarrier address: an mbarrier is an 8-byte object at a multiple of 8 in the \
             cluster's shared memory, 0-{:x} (CTA 0: 0-{:x}, CTA 1: {:x}-{:x}; hex)",
            CLUSTER_SHARED_BYTES - 1,
            CTA_SHARED_BYTES - 1,
            CTA_SHARED_BYTES,
            CLUSTER_SHARED_BYTES - 1
        ));
    }
    Ok(a as u64)
}

/// The `.shared::cluster` address of a generic address of a `.relaxed` `red.async`.
fn from_window(a: u64, what: &str) -> Result<u64, String> {
    match a.checked_sub(SHARED_WINDOW_BASE) {
        Some(x) if x < sim::spaces::SHARED_WINDOW_BYTES => Ok(x),
        _ => Err(format!(
            "{what}: the generic address `{a:x}` is not in the shared window ({SHARED_WINDOW_BASE:x} + the .shared::cluster \
             address): PTX leaves it undefined for red.async.relaxed; write .shared::cluster or a window address"
        )),
    }
}

/// PTX's condition on a `.relaxed` `red.async` executed by CTA `cta`: `a` and `mbar`
/// (`.shared::cluster` addresses) in the same CTA, a peer of `cta`. An `a` beyond the
/// cluster's shared memory is left to the memory (out of range).
pub fn peer_rule(cta: u64, a: u64, mbar: u64) -> Result<(), String> {
    let (Some(ca), Some(cm)) = (cta_of(a), cta_of(mbar)) else { return Ok(()) };
    if ca != cm || ca == cta {
        return Err(format!(
            "red.async.relaxed: the destination {a:x} (CTA {ca}) and the mbarrier {mbar:x} (CTA {cm}) must be in the same CTA, \
             a peer of the executing CTA {cta} in the cluster (PTX leaves anything else undefined)"
        ));
    }
    Ok(())
}

/// Parses a trace with the header [`HEADER`].
pub fn parse(input: impl Read) -> anyhow::Result<Vec<Row>> {
    parse_prefix(input)?.into_result()
}

/// Parses a trace with the header [`HEADER`] up to its first bad row; the error when the
/// header is bad.
pub fn parse_prefix(input: impl Read) -> anyhow::Result<Parsed<Row>> {
    Parsed::read_any(input, &[HEADER, HEADER_CTA], parse_rows)
}

fn parse_rows<R: Read>(rdr: &mut Rows<R>, rec: &mut csv::ByteRecord, rows: &mut Vec<Row>, which: usize) -> anyhow::Result<()> {
    let (cols, header) = if which == 0 { (4, HEADER) } else { (5, HEADER_CTA) };
    while next_record(rdr, rec)? {
        let line = rec.position().map_or(0, |p| p.line());
        let bad = |msg: String| -> anyhow::Error { InputError::new(line, msg).into() };
        if rec.len() != cols {
            return Err(bad(format!("expected {cols} columns ({header}), found {}", rec.len())));
        }
        let cta = if cols == 5 {
            let c = hex::parse(&rec[4], 64).map_err(|e| bad(format!("cta: {e}")))?;
            if c >= CLUSTER_CTAS as u128 {
                return Err(bad(format!("cta: {c:x} is not a CTA of the cluster: 0 or 1")));
            }
            c as u64
        } else {
            0
        };
        // No op name is this long: refuse it without echoing it twice (name and parse error).
        if rec[0].len() > 256 {
            return Err(bad(format!("unknown op `{}`: too long for a name", crate::input_error::shown(&rec[0]))));
        }
        let op = String::from_utf8_lossy(&rec[0]).into_owned();
        let empty = |col: usize, name: &str, why: &str| -> anyhow::Result<()> {
            if rec[col].is_empty() { Ok(()) } else { Err(bad(format!("{op} takes no {name}{why}; leave the column empty"))) }
        };
        if op.starts_with("mbarrier.") {
            let addr = mbar_addr(&rec[1], "addr").map_err(bad)?;
            empty(3, "mbar", " (the mbarrier is the addr column)")?;
            let count = |rec: &csv::ByteRecord| -> anyhow::Result<u32> {
                let v = hex::parse(&rec[2], 32).map_err(|e| bad(format!("value: {e}")))?;
                if v > MBAR_MAX as u128 {
                    return Err(bad(format!("value: {v:x} is out of range: counts and bytes are at most fffff (2^20-1)")));
                }
                Ok(v as u32)
            };
            let mop = match op.as_str() {
                "mbarrier.init" => MbarOp::Init(count(rec)?),
                "mbarrier.arrive" => {
                    empty(2, "value", "")?;
                    MbarOp::Arrive
                }
                "mbarrier.inval" => {
                    empty(2, "value", "")?;
                    MbarOp::Inval
                }
                "mbarrier.arrive.expect_tx" => MbarOp::ArriveExpectTx(count(rec)?),
                "mbarrier.expect_tx" => MbarOp::ExpectTx(count(rec)?),
                "mbarrier.complete_tx" => MbarOp::CompleteTx(count(rec)?),
                "mbarrier.test_wait.parity" => match &rec[2] {
                    b"0" => MbarOp::TestWait(false),
                    b"1" => MbarOp::TestWait(true),
                    _ => return Err(bad("value: the parity of mbarrier.test_wait.parity is 0 or 1".into())),
                },
                _ => return Err(bad(format!("unknown mbarrier operation `{op}`: expected one of {}", BAR_OPS.join(", ")))),
            };
            rows.push(Row::Bar { addr, op: mop });
            continue;
        }
        let addr = hex::parse(&rec[1], 64).map_err(|e| bad(format!("addr: {e}")))? as u64;
        if op.starts_with("red.async") {
            let form: RedAsync = op.parse().map_err(|e| bad(format!("unknown op `{op}`: {e}")))?;
            let bits = form.bytes() as u32 * 8;
            let value = hex::parse(&rec[2], bits).map_err(|e| bad(format!("value: {e} (b of {form} is {bits} bits)")))?;
            let mbar = if form.has_mbarrier() {
                if rec[3].is_empty() {
                    return Err(bad(format!("{form} completes on an mbarrier: give its address in the mbar column")));
                }
                let (a, m) = if form.explicit_space() {
                    (addr, hex::parse(&rec[3], 64).map_err(|e| bad(format!("mbar: {e}")))? as u64)
                } else {
                    let m = hex::parse(&rec[3], 64).map_err(|e| bad(format!("mbar: {e}")))? as u64;
                    (from_window(addr, "addr").map_err(bad)?, from_window(m, "mbar").map_err(bad)?)
                };
                let m = check_mbar(m as u128, "mbar").map_err(bad)?;
                peer_rule(cta, a, m).map_err(bad)?;
                Some(m)
            } else {
                empty(3, "mbar", " (.release forms have no completion mechanism)")?;
                None
            };
            rows.push(Row::RedAsync { form, addr, value, mbar });
            continue;
        }
        let access: Access = op.parse().map_err(|e| bad(format!("unknown op `{op}`: {e}")))?;
        let value = if access.has_operand() {
            let bits = access.bytes() as u32 * 8;
            hex::parse(&rec[2], bits).map_err(|e| bad(format!("value: {e} (the operand of {access} is {bits} bits)")))?
        } else {
            empty(2, "value", "")?;
            0
        };
        empty(3, "mbar", "")?;
        rows.push(Row::Access(Request { access, addr, value }));
    }
    Ok(())
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

/// The golden model following `events`: memory and the mbarrier table. `Complete(i)` must come
/// after `Row(i)`, once, for a `.relaxed` `red.async` (it does nothing when the reduction
/// failed); an event sequence that breaks this is an error.
pub fn model_events(rows: &[Row], events: &[Event], mem_bytes: usize) -> Result<Vec<RowResult>, String> {
    let mut mem = Memory::new(mem_bytes);
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
                    ref row => match mem.execute(&row.request().unwrap()) {
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
/// [`InputError`].
pub fn run_cmd(input: &[u8], rtl_engine: bool, mem_bytes: usize, out: impl Write) -> anyhow::Result<u8> {
    run_cmd_lag(input, rtl_engine, mem_bytes, None, out)
}

/// [`run_cmd`] with the model engine's lagging completions: `lag` = (seed, most rows).
pub fn run_cmd_lag(input: &[u8], rtl_engine: bool, mem_bytes: usize, lag: Option<(u64, usize)>, out: impl Write) -> anyhow::Result<u8> {
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
    let form: RedAsync = "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32".parse().unwrap();
    let mut rows: Vec<Row> = (0..MBARRIER_SLOTS).map(|s| Row::Bar { addr: mbar_at(s), op: MbarOp::Init(1) }).collect();
    let mut line = 0u64;
    for p in 0..phases {
        let s = p % MBARRIER_SLOTS;
        let parity = (p / MBARRIER_SLOTS) % 2 == 1;
        rows.push(Row::Bar { addr: mbar_at(s), op: MbarOp::ArriveExpectTx(4 * per_phase as u32) });
        for _ in 0..per_phase {
            rows.push(Row::RedAsync { form, addr: CTA_SHARED_BYTES + 0x100 + (line % 2000) * 16, value: 1, mbar: Some(mbar_at(s)) });
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
    let form: RedAsync = "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32".parse().unwrap();
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
    writeln!(out, "async unit (hw::AsyncUnit, {ASYNC_MEM_BYTES} bytes), Verilated; every run checked cycle by cycle against the model")?;
    // 1. Phases: expect_tx, the red.async of the phase, test_wait.
    let rows = bench_trace(phases, per_phase);
    let t = std::time::Instant::now();
    let run = rtl(&mut RtlAsync::new(), &rows)?;
    let secs = t.elapsed().as_secs_f64();
    check(&rows, &run)?;
    let s = &run.stats;
    writeln!(out, "phases: {phases} phases of {per_phase} red.async.add.u32 (4 bytes each), arrive.expect_tx before, test_wait after")?;
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

/// Mbarrier addresses of the random traces: more than the table has entries.
const RANDOM_MBARS: usize = MBARRIER_SLOTS + 2;

/// A seeded random trace (the cosimulation test and `redunit regress`), executed by CTA 0 on
/// mbarriers and destinations in CTA 1: phases on a few mbarriers (expect_tx, red.async to a
/// few hot lines, test_wait, often while the red.async are in flight), with noise: extra
/// arrivals, complete_tx/expect_tx by hand, loads, misaligned and out-of-range red.async,
/// re-inits, invals, uninitialised mbarriers, more mbarriers than table entries, huge counts.
pub fn random_trace(rng: &mut u64, n: usize) -> Vec<Row> {
    let mut r = || sim::splitmix64_next(rng);
    let forms = RedAsync::all();
    let mut rows: Vec<Row> =
        (0..MBARRIER_SLOTS - 1).map(|s| Row::Bar { addr: mbar_at(s), op: MbarOp::Init(1 + (r() % 3) as u32) }).collect();
    while rows.len() < n {
        // Mostly the first 8; the last two overflow the table unless an entry was freed.
        let k = if r() % 8 == 0 { (r() % RANDOM_MBARS as u64) as usize } else { (r() % MBARRIER_SLOTS as u64) as usize };
        let addr = mbar_at(k);
        match r() % 16 {
            0..=6 => {
                let form = forms[(r() % forms.len() as u64) as usize];
                let bytes = form.bytes() as u64;
                let mut a = match r() % 40 {
                    0 => CTA_SHARED_BYTES + 2,           // misaligned
                    1 => CLUSTER_SHARED_BYTES,           // out of range
                    2 if !form.has_mbarrier() => 1 << 40, // beyond the 32-bit port
                    _ => CTA_SHARED_BYTES + (r() % 8) * 16 + (r() % (16 / bytes)) * bytes, // hot lines
                };
                if form.has_mbarrier() && !form.explicit_space() {
                    a += SHARED_WINDOW_BASE;
                }
                let value = (r() as u128) & ((1u128 << (8 * bytes)) - 1);
                let mbar = form.has_mbarrier().then_some(addr);
                rows.push(Row::RedAsync { form, addr: a, value, mbar });
            }
            7..=8 => {
                let bytes = [4u32, 8, 12, 16, 32][(r() % 5) as usize];
                rows.push(Row::Bar { addr, op: MbarOp::ArriveExpectTx(bytes) });
            }
            9 if r() % 2 == 0 => rows.push(Row::Bar { addr, op: MbarOp::Arrive }),
            9..=11 => rows.push(Row::Bar { addr, op: MbarOp::TestWait(r() % 2 == 1) }),
            12 => rows.push(Row::Bar {
                addr,
                op: [MbarOp::ExpectTx(4), MbarOp::CompleteTx(4), MbarOp::ExpectTx(4), MbarOp::CompleteTx(4), MbarOp::ExpectTx(0xf_ffff), MbarOp::Init(0), MbarOp::Inval][(r() % 7) as usize],
            }),
            13 => rows.push(Row::Bar { addr, op: MbarOp::Init(1 + (r() % 2) as u32) }),
            _ => {
                let a = CTA_SHARED_BYTES + (r() % 8) * 16 + (r() % 2) * 8;
                let access: Access = if r() % 2 == 0 { "ld.b64".parse().unwrap() } else { "global.add.u64".parse().unwrap() };
                rows.push(Row::Access(Request { access, addr: a, value: 1 }));
            }
        }
    }
    rows
}
