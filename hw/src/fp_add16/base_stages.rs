//! The three stages of the original f16/bf16 lane ([`super::base::Base16`]), combinational
//! between its pipeline registers.

use crate::fp_add::bits_u128;
use rust_hdl::prelude::*;

/// Stage 1: unpack both operands to the internal format (8-bit exponent at the bf16 bias,
/// subnormals at the format's minimum; 11-bit significand with the hidden bit), the special
/// result (a NaN input or inf + -inf gives `7fff`, else an infinity passes), compare and swap
/// (the larger magnitude first), and the alignment of the smaller significand with guard,
/// round and sticky (bit 0).
#[derive(LogicBlock)]
pub struct Unpack {
    /// The operands and the format (input registers).
    pub a: Signal<In, Bits<16>>,
    pub b: Signal<In, Bits<16>>,
    pub bf16: Signal<In, Bit>,
    /// The larger operand's sign and exponent, both significands (aligned), whether the
    /// signs differ, whether the result is special and its value.
    pub sign: Signal<Out, Bit>,
    pub exp: Signal<Out, Bits<8>>,
    pub big_x: Signal<Out, Bits<14>>,
    pub small_x: Signal<Out, Bits<14>>,
    pub sub: Signal<Out, Bit>,
    pub special: Signal<Out, Bit>,
    pub special_val: Signal<Out, Bits<16>>,
    nan16: Constant<Bits<16>>,
    f16_inf: Constant<Bits<16>>,
    bf16_inf: Constant<Bits<16>>,
    /// f16 exponent field + 112 = bf16-biased exponent (127 - 15).
    f16_rebase: Constant<Bits<8>>,
    /// Smallest f16 exponent (field 1, also that of subnormals) in the internal bias.
    f16_emin: Constant<Bits<8>>,
    one8: Constant<Bits<8>>,
    hidden11: Constant<Bits<11>>,
    ones14: Constant<Bits<14>>,
    one14: Constant<Bits<14>>,
    in_inf: Signal<Local, Bits<16>>,
    a_nan: Signal<Local, Bit>,
    b_nan: Signal<Local, Bit>,
    a_inf: Signal<Local, Bit>,
    b_inf: Signal<Local, Bit>,
    swap: Signal<Local, Bit>,
    big_mag: Signal<Local, Bits<15>>,
    small_mag: Signal<Local, Bits<15>>,
    big_sign: Signal<Local, Bit>,
    small_sign: Signal<Local, Bit>,
    big_exp: Signal<Local, Bits<8>>,
    small_exp: Signal<Local, Bits<8>>,
    big_sig: Signal<Local, Bits<11>>,
    small_sig: Signal<Local, Bits<11>>,
    exp_diff: Signal<Local, Bits<8>>,
    small_ext: Signal<Local, Bits<14>>,
    small_shifted: Signal<Local, Bits<14>>,
    small_lost: Signal<Local, Bit>,
}

impl Default for Unpack {
    fn default() -> Self {
        Self {
            a: Default::default(),
            b: Default::default(),
            bf16: Default::default(),
            sign: Default::default(),
            exp: Default::default(),
            big_x: Default::default(),
            small_x: Default::default(),
            sub: Default::default(),
            special: Default::default(),
            special_val: Default::default(),
            nan16: Constant::new(bits_u128(sim::fp::H_NAN as u128)),
            f16_inf: Constant::new(bits_u128(0x7c00)),
            bf16_inf: Constant::new(bits_u128(0x7f80)),
            f16_rebase: Constant::new(bits_u128(112)),
            f16_emin: Constant::new(bits_u128(113)),
            one8: Constant::new(bits_u128(1)),
            hidden11: Constant::new(bits_u128(1 << 10)),
            ones14: Constant::new(bits_u128((1 << 14) - 1)),
            one14: Constant::new(bits_u128(1)),
            in_inf: Default::default(),
            a_nan: Default::default(),
            b_nan: Default::default(),
            a_inf: Default::default(),
            b_inf: Default::default(),
            swap: Default::default(),
            big_mag: Default::default(),
            small_mag: Default::default(),
            big_sign: Default::default(),
            small_sign: Default::default(),
            big_exp: Default::default(),
            small_exp: Default::default(),
            big_sig: Default::default(),
            small_sig: Default::default(),
            exp_diff: Default::default(),
            small_ext: Default::default(),
            small_shifted: Default::default(),
            small_lost: Default::default(),
        }
    }
}

impl Logic for Unpack {
    #[hdl_gen]
    fn update(&mut self) {
        // Specials: compare the magnitude with the format's infinity.
        self.in_inf.next = self.f16_inf.val();
        if self.bf16.val() {
            self.in_inf.next = self.bf16_inf.val();
        }
        self.a_nan.next = bit_cast::<16, 15>(self.a.val().get_bits::<15>(0)) > self.in_inf.val();
        self.b_nan.next = bit_cast::<16, 15>(self.b.val().get_bits::<15>(0)) > self.in_inf.val();
        self.a_inf.next = bit_cast::<16, 15>(self.a.val().get_bits::<15>(0)) == self.in_inf.val();
        self.b_inf.next = bit_cast::<16, 15>(self.b.val().get_bits::<15>(0)) == self.in_inf.val();
        // Sign-magnitude bits order like the magnitudes in both formats.
        self.swap.next = self.a.val().get_bits::<15>(0) < self.b.val().get_bits::<15>(0);
        self.big_mag.next = self.a.val().get_bits::<15>(0);
        self.small_mag.next = self.b.val().get_bits::<15>(0);
        self.big_sign.next = self.a.val().get_bit(15);
        self.small_sign.next = self.b.val().get_bit(15);
        if self.swap.val() {
            self.big_mag.next = self.b.val().get_bits::<15>(0);
            self.small_mag.next = self.a.val().get_bits::<15>(0);
            self.big_sign.next = self.b.val().get_bit(15);
            self.small_sign.next = self.a.val().get_bit(15);
        }
        // Internal exponent (bf16 bias; subnormals at the format's minimum) and 11-bit
        // significand with the hidden bit.
        if self.bf16.val() {
            self.big_exp.next = self.big_mag.val().get_bits::<8>(7);
            self.big_sig.next = bit_cast::<11, 7>(self.big_mag.val().get_bits::<7>(0)) << 3;
            if self.big_exp.val().any() {
                self.big_sig.next = self.big_sig.val() | self.hidden11.val();
            } else {
                self.big_exp.next = self.one8.val();
            }
            self.small_exp.next = self.small_mag.val().get_bits::<8>(7);
            self.small_sig.next = bit_cast::<11, 7>(self.small_mag.val().get_bits::<7>(0)) << 3;
            if self.small_exp.val().any() {
                self.small_sig.next = self.small_sig.val() | self.hidden11.val();
            } else {
                self.small_exp.next = self.one8.val();
            }
        } else {
            self.big_exp.next = bit_cast::<8, 5>(self.big_mag.val().get_bits::<5>(10));
            self.big_sig.next = bit_cast::<11, 10>(self.big_mag.val().get_bits::<10>(0));
            if self.big_exp.val().any() {
                self.big_sig.next = self.big_sig.val() | self.hidden11.val();
                self.big_exp.next = self.big_exp.val() + self.f16_rebase.val();
            } else {
                self.big_exp.next = self.f16_emin.val();
            }
            self.small_exp.next = bit_cast::<8, 5>(self.small_mag.val().get_bits::<5>(10));
            self.small_sig.next = bit_cast::<11, 10>(self.small_mag.val().get_bits::<10>(0));
            if self.small_exp.val().any() {
                self.small_sig.next = self.small_sig.val() | self.hidden11.val();
                self.small_exp.next = self.small_exp.val() + self.f16_rebase.val();
            } else {
                self.small_exp.next = self.f16_emin.val();
            }
        }
        // Alignment with guard, round and sticky (bit 0).
        self.exp_diff.next = self.big_exp.val() - self.small_exp.val();
        self.small_ext.next = bit_cast::<14, 11>(self.small_sig.val()) << 3;
        self.small_shifted.next = self.small_ext.val() >> self.exp_diff.val();
        self.small_lost.next = (self.small_ext.val() & !(self.ones14.val() << self.exp_diff.val())).any();
        self.small_x.next = self.small_shifted.val();
        if self.small_lost.val() {
            self.small_x.next = self.small_shifted.val() | self.one14.val();
        }
        self.big_x.next = bit_cast::<14, 11>(self.big_sig.val()) << 3;
        self.exp.next = self.big_exp.val();
        self.sign.next = self.big_sign.val();
        self.sub.next = self.big_sign.val() ^ self.small_sign.val();
        // Special results: any NaN (or inf + -inf) is 7fff; else an infinity passes.
        self.special.next = self.a_nan.val() || self.b_nan.val() || self.a_inf.val() || self.b_inf.val();
        self.special_val.next = self.nan16.val();
        if !self.a_nan.val() && !self.b_nan.val() {
            if self.a_inf.val() && self.b_inf.val() {
                if self.a.val().get_bit(15) == self.b.val().get_bit(15) {
                    self.special_val.next = self.a.val();
                }
            } else if self.a_inf.val() {
                self.special_val.next = self.a.val();
            } else if self.b_inf.val() {
                self.special_val.next = self.b.val();
            }
        }
    }
}

/// Stage 2: add or subtract the aligned significands, count the leading zeros (binary
/// search), and normalise: the left shift by the count, stopped at the format's minimum
/// exponent, or one right shift (keeping the sticky) on a carry out. An exact zero of a
/// subtraction is +0.
#[derive(LogicBlock)]
pub struct AddNormalise {
    /// Stage 1's results (`s1_` registers).
    pub sign: Signal<In, Bit>,
    pub exp: Signal<In, Bits<8>>,
    pub big_x: Signal<In, Bits<14>>,
    pub small_x: Signal<In, Bits<14>>,
    pub sub: Signal<In, Bit>,
    pub bf16: Signal<In, Bit>,
    /// The normalised significand with guard, round and sticky, its exponent, whether the
    /// sum is zero, and the result's sign.
    pub norm_sig: Signal<Out, Bits<14>>,
    pub norm_exp: Signal<Out, Bits<8>>,
    pub zero: Signal<Out, Bit>,
    pub sum_sign: Signal<Out, Bit>,
    f16_emin: Constant<Bits<8>>,
    one8: Constant<Bits<8>>,
    zero8: Constant<Bits<8>>,
    one14: Constant<Bits<14>>,
    lz_pad: Constant<Bits<16>>,
    lz8: Constant<Bits<8>>,
    lz4: Constant<Bits<8>>,
    lz2: Constant<Bits<8>>,
    sum15: Signal<Local, Bits<15>>,
    low14: Signal<Local, Bits<14>>,
    lz_t: Signal<Local, Bits<16>>,
    lzc: Signal<Local, Bits<8>>,
    emin: Signal<Local, Bits<8>>,
    norm_limit: Signal<Local, Bits<8>>,
    norm_shift: Signal<Local, Bits<8>>,
}

impl Default for AddNormalise {
    fn default() -> Self {
        Self {
            sign: Default::default(),
            exp: Default::default(),
            big_x: Default::default(),
            small_x: Default::default(),
            sub: Default::default(),
            bf16: Default::default(),
            norm_sig: Default::default(),
            norm_exp: Default::default(),
            zero: Default::default(),
            sum_sign: Default::default(),
            f16_emin: Constant::new(bits_u128(113)),
            one8: Constant::new(bits_u128(1)),
            zero8: Constant::new(bits_u128(0)),
            one14: Constant::new(bits_u128(1)),
            lz_pad: Constant::new(bits_u128(0b11)),
            lz8: Constant::new(bits_u128(8)),
            lz4: Constant::new(bits_u128(4)),
            lz2: Constant::new(bits_u128(2)),
            sum15: Default::default(),
            low14: Default::default(),
            lz_t: Default::default(),
            lzc: Default::default(),
            emin: Default::default(),
            norm_limit: Default::default(),
            norm_shift: Default::default(),
        }
    }
}

impl Logic for AddNormalise {
    #[hdl_gen]
    fn update(&mut self) {
        if self.sub.val() {
            self.sum15.next = bit_cast::<15, 14>(self.big_x.val()) - bit_cast::<15, 14>(self.small_x.val());
        } else {
            self.sum15.next = bit_cast::<15, 14>(self.big_x.val()) + bit_cast::<15, 14>(self.small_x.val());
        }
        self.low14.next = self.sum15.val().get_bits::<14>(0);
        // Leading zeros of low14 (14 when zero) by binary search on low14 . 11: the two pad
        // ones stop the count at 14.
        self.lz_t.next = (bit_cast::<16, 14>(self.low14.val()) << 2) | self.lz_pad.val();
        self.lzc.next = self.zero8.val();
        if !self.lz_t.val().get_bits::<8>(8).any() {
            self.lzc.next = self.lzc.val() | self.lz8.val();
            self.lz_t.next = self.lz_t.val() << 8;
        }
        if !self.lz_t.val().get_bits::<4>(12).any() {
            self.lzc.next = self.lzc.val() | self.lz4.val();
            self.lz_t.next = self.lz_t.val() << 4;
        }
        if !self.lz_t.val().get_bits::<2>(14).any() {
            self.lzc.next = self.lzc.val() | self.lz2.val();
            self.lz_t.next = self.lz_t.val() << 2;
        }
        if !self.lz_t.val().get_bit(15) {
            self.lzc.next = self.lzc.val() | self.one8.val();
        }
        // Normalisation stops at the format's minimum exponent.
        self.emin.next = self.f16_emin.val();
        if self.bf16.val() {
            self.emin.next = self.one8.val();
        }
        self.norm_limit.next = self.exp.val() - self.emin.val();
        self.norm_shift.next = self.lzc.val();
        if self.norm_limit.val() < self.lzc.val() {
            self.norm_shift.next = self.norm_limit.val();
        }
        self.norm_sig.next = self.low14.val() << self.norm_shift.val();
        self.norm_exp.next = self.exp.val() - self.norm_shift.val();
        if self.sum15.val().get_bit(14) {
            self.norm_sig.next = self.sum15.val().get_bits::<14>(1);
            if self.sum15.val().get_bit(0) {
                self.norm_sig.next = self.sum15.val().get_bits::<14>(1) | self.one14.val();
            }
            self.norm_exp.next = self.exp.val() + self.one8.val();
        }
        self.zero.next = !self.sum15.val().any();
        self.sum_sign.next = self.sign.val();
        if self.sub.val() && !self.sum15.val().any() {
            self.sum_sign.next = false;
        }
    }
}

/// Stage 3: round to nearest even at the format's position, pack (exponent and significand
/// added, so that a rounding carry bumps the exponent), overflow to infinity, zero, sign, and
/// the special result.
#[derive(LogicBlock)]
pub struct RoundPack {
    /// Stage 2's results (`s2_` registers).
    pub sign: Signal<In, Bit>,
    pub exp: Signal<In, Bits<8>>,
    pub norm: Signal<In, Bits<14>>,
    pub zero: Signal<In, Bit>,
    pub special: Signal<In, Bit>,
    pub special_val: Signal<In, Bits<16>>,
    pub bf16: Signal<In, Bit>,
    /// The lane's result.
    pub sum: Signal<Out, Bits<16>>,
    sign16: Constant<Bits<16>>,
    zero16: Constant<Bits<16>>,
    one16: Constant<Bits<16>>,
    f16_inf: Constant<Bits<16>>,
    bf16_inf: Constant<Bits<16>>,
    f16_emin: Constant<Bits<8>>,
    one8: Constant<Bits<8>>,
    round_up: Signal<Local, Bit>,
    sig16: Signal<Local, Bits<16>>,
    exp_rebased: Signal<Local, Bits<8>>,
    exp16: Signal<Local, Bits<16>>,
    inf: Signal<Local, Bits<16>>,
    mag: Signal<Local, Bits<16>>,
    result: Signal<Local, Bits<16>>,
}

impl Default for RoundPack {
    fn default() -> Self {
        Self {
            sign: Default::default(),
            exp: Default::default(),
            norm: Default::default(),
            zero: Default::default(),
            special: Default::default(),
            special_val: Default::default(),
            bf16: Default::default(),
            sum: Default::default(),
            sign16: Constant::new(bits_u128(0x8000)),
            zero16: Constant::new(bits_u128(0)),
            one16: Constant::new(bits_u128(1)),
            f16_inf: Constant::new(bits_u128(0x7c00)),
            bf16_inf: Constant::new(bits_u128(0x7f80)),
            f16_emin: Constant::new(bits_u128(113)),
            one8: Constant::new(bits_u128(1)),
            round_up: Default::default(),
            sig16: Default::default(),
            exp_rebased: Default::default(),
            exp16: Default::default(),
            inf: Default::default(),
            mag: Default::default(),
            result: Default::default(),
        }
    }
}

impl Logic for RoundPack {
    #[hdl_gen]
    fn update(&mut self) {
        // f16: significand bits 13..3, guard 2, sticky 1..0.
        self.round_up.next = self.norm.val().get_bit(2)
            && (self.norm.val().get_bit(1) || self.norm.val().get_bit(0) || self.norm.val().get_bit(3));
        self.sig16.next = bit_cast::<16, 11>(self.norm.val().get_bits::<11>(3));
        self.exp_rebased.next = self.exp.val() - self.f16_emin.val();
        self.exp16.next = bit_cast::<16, 8>(self.exp_rebased.val()) << 10;
        self.inf.next = self.f16_inf.val();
        if self.bf16.val() {
            // bf16: significand bits 13..6, guard 5, sticky 4..0.
            self.round_up.next =
                self.norm.val().get_bit(5) && (self.norm.val().get_bits::<5>(0).any() || self.norm.val().get_bit(6));
            self.sig16.next = bit_cast::<16, 8>(self.norm.val().get_bits::<8>(6));
            self.exp_rebased.next = self.exp.val() - self.one8.val();
            self.exp16.next = bit_cast::<16, 8>(self.exp_rebased.val()) << 7;
            self.inf.next = self.bf16_inf.val();
        }
        if self.round_up.val() {
            self.sig16.next = self.sig16.val() + self.one16.val();
        }
        // (exponent - emin) << fraction width + significand with hidden bit: see fp_add.
        self.mag.next = self.exp16.val() + self.sig16.val();
        if self.mag.val() >= self.inf.val() {
            self.mag.next = self.inf.val();
        }
        if self.zero.val() {
            self.mag.next = self.zero16.val();
        }
        self.result.next = self.mag.val();
        if self.sign.val() {
            self.result.next = self.mag.val() | self.sign16.val();
        }
        if self.special.val() {
            self.result.next = self.special_val.val();
        }
        self.sum.next = self.result.val();
    }
}
