//! Cosimulation of the Verilated L2-slice unit against the golden memory (`sim::Memory`):
//! the scoreboard, the random regression with stalls and a reset, coverage, and the failure
//! waveform.
//!
//! # The scoreboard
//!
//! Requests are accepted in the order they are offered (one port), so the golden memory
//! executes them in arrival order. That is the one order the unit must agree with: requests
//! that overlap must keep arrival order, and requests that do not overlap commute, so any
//! order the unit picks across addresses gives the same responses and the same memory. Each
//! response is matched by its id to the request it answers (the shim keeps the id → request
//! table; an id is not reused while in flight) and compared with the golden outcome of that
//! request: status, and the old value of `ld`/`atom` (the access's low bytes); `rsp_data` of a
//! successful `red`/`st` must be zero. At the end every line is read back with `ld.b128` and
//! compared.
//!
//! # The reset
//!
//! A reset in the middle of the traffic (`reset` high for [`RESET_LEN`] cycles, `req_valid`
//! and `rsp_ready` low) drops the requests in flight: they get no response, and a response
//! with their id afterwards is a protocol error. Whether a dropped request reached memory is
//! not specified, so the scoreboard forgets the lines those requests touch: after the reset
//! every line is read back with `ld.b128`; a line touched by a dropped request takes the
//! unit's value into the golden memory, every other line must match the golden memory
//! (memory keeps its contents across a reset). Responses taken before the reset are checked
//! as usual: each was produced after every earlier overlapping request, dropped or not.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Instant;

use sim::{Access, Memory, Request};

use crate::hex;
use crate::trace::Outcome;
use crate::traffic::{self, Mix, Traffic};
use crate::unit::{Batch, Response, RtlUnit, UnitProtocolError};

/// Cycles of reset in the middle of the regression.
pub const RESET_LEN: u64 = 3;
/// Failures listed in a report.
pub const MAX_LISTED: usize = 20;
/// Cycles before the first failure that the failure waveform shows, and after it.
pub const VCD_BEFORE: u64 = 64;
pub const VCD_AFTER: u64 = 16;

/// What comes after a segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// Every response is collected.
    Drain,
    /// Reset as soon as the last request is issued: what is in flight is dropped.
    Reset,
}

/// What a segment is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Traffic,
    /// `ld.b128` of every line; `resync` after a reset (see the module doc).
    Sweep {
        resync: bool,
    },
}

#[derive(Clone, Debug)]
pub struct Segment {
    pub kind: Kind,
    pub reqs: Vec<Request>,
    pub end: End,
}

/// A whole run: segments, and the random handshake policy.
#[derive(Clone, Debug)]
pub struct Plan {
    pub mem_bytes: usize,
    pub segments: Vec<Segment>,
    pub policy_seed: u64,
    pub rsp_ready_pct: u32,
    pub req_valid_pct: u32,
    /// The pipeline depths of the unit that runs it.
    pub hw: hw::Config,
}

/// The settings of a random regression.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    pub mem_bytes: usize,
    /// Random requests in all.
    pub requests: usize,
    /// Random requests before the reset (none: no reset).
    pub reset_after: Option<usize>,
    pub rsp_ready_pct: u32,
    pub req_valid_pct: u32,
    pub mix: Mix,
    /// The pipeline depths of the unit under test.
    pub hw: hw::Config,
}

impl Config {
    pub fn new(mem_bytes: usize, requests: usize) -> Self {
        Config {
            mem_bytes,
            requests,
            reset_after: Some(requests / 3),
            rsp_ready_pct: 70,
            req_valid_pct: 85,
            mix: Mix::default(),
            hw: hw::Config::unit_default(),
        }
    }
}

/// The random regression's plan: traffic, reset, resync sweep, traffic, final sweep.
pub fn random_plan(seed: u64, cfg: &Config) -> Plan {
    let mut t = Traffic::new(seed, cfg.mem_bytes, cfg.mix);
    let mut segments = Vec::new();
    let first = cfg.reset_after.unwrap_or(0).min(cfg.requests);
    if cfg.reset_after.is_some() {
        segments.push(Segment { kind: Kind::Traffic, reqs: t.requests(first), end: End::Reset });
        segments.push(Segment {
            kind: Kind::Sweep { resync: true },
            reqs: traffic::sweep(cfg.mem_bytes),
            end: End::Drain,
        });
    }
    segments.push(Segment { kind: Kind::Traffic, reqs: t.requests(cfg.requests - first), end: End::Drain });
    segments.push(Segment {
        kind: Kind::Sweep { resync: false },
        reqs: traffic::sweep(cfg.mem_bytes),
        end: End::Drain,
    });
    Plan {
        mem_bytes: cfg.mem_bytes,
        segments,
        policy_seed: seed ^ 0x706f_6c69_6379,
        rsp_ready_pct: cfg.rsp_ready_pct,
        req_valid_pct: cfg.req_valid_pct,
        hw: cfg.hw,
    }
}

/// What the unit did with a plan.
#[derive(Debug, Default)]
pub struct Observed {
    pub batches: Vec<Batch>,
    /// Requests dropped by each reset.
    pub dropped: u64,
    /// Set when the unit broke the contract (the batches stop there).
    pub protocol: Option<UnitProtocolError>,
}

/// Runs a plan through `unit`. Deterministic: the same plan on a fresh unit makes the same
/// cycles (used to replay a window into a waveform).
pub fn drive(unit: &mut RtlUnit, plan: &Plan) -> anyhow::Result<Observed> {
    unit.set_policy(plan.policy_seed, plan.rsp_ready_pct, plan.req_valid_pct);
    let mut obs = Observed::default();
    let mut base = 0u64;
    for seg in &plan.segments {
        match unit.run(&seg.reqs, base, None, seg.end == End::Drain) {
            Ok(b) => obs.batches.push(b),
            Err(e) => {
                obs.protocol = Some(e.downcast::<UnitProtocolError>()?);
                break;
            }
        }
        base += seg.reqs.len() as u64;
        if seg.end == End::Reset {
            obs.dropped += unit.reset(RESET_LEN);
        }
    }
    Ok(obs)
}

/// One response (or missing one) that disagrees with the golden model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// Position in the whole run (all segments).
    pub index: u64,
    pub req: Request,
    pub expected: Outcome,
    pub got: Option<Response>,
    pub cycle: u64,
    pub note: String,
}

fn show(o: &Outcome, bytes: usize) -> String {
    match o {
        Ok(Some(v)) => hex::format(*v, bytes as u32 * 8),
        Ok(None) => "ok".into(),
        Err(e) => format!("error:{e}"),
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.req.access.bytes();
        write!(
            f,
            "request {} (id {:#06x}) {} addr {:#x} value {}: expected {}, got ",
            self.index,
            self.index & 0xffff,
            self.req.access,
            self.req.addr,
            hex::format(self.req.value, b as u32 * 8),
            show(&self.expected, b)
        )?;
        match &self.got {
            None => write!(f, "no response")?,
            Some(r) => write!(
                f,
                "status {} data {} (accepted cycle {}, response cycle {})",
                r.status,
                hex::format(r.data, 128),
                r.accept,
                r.cycle
            )?,
        }
        if !self.note.is_empty() {
            write!(f, " ({})", self.note)?;
        }
        Ok(())
    }
}

/// What the stimulus and the unit covered.
#[derive(Clone, Debug, Default)]
pub struct Coverage {
    /// Cycles each `cov` bit was high.
    pub cov: [u64; hw::slice_unit::COV_WIDTH],
    /// Requests issued per access (code).
    pub accesses: BTreeMap<u16, u64>,
    /// Responses per status the unit returned.
    pub statuses: [u64; 4],
    /// Requests dropped by a reset.
    pub dropped: u64,
    /// The unit's configuration: the points it can hit ([`hw::slice_unit::coverage_points`];
    /// none given: the default configuration's).
    pub hw: Option<hw::Config>,
}

impl Coverage {
    pub fn add_request(&mut self, a: Access) {
        *self.accesses.entry(a.code()).or_default() += 1;
    }

    pub fn add_response(&mut self, r: &Response) {
        self.add_status(r.status);
    }

    pub fn add_status(&mut self, s: u8) {
        self.statuses[(s & 3) as usize] += 1;
    }

    /// The coverage points, accesses and statuses never hit.
    pub fn holes(&self) -> Vec<String> {
        let mut h = Vec::new();
        for (name, bit) in hw::slice_unit::coverage_points(&self.hw.unwrap_or(hw::Config::unit_default())) {
            if self.cov[*bit] == 0 {
                h.push(format!("coverage point {name} (cov[{bit}])"));
            }
        }
        for a in traffic::all_accesses() {
            if !self.accesses.contains_key(&a.code()) {
                h.push(format!("request {a}"));
            }
        }
        for (s, name) in ["ok", "misaligned", "out-of-range"].iter().enumerate() {
            if self.statuses[s] == 0 {
                h.push(format!("response status {s} ({name})"));
            }
        }
        h
    }

    /// The report printed by `redunit run --coverage` and the regression.
    pub fn report(&self, mut out: impl std::io::Write) -> std::io::Result<()> {
        let points = hw::slice_unit::COVERAGE_POINTS;
        let hit = points.iter().filter(|(_, b)| self.cov[*b] > 0).count();
        writeln!(out, "coverage points (hw::slice_unit::COVERAGE_POINTS): {hit}/{} hit", points.len())?;
        for (name, bit) in points {
            writeln!(out, "  {name:<32} cov[{bit:>2}] {:>12} cycles", self.cov[*bit])?;
        }
        let all = traffic::all_accesses();
        let seen = all.iter().filter(|a| self.accesses.contains_key(&a.code())).count();
        let fam_total = |fam: &str, pred: &dyn Fn(Access) -> bool| {
            let of: Vec<&Access> = all.iter().filter(|a| traffic::family(**a) == fam && pred(**a)).collect();
            let seen = of.iter().filter(|a| self.accesses.contains_key(&a.code())).count();
            let n: u64 = of.iter().map(|a| self.accesses.get(&a.code()).copied().unwrap_or(0)).sum();
            (seen, of.len(), n)
        };
        writeln!(out, "requests: {seen}/{} accesses issued", all.len())?;
        for fam in traffic::FAMILIES {
            let (s, t, n) = fam_total(fam, &|a| !matches!(a, Access::Atom(_)));
            let (sa, ta, na) = fam_total(fam, &|a| matches!(a, Access::Atom(_)));
            if ta > 0 {
                writeln!(out, "  {fam:<4} red {s:>2}/{t:<2} ({n} requests), atom {sa:>2}/{ta:<2} ({na} requests)")?;
            } else {
                writeln!(out, "  {fam:<4} {s}/{t} ({n} requests)")?;
            }
        }
        let missing: Vec<String> =
            all.iter().filter(|a| !self.accesses.contains_key(&a.code())).map(|a| a.to_string()).collect();
        if !missing.is_empty() && missing.len() <= 12 {
            writeln!(out, "  never issued: {}", missing.join(" "))?;
        }
        writeln!(
            out,
            "responses by status: ok {}, misaligned {}, out-of-range {}{}",
            self.statuses[0],
            self.statuses[1],
            self.statuses[2],
            if self.statuses[3] > 0 { format!(", illegal status 3: {}", self.statuses[3]) } else { String::new() }
        )?;
        if self.dropped > 0 {
            writeln!(out, "requests dropped by reset: {}", self.dropped)?;
        }
        Ok(())
    }
}

/// The outcome of a checked run.
#[derive(Debug, Default)]
pub struct Report {
    pub seed: u64,
    pub requests: u64,
    pub cycles: u64,
    pub mismatches: u64,
    pub failures: Vec<Failure>,
    pub protocol: Option<UnitProtocolError>,
    pub coverage: Coverage,
    pub seconds: f64,
    /// The failure waveform and the cycle of the first failure in it.
    pub vcd: Option<(PathBuf, u64)>,
}

impl Report {
    pub fn ok(&self) -> bool {
        self.mismatches == 0 && self.protocol.is_none()
    }

    /// The cycle of the first failure, for the waveform.
    pub fn first_failure_cycle(&self) -> Option<u64> {
        let f = self.failures.iter().map(|f| f.cycle).min();
        match (&self.protocol, f) {
            (Some(p), Some(c)) => Some(p.cycle.min(c)),
            (Some(p), None) => Some(p.cycle),
            (None, c) => c,
        }
    }

    /// A readable summary of the failures.
    pub fn describe(&self) -> String {
        let mut s = String::new();
        if let Some(p) = &self.protocol {
            s += &format!("  {p}\n");
        }
        for f in &self.failures {
            s += &format!("  {f}\n");
        }
        if self.mismatches as usize > self.failures.len() {
            s += &format!("  ... {} mismatches in all\n", self.mismatches);
        }
        if let Some((p, c)) = &self.vcd {
            s += &format!("  waveform: {} ({})\n", p.display(), crate::cosim::vcd_time(*c));
        }
        s
    }
}

/// Checks what the unit did against the golden memory (see the module doc).
pub fn check(plan: &Plan, obs: &Observed, report: &mut Report) {
    let mut golden = Memory::new(plan.mem_bytes);
    let mut index = 0u64;
    let mut dirty: BTreeSet<u64> = BTreeSet::new();
    let fail = |report: &mut Report, f: Failure| {
        report.mismatches += 1;
        if report.failures.len() < MAX_LISTED {
            report.failures.push(f);
        }
    };
    for (seg, batch) in plan.segments.iter().zip(&obs.batches) {
        for (req, rsp) in seg.reqs.iter().zip(&batch.responses) {
            let i = index;
            index += 1;
            report.coverage.add_request(req.access);
            if let Some(r) = rsp {
                report.coverage.add_response(r);
            }
            let expected = golden.execute(req);
            let line = req.addr / 16;
            match (seg.kind, rsp) {
                (_, None) if seg.end == End::Reset => {
                    if expected.is_ok() {
                        // A dropped request: its lines are unknown until the resync.
                        dirty.insert(line);
                        dirty.insert((req.addr + req.access.bytes() as u64 - 1) / 16);
                    }
                }
                (_, None) => fail(
                    report,
                    Failure { index: i, req: *req, expected, got: None, cycle: 0, note: "no response".into() },
                ),
                (Kind::Sweep { resync: true }, Some(r)) if dirty.contains(&line) => {
                    // Take the unit's value of a line a dropped request touched.
                    if r.status == 0 {
                        golden.write(req.addr as usize, 16, r.data);
                    } else {
                        fail(
                            report,
                            Failure {
                                index: i,
                                req: *req,
                                expected,
                                got: Some(*r),
                                cycle: r.cycle,
                                note: "resync load failed".into(),
                            },
                        );
                    }
                }
                (kind, Some(r)) => {
                    let note = match r.outcome(req.access) {
                        Err(m) => Some(m),
                        Ok(got) if got != expected => Some(match kind {
                            Kind::Sweep { .. } => "memory differs from the golden model at this line".to_string(),
                            Kind::Traffic => String::new(),
                        }),
                        Ok(Ok(None)) if r.data != 0 => Some("rsp_data of a red/st must be zero".into()),
                        Ok(_) => None,
                    };
                    if let Some(note) = note {
                        fail(report, Failure { index: i, req: *req, expected, got: Some(*r), cycle: r.cycle, note });
                    }
                }
            }
        }
        if let Kind::Sweep { resync: true } = seg.kind {
            dirty.clear();
        }
    }
    report.requests = index;
    report.coverage.dropped = obs.dropped;
    report.protocol = obs.protocol.clone();
}

/// Runs the random regression of `seed` on a fresh unit; on a failure, with `vcd`, replays
/// the run on the traced model and writes the window around the first failure there.
pub fn random_regression(seed: u64, cfg: &Config, vcd: Option<&Path>) -> anyhow::Result<Report> {
    let plan = random_plan(seed, cfg);
    run_plan(seed, &plan, vcd)
}

/// Runs and checks a plan on a fresh unit (see [`random_regression`]).
pub fn run_plan(seed: u64, plan: &Plan, vcd: Option<&Path>) -> anyhow::Result<Report> {
    let t = Instant::now();
    let mut unit = RtlUnit::with_config(plan.mem_bytes, &plan.hw, None)?;
    let obs = drive(&mut unit, plan)?;
    let mut report = Report { seed, ..Default::default() };
    check(plan, &obs, &mut report);
    report.cycles = unit.cycle();
    report.coverage.cov = unit.cov_counts();
    report.coverage.hw = Some(plan.hw);
    report.seconds = t.elapsed().as_secs_f64();
    if let (Some(path), Some(c)) = (vcd, report.first_failure_cycle()) {
        write_window(plan, path, c)?;
        report.vcd = Some((path.to_path_buf(), c));
    }
    Ok(report)
}

/// Replays `plan` on the traced model, dumping cycles `cycle - VCD_BEFORE ..= cycle +
/// VCD_AFTER` to `path`.
pub fn write_window(plan: &Plan, path: &Path, cycle: u64) -> anyhow::Result<()> {
    let mut unit = RtlUnit::with_config(plan.mem_bytes, &plan.hw, Some(path))?;
    unit.set_dump_window(cycle.saturating_sub(VCD_BEFORE), cycle + VCD_AFTER);
    let _ = drive(&mut unit, plan)?;
    unit.idle(2);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a correct unit would answer: every request executed in arrival order, except that
    /// dropped requests (the last `drop` of a Reset segment) reach memory only when `apply`
    /// says so.
    fn ideal(plan: &Plan, drop: usize, apply: impl Fn(usize) -> bool) -> Observed {
        let mut mem = Memory::new(plan.mem_bytes);
        let mut obs = Observed::default();
        let mut cycle = 10;
        for seg in &plan.segments {
            let n = seg.reqs.len();
            let mut b = Batch { responses: Vec::new(), issued: n };
            for (i, req) in seg.reqs.iter().enumerate() {
                let dropped = seg.end == End::Reset && i + drop >= n;
                if dropped && !apply(i) {
                    b.responses.push(None);
                    continue;
                }
                let o = mem.execute(req);
                cycle += 1;
                b.responses.push((!dropped).then(|| Response {
                    status: sim::status_code(o.map(|_| ())),
                    data: o.ok().flatten().unwrap_or(0),
                    accept: cycle - 1,
                    cycle,
                }));
                obs.dropped += dropped as u64;
            }
            obs.batches.push(b);
        }
        obs
    }

    fn plan() -> Plan {
        let mut cfg = Config::new(4096, 20_000);
        cfg.mix.hot = 3;
        random_plan(5, &cfg)
    }

    #[test]
    fn a_correct_run_passes_whatever_the_dropped_requests_did() {
        let p = plan();
        for apply in [|_| true, |_| false, |i: usize| i % 2 == 0] {
            let obs = ideal(&p, 40, apply);
            let mut r = Report::default();
            check(&p, &obs, &mut r);
            assert!(r.ok(), "{}", r.describe());
            assert_eq!(r.requests as usize, p.segments.iter().map(|s| s.reqs.len()).sum::<usize>());
        }
    }

    #[test]
    fn wrong_values_missing_responses_and_lost_memory_are_caught() {
        let p = plan();
        // A wrong old value of some atom in the second traffic segment.
        let mut obs = ideal(&p, 40, |_| true);
        let (k, _) = p.segments[2]
            .reqs
            .iter()
            .enumerate()
            .find(|(_, r)| matches!(r.access, Access::Atom(_)) && r.addr < 4096)
            .unwrap();
        obs.batches[2].responses[k].as_mut().unwrap().data ^= 1;
        let mut r = Report::default();
        check(&p, &obs, &mut r);
        assert!(r.mismatches >= 1 && !r.failures.is_empty());
        // A missing response outside a reset.
        let mut obs = ideal(&p, 40, |_| true);
        obs.batches[2].responses[7] = None;
        let mut r = Report::default();
        check(&p, &obs, &mut r);
        assert!(r.failures.iter().any(|f| f.note == "no response"));
        // A line that changed across the reset though no dropped request touched it.
        let mut obs = ideal(&p, 0, |_| true);
        let line = obs.batches[1].responses[100].as_mut().unwrap();
        line.data ^= 1 << 77;
        let mut r = Report::default();
        check(&p, &obs, &mut r);
        assert_eq!(r.mismatches, 1, "{}", r.describe());
    }
}
