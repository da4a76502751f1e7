//! The slots' request state: valid bit, line, words, payload, `ordered`, window, chain key,
//! and the age matrix. Loaded by a push, held until the entry issues (nothing shifts).
//!
//! The payloads, which only the issue reads, are a [`LutRam`] (a word per slot, written with the
//! slot's other registers), so the issue outputs take them from one read port instead of a
//! select over a register per slot.
//!
//! The state that decides when an entry may issue (dependences, counts, eligibility) is
//! [`super::wait_state::EntryWait`]'s; this block holds what the request is.

use super::{QUEUE_DEPTH, QUEUE_KEY_BITS, QUEUE_PAYLOAD_BITS, QUEUE_WAIT_BITS, QUEUE_WAIT_MAX};
use crate::line_memory::LINE_BITS;
use crate::lut_ram::{LUT_RAM_ADDR_BITS, LutRam};
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub(super) struct SlotData {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// The slot issuing this cycle (one-hot): it is invalid from the next.
    pub fs: Signal<In, Bits<QUEUE_DEPTH>>,
    /// The slot pushed this cycle (valid bit, age matrix) and the slots that load the pushed
    /// request (the rest).
    pub we: Signal<In, Bits<QUEUE_DEPTH>>,
    pub ld: Signal<In, Bits<QUEUE_DEPTH>>,
    pub push_line: Signal<In, Bits<LINE_BITS>>,
    pub push_ordered: Signal<In, Bit>,
    pub push_wait: Signal<In, Bits<QUEUE_WAIT_BITS>>,
    pub push_payload: Signal<In, Bits<QUEUE_PAYLOAD_BITS>>,
    pub push_key: Signal<In, Bits<QUEUE_KEY_BITS>>,
    pub push_words: Signal<In, Bits<4>>,
    /// The payload RAM's write address and enable (`ld` in binary, and `ld` not zero), and the
    /// slot whose payload `rd_payload` is (binary; zero when `rd_en` is low).
    pub wr_addr: Signal<In, Bits<LUT_RAM_ADDR_BITS>>,
    pub wr_en: Signal<In, Bit>,
    pub rd_addr: Signal<In, Bits<LUT_RAM_ADDR_BITS>>,
    pub rd_en: Signal<In, Bit>,
    pub rd_payload: Signal<Out, Bits<QUEUE_PAYLOAD_BITS>>,
    /// The slots' registers, per slot or as a vector (bit i: slot i).
    pub valid: Signal<Out, Bits<QUEUE_DEPTH>>,
    pub ordered: Signal<Out, Bits<QUEUE_DEPTH>>,
    pub late: Signal<Out, Bits<QUEUE_DEPTH>>,
    /// The windows of 2 or more (`e_wt` bit 0).
    pub wt0: Signal<Out, Bits<QUEUE_DEPTH>>,
    pub line: [Signal<Out, Bits<LINE_BITS>>; QUEUE_DEPTH],
    pub words: [Signal<Out, Bits<4>>; QUEUE_DEPTH],
    pub key: [Signal<Out, Bits<QUEUE_KEY_BITS>>; QUEUE_DEPTH],
    pub wt: [Signal<Out, Bits<QUEUE_WAIT_MAX>>; QUEUE_DEPTH],
    pub older: [Signal<Out, Bits<QUEUE_DEPTH>>; QUEUE_DEPTH],
    e_valid: [DFF<Bit>; QUEUE_DEPTH],
    e_line: [DFF<Bits<LINE_BITS>>; QUEUE_DEPTH],
    e_ordered: [DFF<Bit>; QUEUE_DEPTH],
    /// Ordered with a window of 1 or more.
    e_late: [DFF<Bit>; QUEUE_DEPTH],
    /// The window less one, as a thermometer code (late entries only; zero for the others).
    e_wt: [DFF<Bits<QUEUE_WAIT_MAX>>; QUEUE_DEPTH],
    /// The payloads, a word per slot.
    pay: LutRam<Bits<QUEUE_PAYLOAD_BITS>>,
    /// The entry's words of its line, and its chain key.
    e_words: [DFF<Bits<4>>; QUEUE_DEPTH],
    e_key: [DFF<Bits<QUEUE_KEY_BITS>>; QUEUE_DEPTH],
    /// Bit j: entry i is older than entry j. A push into slot k clears row k and sets
    /// column k.
    e_older: [DFF<Bits<QUEUE_DEPTH>>; QUEUE_DEPTH],
    /// The pushed entry's own window less one, as a thermometer code.
    p_wt: Signal<Local, Bits<QUEUE_WAIT_MAX>>,
    // One temporary per vector: the vectors read registers only, and share no statement
    // group with the loads, which read the push handshake.
    vb_v: Signal<Local, Bit>,
    vb_o: Signal<Local, Bit>,
    vb_l: Signal<Local, Bit>,
    vb_w: Signal<Local, Bit>,
    rp: Constant<Bit>,
    zero_d: Constant<Bits<QUEUE_DEPTH>>,
    zero_p: Constant<Bits<QUEUE_PAYLOAD_BITS>>,
    zero_w: Constant<Bits<QUEUE_WAIT_MAX>>,
    ones_w: Constant<Bits<QUEUE_WAIT_MAX>>,
    one_w: Constant<Bits<QUEUE_WAIT_BITS>>,
    top_sh: Constant<Bits<4>>,
}

impl SlotData {
    pub(super) fn new(registered: bool) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            fs: Default::default(),
            we: Default::default(),
            ld: Default::default(),
            push_line: Default::default(),
            push_ordered: Default::default(),
            push_wait: Default::default(),
            push_payload: Default::default(),
            push_key: Default::default(),
            push_words: Default::default(),
            wr_addr: Default::default(),
            wr_en: Default::default(),
            rd_addr: Default::default(),
            rd_en: Default::default(),
            rd_payload: Default::default(),
            valid: Default::default(),
            ordered: Default::default(),
            late: Default::default(),
            wt0: Default::default(),
            line: Default::default(),
            words: Default::default(),
            key: Default::default(),
            wt: Default::default(),
            older: Default::default(),
            e_valid: Default::default(),
            e_line: Default::default(),
            e_ordered: Default::default(),
            e_late: Default::default(),
            e_wt: Default::default(),
            pay: LutRam::new(QUEUE_DEPTH.next_power_of_two()),
            e_words: Default::default(),
            e_key: Default::default(),
            e_older: Default::default(),
            p_wt: Default::default(),
            vb_v: Default::default(),
            vb_o: Default::default(),
            vb_l: Default::default(),
            vb_w: Default::default(),
            rp: Constant::new(registered),
            zero_d: crate::k::<QUEUE_DEPTH>(0),
            zero_p: Constant::new(Bits::default()),
            zero_w: crate::k::<QUEUE_WAIT_MAX>(0),
            ones_w: crate::k::<QUEUE_WAIT_MAX>((1u128 << QUEUE_WAIT_MAX) - 1),
            one_w: crate::k::<QUEUE_WAIT_BITS>(1),
            top_sh: crate::k::<4>((QUEUE_DEPTH - 1) as u128),
        }
    }
}

impl Logic for SlotData {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..QUEUE_DEPTH {
            self.e_valid[i].clock.next = self.clock.val();
            self.e_line[i].clock.next = self.clock.val();
            self.e_ordered[i].clock.next = self.clock.val();
            self.e_late[i].clock.next = self.clock.val();
            self.e_wt[i].clock.next = self.clock.val();
            self.e_words[i].clock.next = self.clock.val();
            self.e_key[i].clock.next = self.clock.val();
            self.e_older[i].clock.next = self.clock.val();
        }
        // The registers as the other blocks read them.
        self.valid.next = self.zero_d.val();
        self.ordered.next = self.zero_d.val();
        self.late.next = self.zero_d.val();
        self.wt0.next = self.zero_d.val();
        for i in 0..QUEUE_DEPTH {
            self.vb_v.next = self.e_valid[i].q.val();
            self.valid.next =
                (self.valid.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.vb_v.val().into()) << self.top_sh.val());
            self.vb_o.next = self.e_ordered[i].q.val();
            self.ordered.next =
                (self.ordered.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.vb_o.val().into()) << self.top_sh.val());
            self.vb_l.next = self.e_late[i].q.val();
            self.late.next =
                (self.late.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.vb_l.val().into()) << self.top_sh.val());
            self.vb_w.next = self.e_wt[i].q.val().get_bit(0);
            self.wt0.next =
                (self.wt0.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.vb_w.val().into()) << self.top_sh.val());
            self.line[i].next = self.e_line[i].q.val();
            self.words[i].next = self.e_words[i].q.val();
            self.key[i].next = self.e_key[i].q.val();
            self.wt[i].next = self.e_wt[i].q.val();
            self.older[i].next = self.e_older[i].q.val();
        }
        self.p_wt.next = self.zero_w.val();
        if self.push_wait.val().any() {
            self.p_wt.next = !(self.ones_w.val() << (self.push_wait.val() - self.one_w.val()));
        }
        for i in 0..QUEUE_DEPTH {
            self.e_valid[i].d.next = self.e_valid[i].q.val() && !self.fs.val().get_bit(i);
            self.e_line[i].d.next = self.e_line[i].q.val();
            self.e_ordered[i].d.next = self.e_ordered[i].q.val();
            self.e_late[i].d.next = self.e_late[i].q.val();
            self.e_wt[i].d.next = self.e_wt[i].q.val();
            self.e_words[i].d.next = self.e_words[i].q.val();
            self.e_key[i].d.next = self.e_key[i].q.val();
            // A push elsewhere makes that entry the youngest: column k of the age matrix.
            self.e_older[i].d.next = self.e_older[i].q.val() | self.we.val();
            if self.we.val().get_bit(i) {
                self.e_valid[i].d.next = true;
                self.e_older[i].d.next = self.zero_d.val();
            }
            // With a registered push the slot chosen for the next push (`ld`: `fr`) loads the
            // pushed request in every cycle, pushed or not: only the valid bit and the age
            // matrix wait for the push handshake.
            if self.ld.val().get_bit(i) {
                self.e_line[i].d.next = self.push_line.val();
                self.e_ordered[i].d.next = self.push_ordered.val();
                self.e_late[i].d.next = self.push_ordered.val() && (self.push_wait.val().any() || self.rp.val());
                self.e_wt[i].d.next = self.zero_w.val();
                if self.push_ordered.val() {
                    self.e_wt[i].d.next = self.p_wt.val();
                }
                self.e_words[i].d.next = self.push_words.val();
                self.e_key[i].d.next = self.push_key.val();
            }
        }
        // The payload of the slot `ld` loads, and the one `rd_addr` reads.
        self.pay.clock.next = self.clock.val();
        self.pay.write_enable.next = self.wr_en.val();
        self.pay.write_addr.next = self.wr_addr.val();
        self.pay.write_data.next = self.push_payload.val();
        self.pay.read_addr.next = self.rd_addr.val();
        // (Apart from the statements that drive the read address: the pick drives it, and
        // reads the payload back.)
        self.rd_payload.next = self.zero_p.val();
        if self.rd_en.val() {
            self.rd_payload.next = self.pay.read_data.val();
        }
        if self.reset.val() {
            for i in 0..QUEUE_DEPTH {
                self.e_valid[i].d.next = false;
            }
        }
    }
}
