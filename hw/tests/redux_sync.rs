//! The `redux.sync` block against `sim::redux::reduce` in rust-hdl's simulator: all 17 forms
//! interleaved one instruction per cycle, masks full, empty, single-lane, sparse and random,
//! sources random or special (integer extremes, signed zeros, infinities, NaNs, subnormals),
//! each result checked `REDUX_LATENCY` cycles after its instruction, with `out_valid`,
//! `out_form`, `out_mask` and the per-lane vector.

mod common;
use common::*;
use hw::{REDUX_LATENCY, ReduxSync};
use rust_hdl::prelude::*;
use sim::redux::{LANES, ReduxForm, reduce, reduce_lanes};

fn src_bits(src: &[u32; LANES]) -> Bits<1024> {
    let mut b: Bits<1024> = 0u64.into();
    for i in (0..LANES).rev() {
        b = (b << 32) | b128::<1024>(src[i] as u128);
    }
    b
}

fn lanes_of(b: Bits<1024>) -> [u32; LANES] {
    std::array::from_fn(|i| b.get_bits::<32>(32 * i).to_u64() as u32)
}

const SPECIALS: [u32; 24] = [
    0,
    1,
    2,
    0x7fff_ffff,
    0x8000_0000,
    0x8000_0001,
    0xffff_ffff,
    0xffff_fffe, // integer edges
    0x3f80_0000,
    0xbf80_0000,
    0x4000_0000,
    0xc000_0000, // +-1, +-2
    0x7f80_0000,
    0xff80_0000, // infinities
    0x7fc0_0000,
    0xffc0_0000,
    0x7f80_0001,
    0xff80_0001, // NaNs
    0x0000_0001,
    0x8000_0001,
    0x007f_ffff,
    0x0080_0000, // subnormals, smallest normal
    0x7f7f_ffff,
    0xff7f_ffff, // largest finite
];

fn mask(rng: &mut Rng) -> u32 {
    match rng.below(8) {
        0 => u32::MAX,
        1 => 0,
        2 => 1 << rng.below(32),
        3 => rng.next() as u32 & rng.next() as u32 & rng.next() as u32,
        4 => 0xaaaa_aaaa,
        _ => rng.next() as u32,
    }
}

fn sources(rng: &mut Rng) -> [u32; LANES] {
    let mode = rng.below(4);
    std::array::from_fn(|_| match mode {
        0 => rng.next() as u32,
        1 => SPECIALS[rng.below(SPECIALS.len())],
        2 => SPECIALS[rng.below(8)] ^ (rng.below(4) as u32),
        _ => {
            if rng.below(3) == 0 {
                SPECIALS[rng.below(SPECIALS.len())]
            } else {
                rng.next() as u32
            }
        }
    })
}

#[test]
fn redux_block_matches_the_golden_model_for_all_17_forms() {
    let forms = ReduxForm::all();
    assert_eq!(forms.len(), 17);
    let mut rng = Rng(seed("redux_sync"));
    // (valid, form, mask, src, executing lane)
    let mut cases: Vec<(bool, ReduxForm, u32, [u32; LANES], usize)> = Vec::new();
    for round in 0..60 {
        for &form in &forms {
            let m = if rng.below(20) == 0 { 0 } else { mask(&mut rng) };
            cases.push((true, form, m, sources(&mut rng), rng.below(LANES)));
        }
        if round % 3 == 0 {
            let f = forms[rng.below(forms.len())];
            cases.push((false, f, 0, [0; LANES], 0));
        }
    }
    let mut uut = ReduxSync::default();
    uut.connect_all();
    let got = stream(
        &mut uut,
        REDUX_LATENCY,
        &cases,
        |u, c| u.clock.next = c.into(),
        |u, (valid, form, m, src, lane)| {
            u.in_valid.next = *valid;
            u.in_form.next = (form.code() as u64).into();
            u.in_mask.next = (*m as u64).into();
            u.in_src.next = src_bits(src);
            u.in_lane.next = (*lane as u64).into();
        },
        |u| {
            (
                u.out_valid.val(),
                u.out_form.val().to_u64() as u8,
                u.out_mask.val().to_u64() as u32,
                u.out_result.val().to_u64() as u32,
                lanes_of(u.out_lanes.val()),
                u.out_error.val(),
            )
        },
    );
    let mut bad = 0;
    let (mut errors, mut empty) = (0, 0);
    for ((valid, form, m, src, lane), (gv, gf, gm, gr, gl, ge)) in cases.iter().zip(&got) {
        assert_eq!(gv, valid, "out_valid");
        // PTX leaves an empty membermask, or one without the executing lane, undefined.
        assert_eq!(*ge, *valid && m >> lane & 1 == 0, "out_error: mask {m:08x}, lane {lane}");
        errors += *ge as usize;
        empty += (*valid && *m == 0) as usize;
        assert_eq!(*gf, form.code(), "out_form");
        assert_eq!(gm, m, "out_mask");
        if !valid {
            continue;
        }
        let want = reduce(*form, *m, src);
        if *gr != want || *gl != reduce_lanes(*form, *m, src) {
            bad += 1;
            if bad <= 10 {
                eprintln!("{form} mask={m:08x} src={src:08x?}\n  got {gr:08x} want {want:08x}");
            }
        }
    }
    assert_eq!(bad, 0, "{bad} of {} redux results wrong", cases.len());
    assert!(errors > 0 && empty > 0, "the draw flagged {errors} instructions, {empty} with an empty mask");
}

#[test]
fn redux_latency_is_a_small_constant() {
    assert_eq!(REDUX_LATENCY, 4);
}
