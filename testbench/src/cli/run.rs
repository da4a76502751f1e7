//! `redunit run`: a request trace through the golden memory or the Verilated unit (also the
//! warp and red.async trace formats).

use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use testbench::engine::EngineKind;
use testbench::unit::RtlUnit;
use testbench::{InputError, trace};

use super::check_mem_bytes;

/// `redunit run`.
pub fn run_cmd(
    engine: EngineKind,
    mem_bytes: usize,
    coverage: bool,
    vcd: Option<PathBuf>,
    dump_mem: Option<PathBuf>,
    lag: Option<(u64, usize)>,
    trace: PathBuf,
) -> anyhow::Result<ExitCode> {
    check_mem_bytes(mem_bytes)?;
    if vcd.is_some() && engine != EngineKind::Rtl {
        anyhow::bail!("--vcd needs --engine rtl: the golden model has no waveform");
    }
    let mut input = Vec::new();
    if trace.as_os_str() == "-" {
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut input).context("reading the trace from stdin")?;
    } else {
        input = std::fs::read(&trace).with_context(|| format!("cannot open the trace {}", trace.display()))?;
    }
    // The header picks the format; it is found as the parsers find it (after blank lines).
    let first = testbench::input_error::first_row(&input).unwrap_or_default();
    // The header `op,addr,value,mbar` selects red.async/mbarrier traces (testbench::async_run).
    let first_t = first.trim_ascii_end();
    if first_t == testbench::async_run::HEADER.as_bytes() || first_t == testbench::async_run::HEADER_CTA.as_bytes() {
        if coverage || vcd.is_some() || dump_mem.is_some() {
            anyhow::bail!(
                "--coverage, --vcd and --dump-mem are not available for traces with the mbar column (red.async)"
            );
        }
        let stdout = BufWriter::new(std::io::stdout().lock());
        let code = testbench::async_run::run_cmd_lag(&input, engine == EngineKind::Rtl, mem_bytes, lag, stdout)
            .map_err(|e| in_file(e, &trace))?;
        return Ok(ExitCode::from(code));
    }
    if lag.is_some() {
        anyhow::bail!("--lag-seed is for traces with the mbar column (red.async completions)");
    }
    // Opened before the trace runs, so that a path that cannot be written costs no run.
    let mut dump = match &dump_mem {
        Some(p) => Some(BufWriter::new(
            std::fs::File::create(p).with_context(|| format!("--dump-mem: cannot create {}", p.display()))?,
        )),
        None => None,
    };
    // The header `op,mask,addr0,...` selects warp traces (testbench::warp).
    if testbench::warp::is_warp_header(&String::from_utf8_lossy(first)) {
        if coverage || vcd.is_some() {
            anyhow::bail!(
                "--coverage and --vcd are not available for warp traces (the warp unit is built without them)"
            );
        }
        let stdout = BufWriter::new(std::io::stdout().lock());
        let dump = dump.as_mut().map(|d| d as &mut dyn Write);
        testbench::warp::run_trace_dump(&input[..], stdout, engine == EngineKind::Rtl, mem_bytes, dump)
            .map_err(|e| in_file(e, &trace))?;
        return Ok(ExitCode::SUCCESS);
    }
    // A bad row stops the trace there: the requests before it run and their rows are written.
    let parsed = trace::parse_prefix(&input[..]).map_err(|e| in_file(e, &trace))?;
    let rows = &parsed.rows;
    let needs_shared = rows.iter().any(|r| r.space() == sim::Space::Shared);
    let mut mem = Vec::new();
    let (outcomes, cov) = match engine {
        EngineKind::Model => {
            let mut m = sim::Spaces::new(mem_bytes, mem_bytes);
            let outcomes = trace::execute(rows, &mut m.global, Some(&mut m.shared))?;
            if dump.is_some() {
                mem = vec![m.global.bytes().to_vec(), m.shared.bytes().to_vec()];
            }
            (outcomes, None)
        }
        EngineKind::Rtl => {
            let mut unit = match &vcd {
                Some(path) => RtlUnit::with_vcd(mem_bytes, path, 0)?,
                None => RtlUnit::new(mem_bytes)?,
            };
            // Shared memory is a second instance of the unit (see docs/cli.md); built only
            // when the trace has shared rows, so a global trace runs as it always did.
            let mut shared = if needs_shared { Some(RtlUnit::new(mem_bytes)?) } else { None };
            let outcomes = trace::execute(rows, &mut unit, shared.as_mut().map(|u| u as &mut dyn trace::MemEngine))?;
            unit.idle(2);
            let cycles = unit.cycle();
            let mut cov = unit.cov_counts();
            if let Some(s) = &mut shared {
                s.idle(2);
                for (c, k) in cov.iter_mut().zip(s.cov_counts()) {
                    *c += k;
                }
            }
            if dump.is_some() {
                // Read back after the cycles and coverage are taken: they are the trace's.
                let shared_mem = match &mut shared {
                    Some(s) => testbench::mem_dump::read_back(s, mem_bytes)?,
                    None => Vec::new(),
                };
                mem = vec![testbench::mem_dump::read_back(&mut unit, mem_bytes)?, shared_mem];
            }
            drop(unit); // closes the waveform and writes the viewer set-ups beside it
            if let Some(path) = &vcd {
                eprintln!(
                    "redunit: waveform written to {} ({cycles} cycles); open it with `gtkwave {}` or `surfer {} --command-file {}`",
                    path.display(),
                    path.with_extension("gtkw").display(),
                    path.display(),
                    path.with_extension("sucl").display()
                );
                if needs_shared {
                    eprintln!(
                        "redunit: the waveform shows the global-memory unit; shared-memory rows ran on a second, untraced unit"
                    );
                }
            }
            (outcomes, Some((cov, cycles)))
        }
    };
    let stdout = BufWriter::new(std::io::stdout().lock());
    trace::write_results(rows, &outcomes, stdout)?;
    if let Some(d) = &mut dump {
        let spaces: Vec<(sim::Space, &[u8])> =
            [sim::Space::Global, sim::Space::Shared].into_iter().zip(mem.iter().map(|m| &m[..])).collect();
        testbench::mem_dump::write(d, &spaces)?;
    }
    if coverage {
        let mut c = testbench::unit_cosim::Coverage::default();
        for (q, o) in rows.iter().zip(&outcomes) {
            c.add_request(q.req().access);
            c.add_status(sim::status_code(o.map(|_| ())));
        }
        let mut err = std::io::stderr().lock();
        match cov {
            Some((bits, cycles)) => {
                c.cov = bits;
                writeln!(
                    err,
                    "coverage of {} requests over {cycles} cycles (engine rtl, {mem_bytes} bytes):",
                    rows.len()
                )?;
            }
            None => writeln!(err, "coverage of {} requests (engine model: no coverage points):", rows.len())?,
        }
        c.report(&mut err)?;
    }
    parsed.then(ExitCode::SUCCESS).map_err(|e| in_file(e, &trace))
}

/// An input error named with the trace file it is in.
fn in_file(e: anyhow::Error, trace: &std::path::Path) -> anyhow::Error {
    match e.downcast::<InputError>() {
        Ok(ie) => anyhow::Error::new(ie.in_file(trace.display().to_string())),
        Err(e) => e,
    }
}
