//! `redunit merge`: the sum of shard results; and the summary and JSON that a shard and a merge
//! both write.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use sim::Form;
use testbench::shard::{self, RegressResult};

/// `redunit merge`: sums the shard results in `files`, prints the totals, the coverage over
/// all shards and each failure with its rerun command, and writes the sum to `json`. Exit
/// status 1 on a mismatch or a coverage hole over all shards; a bad file is an error (2).
pub fn merge(files: &[PathBuf], json: Option<&Path>) -> anyhow::Result<ExitCode> {
    let mut read = Vec::new();
    for f in files {
        let r = shard::read_result(f).map_err(anyhow::Error::msg)?;
        read.push((f.display().to_string(), r));
    }
    let m = shard::merge(&read).map_err(anyhow::Error::msg)?;
    let mut out = std::io::stdout().lock();
    let count = m.shards.first().map_or(0, |s| s.shard.count);
    writeln!(
        out,
        "redunit merge: {count} shards of seed {}{}",
        m.seed,
        m.only.as_ref().map_or(String::new(), |o| format!(" (--only {o})"))
    )?;
    for (name, r) in &read {
        let shards: Vec<String> = r.shards.iter().map(|s| format!("{} (seed {})", s.shard, s.seed)).collect();
        writeln!(out, "  {name}: shard {}, {} mismatches, {:.1} s", shards.join(", "), r.mismatches, r.seconds)?;
    }
    for (name, b) in &m.blocks {
        writeln!(out, "{name:<11} {} {}, {} mismatches, {} forms", b.count, b.unit, b.mismatches, b.per_form.len())?;
    }
    if let Some(c) = &m.coverage {
        writeln!(out, "coverage over all shards: {}/{} coverage points hit", c.hit, c.total)?;
    }
    for f in &m.failures {
        writeln!(out, "FAILED: {} shard {}: {} mismatches; first: {}", f.block, f.shard, f.mismatches, f.first)?;
        writeln!(out, "  rerun: {}", f.rerun)?;
    }
    summary(&mut out, &m)?;
    if let Some(path) = json {
        write_json(path, &m)?;
        writeln!(out, "json:          {}", path.display())?;
    }
    writeln!(out, "{}", if m.pass { "PASS" } else { "FAIL" })?;
    Ok(if m.pass { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

pub(super) fn write_json(path: &Path, r: &RegressResult) -> anyhow::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| anyhow::anyhow!("cannot create the folder {}: {e}", dir.display()))?;
    }
    let text = serde_json::to_string_pretty(r)?;
    std::fs::write(path, text + "\n").map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
}

/// The summary lines of a shard or of a merge.
pub(super) fn summary(out: &mut dyn Write, r: &RegressResult) -> anyhow::Result<()> {
    let get = |b: &str| r.blocks.get(b).map_or(0, |b| b.count);
    let extra = |b: &str, k: &str| r.blocks.get(b).and_then(|b| b.extra.get(k).copied()).unwrap_or(0);
    writeln!(out, "---")?;
    writeln!(out, "forms covered: {}/{}", r.forms_covered, Form::all().len())?;
    writeln!(
        out,
        "operations:    {} ({} H100 rows + {} random)",
        get("vectors") + get("alu"),
        get("vectors"),
        get("alu")
    )?;
    let cov = match &r.coverage {
        None => "the unit did not run".to_string(),
        Some(c) if c.holes.is_empty() => "all".to_string(),
        Some(c) => format!("not all: {}", c.holes.join(", ")),
    };
    writeln!(
        out,
        "unit requests: {} random + {} read-back loads (coverage points hit: {cov})",
        get("unit"),
        extra("unit", "sweep_loads")
    )?;
    if r.blocks.contains_key("unit") {
        writeln!(
            out,
            "unit faults:   {} resets (queue full {}, FIFO full {}, chain in flight {}), {} dropped, {} droughts",
            extra("unit", "resets"),
            extra("unit", "resets_queue_full"),
            extra("unit", "resets_fifo_full"),
            extra("unit", "resets_chain"),
            extra("unit", "dropped"),
            extra("unit", "droughts")
        )?;
    }
    writeln!(out, "redux:         {} H100 + {} random instructions", get("redux-h100"), get("redux"))?;
    writeln!(
        out,
        "warp:          {} instructions ({} unit requests); async: {} traces, {} rows, {} phase flips",
        get("warp"),
        extra("warp", "unit_requests"),
        get("async"),
        extra("async", "rows"),
        extra("async", "phase_flips")
    )?;
    writeln!(
        out,
        "spaces:        {} rows ({} global, {} shared; {} generic)",
        get("spaces"),
        extra("spaces", "global_rows"),
        extra("spaces", "shared_rows"),
        extra("spaces", "generic_rows")
    )?;
    writeln!(out, "mismatches:    {}", r.mismatches)?;
    if let Some(alu) = r.blocks.get("alu").filter(|b| b.seconds > 0.0) {
        writeln!(
            out,
            "speed:         {:.2} M ops/s (random stream, RTL + golden model, one thread)",
            alu.count as f64 / alu.seconds / 1e6
        )?;
    }
    if r.shards.len() > 1 {
        writeln!(
            out,
            "time:          {:.1} s summed over the shards, the longest {:.1} s",
            r.seconds, r.longest_shard_seconds
        )?;
    } else {
        writeln!(out, "time:          {:.1} s", r.seconds)?;
    }
    Ok(())
}
