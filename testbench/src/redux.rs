//! `redux.sync` in the testbench: the H100 captures (`h100/redux/`), the engines that execute
//! warp reductions (the golden model [`ModelRedux`] and the Verilated block [`RtlRedux`]), and
//! random stimulus.
//!
//! `build.rs` verilates `hw::redux_verilog()` into the model `Vredux`, driven through the C++
//! shim in `csrc/redux_shim.cpp`: a whole batch crosses the FFI boundary in one call, one warp
//! instruction per clock cycle, and the pipeline is drained at the end of the batch.

use std::ffi::c_void;
use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};
use std::ptr::NonNull;

use anyhow::{Context, bail};
use sim::redux::{LANES, ReduxForm, reduce};

use crate::engine::EngineKind;
use crate::hex;
use crate::input_error::{InputError, check_header, csv_reader, next_record};
use crate::rtl::ProtocolError;

/// One warp instruction: the form, the membermask and every lane's source (lanes outside the
/// mask are ignored).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReduxInst {
    pub form: ReduxForm,
    pub mask: u32,
    pub src: [u32; LANES],
}

/// Executes warp reductions in order.
pub trait ReduxEngine {
    /// Appends the result of each instruction of `insts` to `out`, in order.
    fn execute(&mut self, insts: &[ReduxInst], out: &mut Vec<u32>) -> anyhow::Result<()>;
}

/// The golden model (`sim::redux::reduce`).
#[derive(Default)]
pub struct ModelRedux;

impl ReduxEngine for ModelRedux {
    fn execute(&mut self, insts: &[ReduxInst], out: &mut Vec<u32>) -> anyhow::Result<()> {
        out.extend(insts.iter().map(|i| reduce(i.form, i.mask, &i.src)));
        Ok(())
    }
}

impl EngineKind {
    /// The engine for `redux.sync` rows.
    pub fn redux(self) -> Box<dyn ReduxEngine> {
        match self {
            EngineKind::Model => Box::new(ModelRedux),
            EngineKind::Rtl => Box::new(RtlRedux::new()),
        }
    }
}

// ---------------------------------------------------------------------------------------
// The H100 captures.
// ---------------------------------------------------------------------------------------

/// The header of a capture file.
pub fn capture_header() -> String {
    let mut h = String::from("mask");
    for i in 0..LANES {
        h.push_str(&format!(",src{i}"));
    }
    h.push_str(",result");
    h
}

/// One captured warp instruction and what every participating lane received on the H100.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReduxRow {
    pub mask: u32,
    pub src: [u32; LANES],
    pub result: u32,
}

/// The forms that have a capture file in `data/redux/`, in name order.
pub fn capture_files(data: &Path) -> anyhow::Result<Vec<(ReduxForm, PathBuf)>> {
    let dir = data.join("redux");
    let entries =
        std::fs::read_dir(&dir).with_context(|| format!("cannot read the H100 redux captures in {}", dir.display()))?;
    let mut forms = Vec::new();
    for e in entries {
        let path = e?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()).and_then(|n| n.strip_suffix(".csv.gz")) else {
            continue;
        };
        let form: ReduxForm =
            name.parse().with_context(|| format!("{}: the file name is not a legal redux form", path.display()))?;
        forms.push((form, path));
    }
    forms.sort_by_key(|(f, _)| f.to_string());
    Ok(forms)
}

/// Reads one gzip'd capture file.
pub fn load_captures(path: &Path) -> anyhow::Result<Vec<ReduxRow>> {
    let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    read_captures(flate2::read::GzDecoder::new(BufReader::new(file))).with_context(|| format!("in {}", path.display()))
}

fn read_captures(input: impl Read) -> anyhow::Result<Vec<ReduxRow>> {
    let mut rdr = csv_reader(input);
    let mut rec = csv::ByteRecord::new();
    check_header(&mut rdr, &mut rec, &capture_header())?;
    let mut out = Vec::new();
    while next_record(&mut rdr, &mut rec)? {
        let line = rec.position().map_or(0, |p| p.line());
        if rec.len() != LANES + 2 {
            bail!(InputError::new(line, format!("expected {} columns, found {}", LANES + 2, rec.len())));
        }
        let f = |i: usize| hex::parse(&rec[i], 32).map(|v| v as u32).map_err(|e| InputError::new(line, e));
        let mut src = [0u32; LANES];
        for (i, s) in src.iter_mut().enumerate() {
            *s = f(1 + i)?;
        }
        out.push(ReduxRow { mask: f(0)?, src, result: f(LANES + 1)? });
    }
    Ok(out)
}

/// The outcome of checking one form's captures against an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReduxReport {
    pub rows: usize,
    pub mismatches: usize,
    /// The first mismatching row: (row index, the engine's result).
    pub first: Option<(usize, ReduxRow, u32)>,
}

/// Runs `rows` of `form` through `engine` and compares with the captured results.
pub fn check_captures(form: ReduxForm, rows: &[ReduxRow], engine: &mut dyn ReduxEngine) -> anyhow::Result<ReduxReport> {
    let insts: Vec<ReduxInst> = rows.iter().map(|r| ReduxInst { form, mask: r.mask, src: r.src }).collect();
    let mut got = Vec::with_capacity(rows.len());
    engine.execute(&insts, &mut got)?;
    let mut report = ReduxReport { rows: rows.len(), mismatches: 0, first: None };
    for (i, (r, &g)) in rows.iter().zip(&got).enumerate() {
        if g != r.result {
            report.mismatches += 1;
            report.first.get_or_insert((i, *r, g));
        }
    }
    Ok(report)
}

/// Checks every captured `redux.sync` instruction in `data/redux/` against `engine` (the
/// model, or a fresh Verilated block) and prints one line per form, the first mismatch of a
/// failing form, and a summary line `redux: N forms, R instructions, M mismatches`. True when
/// all match.
pub fn conformance_report(out: &mut dyn std::io::Write, engine: EngineKind, data: &Path) -> anyhow::Result<bool> {
    let mut e = engine.redux();
    let files = capture_files(data)?;
    let (mut rows, mut bad) = (0usize, 0usize);
    for (form, path) in &files {
        let r = check_captures(*form, &load_captures(path)?, &mut *e)?;
        writeln!(out, "{:<28} {:>8} {:>10}", form.to_string(), r.rows, r.mismatches)?;
        if let Some((i, row, got)) = r.first {
            writeln!(
                out,
                "  row {i}: mask {:08x} src {:08x?} expected {:08x} got {got:08x}",
                row.mask, row.src, row.result
            )?;
        }
        rows += r.rows;
        bad += r.mismatches;
    }
    writeln!(out, "redux: {} forms, {rows} instructions, {bad} mismatches (engine {engine:?})", files.len())?;
    Ok(bad == 0)
}

// ---------------------------------------------------------------------------------------
// Random stimulus.
// ---------------------------------------------------------------------------------------

/// Source values that stress the rules: integer extremes, signed zeros, ones, infinities,
/// quiet and signalling NaNs of both signs, subnormals, the largest finite values.
pub const SPECIALS: [u32; 24] = [
    0,
    1,
    2,
    0x7fff_ffff,
    0x8000_0000,
    0x8000_0001,
    0xffff_ffff,
    0xffff_fffe,
    0x3f80_0000,
    0xbf80_0000,
    0x4000_0000,
    0xc000_0000,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0xffc0_0000,
    0x7f80_0001,
    0xff80_0001,
    0x0000_0001,
    0x8000_0001,
    0x007f_ffff,
    0x0080_0000,
    0x7f7f_ffff,
    0xff7f_ffff,
];

/// A seeded random instruction of `form`: masks full, empty (when `empty` is set), single
/// lanes, halves, alternating, sparse or random; sources random, special or a mix.
pub fn random_inst(state: &mut u64, form: ReduxForm, empty: bool) -> ReduxInst {
    let mut next = || sim::splitmix64_next(state);
    let mask = match next() % 9 {
        0 => u32::MAX,
        1 if empty => 0,
        1 => 1,
        2 => 1 << (next() % 32),
        3 => (next() & next() & next()) as u32,
        4 => 0xaaaa_aaaa,
        5 => 0xffff_0000,
        _ => next() as u32,
    };
    let mode = next() % 4;
    let src = std::array::from_fn(|_| {
        let r = next();
        let pick = SPECIALS[(r >> 40) as usize % SPECIALS.len()];
        match mode {
            0 => r as u32,
            1 => pick,
            2 => SPECIALS[(r >> 40) as usize % 8] ^ (r as u32 & 3),
            _ => {
                if r % 3 == 0 {
                    pick
                } else {
                    (r >> 8) as u32
                }
            }
        }
    });
    ReduxInst { form, mask, src }
}

// ---------------------------------------------------------------------------------------
// The Verilated block.
// ---------------------------------------------------------------------------------------

unsafe extern "C" {
    fn redunit_redux_new(latency: u32) -> *mut c_void;
    fn redunit_redux_free(h: *mut c_void);
    fn redunit_redux_cycle(h: *mut c_void) -> u64;
    fn redunit_redux_idle(h: *mut c_void, cycles: u64);
    fn redunit_redux_run(
        h: *mut c_void,
        n: u64,
        forms: *const u8,
        masks: *const u32,
        src: *const u32,
        out_result: *mut u32,
        out_lanes: *mut u32,
        out_forms: *mut u8,
        out_masks: *mut u32,
        bad_index: *mut i64,
        bad_latency: *mut i64,
    ) -> i64;
}

/// Idle cycles clocked into a new model before the first instruction.
pub const FLUSH_CYCLES: u64 = hw::REDUX_LATENCY as u64 + 4;

/// One Verilated `hw::ReduxSync` with its own simulation context.
pub struct RtlRedux {
    h: NonNull<c_void>,
    forms: Vec<u8>,
    masks: Vec<u32>,
    src: Vec<u32>,
    result: Vec<u32>,
    lanes: Vec<u32>,
    out_forms: Vec<u8>,
    out_masks: Vec<u32>,
}

// The handle is only touched through `&mut self`; the model has its own VerilatedContext.
unsafe impl Send for RtlRedux {}

impl RtlRedux {
    /// The model, flushed.
    pub fn new() -> Self {
        let h = unsafe { redunit_redux_new(hw::REDUX_LATENCY as u32) };
        let mut r = Self {
            h: NonNull::new(h).expect("creating the Verilated redux block"),
            forms: Vec::new(),
            masks: Vec::new(),
            src: Vec::new(),
            result: Vec::new(),
            lanes: Vec::new(),
            out_forms: Vec::new(),
            out_masks: Vec::new(),
        };
        r.idle(FLUSH_CYCLES);
        r
    }

    /// The current clock cycle (the next instruction is driven in this cycle).
    pub fn cycle(&self) -> u64 {
        unsafe { redunit_redux_cycle(self.h.as_ptr()) }
    }

    /// Clocks `cycles` cycles with no instruction.
    pub fn idle(&mut self, cycles: u64) {
        unsafe { redunit_redux_idle(self.h.as_ptr(), cycles) }
    }

    /// Runs `insts` one per cycle and appends their results to `out`. The pipeline contract
    /// (one result per instruction, exactly `REDUX_LATENCY` cycles later, with its form and
    /// mask, and `out_lanes` = the result in the mask's lanes and 0 elsewhere) is checked; a
    /// broken one is an error that downcasts to [`ProtocolError`].
    pub fn run(&mut self, insts: &[ReduxInst], out: &mut Vec<u32>) -> anyhow::Result<()> {
        let n = insts.len();
        if n == 0 {
            return Ok(());
        }
        self.forms.clear();
        self.masks.clear();
        self.src.clear();
        for i in insts {
            self.forms.push(i.form.code());
            self.masks.push(i.mask);
            self.src.extend_from_slice(&i.src);
        }
        self.result.clear();
        self.result.resize(n, 0);
        self.lanes.clear();
        self.lanes.resize(n * LANES, 0);
        self.out_forms.clear();
        self.out_forms.resize(n, 0);
        self.out_masks.clear();
        self.out_masks.resize(n, 0);
        let (mut bad_index, mut bad_latency) = (-1i64, 0i64);
        let got = unsafe {
            redunit_redux_run(
                self.h.as_ptr(),
                n as u64,
                self.forms.as_ptr(),
                self.masks.as_ptr(),
                self.src.as_ptr(),
                self.result.as_mut_ptr(),
                self.lanes.as_mut_ptr(),
                self.out_forms.as_mut_ptr(),
                self.out_masks.as_mut_ptr(),
                &mut bad_index,
                &mut bad_latency,
            )
        } as usize;
        let lat = hw::REDUX_LATENCY;
        let err = |index: usize, msg: String| -> anyhow::Result<()> { Err(ProtocolError { index, msg }.into()) };
        if got < n {
            return err(
                got,
                format!("{n} instructions went in but only {got} results came out (hw::REDUX_LATENCY = {lat})"),
            );
        }
        if bad_index >= 0 {
            return err(
                bad_index as usize,
                format!("its result came out after {bad_latency} cycles, but hw::REDUX_LATENCY = {lat}"),
            );
        }
        if got > n {
            return err(n - 1, format!("{n} instructions went in but out_valid was high {got} times"));
        }
        for (k, inst) in insts.iter().enumerate() {
            if self.out_forms[k] != inst.form.code() || self.out_masks[k] != inst.mask {
                return err(
                    k,
                    format!(
                        "out_form/out_mask are {:#04x}/{:08x}, but the instruction was {} ({:#04x}) with mask {:08x}",
                        self.out_forms[k],
                        self.out_masks[k],
                        inst.form,
                        inst.form.code(),
                        inst.mask
                    ),
                );
            }
            let r = self.result[k];
            for (lane, &v) in self.lanes[k * LANES..(k + 1) * LANES].iter().enumerate() {
                let want = if inst.mask >> lane & 1 == 1 { r } else { 0 };
                if v != want {
                    return err(
                        k,
                        format!(
                            "out_lanes lane {lane} is {v:08x}, but out_result is {r:08x} and the mask {:08x}",
                            inst.mask
                        ),
                    );
                }
            }
        }
        out.extend_from_slice(&self.result);
        Ok(())
    }
}

impl Default for RtlRedux {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for RtlRedux {
    fn drop(&mut self) {
        unsafe { redunit_redux_free(self.h.as_ptr()) }
    }
}

impl ReduxEngine for RtlRedux {
    fn execute(&mut self, insts: &[ReduxInst], out: &mut Vec<u32>) -> anyhow::Result<()> {
        self.run(insts, out)
    }
}

/// The outcome of [`random_regression`].
#[derive(Clone, Debug)]
pub struct RegressionReport {
    pub insts: usize,
    pub mismatches: usize,
    /// Up to ten mismatches, described.
    pub failures: Vec<String>,
    pub seconds: f64,
}

/// `n` seeded random instructions of all 17 forms (f32 specials and empty masks included)
/// through the Verilated block, one per cycle in batches of 65,536, each checked against the
/// golden model.
pub fn random_regression(seed: u64, n: usize) -> anyhow::Result<RegressionReport> {
    random_regression_from(seed, 0, n)
}

/// [`random_regression`] of the instructions `first..first + n` of a stream whose instruction
/// i has form `i mod 17` (a shard of a regression: the shards' forms add up to the whole's).
pub fn random_regression_from(seed: u64, first: usize, n: usize) -> anyhow::Result<RegressionReport> {
    let t = std::time::Instant::now();
    let forms = ReduxForm::all();
    let mut state = seed;
    let mut rtl = RtlRedux::new();
    let mut report = RegressionReport { insts: 0, mismatches: 0, failures: Vec::new(), seconds: 0.0 };
    let mut got = Vec::new();
    let mut done = 0;
    while done < n {
        let k = (n - done).min(65_536);
        let insts: Vec<ReduxInst> =
            (done..done + k).map(|i| random_inst(&mut state, forms[(first + i) % forms.len()], true)).collect();
        got.clear();
        rtl.execute(&insts, &mut got)?;
        for (i, g) in insts.iter().zip(&got) {
            let want = reduce(i.form, i.mask, &i.src);
            if *g != want {
                report.mismatches += 1;
                if report.failures.len() < 10 {
                    report.failures.push(format!(
                        "{} mask {:08x} src {:08x?}: expected {want:08x} got {g:08x}",
                        i.form, i.mask, i.src
                    ));
                }
            }
        }
        done += k;
    }
    report.insts = n;
    report.seconds = t.elapsed().as_secs_f64();
    Ok(report)
}

// ---------------------------------------------------------------------------------------
// Figures for BENCHMARKS.md.
// ---------------------------------------------------------------------------------------

/// Latency, throughput and cosimulation speed of the Verilated block on `n` random
/// instructions (all 17 forms interleaved, every result checked against the golden model);
/// returns the report as text.
pub fn bench(n: usize, seed: u64) -> anyhow::Result<String> {
    use std::time::Instant;
    let forms = ReduxForm::all();
    let mut state = seed;
    let insts: Vec<ReduxInst> = (0..n).map(|k| random_inst(&mut state, forms[k % forms.len()], true)).collect();
    // Golden model alone.
    let t = Instant::now();
    let mut want = Vec::with_capacity(n);
    ModelRedux.execute(&insts, &mut want)?;
    let model_s = t.elapsed().as_secs_f64();
    // One isolated instruction: the shim checks that its result comes out REDUX_LATENCY
    // cycles after it went in (and so for every instruction below).
    let mut rtl = RtlRedux::new();
    let mut one = Vec::new();
    rtl.execute(&insts[..1], &mut one)?;
    // The stream, one instruction per cycle, checked.
    let start = rtl.cycle();
    let t = Instant::now();
    let mut got = Vec::with_capacity(n);
    for chunk in insts.chunks(65_536) {
        rtl.execute(chunk, &mut got)?;
    }
    let bad = got.iter().zip(&want).filter(|(g, w)| g != w).count();
    let rtl_s = t.elapsed().as_secs_f64();
    let cycles = rtl.cycle() - start;
    let chunks = n.div_ceil(65_536) as u64;
    // Each batch ends with REDUX_LATENCY + 1 drain cycles; the rest are issue cycles.
    let issue = cycles - chunks * (hw::REDUX_LATENCY as u64 + 1);
    if bad > 0 {
        bail!("{bad} of {n} RTL results differ from the golden model");
    }
    Ok(format!(
        "redux.sync block (hw::ReduxSync), {n} random instructions, all 17 forms, checked against the model\n\
         latency: {} cycles (checked on every instruction)\n\
         throughput: {:.3} instructions/cycle ({n} instructions issued in {issue} cycles)\n\
         cosimulation (Verilator + check): {:.2} M instructions/s ({:.2} M cycles/s)\n\
         golden model alone: {:.2} M instructions/s\n",
        hw::REDUX_LATENCY,
        n as f64 / issue as f64,
        n as f64 / rtl_s / 1e6,
        cycles as f64 / rtl_s / 1e6,
        n as f64 / model_s / 1e6,
    ))
}
