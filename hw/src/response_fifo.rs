//! The unit's response buffer: a first-in first-out queue of [`RSP_FIFO_DEPTH`] responses
//! (id, data, status) in front of the valid/ready response port; [`ResponseFifo::new`] takes
//! 8, 16 or 32 places (a deeper unit pipeline holds more requests between issue and response,
//! and each needs a place reserved).
//!
//! `out_valid` is high while the FIFO holds a response; the head leaves when `out_ready` is
//! high too. A push in a cycle with the FIFO full is lost, so the producer must keep a count
//! (the unit issues a request only when a place in this FIFO is reserved for it). Pointers
//! are binary and start at zero, so the power-up state (all registers zero) is the empty
//! FIFO.
//!
//! Synchronous `reset` empties it one cycle late: the pointers and the count take a local
//! copy of `reset` (`reset_r`, registered next to them), so that the port's reset drives one
//! flip-flop and `out_valid` instead of the pointers' enables (issue 5: reset → `out_valid`
//! → pop → read-pointer enable was the block's critical path, 100 MHz on the ECP5).
//! `out_valid` is low while `reset` or `reset_r` is high (the reset cycles and the one
//! after), so no entry of before the reset is ever offered; a push in a reset cycle or in
//! the cycle after it is lost (the unit pushes nothing then: its pipeline is emptied by the
//! same reset). The head does not look at `reset` to leave (`out_ready` with a non-empty
//! FIFO moves the read pointer even in a reset cycle, harmless since `reset_r` clears it the
//! next cycle).
//!
//! The read multiplexer is a tree on the read pointer's bits (one LUT level and the ECP5's
//! PFUMX/L6MUX), not a decoded one-hot select followed by an AND-OR: 905 instead of 1,276
//! LUT4 and 117 MHz; what remains critical is the pointer's fan-out to the 146 output bits.
//! A deeper FIFO has one such tree per group of 8 places and selects the group with a one-hot
//! AND-OR on the pointer's upper bits.

use rust_hdl::prelude::*;

/// Entries in the response FIFO of the default unit.
pub const RSP_FIFO_DEPTH: usize = 8;
/// The deepest response FIFO ([`ResponseFifo::new`]).
pub const RSP_FIFO_DEPTH_MAX: usize = 32;
/// Width of a response entry: id (16), data (128), status (2).
pub const RSP_ENTRY_BITS: usize = 146;

#[derive(LogicBlock)]
pub struct ResponseFifo {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub push: Signal<In, Bit>,
    pub push_entry: Signal<In, Bits<RSP_ENTRY_BITS>>,
    pub out_valid: Signal<Out, Bit>,
    pub out_ready: Signal<In, Bit>,
    pub out_entry: Signal<Out, Bits<RSP_ENTRY_BITS>>,

    entry: Vec<DFF<Bits<RSP_ENTRY_BITS>>>,
    wr_ptr: DFF<Bits<5>>,
    rd_ptr: DFF<Bits<5>>,
    count: DFF<Bits<6>>,
    reset_r: DFF<Bit>,
    nonempty: Signal<Local, Bit>,
    wr_oh: Signal<Local, Bits<RSP_FIFO_DEPTH_MAX>>,
    grp_oh: Signal<Local, Bits<4>>,
    grp_out: Signal<Local, Bits<RSP_ENTRY_BITS>>,
    pop: Signal<Local, Bit>,
    /// The one-hot bits beyond a shallower FIFO's places.
    unused_oh: Signal<Local, Bit>,
    one32: Constant<Bits<RSP_FIFO_DEPTH_MAX>>,
    one_g: Constant<Bits<4>>,
    ptr_mask: Constant<Bits<5>>,
    zero_entry: Constant<Bits<RSP_ENTRY_BITS>>,
    one5: Constant<Bits<5>>,
    one6: Constant<Bits<6>>,
    zero5: Constant<Bits<5>>,
    zero6: Constant<Bits<6>>,
    /// Groups of 8 places.
    _groups: usize,
}

impl Default for ResponseFifo {
    /// The default unit's FIFO: [`RSP_FIFO_DEPTH`] places.
    fn default() -> Self {
        ResponseFifo::new(RSP_FIFO_DEPTH)
    }
}

impl ResponseFifo {
    /// A FIFO of `depth` places: 8, 16 or 32.
    pub fn new(depth: usize) -> Self {
        assert!(matches!(depth, 8 | 16 | 32), "ResponseFifo: depth {depth} is not 8, 16 or 32");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            push: Default::default(),
            push_entry: Default::default(),
            out_valid: Default::default(),
            out_ready: Default::default(),
            out_entry: Default::default(),
            entry: (0..depth).map(|_| Default::default()).collect(),
            wr_ptr: Default::default(),
            rd_ptr: Default::default(),
            count: Default::default(),
            reset_r: Default::default(),
            nonempty: Default::default(),
            wr_oh: Default::default(),
            grp_oh: Default::default(),
            grp_out: Default::default(),
            pop: Default::default(),
            unused_oh: Default::default(),
            one32: Constant::new(1u64.to_bits()),
            one_g: Constant::new(1u64.to_bits()),
            ptr_mask: Constant::new(((depth - 1) as u64).to_bits()),
            zero_entry: Constant::new(Bits::default()),
            one5: Constant::new(1u64.to_bits()),
            one6: Constant::new(1u64.to_bits()),
            zero5: Constant::new(0u64.to_bits()),
            zero6: Constant::new(0u64.to_bits()),
            _groups: depth / 8,
        }
    }
}


impl Logic for ResponseFifo {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, wr_ptr, rd_ptr, count, reset_r);
        self.reset_r.d.next = self.reset.val();
        for i in 0..self.entry.len() {
            self.entry[i].clock.next = self.clock.val();
            self.entry[i].d.next = self.entry[i].q.val();
        }
        self.wr_oh.next = self.one32.val() << self.wr_ptr.q.val();
        self.grp_oh.next = self.one_g.val() << self.rd_ptr.q.val().get_bits::<2>(3);
        self.unused_oh.next = self.wr_oh.val().any() ^ self.grp_oh.val().any();

        self.nonempty.next = self.count.q.val().any();
        self.out_valid.next = self.nonempty.val() && !self.reset.val() && !self.reset_r.q.val();
        // The read multiplexer: a tree on the pointer's low bits per group of 8 places (ECP5:
        // LUTs and PFUMX/L6MUX), the groups one-hot on its upper bits.
        self.out_entry.next = self.zero_entry.val();
        for g in 0..self._groups {
            if self.rd_ptr.q.val().get_bit(2) {
                if self.rd_ptr.q.val().get_bit(1) {
                    if self.rd_ptr.q.val().get_bit(0) {
                        self.grp_out.next = self.entry[8 * g + 7].q.val();
                    } else {
                        self.grp_out.next = self.entry[8 * g + 6].q.val();
                    }
                } else {
                    if self.rd_ptr.q.val().get_bit(0) {
                        self.grp_out.next = self.entry[8 * g + 5].q.val();
                    } else {
                        self.grp_out.next = self.entry[8 * g + 4].q.val();
                    }
                }
            } else {
                if self.rd_ptr.q.val().get_bit(1) {
                    if self.rd_ptr.q.val().get_bit(0) {
                        self.grp_out.next = self.entry[8 * g + 3].q.val();
                    } else {
                        self.grp_out.next = self.entry[8 * g + 2].q.val();
                    }
                } else {
                    if self.rd_ptr.q.val().get_bit(0) {
                        self.grp_out.next = self.entry[8 * g + 1].q.val();
                    } else {
                        self.grp_out.next = self.entry[8 * g + 0].q.val();
                    }
                }
            }
            if self.grp_oh.val().get_bit(g) {
                self.out_entry.next = self.out_entry.val() | self.grp_out.val();
            }
        }
        // (Not from `out_valid`: the port's reset stays off the pointers' enables.)
        self.pop.next = self.nonempty.val() && self.out_ready.val();

        for i in 0..self.entry.len() {
            if self.push.val() && self.wr_oh.val().get_bit(i) {
                self.entry[i].d.next = self.push_entry.val();
            }
        }
        if self.push.val() {
            self.wr_ptr.d.next = (self.wr_ptr.q.val() + self.one5.val()) & self.ptr_mask.val();
        }
        if self.pop.val() {
            self.rd_ptr.d.next = (self.rd_ptr.q.val() + self.one5.val()) & self.ptr_mask.val();
        }
        if self.push.val() && !self.pop.val() {
            self.count.d.next = self.count.q.val() + self.one6.val();
        }
        if self.pop.val() && !self.push.val() {
            self.count.d.next = self.count.q.val() - self.one6.val();
        }
        if self.reset_r.q.val() {
            self.wr_ptr.d.next = self.zero5.val();
            self.rd_ptr.d.next = self.zero5.val();
            self.count.d.next = self.zero6.val();
        }
    }
}
