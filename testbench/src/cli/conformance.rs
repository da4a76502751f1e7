//! `redunit conformance`: every captured H100 vector (and the exhaustive 16-bit digests)
//! against the golden model or the Verilated ALU.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use sim::Form;
use testbench::conformance::{self, EXHAUSTIVE16_FORMS};
use testbench::engine::EngineKind;
use testbench::rtl::RtlAlu;

use super::{bar, regress};

/// `redunit conformance`.
pub fn conformance_cmd(
    engine: EngineKind,
    exhaustive16: bool,
    threads: Option<usize>,
    data: PathBuf,
) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    let t = Instant::now();
    let forms = conformance::vector_forms(&data)?;
    if engine == EngineKind::Rtl {
        return conformance_rtl(exhaustive16, threads, data, t);
    }
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
        let threads = threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        ok &= exhaustive(&mut out, &data, threads, false)?;
    }
    finish(&mut out, engine, &data, ok)
}

/// The exhaustive 16-bit digests on `threads` threads, through the golden model or (`rtl`)
/// the Verilated ALU as v8 instructions, a model per thread; true when every row matched.
fn exhaustive(out: &mut impl Write, data: &Path, threads: usize, rtl: bool) -> anyhow::Result<bool> {
    let forms: Vec<Form> = EXHAUSTIVE16_FORMS.iter().map(|s| s.parse().expect("catalogue form")).collect();
    let rows: Vec<u16> = (0..=u16::MAX).collect();
    let total = (forms.len() * rows.len()) as u64;
    if rtl {
        writeln!(
            out,
            "exhaustive16 (RTL): {} forms x 65,536 rows x 65,536 operands as v8 instructions, {threads} threads each owning a model",
            forms.len()
        )?;
    } else {
        writeln!(out, "exhaustive16: {} forms x 65,536 rows x 65,536 operands on {threads} threads", forms.len())?;
    }
    out.flush()?;
    let pb = bar(total, "exhaustive16 rows");
    let t = Instant::now();
    let reports = if rtl {
        conformance::exhaustive16_rtl(data, &forms, &rows, threads, |d| pb.set_position(d))?
    } else {
        conformance::exhaustive16(data, &forms, &rows, threads, |d| pb.set_position(d))?
    };
    let secs = t.elapsed().as_secs_f64();
    pb.finish_and_clear();
    let ok = print_exhaustive(out, &reports)?;
    let evals = total as f64 * 65536.0;
    if rtl {
        writeln!(
            out,
            "exhaustive16 (RTL): {evals:.3e} evaluations ({:.3e} cycles) in {secs:.1} s ({:.0} M evaluations/s)",
            evals / 8.0,
            evals / secs / 1e6
        )?;
    } else {
        writeln!(out, "exhaustive16: {evals:.3e} evaluations in {secs:.1} s ({:.0} M/s)", evals / secs / 1e6)?;
    }
    Ok(ok)
}

/// The `redux.sync` captures, then the verdict line and the exit status.
fn finish(out: &mut impl Write, engine: EngineKind, data: &Path, mut ok: bool) -> anyhow::Result<ExitCode> {
    ok &= testbench::redux::conformance_report(out, engine, data)?;
    writeln!(out, "{}", if ok { "PASS" } else { "FAIL" })?;
    Ok(if ok { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// Prints one line per form of an exhaustive run (and its first mismatching rows); true when
/// every row of every form matched.
fn print_exhaustive(out: &mut impl Write, reports: &[conformance::ExhaustiveReport]) -> std::io::Result<bool> {
    let mut ok = true;
    for r in reports {
        writeln!(out, "{:<28} {:>6}/{} rows match  ({:.1} s)", r.form.to_string(), r.matched, r.rows, r.seconds)?;
        if !r.mismatched_rows.is_empty() {
            let list: Vec<String> = r.mismatched_rows.iter().map(|a| format!("{a:04x}")).collect();
            writeln!(out, "  first mismatching rows (a): {}", list.join(" "))?;
        }
        ok &= r.matched == r.rows;
    }
    Ok(ok)
}

fn conformance_rtl(exhaustive16: bool, threads: Option<usize>, data: PathBuf, t: Instant) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "engine rtl: hw::ReductionAlu, latency {} cycles, Verilated by {}",
        hw::ALU_LATENCY,
        testbench::rtl::VERILATOR_VERSION
    )?;
    writeln!(out, "{:<28} {:>8} {:>10}", "form", "rows", "mismatches")?;
    let n_forms = conformance::vector_forms(&data)?.len();
    let pb = bar(n_forms as u64, "vectors");
    let mut rtl = RtlAlu::new();
    let v = regress::rtl_vectors(&mut rtl, &data, &mut out, &pb, true, &|_| true, None)?;
    let (forms, rows, bad) = (v.forms, v.rows, v.bad);
    pb.finish_and_clear();
    writeln!(
        out,
        "vectors: {} of {n_forms} forms, {rows} rows, {bad} mismatches ({:.1} s, engine Rtl)",
        forms.len(),
        t.elapsed().as_secs_f64()
    )?;
    let mut ok = bad == 0;
    if exhaustive16 {
        ok &= exhaustive(&mut out, &data, threads.unwrap_or(2), true)?;
    }
    finish(&mut out, EngineKind::Rtl, &data, ok)
}
