//! `redunit bench-alu`: the cosimulation speed of the Verilated ALU, its parts, and rust-hdl's
//! own simulator on the same block.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use testbench::cosim;
use testbench::engine::{AluOp, golden, result_mask};
use testbench::rtl::RtlAlu;
use testbench::stimulus::Stimulus;

/// Drives `hw::ReductionAlu` through rust-hdl's `simulate` for `n` ops, one per cycle, with
/// the same golden-model check; returns (ops/s, mismatches).
fn rust_hdl_speed(n: u64) -> (f64, u64) {
    use rust_hdl::prelude::*;
    fn to_bits(v: u128) -> Bits<128> {
        let mut b = Bits::<128>::default();
        b.set_bits::<64>(0, (v as u64).into());
        b.set_bits::<64>(64, ((v >> 64) as u64).into());
        b
    }
    let mut uut = hw::ReductionAlu::default();
    uut.connect_all();
    let mut stim = Stimulus::new(1);
    let mut ops: Vec<AluOp> = Vec::new();
    stim.fill(n as usize, &mut ops);
    let lat = hw::ALU_LATENCY;
    let mut bad = 0u64;
    let t = Instant::now();
    for c in 0..n as usize + lat {
        uut.clock.next = Clock { clk: false };
        if let Some(op) = ops.get(c) {
            uut.in_valid.next = true;
            uut.in_form.next = (op.form.code() as u64).into();
            uut.in_old.next = to_bits(op.old);
            uut.in_b.next = to_bits(op.b);
        } else {
            uut.in_valid.next = false;
        }
        assert!(simulate(&mut uut, 100), "rust-hdl simulation did not settle");
        if c >= lat && uut.out_valid.val() {
            let op = &ops[c - lat];
            let m = result_mask(op.form);
            if uut.out_data.val().to_u128() & m != golden(op) & m {
                bad += 1;
            }
        }
        uut.clock.next = Clock { clk: true };
        assert!(simulate(&mut uut, 100), "rust-hdl simulation did not settle");
    }
    (n as f64 / t.elapsed().as_secs_f64(), bad)
}

/// `redunit bench-alu`: `n` operations through the Verilated ALU, `hdl_n` through rust-hdl.
pub fn bench_alu(n: u64, hdl_n: u64) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "bench-alu: hw::ReductionAlu, latency {}, {}", hw::ALU_LATENCY, testbench::rtl::VERILATOR_VERSION)?;
    // 1. Cosimulation as `regress` runs it: stimulus, RTL, golden-model check.
    let mut rtl = RtlAlu::new();
    let mut res = Vec::with_capacity(cosim::BATCH);
    let r = cosim::random_regression(&mut rtl, 1, n, usize::MAX, None, |_| {})?;
    let cosim = r.ops_per_sec();
    writeln!(
        out,
        "regress stream (stimulus on a 2nd thread, RTL + check):    {:>12.0} ops/s  ({} ops, {:.2} s, {} mismatches)",
        cosim, r.ops, r.seconds, r.mismatches
    )?;
    // 2. The parts: stimulus generation, the RTL alone, the RTL with the check, on
    //    pre-generated ops.
    let mut ops = Vec::new();
    let t = Instant::now();
    Stimulus::new(2).fill(n as usize, &mut ops);
    writeln!(
        out,
        "stimulus generation alone:                               {:>12.0} ops/s",
        n as f64 / t.elapsed().as_secs_f64()
    )?;
    let (cosim1, bad, rtl_only) = rtl_speed(&mut rtl, &ops, &mut res)?;
    std::hint::black_box(bad);
    writeln!(out, "verilator RTL + golden check, one core (pre-generated):  {:>12.0} ops/s", cosim1)?;
    writeln!(out, "verilator RTL alone (batches of {}):                    {:>12.0} ops/s", cosim::BATCH, rtl_only)?;
    // 2b. The same with the split model (the ALU's own logic and the units' lanes as separate
    //     models, a lane clocked only when an operation uses it).
    let mut split = RtlAlu::split();
    let r = cosim::random_regression(&mut split, 1, n, usize::MAX, None, |_| {})?;
    writeln!(
        out,
        "split model: regress stream (RTL + check):                {:>12.0} ops/s  ({} mismatches)",
        r.ops_per_sec(),
        r.mismatches
    )?;
    let (split1, bad, split_only) = rtl_speed(&mut split, &ops, &mut res)?;
    writeln!(
        out,
        "split model: RTL + golden check, one core (pre-generated): {:>12.0} ops/s  ({bad} mismatches)",
        split1
    )?;
    writeln!(out, "split model: RTL alone:                                   {:>12.0} ops/s", split_only)?;
    let stream = rtl_speed_stream_order(&mut split, &ops, &mut res)?;
    writeln!(out, "split model: RTL + check in stream order (not grouped):   {:>12.0} ops/s", stream)?;
    // 3. The golden model alone.
    let t = Instant::now();
    let mut acc = 0u128;
    for op in &ops {
        acc ^= golden(op);
    }
    std::hint::black_box(acc);
    writeln!(
        out,
        "golden model alone:                                      {:>12.0} ops/s",
        n as f64 / t.elapsed().as_secs_f64()
    )?;
    // 3b. The golden check as `regress` runs it: the RTL's results compared form by form.
    let mut expected = Vec::with_capacity(ops.len());
    expected.extend(ops.iter().map(golden));
    let (mut check, mut seen) = (cosim::GroupedCheck::default(), vec![false; 1 << sim::form::encoding::CODE_WIDTH]);
    let t = Instant::now();
    let bad: usize = ops
        .chunks(cosim::BATCH)
        .zip(expected.chunks(cosim::BATCH))
        .map(|(o, e)| check.mismatches(o, e, &golden, &mut seen).len())
        .sum();
    writeln!(
        out,
        "golden check alone, grouped by form (cosim::GroupedCheck): {:>10.0} ops/s  ({bad} mismatches)",
        n as f64 / t.elapsed().as_secs_f64()
    )?;
    // 4. rust-hdl's own simulator.
    let (hdl, hdl_bad) = rust_hdl_speed(hdl_n);
    writeln!(
        out,
        "rust-hdl simulate() loop + golden check, one core:        {:>12.0} ops/s  ({hdl_n} ops, {hdl_bad} mismatches)",
        hdl
    )?;
    writeln!(out, "ratio, one core, RTL + golden check: verilator / rust-hdl = {:.1}x", cosim1 / hdl)?;
    writeln!(out, "ratio, regress stream / rust-hdl = {:.1}x", cosim / hdl)?;
    writeln!(
        out,
        "ratio, one core, RTL + golden check: split model / rust-hdl = {:.1}x, split / full model = {:.2}x",
        split1 / hdl,
        split1 / cosim1
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `ops` through `rtl` in batches with the golden check, then without: (ops/s with the check,
/// mismatches, ops/s without).
fn rtl_speed(rtl: &mut RtlAlu, ops: &[AluOp], res: &mut Vec<u128>) -> anyhow::Result<(f64, u64, f64)> {
    // (The check as `regress` does it: grouped by form, cosim::GroupedCheck.)
    let mut check = cosim::GroupedCheck::default();
    let mut seen = vec![false; 1 << sim::form::encoding::CODE_WIDTH];
    let (checked, bad) =
        checked_speed(rtl, ops, res, |chunk, res| check.mismatches(chunk, res, &golden, &mut seen).len() as u64)?;
    let t = Instant::now();
    for chunk in ops.chunks(cosim::BATCH) {
        res.clear();
        rtl.run(chunk, res)?;
    }
    Ok((checked, bad, ops.len() as f64 / t.elapsed().as_secs_f64()))
}

/// [`rtl_speed`]'s check in stream order instead of grouped by form: ops/s.
fn rtl_speed_stream_order(rtl: &mut RtlAlu, ops: &[AluOp], res: &mut Vec<u128>) -> anyhow::Result<f64> {
    let check = |chunk: &[AluOp], res: &[u128]| -> u64 {
        chunk
            .iter()
            .zip(res)
            .map(|(op, r)| {
                let m = result_mask(op.form);
                (r & m != golden(op) & m) as u64
            })
            .sum()
    };
    Ok(checked_speed(rtl, ops, res, check)?.0)
}

/// `ops` through `rtl` in batches of [`cosim::BATCH`], each checked by `check` (which returns
/// its mismatches): (ops/s, mismatches).
fn checked_speed(
    rtl: &mut RtlAlu,
    ops: &[AluOp],
    res: &mut Vec<u128>,
    mut check: impl FnMut(&[AluOp], &[u128]) -> u64,
) -> anyhow::Result<(f64, u64)> {
    let t = Instant::now();
    let mut bad = 0u64;
    for chunk in ops.chunks(cosim::BATCH) {
        res.clear();
        rtl.run(chunk, res)?;
        bad += check(chunk, res);
    }
    Ok((ops.len() as f64 / t.elapsed().as_secs_f64(), bad))
}
