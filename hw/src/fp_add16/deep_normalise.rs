//! Segments F and H of the segmented f16/bf16 lane, behind the `csum` cut: the leading-zero
//! count interleaved with the normalising shift. The last block of stage 2: its outputs feed
//! the `s2_` registers.

use super::{Group, cut_on};
use crate::config::Cut;
use crate::fp_add::bits_u128;
use rust_hdl::prelude::*;

/// The `csum` cut, then segment F: zero result; the count's first two decisions (of the low
/// 14 bits with the limit marker and a pad one, which stops the count at 14) and the coarse
/// normalising shift by 8 and 4 from three parallel nibble tests; a carry out instead takes
/// one right shift (keeping the sticky) and exponent + 1. Then the `cnrm` cut, and segment H:
/// the count's last two decisions and the fine shift by 2 and 1, exponent - count.
#[derive(LogicBlock)]
pub struct Normalise {
    pub clock: Signal<In, Clock>,
    /// Segment D's results ([`super::deep_add::Add`]).
    pub sum: Signal<In, Bits<15>>,
    pub e_0: Signal<In, Bits<8>>,
    pub e_p1: Signal<In, Bits<8>>,
    pub e_m4: Signal<In, Bits<8>>,
    pub e_m8: Signal<In, Bits<8>>,
    pub e_m12: Signal<In, Bits<8>>,
    pub sum_mark: Signal<In, Bits<15>>,
    pub sum_sb: Signal<In, Bits<20>>,
    /// The normalised significand with guard, round and sticky, its exponent and the side
    /// band: the D inputs of the `s2_` registers.
    pub norm: Signal<Out, Bits<14>>,
    pub norm_exp: Signal<Out, Bits<8>>,
    pub norm_sb: Signal<Out, Bits<20>>,
    one8: Constant<Bits<8>>,
    two8: Constant<Bits<8>>,
    three8: Constant<Bits<8>>,
    one14: Constant<Bits<14>>,
    lz_pad: Constant<Bits<15>>,
    t3_carry: Constant<Bits<3>>,
    sb_sign: Constant<Bits<20>>,
    sb_sub: Constant<Bits<20>>,
    lz_t: Signal<Local, Bits<15>>,
    h3: Signal<Local, Bit>,
    h2: Signal<Local, Bit>,
    h1: Signal<Local, Bit>,
    low_c: Signal<Local, Bits<14>>,
    t3: Signal<Local, Bits<3>>,
    e_c: Signal<Local, Bits<8>>,
    sb_f: Signal<Local, Bits<20>>,
    d2: Signal<Local, Bit>,
    d1: Signal<Local, Bit>,
    csum_sum: Cut<Bits<15>>,
    csum_exp: Cut<Bits<8>>,
    csum_e_p1: Cut<Bits<8>>,
    csum_e_m4: Cut<Bits<8>>,
    csum_e_m8: Cut<Bits<8>>,
    csum_e_m12: Cut<Bits<8>>,
    csum_mark: Cut<Bits<15>>,
    csum_sb: Cut<Bits<20>>,
    cnrm_low: Cut<Bits<14>>,
    cnrm_t3: Cut<Bits<3>>,
    cnrm_exp: Cut<Bits<8>>,
    cnrm_sb: Cut<Bits<20>>,
}

impl Normalise {
    pub fn new(mask: u32) -> Self {
        let (csum, cnrm) = (cut_on(mask, Group::Csum), cut_on(mask, Group::Cnrm));
        Self {
            clock: Default::default(),
            sum: Default::default(),
            e_0: Default::default(),
            e_p1: Default::default(),
            e_m4: Default::default(),
            e_m8: Default::default(),
            e_m12: Default::default(),
            sum_mark: Default::default(),
            sum_sb: Default::default(),
            norm: Default::default(),
            norm_exp: Default::default(),
            norm_sb: Default::default(),
            one8: Constant::new(bits_u128(1)),
            two8: Constant::new(bits_u128(2)),
            three8: Constant::new(bits_u128(3)),
            one14: Constant::new(bits_u128(1)),
            lz_pad: Constant::new(bits_u128(1)),
            t3_carry: Constant::new(bits_u128(0b110)),
            sb_sign: Constant::new(bits_u128(4)),
            sb_sub: Constant::new(bits_u128(8)),
            lz_t: Default::default(),
            h3: Default::default(),
            h2: Default::default(),
            h1: Default::default(),
            low_c: Default::default(),
            t3: Default::default(),
            e_c: Default::default(),
            sb_f: Default::default(),
            d2: Default::default(),
            d1: Default::default(),
            csum_sum: Cut::new(csum),
            csum_exp: Cut::new(csum),
            csum_e_p1: Cut::new(csum),
            csum_e_m4: Cut::new(csum),
            csum_e_m8: Cut::new(csum),
            csum_e_m12: Cut::new(csum),
            csum_mark: Cut::new(csum),
            csum_sb: Cut::new(csum),
            cnrm_low: Cut::new(cnrm),
            cnrm_t3: Cut::new(cnrm),
            cnrm_exp: Cut::new(cnrm),
            cnrm_sb: Cut::new(cnrm),
        }
    }
}

impl Logic for Normalise {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, csum_sum, csum_exp, csum_e_p1, csum_e_m4, csum_e_m8, csum_e_m12, csum_mark, csum_sb);
        clock!(self, clock, cnrm_low, cnrm_t3, cnrm_exp, cnrm_sb);
        // The `csum` cut.
        self.csum_sum.d.next = self.sum.val();
        self.csum_exp.d.next = self.e_0.val();
        self.csum_e_p1.d.next = self.e_p1.val();
        self.csum_e_m4.d.next = self.e_m4.val();
        self.csum_e_m8.d.next = self.e_m8.val();
        self.csum_e_m12.d.next = self.e_m12.val();
        self.csum_mark.d.next = self.sum_mark.val();
        self.csum_sb.d.next = self.sum_sb.val();

        // Segment F.
        self.lz_t.next = (bit_cast::<15, 14>(self.csum_sum.q.val().get_bits::<14>(0)) << 1)
            | self.lz_pad.val()
            | self.csum_mark.q.val();
        // The decisions from the unshifted bits in parallel (h_k: nibble k of the input is
        // zero), then one 4:1 selection of the shifted significand, the count's next three
        // bits (the last one is not needed: the pad stops the count) and the exponent
        // (precomputed in segment D).
        self.h3.next = !self.lz_t.val().get_bits::<4>(11).any();
        self.h2.next = !self.lz_t.val().get_bits::<4>(7).any();
        self.h1.next = !self.lz_t.val().get_bits::<4>(3).any();
        if self.csum_sum.q.val().get_bit(14) {
            self.low_c.next = self.csum_sum.q.val().get_bits::<14>(1);
            if self.csum_sum.q.val().get_bit(0) {
                self.low_c.next = self.csum_sum.q.val().get_bits::<14>(1) | self.one14.val();
            }
            self.t3.next = self.t3_carry.val();
            self.e_c.next = self.csum_e_p1.q.val();
        } else {
            self.low_c.next = self.csum_sum.q.val().get_bits::<14>(0);
            self.t3.next = self.lz_t.val().get_bits::<3>(12);
            self.e_c.next = self.csum_exp.q.val();
            if self.h3.val() {
                self.low_c.next = self.csum_sum.q.val().get_bits::<14>(0) << 4;
                self.t3.next = self.lz_t.val().get_bits::<3>(8);
                self.e_c.next = self.csum_e_m4.q.val();
                if self.h2.val() {
                    self.low_c.next = self.csum_sum.q.val().get_bits::<14>(0) << 8;
                    self.t3.next = self.lz_t.val().get_bits::<3>(4);
                    self.e_c.next = self.csum_e_m8.q.val();
                    if self.h1.val() {
                        self.low_c.next = self.csum_sum.q.val().get_bits::<14>(0) << 12;
                        self.t3.next = self.lz_t.val().get_bits::<3>(0);
                        self.e_c.next = self.csum_e_m12.q.val();
                    }
                }
            }
        }
        // An exact zero of a subtraction is +0 (round to nearest); of an addition it keeps
        // the common sign. Bit 3 turns from `sub` into `zero`.
        self.sb_f.next = self.csum_sb.q.val() & !self.sb_sub.val();
        if !self.csum_sum.q.val().any() {
            self.sb_f.next = self.sb_f.val() | self.sb_sub.val();
            if self.csum_sb.q.val().get_bit(3) {
                self.sb_f.next = self.sb_f.val() & !self.sb_sign.val();
            }
        }
        self.cnrm_low.d.next = self.low_c.val();
        self.cnrm_t3.d.next = self.t3.val();
        self.cnrm_exp.d.next = self.e_c.val();
        self.cnrm_sb.d.next = self.sb_f.val();

        // Segment H (after the `cnrm` cut).
        self.d2.next = !self.cnrm_t3.q.val().get_bits::<2>(1).any();
        self.d1.next = !self.cnrm_t3.q.val().get_bit(2);
        if self.d2.val() {
            self.d1.next = !self.cnrm_t3.q.val().get_bit(0);
        }
        self.norm.next = self.cnrm_low.q.val();
        self.norm_exp.next = self.cnrm_exp.q.val();
        if self.d2.val() && self.d1.val() {
            self.norm.next = self.cnrm_low.q.val() << 3;
            self.norm_exp.next = self.cnrm_exp.q.val() - self.three8.val();
        }
        if self.d2.val() && !self.d1.val() {
            self.norm.next = self.cnrm_low.q.val() << 2;
            self.norm_exp.next = self.cnrm_exp.q.val() - self.two8.val();
        }
        if !self.d2.val() && self.d1.val() {
            self.norm.next = self.cnrm_low.q.val() << 1;
            self.norm_exp.next = self.cnrm_exp.q.val() - self.one8.val();
        }
        self.norm_sb.next = self.cnrm_sb.q.val();
    }
}
