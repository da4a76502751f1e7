//! The whole ALU against `sim::apply`: every one of the 82 forms, special and random
//! operands, one operation per cycle with the forms interleaved, each result checked
//! `ALU_LATENCY` cycles after its request, with `out_valid`/`out_form` and zeroed high bits.

mod common;
use common::*;
use hw::{ALU_LATENCY, ReductionAlu};
use rust_hdl::prelude::*;
use sim::{Form, Type};

/// Special values of one element of `ty`.
fn elem_specials(ty: Type) -> Vec<u64> {
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
fn operands(rng: &mut Rng, form: Form) -> (u128, u128) {
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

#[test]
fn alu_executes_all_82_forms_like_the_golden_model() {
    let forms = Form::all();
    assert_eq!(forms.len(), 82);
    let mut rng = Rng(seed("alu"));
    // (valid, form, old, b); an idle cycle now and then.
    let mut cases: Vec<(bool, Form, u128, u128)> = Vec::new();
    let per_form = 150;
    for _ in 0..per_form {
        for &form in &forms {
            let (m, b) = operands(&mut rng, form);
            cases.push((true, form, m, b));
        }
        let f = forms[rng.below(forms.len())];
        cases.push((false, f, 0, 0));
    }
    // Every pair of element specials in lane 0 of each scalar form.
    for &form in forms.iter().filter(|f| !f.is_vector()) {
        let sp = elem_specials(form.ty());
        for &a in &sp {
            for &b in &sp {
                cases.push((true, form, a as u128, b as u128));
            }
        }
    }
    let mut uut = ReductionAlu::default();
    uut.connect_all();
    let got = stream(
        &mut uut,
        ALU_LATENCY,
        &cases,
        |u, c| u.clock.next = c.into(),
        |u, &(valid, form, m, b)| {
            u.in_valid.next = valid;
            u.in_form.next = (form.code() as u64).into();
            u.in_old.next = b128(m);
            u.in_b.next = b128(b);
        },
        |u| (u.out_valid.val(), u.out_form.val().to_u64() as u16, u128_of(u.out_data.val())),
    );
    let mut bad = 0;
    for (&(valid, form, m, b), &(gv, gf, gd)) in cases.iter().zip(&got) {
        assert_eq!(gv, valid, "out_valid");
        assert_eq!(gf, form.code(), "out_form");
        if !valid {
            continue;
        }
        let want = sim::apply(form, m, b);
        if gd != want {
            bad += 1;
            if bad <= 10 {
                eprintln!("{form}: old={m:032x} b={b:032x}\n  got  {gd:032x}\n  want {want:032x}");
            }
        }
    }
    assert_eq!(bad, 0, "{bad} of {} ALU results wrong", cases.len());
}

#[test]
fn latency_is_the_same_for_every_form() {
    for form in Form::all() {
        assert_eq!(hw::latency(form), ALU_LATENCY, "{form}");
    }
    assert!((2..=4).contains(&ALU_LATENCY));
}
