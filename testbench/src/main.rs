//! `redunit`: the command-line front of the golden model, the testbench and (later) the RTL.

use std::io::{BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use sim::{Form, Memory};
use testbench::conformance::{self, EXHAUSTIVE16_FORMS};
use testbench::engine::EngineKind;
use testbench::{InputError, eval, trace};

#[derive(Parser)]
#[command(name = "redunit", version, about = "An RTL model of the near-memory atomic unit of a GPU L2 slice, \
with a golden model bit-exact to NVIDIA H100 silicon")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Evaluate `form,init,b` CSV rows from stdin; writes `form,init,b,result` to stdout.
    Eval {
        #[arg(long, value_enum, default_value = "model")]
        engine: EngineKind,
    },
    /// Execute a request trace (`op,addr,value`) against the memory; writes
    /// `index,op,addr,result` for each ld, atom and failed request.
    Run {
        #[arg(long, value_enum, default_value = "model")]
        engine: EngineKind,
        /// Memory size in bytes.
        #[arg(long, default_value_t = sim::memory::DEFAULT_MEM_BYTES)]
        mem_bytes: usize,
        /// The trace (CSV); `-` reads stdin.
        trace: PathBuf,
    },
    /// Check every captured H100 vector (and, with --exhaustive16, the exhaustive 16-bit
    /// digests) against an engine.
    Conformance {
        #[arg(long, value_enum, default_value = "model")]
        engine: EngineKind,
        /// Also recompute all 65,536 row digests of the six exhaustively captured 16-bit forms.
        #[arg(long)]
        exhaustive16: bool,
        /// Worker threads for --exhaustive16 (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// The captured data (default: the copy in the source tree).
        #[arg(long)]
        data: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            if let Some(ie) = e.downcast_ref::<InputError>() {
                eprintln!("redunit: {ie}");
                return ExitCode::from(2);
            }
            eprintln!("redunit: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.cmd {
        Cmd::Eval { engine } => {
            let stdin = std::io::stdin().lock();
            let stdout = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
            eval::eval(stdin, stdout, &mut *engine.alu())?;
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Run { engine, mem_bytes, trace } => {
            if mem_bytes == 0 || mem_bytes % 16 != 0 {
                anyhow::bail!("--mem-bytes {mem_bytes}: the memory size must be a positive multiple of 16 bytes");
            }
            let input: Box<dyn std::io::Read> = if trace.as_os_str() == "-" {
                Box::new(std::io::stdin().lock())
            } else {
                Box::new(std::io::BufReader::new(
                    std::fs::File::open(&trace).with_context(|| format!("cannot open the trace {}", trace.display()))?,
                ))
            };
            let mut mem = match engine {
                EngineKind::Model => Memory::new(mem_bytes),
            };
            let stdout = BufWriter::new(std::io::stdout().lock());
            trace::run(input, stdout, &mut mem).map_err(|e| match e.downcast::<InputError>() {
                Ok(ie) => anyhow::Error::new(ie.in_file(trace.display().to_string())),
                Err(e) => e,
            })?;
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Conformance { engine, exhaustive16, threads, data } => {
            conformance_cmd(engine, exhaustive16, threads, data.unwrap_or_else(conformance::default_data_dir))
        }
    }
}

fn bar(len: u64, what: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(len);
    pb.set_style(
        ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} {per_sec} eta {eta}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    pb.set_message(what.to_string());
    pb
}

fn conformance_cmd(engine: EngineKind, exhaustive16: bool, threads: Option<usize>, data: PathBuf) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    let t = Instant::now();
    let forms = conformance::vector_forms(&data)?;
    let pb = bar(forms.len() as u64, "vectors");
    let mut alu = engine.alu();
    let (mut rows, mut bad, mut bad_forms) = (0usize, 0usize, 0usize);
    writeln!(out, "{:<28} {:>8} {:>10}", "form", "rows", "mismatches")?;
    for (form, path) in &forms {
        let vectors = conformance::load_vectors(path, *form)?;
        let r = conformance::check_vectors(*form, &vectors, &mut *alu)?;
        pb.inc(1);
        pb.suspend(|| -> std::io::Result<()> {
            writeln!(out, "{:<28} {:>8} {:>10}", form.to_string(), r.rows, r.mismatches)?;
            for m in &r.first {
                let w = form.elem_bits();
                writeln!(
                    out,
                    "  row {}: init {} b {} expected {} got {}",
                    m.row,
                    testbench::hex::format(m.vector.init as u128, w),
                    testbench::hex::format(m.vector.b as u128, w),
                    testbench::hex::format(m.vector.result as u128, w),
                    testbench::hex::format(m.got as u128, w)
                )?;
            }
            Ok(())
        })?;
        rows += r.rows;
        bad += r.mismatches;
        bad_forms += (r.mismatches > 0) as usize;
    }
    pb.finish_and_clear();
    writeln!(
        out,
        "vectors: {} forms, {rows} rows, {bad} mismatches in {bad_forms} forms ({:.1} s, engine {engine:?})",
        forms.len(),
        t.elapsed().as_secs_f64()
    )?;
    let mut ok = bad == 0;
    if exhaustive16 {
        let forms: Vec<Form> = EXHAUSTIVE16_FORMS.iter().map(|s| s.parse().expect("catalogue form")).collect();
        let rows: Vec<u16> = (0..=u16::MAX).collect();
        let threads = threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        let total = (forms.len() * rows.len()) as u64;
        writeln!(out, "exhaustive16: {} forms x 65,536 rows x 65,536 operands on {threads} threads", forms.len())?;
        out.flush()?;
        let pb = bar(total, "exhaustive16 rows");
        let t = Instant::now();
        let reports = conformance::exhaustive16(&data, &forms, &rows, threads, |d| pb.set_position(d))?;
        let secs = t.elapsed().as_secs_f64();
        pb.finish_and_clear();
        for r in &reports {
            writeln!(out, "{:<28} {:>6}/{} rows match  ({:.1} s)", r.form.to_string(), r.matched, r.rows, r.seconds)?;
            if !r.mismatched_rows.is_empty() {
                let list: Vec<String> = r.mismatched_rows.iter().map(|a| format!("{a:04x}")).collect();
                writeln!(out, "  first mismatching rows (a): {}", list.join(" "))?;
            }
            ok &= r.matched == r.rows;
        }
        let evals = total as f64 * 65536.0;
        writeln!(out, "exhaustive16: {evals:.3e} evaluations in {secs:.1} s ({:.0} M/s)", evals / secs / 1e6)?;
    }
    writeln!(out, "{}", if ok { "PASS" } else { "FAIL" })?;
    Ok(if ok { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
