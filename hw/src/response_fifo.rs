//! The unit's response buffer: a first-in first-out queue of [`RSP_FIFO_DEPTH`] responses
//! (id, data, status) in front of the valid/ready response port.
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

use rust_hdl::prelude::*;

/// Entries in the response FIFO.
pub const RSP_FIFO_DEPTH: usize = 8;
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

    entry: [DFF<Bits<RSP_ENTRY_BITS>>; RSP_FIFO_DEPTH],
    wr_ptr: DFF<Bits<3>>,
    rd_ptr: DFF<Bits<3>>,
    count: DFF<Bits<4>>,
    reset_r: DFF<Bit>,
    nonempty: Signal<Local, Bit>,
    wr_oh: Signal<Local, Bits<RSP_FIFO_DEPTH>>,
    pop: Signal<Local, Bit>,
    one8: Constant<Bits<RSP_FIFO_DEPTH>>,
    one3: Constant<Bits<3>>,
    one4: Constant<Bits<4>>,
    zero3: Constant<Bits<3>>,
    zero4: Constant<Bits<4>>,
}

impl Default for ResponseFifo {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            push: Default::default(),
            push_entry: Default::default(),
            out_valid: Default::default(),
            out_ready: Default::default(),
            out_entry: Default::default(),
            entry: Default::default(),
            wr_ptr: Default::default(),
            rd_ptr: Default::default(),
            count: Default::default(),
            reset_r: Default::default(),
            nonempty: Default::default(),
            wr_oh: Default::default(),
            pop: Default::default(),
            one8: Constant::new(1u64.to_bits()),
            one3: Constant::new(1u64.to_bits()),
            one4: Constant::new(1u64.to_bits()),
            zero3: Constant::new(0u64.to_bits()),
            zero4: Constant::new(0u64.to_bits()),
        }
    }
}

const _: () = assert!(RSP_FIFO_DEPTH == 8, "pointers are 3 bits");

impl Logic for ResponseFifo {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, wr_ptr, rd_ptr, count, reset_r);
        self.reset_r.d.next = self.reset.val();
        for i in 0..8 {
            self.entry[i].clock.next = self.clock.val();
            self.entry[i].d.next = self.entry[i].q.val();
        }
        self.wr_oh.next = self.one8.val() << self.wr_ptr.q.val();

        self.nonempty.next = self.count.q.val().any();
        self.out_valid.next = self.nonempty.val() && !self.reset.val() && !self.reset_r.q.val();
        // The read multiplexer as a tree on the pointer bits (ECP5: LUTs and PFUMX/L6MUX).
        if self.rd_ptr.q.val().get_bit(2) {
            if self.rd_ptr.q.val().get_bit(1) {
                if self.rd_ptr.q.val().get_bit(0) {
                    self.out_entry.next = self.entry[7].q.val();
                } else {
                    self.out_entry.next = self.entry[6].q.val();
                }
            } else {
                if self.rd_ptr.q.val().get_bit(0) {
                    self.out_entry.next = self.entry[5].q.val();
                } else {
                    self.out_entry.next = self.entry[4].q.val();
                }
            }
        } else {
            if self.rd_ptr.q.val().get_bit(1) {
                if self.rd_ptr.q.val().get_bit(0) {
                    self.out_entry.next = self.entry[3].q.val();
                } else {
                    self.out_entry.next = self.entry[2].q.val();
                }
            } else {
                if self.rd_ptr.q.val().get_bit(0) {
                    self.out_entry.next = self.entry[1].q.val();
                } else {
                    self.out_entry.next = self.entry[0].q.val();
                }
            }
        }
        // (Not from `out_valid`: the port's reset stays off the pointers' enables.)
        self.pop.next = self.nonempty.val() && self.out_ready.val();

        for i in 0..8 {
            if self.push.val() && self.wr_oh.val().get_bit(i) {
                self.entry[i].d.next = self.push_entry.val();
            }
        }
        if self.push.val() {
            self.wr_ptr.d.next = self.wr_ptr.q.val() + self.one3.val();
        }
        if self.pop.val() {
            self.rd_ptr.d.next = self.rd_ptr.q.val() + self.one3.val();
        }
        if self.push.val() && !self.pop.val() {
            self.count.d.next = self.count.q.val() + self.one4.val();
        }
        if self.pop.val() && !self.push.val() {
            self.count.d.next = self.count.q.val() - self.one4.val();
        }
        if self.reset_r.q.val() {
            self.wr_ptr.d.next = self.zero3.val();
            self.rd_ptr.d.next = self.zero3.val();
            self.count.d.next = self.zero4.val();
        }
    }
}
