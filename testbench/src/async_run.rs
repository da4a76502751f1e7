//! `redunit run` on traces with `red.async` and mbarrier rows (header `op,addr,value,mbar`),
//! on the golden model ([`model`]) or the Verilated async unit ([`rtl`], `hw::AsyncUnit`),
//! and `redunit bench-async`.
//!
//! # Rows
//!
//! | `op` | `addr` | `value` | `mbar` |
//! | --- | --- | --- | --- |
//! | `ld.*`, `st.*`, a `red` form, `atom.` + a `red` form | byte address | as in `op,addr,value` traces | empty |
//! | a `red.async` form ([`sim::red_async`]) | byte address `a` | `b` (hex, the type's width) | `.relaxed`: the mbarrier address; `.release`: empty |
//! | `mbarrier.init` | mbarrier address | expected arrival count (hex, at most `fffff`) | empty |
//! | `mbarrier.arrive` | mbarrier address | empty | empty |
//! | `mbarrier.arrive.expect_tx`, `mbarrier.expect_tx`, `mbarrier.complete_tx` | mbarrier address | bytes (hex, at most `fffff`) | empty |
//! | `mbarrier.test_wait.parity` | mbarrier address | the parity, `0` or `1` | empty |
//!
//! The mbarriers are not in the memory: there are [`MBARRIER_SLOTS`] of them, at mbarrier
//! addresses `0, 8, ..., 38` (hex; slot = address / 8).
//!
//! # Order
//! Rows take effect in trace order. A `red.async` completes (performs complete-tx on its
//! mbarrier with its bytes, [`sim::red_async::RedAsync::complete_tx_bytes`]) when its
//! reduction is done; the model does that at once, the RTL some cycles later, but in request
//! order and before any later mbarrier row on the same mbarrier takes effect (`hw::AsyncUnit`
//! holds that row), so both engines give the same results. A failed `red.async`
//! (misaligned, out of range) stores nothing and completes nothing.
//!
//! # Output
//! `index,op,addr,result` as for plain traces: one row per `ld`/`atom` (the old value), per
//! failed request (`error:misaligned`, `error:out-of-range`), and per
//! `mbarrier.test_wait.parity`: `1` when the phase with that parity has completed, `0` when
//! not, `error:mbarrier-uninitialized` / `error:mbarrier-tx-range` / `error:mbarrier-count`
//! when the mbarrier is in that error state ([`sim::mbarrier`]).
//!
//! # Cycle-level check (RTL)
//! Every cycle the driver applies the barrier operation the unit took and the complete-tx it
//! performed to a shadow model, and checks: the unit's `flip` is exactly the shadow's phase
//! completions, `phase` in the next cycle is the shadow's parity, and a complete-tx happens in
//! the cycle the `red.async`'s response retires (with its mbarrier and bytes) and in no
//! other. So a phase flips in the cycle its last byte completes, never early.

use std::collections::VecDeque;
use std::io::{Read, Write};

use anyhow::bail;
use sim::mbarrier::{MBAR_MAX, MBARRIER_BYTES, MBARRIER_SLOTS, MbarError, MbarOp, Mbarrier};
use sim::red_async::RedAsync;
use sim::{Access, MemError, Memory, Request};

use crate::hex;
use crate::input_error::{InputError, Parsed, Rows, next_record};

/// The header that selects this format.
pub const HEADER: &str = "op,addr,value,mbar";

/// One row of a trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row {
    Access(Request),
    RedAsync { form: RedAsync, addr: u64, value: u128, slot: Option<usize> },
    Bar { slot: usize, op: MbarOp },
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
}

const BAR_OPS: [&str; 6] = [
    "mbarrier.init",
    "mbarrier.arrive",
    "mbarrier.arrive.expect_tx",
    "mbarrier.expect_tx",
    "mbarrier.complete_tx",
    "mbarrier.test_wait.parity",
];

fn bar_name(op: MbarOp) -> &'static str {
    match op {
        MbarOp::Init(_) => BAR_OPS[0],
        MbarOp::Arrive => BAR_OPS[1],
        MbarOp::ArriveExpectTx(_) => BAR_OPS[2],
        MbarOp::ExpectTx(_) => BAR_OPS[3],
        MbarOp::CompleteTx(_) => BAR_OPS[4],
        MbarOp::TestWait(_) => BAR_OPS[5],
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
            Row::Bar { slot, .. } => *slot as u64 * MBARRIER_BYTES,
        }
    }
    /// The request the unit executes, for accesses and red.async.
    pub fn request(&self) -> Option<Request> {
        match *self {
            Row::Access(r) => Some(r),
            Row::RedAsync { form, addr, value, .. } => Some(Request { access: Access::Red(form.red_form()), addr, value }),
            Row::Bar { .. } => None,
        }
    }
}

fn mbar_slot(field: &[u8], what: &str) -> Result<usize, String> {
    let a = hex::parse(field, 64).map_err(|e| format!("{what}: {e}"))?;
    if a % MBARRIER_BYTES as u128 != 0 || a >= (MBARRIER_SLOTS as u128) * MBARRIER_BYTES as u128 {
        return Err(format!(
            "{what}: `{a:x}` is not an mbarrier address: the {MBARRIER_SLOTS} mbarriers are at 0, 8, ..., {:x} (hex)",
            (MBARRIER_SLOTS as u64 - 1) * MBARRIER_BYTES
        ));
    }
    Ok((a / MBARRIER_BYTES as u128) as usize)
}

/// Parses a trace with the header [`HEADER`].
pub fn parse(input: impl Read) -> anyhow::Result<Vec<Row>> {
    parse_prefix(input)?.into_result()
}

/// Parses a trace with the header [`HEADER`] up to its first bad row; the error when the
/// header is bad.
pub fn parse_prefix(input: impl Read) -> anyhow::Result<Parsed<Row>> {
    Parsed::read(input, HEADER, parse_rows)
}

fn parse_rows<R: Read>(rdr: &mut Rows<R>, rec: &mut csv::ByteRecord, rows: &mut Vec<Row>) -> anyhow::Result<()> {
    while next_record(rdr, rec)? {
        let line = rec.position().map_or(0, |p| p.line());
        let bad = |msg: String| -> anyhow::Error { InputError::new(line, msg).into() };
        if rec.len() != 4 {
            return Err(bad(format!("expected 4 columns ({HEADER}), found {}", rec.len())));
        }
        // No op name is this long: refuse it without echoing it twice (name and parse error).
        if rec[0].len() > 256 {
            return Err(bad(format!("unknown op `{}`: too long for a name", crate::input_error::shown(&rec[0]))));
        }
        let op = String::from_utf8_lossy(&rec[0]).into_owned();
        let empty = |col: usize, name: &str, why: &str| -> anyhow::Result<()> {
            if rec[col].is_empty() { Ok(()) } else { Err(bad(format!("{op} takes no {name}{why}; leave the column empty"))) }
        };
        if op.starts_with("mbarrier.") {
            let slot = mbar_slot(&rec[1], "addr").map_err(bad)?;
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
            rows.push(Row::Bar { slot, op: mop });
            continue;
        }
        let addr = hex::parse(&rec[1], 64).map_err(|e| bad(format!("addr: {e}")))? as u64;
        if op.starts_with("red.async") {
            let form: RedAsync = op.parse().map_err(|e| bad(format!("unknown op `{op}`: {e}")))?;
            let bits = form.bytes() as u32 * 8;
            let value = hex::parse(&rec[2], bits).map_err(|e| bad(format!("value: {e} (b of {form} is {bits} bits)")))?;
            let slot = if form.has_mbarrier() {
                if rec[3].is_empty() {
                    return Err(bad(format!("{form} completes on an mbarrier: give its address in the mbar column")));
                }
                Some(mbar_slot(&rec[3], "mbar").map_err(bad)?)
            } else {
                empty(3, "mbar", " (.release forms have no completion mechanism)")?;
                None
            };
            rows.push(Row::RedAsync { form, addr, value, slot });
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

/// The golden model: memory and mbarriers, rows in order.
pub fn model(rows: &[Row], mem_bytes: usize) -> Vec<RowResult> {
    let mut mem = Memory::new(mem_bytes);
    let mut bars = [Mbarrier::default(); MBARRIER_SLOTS];
    // Traces start on a reset unit: the mbarriers are uninitialised.
    rows.iter()
        .map(|row| match *row {
            Row::Bar { slot, op } => {
                let e = bars[slot].apply(op);
                match (op, bars[slot].error) {
                    (MbarOp::TestWait(_), Some(err)) => RowResult::Mbar(err),
                    (MbarOp::TestWait(_), None) => RowResult::Wait(e.wait_complete),
                    _ => RowResult::None,
                }
            }
            _ => {
                let req = row.request().unwrap();
                match mem.execute(&req) {
                    Ok(v) => {
                        if let Row::RedAsync { form, slot: Some(s), .. } = *row {
                            bars[s].apply(MbarOp::CompleteTx(form.complete_tx_bytes().unwrap()));
                        }
                        v.map_or(RowResult::None, RowResult::Value)
                    }
                    Err(e) => RowResult::Mem(e),
                }
            }
        })
        .collect()
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
        };
        writeln!(buf, "{i},{},{:x},{text}", row.op_name(), row.addr())?;
    }
    out.write_all(&buf)?;
    out.flush()?;
    Ok(())
}

/// Mirrors `AsyncIo` in `csrc/async_shim.cpp`.
#[repr(C)]
#[derive(Default, Clone, Copy, Debug)]
struct AsyncIo {
    reset: u64,
    req_valid: u64,
    req_op: u64,
    req_addr: u64,
    req_data_lo: u64,
    req_data_hi: u64,
    req_mbar_en: u64,
    req_mbar: u64,
    rsp_ready: u64,
    bar_valid: u64,
    bar_op: u64,
    bar_slot: u64,
    bar_arg: u64,
    req_ready: u64,
    rsp_valid: u64,
    rsp_data_lo: u64,
    rsp_data_hi: u64,
    rsp_status: u64,
    bar_ready: u64,
    bar_wait_complete: u64,
    bar_parity: u64,
    bar_pending: u64,
    bar_tx: u64,
    bar_err: u64,
    phase: u64,
    mbar_errs: u64,
    flip: u64,
    tx_valid: u64,
    tx_slot: u64,
    tx_bytes: u64,
    u_rsp_valid: u64,
    u_rsp_tag: u64,
}

unsafe extern "C" {
    fn redunit_async_new() -> *mut std::ffi::c_void;
    fn redunit_async_free(h: *mut std::ffi::c_void);
    fn redunit_async_step(h: *mut std::ffi::c_void, io: *mut AsyncIo);
}

/// The memory size of the Verilated async unit.
pub const ASYNC_MEM_BYTES: usize = sim::memory::DEFAULT_MEM_BYTES;

/// The Verilated async unit, one cycle per [`RtlAsync::step`].
pub struct RtlAsync {
    h: *mut std::ffi::c_void,
    cycle: u64,
}

impl RtlAsync {
    /// A new model, reset for 2 cycles.
    pub fn new() -> RtlAsync {
        let h = unsafe { redunit_async_new() };
        assert!(!h.is_null());
        let mut a = RtlAsync { h, cycle: 0 };
        for _ in 0..2 {
            a.step(&mut AsyncIo { reset: 1, ..AsyncIo::default() });
        }
        a
    }
    fn step(&mut self, io: &mut AsyncIo) {
        unsafe { redunit_async_step(self.h, io) };
        self.cycle += 1;
    }
}

impl Default for RtlAsync {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for RtlAsync {
    fn drop(&mut self) {
        unsafe { redunit_async_free(self.h) };
    }
}

/// Figures of one RTL run.
#[derive(Clone, Debug, Default)]
pub struct RtlStats {
    pub cycles: u64,
    /// Requests (accesses and red.async) sent to the unit, and the cycles from the first
    /// acceptance to the last response.
    pub requests: u64,
    pub request_cycles: u64,
    /// Phase flips caused by a complete-tx, with the cycles from the acceptance of the
    /// red.async that completed the phase, and from its unit response, to the cycle in which
    /// `phase` shows the flip.
    pub flips_by_bytes: u64,
    pub flip_after_accept: Vec<u64>,
    pub flip_after_response: Vec<u64>,
    /// Cycles in which a barrier operation waited for a red.async on its mbarrier.
    pub bar_wait_cycles: u64,
}

/// The result of an RTL run: one result per row, the cycle-level check's mismatches (at most
/// 20 are kept) and the figures.
pub struct RtlRun {
    pub results: Vec<RowResult>,
    pub mismatches: Vec<String>,
    pub stats: RtlStats,
}

const TIMEOUT_CYCLES: u64 = 100_000;

/// Runs `rows` on `unit` (fresh or used: the mbarrier state carries over, so use a fresh one
/// for a trace), checking every cycle (module doc).
pub fn rtl(unit: &mut RtlAsync, rows: &[Row]) -> anyhow::Result<RtlRun> {
    let mut results = vec![RowResult::None; rows.len()];
    let mut mismatches = Vec::new();
    let mut stats = RtlStats::default();
    let mut shadow = [Mbarrier::default(); MBARRIER_SLOTS];
    // (row, tag, accept cycle) of the requests in flight, in request order.
    let mut inflight: VecDeque<(usize, u64, u64)> = VecDeque::new();
    let mut u_rsp_cycle = [0u64; 16];
    let mut tags = 0u64;
    let (mut first_accept, mut last_rsp) = (None, 0u64);
    let mut i = 0;
    let mut idle = 0u64;
    let start = unit.cycle;
    let push = |m: &mut Vec<String>, s: String| {
        if m.len() < 20 {
            m.push(s);
        }
    };
    while i < rows.len() || !inflight.is_empty() {
        let c = unit.cycle;
        let mut io = AsyncIo { rsp_ready: 1, ..AsyncIo::default() };
        let mut wide = false;
        if i < rows.len() {
            match rows[i] {
                Row::Bar { slot, op } => {
                    let (code, arg) = op.code();
                    io.bar_valid = 1;
                    io.bar_op = code as u64;
                    io.bar_slot = slot as u64;
                    io.bar_arg = arg as u64;
                }
                ref row => {
                    let req = row.request().unwrap();
                    if req.addr >= 1 << 32 {
                        // Never reaches the 32-bit port: answered as the memory contract says.
                        results[i] = match crate::unit::wide_address_outcome(&req) {
                            Ok(v) => v.map_or(RowResult::None, RowResult::Value),
                            Err(e) => RowResult::Mem(e),
                        };
                        wide = true;
                    } else {
                        io.req_valid = 1;
                        io.req_op = req.access.code() as u64;
                        io.req_addr = req.addr;
                        io.req_data_lo = req.value as u64;
                        io.req_data_hi = (req.value >> 64) as u64;
                        if let Row::RedAsync { slot: Some(s), .. } = *row {
                            io.req_mbar_en = 1;
                            io.req_mbar = s as u64;
                        }
                    }
                }
            }
        }
        if wide {
            i += 1;
            continue;
        }
        unit.step(&mut io);
        let mut progress = false;
        // The phase register shows the shadow's parity (the flips of earlier cycles).
        let parity: u64 = shadow.iter().enumerate().map(|(s, b)| (b.parity as u64) << s).sum();
        if io.phase != parity {
            push(&mut mismatches, format!("cycle {c}: phase {:08b}, the model's parity {parity:08b}", io.phase));
        }
        let mut flip = 0u64;
        // The barrier operation taken this cycle.
        if io.bar_valid == 1 {
            if io.bar_ready == 1 {
                let Row::Bar { slot, op } = rows[i] else { unreachable!() };
                let e = shadow[slot].apply(op);
                flip |= (e.flipped as u64) << slot;
                if let MbarOp::TestWait(_) = op {
                    results[i] = match MbarError::from_code(io.bar_err as u8) {
                        Some(err) => RowResult::Mbar(err),
                        None => RowResult::Wait(io.bar_wait_complete == 1),
                    };
                }
                i += 1;
                progress = true;
            } else {
                stats.bar_wait_cycles += 1;
            }
        }
        if io.u_rsp_valid == 1 {
            u_rsp_cycle[io.u_rsp_tag as usize] = c;
        }
        // The response retiring this cycle, and the complete-tx it must perform.
        let mut expect_tx = None;
        if io.rsp_valid == 1 {
            let Some((r, tag, acc)) = inflight.pop_front() else {
                bail!("cycle {c}: a response with no request in flight");
            };
            let data = (io.rsp_data_hi as u128) << 64 | io.rsp_data_lo as u128;
            let access = rows[r].request().unwrap().access;
            results[r] = match io.rsp_status as u8 {
                sim::memory::req_encoding::STATUS_OK if access.returns() => {
                    RowResult::Value(data & crate::unit::mask(access.bytes()))
                }
                sim::memory::req_encoding::STATUS_OK => RowResult::None,
                sim::memory::req_encoding::STATUS_MISALIGNED => RowResult::Mem(MemError::Misaligned),
                _ => RowResult::Mem(MemError::OutOfRange),
            };
            if let (Row::RedAsync { form, slot: Some(s), .. }, RowResult::None) = (rows[r], results[r]) {
                expect_tx = Some((s, form.complete_tx_bytes().unwrap(), acc, u_rsp_cycle[(tag % 16) as usize]));
            }
            last_rsp = c;
            progress = true;
        }
        let got_tx = (io.tx_valid == 1).then_some((io.tx_slot as usize, io.tx_bytes as u32));
        if got_tx != expect_tx.map(|(s, b, _, _)| (s, b)) {
            push(&mut mismatches, format!("cycle {c}: complete-tx {got_tx:?}, expected {:?} (slot, bytes)", expect_tx.map(|(s, b, _, _)| (s, b))));
        }
        if let Some((s, b, acc, ursp)) = expect_tx {
            let e = shadow[s].apply(MbarOp::CompleteTx(b));
            if e.flipped {
                flip |= 1 << s;
                stats.flips_by_bytes += 1;
                stats.flip_after_accept.push(c + 1 - acc);
                stats.flip_after_response.push(c + 1 - ursp);
            }
        }
        if io.flip != flip {
            push(&mut mismatches, format!("cycle {c}: phase completions {:08b}, the model's {flip:08b}", io.flip));
        }
        // The request taken this cycle.
        if io.req_valid == 1 && io.req_ready == 1 {
            inflight.push_back((i, tags, c));
            tags += 1;
            first_accept.get_or_insert(c);
            stats.requests += 1;
            i += 1;
            progress = true;
        }
        idle = if progress { 0 } else { idle + 1 };
        if idle > TIMEOUT_CYCLES {
            bail!("the async unit is stuck: no handshake for {TIMEOUT_CYCLES} cycles at cycle {c} (row {i})");
        }
    }
    stats.cycles = unit.cycle - start;
    stats.request_cycles = first_accept.map_or(0, |f| last_rsp + 1 - f);
    Ok(RtlRun { results, mismatches, stats })
}

/// `redunit run` with the [`HEADER`] format: parses `input`, executes it and writes the
/// results; on an RTL cycle-level mismatch prints them to stderr and returns exit status 1.
/// On a bad row, the rows before it are executed and written, and the error is an
/// [`InputError`].
pub fn run_cmd(input: &[u8], rtl_engine: bool, mem_bytes: usize, out: impl Write) -> anyhow::Result<u8> {
    let parsed = parse_prefix(input)?;
    let rows = &parsed.rows;
    if !rtl_engine {
        write_results(rows, &model(rows, mem_bytes), out)?;
        return parsed.then(0);
    }
    if mem_bytes != ASYNC_MEM_BYTES {
        bail!(
            "--mem-bytes {mem_bytes}: the async unit (traces with the mbar column) is built with {ASYNC_MEM_BYTES} bytes only; \
             drop --mem-bytes or use --engine model"
        );
    }
    let run = rtl(&mut RtlAsync::new(), rows)?;
    write_results(rows, &run.results, out)?;
    for m in &run.mismatches {
        eprintln!("redunit: RTL mismatch: {m}");
    }
    parsed.then(if run.mismatches.is_empty() { 0 } else { 1 })
}

/// A trace of `phases` phases on each of the 8 mbarriers in turn: `arrive.expect_tx` of
/// `per_phase` × 4 bytes, then `per_phase` `red.async ... add.u32` to distinct lines, then a
/// `test_wait.parity` — the barrier pattern of a producer filling a buffer.
pub fn bench_trace(phases: usize, per_phase: usize) -> Vec<Row> {
    let form: RedAsync = "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32".parse().unwrap();
    let mut rows: Vec<Row> = (0..MBARRIER_SLOTS).map(|s| Row::Bar { slot: s, op: MbarOp::Init(1) }).collect();
    let mut line = 0u64;
    for p in 0..phases {
        let s = p % MBARRIER_SLOTS;
        let parity = (p / MBARRIER_SLOTS) % 2 == 1;
        rows.push(Row::Bar { slot: s, op: MbarOp::ArriveExpectTx(4 * per_phase as u32) });
        for _ in 0..per_phase {
            rows.push(Row::RedAsync { form, addr: (line % 4096) * 16, value: 1, slot: Some(s) });
            line += 1;
        }
        rows.push(Row::Bar { slot: s, op: MbarOp::TestWait(parity) });
    }
    rows
}

/// A stream of `n` `red.async ... add.u32` to distinct lines, spread over the 8 mbarriers,
/// each of which expects all of its bytes first and is tested at the end: the throughput of
/// `red.async` through the async unit when no barrier operation waits.
pub fn stream_trace(n: usize) -> Vec<Row> {
    let form: RedAsync = "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32".parse().unwrap();
    let mut rows = Vec::new();
    for s in 0..MBARRIER_SLOTS {
        let mine = n / MBARRIER_SLOTS + (s < n % MBARRIER_SLOTS) as usize;
        rows.push(Row::Bar { slot: s, op: MbarOp::Init(1) });
        rows.push(Row::Bar { slot: s, op: MbarOp::ArriveExpectTx(4 * mine as u32) });
    }
    for k in 0..n {
        rows.push(Row::RedAsync { form, addr: (k as u64 % 4096) * 16, value: 1, slot: Some(k % MBARRIER_SLOTS) });
    }
    for s in 0..MBARRIER_SLOTS {
        rows.push(Row::Bar { slot: s, op: MbarOp::TestWait(false) });
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
        if run.results != model(rows, ASYNC_MEM_BYTES) {
            bail!("the RTL's results differ from the model's");
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
        "  {} cycles for {} rows ({} requests; barrier operations waited {} cycles); {:.0} rows/s cosimulation",
        s.cycles,
        rows.len(),
        s.requests,
        s.bar_wait_cycles,
        rows.len() as f64 / secs
    )?;
    // 2. A stream with no waits.
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

/// A seeded random trace (the cosimulation test and `redunit regress`): a producer/consumer-like trace: phases on a few mbarriers (expect_tx, red.async to a few
/// hot lines, test_wait), with noise: extra arrivals, complete_tx/expect_tx by hand, loads,
/// misaligned and out-of-range red.async, re-inits, uninitialised mbarriers, huge counts.
pub fn random_trace(rng: &mut u64, n: usize) -> Vec<Row> {
    let mut r = || sim::splitmix64_next(rng);
    let forms = RedAsync::all();
    let mut rows: Vec<Row> = (0..MBARRIER_SLOTS - 1).map(|s| Row::Bar { slot: s, op: MbarOp::Init(1 + (r() % 3) as u32) }).collect();
    while rows.len() < n {
        let slot = (r() % MBARRIER_SLOTS as u64) as usize;
        match r() % 16 {
            0..=6 => {
                let form = forms[(r() % forms.len() as u64) as usize];
                let bytes = form.bytes() as u64;
                let addr = match r() % 40 {
                    0 => 2,                              // misaligned
                    1 => ASYNC_MEM_BYTES as u64,         // out of range
                    2 => 1 << 40,                        // beyond the 32-bit port
                    _ => (r() % 8) * 16 + (r() % (16 / bytes)) * bytes, // hot lines
                };
                let value = (r() as u128) & ((1u128 << (8 * bytes)) - 1);
                rows.push(Row::RedAsync { form, addr, value, slot: form.has_mbarrier().then_some(slot) });
            }
            7..=8 => {
                let bytes = [4u32, 8, 12, 16, 32][(r() % 5) as usize];
                rows.push(Row::Bar { slot, op: MbarOp::ArriveExpectTx(bytes) });
            }
            9 if r() % 2 == 0 => rows.push(Row::Bar { slot, op: MbarOp::Arrive }),
            9..=11 => rows.push(Row::Bar { slot, op: MbarOp::TestWait(r() % 2 == 1) }),
            12 => rows.push(Row::Bar {
                slot,
                op: [MbarOp::ExpectTx(4), MbarOp::CompleteTx(4), MbarOp::ExpectTx(4), MbarOp::CompleteTx(4), MbarOp::ExpectTx(0xf_ffff), MbarOp::Init(0)][(r() % 6) as usize],
            }),
            13 => rows.push(Row::Bar { slot, op: MbarOp::Init(1 + (r() % 2) as u32) }),
            _ => {
                let addr = (r() % 8) * 16 + (r() % 2) * 8;
                let access: Access = if r() % 2 == 0 { "ld.b64".parse().unwrap() } else { "global.add.u64".parse().unwrap() };
                rows.push(Row::Access(Request { access, addr, value: 1 }));
            }
        }
    }
    rows
}
