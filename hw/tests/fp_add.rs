//! The pipelined FP adders against the golden model (`sim::fp`), streaming one pair per
//! cycle: every pair of special operands, then seeded random pairs.

mod common;
use common::*;
use hw::config::{Config, FP_STAGES_MAX, FP_STAGES_MIN, FP16_STAGES_MAX, FP16_STAGES_MIN};
use hw::fp_add::{FP_ADD_LATENCY, FpAddF32, FpAddF64};
use hw::fp_add16::FpAdd16;
use rust_hdl::prelude::*;
use sim::fp::{self, Half};

/// (a, b, ftz, nan_quiet)
type Case = (u64, u64, bool, bool);

fn cases(test: &str, e: u32, f: u32, random: usize, flags: &[(bool, bool)]) -> Vec<Case> {
    let sp = fp_specials(e, f);
    let mut rng = Rng(seed(test));
    let mut v = Vec::new();
    for &(ftz, q) in flags {
        for &a in &sp {
            for &b in &sp {
                v.push((a, b, ftz, q));
            }
        }
        for _ in 0..random {
            let (a, b) = fp_pair(&mut rng, e, f, &sp);
            v.push((a, b, ftz, q));
        }
        // Exact cancellation (x + -x) and its neighbours one unit in the last place away:
        // the adders test for a zero sum from the operands.
        let sign = 1u64 << (e + f);
        for _ in 0..random / 8 {
            let a = rng.next() & ((sign << 1).wrapping_sub(1));
            v.push((a, a ^ sign, ftz, q));
            v.push((a, a ^ sign ^ 1, ftz, q));
        }
    }
    v
}

macro_rules! run_adder {
    ($ty:ty, $w:tt, $cases:expr) => {
        run_adder!($ty, $w, $cases, &Config::default())
    };
    ($ty:ty, $w:tt, $cases:expr, $cfg:expr) => {{
        let cfg: &Config = $cfg;
        let mut uut = <$ty>::new(cfg);
        uut.connect_all();
        stream(
            &mut uut,
            cfg.fp_add_latency(),
            $cases,
            |u, c| u.clock.next = c.into(),
            |u, &(a, b, ftz, q): &Case| {
                u.a.next = b128::<$w>(a as u128);
                u.b.next = b128::<$w>(b as u128);
                u.ftz.next = ftz;
                u.nan_quiet.next = q;
            },
            |u| u128_of(u.sum.val()) as u64,
        )
    }};
}

fn check(name: &str, cases: &[Case], got: &[u64], want: impl Fn(&Case) -> u64) {
    let mut bad = 0;
    for (c, &g) in cases.iter().zip(got) {
        let w = want(c);
        if g != w {
            bad += 1;
            if bad <= 10 {
                eprintln!("{name}: a={:x} b={:x} ftz={} quiet={}: got {g:x}, want {w:x}", c.0, c.1, c.2, c.3);
            }
        }
    }
    assert_eq!(bad, 0, "{name}: {bad} of {} results wrong", cases.len());
}

/// The shared 16-bit lane, streaming f16 and bf16 operations interleaved (the format select
/// changes every cycle). `Case.2` is the format (true: bf16).
fn run_add16(cases: &[Case]) -> Vec<u64> {
    run_add16_on(FpAdd16::default(), cases)
}

/// [`run_add16`] on a given lane, at its latency.
fn run_add16_on(mut uut: FpAdd16, cases: &[Case]) -> Vec<u64> {
    uut.connect_all();
    let latency = uut.latency();
    stream(
        &mut uut,
        latency,
        cases,
        |u, c| u.clock.next = c.into(),
        |u, &(a, b, bf16, _): &Case| {
            u.a.next = (a as u64).into();
            u.b.next = (b as u64).into();
            u.bf16.next = bf16;
        },
        |u| u.sum.val().to_u64(),
    )
}

fn add16_cases() -> Vec<Case> {
    add16_cases_n("add16", 20_000)
}

/// Every pair of special operands of each format and `random` seeded pairs of each, the
/// formats interleaved.
fn add16_cases_n(test: &str, random: usize) -> Vec<Case> {
    let f16 = cases(&format!("{test} f16"), 5, 10, random, &[(false, false)]);
    let bf16 = cases(&format!("{test} bf16"), 8, 7, random, &[(true, false)]);
    let mut v = Vec::new();
    for i in 0..f16.len().max(bf16.len()) {
        v.extend(f16.get(i));
        v.extend(bf16.get(i));
    }
    v
}

fn want_add16(&(a, b, bf16, _): &Case) -> u64 {
    let fmt = if bf16 { Half::Bf16 } else { Half::F16 };
    fp::add_half(fmt, a as u16, b as u16) as u64
}

#[test]
fn add16_lane_matches_golden_model_for_f16_and_bf16() {
    let c = add16_cases();
    let got = run_add16(&c);
    check("add16", &c, &got, want_add16);
}

/// Every depth of the f16/bf16 lane (the original lane at 3, the segmented one from 4 on),
/// and the segmented datapath with no cut and with each candidate cut on its own, against
/// the golden model at the latency they give: specials of both formats (zeros, subnormals,
/// ties, infinities, NaNs) and seeded random pairs, f16 and bf16 interleaved.
#[test]
fn add16_lane_matches_golden_model_at_every_depth() {
    assert_eq!(Config::default().fp16_add_latency(), FP_ADD_LATENCY);
    assert_eq!(FpAdd16::default().latency(), FP_ADD_LATENCY);
    let mut lanes: Vec<(String, FpAdd16, usize)> = Vec::new();
    for stages in FP16_STAGES_MIN..=FP16_STAGES_MAX {
        let cfg = Config { fp16_stages: stages, ..Config::default() };
        lanes.push((format!("depth {stages}"), FpAdd16::new(&cfg), cfg.fp16_add_latency()));
    }
    let cuts = FP16_STAGES_MAX - FP16_STAGES_MIN;
    lanes.push(("no cut".into(), FpAdd16::with_cuts(0), FP16_STAGES_MIN));
    for k in 0..cuts {
        lanes.push((format!("cut {k} alone"), FpAdd16::with_cuts(1 << k), FP16_STAGES_MIN + 1));
    }
    for (name, lane, latency) in lanes {
        assert_eq!(lane.latency(), latency, "{name}");
        let c = add16_cases_n(&format!("add16 {name}"), 2_000);
        let got = run_add16_on(lane, &c);
        check(&format!("add16 {name}"), &c, &got, want_add16);
    }
}

/// The deepest lane on every f16 and every bf16 bit pattern against three fixed operands
/// each: a negative subnormal (cancellation into subnormals, the normalisation limit), +1
/// (rounding ties of every binade) and -1 (cancellation, long normalising shifts).
#[test]
fn add16_deepest_lane_sweeps_f16_and_bf16() {
    let cfg = Config::fastest_clock();
    let mut c = Vec::new();
    for &b in &[0x83ffu64, 0x3c00, 0xbc00] {
        for a in 0..=0xffffu64 {
            c.push((a, b, false, false));
        }
    }
    for &b in &[0x8001u64, 0x3f80, 0xbf81] {
        for a in 0..=0xffffu64 {
            c.push((b, a, true, false));
        }
    }
    let got = run_add16_on(FpAdd16::new(&cfg), &c);
    check("add16 deepest sweep", &c, &got, want_add16);
}

#[test]
fn add16_lane_f16_exhaustive_for_one_operand() {
    // Every f16 bit pattern plus a few fixed operands of each class, both orders.
    let mut c = Vec::new();
    for &b in &[0x0000u64, 0x8000, 0x0001, 0x83ff, 0x3c00, 0xbc00, 0x7bff, 0xfc00, 0x7e00] {
        for a in 0..=0xffffu64 {
            c.push((a, b, false, false));
            c.push((b, a, false, false));
        }
    }
    let got = run_add16(&c);
    check("add16 f16 sweep", &c, &got, |&(a, b, ..)| fp::add_half(Half::F16, a as u16, b as u16) as u64);
}

#[test]
fn f32_adder_matches_golden_model_in_both_spaces() {
    // ftz = global space; shared keeps subnormals.
    let c = cases("f32_adder", 8, 23, 10_000, &[(true, false), (false, false)]);
    let got = run_adder!(FpAddF32, 32, &c);
    check("f32", &c, &got, |&(a, b, ftz, _)| fp::add_f32(a as u32, b as u32, ftz) as u64);
}

#[test]
fn f64_adder_matches_golden_model_in_both_spaces() {
    // nan_quiet = shared space.
    let c = cases("f64_adder", 11, 52, 5_000, &[(false, false), (false, true)]);
    let got = run_adder!(FpAddF64, 64, &c);
    check("f64", &c, &got, |&(a, b, _, shared)| fp::add_f64(a, b, shared));
}

/// Every depth of the f32/f64 adders (each candidate cut on its own and all of them) against
/// the golden model, at the latency the configuration gives: a cut that drops or misaligns a
/// signal shows up as wrong results. Every special pair at every depth; the random pairs are
/// fewer per depth (12 depths) so that the whole test costs what 9 depths did.
#[test]
fn f32_and_f64_adders_match_golden_model_at_every_depth() {
    assert_eq!(Config::default().fp_add_latency(), FP_ADD_LATENCY);
    for stages in FP_STAGES_MIN..=FP_STAGES_MAX {
        let cfg = Config { fp_stages: stages, ..Config::default() };
        let c = cases(&format!("f32_adder_depth{stages}"), 8, 23, 1_000, &[(true, false), (false, false)]);
        let got = run_adder!(FpAddF32, 32, &c, &cfg);
        check(&format!("f32 depth {stages}"), &c, &got, |&(a, b, ftz, _)| fp::add_f32(a as u32, b as u32, ftz) as u64);
        let c = cases(&format!("f64_adder_depth{stages}"), 11, 52, 600, &[(false, false), (false, true)]);
        let got = run_adder!(FpAddF64, 64, &c, &cfg);
        check(&format!("f64 depth {stages}"), &c, &got, |&(a, b, _, shared)| fp::add_f64(a, b, shared));
    }
}
