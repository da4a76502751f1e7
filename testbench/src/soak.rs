//! The unit's random stream with faults: resets at random points of the stream, aimed at the
//! hard moments (the ordering queue full, the response FIFO full, a dependent chain to one
//! address in flight), and long `rsp_ready` droughts. `redunit regress` runs its unit block
//! through here; `tests/unit_soak.rs` runs it at a high fault rate.
//!
//! # The stream
//!
//! The random requests ([`crate::traffic`]) are cut into *episodes* of about
//! [`SoakConfig::reset_every`] requests each (uniform in 1..2N; with 0 the whole stream is one
//! episode: one reset, at its end). Each episode is one batch of the shim
//! (`redunit_unit_run_faults`): droughts start at random requests of it (one per
//! [`SoakConfig::drought_every`] requests on average, exponential gaps,
//! [`DROUGHT_MIN`]..=[`DROUGHT_MAX`] cycles of `rsp_ready` low), and it ends with a reset
//! (`reset` high for [`RESET_LEN`] cycles). The episodes take turns at the reset's moment:
//! 1. a random cycle near the episode's last request;
//! 2. once the ordering queue is full (`rsp_ready` held low from 64 requests before the end
//!    until `req_ready` falls);
//! 3. once the response FIFO is full (`rsp_ready` held low until every response credit has
//!    been in use for [`SETTLE`] cycles, so that every issued request's response is in the
//!    FIFO);
//! 4. a few cycles after a chain of 4..=12 `red`/`atom` requests to one address, the last
//!    requests of the episode (dependent requests: each waits for its predecessor's result).
//!
//! Each reset is counted by what was true at it (a reset of turn 1 may find the queue full);
//! `queue_full`, `fifo_full` and `chain` are expected to be non-zero in a soak of four or
//! more resets (`redunit regress` names the ones that are not). The requests of an episode
//! after the ones issued by the reset are never sent.
//!
//! # The rule checked at each reset
//!
//! The unit's reset rule (`hw/src/slice_unit/`, "Reset"): requests accepted and not yet
//! answered at a reset are dropped and get no response; memory keeps what was written; of
//! those in flight only the one in the write stage in the first reset cycle is still written.
//! The shim marks the requests in flight at the reset as dropped. Then:
//! - every request of the episode is answered exactly once, or dropped: a request with
//!   neither is a failure ("no response"); a second response, or one for a dropped request
//!   after its reset, has an id that is not in flight, which the shim reports as a broken
//!   contract;
//! - answered requests are checked against the golden memory in arrival order as in
//!   [`crate::unit_cosim`]; the dropped ones are held back. An answered request with an older
//!   dropped request to the same words of its line ([`hw::slice_unit::hazard_words`]) is a
//!   failure: the unit answers requests to one word in arrival order, so the older one would
//!   have been answered first (this holds for aligned, in-range requests; error requests
//!   enter the queue unordered and may overtake);
//! - after the reset every line a dropped request touches is read back (`ld.b128`). A
//!   dropped request reached memory iff it passed the write stage by the first reset cycle;
//!   requests to one word pass it in arrival order, so the dropped requests that landed on a
//!   line are a *closed* set: with each one, every older dropped request to one of its words
//!   (per word a prefix, in arrival order, of that word's dropped requests; the whole line's
//!   prefix where the unit orders lines). The read-back value must equal the golden line with
//!   some closed set (possibly empty, possibly all) applied in arrival order; the golden
//!   memory takes the first that matches, smallest first (sets that give the same line cannot
//!   be told apart, and do not matter). Any other value is a failure.
//! - the stream ends with every line read back and compared (memory outside the dropped
//!   requests' lines is never allowed to change).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::Instant;

use sim::memory::Width;
use sim::{Access, Memory, Request};

use crate::traffic::{self, Mix, Traffic};
use crate::unit::{Batch, FaultOutcome, Faults, ResetWhen, RtlUnit, UnitProtocolError};
use crate::unit_cosim::{Failure, MAX_LISTED, Report};

/// Cycles of each fault reset.
pub const RESET_LEN: u64 = 3;
/// The shortest and longest `rsp_ready` drought, cycles.
pub const DROUGHT_MIN: u64 = 200;
pub const DROUGHT_MAX: u64 = 4000;
/// Cycles of credit stall with `rsp_ready` low after which every issued request's response
/// is in the FIFO (more than the deepest pipeline's latency).
pub const SETTLE: u64 = 64;
/// Cycles a queue-full or FIFO-full reset waits for its moment before it resets anyway.
pub const MOMENT_LIMIT: u64 = 20_000;
/// Requests before the end of an episode from which a queue-full or FIFO-full reset holds
/// `rsp_ready` low (more than the queue, the pipeline and the FIFO hold together).
const FILL_REQUESTS: usize = 64;
/// The default rates of `redunit regress`.
pub const DEFAULT_RESET_EVERY: u64 = 100_000;
pub const DEFAULT_DROUGHT_EVERY: u64 = 20_000;

/// A deliberate checker bug, for the mutation tests: each must make a correct unit fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mutation {
    /// Expects a response for every request, dropped ones included.
    ExpectDroppedResponse,
    /// Allows no dropped request to reach memory.
    NothingLands,
}

/// The settings of a soak.
#[derive(Clone, Copy, Debug)]
pub struct SoakConfig {
    pub mem_bytes: usize,
    /// Random requests issued in all (chains included; sweeps not).
    pub requests: u64,
    /// Requests per reset on average (0: one reset, at the end of the stream).
    pub reset_every: u64,
    /// Requests per drought on average (0: none).
    pub drought_every: u64,
    pub rsp_ready_pct: u32,
    pub req_valid_pct: u32,
    pub mix: Mix,
    pub hw: hw::Config,
    pub mutation: Option<Mutation>,
}

impl SoakConfig {
    pub fn new(mem_bytes: usize, requests: u64) -> Self {
        SoakConfig {
            mem_bytes,
            requests,
            reset_every: DEFAULT_RESET_EVERY,
            drought_every: DEFAULT_DROUGHT_EVERY,
            rsp_ready_pct: 70,
            req_valid_pct: 85,
            mix: Mix::default(),
            hw: hw::Config::unit_default(),
            mutation: None,
        }
    }
}

/// The fault counters of a soak.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SoakStats {
    pub resets: u64,
    /// Resets with the ordering queue full (req_ready low).
    pub queue_full: u64,
    /// Resets with the response FIFO full.
    pub fifo_full: u64,
    /// Resets with two or more `red`/`atom` requests to one address in flight.
    pub chain: u64,
    /// Requests dropped by the resets, and those of them that reached memory.
    pub dropped: u64,
    pub landed: u64,
    pub droughts: u64,
    pub drought_cycles: u64,
    /// `ld.b128` read-backs (after the resets and at the end).
    pub sweep_loads: u64,
}

impl SoakStats {
    /// The counters by name (the regress JSON's `extra` keys).
    pub fn named(&self) -> [(&'static str, u64); 9] {
        [
            ("resets", self.resets),
            ("resets_queue_full", self.queue_full),
            ("resets_fifo_full", self.fifo_full),
            ("resets_chain", self.chain),
            ("dropped", self.dropped),
            ("dropped_landed", self.landed),
            ("droughts", self.droughts),
            ("drought_cycles", self.drought_cycles),
            ("sweep_loads", self.sweep_loads),
        ]
    }

    /// The hard moments never hit, when resets were asked for.
    pub fn holes(&self) -> Vec<&'static str> {
        let mut h = Vec::new();
        for (n, v) in [
            ("reset with the queue full", self.queue_full),
            ("reset with the FIFO full", self.fifo_full),
            ("reset with a chain in flight", self.chain),
        ] {
            if v == 0 {
                h.push(n);
            }
        }
        h
    }
}

/// The outcome of a soak.
#[derive(Debug, Default)]
pub struct SoakReport {
    pub report: Report,
    pub stats: SoakStats,
    /// Random requests issued (the sweeps not included).
    pub traffic: u64,
}

/// splitmix64: the soak's own choices (episode lengths, moments, droughts, chains).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo + 1)
    }
    /// A geometric-like gap of mean `mean` (at least 1): memoryless, so cutting the stream
    /// into episodes does not change the rate of what it spaces.
    fn gap(&mut self, mean: u64) -> u64 {
        let u = (self.next() >> 11) as f64 / (1u64 << 53) as f64;
        ((-(1.0 - u).ln() * mean as f64).ceil() as u64).max(1)
    }
}

/// One episode's requests and faults.
fn episode(rng: &mut Rng, t: &mut Traffic, cfg: &SoakConfig, turn: u64, left: u64) -> (Vec<Request>, Faults) {
    let resets = cfg.reset_every > 0;
    let mut len = if resets { rng.range(1, 2 * cfg.reset_every).min(left) } else { left };
    if turn % 4 != 0 {
        len = len.max(2 * FILL_REQUESTS as u64).min(left);
    }
    let chain = if turn % 4 == 3 { rng.range(4, 12).min(len) as usize } else { 0 };
    let mut reqs = t.requests(len as usize - chain);
    reqs.extend(chain_requests(rng, cfg.mem_bytes, chain));
    let mut droughts = Vec::new();
    if cfg.drought_every > 0 {
        let mut at = 0;
        loop {
            at += rng.gap(cfg.drought_every);
            if at >= len {
                break;
            }
            droughts.push((at, rng.range(DROUGHT_MIN, DROUGHT_MAX)));
        }
    }
    let fill = len.saturating_sub(FILL_REQUESTS as u64);
    let reset = match turn % 4 {
        0 => ResetWhen::After { at: len - rng.range(0, len.min(16)), delay: rng.range(0, 16) },
        1 => ResetWhen::QueueFull { at: fill, limit: MOMENT_LIMIT },
        2 => ResetWhen::FifoFull { at: fill, limit: MOMENT_LIMIT },
        _ => ResetWhen::After { at: len, delay: rng.range(0, 4) },
    };
    (reqs, Faults { droughts, reset, reset_len: RESET_LEN, settle: SETTLE })
}

/// `n` `red`/`atom` requests of random forms to one random address (a line's first byte,
/// aligned for every size).
fn chain_requests(rng: &mut Rng, mem_bytes: usize, n: usize) -> Vec<Request> {
    let forms = sim::Form::all();
    let addr = rng.range(0, mem_bytes as u64 / 16 - 1) * 16;
    (0..n)
        .map(|_| {
            let f = forms[rng.range(0, forms.len() as u64 - 1) as usize];
            let access = if rng.next() & 1 == 0 { Access::Red(f) } else { Access::Atom(f) };
            let value = (rng.next() as u128 | (rng.next() as u128) << 64) & crate::unit::mask(access.bytes());
            Request { access, addr, value }
        })
        .collect()
}

/// Whether the unit orders `req` behind older requests to its line: aligned and in range.
/// Error requests enter the queue unordered (they never touch memory) and may overtake.
fn ordered(req: &Request, mem_bytes: usize) -> bool {
    let b = req.access.bytes() as u64;
    req.addr.is_multiple_of(b) && req.addr + b <= mem_bytes as u64
}

/// The checker's state across episodes.
struct Checker<'a> {
    cfg: &'a SoakConfig,
    golden: Memory,
    out: SoakReport,
    /// Requests sent so far (ids and failure indices).
    sent: u64,
}

impl Checker<'_> {
    fn fail(&mut self, f: Failure) {
        self.out.report.mismatches += 1;
        if self.out.report.failures.len() < MAX_LISTED {
            self.out.report.failures.push(f);
        }
    }

    /// Compares one answered request with the golden model (executing it there).
    fn answered(&mut self, i: u64, req: &Request, r: &crate::unit::Response, note: Option<&str>) {
        self.out.report.coverage.add_response(r);
        let expected = self.golden.execute(req);
        let bad = match r.outcome(req.access) {
            Err(m) => Some(m),
            Ok(got) if got != expected => Some(note.unwrap_or("").to_string()),
            Ok(Ok(None)) if r.data != 0 => Some("rsp_data of a red/st must be zero".into()),
            Ok(_) => None,
        };
        if let Some(note) = bad {
            self.fail(Failure { index: i, req: *req, expected, got: Some(*r), cycle: r.cycle, note });
        }
    }

    /// Checks a faulted batch's responses; returns the dropped requests by line, in arrival
    /// order.
    fn episode(&mut self, reqs: &[Request], batch: &Batch, fo: &FaultOutcome) -> BTreeMap<u64, Vec<Request>> {
        let dropped: BTreeSet<usize> = fo.dropped.iter().copied().collect();
        let mut by_line: BTreeMap<u64, Vec<Request>> = BTreeMap::new();
        let words = |r: &Request| hw::slice_unit::hazard_words(r.access, r.addr as u32);
        let mut chains: BTreeMap<u64, u64> = BTreeMap::new();
        for (k, (req, rsp)) in reqs.iter().zip(&batch.responses).take(batch.issued).enumerate() {
            let i = self.sent + k as u64;
            self.out.report.coverage.add_request(req.access);
            let line = req.addr / 16;
            let ordered = ordered(req, self.cfg.mem_bytes);
            match rsp {
                Some(r) => {
                    let late = fo.reset_cycle.is_some_and(|c| r.cycle >= c);
                    let orphan =
                        ordered && by_line.get(&line).is_some_and(|d| d.iter().any(|o| words(o) & words(req) != 0));
                    let note = if late {
                        Some("answered after the reset")
                    } else if orphan {
                        Some("answered, though an older request to its words was dropped")
                    } else {
                        None
                    };
                    if late || orphan {
                        let expected = self.golden.execute(req);
                        self.fail(Failure {
                            index: i,
                            req: *req,
                            expected,
                            got: Some(*r),
                            cycle: r.cycle,
                            note: note.unwrap().into(),
                        });
                    } else {
                        self.answered(i, req, r, None);
                    }
                }
                None if dropped.contains(&k) && self.cfg.mutation != Some(Mutation::ExpectDroppedResponse) => {
                    if matches!(req.access, Access::Red(_) | Access::Atom(_)) {
                        *chains.entry(req.addr).or_default() += 1;
                    }
                    if ordered {
                        by_line.entry(line).or_default().push(*req);
                    }
                }
                None => {
                    let expected = self.golden.execute(req);
                    let cycle = fo.reset_cycle.unwrap_or(0);
                    self.fail(Failure { index: i, req: *req, expected, got: None, cycle, note: "no response".into() });
                }
            }
        }
        let s = &mut self.out.stats;
        if fo.reset_cycle.is_some() {
            s.resets += 1;
            s.queue_full += fo.queue_full as u64;
            s.fifo_full += fo.fifo_full as u64;
            s.chain += chains.values().any(|&n| n >= 2) as u64;
            s.dropped += fo.dropped.len() as u64;
            self.out.report.coverage.dropped += fo.dropped.len() as u64;
        }
        s.droughts += fo.droughts;
        s.drought_cycles += fo.drought_cycles;
        self.out.traffic += batch.issued as u64;
        self.sent += reqs.len() as u64;
        by_line
    }

    /// Checks the read-back of the dropped requests' lines (`lines` in order, `batch` their
    /// loads): each must be the golden line with a prefix of its dropped requests applied.
    fn resync(&mut self, lines: &BTreeMap<u64, Vec<Request>>, loads: &[Request], batch: &Batch) {
        for ((line, drops), (ld, rsp)) in lines.iter().zip(loads.iter().zip(&batch.responses)) {
            let i = self.sent;
            self.sent += 1;
            self.out.report.coverage.add_request(ld.access);
            let Some(r) = rsp else {
                let expected = self.golden.execute(ld);
                self.fail(Failure { index: i, req: *ld, expected, got: None, cycle: 0, note: "no response".into() });
                continue;
            };
            self.out.report.coverage.add_response(r);
            let addr = (*line * 16) as usize;
            let before = self.golden.read(addr, 16);
            let words: Vec<u8> = drops.iter().map(|d| hw::slice_unit::hazard_words(d.access, d.addr as u32)).collect();
            let mut sets = closed_sets(&words);
            if self.cfg.mutation == Some(Mutation::NothingLands) {
                sets.truncate(1);
            }
            let mut landed = None;
            for set in &sets {
                let mut line_mem = Memory::new(16);
                line_mem.write(0, 16, before);
                for (j, d) in drops.iter().enumerate() {
                    if set >> j & 1 == 1 {
                        let _ = line_mem.execute(&Request { addr: d.addr % 16, ..*d });
                    }
                }
                if r.status == 0 && line_mem.read(0, 16) == r.data {
                    landed = Some(set.count_ones());
                    self.golden.write(addr, 16, r.data);
                    break;
                }
            }
            match landed {
                Some(j) => self.out.stats.landed += j as u64,
                None => {
                    let note = format!("the line is no closed set of its {} dropped requests applied", drops.len());
                    self.fail(Failure {
                        index: i,
                        req: *ld,
                        expected: Ok(Some(before)),
                        got: Some(*r),
                        cycle: r.cycle,
                        note,
                    });
                    if r.status == 0 {
                        self.golden.write(addr, 16, r.data);
                    }
                }
            }
        }
    }

    /// Checks the final read-back of every line.
    fn final_sweep(&mut self, loads: &[Request], batch: &Batch) {
        for (ld, rsp) in loads.iter().zip(&batch.responses) {
            let i = self.sent;
            self.sent += 1;
            self.out.report.coverage.add_request(ld.access);
            match rsp {
                Some(r) => self.answered(i, ld, r, Some("memory differs from the golden model at this line")),
                None => {
                    let expected = self.golden.execute(ld);
                    self.fail(Failure {
                        index: i,
                        req: *ld,
                        expected,
                        got: None,
                        cycle: 0,
                        note: "no response".into(),
                    });
                }
            }
        }
    }
}

/// The sets of a line's dropped requests (bit j: request j, in arrival order; `words[j]` its
/// words) that may have landed: with each request, every older one that shares a word with
/// it. Smallest first; at most [`MAX_CLOSED_SETS`] (the first ones, by size).
fn closed_sets(words: &[u8]) -> Vec<u64> {
    let n = words.len().min(63);
    let mut sets = vec![0u64];
    for j in 0..n {
        // Request j may join a set that holds every older request sharing a word with it.
        let needs: u64 = (0..j).filter(|&i| words[i] & words[j] != 0).fold(0, |m, i| m | 1 << i);
        let more: Vec<u64> = sets.iter().filter(|&&s| s & needs == needs).map(|&s| s | 1 << j).collect();
        sets.extend(more);
        if sets.len() > MAX_CLOSED_SETS {
            break;
        }
    }
    sets.sort_by_key(|s| (s.count_ones(), *s));
    sets.truncate(MAX_CLOSED_SETS);
    sets
}

/// The most landed sets a read-back is compared with (a line has at most the queue, the
/// pipeline and the FIFO's requests dropped; per-word sets of those stay far below this).
const MAX_CLOSED_SETS: usize = 1 << 16;

/// Runs the soak of `seed` on `unit` (fresh from [`RtlUnit::with_config`]) and checks it. A
/// broken contract stops it (recorded in the report). Deterministic: the same seed on a fresh
/// unit makes the same cycles (the failure waveform's replay).
pub fn drive(unit: &mut RtlUnit, seed: u64, cfg: &SoakConfig) -> anyhow::Result<SoakReport> {
    unit.set_policy(seed ^ 0x706f_6c69_6379, cfg.rsp_ready_pct, cfg.req_valid_pct);
    let mut rng = Rng(seed ^ 0x736f_616b);
    let mut t = Traffic::new(seed, cfg.mem_bytes, cfg.mix);
    let mut c = Checker {
        cfg,
        golden: Memory::new(cfg.mem_bytes),
        out: SoakReport { report: Report { seed, ..Default::default() }, ..Default::default() },
        sent: 0,
    };
    let mut turn = 0;
    let protocol = |e: anyhow::Error| e.downcast::<UnitProtocolError>();
    while c.out.traffic < cfg.requests {
        let (reqs, faults) = episode(&mut rng, &mut t, cfg, turn, cfg.requests - c.out.traffic);
        turn += 1;
        let (batch, fo) = match unit.run_faults(&reqs, c.sent, &faults) {
            Ok(v) => v,
            Err(e) => {
                c.out.report.protocol = Some(protocol(e)?);
                break;
            }
        };
        let lines = c.episode(&reqs, &batch, &fo);
        if fo.reset_cycle.is_none() || lines.is_empty() {
            continue;
        }
        let loads: Vec<Request> =
            lines.keys().map(|l| Request { access: Access::Ld(Width::B128), addr: l * 16, value: 0 }).collect();
        c.out.stats.sweep_loads += loads.len() as u64;
        match unit.run(&loads, c.sent, None, true) {
            Ok(b) => c.resync(&lines, &loads, &b),
            Err(e) => {
                c.out.report.protocol = Some(protocol(e)?);
                break;
            }
        }
    }
    if c.out.report.protocol.is_none() {
        let loads = traffic::sweep(cfg.mem_bytes);
        c.out.stats.sweep_loads += loads.len() as u64;
        match unit.run(&loads, c.sent, None, true) {
            Ok(b) => c.final_sweep(&loads, &b),
            Err(e) => c.out.report.protocol = Some(protocol(e)?),
        }
    }
    // Requests issued: the random ones and the read-backs (an episode's requests after its
    // reset are never sent, though their ids are skipped).
    c.out.report.requests = c.out.traffic + c.out.stats.sweep_loads;
    c.out.report.cycles = unit.cycle();
    c.out.report.coverage.cov = unit.cov_counts();
    Ok(c.out)
}

/// Runs the soak of `seed` on a fresh unit; on a failure, with `vcd`, replays it on the
/// traced model and writes the window around the first failure there.
pub fn run(seed: u64, cfg: &SoakConfig, vcd: Option<&Path>) -> anyhow::Result<SoakReport> {
    let t = Instant::now();
    let mut unit = RtlUnit::with_config(cfg.mem_bytes, &cfg.hw, None)?;
    let mut out = drive(&mut unit, seed, cfg)?;
    out.report.seconds = t.elapsed().as_secs_f64();
    if let (Some(path), Some(c)) = (vcd, out.report.first_failure_cycle()) {
        let mut traced = RtlUnit::with_config(cfg.mem_bytes, &cfg.hw, Some(path))?;
        traced.set_dump_window(c.saturating_sub(crate::unit_cosim::VCD_BEFORE), c + crate::unit_cosim::VCD_AFTER);
        let _ = drive(&mut traced, seed, cfg)?;
        traced.idle(2);
        out.report.vcd = Some((path.to_path_buf(), c));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn episodes_take_turns_and_stay_inside_the_stream() {
        let cfg = SoakConfig { reset_every: 300, drought_every: 100, ..SoakConfig::new(4096, 10_000) };
        let mut rng = Rng(1);
        let mut t = Traffic::new(1, 4096, cfg.mix);
        for turn in 0..40 {
            let (reqs, f) = episode(&mut rng, &mut t, &cfg, turn, 10_000);
            assert!(!reqs.is_empty() && reqs.len() <= 600.max(2 * FILL_REQUESTS));
            assert!(f.droughts.windows(2).all(|w| w[0].0 < w[1].0));
            assert!(f.droughts.iter().all(|d| (DROUGHT_MIN..=DROUGHT_MAX).contains(&d.1)));
            match (turn % 4, f.reset) {
                (0, ResetWhen::After { at, .. }) => assert!(at <= reqs.len() as u64),
                (1, ResetWhen::QueueFull { .. }) | (2, ResetWhen::FifoFull { .. }) => {}
                (3, ResetWhen::After { at, .. }) => {
                    assert_eq!(at, reqs.len() as u64);
                    let last = reqs.last().unwrap().addr;
                    assert!(
                        reqs.iter()
                            .rev()
                            .take(4)
                            .all(|r| r.addr == last && matches!(r.access, Access::Red(_) | Access::Atom(_)))
                    );
                }
                other => panic!("turn {turn}: {other:?}"),
            }
        }
        // Without a rate: the whole stream, one reset at its end.
        let (reqs, f) = episode(&mut rng, &mut t, &SoakConfig { reset_every: 0, ..cfg }, 0, 777);
        assert!(reqs.len() == 777 && matches!(f.reset, ResetWhen::After { at, .. } if at + 16 >= 777));
    }
}
