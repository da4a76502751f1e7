//! One pipelined 16-bit floating-point add lane for both f16 and bf16 (`bf16` selects), with
//! round-to-nearest-even, subnormals kept and every NaN result `7fff`.
//!
//! Both formats are unpacked into one internal format that holds either exactly: an 8-bit
//! exponent with the bf16 bias (f16 exponents are rebased by +112) and an 11-bit significand
//! (a bf16 significand fills its top 8 bits). Between unpack and round the datapath is the
//! one of [`crate::fp_add`]; the format shows up in three places only:
//! - the minimum exponent at which normalisation stops (113 for f16, 1 for bf16);
//! - the rounding position (significand bit 0 for f16, bit 3 for bf16: bf16 gets six guard
//!   bits instead of three, which rounds the same);
//! - the pack (exponent rebase, fraction width, infinity).
//!
//! The stages and their registers are those of the other adders ([`FP_ADD_LATENCY`]):
//! input registers `s0_`, stage 1, `s1_`, stage 2, `s2_`, stage 3 driving `sum`.

use crate::fp_add::{FP_ADD_LATENCY, bits_u128};
use rust_hdl::prelude::*;

#[allow(unused)]
const _LATENCY_DOC: usize = FP_ADD_LATENCY;

#[derive(LogicBlock)]
pub struct FpAdd16 {
    pub clock: Signal<In, Clock>,
    /// Old memory value `M`.
    pub a: Signal<In, Bits<16>>,
    /// Operand.
    pub b: Signal<In, Bits<16>>,
    /// Format: bf16 when high, f16 when low.
    pub bf16: Signal<In, Bit>,
    /// `a + b`, [`FP_ADD_LATENCY`] cycles after the inputs.
    pub sum: Signal<Out, Bits<16>>,

    // Constants.
    nan16: Constant<Bits<16>>,
    sign16: Constant<Bits<16>>,
    zero16: Constant<Bits<16>>,
    one16: Constant<Bits<16>>,
    f16_inf: Constant<Bits<16>>,
    bf16_inf: Constant<Bits<16>>,
    f16_rebase: Constant<Bits<8>>,
    f16_emin: Constant<Bits<8>>,
    one8: Constant<Bits<8>>,
    zero8: Constant<Bits<8>>,
    hidden11: Constant<Bits<11>>,
    ones14: Constant<Bits<14>>,
    one14: Constant<Bits<14>>,
    lz_pad: Constant<Bits<16>>,
    lz8: Constant<Bits<8>>,
    lz4: Constant<Bits<8>>,
    lz2: Constant<Bits<8>>,

    // Stage 1 locals.
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
    // Stage 2 locals.
    sum15: Signal<Local, Bits<15>>,
    low14: Signal<Local, Bits<14>>,
    lz_t: Signal<Local, Bits<16>>,
    lzc: Signal<Local, Bits<8>>,
    emin: Signal<Local, Bits<8>>,
    norm_limit: Signal<Local, Bits<8>>,
    norm_shift: Signal<Local, Bits<8>>,
    norm_sig: Signal<Local, Bits<14>>,
    norm_exp: Signal<Local, Bits<8>>,
    // Stage 3 locals.
    round_up: Signal<Local, Bit>,
    sig16: Signal<Local, Bits<16>>,
    exp_rebased: Signal<Local, Bits<8>>,
    exp16: Signal<Local, Bits<16>>,
    inf: Signal<Local, Bits<16>>,
    mag: Signal<Local, Bits<16>>,
    result: Signal<Local, Bits<16>>,

    // Pipeline registers: s0_ holds the inputs, s1_/s2_ the results of stages 1/2.
    s0_a: DFF<Bits<16>>,
    s0_b: DFF<Bits<16>>,
    s0_bf16: DFF<Bit>,
    s1_sign: DFF<Bit>,
    s1_exp: DFF<Bits<8>>,
    s1_big: DFF<Bits<14>>,
    s1_small: DFF<Bits<14>>,
    s1_sub: DFF<Bit>,
    s1_special: DFF<Bit>,
    s1_special_val: DFF<Bits<16>>,
    s1_bf16: DFF<Bit>,
    s2_sign: DFF<Bit>,
    s2_exp: DFF<Bits<8>>,
    s2_norm: DFF<Bits<14>>,
    s2_zero: DFF<Bit>,
    s2_special: DFF<Bit>,
    s2_special_val: DFF<Bits<16>>,
    s2_bf16: DFF<Bit>,
}

impl Default for FpAdd16 {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            a: Default::default(),
            b: Default::default(),
            bf16: Default::default(),
            sum: Default::default(),
            nan16: Constant::new(bits_u128(sim::fp::H_NAN as u128)),
            sign16: Constant::new(bits_u128(0x8000)),
            zero16: Constant::new(bits_u128(0)),
            one16: Constant::new(bits_u128(1)),
            f16_inf: Constant::new(bits_u128(0x7c00)),
            bf16_inf: Constant::new(bits_u128(0x7f80)),
            // f16 exponent field + 112 = bf16-biased exponent (127 - 15).
            f16_rebase: Constant::new(bits_u128(112)),
            // Smallest f16 exponent (field 1, also that of subnormals) in the internal bias.
            f16_emin: Constant::new(bits_u128(113)),
            one8: Constant::new(bits_u128(1)),
            zero8: Constant::new(bits_u128(0)),
            hidden11: Constant::new(bits_u128(1 << 10)),
            ones14: Constant::new(bits_u128((1 << 14) - 1)),
            one14: Constant::new(bits_u128(1)),
            lz_pad: Constant::new(bits_u128(0b11)),
            lz8: Constant::new(bits_u128(8)),
            lz4: Constant::new(bits_u128(4)),
            lz2: Constant::new(bits_u128(2)),
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
            sum15: Default::default(),
            low14: Default::default(),
            lz_t: Default::default(),
            lzc: Default::default(),
            emin: Default::default(),
            norm_limit: Default::default(),
            norm_shift: Default::default(),
            norm_sig: Default::default(),
            norm_exp: Default::default(),
            round_up: Default::default(),
            sig16: Default::default(),
            exp_rebased: Default::default(),
            exp16: Default::default(),
            inf: Default::default(),
            mag: Default::default(),
            result: Default::default(),
            s0_a: Default::default(),
            s0_b: Default::default(),
            s0_bf16: Default::default(),
            s1_sign: Default::default(),
            s1_exp: Default::default(),
            s1_big: Default::default(),
            s1_small: Default::default(),
            s1_sub: Default::default(),
            s1_special: Default::default(),
            s1_special_val: Default::default(),
            s1_bf16: Default::default(),
            s2_sign: Default::default(),
            s2_exp: Default::default(),
            s2_norm: Default::default(),
            s2_zero: Default::default(),
            s2_special: Default::default(),
            s2_special_val: Default::default(),
            s2_bf16: Default::default(),
        }
    }
}

impl Logic for FpAdd16 {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, s0_a, s0_b, s0_bf16, s1_sign, s1_exp, s1_big, s1_small, s1_sub, s1_special, s1_special_val,
            s1_bf16, s2_sign, s2_exp, s2_norm, s2_zero, s2_special, s2_special_val, s2_bf16
        );

        // ==========================================================================
        // Input registers (s0_): the operands enter the pipeline unchanged, so no logic
        // sits between the ports and the first registers.
        // ==========================================================================
        self.s0_a.d.next = self.a.val();
        self.s0_b.d.next = self.b.val();
        self.s0_bf16.d.next = self.bf16.val();

        // ==========================================================================
        // Stage 1 (from the s0_ registers): unpack to the internal format, specials, compare and swap, align.
        // ==========================================================================
        // Specials: compare the magnitude with the format's infinity.
        self.in_inf.next = self.f16_inf.val();
        if self.s0_bf16.q.val() {
            self.in_inf.next = self.bf16_inf.val();
        }
        self.a_nan.next = bit_cast::<16, 15>(self.s0_a.q.val().get_bits::<15>(0)) > self.in_inf.val();
        self.b_nan.next = bit_cast::<16, 15>(self.s0_b.q.val().get_bits::<15>(0)) > self.in_inf.val();
        self.a_inf.next = bit_cast::<16, 15>(self.s0_a.q.val().get_bits::<15>(0)) == self.in_inf.val();
        self.b_inf.next = bit_cast::<16, 15>(self.s0_b.q.val().get_bits::<15>(0)) == self.in_inf.val();
        // Sign-magnitude bits order like the magnitudes in both formats.
        self.swap.next = self.s0_a.q.val().get_bits::<15>(0) < self.s0_b.q.val().get_bits::<15>(0);
        self.big_mag.next = self.s0_a.q.val().get_bits::<15>(0);
        self.small_mag.next = self.s0_b.q.val().get_bits::<15>(0);
        self.big_sign.next = self.s0_a.q.val().get_bit(15);
        self.small_sign.next = self.s0_b.q.val().get_bit(15);
        if self.swap.val() {
            self.big_mag.next = self.s0_b.q.val().get_bits::<15>(0);
            self.small_mag.next = self.s0_a.q.val().get_bits::<15>(0);
            self.big_sign.next = self.s0_b.q.val().get_bit(15);
            self.small_sign.next = self.s0_a.q.val().get_bit(15);
        }
        // Internal exponent (bf16 bias; subnormals at the format's minimum) and 11-bit
        // significand with the hidden bit.
        if self.s0_bf16.q.val() {
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
        self.small_lost.next =
            (self.small_ext.val() & !(self.ones14.val() << self.exp_diff.val())).any();
        self.s1_small.d.next = self.small_shifted.val();
        if self.small_lost.val() {
            self.s1_small.d.next = self.small_shifted.val() | self.one14.val();
        }
        self.s1_big.d.next = bit_cast::<14, 11>(self.big_sig.val()) << 3;
        self.s1_exp.d.next = self.big_exp.val();
        self.s1_sign.d.next = self.big_sign.val();
        self.s1_sub.d.next = self.big_sign.val() ^ self.small_sign.val();
        self.s1_bf16.d.next = self.s0_bf16.q.val();
        // Special results: any NaN (or inf + -inf) is 7fff; else an infinity passes.
        self.s1_special.d.next =
            self.a_nan.val() || self.b_nan.val() || self.a_inf.val() || self.b_inf.val();
        self.s1_special_val.d.next = self.nan16.val();
        if !self.a_nan.val() && !self.b_nan.val() {
            if self.a_inf.val() && self.b_inf.val() {
                if self.s0_a.q.val().get_bit(15) == self.s0_b.q.val().get_bit(15) {
                    self.s1_special_val.d.next = self.s0_a.q.val();
                }
            } else if self.a_inf.val() {
                self.s1_special_val.d.next = self.s0_a.q.val();
            } else if self.b_inf.val() {
                self.s1_special_val.d.next = self.s0_b.q.val();
            }
        }

        // ==========================================================================
        // Stage 2: add/subtract, leading-zero count, normalise.
        // ==========================================================================
        if self.s1_sub.q.val() {
            self.sum15.next =
                bit_cast::<15, 14>(self.s1_big.q.val()) - bit_cast::<15, 14>(self.s1_small.q.val());
        } else {
            self.sum15.next =
                bit_cast::<15, 14>(self.s1_big.q.val()) + bit_cast::<15, 14>(self.s1_small.q.val());
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
        if self.s1_bf16.q.val() {
            self.emin.next = self.one8.val();
        }
        self.norm_limit.next = self.s1_exp.q.val() - self.emin.val();
        self.norm_shift.next = self.lzc.val();
        if self.norm_limit.val() < self.lzc.val() {
            self.norm_shift.next = self.norm_limit.val();
        }
        self.norm_sig.next = self.low14.val() << self.norm_shift.val();
        self.norm_exp.next = self.s1_exp.q.val() - self.norm_shift.val();
        if self.sum15.val().get_bit(14) {
            self.norm_sig.next = self.sum15.val().get_bits::<14>(1);
            if self.sum15.val().get_bit(0) {
                self.norm_sig.next = self.sum15.val().get_bits::<14>(1) | self.one14.val();
            }
            self.norm_exp.next = self.s1_exp.q.val() + self.one8.val();
        }
        self.s2_norm.d.next = self.norm_sig.val();
        self.s2_exp.d.next = self.norm_exp.val();
        self.s2_zero.d.next = !self.sum15.val().any();
        self.s2_sign.d.next = self.s1_sign.q.val();
        if self.s1_sub.q.val() && !self.sum15.val().any() {
            self.s2_sign.d.next = false;
        }
        self.s2_special.d.next = self.s1_special.q.val();
        self.s2_special_val.d.next = self.s1_special_val.q.val();
        self.s2_bf16.d.next = self.s1_bf16.q.val();

        // ==========================================================================
        // Stage 3 (from the s2_ registers, drives `sum`): round to nearest even at the
        // format's position, pack, overflow.
        // ==========================================================================
        // f16: significand bits 13..3, guard 2, sticky 1..0.
        self.round_up.next = self.s2_norm.q.val().get_bit(2)
            && (self.s2_norm.q.val().get_bit(1)
                || self.s2_norm.q.val().get_bit(0)
                || self.s2_norm.q.val().get_bit(3));
        self.sig16.next = bit_cast::<16, 11>(self.s2_norm.q.val().get_bits::<11>(3));
        self.exp_rebased.next = self.s2_exp.q.val() - self.f16_emin.val();
        self.exp16.next = bit_cast::<16, 8>(self.exp_rebased.val()) << 10;
        self.inf.next = self.f16_inf.val();
        if self.s2_bf16.q.val() {
            // bf16: significand bits 13..6, guard 5, sticky 4..0.
            self.round_up.next = self.s2_norm.q.val().get_bit(5)
                && (self.s2_norm.q.val().get_bits::<5>(0).any() || self.s2_norm.q.val().get_bit(6));
            self.sig16.next = bit_cast::<16, 8>(self.s2_norm.q.val().get_bits::<8>(6));
            self.exp_rebased.next = self.s2_exp.q.val() - self.one8.val();
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
        if self.s2_zero.q.val() {
            self.mag.next = self.zero16.val();
        }
        self.result.next = self.mag.val();
        if self.s2_sign.q.val() {
            self.result.next = self.mag.val() | self.sign16.val();
        }
        if self.s2_special.q.val() {
            self.result.next = self.s2_special_val.q.val();
        }
        self.sum.next = self.result.val();
    }
}
