//! The unit's response buffer: a first-in first-out queue of responses (id, data, status) in
//! front of the valid/ready response port; [`ResponseFifo::new`] takes 8 ([`RSP_FIFO_DEPTH`]),
//! 16 or 32 places. The unit's has 32 ([`RSP_FIFO_DEPTH_MAX`]), so that the requests between
//! issue and response, each with a place reserved, never run out of places at one request
//! per cycle.
//!
//! `out_valid` is high while the FIFO holds a response; the head leaves when `out_ready` is
//! high too. A push in a cycle with the FIFO full is lost, so the producer must keep a count
//! (the unit issues a request only when a place in this FIFO is reserved for it). Pointers
//! are binary and start at zero, so the power-up state (all registers zero) is the empty
//! FIFO.
//!
//! Synchronous `reset` empties it one cycle late: the pointers and the count take a local
//! copy of `reset` (`reset_r`, registered next to them), so that the port's reset drives one
//! flip-flop and `out_valid` instead of the pointers' enables (reset → `out_valid` → pop →
//! read-pointer enable would be the block's critical path, 100 MHz on the ECP5).
//! `out_valid` is low while `reset` or `reset_r` is high (the reset cycles and the one
//! after), so no entry of before the reset is ever offered; a push in a reset cycle or in
//! the cycle after it is lost (the unit pushes nothing then: its pipeline is emptied by the
//! same reset). The head does not look at `reset` to leave (`out_ready` with a non-empty
//! FIFO moves the read pointer even in a reset cycle, harmless since `reset_r` clears it the
//! next cycle).
//!
//! The places are a [`LutRam`] (distributed RAM: on the ECP5 `TRELLIS_DPR16X4` cells, whose
//! LUTs are the read multiplexer) behind a head register: `out_entry` and `out_valid` come
//! straight from flip-flops (`head`, `head_v`), and the RAM's read (at the read pointer, a
//! register) ends in the head's input. A push into a FIFO whose places are empty goes into the
//! head directly when the head is free (empty, or leaving this cycle), so a push is still on
//! `out_valid` in the next cycle and the port behaves as a plain FIFO of `depth` places (with
//! one more place, the head, that the producer's count does not use). Why: flip-flop
//! places with a read multiplexer tree instead (32 places: 4,689 FF and 7,151 LUT4) put
//! the read pointer → 32-way multiplexer → port path on the unit's critical path (70.6 MHz).

use crate::lut_ram::LutRam;
use rust_hdl::prelude::*;

/// Entries in the smallest response FIFO ([`ResponseFifo::default`]; the unit's has
/// [`RSP_FIFO_DEPTH_MAX`]).
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

    /// The places behind the head.
    ram: LutRam<Bits<RSP_ENTRY_BITS>>,
    /// The oldest response (the port's data) and whether there is one.
    head: DFF<Bits<RSP_ENTRY_BITS>>,
    head_v: DFF<Bit>,
    wr_ptr: DFF<Bits<5>>,
    rd_ptr: DFF<Bits<5>>,
    /// Responses in the RAM (not counting the head), and whether that is not zero.
    count: DFF<Bits<6>>,
    stored: DFF<Bit>,
    reset_r: DFF<Bit>,
    /// The head is empty or leaves this cycle.
    head_free: Signal<Local, Bit>,
    /// The RAM's oldest response moves into the head.
    ram_read: Signal<Local, Bit>,
    /// The push goes into the RAM (not straight into the head).
    ram_write: Signal<Local, Bit>,
    ptr_mask: Constant<Bits<5>>,
    one5: Constant<Bits<5>>,
    one6: Constant<Bits<6>>,
    zero5: Constant<Bits<5>>,
    zero6: Constant<Bits<6>>,
}

impl Default for ResponseFifo {
    /// The smallest FIFO: [`RSP_FIFO_DEPTH`] places.
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
            ram: LutRam::new(depth),
            head: Default::default(),
            head_v: Default::default(),
            wr_ptr: Default::default(),
            rd_ptr: Default::default(),
            count: Default::default(),
            stored: Default::default(),
            reset_r: Default::default(),
            head_free: Default::default(),
            ram_read: Default::default(),
            ram_write: Default::default(),
            ptr_mask: Constant::new(((depth - 1) as u64).to_bits()),
            one5: Constant::new(1u64.to_bits()),
            one6: Constant::new(1u64.to_bits()),
            zero5: Constant::new(0u64.to_bits()),
            zero6: Constant::new(0u64.to_bits()),
        }
    }
}

impl Logic for ResponseFifo {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, head, head_v, wr_ptr, rd_ptr, count, stored, reset_r);
        self.ram.clock.next = self.clock.val();
        self.reset_r.d.next = self.reset.val();

        // The port: straight from the head's flip-flops (and the reset).
        self.out_valid.next = self.head_v.q.val() && !self.reset.val() && !self.reset_r.q.val();
        self.out_entry.next = self.head.q.val();

        // (Not from `out_valid`: the port's reset stays off the enables.)
        self.head_free.next = !self.head_v.q.val() || self.out_ready.val();
        self.ram_read.next = self.head_free.val() && self.stored.q.val();
        self.ram_write.next = self.push.val() && !(self.head_free.val() && !self.stored.q.val());

        // The head: the RAM's oldest response, else a push into an empty FIFO.
        self.ram.read_addr.next = self.rd_ptr.q.val();
        if self.head_free.val() {
            self.head_v.d.next = self.stored.q.val() || self.push.val();
            if self.stored.q.val() {
                self.head.d.next = self.ram.read_data.val();
            } else {
                self.head.d.next = self.push_entry.val();
            }
        }

        // The RAM behind it. Every push is written at the write pointer, which moves only
        // when the push stays in the RAM (`ram_write`): a push that goes into the head writes
        // a free place that the next push writes again, and the RAM's write enable does not
        // wait for `out_ready` (rsp_ready → head free → the write enables of the RAM's 74
        // cells would be a critical path of the unit).
        self.ram.write_enable.next = self.push.val();
        self.ram.write_addr.next = self.wr_ptr.q.val();
        self.ram.write_data.next = self.push_entry.val();
        if self.ram_write.val() {
            self.wr_ptr.d.next = (self.wr_ptr.q.val() + self.one5.val()) & self.ptr_mask.val();
        }
        if self.ram_read.val() {
            self.rd_ptr.d.next = (self.rd_ptr.q.val() + self.one5.val()) & self.ptr_mask.val();
        }
        if self.ram_write.val() && !self.ram_read.val() {
            self.count.d.next = self.count.q.val() + self.one6.val();
            self.stored.d.next = true;
        }
        if self.ram_read.val() && !self.ram_write.val() {
            self.count.d.next = self.count.q.val() - self.one6.val();
            self.stored.d.next = self.count.q.val() != self.one6.val();
        }
        if self.reset_r.q.val() {
            self.head_v.d.next = false;
            self.wr_ptr.d.next = self.zero5.val();
            self.rd_ptr.d.next = self.zero5.val();
            self.count.d.next = self.zero6.val();
            self.stored.d.next = false;
        }
    }
}
