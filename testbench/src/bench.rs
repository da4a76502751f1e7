//! `redunit bench`: throughput and latency of the Verilated L2-slice unit in clock cycles, and
//! the speed of its cosimulation.
//!
//! - Throughput: each pattern of [`traffic::bench_patterns`] is driven at full speed (a request
//!   offered every cycle, `rsp_ready` always high); operations per cycle = requests / cycles
//!   from the first acceptance to the last response, both included.
//! - Latency per family: isolated requests (one in flight), each at its own line; latency =
//!   response cycle − acceptance cycle (`rsp_ready` high, so the response is taken in the first
//!   cycle it is valid).
//! - Cosimulation speed: the random regression (stalls, reset, sweeps, golden-model check),
//!   requests per second of wall time.

use std::fmt::Write as _;
use std::time::Instant;

use sim::Memory;

use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::json_layout::{self, round};
use crate::traffic;
use crate::unit::RtlUnit;
use crate::unit_cosim::{self, Config};
use crate::warp::WarpBench;

/// One throughput pattern.
#[derive(Clone, Debug)]
pub struct Pattern {
    pub name: &'static str,
    pub requests: usize,
    pub cycles: u64,
    /// Responses that differ from the golden model (the throughput is not valid if not 0).
    pub mismatches: u64,
}

impl Pattern {
    pub fn ops_per_cycle(&self) -> f64 {
        self.requests as f64 / self.cycles.max(1) as f64
    }
}

/// Latency of one family, in cycles.
#[derive(Clone, Debug)]
pub struct Latency {
    pub family: &'static str,
    pub min: u64,
    pub mean: f64,
    pub max: u64,
}

#[derive(Clone, Debug)]
pub struct BenchReport {
    pub mem_bytes: usize,
    pub patterns: Vec<Pattern>,
    pub latency: Vec<Latency>,
    pub cosim_requests: u64,
    pub cosim_seconds: f64,
    pub cosim_mismatches: u64,
    pub seconds: f64,
}

impl BenchReport {
    pub fn ops_per_cycle(&self, name: &str) -> f64 {
        self.patterns.iter().find(|p| p.name == name).map_or(f64::NAN, Pattern::ops_per_cycle)
    }

    pub fn cosim_ops_per_second(&self) -> f64 {
        self.cosim_requests as f64 / self.cosim_seconds.max(1e-9)
    }

    /// The JSON object of `redunit bench --json`: `<pattern>_ops_per_cycle` for each pattern,
    /// `latency_cycles` and `cosim_ops_per_second` (a contract: keys are added, never changed).
    pub fn json(&self) -> String {
        self.json_with(&[])
    }

    /// [`BenchReport::json`] with the warp patterns' rows as key `warp` (none: no key).
    pub fn json_with(&self, warp: &[WarpBench]) -> String {
        json_layout::to_string(&BenchJson { report: self, warp }, true, WARP_DECIMALS)
    }

    /// The human-readable report.
    pub fn text(&self) -> String {
        let mut s = String::new();
        let _ =
            writeln!(s, "unit: hw::SliceUnit, {} bytes of memory, {}", self.mem_bytes, crate::rtl::VERILATOR_VERSION);
        let gpu = gpu_figures();
        let _ = writeln!(
            s,
            "{:<24} {:>8} {:>9} {:>10} {:>7}  {:<10} GPU figure's source",
            "pattern", "requests", "cycles", "ops/cycle", "GPU/clk", "mismatches"
        );
        for p in &self.patterns {
            let (g, src) = gpu
                .iter()
                .find(|g| g.0 == p.name)
                .map_or(("—".to_string(), ""), |g| (format!("{:.3}", g.1), g.2.as_str()));
            let _ = writeln!(
                s,
                "{:<24} {:>8} {:>9} {:>10.4} {:>7}  {:<10} {src}",
                p.name,
                p.requests,
                p.cycles,
                p.ops_per_cycle(),
                g,
                p.mismatches
            );
        }
        let _ = writeln!(
            s,
            "GPU/clk: requests per SM clock of a whole H100/H200 for the same pattern (testbench/h100/hot-addresses.csv); \
             the unit's figure is per unit clock of one L2 slice"
        );
        let _ = writeln!(s, "latency (cycles, request accepted -> response valid, one in flight):");
        for l in &self.latency {
            let _ = writeln!(s, "  {:<4} min {:>3} mean {:>7.2} max {:>3}", l.family, l.min, l.mean, l.max);
        }
        let _ = writeln!(
            s,
            "cosimulation: {} requests in {:.2} s = {:.0} requests/s (random regression: stalls, reset, sweeps, golden check; {} mismatches)",
            self.cosim_requests,
            self.cosim_seconds,
            self.cosim_ops_per_second(),
            self.cosim_mismatches
        );
        let _ = writeln!(s, "time: {:.1} s", self.seconds);
        s
    }
}

/// The GPU's figure beside each bench row: (pattern, requests per SM clock, what was
/// measured), from `h100/hot-addresses.csv`.
pub fn gpu_figures() -> Vec<(String, f64, String)> {
    let text = include_str!("../h100/hot-addresses.csv");
    let mut rd = csv::ReaderBuilder::new().comment(Some(b'#')).from_reader(text.as_bytes());
    rd.records()
        .map(|r| {
            let r = r.expect("h100/hot-addresses.csv is a valid CSV");
            let v = r[1].parse().unwrap_or_else(|_| panic!("h100/hot-addresses.csv: {:?} is not a number", &r[1]));
            (r[0].to_string(), v, r[2].to_string())
        })
        .collect()
}

/// Runs the benchmark with `n` requests per pattern on a unit of `mem_bytes`.
pub fn bench(n: usize, mem_bytes: usize, latency_n: usize) -> anyhow::Result<BenchReport> {
    bench_with(n, mem_bytes, latency_n, &hw::Config::unit_default())
}

/// [`bench`] of the unit built with the pipeline depths of `cfg`.
pub fn bench_with(n: usize, mem_bytes: usize, latency_n: usize, cfg: &hw::Config) -> anyhow::Result<BenchReport> {
    if mem_bytes < 4096 {
        anyhow::bail!("--mem-bytes {mem_bytes}: the benchmark patterns need at least 4096 bytes of memory");
    }
    let t = Instant::now();
    let mut patterns = Vec::new();
    for (name, reqs) in traffic::bench_patterns(n, mem_bytes) {
        let mut unit = RtlUnit::with_config(mem_bytes, cfg, None)?;
        let (outcomes, rsps) = crate::unit::execute_trace(&mut unit, &reqs)?;
        let first = rsps.iter().flatten().map(|r| r.accept).min().unwrap_or(0);
        let last = rsps.iter().flatten().map(|r| r.cycle).max().unwrap_or(0);
        let mut golden = Memory::new(mem_bytes);
        let mismatches = reqs.iter().zip(&outcomes).filter(|(q, o)| golden.execute(q) != **o).count() as u64;
        patterns.push(Pattern { name, requests: reqs.len(), cycles: last + 1 - first, mismatches });
    }
    let mut latency = Vec::new();
    let mut unit = RtlUnit::with_config(mem_bytes, cfg, None)?;
    for fam in traffic::FAMILIES {
        let reqs = traffic::latency_requests(fam, latency_n, mem_bytes);
        let (mut min, mut max, mut sum) = (u64::MAX, 0u64, 0u64);
        for r in &reqs {
            let b = unit.run(std::slice::from_ref(r), 0, None, true)?;
            let rsp = b.responses[0].expect("a drained run answers every request");
            let l = rsp.cycle - rsp.accept;
            min = min.min(l);
            max = max.max(l);
            sum += l;
        }
        latency.push(Latency { family: fam, min, mean: sum as f64 / reqs.len().max(1) as f64, max });
    }
    let hw_cfg = *cfg;
    let mut cfg = Config::new(mem_bytes, n);
    cfg.hw = hw_cfg;
    let r = unit_cosim::random_regression(0xbe7c, &cfg, None)?;
    Ok(BenchReport {
        mem_bytes,
        patterns,
        latency,
        cosim_requests: r.requests,
        cosim_seconds: r.seconds,
        cosim_mismatches: r.mismatches,
        seconds: t.elapsed().as_secs_f64(),
    })
}

/// The JSON of `redunit bench --json`: one key per pattern, in report order, then the
/// latencies, the cosimulation speed and the warp patterns.
struct BenchJson<'a> {
    report: &'a BenchReport,
    warp: &'a [WarpBench],
}

/// A ratio to 4 decimals; `None` (null) when not finite.
fn ratio(v: f64) -> Option<f64> {
    v.is_finite().then(|| round(v, 4))
}

impl Serialize for BenchJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let r = self.report;
        let mut m = s.serialize_map(None)?;
        for p in &r.patterns {
            m.serialize_entry(&format!("{}_ops_per_cycle", p.name), &ratio(p.ops_per_cycle()))?;
        }
        m.serialize_entry("latency_cycles", &LatencyJson(&r.latency))?;
        m.serialize_entry("cosim_ops_per_second", &(r.cosim_ops_per_second().round() as u64))?;
        if !self.warp.is_empty() {
            let rows: Vec<WarpJson> = self.warp.iter().map(WarpJson::of).collect();
            m.serialize_entry("warp", &rows)?;
        }
        m.end()
    }
}

/// `latency_cycles`: family → cycles (whole cycles as integers, a pipeline of fixed latency;
/// else the mean).
struct LatencyJson<'a>(&'a [Latency]);

impl Serialize for LatencyJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for l in self.0 {
            if l.mean.fract() == 0.0 {
                m.serialize_entry(l.family, &(l.mean as u64))?;
            } else {
                m.serialize_entry(l.family, &ratio(l.mean))?;
            }
        }
        m.end()
    }
}

/// The warp rows' ratios, to 0.01.
const WARP_DECIMALS: &[(&str, usize)] = &[("lines_per_inst", 2), ("requests_per_inst", 2), ("cycles_per_inst", 2)];

/// One warp pattern's row.
#[derive(serde::Serialize)]
struct WarpJson {
    pattern: &'static str,
    form: String,
    lines_per_inst: f64,
    requests_per_inst: f64,
    cycles_per_inst: f64,
    mismatches: usize,
}

impl WarpJson {
    fn of(r: &WarpBench) -> Self {
        WarpJson {
            pattern: r.pattern,
            form: r.form.to_string(),
            lines_per_inst: r.lines_per_inst,
            requests_per_inst: r.requests_per_inst,
            cycles_per_inst: r.cycles_per_inst,
            mismatches: r.mismatches,
        }
    }
}
