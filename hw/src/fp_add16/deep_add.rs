//! Segments C and D of the segmented f16/bf16 lane: the alignment of the smaller significand
//! behind the `csh` cut (the end of stage 1), and the add from the `s1_` registers.

use super::{Group, cut_on};
use crate::config::Cut;
use crate::fp_add::bits_u128;
use rust_hdl::prelude::*;

/// The `csh` cut, then segment C: the alignment shift with guard, round and sticky (bit 0),
/// and the normalisation limit as a marker bit for the leading-zero count. Its outputs feed
/// the `s1_` registers.
#[derive(LogicBlock)]
pub struct Align {
    pub clock: Signal<In, Clock>,
    /// Segment B's results ([`super::deep_unpack::Swap`]).
    pub big_sig: Signal<In, Bits<11>>,
    pub small_sig: Signal<In, Bits<11>>,
    pub big_exp: Signal<In, Bits<8>>,
    pub sh: Signal<In, Bits<4>>,
    pub far: Signal<In, Bit>,
    pub sb_b: Signal<In, Bits<20>>,
    /// Both significands with guard, round and sticky, the exponent, the count's marker and
    /// the side band: the D inputs of the `s1_` registers.
    pub big_x: Signal<Out, Bits<14>>,
    pub small_x: Signal<Out, Bits<14>>,
    pub exp: Signal<Out, Bits<8>>,
    pub mark: Signal<Out, Bits<15>>,
    pub sb: Signal<Out, Bits<20>>,
    zero14: Constant<Bits<14>>,
    ones14: Constant<Bits<14>>,
    one14: Constant<Bits<14>>,
    mark_top: Constant<Bits<15>>,
    small_ext: Signal<Local, Bits<14>>,
    small_shifted: Signal<Local, Bits<14>>,
    small_lost: Signal<Local, Bit>,
    csh_big_sig: Cut<Bits<11>>,
    csh_small_sig: Cut<Bits<11>>,
    csh_big_exp: Cut<Bits<8>>,
    csh_sh: Cut<Bits<4>>,
    csh_far: Cut<Bit>,
    csh_sb: Cut<Bits<20>>,
}

impl Align {
    pub fn new(mask: u32) -> Self {
        let csh = cut_on(mask, Group::Csh);
        Self {
            clock: Default::default(),
            big_sig: Default::default(),
            small_sig: Default::default(),
            big_exp: Default::default(),
            sh: Default::default(),
            far: Default::default(),
            sb_b: Default::default(),
            big_x: Default::default(),
            small_x: Default::default(),
            exp: Default::default(),
            mark: Default::default(),
            sb: Default::default(),
            zero14: Constant::new(bits_u128(0)),
            ones14: Constant::new(bits_u128((1 << 14) - 1)),
            one14: Constant::new(bits_u128(1)),
            mark_top: Constant::new(bits_u128(0x4000)),
            small_ext: Default::default(),
            small_shifted: Default::default(),
            small_lost: Default::default(),
            csh_big_sig: Cut::new(csh),
            csh_small_sig: Cut::new(csh),
            csh_big_exp: Cut::new(csh),
            csh_sh: Cut::new(csh),
            csh_far: Cut::new(csh),
            csh_sb: Cut::new(csh),
        }
    }
}

impl Logic for Align {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, csh_big_sig, csh_small_sig, csh_big_exp, csh_sh, csh_far, csh_sb);
        // The `csh` cut.
        self.csh_big_sig.d.next = self.big_sig.val();
        self.csh_small_sig.d.next = self.small_sig.val();
        self.csh_big_exp.d.next = self.big_exp.val();
        self.csh_sh.d.next = self.sh.val();
        self.csh_far.d.next = self.far.val();
        self.csh_sb.d.next = self.sb_b.val();

        // Segment C.
        self.small_ext.next = bit_cast::<14, 11>(self.csh_small_sig.q.val()) << 3;
        self.small_shifted.next = self.small_ext.val() >> self.csh_sh.q.val();
        self.small_lost.next = (self.small_ext.val() & !(self.ones14.val() << self.csh_sh.q.val())).any();
        if self.csh_far.q.val() {
            self.small_shifted.next = self.zero14.val();
            self.small_lost.next = self.small_ext.val().any();
        }
        self.small_x.next = self.small_shifted.val();
        if self.small_lost.val() {
            self.small_x.next = self.small_shifted.val() | self.one14.val();
        }
        self.big_x.next = bit_cast::<14, 11>(self.csh_big_sig.q.val()) << 3;
        self.exp.next = self.csh_big_exp.q.val();
        // The left shift of normalisation stops at exponent 1 (a subnormal result): at most
        // exp - 1 places. Bit 15 - exp of the count's input (bit 13 - (exp - 1) of the
        // significand, bit 0 being the count's pad) makes the count stop there.
        self.mark.next = (self.mark_top.val() >> self.csh_big_exp.q.val()) << 1;
        self.sb.next = self.csh_sb.q.val();
    }
}

/// The `s1_` registers, then segment D: add or subtract (big + ~small + 1) in one carry
/// chain with the carry-in as an extra low bit, and the exponents that the normalisation can
/// select (after a carry, +1; after the coarse shifts, -4, -8, -12), precomputed here.
#[derive(LogicBlock)]
pub struct Add {
    pub clock: Signal<In, Clock>,
    /// Stage 1's results ([`Align`]), into the `s1_` registers.
    pub big_x: Signal<In, Bits<14>>,
    pub small_x: Signal<In, Bits<14>>,
    pub exp: Signal<In, Bits<8>>,
    pub mark: Signal<In, Bits<15>>,
    pub sb: Signal<In, Bits<20>>,
    /// The sum with its carry (bit 14), the exponent and its precomputed neighbours, the
    /// count's marker and the side band.
    pub sum: Signal<Out, Bits<15>>,
    pub e_0: Signal<Out, Bits<8>>,
    pub e_p1: Signal<Out, Bits<8>>,
    pub e_m4: Signal<Out, Bits<8>>,
    pub e_m8: Signal<Out, Bits<8>>,
    pub e_m12: Signal<Out, Bits<8>>,
    pub sum_mark: Signal<Out, Bits<15>>,
    pub sum_sb: Signal<Out, Bits<20>>,
    one8: Constant<Bits<8>>,
    ones15: Constant<Bits<15>>,
    one16: Constant<Bits<16>>,
    lz4: Constant<Bits<8>>,
    lz8: Constant<Bits<8>>,
    lz12: Constant<Bits<8>>,
    small_inv: Signal<Local, Bits<15>>,
    lo_a: Signal<Local, Bits<16>>,
    lo_b: Signal<Local, Bits<16>>,
    lo_t: Signal<Local, Bits<16>>,
    s1_big: DFF<Bits<14>>,
    s1_small: DFF<Bits<14>>,
    s1_exp: DFF<Bits<8>>,
    s1_mark: DFF<Bits<15>>,
    s1_sb: DFF<Bits<20>>,
}

impl Default for Add {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            big_x: Default::default(),
            small_x: Default::default(),
            exp: Default::default(),
            mark: Default::default(),
            sb: Default::default(),
            sum: Default::default(),
            e_0: Default::default(),
            e_p1: Default::default(),
            e_m4: Default::default(),
            e_m8: Default::default(),
            e_m12: Default::default(),
            sum_mark: Default::default(),
            sum_sb: Default::default(),
            one8: Constant::new(bits_u128(1)),
            ones15: Constant::new(bits_u128((1 << 15) - 1)),
            one16: Constant::new(bits_u128(1)),
            lz4: Constant::new(bits_u128(4)),
            lz8: Constant::new(bits_u128(8)),
            lz12: Constant::new(bits_u128(12)),
            small_inv: Default::default(),
            lo_a: Default::default(),
            lo_b: Default::default(),
            lo_t: Default::default(),
            s1_big: Default::default(),
            s1_small: Default::default(),
            s1_exp: Default::default(),
            s1_mark: Default::default(),
            s1_sb: Default::default(),
        }
    }
}

impl Logic for Add {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, s1_big, s1_small, s1_exp, s1_mark, s1_sb);
        // The `s1_` registers: the end of stage 1.
        self.s1_big.d.next = self.big_x.val();
        self.s1_small.d.next = self.small_x.val();
        self.s1_exp.d.next = self.exp.val();
        self.s1_mark.d.next = self.mark.val();
        self.s1_sb.d.next = self.sb.val();

        // Segment D.
        self.small_inv.next = bit_cast::<15, 14>(self.s1_small.q.val());
        if self.s1_sb.q.val().get_bit(3) {
            self.small_inv.next = bit_cast::<15, 14>(self.s1_small.q.val()) ^ self.ones15.val();
        }
        self.lo_a.next = (bit_cast::<16, 14>(self.s1_big.q.val()) << 1) | self.one16.val();
        self.lo_b.next = bit_cast::<16, 15>(self.small_inv.val()) << 1;
        if self.s1_sb.q.val().get_bit(3) {
            self.lo_b.next = self.lo_b.val() | self.one16.val();
        }
        self.lo_t.next = self.lo_a.val() + self.lo_b.val();
        self.sum.next = self.lo_t.val().get_bits::<15>(1);
        // The exponent after a carry (+1) or the coarse normalising shifts (-4, -8, -12).
        self.e_0.next = self.s1_exp.q.val();
        self.e_p1.next = self.s1_exp.q.val() + self.one8.val();
        self.e_m4.next = self.s1_exp.q.val() - self.lz4.val();
        self.e_m8.next = self.s1_exp.q.val() - self.lz8.val();
        self.e_m12.next = self.s1_exp.q.val() - self.lz12.val();
        self.sum_mark.next = self.s1_mark.q.val();
        self.sum_sb.next = self.s1_sb.q.val();
    }
}
