//! Segments A and B of the segmented f16/bf16 lane: classify and unpack each operand in its
//! own format beside the magnitude compare, then (behind the `ccmp` cut) the swap, the
//! exponent differences and the special result.

use super::{Group, cut_on};
use crate::config::Cut;
use crate::fp_add::bits_u128;
use rust_hdl::prelude::*;

/// Segment A (combinational, from the input registers): each operand classified (NaN,
/// infinity) and unpacked in its format (exponent in field units, subnormals at 1, so f16
/// needs no rebase; 11-bit significand with the hidden bit, a bf16 one in its top 8 bits),
/// and the magnitude compare in two halves. Sign-magnitude bits order like the magnitudes in
/// both formats.
#[derive(LogicBlock)]
pub struct Classify {
    /// The operands and the format (input registers).
    pub a: Signal<In, Bits<16>>,
    pub b: Signal<In, Bits<16>>,
    pub bf16: Signal<In, Bit>,
    /// `a < b` and `a == b` of the high 7 magnitude bits, `a < b` of the low 8.
    pub lt_hi: Signal<Out, Bit>,
    pub eq_hi: Signal<Out, Bit>,
    pub lt_lo: Signal<Out, Bit>,
    pub a_sig: Signal<Out, Bits<11>>,
    pub b_sig: Signal<Out, Bits<11>>,
    pub a_exp: Signal<Out, Bits<8>>,
    pub b_exp: Signal<Out, Bits<8>>,
    /// Flags: 0 bf16, 1 a NaN, 2 b NaN, 3 a inf, 4 b inf, 5 a sign, 6 b sign.
    pub fl: Signal<Out, Bits<7>>,
    hidden11: Constant<Bits<11>>,
    one8: Constant<Bits<8>>,
    zero7: Constant<Bits<7>>,
    fl_bf16: Constant<Bits<7>>,
    fl_a_nan: Constant<Bits<7>>,
    fl_b_nan: Constant<Bits<7>>,
    fl_a_inf: Constant<Bits<7>>,
    fl_b_inf: Constant<Bits<7>>,
    fl_a_sign: Constant<Bits<7>>,
    fl_b_sign: Constant<Bits<7>>,
    a_e8: Signal<Local, Bits<8>>,
    b_e8: Signal<Local, Bits<8>>,
    a_e5: Signal<Local, Bits<5>>,
    b_e5: Signal<Local, Bits<5>>,
    a_nan: Signal<Local, Bit>,
    a_inf: Signal<Local, Bit>,
    b_nan: Signal<Local, Bit>,
    b_inf: Signal<Local, Bit>,
}

impl Default for Classify {
    fn default() -> Self {
        Self {
            a: Default::default(),
            b: Default::default(),
            bf16: Default::default(),
            lt_hi: Default::default(),
            eq_hi: Default::default(),
            lt_lo: Default::default(),
            a_sig: Default::default(),
            b_sig: Default::default(),
            a_exp: Default::default(),
            b_exp: Default::default(),
            fl: Default::default(),
            hidden11: Constant::new(bits_u128(1 << 10)),
            one8: Constant::new(bits_u128(1)),
            zero7: Constant::new(bits_u128(0)),
            fl_bf16: Constant::new(bits_u128(1)),
            fl_a_nan: Constant::new(bits_u128(2)),
            fl_b_nan: Constant::new(bits_u128(4)),
            fl_a_inf: Constant::new(bits_u128(8)),
            fl_b_inf: Constant::new(bits_u128(16)),
            fl_a_sign: Constant::new(bits_u128(32)),
            fl_b_sign: Constant::new(bits_u128(64)),
            a_e8: Default::default(),
            b_e8: Default::default(),
            a_e5: Default::default(),
            b_e5: Default::default(),
            a_nan: Default::default(),
            a_inf: Default::default(),
            b_nan: Default::default(),
            b_inf: Default::default(),
        }
    }
}

impl Logic for Classify {
    #[hdl_gen]
    fn update(&mut self) {
        self.a_e8.next = self.a.val().get_bits::<8>(7);
        self.b_e8.next = self.b.val().get_bits::<8>(7);
        self.a_e5.next = self.a.val().get_bits::<5>(10);
        self.b_e5.next = self.b.val().get_bits::<5>(10);
        if self.bf16.val() {
            self.a_nan.next = self.a_e8.val().all() && self.a.val().get_bits::<7>(0).any();
            self.a_inf.next = self.a_e8.val().all() && !self.a.val().get_bits::<7>(0).any();
            self.b_nan.next = self.b_e8.val().all() && self.b.val().get_bits::<7>(0).any();
            self.b_inf.next = self.b_e8.val().all() && !self.b.val().get_bits::<7>(0).any();
            self.a_sig.next = bit_cast::<11, 7>(self.a.val().get_bits::<7>(0)) << 3;
            self.b_sig.next = bit_cast::<11, 7>(self.b.val().get_bits::<7>(0)) << 3;
            self.a_exp.next = self.a_e8.val();
            self.b_exp.next = self.b_e8.val();
            if self.a_e8.val().any() {
                self.a_sig.next = self.a_sig.val() | self.hidden11.val();
            } else {
                self.a_exp.next = self.one8.val();
            }
            if self.b_e8.val().any() {
                self.b_sig.next = self.b_sig.val() | self.hidden11.val();
            } else {
                self.b_exp.next = self.one8.val();
            }
        } else {
            self.a_nan.next = self.a_e5.val().all() && self.a.val().get_bits::<10>(0).any();
            self.a_inf.next = self.a_e5.val().all() && !self.a.val().get_bits::<10>(0).any();
            self.b_nan.next = self.b_e5.val().all() && self.b.val().get_bits::<10>(0).any();
            self.b_inf.next = self.b_e5.val().all() && !self.b.val().get_bits::<10>(0).any();
            self.a_sig.next = bit_cast::<11, 10>(self.a.val().get_bits::<10>(0));
            self.b_sig.next = bit_cast::<11, 10>(self.b.val().get_bits::<10>(0));
            self.a_exp.next = bit_cast::<8, 5>(self.a_e5.val());
            self.b_exp.next = bit_cast::<8, 5>(self.b_e5.val());
            if self.a_e5.val().any() {
                self.a_sig.next = self.a_sig.val() | self.hidden11.val();
            } else {
                self.a_exp.next = self.one8.val();
            }
            if self.b_e5.val().any() {
                self.b_sig.next = self.b_sig.val() | self.hidden11.val();
            } else {
                self.b_exp.next = self.one8.val();
            }
        }
        // Sign-magnitude bits order like the magnitudes in both formats.
        self.lt_hi.next = self.a.val().get_bits::<7>(8) < self.b.val().get_bits::<7>(8);
        self.eq_hi.next = self.a.val().get_bits::<7>(8) == self.b.val().get_bits::<7>(8);
        self.lt_lo.next = self.a.val().get_bits::<8>(0) < self.b.val().get_bits::<8>(0);
        // Flags: 0 bf16, 1 a NaN, 2 b NaN, 3 a inf, 4 b inf, 5 a sign, 6 b sign.
        self.fl.next = self.zero7.val();
        if self.bf16.val() {
            self.fl.next = self.fl.val() | self.fl_bf16.val();
        }
        if self.a_nan.val() {
            self.fl.next = self.fl.val() | self.fl_a_nan.val();
        }
        if self.b_nan.val() {
            self.fl.next = self.fl.val() | self.fl_b_nan.val();
        }
        if self.a_inf.val() {
            self.fl.next = self.fl.val() | self.fl_a_inf.val();
        }
        if self.b_inf.val() {
            self.fl.next = self.fl.val() | self.fl_b_inf.val();
        }
        if self.a.val().get_bit(15) {
            self.fl.next = self.fl.val() | self.fl_a_sign.val();
        }
        if self.b.val().get_bit(15) {
            self.fl.next = self.fl.val() | self.fl_b_sign.val();
        }
    }
}

/// The `ccmp` cut, then segment B: swap (the larger magnitude first; on a tie `a` stays
/// first), the exponent differences both ways beside the swap decision (4 bits of shift and a
/// flag for 16 or more), the special result, and the side band `sb`: 0 bf16, 1 special,
/// 2 sign, 3 sub (from segment F on: zero result), 4.. the special result.
#[derive(LogicBlock)]
pub struct Swap {
    pub clock: Signal<In, Clock>,
    /// Segment A's results ([`Classify`]).
    pub lt_hi: Signal<In, Bit>,
    pub eq_hi: Signal<In, Bit>,
    pub lt_lo: Signal<In, Bit>,
    pub a_sig: Signal<In, Bits<11>>,
    pub b_sig: Signal<In, Bits<11>>,
    pub a_exp: Signal<In, Bits<8>>,
    pub b_exp: Signal<In, Bits<8>>,
    pub fl: Signal<In, Bits<7>>,
    /// The larger and the smaller significand, the larger exponent, the alignment shift
    /// (`far`: 16 or more) and the side band.
    pub big_sig: Signal<Out, Bits<11>>,
    pub small_sig: Signal<Out, Bits<11>>,
    pub big_exp: Signal<Out, Bits<8>>,
    pub sh: Signal<Out, Bits<4>>,
    pub far: Signal<Out, Bit>,
    pub sb_b: Signal<Out, Bits<20>>,
    nan16: Constant<Bits<16>>,
    sign16: Constant<Bits<16>>,
    f16_inf: Constant<Bits<16>>,
    bf16_inf: Constant<Bits<16>>,
    sb_bf16: Constant<Bits<20>>,
    sb_special: Constant<Bits<20>>,
    sb_sign: Constant<Bits<20>>,
    sb_sub: Constant<Bits<20>>,
    swapped: Signal<Local, Bit>,
    dab: Signal<Local, Bits<8>>,
    dba: Signal<Local, Bits<8>>,
    big_sign: Signal<Local, Bit>,
    inf_mag: Signal<Local, Bits<16>>,
    special_val: Signal<Local, Bits<16>>,
    ccmp_lt_hi: Cut<Bit>,
    ccmp_eq_hi: Cut<Bit>,
    ccmp_lt_lo: Cut<Bit>,
    ccmp_a_sig: Cut<Bits<11>>,
    ccmp_b_sig: Cut<Bits<11>>,
    ccmp_a_exp: Cut<Bits<8>>,
    ccmp_b_exp: Cut<Bits<8>>,
    ccmp_fl: Cut<Bits<7>>,
}

impl Swap {
    pub fn new(mask: u32) -> Self {
        let ccmp = cut_on(mask, Group::Ccmp);
        Self {
            clock: Default::default(),
            lt_hi: Default::default(),
            eq_hi: Default::default(),
            lt_lo: Default::default(),
            a_sig: Default::default(),
            b_sig: Default::default(),
            a_exp: Default::default(),
            b_exp: Default::default(),
            fl: Default::default(),
            big_sig: Default::default(),
            small_sig: Default::default(),
            big_exp: Default::default(),
            sh: Default::default(),
            far: Default::default(),
            sb_b: Default::default(),
            nan16: Constant::new(bits_u128(sim::fp::H_NAN as u128)),
            sign16: Constant::new(bits_u128(0x8000)),
            f16_inf: Constant::new(bits_u128(0x7c00)),
            bf16_inf: Constant::new(bits_u128(0x7f80)),
            sb_bf16: Constant::new(bits_u128(1)),
            sb_special: Constant::new(bits_u128(2)),
            sb_sign: Constant::new(bits_u128(4)),
            sb_sub: Constant::new(bits_u128(8)),
            swapped: Default::default(),
            dab: Default::default(),
            dba: Default::default(),
            big_sign: Default::default(),
            inf_mag: Default::default(),
            special_val: Default::default(),
            ccmp_lt_hi: Cut::new(ccmp),
            ccmp_eq_hi: Cut::new(ccmp),
            ccmp_lt_lo: Cut::new(ccmp),
            ccmp_a_sig: Cut::new(ccmp),
            ccmp_b_sig: Cut::new(ccmp),
            ccmp_a_exp: Cut::new(ccmp),
            ccmp_b_exp: Cut::new(ccmp),
            ccmp_fl: Cut::new(ccmp),
        }
    }
}

impl Logic for Swap {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, ccmp_lt_hi, ccmp_eq_hi, ccmp_lt_lo, ccmp_a_sig, ccmp_b_sig, ccmp_a_exp, ccmp_b_exp);
        clock!(self, clock, ccmp_fl);
        // The `ccmp` cut.
        self.ccmp_lt_hi.d.next = self.lt_hi.val();
        self.ccmp_eq_hi.d.next = self.eq_hi.val();
        self.ccmp_lt_lo.d.next = self.lt_lo.val();
        self.ccmp_a_sig.d.next = self.a_sig.val();
        self.ccmp_b_sig.d.next = self.b_sig.val();
        self.ccmp_a_exp.d.next = self.a_exp.val();
        self.ccmp_b_exp.d.next = self.b_exp.val();
        self.ccmp_fl.d.next = self.fl.val();

        // Segment B.
        self.swapped.next = self.ccmp_lt_hi.q.val() || (self.ccmp_eq_hi.q.val() && self.ccmp_lt_lo.q.val());
        // Exponent differences both ways (beside the swap decision): the low 4 bits are the
        // alignment shift, and a difference of 16 or more (`csh_far`) shifts everything out.
        self.dab.next = self.ccmp_a_exp.q.val() - self.ccmp_b_exp.q.val();
        self.dba.next = self.ccmp_b_exp.q.val() - self.ccmp_a_exp.q.val();
        self.big_sig.next = self.ccmp_a_sig.q.val();
        self.small_sig.next = self.ccmp_b_sig.q.val();
        self.big_exp.next = self.ccmp_a_exp.q.val();
        self.sh.next = self.dab.val().get_bits::<4>(0);
        self.far.next = self.dab.val().get_bits::<4>(4).any();
        self.big_sign.next = self.ccmp_fl.q.val().get_bit(5);
        if self.swapped.val() {
            self.big_sig.next = self.ccmp_b_sig.q.val();
            self.small_sig.next = self.ccmp_a_sig.q.val();
            self.big_exp.next = self.ccmp_b_exp.q.val();
            self.sh.next = self.dba.val().get_bits::<4>(0);
            self.far.next = self.dba.val().get_bits::<4>(4).any();
            self.big_sign.next = self.ccmp_fl.q.val().get_bit(6);
        }
        // Special results: a NaN input or inf + -inf gives 7fff; else an infinity passes.
        self.inf_mag.next = self.f16_inf.val();
        if self.ccmp_fl.q.val().get_bit(0) {
            self.inf_mag.next = self.bf16_inf.val();
        }
        self.special_val.next = self.inf_mag.val();
        if (self.ccmp_fl.q.val().get_bit(3) && self.ccmp_fl.q.val().get_bit(5))
            || (!self.ccmp_fl.q.val().get_bit(3) && self.ccmp_fl.q.val().get_bit(6))
        {
            self.special_val.next = self.inf_mag.val() | self.sign16.val();
        }
        if self.ccmp_fl.q.val().get_bit(1)
            || self.ccmp_fl.q.val().get_bit(2)
            || (self.ccmp_fl.q.val().get_bit(3)
                && self.ccmp_fl.q.val().get_bit(4)
                && (self.ccmp_fl.q.val().get_bit(5) != self.ccmp_fl.q.val().get_bit(6)))
        {
            self.special_val.next = self.nan16.val();
        }
        self.sb_b.next = bit_cast::<20, 16>(self.special_val.val()) << 4;
        if self.ccmp_fl.q.val().get_bit(0) {
            self.sb_b.next = self.sb_b.val() | self.sb_bf16.val();
        }
        if self.ccmp_fl.q.val().get_bits::<4>(1).any() {
            self.sb_b.next = self.sb_b.val() | self.sb_special.val();
        }
        if self.big_sign.val() {
            self.sb_b.next = self.sb_b.val() | self.sb_sign.val();
        }
        if self.ccmp_fl.q.val().get_bit(5) != self.ccmp_fl.q.val().get_bit(6) {
            self.sb_b.next = self.sb_b.val() | self.sb_sub.val();
        }
    }
}
