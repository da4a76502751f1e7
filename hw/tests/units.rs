//! The one-stage units against the golden model: the f16/bf16 min/max lane
//! (`sim::fp::minmax_half`) and the integer ALU (`sim::apply_elem` of every integer form).

mod common;
use common::*;
use hw::fp_minmax16::{FpMinMax16, MINMAX16_LATENCY};
use hw::int_alu::{INT_ALU_LATENCY, IntAlu};
use rust_hdl::prelude::*;
use sim::fp::{self, Half};
use sim::{Form, Op, Type};

#[test]
fn minmax16_matches_golden_model() {
    let mut rng = Rng(seed("minmax16"));
    // (a, b, bf16, max)
    let mut cases = Vec::new();
    for (bf16, (e, f)) in [(false, (5, 10)), (true, (8, 7))] {
        let sp = fp_specials(e, f);
        for max in [false, true] {
            for &a in &sp {
                for &b in &sp {
                    cases.push((a as u16, b as u16, bf16, max));
                }
            }
            for _ in 0..10_000 {
                let (a, b) = fp_pair(&mut rng, e, f, &sp);
                cases.push((a as u16, b as u16, bf16, max));
            }
        }
    }
    let mut uut = FpMinMax16::default();
    uut.connect_all();
    let got = stream(
        &mut uut,
        MINMAX16_LATENCY,
        &cases,
        |u, c| u.clock.next = c.into(),
        |u, &(a, b, bf16, max)| {
            u.a.next = (a as u64).into();
            u.b.next = (b as u64).into();
            u.bf16.next = bf16;
            u.max.next = max;
        },
        |u| u.y.val().to_u64() as u16,
    );
    let mut bad = 0;
    for (&(a, b, bf16, max), &g) in cases.iter().zip(&got) {
        let fmt = if bf16 { Half::Bf16 } else { Half::F16 };
        let want = fp::minmax_half(fmt, a, b, max);
        if g != want {
            bad += 1;
            if bad <= 10 {
                eprintln!("{fmt:?} max={max} {a:04x},{b:04x}: got {g:04x}, want {want:04x}");
            }
        }
    }
    assert_eq!(bad, 0, "{bad} of {} min/max results wrong", cases.len());
}

fn int_specials(bits: u32) -> Vec<u64> {
    let m = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
    let top = 1u64 << (bits - 1);
    vec![0, 1, 2, 3, m, m - 1, top, top - 1, top + 1, 0x55, 0xff, 0x100, m >> 2]
}

/// Every integer and bitwise form (the integer ALU's).
fn int_forms() -> Vec<Form> {
    Form::all()
        .into_iter()
        .filter(|f| matches!(f.ty(), Type::B32 | Type::B64 | Type::U32 | Type::S32 | Type::U64 | Type::S64))
        .collect()
}

/// One cycle of the integer ALU's inputs.
#[derive(Clone, Copy)]
struct IntIn {
    form: Form,
    a: u64,
    b: u64,
    loop_1: bool,
    loop_a: bool,
    hold: bool,
}

impl IntIn {
    fn new(form: Form, a: u64, b: u64) -> Self {
        IntIn { form, a, b, loop_1: false, loop_a: false, hold: false }
    }
}

/// The fast forms (add, and, or, xor): `loop_1` chains them, and under `loop_a` they read the
/// high sum from `ya_hi` (stated here, not read from the implementation).
fn is_fast(f: Form) -> bool {
    matches!(f.op(), Op::Add | Op::And | Op::Or | Op::Xor)
}

/// `IntAlu`'s `loop_a` contract: a compare (min, max, inc, dec) does not take the loop behind
/// a 64-bit add (its `a` register holds the result without the high sum).
fn loop_a_allowed(producer: Form, consumer: Form) -> bool {
    is_fast(consumer) || !(producer.op() == Op::Add && producer.elem_bits() == 64)
}

/// `cases` through an `IntAlu` at `cfg`'s depth (its high sum a carry select with `csel`),
/// one a cycle: each cycle's `y`.
fn run_int_alu(cfg: &hw::Config, csel: bool, cases: &[IntIn]) -> Vec<u64> {
    let mut uut = if csel { IntAlu::new(cfg).with_carry_select() } else { IntAlu::new(cfg) };
    uut.connect_all();
    stream(
        &mut uut,
        cfg.int_alu_latency(),
        cases,
        |u, c| u.clock.next = c.into(),
        |u, c| {
            u.op.next = (c.form.op() as u64).into();
            u.ty.next = (c.form.ty() as u64).into();
            u.a.next = c.a.into();
            u.b.next = c.b.into();
            u.loop_1.next = c.loop_1;
            u.loop_a.next = c.loop_a;
            u.hold.next = c.hold;
        },
        |u| u.y.val().to_u64(),
    )
}

/// Every result `got` is `want`; prints the first ten that are not (with their inputs).
fn assert_int_results(cases: &[IntIn], got: &[u64], want: &[u64], what: &str) {
    let bad: Vec<usize> = (0..cases.len()).filter(|&k| got[k] != want[k]).collect();
    for &k in bad.iter().take(10) {
        let c = cases[k];
        eprintln!(
            "cycle {k} {} a={:x} b={:x} loop_1={} loop_a={} hold={}: got {:x}, want {:x}",
            c.form, c.a, c.b, c.loop_1, c.loop_a, c.hold, got[k], want[k]
        );
    }
    assert!(bad.is_empty(), "{} of {} {what} wrong", bad.len(), cases.len());
}

#[test]
fn int_alu_matches_golden_model_for_every_integer_form() {
    for stages in hw::config::INT_STAGES_MIN..=hw::config::INT_STAGES_MAX {
        let cfg = hw::Config { int_stages: stages, ..hw::Config::default() };
        check_int_alu(&cfg, false);
        check_int_alu(&cfg, true);
    }
    assert_eq!(hw::Config::default().int_alu_latency(), INT_ALU_LATENCY);
}

/// Every integer form at `cfg.int_stages`: specials, random operands, close pairs (equal,
/// +-1: inc/dec/min/max edges), pairs with equal high halves (the split compare) and pairs
/// equal above one 16-bit chunk (the compares per chunk); the high sum a carry select with
/// `csel` ([`IntAlu::with_carry_select`], the unit's masked-sector lanes).
fn check_int_alu(cfg: &hw::Config, csel: bool) {
    let mut rng = Rng(seed(&format!("int_alu-{}", cfg.int_stages)));
    let forms = int_forms();
    assert!(forms.len() > 20);
    // (form, a, b): a and b carry random garbage above the form's width.
    let mut cases = Vec::new();
    for &form in &forms {
        let sp = int_specials(form.elem_bits());
        let junk = |rng: &mut Rng| if form.elem_bits() == 32 { rng.next() << 32 } else { 0 };
        for &a in &sp {
            for &b in &sp {
                cases.push((form, a | junk(&mut rng), b | junk(&mut rng)));
            }
        }
        for _ in 0..500 {
            let a = rng.next();
            let mut b = rng.next();
            if rng.below(3) == 0 {
                // Close values: equal, +-1, and small differences for inc/dec/min/max.
                b = a.wrapping_add(rng.below(5) as u64).wrapping_sub(2);
            } else if rng.below(3) == 0 {
                // Equal high halves, any low halves (carries and compares across the split).
                b = (a & 0xffff_ffff_0000_0000) | (b & 0xffff_ffff);
            } else if rng.below(2) == 0 {
                // Equal but for one 16-bit chunk, and equal above it (the compares per chunk).
                let k = 16 * rng.below(4) as u32;
                let below = if k == 0 { 0 } else { u64::MAX >> (64 - k) };
                b = (a & !(0xffff << k)) | (b & (0xffff << k));
                if rng.below(2) == 0 {
                    b = (b & !below) | (rng.next() & below);
                }
            }
            cases.push((form, a, b));
        }
    }
    let cases: Vec<IntIn> = cases.into_iter().map(|(form, a, b)| IntIn::new(form, a, b)).collect();
    let want: Vec<u64> =
        cases.iter().map(|c| sim::apply_elem(c.form, c.a, c.b) & sim::elem_mask(c.form.elem_bits())).collect();
    let got = run_int_alu(cfg, csel, &cases);
    assert_int_results(
        &cases,
        &got,
        &want,
        &format!("integer results at {} stages (carry select {csel})", cfg.int_stages),
    );
}

/// The loop (`loop_a`): chains of random integer forms of one width, interleaved
/// `int_stages` apart (the distance at which an op's `M` is the result made in its cycle), each
/// op taking its `M` from the loop four times in five where the loop's contract allows
/// ([`loop_a_allowed`]) and from `a` otherwise; every result
/// against the golden model run in order.
#[test]
fn int_alu_loop_takes_the_result_int_stages_ahead() {
    for stages in hw::config::INT_STAGES_MIN..=hw::config::INT_STAGES_MAX {
        let cfg = hw::Config { int_stages: stages, ..hw::Config::default() };
        let mut rng = Rng(seed(&format!("int_alu_loop-{stages}")));
        let forms = int_forms();
        // (form, a, b, loop) and the golden result of each.
        let mut cases: Vec<IntIn> = Vec::new();
        let mut want: Vec<u64> = Vec::new();
        let width = |k: usize| if (k / stages / 500) % 2 == 0 { 32 } else { 64 };
        for k in 0..4000 {
            let bits = width(k);
            let same: Vec<Form> = forms.iter().copied().filter(|f| f.elem_bits() == bits).collect();
            let form = same[rng.below(same.len())];
            let looped = k >= stages
                && width(k - stages) == bits
                && loop_a_allowed(cases[k - stages].form, form)
                && rng.below(5) != 0;
            let small = rng.below(2) == 0;
            let b = if small { rng.below(8) as u64 } else { rng.next() };
            let a = rng.next();
            let m = if looped { want[k - stages] } else { a };
            want.push(sim::apply_elem(form, m, b) & sim::elem_mask(form.elem_bits()));
            cases.push(IntIn { loop_a: looped, ..IntIn::new(form, a, b) });
        }
        let got = run_int_alu(&cfg, false, &cases);
        let loops = cases.iter().filter(|c| c.loop_a).count();
        assert!(loops > 2500, "only {loops} looped ops");
        assert_int_results(&cases, &got, &want, &format!("looped-chain results at {stages} stages"));
    }
}

/// The fast loop (`loop_1`): chains of add/and/or/xor of one width (32 or 64 bits, a random
/// mix of forms), one op a cycle, each taking the previous result as `M`, with ops on a fresh
/// `a` (any form of the width) interleaved, `loop_a` now and then (alone or beside `loop_1`)
/// and `hold` cycles (random inputs; a held cycle repeats the op before it, so the op after
/// it may chain to that one); operands chosen to carry across bit 31 (and 63) often. Every
/// cycle's result (a held cycle's: the one before it again) against the golden model run in
/// order.
#[test]
fn int_alu_loop_1_takes_the_result_one_cycle_ahead() {
    for stages in hw::config::INT_STAGES_MIN..=hw::config::INT_STAGES_MAX {
        let cfg = hw::Config { int_stages: stages, ..hw::Config::default() };
        let mut rng = Rng(seed(&format!("int_alu_loop_1-{stages}")));
        let forms = int_forms();
        // The cycles' inputs; the golden result of each cycle and the form whose result it is
        // (a held cycle's: the cycle before's).
        let mut cases: Vec<IntIn> = Vec::new();
        let mut want: Vec<u64> = Vec::new();
        let mut made_by: Vec<Form> = Vec::new();
        let mut bits = 32;
        let mut left = 0;
        for k in 0..4000 {
            if k > 0 && rng.below(8) == 0 {
                let form = forms[rng.below(forms.len())];
                let (a, b) = (rng.next(), rng.next());
                cases.push(IntIn {
                    loop_1: rng.below(2) == 0,
                    loop_a: rng.below(2) == 0,
                    hold: true,
                    ..IntIn::new(form, a, b)
                });
                want.push(want[k - 1]);
                made_by.push(made_by[k - 1]);
                continue;
            }
            if left == 0 {
                bits = if rng.below(2) == 0 { 32 } else { 64 };
                left = 1 + rng.below(60);
            }
            left -= 1;
            let same: Vec<Form> = forms.iter().copied().filter(|f| f.elem_bits() == bits).collect();
            let fast: Vec<Form> = same.iter().copied().filter(|&f| is_fast(f)).collect();
            let fresh = rng.below(8) == 0;
            let form =
                if fresh && rng.below(2) == 0 { same[rng.below(same.len())] } else { fast[rng.below(fast.len())] };
            let l1 = !fresh && k > 0 && is_fast(made_by[k - 1]) && made_by[k - 1].elem_bits() == bits;
            let la = k >= stages && loop_a_allowed(made_by[k - stages], form) && rng.below(6) == 0;
            let a = rng.next();
            let m = if l1 {
                want[k - 1]
            } else if la {
                want[k - stages]
            } else {
                a
            };
            let b = match rng.below(5) {
                0 => rng.below(8) as u64,
                // m + b just below, at or just above 2^64 (carries through both halves).
                1 => (!m).wrapping_add(rng.below(3) as u64),
                // The low halves' sum 2^32 or 2^32 + 1: a carry out of bit 31, low half zero.
                2 => (rng.next() & !0xffff_ffff) | (((!m) & 0xffff_ffff) + 1 + rng.below(2) as u64),
                _ => rng.next(),
            };
            want.push(sim::apply_elem(form, m, b) & sim::elem_mask(form.elem_bits()));
            made_by.push(form);
            cases.push(IntIn { loop_1: l1, loop_a: la, ..IntIn::new(form, a, b) });
        }
        let got = run_int_alu(&cfg, false, &cases);
        let count = |p: &dyn Fn(&IntIn) -> bool| cases.iter().filter(|c| p(c)).count();
        let l1_64 = count(&|c| c.loop_1 && !c.hold && c.form.elem_bits() == 64);
        let l1_32 = count(&|c| c.loop_1 && !c.hold && c.form.elem_bits() == 32);
        let both = count(&|c| c.loop_1 && c.loop_a && !c.hold);
        let holds = count(&|c| c.hold);
        let after_hold = (1..cases.len()).filter(|&k| cases[k].loop_1 && !cases[k].hold && cases[k - 1].hold).count();
        assert!(
            l1_64 > 1000 && l1_32 > 1000 && both > 200 && holds > 300 && after_hold > 100,
            "{l1_64} {l1_32} {both} {holds} {after_hold}"
        );
        assert_int_results(&cases, &got, &want, &format!("results of loop_1 chains at {stages} stages"));
    }
}
