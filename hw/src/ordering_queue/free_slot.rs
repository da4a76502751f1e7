//! The push handshake: whether the queue takes a push, the slot it goes to, and the
//! back-to-back coverage of the pushes.
//!
//! Without a registered push the push takes the lowest free slot and `push_ready` is low only
//! when every slot is valid. With one, the slot is chosen a cycle ahead (`fr`, among the slots
//! free then and not being pushed), so `push_ready` and the slots' write enables wait for no
//! search of the valid bits.

use super::QUEUE_DEPTH;
use crate::line_memory::LINE_BITS;
use crate::lut_ram::LUT_RAM_ADDR_BITS;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub(super) struct FreeSlot {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// The slots' valid bits (bit i: slot i), straight from their registers.
    pub valid: Signal<In, Bits<QUEUE_DEPTH>>,
    pub push_valid: Signal<In, Bit>,
    pub push_ordered: Signal<In, Bit>,
    pub push_line: Signal<In, Bits<LINE_BITS>>,
    pub push_ready: Signal<Out, Bit>,
    pub push_ready_nx: Signal<Out, Bit>,
    /// The slot a push goes to this cycle (one-hot, zero when none).
    pub we: Signal<Out, Bits<QUEUE_DEPTH>>,
    /// `we` without `reset` (registered push): for state whose value a reset leaves
    /// meaningless (the entries' chain marks, read only for valid entries), so that the reset's
    /// fan-out is not on their path.
    pub we_nr: Signal<Out, Bits<QUEUE_DEPTH>>,
    /// The slots whose line, payload and entry state load the pushed ones (`we`, or `fr`
    /// with a registered push).
    pub ld: Signal<Out, Bits<QUEUE_DEPTH>>,
    /// `fr` (the slot the next push takes, registered push).
    pub fr_q: Signal<Out, Bits<QUEUE_DEPTH>>,
    /// `ld` in binary and whether it is not zero: the payload RAM's write address and enable
    /// (registered push: registers of their own beside `fr` and `fr_any`, so that the RAM's
    /// address pins do not load `fr`).
    pub ld_addr: Signal<Out, Bits<LUT_RAM_ADDR_BITS>>,
    pub ld_any: Signal<Out, Bit>,
    pub cov_full: Signal<Out, Bit>,
    pub cov_back_to_back: Signal<Out, Bit>,
    /// Registered push: the slot the next push takes (one-hot; zero: none free), chosen a
    /// cycle ahead among the slots free then and not taken by that cycle's push.
    fr: DFF<Bits<QUEUE_DEPTH>>,
    fr_next: Signal<Local, Bits<QUEUE_DEPTH>>,
    /// `fr`'s next value, and `fr` in binary.
    fr_d: Signal<Local, Bits<QUEUE_DEPTH>>,
    fr_bin: DFF<Bits<LUT_RAM_ADDR_BITS>>,
    /// The binary number of a one-hot slot vector (`fr_d` or `we`), and each slot's number.
    bin: Signal<Local, Bits<LUT_RAM_ADDR_BITS>>,
    slot_no: [Constant<Bits<LUT_RAM_ADDR_BITS>>; QUEUE_DEPTH],
    /// `fr` is not zero (a register of its own: no OR of its bits before the handshake).
    fr_any: DFF<Bit>,
    fr_any_nx: Signal<Local, Bit>,
    /// Registered push: the free slots if this cycle's push does not fire (`free_n`) and if it
    /// does (`free_p`, less `fr`), and the lowest of each.
    free_n: Signal<Local, Bits<QUEUE_DEPTH>>,
    free_p: Signal<Local, Bits<QUEUE_DEPTH>>,
    fr_pn: Signal<Local, Bits<QUEUE_DEPTH>>,
    fr_pp: Signal<Local, Bits<QUEUE_DEPTH>>,
    // The last push (back-to-back coverage).
    last_ordered: DFF<Bit>,
    last_line: DFF<Bits<LINE_BITS>>,
    full: Signal<Local, Bit>,
    push_fire: Signal<Local, Bit>,
    /// Registered push: the push fires, `reset` aside (the next `fr`, which a reset sets
    /// anyway, is chosen from it).
    push_go: Signal<Local, Bit>,
    seen_free: Signal<Local, Bit>,
    vb: Signal<Local, Bit>,
    rp: Constant<Bit>,
    one_d: Constant<Bits<QUEUE_DEPTH>>,
    zero_d: Constant<Bits<QUEUE_DEPTH>>,
    /// Vectors are built one bit per slot, shifted in at the top (`QUEUE_DEPTH - 1`).
    top_sh: Constant<Bits<4>>,
}

impl FreeSlot {
    pub(super) fn new(registered: bool) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            valid: Default::default(),
            push_valid: Default::default(),
            push_ordered: Default::default(),
            push_line: Default::default(),
            push_ready: Default::default(),
            push_ready_nx: Default::default(),
            we: Default::default(),
            we_nr: Default::default(),
            ld: Default::default(),
            fr_q: Default::default(),
            ld_addr: Default::default(),
            ld_any: Default::default(),
            cov_full: Default::default(),
            cov_back_to_back: Default::default(),
            fr: Default::default(),
            fr_next: Default::default(),
            fr_d: Default::default(),
            fr_bin: Default::default(),
            bin: Default::default(),
            slot_no: std::array::from_fn(|i| crate::k::<LUT_RAM_ADDR_BITS>(i as u128)),
            fr_any: Default::default(),
            fr_any_nx: Default::default(),
            free_n: Default::default(),
            free_p: Default::default(),
            fr_pn: Default::default(),
            fr_pp: Default::default(),
            last_ordered: Default::default(),
            last_line: Default::default(),
            full: Default::default(),
            push_fire: Default::default(),
            push_go: Default::default(),
            seen_free: Default::default(),
            vb: Default::default(),
            rp: Constant::new(registered),
            one_d: crate::k::<QUEUE_DEPTH>(1),
            zero_d: crate::k::<QUEUE_DEPTH>(0),
            top_sh: crate::k::<4>((QUEUE_DEPTH - 1) as u128),
        }
    }
}

impl Logic for FreeSlot {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, fr, fr_bin, fr_any, last_ordered, last_line);
        // Full, and the lowest free slot.
        self.full.next = true;
        self.seen_free.next = false;
        self.we.next = self.zero_d.val();
        for i in 0..QUEUE_DEPTH {
            if !self.valid.val().get_bit(i) {
                self.full.next = false;
            }
        }
        self.push_ready.next = !self.full.val() && !self.reset.val();
        // (Not from `push_ready`: Verilator orders a block's statements in separate groups
        // only when they share no variable, and the unit reads `push_ready`.)
        self.push_fire.next = self.push_valid.val() && !self.full.val() && !self.reset.val();
        for i in 0..QUEUE_DEPTH {
            self.vb.next = !self.valid.val().get_bit(i) && !self.seen_free.val() && self.push_fire.val();
            self.we.next =
                (self.we.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.vb.val().into()) << self.top_sh.val());
            if !self.valid.val().get_bit(i) {
                self.seen_free.next = true;
            }
        }
        // Registered push: the push takes the slot chosen in the cycle before (`fr`), so no
        // search of the valid bits stands between them and the slots' write enables. A slot
        // freed by an issue is offered from the cycle after next: `push_ready` may be low for
        // a cycle with one slot free (the price of the registered push).
        // (Its own statement: see `push_fire` above.)
        if self.rp.val() {
            self.push_ready.next = self.fr_any.q.val() && !self.reset.val();
        }
        if self.rp.val() {
            self.push_fire.next = self.push_valid.val() && self.fr_any.q.val() && !self.reset.val();
            self.we.next = self.zero_d.val();
            if self.push_fire.val() {
                self.we.next = self.fr.q.val();
            }
        }
        self.push_go.next = self.push_valid.val() && self.fr_any.q.val();
        self.we_nr.next = self.we.val();
        if self.rp.val() {
            self.we_nr.next = self.zero_d.val();
            if self.push_go.val() {
                self.we_nr.next = self.fr.q.val();
            }
        }
        self.free_n.next = !self.valid.val();
        self.free_p.next = !self.valid.val() & !self.fr.q.val();
        self.fr_pn.next = self.free_n.val() & (!self.free_n.val() + self.one_d.val());
        self.fr_pp.next = self.free_p.val() & (!self.free_p.val() + self.one_d.val());
        self.fr_next.next = self.zero_d.val();
        self.seen_free.next = false;
        for i in 0..QUEUE_DEPTH {
            self.vb.next = !self.valid.val().get_bit(i) && !self.we.val().get_bit(i) && !self.seen_free.val();
            self.fr_next.next =
                (self.fr_next.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.vb.val().into()) << self.top_sh.val());
            if !self.valid.val().get_bit(i) && !self.we.val().get_bit(i) {
                self.seen_free.next = true;
            }
        }
        self.fr_any_nx.next = self.fr_next.val().any();
        // Registered push: the same choice without the serial search behind the handshake.
        // Both outcomes of this cycle's push are chosen from registers (the lowest set bit of
        // the free slots, `x & -x`, on the carry chain), and the handshake selects one (`reset`
        // aside: it sets `fr` below).
        if self.rp.val() {
            self.fr_next.next = self.fr_pn.val();
            self.fr_any_nx.next = self.free_n.val().any();
            if self.push_go.val() {
                self.fr_next.next = self.fr_pp.val();
                self.fr_any_nx.next = self.free_p.val().any();
            }
        }
        self.fr_d.next = self.fr_next.val();
        if self.reset.val() {
            self.fr_d.next = self.one_d.val();
            self.fr_any_nx.next = true;
        }
        self.fr.d.next = self.fr_d.val();
        self.fr_any.d.next = self.fr_any_nx.val();
        self.push_ready_nx.next = self.fr_any_nx.val();
        self.fr_q.next = self.fr.q.val();
        // The slots that load the pushed request: with a registered push, the slot chosen for
        // the next push (`fr`) in every cycle, pushed or not (it is free, and nothing reads a
        // free slot), so the many flip-flops load on a register bit, not on the handshake.
        self.ld.next = self.we.val();
        if self.rp.val() {
            self.ld.next = self.fr.q.val();
        }
        // The same slot in binary, for the payload RAM.
        self.bin.next = self.slot_no[0].val();
        for i in 0..QUEUE_DEPTH {
            if (self.rp.val() && self.fr_d.val().get_bit(i)) || (!self.rp.val() && self.we.val().get_bit(i)) {
                self.bin.next = self.bin.val() | self.slot_no[i].val();
            }
        }
        self.fr_bin.d.next = self.bin.val();
        self.ld_addr.next = self.bin.val();
        self.ld_any.next = self.push_fire.val();
        if self.rp.val() {
            self.ld_addr.next = self.fr_bin.q.val();
            self.ld_any.next = self.fr_any.q.val();
        }
        self.cov_full.next = self.full.val();
        self.cov_back_to_back.next = self.push_fire.val()
            && self.push_ordered.val()
            && self.last_ordered.q.val()
            && (self.last_line.q.val() == self.push_line.val());
        self.last_ordered.d.next = self.push_fire.val() && self.push_ordered.val();
        self.last_line.d.next = self.push_line.val();
    }
}
