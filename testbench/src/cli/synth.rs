//! `redunit synth`: the options checked, the ECP5 flow run with a progress display, the report
//! printed and saved.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use testbench::synth;
use testbench::top::Top;

use super::depth::{DepthArgs, depth_config};
use super::{check_mem_bytes, project_root};

/// `redunit synth`: the seeds (the first, how many, nextpnr runs at a time: default the
/// machine's cores) and nextpnr's placer and timing-driven rip-up grouped.
#[allow(clippy::too_many_arguments)]
pub fn synth_cmd(
    top: Top,
    mem_bytes: usize,
    depths: &DepthArgs,
    freq: f64,
    (seed, seeds, jobs): (u64, u64, Option<u64>),
    (placer, tmg_ripup): (synth::Placer, bool),
    no_pnr: bool,
    no_breakdown: bool,
    no_save: bool,
    json: bool,
) -> anyhow::Result<ExitCode> {
    check_mem_bytes(mem_bytes)?;
    let cfg = &depth_config(depths, top).map_err(anyhow::Error::msg)?;
    let jobs = jobs.map_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()), |j| j as usize);
    let flow = synth::Flow::new(project_root());
    if let Err(e) = flow.check_installed() {
        eprintln!("redunit: {e}");
        return Ok(ExitCode::from(2));
    }
    if !(freq > 0.0) {
        anyhow::bail!("--freq {freq}: must be positive");
    }
    if seed.checked_add(seeds - 1).is_none() {
        anyhow::bail!("--seed {seed} --seeds {seeds}: the last seed would pass {}; choose a smaller --seed", u64::MAX);
    }
    if flow.cache_cold() {
        eprintln!(
            "redunit synth: first run: Yosys and nextpnr compile their WebAssembly once (about a minute each), \
             cached in {}",
            flow.cache().display()
        );
    }
    let command =
        std::env::args().map(|a| if a.contains(' ') { format!("'{a}'") } else { a }).collect::<Vec<_>>().join(" ");
    let command = command.replacen(&std::env::args().next().unwrap_or_default(), "redunit", 1);
    let opts = synth::SynthOptions {
        top,
        mem_bytes,
        config: if cfg.is_default() && !matches!(top, Top::Unit | Top::Axi) { "default".into() } else { cfg.tag() },
        verilog: top.verilog_with(mem_bytes, cfg),
        breakdown: !no_breakdown,
        no_pnr,
        freq_mhz: freq,
        seed,
        seeds,
        jobs,
        placer,
        tmg_ripup,
    };
    let pb = if std::io::stderr().is_terminal() {
        let pb = ProgressBar::new_spinner();
        pb.set_style(ProgressStyle::with_template("{spinner} [{elapsed_precise}] synth {msg}").unwrap());
        pb.enable_steady_tick(std::time::Duration::from_millis(120));
        pb
    } else {
        ProgressBar::hidden()
    };
    let last = std::cell::RefCell::new(String::new());
    let t0 = Instant::now();
    let progress = |m: &str| {
        pb.set_message(m.to_string());
        if pb.is_hidden() {
            // Not a terminal: one line per stage.
            let stage: String = m.split(" (").next().unwrap_or(m).to_string();
            let mut l = last.borrow_mut();
            if *l != stage {
                eprintln!("redunit synth: [{:>4.0} s] {stage}", t0.elapsed().as_secs_f64());
                *l = stage;
            }
        }
    };
    let r = synth::run(&flow, &opts, &progress);
    pb.finish_and_clear();
    let r = r?;
    let mut out = std::io::stdout().lock();
    if json {
        writeln!(out, "{}", r.json())?;
    } else {
        write!(out, "{}", r.text())?;
    }
    if !no_save {
        let p = synth::save(&flow, &r, &command)?;
        eprintln!("redunit synth: report saved to {}", p.display());
    }
    Ok(ExitCode::SUCCESS)
}
