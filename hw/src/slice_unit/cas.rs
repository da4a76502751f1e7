//! The `atom.cas` check: the compare value registered beside `sp_*[0]`,
//! its compare with the old value into `cas_ne`, and the old value to restore (`rep`).
//!
//! A CAS merges its swap value like a store; this block tells the unit, two stages later,
//! whether to put the old bytes back, so no compare sits before a line merge.

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub(super) struct CasCheck {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// The computing stage holds a valid ordered `atom.cas`, 64-bit (`b64`) or 32-bit.
    pub load: Signal<In, Bit>,
    pub b64: Signal<In, Bit>,
    /// The computing stage's operand above its swap value (bits 127..32): the compare value
    /// in bits 63..32 of the operand (32-bit) or 127..64 (64-bit).
    pub data_hi: Signal<In, Bits<96>>,
    /// The old value of `sp_*[0]` and of `sp_*[1]` (their response data, low 64 bits).
    pub old: Signal<In, Bits<64>>,
    pub old_r: Signal<In, Bits<64>>,
    /// The CAS in `sp_*[1]` failed: its old value differs from its compare value.
    pub fail: Signal<Out, Bit>,
    /// `sp_*[1]`'s old value replicated across the line (its write mask keeps its bytes).
    pub rep: Signal<Out, Bits<128>>,
    /// `atom.cas` in `sp_*[0]` (its line already swapped, as a store's), its width and compare
    /// value; per 16-bit quarter, whether the old value differs (`cas_ne`, for `sp_*[1]`).
    cas_v: DFF<Bit>,
    cas_b64: DFF<Bit>,
    cas_cmp: DFF<Bits<64>>,
    cas_ne: DFF<Bits<4>>,
    cas_b64r: DFF<Bit>,
    zero4: Constant<Bits<4>>,
}

impl CasCheck {
    pub(super) fn new() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            load: Default::default(),
            b64: Default::default(),
            data_hi: Default::default(),
            old: Default::default(),
            old_r: Default::default(),
            fail: Default::default(),
            rep: Default::default(),
            cas_v: Default::default(),
            cas_b64: Default::default(),
            cas_cmp: Default::default(),
            cas_ne: Default::default(),
            cas_b64r: Default::default(),
            zero4: crate::k::<4>(0),
        }
    }
}

impl Logic for CasCheck {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, cas_v, cas_b64, cas_cmp, cas_ne, cas_b64r);
        self.cas_v.d.next = self.load.val() && !self.reset.val();
        self.cas_b64.d.next = self.b64.val();
        self.cas_cmp.d.next = bit_cast::<64, 32>(self.data_hi.val().get_bits::<32>(0));
        if self.b64.val() {
            self.cas_cmp.d.next = self.data_hi.val().get_bits::<64>(32);
        }
        self.cas_ne.d.next = self.zero4.val();
        if self.cas_v.q.val() {
            self.cas_ne.d.next =
                bit_cast::<4, 1>((self.old.val().get_bits::<16>(0) != self.cas_cmp.q.val().get_bits::<16>(0)).into())
                    | (bit_cast::<4, 1>(
                        (self.old.val().get_bits::<16>(16) != self.cas_cmp.q.val().get_bits::<16>(16)).into(),
                    ) << 1)
                    | (bit_cast::<4, 1>(
                        (self.old.val().get_bits::<16>(32) != self.cas_cmp.q.val().get_bits::<16>(32)).into(),
                    ) << 2)
                    | (bit_cast::<4, 1>(
                        (self.old.val().get_bits::<16>(48) != self.cas_cmp.q.val().get_bits::<16>(48)).into(),
                    ) << 3);
        }
        self.fail.next = self.cas_ne.q.val().any();
        self.cas_b64r.d.next = self.cas_b64.q.val();
        self.rep.next = bit_cast::<128, 32>(self.old_r.val().get_bits::<32>(0))
            | (bit_cast::<128, 32>(self.old_r.val().get_bits::<32>(0)) << 32)
            | (bit_cast::<128, 32>(self.old_r.val().get_bits::<32>(0)) << 64)
            | (bit_cast::<128, 32>(self.old_r.val().get_bits::<32>(0)) << 96);
        if self.cas_b64r.q.val() {
            self.rep.next = bit_cast::<128, 64>(self.old_r.val()) | (bit_cast::<128, 64>(self.old_r.val()) << 64);
        }
    }
}
