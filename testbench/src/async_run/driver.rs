//! The Verilated async unit (`hw::AsyncUnit`) and the driver that runs a trace on it with the
//! cycle-level check of the module above: a shadow mbarrier table updated by the barrier
//! operations the unit takes and the complete-tx it performs, and the events in the unit's
//! order for the golden model to follow. The async unit's memory is the cluster's shared
//! memory; the global rows run on a second, plain unit (`hw::SliceUnit`, as `run --engine
//! rtl` runs a second space), in trace order: the memories are separate and no global row
//! touches an mbarrier, so their interleaving with the shared rows changes no result.

use std::collections::VecDeque;

use anyhow::bail;
use sim::mbarrier::{MBARRIER_BYTES, MbarError, MbarOp, MbarTable};
use sim::{MemError, Space};

use super::{COMPLETION_BOUND, Event, Row, RowResult, model_events};

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
    bar_addr: u64,
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
    bar_full: u64,
    mbar_valid: u64,
    phase: u64,
    mbar_errs: u64,
    flip: u64,
    tx_valid: u64,
    tx_addr: u64,
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
    /// The most cycles from a red.async's acceptance to its complete-tx.
    pub max_completion: u64,
    /// `test_wait`s taken while a red.async on that mbarrier was in flight, and how many of
    /// them saw the phase incomplete.
    pub waits_in_flight: u64,
    pub waits_in_flight_incomplete: u64,
    /// `init`s that found the table full.
    pub table_full: u64,
}

/// The result of an RTL run: one result per row, the cycle-level check's mismatches (at most
/// 20 are kept), the figures, and the events in the order the unit performed them (for
/// [`model_events`]).
pub struct RtlRun {
    pub results: Vec<RowResult>,
    pub mismatches: Vec<String>,
    pub stats: RtlStats,
    pub events: Vec<Event>,
}

const TIMEOUT_CYCLES: u64 = 100_000;

/// The state of one run of [`rtl`]: what the unit has answered, the shadow mbarrier table the
/// cycle check compares with, and the requests in flight.
struct Driver<'a> {
    rows: &'a [Row],
    run: RtlRun,
    shadow: MbarTable,
    /// (row, tag, accept cycle) of the requests in flight, in request order.
    inflight: VecDeque<(usize, u64, u64)>,
    /// The cycle of each unit tag's response (the async unit's `u_rsp_*`).
    u_rsp_cycle: [u64; hw::async_unit::ASYNC_TAGS],
    tags: u64,
    first_accept: Option<u64>,
    last_rsp: u64,
    /// The next row to offer.
    i: usize,
    /// The results of the global rows, run on the plain unit before (`None` for the others).
    global: Vec<Option<RowResult>>,
}

/// A complete-tx the retiring response must perform: (mbarrier, bytes, accept cycle, the unit
/// response's cycle).
type Tx = (u64, u32, u64, u64);

fn mbar_tag(a: u64) -> u64 {
    a / MBARRIER_BYTES
}

impl<'a> Driver<'a> {
    fn new(rows: &'a [Row], global: Vec<Option<RowResult>>) -> Driver<'a> {
        Driver {
            rows,
            run: RtlRun {
                results: vec![RowResult::None; rows.len()],
                mismatches: Vec::new(),
                stats: RtlStats::default(),
                events: Vec::with_capacity(rows.len() * 2),
            },
            shadow: MbarTable::default(),
            inflight: VecDeque::new(),
            u_rsp_cycle: [0; hw::async_unit::ASYNC_TAGS],
            tags: 0,
            first_accept: None,
            last_rsp: 0,
            i: 0,
            global,
        }
    }

    fn busy(&self) -> bool {
        self.i < self.rows.len() || !self.inflight.is_empty()
    }

    fn mismatch(&mut self, s: String) {
        if self.run.mismatches.len() < 20 {
            self.run.mismatches.push(s);
        }
    }

    /// The inputs offering the next row; `None` when that row's address does not fit the
    /// 32-bit port (answered here as the memory contract says, and passed).
    fn offer(&mut self) -> Option<AsyncIo> {
        let mut io = AsyncIo { rsp_ready: 1, ..AsyncIo::default() };
        let Some(row) = self.rows.get(self.i) else { return Some(io) };
        if let Some(res) = self.global[self.i] {
            self.run.results[self.i] = res;
            self.run.events.push(Event::Row(self.i));
            self.i += 1;
            return None;
        }
        match *row {
            Row::Bar { addr, op } => {
                let (code, arg) = op.code();
                io.bar_valid = 1;
                io.bar_op = code as u64;
                io.bar_addr = mbar_tag(addr);
                io.bar_arg = arg as u64;
            }
            ref row => {
                let req = row.request().unwrap();
                if req.addr >= 1 << 32 {
                    self.run.results[self.i] = match crate::unit::wide_address_outcome(&req) {
                        Ok(v) => v.map_or(RowResult::None, RowResult::Value),
                        Err(e) => RowResult::Mem(e),
                    };
                    self.run.events.push(Event::Row(self.i));
                    self.i += 1;
                    return None;
                }
                io.req_valid = 1;
                io.req_op = req.access.code() as u64;
                io.req_addr = req.addr;
                io.req_data_lo = req.value as u64;
                io.req_data_hi = (req.value >> 64) as u64;
                if let Some((m, _)) = row.completes_on() {
                    io.req_mbar_en = 1;
                    io.req_mbar = mbar_tag(m);
                }
            }
        }
        Some(io)
    }

    /// The phase and valid registers show the shadow's (the updates of earlier cycles).
    fn check_state(&mut self, c: u64, io: &AsyncIo) {
        let (p, v) = (self.shadow.parities(), self.shadow.valid());
        if io.phase != p || io.mbar_valid != v {
            self.mismatch(format!(
                "cycle {c}: phase {:08b} valid {:08b}, the model's {p:08b} {v:08b}",
                io.phase, io.mbar_valid
            ));
        }
    }

    /// The barrier operation taken this cycle (always, out of reset): applied to the shadow,
    /// its result checked. Returns whether one was taken.
    fn take_bar(&mut self, c: u64, io: &AsyncIo, flip: &mut u64) -> anyhow::Result<bool> {
        if io.bar_valid != 1 {
            return Ok(false);
        }
        if io.bar_ready != 1 {
            bail!("cycle {c}: bar_ready is low out of reset");
        }
        let i = self.i;
        let Row::Bar { addr, op } = self.rows[i] else { unreachable!() };
        let t = self.shadow.apply(addr, op);
        if t.effect.flipped {
            *flip |= 1 << t.entry.unwrap();
        }
        match op {
            MbarOp::TestWait(_) => {
                let got = match MbarError::from_code(io.bar_err as u8) {
                    Some(err) => RowResult::Mbar(err),
                    None => RowResult::Wait(io.bar_wait_complete == 1),
                };
                let want = match t.error {
                    Some(err) => RowResult::Mbar(err),
                    None => RowResult::Wait(t.effect.wait_complete),
                };
                self.run.results[i] = got;
                if got != want {
                    self.mismatch(format!("cycle {c}: row {i} test_wait {got:?}, the model's {want:?}"));
                }
                let rows = self.rows;
                if self.inflight.iter().any(|&(r, _, _)| rows[r].completes_on().is_some_and(|(m, _)| m == addr)) {
                    self.run.stats.waits_in_flight += 1;
                    self.run.stats.waits_in_flight_incomplete += (got == RowResult::Wait(false)) as u64;
                }
            }
            MbarOp::Init(_) => {
                if (io.bar_full == 1) != t.full {
                    self.mismatch(format!("cycle {c}: row {i} init: bar_full {}, the model's {}", io.bar_full, t.full));
                }
                if io.bar_full == 1 {
                    self.run.results[i] = RowResult::TableFull;
                    self.run.stats.table_full += 1;
                }
            }
            _ => {}
        }
        self.run.events.push(Event::Row(i));
        self.i += 1;
        Ok(true)
    }

    /// The response retiring this cycle: its result, and the complete-tx it must perform.
    /// Returns whether one retired.
    fn retire(&mut self, c: u64, io: &AsyncIo, expect_tx: &mut Option<Tx>) -> anyhow::Result<bool> {
        if io.rsp_valid != 1 {
            return Ok(false);
        }
        let Some((r, tag, acc)) = self.inflight.pop_front() else {
            bail!("cycle {c}: a response with no request in flight");
        };
        let data = (io.rsp_data_hi as u128) << 64 | io.rsp_data_lo as u128;
        let access = self.rows[r].request().unwrap().access;
        let result = match io.rsp_status as u8 {
            sim::memory::req_encoding::STATUS_OK if access.returns() => {
                RowResult::Value(data & crate::unit::mask(access.bytes()))
            }
            sim::memory::req_encoding::STATUS_OK => RowResult::None,
            sim::memory::req_encoding::STATUS_MISALIGNED => RowResult::Mem(MemError::Misaligned),
            _ => RowResult::Mem(MemError::OutOfRange),
        };
        self.run.results[r] = result;
        if let Some((m, b)) = self.rows[r].completes_on() {
            self.run.events.push(Event::Complete(r));
            if result == RowResult::None {
                *expect_tx = Some((m, b, acc, self.u_rsp_cycle[(tag % hw::async_unit::ASYNC_TAGS as u64) as usize]));
                self.run.stats.max_completion = self.run.stats.max_completion.max(c - acc);
            }
        }
        self.last_rsp = c;
        Ok(true)
    }

    /// The unit's complete-tx against the expected one, applied to the shadow; then its
    /// phase completions against the shadow's.
    fn complete(&mut self, c: u64, io: &AsyncIo, expect_tx: Option<Tx>, mut flip: u64) {
        let got = (io.tx_valid == 1).then_some((io.tx_addr * MBARRIER_BYTES, io.tx_bytes as u32));
        let want = expect_tx.map(|(m, b, _, _)| (m, b));
        if got != want {
            self.mismatch(format!("cycle {c}: complete-tx {got:?}, expected {want:?} (mbarrier, bytes)"));
        }
        if let Some((m, b, acc, ursp)) = expect_tx {
            let t = self.shadow.apply(m, MbarOp::CompleteTx(b));
            if t.effect.flipped {
                flip |= 1 << t.entry.unwrap();
                let s = &mut self.run.stats;
                s.flips_by_bytes += 1;
                s.flip_after_accept.push(c + 1 - acc);
                s.flip_after_response.push(c + 1 - ursp);
            }
        }
        if io.flip != flip {
            self.mismatch(format!("cycle {c}: phase completions {:08b}, the model's {flip:08b}", io.flip));
        }
    }

    /// The request taken this cycle. Returns whether one was.
    fn accept(&mut self, c: u64, io: &AsyncIo) -> bool {
        if io.req_valid != 1 || io.req_ready != 1 {
            return false;
        }
        self.inflight.push_back((self.i, self.tags, c));
        self.run.events.push(Event::Row(self.i));
        self.tags += 1;
        self.first_accept.get_or_insert(c);
        self.run.stats.requests += 1;
        self.i += 1;
        true
    }

    /// The completion bound: no red.async in flight longer than [`COMPLETION_BOUND`] cycles.
    fn check_bound(&mut self, c: u64) {
        let rows = self.rows;
        if let Some(&(r, _, acc)) = self.inflight.iter().find(|&&(r, _, _)| rows[r].completes_on().is_some()) {
            if c + 1 - acc > COMPLETION_BOUND {
                self.mismatch(format!(
                    "cycle {c}: row {r}, accepted in cycle {acc}, has not completed within {COMPLETION_BOUND} cycles"
                ));
            }
        }
    }
}

/// Runs `rows` on `unit` (fresh or used: the mbarrier table carries over, so use a fresh one
/// for a trace), one row offered per cycle, checking every cycle (module doc).
pub fn rtl(unit: &mut RtlAsync, rows: &[Row]) -> anyhow::Result<RtlRun> {
    let mut d = Driver::new(rows, global_rows(rows)?);
    let start = unit.cycle;
    let mut idle = 0u64;
    while d.busy() {
        let c = unit.cycle;
        let Some(mut io) = d.offer() else { continue };
        unit.step(&mut io);
        d.check_state(c, &io);
        let mut flip = 0u64;
        let mut progress = d.take_bar(c, &io, &mut flip)?;
        if io.u_rsp_valid == 1 {
            d.u_rsp_cycle[io.u_rsp_tag as usize] = c;
        }
        let mut expect_tx = None;
        progress |= d.retire(c, &io, &mut expect_tx)?;
        d.complete(c, &io, expect_tx, flip);
        progress |= d.accept(c, &io);
        d.check_bound(c);
        idle = if progress { 0 } else { idle + 1 };
        if idle > TIMEOUT_CYCLES {
            bail!("the async unit is stuck: no handshake for {TIMEOUT_CYCLES} cycles at cycle {c} (row {})", d.i);
        }
    }
    let mut run = d.run;
    run.stats.cycles = unit.cycle - start;
    run.stats.request_cycles = d.first_accept.map_or(0, |f| d.last_rsp + 1 - f);
    Ok(run)
}

/// The global rows' results from a plain Verilated unit of [`ASYNC_MEM_BYTES`] (in trace
/// order), `None` for the other rows; no unit is built for a trace without global rows.
fn global_rows(rows: &[Row]) -> anyhow::Result<Vec<Option<RowResult>>> {
    let mut out = vec![None; rows.len()];
    let idx: Vec<usize> = (0..rows.len()).filter(|&i| rows[i].space() == Some(Space::Global)).collect();
    if idx.is_empty() {
        return Ok(out);
    }
    let reqs: Vec<sim::Request> = idx.iter().map(|&i| rows[i].request().unwrap()).collect();
    let mut unit = crate::unit::RtlUnit::new(ASYNC_MEM_BYTES)?;
    let (outcomes, _) = crate::unit::execute_trace(&mut unit, &reqs)?;
    for (i, o) in idx.into_iter().zip(outcomes) {
        out[i] = Some(match o {
            Ok(v) => v.map_or(RowResult::None, RowResult::Value),
            Err(e) => RowResult::Mem(e),
        });
    }
    Ok(out)
}

/// The mismatches of an RTL run against the golden model following its events (at most 20).
pub fn check_against_model(rows: &[Row], run: &RtlRun, mem_bytes: usize) -> Vec<String> {
    let mut out = Vec::new();
    match model_events(rows, &run.events, mem_bytes) {
        Err(e) => out.push(format!("the RTL's completion events: {e}")),
        Ok(model) => {
            for (i, (m, r)) in model.iter().zip(&run.results).enumerate() {
                if m != r && out.len() < 20 {
                    out.push(format!(
                        "row {i} ({}): RTL {r:?}, the model following the RTL's completions {m:?}",
                        rows[i].op_name()
                    ));
                }
            }
        }
    }
    out
}
