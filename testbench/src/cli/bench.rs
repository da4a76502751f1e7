//! `redunit bench`, `bench-redux` and `bench-async`: throughput, latency and cosimulation
//! speed of the Verilated unit (with the warp patterns), redux block and async unit.

use std::io::Write;
use std::process::ExitCode;

use testbench::top::Top;

use super::check_mem_bytes;
use super::depth::{DepthArgs, depth_config};

/// `redunit bench`.
pub fn bench_cmd(
    requests: usize,
    latency_requests: usize,
    mem_bytes: usize,
    warp_insts: usize,
    json: bool,
    depths: &DepthArgs,
) -> anyhow::Result<ExitCode> {
    check_mem_bytes(mem_bytes)?;
    if requests == 0 {
        anyhow::bail!("--requests must be at least 1");
    }
    let cfg = depth_config(depths, Top::Unit).map_err(anyhow::Error::msg)?;
    if cfg != hw::Config::unit_default() {
        eprintln!("bench: the unit at depths {} (verilated at run time, once)", cfg.tag());
    }
    let r = testbench::bench::bench_with(requests, mem_bytes, latency_requests.max(1), &cfg)?;
    let warp = if warp_insts > 0 { testbench::warp::bench(warp_insts)? } else { vec![] };
    let mut out = std::io::stdout().lock();
    if json {
        writeln!(out, "{}", r.json_with(&warp))?;
    } else {
        write!(out, "{}", r.text())?;
        if !warp.is_empty() {
            write!(out, "{}", testbench::warp::bench_text(&warp))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `redunit bench --top axi`: the unit's patterns on the bare unit and through AXI.
pub fn bench_axi(requests: usize, mem_bytes: usize, json: bool, depths: &DepthArgs) -> anyhow::Result<ExitCode> {
    if requests == 0 {
        anyhow::bail!("--requests must be at least 1");
    }
    if mem_bytes != testbench::axi::AXI_MEM_BYTES {
        anyhow::bail!(
            "bench --top axi: the AXI model is built with {} bytes of memory only",
            testbench::axi::AXI_MEM_BYTES
        );
    }
    if depth_config(depths, Top::Axi).map_err(anyhow::Error::msg)? != hw::Config::unit_default() {
        anyhow::bail!("bench --top axi: the AXI model is built in the unit's default configuration only");
    }
    let rows = testbench::axi_traffic::bench(requests)?;
    let mut out = std::io::stdout().lock();
    if json {
        let o: Vec<String> = rows
            .iter()
            .map(|r| {
                let unit = if r.unit_ops_per_cycle.is_nan() {
                    "null".to_string()
                } else {
                    format!("{:.4}", r.unit_ops_per_cycle)
                };
                format!(
                    "\"{}\":{{\"unit_ops_per_cycle\":{unit},\"axi_ops_per_cycle\":{:.4}}}",
                    r.name, r.axi_ops_per_cycle
                )
            })
            .collect();
        writeln!(out, "{{{}}}", o.join(","))?;
    } else {
        write!(out, "{}", testbench::axi_traffic::bench_text(&rows))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `redunit bench-redux`.
pub fn bench_redux(insts: usize, seed: u64) -> anyhow::Result<ExitCode> {
    if insts == 0 {
        anyhow::bail!("--insts must be at least 1");
    }
    print!("{}", testbench::redux::bench(insts, seed)?);
    Ok(ExitCode::SUCCESS)
}

/// `redunit bench-async`.
pub fn bench_async(phases: usize, per_phase: usize, stream: usize) -> anyhow::Result<ExitCode> {
    if per_phase == 0 || per_phase > 1000 || stream > 1_000_000 {
        anyhow::bail!(
            "--per-phase must be in 1..=1000 and --stream at most 1000000 (the tx-count limit 2^20-1 bytes per mbarrier)"
        );
    }
    print!("{}", testbench::async_run::bench(phases, per_phase, stream)?);
    Ok(ExitCode::SUCCESS)
}
