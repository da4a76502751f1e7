//! Stage 3 of the segmented f16/bf16 lane: round from the `s2_` registers (segment I) and
//! pack behind the `crnd` cut (segment J), then the optional output register (`cout`).

use super::{Group, cut_on};
use crate::config::Cut;
use crate::fp_add::bits_u128;
use rust_hdl::prelude::*;

/// The `s2_` registers, then segment I: round to nearest even at the format's position (f16:
/// significand bits 13..3, guard 2, sticky 1..0; bf16: bits 13..6, guard 5, sticky 4..0),
/// both formats' roundings then the select (the format bit, one register shared by every
/// lane, drives one LUT level per bit here, not the increment's carry chain); the exponent
/// field for the three values the significand's bits above the fraction can take (subnormal,
/// normal, rounding carry) with their overflow flags, so that the pack only selects.
#[derive(LogicBlock)]
pub struct Round {
    pub clock: Signal<In, Clock>,
    /// Stage 2's results ([`super::deep_normalise::Normalise`]), into the `s2_` registers.
    pub norm: Signal<In, Bits<14>>,
    pub norm_exp: Signal<In, Bits<8>>,
    pub norm_sb: Signal<In, Bits<20>>,
    /// The rounded significand (bit 10 the hidden bit, 11 the carry), the three exponent
    /// fields, their overflow flags (bit k: value k overflows) and the side band.
    pub sig: Signal<Out, Bits<12>>,
    pub ef0: Signal<Out, Bits<8>>,
    pub ef1: Signal<Out, Bits<8>>,
    pub ef2: Signal<Out, Bits<8>>,
    pub ov: Signal<Out, Bits<3>>,
    pub sb: Signal<Out, Bits<20>>,
    one8: Constant<Bits<8>>,
    one12: Constant<Bits<12>>,
    eight12: Constant<Bits<12>>,
    zero3: Constant<Bits<3>>,
    ov_0: Constant<Bits<3>>,
    ov_1: Constant<Bits<3>>,
    ov_2: Constant<Bits<3>>,
    e30: Constant<Bits<8>>,
    e31: Constant<Bits<8>>,
    e32: Constant<Bits<8>>,
    e254: Constant<Bits<8>>,
    e255: Constant<Bits<8>>,
    round_up: Signal<Local, Bit>,
    /// bf16's round-up and rounded significand (`round_up`, `sig12`: f16's).
    ru_bf: Signal<Local, Bit>,
    sig_bf: Signal<Local, Bits<12>>,
    sig12: Signal<Local, Bits<12>>,
    s2_norm: DFF<Bits<14>>,
    s2_exp: DFF<Bits<8>>,
    s2_sb: DFF<Bits<20>>,
}

impl Default for Round {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            norm: Default::default(),
            norm_exp: Default::default(),
            norm_sb: Default::default(),
            sig: Default::default(),
            ef0: Default::default(),
            ef1: Default::default(),
            ef2: Default::default(),
            ov: Default::default(),
            sb: Default::default(),
            one8: Constant::new(bits_u128(1)),
            one12: Constant::new(bits_u128(1)),
            eight12: Constant::new(bits_u128(8)),
            zero3: Constant::new(bits_u128(0)),
            ov_0: Constant::new(bits_u128(1)),
            ov_1: Constant::new(bits_u128(2)),
            ov_2: Constant::new(bits_u128(4)),
            e30: Constant::new(bits_u128(30)),
            e31: Constant::new(bits_u128(31)),
            e32: Constant::new(bits_u128(32)),
            e254: Constant::new(bits_u128(254)),
            e255: Constant::new(bits_u128(255)),
            round_up: Default::default(),
            ru_bf: Default::default(),
            sig_bf: Default::default(),
            sig12: Default::default(),
            s2_norm: Default::default(),
            s2_exp: Default::default(),
            s2_sb: Default::default(),
        }
    }
}

impl Logic for Round {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, s2_norm, s2_exp, s2_sb);
        // The `s2_` registers: the end of stage 2.
        self.s2_norm.d.next = self.norm.val();
        self.s2_exp.d.next = self.norm_exp.val();
        self.s2_sb.d.next = self.norm_sb.val();

        // Segment I.
        // (Both formats' roundings, then the select: the format bit, one register shared by
        // every lane, drives one LUT level per bit here, not the increment's carry chain.)
        self.round_up.next = self.s2_norm.q.val().get_bit(2)
            && (self.s2_norm.q.val().get_bit(1) || self.s2_norm.q.val().get_bit(0) || self.s2_norm.q.val().get_bit(3));
        self.ru_bf.next = self.s2_norm.q.val().get_bit(5)
            && (self.s2_norm.q.val().get_bits::<5>(0).any() || self.s2_norm.q.val().get_bit(6));
        self.sig12.next = bit_cast::<12, 11>(self.s2_norm.q.val().get_bits::<11>(3));
        self.sig_bf.next = self.sig12.val();
        if self.round_up.val() {
            self.sig12.next = self.sig12.val() + self.one12.val();
        }
        if self.ru_bf.val() {
            self.sig_bf.next = self.sig_bf.val() + self.eight12.val();
        }
        self.sig.next = self.sig12.val();
        if self.s2_sb.q.val().get_bit(0) {
            self.sig.next = self.sig_bf.val();
        }
        self.ef0.next = self.s2_exp.q.val() - self.one8.val();
        self.ef1.next = self.s2_exp.q.val();
        self.ef2.next = self.s2_exp.q.val() + self.one8.val();
        // Overflow: field >= 31 (f16) or 255 (bf16).
        self.ov.next = self.zero3.val();
        if self.s2_sb.q.val().get_bit(0) {
            if self.s2_exp.q.val() >= self.e254.val() {
                self.ov.next = self.ov.val() | self.ov_2.val();
            }
            if self.s2_exp.q.val() >= self.e255.val() {
                self.ov.next = self.ov.val() | self.ov_1.val();
            }
        } else {
            if self.s2_exp.q.val() >= self.e30.val() {
                self.ov.next = self.ov.val() | self.ov_2.val();
            }
            if self.s2_exp.q.val() >= self.e31.val() {
                self.ov.next = self.ov.val() | self.ov_1.val();
            }
            if self.s2_exp.q.val() >= self.e32.val() {
                self.ov.next = self.ov.val() | self.ov_0.val();
            }
        }
        self.sb.next = self.s2_sb.q.val();
    }
}

/// The `crnd` cut, then segment J: pack (the exponent field selected by the rounded
/// significand's top bits), overflow, zero, sign, specials; then the `cout` cut.
#[derive(LogicBlock)]
pub struct Pack {
    pub clock: Signal<In, Clock>,
    /// Segment I's results ([`Round`]).
    pub sig: Signal<In, Bits<12>>,
    pub ef0: Signal<In, Bits<8>>,
    pub ef1: Signal<In, Bits<8>>,
    pub ef2: Signal<In, Bits<8>>,
    pub ov: Signal<In, Bits<3>>,
    pub sb: Signal<In, Bits<20>>,
    /// The lane's result.
    pub sum: Signal<Out, Bits<16>>,
    sign16: Constant<Bits<16>>,
    zero16: Constant<Bits<16>>,
    f16_inf: Constant<Bits<16>>,
    bf16_inf: Constant<Bits<16>>,
    ef: Signal<Local, Bits<8>>,
    ovf: Signal<Local, Bit>,
    mag: Signal<Local, Bits<16>>,
    inf_out: Signal<Local, Bits<16>>,
    result: Signal<Local, Bits<16>>,
    crnd_sig: Cut<Bits<12>>,
    crnd_ef0: Cut<Bits<8>>,
    crnd_ef1: Cut<Bits<8>>,
    crnd_ef2: Cut<Bits<8>>,
    crnd_ov: Cut<Bits<3>>,
    crnd_sb: Cut<Bits<20>>,
    cout_result: Cut<Bits<16>>,
}

impl Pack {
    pub fn new(mask: u32) -> Self {
        let crnd = cut_on(mask, Group::Crnd);
        Self {
            clock: Default::default(),
            sig: Default::default(),
            ef0: Default::default(),
            ef1: Default::default(),
            ef2: Default::default(),
            ov: Default::default(),
            sb: Default::default(),
            sum: Default::default(),
            sign16: Constant::new(bits_u128(0x8000)),
            zero16: Constant::new(bits_u128(0)),
            f16_inf: Constant::new(bits_u128(0x7c00)),
            bf16_inf: Constant::new(bits_u128(0x7f80)),
            ef: Default::default(),
            ovf: Default::default(),
            mag: Default::default(),
            inf_out: Default::default(),
            result: Default::default(),
            crnd_sig: Cut::new(crnd),
            crnd_ef0: Cut::new(crnd),
            crnd_ef1: Cut::new(crnd),
            crnd_ef2: Cut::new(crnd),
            crnd_ov: Cut::new(crnd),
            crnd_sb: Cut::new(crnd),
            cout_result: Cut::new(cut_on(mask, Group::Cout)),
        }
    }
}

impl Logic for Pack {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, crnd_sig, crnd_ef0, crnd_ef1, crnd_ef2, crnd_ov, crnd_sb, cout_result);
        // The `crnd` cut.
        self.crnd_sig.d.next = self.sig.val();
        self.crnd_ef0.d.next = self.ef0.val();
        self.crnd_ef1.d.next = self.ef1.val();
        self.crnd_ef2.d.next = self.ef2.val();
        self.crnd_ov.d.next = self.ov.val();
        self.crnd_sb.d.next = self.sb.val();

        // Segment J.
        self.ef.next = self.crnd_ef0.q.val();
        self.ovf.next = self.crnd_ov.q.val().get_bit(0);
        if self.crnd_sig.q.val().get_bit(10) {
            self.ef.next = self.crnd_ef1.q.val();
            self.ovf.next = self.crnd_ov.q.val().get_bit(1);
        }
        if self.crnd_sig.q.val().get_bit(11) {
            self.ef.next = self.crnd_ef2.q.val();
            self.ovf.next = self.crnd_ov.q.val().get_bit(2);
        }
        self.mag.next =
            (bit_cast::<16, 8>(self.ef.val()) << 10) | bit_cast::<16, 10>(self.crnd_sig.q.val().get_bits::<10>(0));
        self.inf_out.next = self.f16_inf.val();
        if self.crnd_sb.q.val().get_bit(0) {
            self.mag.next =
                (bit_cast::<16, 8>(self.ef.val()) << 7) | bit_cast::<16, 7>(self.crnd_sig.q.val().get_bits::<7>(3));
            self.inf_out.next = self.bf16_inf.val();
        }
        if self.ovf.val() {
            self.mag.next = self.inf_out.val();
        }
        if self.crnd_sb.q.val().get_bit(3) {
            self.mag.next = self.zero16.val();
        }
        self.result.next = self.mag.val();
        if self.crnd_sb.q.val().get_bit(2) {
            self.result.next = self.mag.val() | self.sign16.val();
        }
        if self.crnd_sb.q.val().get_bit(1) {
            self.result.next = self.crnd_sb.q.val().get_bits::<16>(4);
        }
        self.cout_result.d.next = self.result.val();
        self.sum.next = self.cout_result.q.val();
    }
}
