//! Conformance to the H100 captures in `testbench/h100/` (copied from the silicon runs; see
//! `h100/README.md` there for the formats).

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use sim::fp::{self, Half};
use sim::{Form, Op, Type};

use crate::engine::{AluEngine, AluOp};
use crate::hex;
use crate::input_error::{InputError, check_header, csv_reader, next_record};

/// The captured data shipped with the project.
pub fn default_data_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/h100"))
}

/// One element of a capture: memory before, operand, memory after.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vector {
    pub init: u64,
    pub b: u64,
    pub result: u64,
}

/// The forms that have a vector file, in name order.
pub fn vector_forms(data: &Path) -> anyhow::Result<Vec<(Form, PathBuf)>> {
    let dir = data.join("vectors");
    let entries =
        std::fs::read_dir(&dir).with_context(|| format!("cannot read the H100 vectors in {}", dir.display()))?;
    let mut forms = Vec::new();
    for e in entries {
        let path = e?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()).and_then(|n| n.strip_suffix(".csv.gz")) else {
            continue;
        };
        let form: Form =
            name.parse().with_context(|| format!("{}: the file name is not a legal form", path.display()))?;
        forms.push((form, path));
    }
    forms.sort_by_key(|(f, _)| f.to_string());
    Ok(forms)
}

/// Reads one gzip'd vector file.
pub fn load_vectors(path: &Path, form: Form) -> anyhow::Result<Vec<Vector>> {
    let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let gz = flate2::read::GzDecoder::new(BufReader::new(file));
    read_vectors(gz, form).with_context(|| format!("in {}", path.display()))
}

fn read_vectors(input: impl Read, form: Form) -> anyhow::Result<Vec<Vector>> {
    let mut rdr = csv_reader(input);
    let mut rec = csv::ByteRecord::new();
    check_header(&mut rdr, &mut rec, "init,b,result")?;
    let w = form.elem_bits();
    let mut out = Vec::new();
    while next_record(&mut rdr, &mut rec)? {
        let line = rec.position().map_or(0, |p| p.line());
        if rec.len() != 3 {
            bail!(InputError::new(line, format!("expected 3 columns, found {}", rec.len())));
        }
        let f = |i: usize| hex::parse(&rec[i], w).map(|v| v as u64).map_err(|e| InputError::new(line, e));
        out.push(Vector { init: f(0)?, b: f(1)?, result: f(2)? });
    }
    if out.len() % form.vec() != 0 {
        bail!("{} rows is not a whole number of {}-element instructions", out.len(), form.vec());
    }
    Ok(out)
}

/// A row where the engine disagrees with silicon.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// 0-based data row in the file (the header is not counted).
    pub row: usize,
    pub vector: Vector,
    pub got: u64,
}

/// The outcome for one form.
#[derive(Clone, Debug)]
pub struct FormReport {
    pub form: Form,
    pub rows: usize,
    pub mismatches: usize,
    /// The first few mismatches, for the report.
    pub first: Vec<Mismatch>,
}

/// The instructions of a capture: vector forms group 2/4/8 rows, element 0 lowest.
pub fn vector_ops(form: Form, vectors: &[Vector]) -> Vec<AluOp> {
    let w = form.elem_bits();
    vectors
        .chunks(form.vec())
        .map(|g| {
            let pack = |f: fn(&Vector) -> u64| {
                g.iter().enumerate().fold(0u128, |acc, (i, v)| acc | (f(v) as u128) << (w * i as u32))
            };
            AluOp { form, old: pack(|v| v.init), b: pack(|v| v.b) }
        })
        .collect()
}

/// Runs `vectors` of `form` through `engine`, grouping vector forms into instructions.
pub fn check_vectors(form: Form, vectors: &[Vector], engine: &mut dyn AluEngine) -> anyhow::Result<FormReport> {
    let n = form.vec();
    let w = form.elem_bits();
    let ops = vector_ops(form, vectors);
    let mut results = Vec::with_capacity(ops.len());
    engine.execute(&ops, &mut results)?;
    let mask = sim::elem_mask(w);
    let mut report = FormReport { form, rows: vectors.len(), mismatches: 0, first: Vec::new() };
    for (row, v) in vectors.iter().enumerate() {
        let got = (results[row / n] >> (w * (row % n) as u32)) as u64 & mask;
        if got != v.result {
            report.mismatches += 1;
            if report.first.len() < 5 {
                report.first.push(Mismatch { row, vector: *v, got });
            }
        }
    }
    Ok(report)
}

// ---------------------------------------------------------------------------------------
// Exhaustive 16-bit digests
// ---------------------------------------------------------------------------------------

/// The six forms with exhaustive captures.
pub const EXHAUSTIVE16_FORMS: [&str; 6] = [
    "global.add.noftz.f16",
    "global.add.noftz.bf16",
    "global.v2.f16.min.noftz",
    "global.v2.f16.max.noftz",
    "global.v2.bf16.min.noftz",
    "global.v2.bf16.max.noftz",
];

/// Reads the 65,536 captured row digests of `form`.
pub fn load_digests(data: &Path, form: Form) -> anyhow::Result<Vec<u64>> {
    let path = data.join("exhaustive16").join(format!("{form}.digest.u64le"));
    let bytes = std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
    if bytes.len() != 65536 * 8 {
        bail!("{}: expected 524288 bytes (65,536 u64), found {}", path.display(), bytes.len());
    }
    Ok(bytes.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().unwrap())).collect())
}

/// `splitmix64((a << 32) | (b << 16) | r)` summed over all b: the digest of row `a`.
#[inline(always)]
fn digest_row_with(a: u16, f: impl Fn(u16, u16) -> u16) -> u64 {
    let hi = (a as u64) << 32;
    let mut sum = 0u64;
    for b in 0..=u16::MAX {
        sum = sum.wrapping_add(sim::splitmix64(hi | (b as u64) << 16 | f(a, b) as u64));
    }
    sum
}

/// The golden model's digest of row `a` of a 16-bit form (element 0 of a vector form).
pub fn model_digest_row(form: Form, a: u16) -> u64 {
    let fmt = match form.ty() {
        Type::F16 => Half::F16,
        Type::Bf16 => Half::Bf16,
        _ => panic!("{form} has no 16-bit element"),
    };
    // Each arm is its own monomorphised loop, so the element operation inlines.
    match (fmt, form.op()) {
        (Half::F16, Op::Add) => digest_row_with(a, |a, b| fp::add_half(Half::F16, a, b)),
        (Half::Bf16, Op::Add) => digest_row_with(a, |a, b| fp::add_half(Half::Bf16, a, b)),
        (Half::F16, Op::Min) => digest_row_with(a, |a, b| fp::minmax_half(Half::F16, a, b, false)),
        (Half::F16, Op::Max) => digest_row_with(a, |a, b| fp::minmax_half(Half::F16, a, b, true)),
        (Half::Bf16, Op::Min) => digest_row_with(a, |a, b| fp::minmax_half(Half::Bf16, a, b, false)),
        (Half::Bf16, Op::Max) => digest_row_with(a, |a, b| fp::minmax_half(Half::Bf16, a, b, true)),
        _ => digest_row_with(a, |a, b| sim::apply_elem(form, a as u64, b as u64) as u16),
    }
}

/// The outcome of the exhaustive run of one form.
#[derive(Clone, Debug)]
pub struct ExhaustiveReport {
    pub form: Form,
    pub rows: usize,
    pub matched: usize,
    /// The `a` of the first mismatching rows.
    pub mismatched_rows: Vec<u16>,
    /// Wall time spent on this form's rows (the forms share the worker threads).
    pub seconds: f64,
}

/// Recomputes the digests of `rows` of each form with the golden model on `threads` worker
/// threads and compares them with the captures. `progress(done)` is called from the calling
/// thread with the number of rows finished so far (of `forms.len() * rows.len()`).
pub fn exhaustive16(
    data: &Path,
    forms: &[Form],
    rows: &[u16],
    threads: usize,
    progress: impl FnMut(u64),
) -> anyhow::Result<Vec<ExhaustiveReport>> {
    exhaustive16_with(data, forms, rows, threads, progress, || Ok(()), |_, form, a| Ok(model_digest_row(form, a)))
}

/// The v8 form whose every element follows the rule of the exhaustively captured 16-bit
/// `form`: the scalar f16/bf16 add rows run as `global.v8.{f16,bf16}.add.noftz`, and the v2
/// min/max forms as v8 min/max of the same type. Each element of a vector form (and the one
/// element of the scalar form) follows the same per-element rule (`sim::apply_elem` applies
/// it lane by lane), so eight lanes give eight 16-bit operations per cycle.
pub fn v8_form(form: Form) -> anyhow::Result<Form> {
    let ty = match form.ty() {
        Type::F16 => "f16",
        Type::Bf16 => "bf16",
        _ => bail!("{form} is not one of the exhaustively captured 16-bit forms"),
    };
    Ok(format!("global.v8.{ty}.{}.noftz", form.op().name()).parse()?)
}

/// The RTL's digest of row `a` of a 16-bit form: 8,192 v8 instructions (old = `a` in every
/// lane, b = 0..=0xFFFF across the lanes) through `rtl`, one per cycle.
pub fn rtl_digest_row(
    rtl: &mut crate::rtl::RtlAlu,
    v8: Form,
    a: u16,
    ops: &mut Vec<AluOp>,
    out: &mut Vec<u128>,
) -> anyhow::Result<u64> {
    let old = (0..8).fold(0u128, |acc, i| acc | (a as u128) << (16 * i));
    ops.clear();
    ops.extend((0..8192u32).map(|j| {
        let b = (0..8u32).fold(0u128, |acc, l| acc | ((8 * j + l) as u128) << (16 * l));
        AluOp { form: v8, old, b }
    }));
    out.clear();
    rtl.run(ops, out)?;
    let hi = (a as u64) << 32;
    let mut sum = 0u64;
    for (j, r) in out.iter().enumerate() {
        for l in 0..8u32 {
            let b = (8 * j as u64) + l as u64;
            let res = (r >> (16 * l)) as u16;
            sum = sum.wrapping_add(sim::splitmix64(hi | b << 16 | res as u64));
        }
    }
    Ok(sum)
}

/// [`exhaustive16`] through the Verilated ALU: each of `threads` workers owns a model and runs
/// whole rows as v8 instructions (see [`v8_form`]).
pub fn exhaustive16_rtl(
    data: &Path,
    forms: &[Form],
    rows: &[u16],
    threads: usize,
    progress: impl FnMut(u64),
) -> anyhow::Result<Vec<ExhaustiveReport>> {
    let v8: Vec<(Form, Form)> = forms.iter().map(|&f| Ok((f, v8_form(f)?))).collect::<anyhow::Result<_>>()?;
    exhaustive16_with(
        data,
        forms,
        rows,
        threads,
        progress,
        || Ok((crate::rtl::RtlAlu::new(), Vec::with_capacity(8192), Vec::with_capacity(8192))),
        |(rtl, ops, out), form, a| {
            let v = v8.iter().find(|(f, _)| *f == form).map(|(_, v)| *v).expect("mapped above");
            rtl_digest_row(rtl, v, a, ops, out)
        },
    )
}

/// The worker pool behind [`exhaustive16`] and [`exhaustive16_rtl`]: each thread makes its own
/// worker state with `make` and computes row digests with `digest`.
#[allow(clippy::too_many_arguments)]
fn exhaustive16_with<W>(
    data: &Path,
    forms: &[Form],
    rows: &[u16],
    threads: usize,
    mut progress: impl FnMut(u64),
    make: impl Fn() -> anyhow::Result<W> + Sync,
    digest: impl Fn(&mut W, Form, u16) -> anyhow::Result<u64> + Sync,
) -> anyhow::Result<Vec<ExhaustiveReport>> {
    let expected: Vec<Vec<u64>> = forms.iter().map(|f| load_digests(data, *f)).collect::<Result<_, _>>()?;
    const CHUNK: usize = 64;
    let per_form = rows.len().div_ceil(CHUNK);
    let next = AtomicUsize::new(0);
    let done = AtomicU64::new(0);
    let failed = std::sync::Mutex::new(None::<anyhow::Error>);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let results: Vec<Vec<AtomicU64>> = forms.iter().map(|_| rows.iter().map(|_| AtomicU64::new(0)).collect()).collect();
    let nanos: Vec<AtomicU64> = forms.iter().map(|_| AtomicU64::new(0)).collect();
    let workers = threads.max(1);
    let live = AtomicUsize::new(workers);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                let r = (|| -> anyhow::Result<()> {
                    let mut w = make()?;
                    loop {
                        let task = next.fetch_add(1, Ordering::Relaxed);
                        if task >= per_form * forms.len() || stop.load(Ordering::Relaxed) {
                            return Ok(());
                        }
                        let (fi, chunk) = (task / per_form, task % per_form);
                        let t = Instant::now();
                        let lo = chunk * CHUNK;
                        let hi = (lo + CHUNK).min(rows.len());
                        for i in lo..hi {
                            results[fi][i].store(digest(&mut w, forms[fi], rows[i])?, Ordering::Relaxed);
                        }
                        nanos[fi].fetch_add(t.elapsed().as_nanos() as u64, Ordering::Relaxed);
                        done.fetch_add((hi - lo) as u64, Ordering::Relaxed);
                    }
                })();
                if let Err(e) = r {
                    stop.store(true, Ordering::Relaxed);
                    failed.lock().unwrap().get_or_insert(e);
                }
                live.fetch_sub(1, Ordering::Relaxed);
            });
        }
        let total = (forms.len() * rows.len()) as u64;
        loop {
            let d = done.load(Ordering::Relaxed);
            progress(d);
            if d >= total || live.load(Ordering::Relaxed) == 0 {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    });
    if let Some(e) = failed.into_inner().unwrap() {
        return Err(e);
    }
    Ok(forms
        .iter()
        .enumerate()
        .map(|(fi, &form)| {
            let mismatched: Vec<u16> = rows
                .iter()
                .enumerate()
                .filter(|&(i, &a)| results[fi][i].load(Ordering::Relaxed) != expected[fi][a as usize])
                .map(|(_, &a)| a)
                .collect();
            ExhaustiveReport {
                form,
                rows: rows.len(),
                matched: rows.len() - mismatched.len(),
                mismatched_rows: mismatched.into_iter().take(20).collect(),
                seconds: nanos[fi].load(Ordering::Relaxed) as f64 / 1e9 / workers as f64,
            }
        })
        .collect())
}
