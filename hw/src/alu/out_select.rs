//! The ALU's output stage: one unit's result, masked to the access width. The select is
//! decoded a cycle before the output into a registered one-hot per unit and bit group
//! (`o_sel`), so that the output is an AND-OR of registers, not a decode fanning out to all
//! 128 bits.

use crate::k;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub(super) struct OutSelect {
    pub clock: Signal<In, Clock>,
    /// The request's result select ([`super::control::AluControl`]'s `ctl`), a cycle before
    /// its results arrive.
    pub ctl: Signal<In, Bits<7>>,
    /// Each unit's result as low (bits 63..0) and high (127..64) halves; the integer ALU
    /// drives the low half only.
    pub f32_lo: Signal<In, Bits<64>>,
    pub f32_hi: Signal<In, Bits<64>>,
    pub f64_lo: Signal<In, Bits<64>>,
    pub f64_hi: Signal<In, Bits<64>>,
    pub mm_lo: Signal<In, Bits<64>>,
    pub mm_hi: Signal<In, Bits<64>>,
    pub add16_lo: Signal<In, Bits<64>>,
    pub add16_hi: Signal<In, Bits<64>>,
    pub int_lo: Signal<In, Bits<64>>,
    /// The selected, masked result.
    pub data: Signal<Out, Bits<128>>,

    log2_16: Constant<Bits<3>>,
    log2_32: Constant<Bits<3>>,
    log2_64: Constant<Bits<3>>,
    grp_16: Constant<Bits<4>>,
    grp_32: Constant<Bits<4>>,
    grp_64: Constant<Bits<4>>,
    grp_all: Constant<Bits<4>>,
    zero64: Constant<Bits<64>>,
    mask16: Constant<Bits<64>>,
    grp1: Constant<Bits<64>>,
    grp2: Constant<Bits<64>>,

    /// `ctl` decoded: the one-hot select of the output, registered. Bit `4u + g`: unit u
    /// (f32, f64, min/max, f16/bf16 add, integer) drives bit group g of the result (bits
    /// 15..0, 31..16, 63..32, 127..64: the groups within the access width; the integer ALU
    /// drives groups 2..0 only).
    o_sel: DFF<Bits<19>>,
    o_dec: Signal<Local, Bits<19>>,
    out_log2: Signal<Local, Bits<3>>,
    o_grp: Signal<Local, Bits<4>>,
    o_g3: Signal<Local, Bits<3>>,
    /// Every unit's halves side by side (unit u's at bits 64u..) and the mask of one unit's
    /// low half.
    u_lo: Signal<Local, Bits<320>>,
    u_hi: Signal<Local, Bits<256>>,
    o_m: Signal<Local, Bits<64>>,
    sel_lo: Signal<Local, Bits<64>>,
    sel_hi: Signal<Local, Bits<64>>,
}

impl OutSelect {
    pub(super) fn new() -> Self {
        Self {
            clock: Default::default(),
            ctl: Default::default(),
            f32_lo: Default::default(),
            f32_hi: Default::default(),
            f64_lo: Default::default(),
            f64_hi: Default::default(),
            mm_lo: Default::default(),
            mm_hi: Default::default(),
            add16_lo: Default::default(),
            add16_hi: Default::default(),
            int_lo: Default::default(),
            data: Default::default(),
            log2_16: k(4),
            log2_32: k(5),
            log2_64: k(6),
            grp_16: k(0b0001),
            grp_32: k(0b0011),
            grp_64: k(0b0111),
            grp_all: k(0b1111),
            zero64: k(0),
            mask16: k(0xFFFF),
            grp1: k(0xFFFF_0000),
            grp2: k(0xFFFF_FFFF_0000_0000),
            o_sel: Default::default(),
            o_dec: Default::default(),
            out_log2: Default::default(),
            o_grp: Default::default(),
            o_g3: Default::default(),
            u_lo: Default::default(),
            u_hi: Default::default(),
            o_m: Default::default(),
            sel_lo: Default::default(),
            sel_hi: Default::default(),
        }
    }
}

impl Logic for OutSelect {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, o_sel);

        // The bit groups within the access width.
        self.out_log2.next = self.ctl.val().get_bits::<3>(0);
        self.o_grp.next = self.grp_all.val();
        if self.out_log2.val() == self.log2_16.val() {
            self.o_grp.next = self.grp_16.val();
        } else if self.out_log2.val() == self.log2_32.val() {
            self.o_grp.next = self.grp_32.val();
        } else if self.out_log2.val() == self.log2_64.val() {
            self.o_grp.next = self.grp_64.val();
        }
        // One unit: f32, f64, min/max, f16/bf16 add in this order, else the integer ALU
        // (which drives the low half only: groups 2..0).
        self.o_g3.next = self.o_grp.val().get_bits::<3>(0);
        self.o_dec.next = bit_cast::<19, 3>(self.o_g3.val()) << 16;
        if self.ctl.val().get_bit(3) {
            self.o_dec.next = bit_cast::<19, 4>(self.o_grp.val());
        } else if self.ctl.val().get_bit(4) {
            self.o_dec.next = bit_cast::<19, 4>(self.o_grp.val()) << 4;
        } else if self.ctl.val().get_bit(5) {
            self.o_dec.next = bit_cast::<19, 4>(self.o_grp.val()) << 8;
        } else if self.ctl.val().get_bit(6) {
            self.o_dec.next = bit_cast::<19, 4>(self.o_grp.val()) << 12;
        }
        self.o_sel.d.next = self.o_dec.val();

        // Each unit's halves, masked by its group bits, ORed (one unit is selected). Unit u's
        // low half is `u_lo` bits 64u.., its high half `u_hi` bits 64u.. (the integer ALU, u = 4,
        // has none).
        self.u_lo.next = bit_cast::<320, 64>(self.f32_lo.val())
            | (bit_cast::<320, 64>(self.f64_lo.val()) << 64)
            | (bit_cast::<320, 64>(self.mm_lo.val()) << 128)
            | (bit_cast::<320, 64>(self.add16_lo.val()) << 192)
            | (bit_cast::<320, 64>(self.int_lo.val()) << 256);
        self.u_hi.next = bit_cast::<256, 64>(self.f32_hi.val())
            | (bit_cast::<256, 64>(self.f64_hi.val()) << 64)
            | (bit_cast::<256, 64>(self.mm_hi.val()) << 128)
            | (bit_cast::<256, 64>(self.add16_hi.val()) << 192);
        self.sel_lo.next = self.zero64.val();
        self.sel_hi.next = self.zero64.val();
        for u in 0..5 {
            self.o_m.next = self.zero64.val();
            if self.o_sel.q.val().get_bit(4 * u) {
                self.o_m.next = self.mask16.val();
            }
            if self.o_sel.q.val().get_bit(4 * u + 1) {
                self.o_m.next = self.o_m.val() | self.grp1.val();
            }
            if self.o_sel.q.val().get_bit(4 * u + 2) {
                self.o_m.next = self.o_m.val() | self.grp2.val();
            }
            self.sel_lo.next = self.sel_lo.val() | (self.u_lo.val().get_bits::<64>(64 * u) & self.o_m.val());
        }
        for u in 0..4 {
            if self.o_sel.q.val().get_bit(4 * u + 3) {
                self.sel_hi.next = self.sel_hi.val() | self.u_hi.val().get_bits::<64>(64 * u);
            }
        }
        self.data.next = (bit_cast::<128, 64>(self.sel_hi.val()) << 64) | bit_cast::<128, 64>(self.sel_lo.val());
    }
}
