//! Cosimulation: streams of operations through the Verilated ALU, checked op by op against the
//! golden model (`redunit regress`, `tests/rtl_regression.rs`), and the failure report with a
//! waveform of the window around the first mismatch.

use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Instant;

use sim::Form;

use crate::engine::{AluOp, golden, result_mask};
use crate::hex;
use crate::rtl::{CLOCK_PERIOD_NS, ProtocolError, RtlAlu, trace_window};
use crate::stimulus::Stimulus;

/// Mismatches after which a run stops.
pub const MAX_ERRORS: usize = 20;
/// Operations before the first failure that the failure waveform replays.
pub const WINDOW_BEFORE: usize = 32;
/// Operations after it.
pub const WINDOW_AFTER: usize = 8;
/// Operations handed to the RTL per FFI call.
pub const BATCH: usize = 8192;

/// One operation where the RTL disagrees with the reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// Index in the stream.
    pub index: u64,
    pub op: AluOp,
    pub expected: u128,
    /// `None` where the RTL broke the pipeline contract instead of returning a value.
    pub got: Option<u128>,
    /// The cycle in which the operation was driven.
    pub cycle: u64,
    /// What broke, for a protocol error.
    pub note: Option<String>,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bits = self.op.form.bytes() as u32 * 8;
        write!(
            f,
            "op {} ({}) cycle {}: old {} b {} expected {} got {}",
            self.index,
            self.op.form,
            self.cycle,
            hex::format(self.op.old, bits),
            hex::format(self.op.b, bits),
            hex::format(self.expected, bits),
            self.got.map_or_else(|| "nothing".to_string(), |g| hex::format(g, bits)),
        )?;
        if let Some(n) = &self.note {
            write!(f, " ({n})")?;
        }
        Ok(())
    }
}

/// The waveform written around the first failure.
#[derive(Clone, Debug)]
pub struct FailureVcd {
    pub path: PathBuf,
    /// The cycle of the failing operation in the waveform (at `10 * cycle` ns).
    pub cycle: u64,
}

/// The outcome of a checked stream.
#[derive(Clone, Debug, Default)]
pub struct StreamReport {
    pub ops: u64,
    pub forms: BTreeSet<Form>,
    /// Operations checked, by form.
    pub per_form: std::collections::BTreeMap<Form, u64>,
    pub mismatches: u64,
    pub failures: Vec<Failure>,
    /// True when the run stopped early at [`MAX_ERRORS`] or on a protocol error.
    pub stopped: bool,
    pub seconds: f64,
    pub vcd: Option<FailureVcd>,
}

impl StreamReport {
    pub fn ops_per_sec(&self) -> f64 {
        self.ops as f64 / self.seconds.max(1e-9)
    }
}

/// The check of a batch against a reference, one form at a time.
///
/// The golden model's branches follow the form (vector or scalar, type, operation, space): in
/// stream order, where the form changes from one operation to the next, they are mispredicted,
/// and the check costs about 35 ns an operation; with the operations of one form together,
/// about 20 (dev-2c, BENCHMARKS.md). Every operation is still checked once; the
/// mismatches come back in stream order.
#[derive(Default)]
pub struct GroupedCheck {
    codes: Vec<u16>,
    order: Vec<u32>,
    start: Vec<u32>,
    bad: Vec<usize>,
}

impl GroupedCheck {
    /// The indices of the operations of `ops` whose results `got` differ from `reference`
    /// (compared on [`result_mask`]), in order; `seen[code]` is set for each form present
    /// (`seen` has a place for every form code: `1 << CODE_WIDTH`).
    pub fn mismatches(
        &mut self,
        ops: &[AluOp],
        got: &[u128],
        reference: &impl Fn(&AluOp) -> u128,
        seen: &mut [bool],
    ) -> &[usize] {
        let n = ops.len().min(got.len());
        self.codes.clear();
        self.codes.extend(ops[..n].iter().map(|op| op.form.code()));
        // A counting sort of the indices by form code.
        self.start.clear();
        self.start.resize(seen.len() + 1, 0);
        for &c in &self.codes {
            self.start[c as usize + 1] += 1;
        }
        for c in 0..seen.len() {
            seen[c] |= self.start[c + 1] > 0;
            self.start[c + 1] += self.start[c];
        }
        self.order.clear();
        self.order.resize(n, 0);
        for (i, &c) in self.codes.iter().enumerate() {
            let at = &mut self.start[c as usize];
            self.order[*at as usize] = i as u32;
            *at += 1;
        }
        self.bad.clear();
        for &i in &self.order {
            let op = &ops[i as usize];
            let m = result_mask(op.form);
            if got[i as usize] & m != reference(op) & m {
                self.bad.push(i as usize);
            }
        }
        self.bad.sort_unstable();
        &self.bad
    }
}

/// Runs `n` random operations from `seed` through `rtl` and compares each with the golden
/// model. Stops after `max_errors` mismatches (normally [`MAX_ERRORS`]) (or a protocol error) and, when `vcd` is
/// given, writes the window around the first failure there. `progress(done)` is called after
/// each batch.
pub fn random_regression(
    rtl: &mut RtlAlu,
    seed: u64,
    n: u64,
    max_errors: usize,
    vcd: Option<&Path>,
    progress: impl FnMut(u64),
) -> anyhow::Result<StreamReport> {
    random_regression_against(rtl, seed, n, max_errors, vcd, golden, progress)
}

/// [`random_regression`] against another reference than the golden model (the tests use a
/// deliberately wrong one to exercise the failure report).
pub fn random_regression_against(
    rtl: &mut RtlAlu,
    seed: u64,
    n: u64,
    max_errors: usize,
    vcd: Option<&Path>,
    reference: impl Fn(&AluOp) -> u128,
    mut progress: impl FnMut(u64),
) -> anyhow::Result<StreamReport> {
    let t = Instant::now();
    let mut report = StreamReport::default();
    let mut prev: Vec<AluOp> = Vec::new();
    let mut results = Vec::with_capacity(BATCH);
    // (index of the first op of `prev`, cycle of it)
    let mut prev_at = (0u64, 0u64);
    let mut first_window: Option<(Vec<AluOp>, u64, usize)> = None;
    let mut done = 0u64;
    let mut seen = vec![false; 1 << sim::form::encoding::CODE_WIDTH];
    let mut counts = vec![0u64; 1 << sim::form::encoding::CODE_WIDTH];
    let mut check = GroupedCheck::default();
    // The stimulus is generated on a second thread, a batch or two ahead of the RTL and the
    // check (it costs about as much as both together).
    std::thread::scope(|s| -> anyhow::Result<()> {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<AluOp>>(2);
        s.spawn(move || {
            let mut stim = Stimulus::new(seed);
            let mut made = 0u64;
            while made < n {
                let k = (n - made).min(BATCH as u64) as usize;
                let mut v = Vec::with_capacity(k);
                stim.fill(k, &mut v);
                if tx.send(v).is_err() {
                    return;
                }
                made += k as u64;
            }
        });
        for cur in rx.iter() {
            let k = cur.len();
            for op in &cur {
                counts[op.form.code() as usize] += 1;
            }
            results.clear();
            let outcome = rtl.run(&cur, &mut results);
            let start = rtl.last_batch_start();
            let mut first_bad = None;
            match outcome {
                Ok(()) => {
                    for &i in check.mismatches(&cur, &results, &reference, &mut seen) {
                        let (op, got) = (cur[i], results[i]);
                        let m = result_mask(op.form);
                        report.mismatches += 1;
                        first_bad.get_or_insert(i);
                        if report.failures.len() < max_errors.min(MAX_ERRORS) {
                            report.failures.push(Failure {
                                index: done + i as u64,
                                op,
                                expected: reference(&op) & m,
                                got: Some(got & m),
                                cycle: start + i as u64,
                                note: None,
                            });
                        }
                    }
                }
                Err(e) => {
                    // (A checked batch's forms are marked by the check.)
                    for op in &cur {
                        seen[op.form.code() as usize] = true;
                    }
                    let pe = e.downcast::<ProtocolError>()?;
                    let op = cur[pe.index];
                    report.mismatches += 1;
                    report.failures.push(Failure {
                        index: done + pe.index as u64,
                        op,
                        expected: reference(&op) & result_mask(op.form),
                        got: None,
                        cycle: start + pe.index as u64,
                        note: Some(pe.msg),
                    });
                    first_bad = Some(pe.index);
                    report.stopped = true;
                }
            }
            if let (Some(i), None) = (first_bad, &first_window) {
                // The window: up to WINDOW_BEFORE ops before the failure (from the previous batch
                // too), and WINDOW_AFTER after it.
                let from_cur = i.min(WINDOW_BEFORE);
                let from_prev = (WINDOW_BEFORE - from_cur).min(prev.len());
                let mut w: Vec<AluOp> = prev[prev.len() - from_prev..].to_vec();
                w.extend_from_slice(&cur[i - from_cur..(i + 1 + WINDOW_AFTER).min(cur.len())]);
                let first_cycle = if from_prev > 0 {
                    prev_at.1 + (prev.len() - from_prev) as u64
                } else {
                    start + (i - from_cur) as u64
                };
                first_window = Some((w, first_cycle, from_prev + from_cur));
            }
            done += k as u64;
            report.ops = done;
            if report.mismatches >= max_errors as u64 {
                report.stopped = true;
            }
            progress(done);
            prev_at = (done - k as u64, start);
            prev = cur;
            if report.stopped {
                break;
            }
        }
        drop(rx);
        Ok(())
    })?;
    report.forms = (0..seen.len()).filter(|&c| seen[c]).filter_map(|c| Form::from_code(c as u16)).collect();
    report.per_form = (0..counts.len())
        .filter(|&c| counts[c] > 0)
        .filter_map(|c| Some((Form::from_code(c as u16)?, counts[c])))
        .collect();
    report.seconds = t.elapsed().as_secs_f64();
    if let (Some(path), Some((w, first_cycle, pos))) = (vcd, first_window) {
        let c0 = trace_window(path, &w, first_cycle)?;
        report.vcd = Some(FailureVcd { path: path.to_path_buf(), cycle: c0 + pos as u64 });
    }
    Ok(report)
}

/// Writes the failure waveform of a run of `ops` in which `ops[index]`, driven in cycle
/// `cycle`, failed: the window of [`WINDOW_BEFORE`] operations before it and
/// [`WINDOW_AFTER`] after.
pub fn failure_vcd(path: &Path, ops: &[AluOp], index: usize, cycle: u64) -> anyhow::Result<FailureVcd> {
    let lo = index.saturating_sub(WINDOW_BEFORE);
    let hi = (index + 1 + WINDOW_AFTER).min(ops.len());
    let c0 = trace_window(path, &ops[lo..hi], cycle - (index - lo) as u64)?;
    Ok(FailureVcd { path: path.to_path_buf(), cycle: c0 + (index - lo) as u64 })
}

/// Describes where in a waveform a cycle is.
pub fn vcd_time(cycle: u64) -> String {
    format!("cycle {cycle}, rising edge at {} ns", cycle * CLOCK_PERIOD_NS + CLOCK_PERIOD_NS / 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every operation is checked, whatever its form, and the mismatches come back in stream
    /// order although the check runs form by form.
    #[test]
    fn grouped_check_finds_every_mismatch_in_stream_order() {
        let seed = crate::stimulus::seed_from_env().expect("REDUNIT_SEED");
        println!("grouped check seed {seed:#x} (rerun with REDUNIT_SEED={seed:#x})");
        let mut ops = Vec::new();
        Stimulus::new(seed).fill(5000, &mut ops);
        let mut got: Vec<u128> = ops.iter().map(golden).collect();
        // Wrong results at scattered indices, on the lowest bit of the result.
        let mut rng = seed;
        let mut wrong: Vec<usize> =
            (0..60).map(|_| (sim::splitmix64_next(&mut rng) % ops.len() as u64) as usize).collect();
        wrong.sort_unstable();
        wrong.dedup();
        for &i in &wrong {
            got[i] ^= 1;
        }
        // Above the result's bytes, a difference is not one (scalars drive only their bytes).
        let scalar = ops.iter().position(|op| op.form.bytes() < 16).expect("a scalar form");
        if !wrong.contains(&scalar) {
            got[scalar] ^= 1u128 << 127;
        }
        let mut seen = vec![false; 1 << sim::form::encoding::CODE_WIDTH];
        let mut check = GroupedCheck::default();
        assert_eq!(check.mismatches(&ops, &got, &golden, &mut seen), &wrong[..]);
        for (code, &s) in seen.iter().enumerate() {
            assert_eq!(s, ops.iter().any(|op| op.form.code() as usize == code), "form code {code:#x}");
        }
        // Reused, with no mismatch left.
        for &i in &wrong {
            got[i] ^= 1;
        }
        assert!(check.mismatches(&ops, &got, &golden, &mut seen).is_empty());
    }
}
