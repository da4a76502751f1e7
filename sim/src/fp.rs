//! Floating-point element operations, bit-exact to the H100 rules in
//! `docs/semantics.md`.
//!
//! The adds run on native IEEE arithmetic with every deviation made explicit:
//! - f32 and f64 use the host's round-to-nearest-even add (Rust never enables FTZ/DAZ), with
//!   flushing and NaN results applied here on bits.
//! - f16 and bf16 are widened exactly to f32, added in f32 and rounded once more to 16 bits.
//!   That double rounding is innocuous: f32 carries 24 bits, at least 2p+2 for p = 11 (f16)
//!   and p = 8 (bf16) (Figueroa, "When is double rounding innocuous?", 1995), and every
//!   sum whose magnitude is below the 16-bit format's smallest normal is exact in f32.
//!
//! The tests cross-check every non-NaN result against `rustc_apfloat`, an independent
//! software implementation.

/// The canonical NaN of f32 results.
pub const F32_NAN: u32 = 0x7fff_ffff;
/// The canonical NaN of f16 and bf16 results.
pub const H_NAN: u16 = 0x7fff;
/// The NaN of f64 `inf + -inf`.
pub const F64_INDEFINITE: u64 = 0xfff8_0000_0000_0000;
const F64_QUIET: u64 = 1 << 51;

/// Flushes an f32 subnormal to a zero of the same sign.
#[inline(always)]
pub fn ftz32(x: u32) -> u32 {
    if x & 0x7f80_0000 == 0 { x & 0x8000_0000 } else { x }
}

/// f32 add. `ftz`: the global-space flushing of inputs and results.
#[inline(always)]
pub fn add_f32(a: u32, b: u32, ftz: bool) -> u32 {
    let (a, b) = if ftz { (ftz32(a), ftz32(b)) } else { (a, b) };
    let r = f32::from_bits(a) + f32::from_bits(b);
    if r.is_nan() {
        F32_NAN
    } else if ftz {
        ftz32(r.to_bits())
    } else {
        r.to_bits()
    }
}

#[inline(always)]
fn is_nan64(x: u64) -> bool {
    x & 0x7fff_ffff_ffff_ffff > 0x7ff0_0000_0000_0000
}

/// f64 add with the NaN rules of each space. `m` is the old memory value.
/// Global keeps a NaN operand unchanged (`b` when both are NaN); shared quiets it (`m` when
/// both are NaN); `inf + -inf` gives [`F64_INDEFINITE`] in both.
#[inline(always)]
pub fn add_f64(m: u64, b: u64, shared: bool) -> u64 {
    match (is_nan64(m), is_nan64(b)) {
        (false, false) => {
            let r = f64::from_bits(m) + f64::from_bits(b);
            if r.is_nan() { F64_INDEFINITE } else { r.to_bits() }
        }
        (true, false) => {
            if shared {
                m | F64_QUIET
            } else {
                m
            }
        }
        (false, true) => {
            if shared {
                b | F64_QUIET
            } else {
                b
            }
        }
        (true, true) => {
            if shared {
                m | F64_QUIET
            } else {
                b
            }
        }
    }
}

/// The two 16-bit floating-point formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Half {
    F16,
    Bf16,
}

/// Exact widening of an f16 to f32 bits.
#[inline(always)]
pub fn f16_to_f32(h: u16) -> u32 {
    let sign = ((h & 0x8000) as u32) << 16;
    let exp = ((h >> 10) & 0x1f) as u32;
    let man = (h & 0x3ff) as u32;
    if exp == 0x1f {
        return sign | 0x7f80_0000 | (man << 13);
    }
    if exp != 0 {
        return sign | ((exp + 112) << 23) | (man << 13);
    }
    // Zero or subnormal: man * 2^-24, exact in f32.
    sign | (man as f32 * (1.0 / 16_777_216.0)).to_bits()
}

/// Rounds finite f32 bits to the nearest f16, ties to even (overflow gives infinity).
/// Not for NaN inputs.
#[inline(always)]
pub fn f32_to_f16_rne(x: u32) -> u16 {
    let sign = ((x >> 16) & 0x8000) as u16;
    let abs = x & 0x7fff_ffff;
    if abs >= 0x4780_0000 {
        // >= 65536: infinity (also the f32 infinity itself).
        return sign | 0x7c00;
    }
    if abs < 0x3880_0000 {
        // Below 2^-14, the f16 subnormal range: scale so that one f16 ulp (2^-24) is 1.0 and
        // let the f32 adder round to an integer (ties to even) by adding 2^23.
        let scaled = f32::from_bits(abs) * 16_777_216.0 + 8_388_608.0;
        return sign | (scaled.to_bits() - 0x4b00_0000) as u16;
    }
    // Normal range: drop 13 mantissa bits with round-to-nearest-even; a carry out of the
    // mantissa bumps the exponent, which is what rounding up to the next binade means.
    let odd = (abs >> 13) & 1;
    let rounded = abs + 0x0fff + odd;
    sign | ((rounded - 0x3800_0000) >> 13) as u16
}

/// Rounds finite f32 bits to the nearest bf16, ties to even (overflow gives infinity).
/// Not for NaN inputs.
#[inline(always)]
pub fn f32_to_bf16_rne(x: u32) -> u16 {
    let odd = (x >> 16) & 1;
    (x.wrapping_add(0x7fff + odd) >> 16) as u16
}

/// Exact widening of a bf16 to f32 bits.
#[inline(always)]
pub fn bf16_to_f32(h: u16) -> u32 {
    (h as u32) << 16
}

#[inline(always)]
fn is_nan16(fmt: Half, x: u16) -> bool {
    match fmt {
        Half::F16 => x & 0x7fff > 0x7c00,
        Half::Bf16 => x & 0x7fff > 0x7f80,
    }
}

/// 16-bit add, round to nearest even, subnormals kept; any NaN result is `7fff`.
#[inline(always)]
pub fn add_half(fmt: Half, a: u16, b: u16) -> u16 {
    match fmt {
        Half::F16 => {
            let r = f32::from_bits(f16_to_f32(a)) + f32::from_bits(f16_to_f32(b));
            if r.is_nan() { H_NAN } else { f32_to_f16_rne(r.to_bits()) }
        }
        Half::Bf16 => {
            let r = f32::from_bits(bf16_to_f32(a)) + f32::from_bits(bf16_to_f32(b));
            if r.is_nan() { H_NAN } else { f32_to_bf16_rne(r.to_bits()) }
        }
    }
}

/// Maps sign-magnitude bits to an unsigned key that orders like the values, with -0 < +0.
#[inline(always)]
fn order_key(x: u16) -> u16 {
    if x & 0x8000 != 0 { !x } else { x | 0x8000 }
}

/// IEEE minNum / maxNum on 16-bit floats: one NaN gives the other operand, two give `7fff`;
/// -0 is less than +0.
#[inline(always)]
pub fn minmax_half(fmt: Half, a: u16, b: u16, max: bool) -> u16 {
    match (is_nan16(fmt, a), is_nan16(fmt, b)) {
        (true, true) => H_NAN,
        (true, false) => b,
        (false, true) => a,
        (false, false) => {
            let a_less = order_key(a) < order_key(b);
            if a_less != max { a } else { b }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustc_apfloat::ieee::{BFloat, Double, Half as ApHalf, Single};
    use rustc_apfloat::{Float, Round};

    /// splitmix64: a small deterministic generator for the random operands.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            crate::splitmix64_next(&mut self.0)
        }
    }

    fn seed() -> u64 {
        let s = std::env::var("REDUNIT_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x5eed);
        eprintln!("fp cross-check seed: {s} (rerun with REDUNIT_SEED={s})");
        s
    }

    fn specials16(fmt: Half) -> Vec<u16> {
        let mut v = vec![0x0000, 0x8000, 0x0001, 0x8001, 0x0002, 0x3c00, 0xbc00, 0x7bff, 0xfbff];
        match fmt {
            Half::F16 => v.extend([0x03ff, 0x0400, 0x8400, 0x7c00, 0xfc00, 0x3bff, 0x3c01, 0x0401]),
            Half::Bf16 => v.extend([0x007f, 0x0080, 0x8080, 0x7f80, 0xff80, 0x7f7f, 0xff7f, 0x3f80, 0x3f81]),
        }
        v
    }

    fn ap_add16(fmt: Half, a: u16, b: u16) -> u16 {
        match fmt {
            Half::F16 => {
                let r = (ApHalf::from_bits(a as u128) + ApHalf::from_bits(b as u128)).value;
                r.to_bits() as u16
            }
            Half::Bf16 => {
                let r = (BFloat::from_bits(a as u128) + BFloat::from_bits(b as u128)).value;
                r.to_bits() as u16
            }
        }
    }

    #[test]
    fn half_add_matches_apfloat() {
        let mut rng = Rng(seed());
        for fmt in [Half::F16, Half::Bf16] {
            let sp = specials16(fmt);
            let mut pairs: Vec<(u16, u16)> = sp.iter().flat_map(|&a| sp.iter().map(move |&b| (a, b))).collect();
            for _ in 0..300_000 {
                let r = rng.next();
                pairs.push((r as u16, (r >> 16) as u16));
                // Close exponents, to exercise cancellation and ties.
                pairs.push((r as u16, ((r >> 32) as u16 & 0x83ff) | (r as u16 & 0x7c00)));
            }
            for (a, b) in pairs {
                let got = add_half(fmt, a, b);
                if is_nan16(fmt, got) {
                    assert_eq!(got, H_NAN);
                    assert!(is_nan16(fmt, ap_add16(fmt, a, b)), "{fmt:?} {a:04x}+{b:04x}");
                } else {
                    assert_eq!(got, ap_add16(fmt, a, b), "{fmt:?} {a:04x}+{b:04x}");
                }
            }
        }
    }

    #[test]
    fn f16_conversions_match_half_crate_exhaustively() {
        for h in 0..=u16::MAX {
            let x = half::f16::from_bits(h);
            if x.is_nan() {
                continue;
            }
            assert_eq!(f16_to_f32(h), x.to_f32().to_bits(), "{h:04x}");
        }
        let mut rng = Rng(seed());
        for _ in 0..1_000_000 {
            let x = rng.next() as u32;
            if f32::from_bits(x).is_nan() {
                continue;
            }
            assert_eq!(f32_to_f16_rne(x), half::f16::from_f32(f32::from_bits(x)).to_bits(), "{x:08x}");
            assert_eq!(f32_to_bf16_rne(x), half::bf16::from_f32(f32::from_bits(x)).to_bits(), "{x:08x}");
        }
    }

    fn sp32() -> Vec<u32> {
        vec![
            0,
            0x8000_0000,
            1,
            0x8000_0001,
            0x007f_ffff,
            0x807f_ffff,
            0x0080_0000,
            0x8080_0000,
            0x0080_0001,
            0x3f80_0000,
            0xbf80_0000,
            0x7f7f_ffff,
            0xff7f_ffff,
            0x7f80_0000,
            0xff80_0000,
            0x3f80_0001,
            0x3400_0000,
            0x3380_0000,
        ]
    }

    #[test]
    fn f32_add_matches_apfloat_outside_nan_and_flushing() {
        let mut rng = Rng(seed());
        let sp = sp32();
        let mut pairs: Vec<(u32, u32)> = sp.iter().flat_map(|&a| sp.iter().map(move |&b| (a, b))).collect();
        for _ in 0..300_000 {
            let r = rng.next();
            pairs.push((r as u32, (r >> 32) as u32));
            pairs.push((r as u32, ((r >> 32) as u32 & 0x807f_ffff) | (r as u32 & 0x7f80_0000)));
        }
        for (a, b) in pairs {
            let ap = (Single::from_bits(a as u128) + Single::from_bits(b as u128)).value;
            let got = add_f32(a, b, false);
            if ap.is_nan() {
                assert_eq!(got, F32_NAN);
            } else {
                assert_eq!(got as u128, ap.to_bits(), "{a:08x}+{b:08x}");
            }
            // Global: flushed inputs, then apfloat, then flushed result.
            let (fa, fb) = (ftz32(a), ftz32(b));
            let ap = (Single::from_bits(fa as u128) + Single::from_bits(fb as u128)).value;
            if !ap.is_nan() {
                assert_eq!(add_f32(a, b, true), ftz32(ap.to_bits() as u32), "ftz {a:08x}+{b:08x}");
            }
        }
    }

    #[test]
    fn f64_add_matches_apfloat_and_nan_rules() {
        let mut rng = Rng(seed());
        for _ in 0..300_000 {
            let r = rng.next();
            let s = rng.next();
            for (a, b) in [(r, s), (r, (s & 0x800f_ffff_ffff_ffff) | (r & 0x7ff0_0000_0000_0000))] {
                let ap = (Double::from_bits(a as u128) + Double::from_bits(b as u128)).value;
                if !ap.is_nan() {
                    assert_eq!(add_f64(a, b, false) as u128, ap.to_bits());
                    assert_eq!(add_f64(a, b, true) as u128, ap.to_bits());
                }
            }
        }
        let (inf, ninf) = (0x7ff0_0000_0000_0000u64, 0xfff0_0000_0000_0000u64);
        let snan = 0x7ff0_0000_0000_0001u64;
        let qnan = 0xfff8_0000_0000_0002u64;
        assert_eq!(add_f64(inf, ninf, false), F64_INDEFINITE);
        assert_eq!(add_f64(inf, ninf, true), F64_INDEFINITE);
        assert_eq!(add_f64(snan, 0, false), snan);
        assert_eq!(add_f64(snan, 0, true), snan | F64_QUIET);
        assert_eq!(add_f64(snan, qnan, false), qnan);
        assert_eq!(add_f64(snan, qnan, true), snan | F64_QUIET);
        let _ = Round::NearestTiesToEven;
    }

    #[test]
    fn minmax_orders_signed_zeros_and_skips_one_nan() {
        for fmt in [Half::F16, Half::Bf16] {
            assert_eq!(minmax_half(fmt, 0x0000, 0x8000, false), 0x8000);
            assert_eq!(minmax_half(fmt, 0x8000, 0x0000, false), 0x8000);
            assert_eq!(minmax_half(fmt, 0x0000, 0x8000, true), 0x0000);
            assert_eq!(minmax_half(fmt, 0x8000, 0x0000, true), 0x0000);
            assert_eq!(minmax_half(fmt, 0xffff, 0x3c00, false), 0x3c00);
            assert_eq!(minmax_half(fmt, 0xffff, 0xfffe, true), H_NAN);
            assert_eq!(minmax_half(fmt, 0xbc00, 0x3c00, false), 0xbc00);
            assert_eq!(minmax_half(fmt, 0xbc00, 0xc000, true), 0xbc00);
        }
    }
}
