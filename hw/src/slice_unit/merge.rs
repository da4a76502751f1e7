//! The merges: the integer and the FP result put into their request's line.
//!
//! A merge has no shifter: the result is replicated across the line by its access size (a
//! 4-byte result in every 4-byte slot of the line, ..) and the write mask keeps the accessed
//! bytes (the access is aligned to its size). A masked sector request's integer lanes are
//! already in place (`rep128`: as is).

use crate::k;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub(super) struct ResultMerge {
    /// The integer results (registered): `IntAlu`'s and the sector lanes 1-3 (32 bits each in
    /// lanes 1 and 3).
    pub y: [Signal<In, Bits<64>>; 4],
    /// The integer merge stage holds a 64-bit access (its sector lanes are 64 bits wide).
    pub int64: Signal<In, Bit>,
    /// The integer merge stage: its replication (`rep*`), line without the accessed bytes,
    /// whether it is a sector request, and the integer result's write mask.
    pub i_rep: Signal<In, Bits<2>>,
    pub i_base: Signal<In, Bits<128>>,
    pub i_sector: Signal<In, Bit>,
    pub i_wm: Signal<In, Bits<128>>,
    /// The integer stage's new line.
    pub i_new: Signal<Out, Bits<128>>,
    /// The FP result (registered), and the FP merge stage's replication, line and write mask.
    pub out: Signal<In, Bits<128>>,
    pub m_rep: Signal<In, Bits<2>>,
    pub m_data: Signal<In, Bits<128>>,
    pub m_wm: Signal<In, Bits<128>>,
    /// The FP stage's new line.
    pub m_new: Signal<Out, Bits<128>>,
    i_intvec: Signal<Local, Bits<128>>,
    i_x32: Signal<Local, Bits<64>>,
    i_x: Signal<Local, Bits<128>>,
    m_x16: Signal<Local, Bits<128>>,
    m_x32: Signal<Local, Bits<128>>,
    m_x: Signal<Local, Bits<128>>,
    unused: Signal<Local, Bit>,
    rep16: Constant<Bits<2>>,
    rep32: Constant<Bits<2>>,
    rep128: Constant<Bits<2>>,
    mask16: Constant<Bits<128>>,
    mask32: Constant<Bits<128>>,
    mask64: Constant<Bits<128>>,
}

impl Default for ResultMerge {
    fn default() -> Self {
        Self {
            y: Default::default(),
            int64: Default::default(),
            i_rep: Default::default(),
            i_base: Default::default(),
            i_sector: Default::default(),
            i_wm: Default::default(),
            i_new: Default::default(),
            out: Default::default(),
            m_rep: Default::default(),
            m_data: Default::default(),
            m_wm: Default::default(),
            m_new: Default::default(),
            i_intvec: Default::default(),
            i_x32: Default::default(),
            i_x: Default::default(),
            m_x16: Default::default(),
            m_x32: Default::default(),
            m_x: Default::default(),
            unused: Default::default(),
            rep16: k(0),
            rep32: k(1),
            rep128: k(3),
            mask16: k(u16::MAX as u128),
            mask32: k(u32::MAX as u128),
            mask64: k(u64::MAX as u128),
        }
    }
}

impl Logic for ResultMerge {
    #[hdl_gen]
    fn update(&mut self) {
        // The integer merge: a sector request's lanes as a line (64-bit lanes 0 and 2, or
        // four 32-bit ones), else the result replicated by its size.
        self.i_intvec.next = bit_cast::<128, 64>(self.y[0].val()) | (bit_cast::<128, 64>(self.y[2].val()) << 64);
        if !self.int64.val() {
            self.i_intvec.next = bit_cast::<128, 32>(self.y[0].val().get_bits::<32>(0))
                | (bit_cast::<128, 32>(self.y[1].val().get_bits::<32>(0)) << 32)
                | (bit_cast::<128, 32>(self.y[2].val().get_bits::<32>(0)) << 64)
                | (bit_cast::<128, 32>(self.y[3].val().get_bits::<32>(0)) << 96);
        }
        // (Lanes 1 and 3 are 32-bit only: their high halves are unused.)
        self.unused.next = self.y[1].val().get_bits::<32>(32).any() ^ self.y[3].val().get_bits::<32>(32).any();
        self.i_x32.next = self.y[0].val();
        if self.i_rep.val() == self.rep32.val() {
            self.i_x32.next = bit_cast::<64, 32>(self.y[0].val().get_bits::<32>(0))
                | (bit_cast::<64, 32>(self.y[0].val().get_bits::<32>(0)) << 32);
        }
        self.i_x.next = bit_cast::<128, 64>(self.i_x32.val()) | (bit_cast::<128, 64>(self.i_x32.val()) << 64);
        if self.i_sector.val() {
            self.i_x.next = self.i_intvec.val();
        }
        self.i_new.next = self.i_base.val() | (self.i_x.val() & self.i_wm.val());
        // The FP merge: 16-, 32-, 64-bit results replicated, a 128-bit vector as is.
        self.m_x16.next = self.out.val();
        if self.m_rep.val() == self.rep16.val() {
            self.m_x16.next = (self.out.val() & self.mask16.val()) | ((self.out.val() & self.mask16.val()) << 16);
        }
        self.m_x32.next = self.m_x16.val();
        if !self.m_rep.val().get_bit(1) {
            self.m_x32.next = (self.m_x16.val() & self.mask32.val()) | ((self.m_x16.val() & self.mask32.val()) << 32);
        }
        self.m_x.next = self.m_x32.val();
        if self.m_rep.val() != self.rep128.val() {
            self.m_x.next = (self.m_x32.val() & self.mask64.val()) | ((self.m_x32.val() & self.mask64.val()) << 64);
        }
        self.m_new.next = self.m_data.val() | (self.m_x.val() & self.m_wm.val());
    }
}
