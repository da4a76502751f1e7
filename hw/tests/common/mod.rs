//! Shared test helpers: seeded random operands, special operands per format, a hand-driven
//! clocked simulation of a pipelined block, and the Yosys/Verilator lint of generated Verilog.
#![allow(dead_code)]

use rust_hdl::prelude::*;
use sim::{Form, Type};
use std::path::PathBuf;
use std::process::Command;

/// The seed of the random tests: `REDUNIT_SEED` or a fixed default; printed so a failure
/// can be rerun.
pub fn seed(test: &str) -> u64 {
    let s = std::env::var("REDUNIT_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x5eed);
    eprintln!("{test}: seed {s} (rerun with REDUNIT_SEED={s})");
    s
}

/// splitmix64 (the project's seeded random source).
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        sim::splitmix64_next(&mut self.0)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Special operands of a binary floating-point format with `e` exponent and `f` fraction
/// bits: signed zeros, subnormals, normals at the edges, one and its neighbours, values
/// whose sum ties, infinities, quiet and signalling NaNs.
pub fn fp_specials(e: u32, f: u32) -> Vec<u64> {
    let bias = (1u64 << (e - 1)) - 1;
    let exp = |x: u64| x << f;
    let max_exp = (1u64 << e) - 1;
    let frac_max = (1u64 << f) - 1;
    let quiet = 1u64 << (f - 1);
    let one = exp(bias);
    let mags = [
        0,
        1,
        2,
        frac_max, // largest subnormal
        quiet,    // half the smallest normal
        exp(1),   // smallest normal
        exp(1) | 1,
        exp(2),
        one,                      // 1.0
        one | 1,                  // 1 + ulp
        one - 1,                  // 1 - ulp/2 (largest below one)
        exp(bias - 1),            // 0.5
        exp(bias - f as u64 - 1), // half an ulp of one: 1 + this ties
        exp(bias - f as u64),     // an ulp of one
        exp(bias + f as u64),     // 2^f: integers above round
        exp(bias + f as u64) | 1,
        exp(bias + f as u64 + 1) | 1,
        exp(max_exp - 1) | frac_max, // largest normal
        exp(max_exp - 1),
        exp(max_exp),            // infinity
        exp(max_exp) | quiet,    // quiet NaN
        exp(max_exp) | 1,        // signalling NaN
        exp(max_exp) | frac_max, // all-ones NaN
        exp(max_exp) | quiet | 5,
    ];
    let sign = 1u64 << (e + f);
    mags.iter().flat_map(|&m| [m, m | sign]).collect()
}

/// A random operand pair for a floating-point format: fully random, or with close exponents
/// (cancellation, ties, carries), or one special and one random.
pub fn fp_pair(rng: &mut Rng, e: u32, f: u32, specials: &[u64]) -> (u64, u64) {
    let w = 1 + e + f;
    let mask = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
    let a = rng.next() & mask;
    let mut b = rng.next() & mask;
    match rng.below(4) {
        0 => {}
        1 | 2 => {
            // b's exponent within 3 of a's (same binade, neighbour, far enough to round).
            let emask = ((1u64 << e) - 1) << f;
            let ae = (a & emask) >> f;
            let d = rng.below(7) as i64 - 3;
            let be = (ae as i64 + d).clamp(0, (1i64 << e) - 2) as u64;
            b = (b & !emask) | (be << f);
            if rng.below(4) == 0 {
                // Few significant bits: exact results and exact ties.
                b &= !((1u64 << (f / 2)) - 1);
            }
        }
        _ => b = specials[rng.below(specials.len())],
    }
    if rng.below(2) == 0 { (a, b) } else { (b, a) }
}

/// Drives a pipelined block: `inputs[k]` is applied in cycle k, and the output read in cycle
/// `k + latency` is returned as the result of `inputs[k]`. `set_clock` drives the block's
/// clock, `drive` its inputs, `read` its outputs.
pub fn stream<B: Block, I, O>(
    uut: &mut B,
    latency: usize,
    inputs: &[I],
    set_clock: impl Fn(&mut B, bool),
    mut drive: impl FnMut(&mut B, &I),
    read: impl Fn(&B) -> O,
) -> Vec<O> {
    let mut out = Vec::with_capacity(inputs.len());
    let total = inputs.len() + latency;
    for k in 0..total {
        set_clock(uut, false);
        if k < inputs.len() {
            drive(uut, &inputs[k]);
        }
        assert!(simulate(uut, 1000), "did not settle");
        if k >= latency {
            out.push(read(uut));
        }
        set_clock(uut, true);
        assert!(simulate(uut, 1000), "did not settle");
    }
    out
}

/// A `Bits<N>` from a u128.
pub fn b128<const N: usize>(v: u128) -> Bits<N> {
    hw::fp_add::bits_u128::<N>(v)
}

/// A u128 from a `Bits<N>`.
pub fn u128_of<const N: usize>(b: Bits<N>) -> u128 {
    if N <= 64 {
        b.to_u64() as u128
    } else {
        let lo = b.get_bits::<64>(0).to_u64() as u128;
        let hi = b.get_bits::<64>(64).to_u64() as u128;
        lo | (hi << 64)
    }
}

/// Yosys' check that a netlist holds no latch cells (word-level and gate-level).
pub const NO_LATCHES: &str = "select -assert-none t:$dlatch t:$adlatch t:$dlatchsr t:$_DLATCH_* t:$_DLATCHSR_*";

/// Runs the Yosys `script` on `verilog` (as `top.v`) in a fresh folder `<tmp>/<group>/<name>`;
/// returns the log, failing the test with the log's end if Yosys fails.
pub fn yosys(group: &str, name: &str, verilog: &str, script: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(group).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("top.v"), verilog).unwrap();
    let out = Command::new("yosys").current_dir(&dir).args(["-q", "-l", "yosys.log", "-p", script]).output().unwrap();
    let log = std::fs::read_to_string(dir.join("yosys.log")).unwrap_or_default();
    assert!(
        out.status.success(),
        "yosys failed on {name} ({}):\n{}\n{}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr),
        &log[log.len().saturating_sub(4000)..]
    );
    log
}

/// The `TRELLIS_FF`s that `synth_ecp5` makes of `verilog` with `REDUNIT_ECP5` defined (the
/// ECP5 flow's replicas) and without it: (with, without).
pub fn ecp5_flip_flops(name: &str, verilog: &str) -> (usize, usize) {
    let count = |ecp5: bool| stat_count(&synth_ecp5_log(name, verilog, ecp5), "TRELLIS_FF");
    (count(true), count(false))
}

/// Whether Yosys proves that `verilog`'s `REDUNIT_ECP5` branch (read with Yosys' own ECP5 cell
/// models) equals its behavioural branch for every input: a miter of the two, `sat`.
pub fn ecp5_branch_proved_equal(name: &str, verilog: &str) -> bool {
    let log = yosys(
        "generic_synth",
        name,
        verilog,
        "read_verilog -DREDUNIT_ECP5 top.v; read_verilog +/ecp5/cells_sim.v; hierarchy -top top; \
         proc; flatten; rename top ecp5; design -stash ecp5; \
         read_verilog top.v; hierarchy -top top; proc; flatten; rename top plain; \
         design -copy-from ecp5 -as ecp5 ecp5; \
         miter -equiv -flatten -make_assert ecp5 plain miter; hierarchy -top miter; \
         sat -verify -prove-asserts miter",
    );
    log.contains("SUCCESS!")
}

/// The log of `synth_ecp5` on `verilog`, with `REDUNIT_ECP5` defined when `ecp5` (the ECP5
/// flow's cells) and without it (the behavioural branch).
pub fn synth_ecp5_log(name: &str, verilog: &str, ecp5: bool) -> String {
    let (define, suffix) = if ecp5 { ("-DREDUNIT_ECP5 ", "_ecp5") } else { ("", "") };
    let script = format!("read_verilog {define}top.v; synth_ecp5 -top top; check -assert; stat");
    yosys("generic_synth", &format!("{name}{suffix}"), verilog, &script)
}

/// The number after the cell type `name` in the last `stat` of a Yosys log (0 if absent).
pub fn stat_count(log: &str, name: &str) -> usize {
    let tail = &log[log.rfind("Number of cells").unwrap_or(0)..];
    tail.lines()
        .filter_map(|l| {
            let mut w = l.split_whitespace();
            (w.next() == Some(name)).then(|| w.next().and_then(|n| n.parse().ok())).flatten()
        })
        .next()
        .unwrap_or(0)
}

/// Checks generated Verilog (top module `top`): Yosys elaborates and synthesises it with no
/// latches and no undriven or multiply driven signals (`check -assert`), and
/// `verilator --lint-only -Wall` (with the waivers in `hw/lint/waivers.vlt`) is silent.
/// `full_synth`: run the whole generic `synth`; else `proc; opt_clean; check -assert`, which
/// finds the same latches and undriven signals in a fraction of the time.
pub fn lint(name: &str, verilog: &str, full_synth: bool) {
    let script = if full_synth {
        format!("read_verilog top.v; synth -top top; check -assert; {NO_LATCHES}")
    } else {
        "read_verilog top.v; hierarchy -check -top top; proc; opt_clean; check -assert; \
         select -assert-none t:$dlatch t:$adlatch t:$dlatchsr"
            .to_string()
    };
    let ylog = yosys("lint", name, verilog, &script);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("lint").join(name);
    assert!(!ylog.contains("Latch inferred"), "{name}: latch in {}", dir.display());
    let waivers = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("lint/waivers.vlt");
    let vl = Command::new("verilator")
        .current_dir(&dir)
        .args(["--lint-only", "-Wall", "--top-module", "top"])
        .arg(&waivers)
        .arg("top.v")
        .output()
        .unwrap();
    let msg = format!("{}{}", String::from_utf8_lossy(&vl.stdout), String::from_utf8_lossy(&vl.stderr));
    assert!(vl.status.success() && msg.trim().is_empty(), "verilator lint of {name} ({}):\n{msg}", dir.display());
}

/// Special values of one element of `ty`.
pub fn elem_specials(ty: Type) -> Vec<u64> {
    match ty {
        Type::F16 => fp_specials(5, 10),
        Type::Bf16 => fp_specials(8, 7),
        Type::F32 => fp_specials(8, 23),
        Type::F64 => fp_specials(11, 52),
        Type::F16x2 | Type::Bf16x2 => {
            let h = if ty == Type::F16x2 { fp_specials(5, 10) } else { fp_specials(8, 7) };
            h.iter().zip(h.iter().rev()).map(|(&lo, &hi)| lo | (hi << 16)).collect()
        }
        _ => {
            let m = sim::elem_mask(ty.bits());
            let top = 1u64 << (ty.bits() - 1);
            vec![0, 1, 2, m, m - 1, top, top - 1, top + 1]
        }
    }
}

/// An operand pair for `form`: each element special or random; bits above the form's width
/// random (the ALU must ignore them).
pub fn alu_operands(rng: &mut Rng, form: Form) -> (u128, u128) {
    let w = form.elem_bits();
    let sp = elem_specials(form.ty());
    let mask = sim::elem_mask(w) as u128;
    let mut m = (rng.next() as u128) << 64 | rng.next() as u128;
    let mut b = (rng.next() as u128) << 64 | rng.next() as u128;
    for i in 0..form.vec() as u32 {
        let sh = i * w;
        let pick = |x: &mut u128, rng: &mut Rng| {
            let v = match rng.below(3) {
                0 => sp[rng.below(sp.len())] as u128,
                _ => rng.next() as u128,
            };
            *x = (*x & !(mask << sh)) | ((v & mask) << sh);
        };
        pick(&mut m, rng);
        pick(&mut b, rng);
        if rng.below(4) == 0 {
            // Close operands: b = m with a few low bits changed (cancellation, ties).
            let e = (m >> sh) & mask;
            let v = (e ^ (rng.next() as u128 & 0x7)) ^ (rng.below(2) as u128) << (w - 1);
            b = (b & !(mask << sh)) | ((v & mask) << sh);
        }
    }
    (m, b)
}
