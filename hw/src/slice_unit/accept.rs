//! s0 accept: the request port's decode into the ordering queue's push, in two registered
//! steps: the operation's decode ([`FormDecode`]) into `ad_*`, the address-dependent checks
//! and queue fields ([`PushDecode`]) into `ac_*`.
//!
//! A block of its own so that the decode and its handshake read as one stage; the unit wires
//! the port in and the push out to its queue.

use super::form_decode::FormDecode;
use super::push_decode::PushDecode;
use super::{ID_WIDTH, Shape};
use crate::ecp5::DOnlyReg;
use crate::ecp5::replica_reg::ReplicaReg;
use crate::line_memory::LINE_BITS;
use crate::ordering_queue::{QUEUE_KEY_BITS, QUEUE_PAYLOAD_BITS, QUEUE_WAIT_BITS};
use rust_hdl::prelude::*;
use sim::memory::req_encoding::REQ_OP_WIDTH;

#[derive(LogicBlock)]
pub(super) struct Accept {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // The unit's request port.
    pub req_valid: Signal<In, Bit>,
    pub req_ready: Signal<Out, Bit>,
    pub req_op: Signal<In, Bits<REQ_OP_WIDTH>>,
    pub req_addr: Signal<In, Bits<32>>,
    pub req_data: Signal<In, Bits<128>>,
    pub req_id: Signal<In, Bits<ID_WIDTH>>,
    pub req_mask: Signal<In, Bits<8>>,
    // The queue's push (its inputs, and its `push_ready_nx`).
    pub push_ready_nx: Signal<In, Bit>,
    pub push_valid: Signal<Out, Bit>,
    pub push_line: Signal<Out, Bits<LINE_BITS>>,
    pub push_line_nx: Signal<Out, Bits<LINE_BITS>>,
    pub push_nx_keep: Signal<Out, Bit>,
    pub push_ordered: Signal<Out, Bit>,
    pub push_wait: Signal<Out, Bits<QUEUE_WAIT_BITS>>,
    pub push_payload: Signal<Out, Bits<QUEUE_PAYLOAD_BITS>>,
    pub push_key: Signal<Out, Bits<QUEUE_KEY_BITS>>,
    pub push_key_nx: Signal<Out, Bits<QUEUE_KEY_BITS>>,
    pub push_words: Signal<Out, Bits<4>>,
    pub push_words_nx: Signal<Out, Bits<4>>,

    form_dec: FormDecode,
    push_dec: PushDecode,
    /// The request and its operation's decode (`ad_ld`: `ad_*` takes
    /// the port's request, for it is empty or moves into `ac_*`), so that the
    /// address-dependent checks start from registers.
    ad_valid: DFF<Bit>,
    ad_op: DFF<Bits<REQ_OP_WIDTH>>,
    ad_off: DFF<Bits<4>>,
    ad_line: DFF<Bits<LINE_BITS>>,
    ad_data: DFF<Bits<128>>,
    ad_id: DFF<Bits<ID_WIDTH>>,
    /// (D-only: the decode's zero mask, as a synchronous clear on LSR, was a critical path from
    /// the port.)
    ad_mask: DOnlyReg<Bits<8>>,
    ad_size: DFF<Bits<3>>,
    ad_fp: DFF<Bit>,
    /// The words it touches (see `ac_words`): the queue compares the next push's words with
    /// its slots' a cycle ahead, from this register.
    ad_words: DFF<Bits<4>>,
    ad_oor: DFF<Bit>,
    ad_wait: DFF<Bits<QUEUE_WAIT_BITS>>,
    /// The chain key (see `ac_key`): the queue compares the next push's key with its slots'
    /// a cycle ahead, from this register.
    ad_key: DFF<Bits<QUEUE_KEY_BITS>>,
    ad_ld: DFF<Bit>,
    ad_v_nx: Signal<Local, Bit>,
    /// The decoded request, registered before the queue's push.
    ac_valid: DFF<Bit>,
    ac_line: DFF<Bits<LINE_BITS>>,
    ac_ordered: DFF<Bit>,
    ac_wait: DFF<Bits<QUEUE_WAIT_BITS>>,
    ac_payload: DFF<Bits<QUEUE_PAYLOAD_BITS>>,
    /// The request's chain key for the queue: an integer `red`/`atom`
    /// on a plain access may chain behind one with the same offset and size (bit 8; bit 7: an
    /// add/and/or/xor, a fast chain; size in bits 6..4, offset in 3..0). See "The integer
    /// loop" in the unit's doc.
    ac_key: DFF<Bits<QUEUE_KEY_BITS>>,
    /// The 32-bit words of its line the request touches: the queue orders requests per word,
    /// forwarding selects per word.
    ac_words: DFF<Bits<4>>,
    /// `ac_*` takes `ad_*`'s request (it is empty or moves into the queue).
    ac_ld: DFF<Bit>,
    /// `ac_ld` again (a replica), for the queue's `push_nx_keep` alone: it selects the held
    /// matches in the last LUT of each slot's and history place's match, apart from `ac_ld`'s
    /// 200-odd clock enables.
    ac_ld_q: ReplicaReg<Bit>,
    ac_v_nx: Signal<Local, Bit>,
    /// `ac_line`'s next value (the queue compares it with its slots a cycle ahead).
    ac_line_nx: Signal<Local, Bits<LINE_BITS>>,
}

impl Accept {
    /// The decode for a memory of `mem_bytes` and the queue windows of `sh`.
    pub(super) fn new(mem_bytes: usize, sh: &Shape) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            req_valid: Default::default(),
            req_ready: Default::default(),
            req_op: Default::default(),
            req_addr: Default::default(),
            req_data: Default::default(),
            req_id: Default::default(),
            req_mask: Default::default(),
            push_ready_nx: Default::default(),
            push_valid: Default::default(),
            push_line: Default::default(),
            push_line_nx: Default::default(),
            push_nx_keep: Default::default(),
            push_ordered: Default::default(),
            push_wait: Default::default(),
            push_payload: Default::default(),
            push_key: Default::default(),
            push_key_nx: Default::default(),
            push_words: Default::default(),
            push_words_nx: Default::default(),
            form_dec: FormDecode::new(mem_bytes, sh),
            push_dec: PushDecode::new(mem_bytes),
            ad_valid: Default::default(),
            ad_op: Default::default(),
            ad_off: Default::default(),
            ad_line: Default::default(),
            ad_data: Default::default(),
            ad_id: Default::default(),
            ad_mask: Default::default(),
            ad_size: Default::default(),
            ad_fp: Default::default(),
            ad_words: Default::default(),
            ad_oor: Default::default(),
            ad_wait: Default::default(),
            ad_key: Default::default(),
            ad_ld: Default::default(),
            ad_v_nx: Default::default(),
            ac_valid: Default::default(),
            ac_line: Default::default(),
            ac_ordered: Default::default(),
            ac_wait: Default::default(),
            ac_payload: Default::default(),
            ac_key: Default::default(),
            ac_words: Default::default(),
            ac_ld: Default::default(),
            ac_ld_q: Default::default(),
            ac_v_nx: Default::default(),
            ac_line_nx: Default::default(),
        }
    }
}

impl Logic for Accept {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, ac_valid, ac_ld, ac_line, ac_ordered, ac_wait, ac_payload, ac_key, ac_words);
        dff_setup!(self, clock, ad_valid, ad_op, ad_off, ad_line, ad_data, ad_id, ad_size, ad_fp, ad_words);
        self.ad_mask.clock.next = self.clock.val();
        self.ad_mask.d.next = self.ad_mask.q.val();
        dff_setup!(self, clock, ad_oor, ad_wait, ad_key, ad_ld);
        self.ac_ld_q.clock.next = self.clock.val();
        // The operation's decode, from the port.
        self.form_dec.op.next = self.req_op.val();
        self.form_dec.addr.next = self.req_addr.val();
        self.form_dec.mask.next = self.req_mask.val();

        // `ad_*` takes the request while empty or moving into `ac_*`.
        self.ad_v_nx.next = self.ad_valid.q.val();
        if self.ad_ld.q.val() {
            self.ad_v_nx.next = self.req_valid.val();
            self.ad_op.d.next = self.req_op.val();
            self.ad_off.d.next = self.req_addr.val().get_bits::<4>(0);
            self.ad_line.d.next = self.req_addr.val().get_bits::<LINE_BITS>(4);
            self.ad_data.d.next = self.req_data.val();
            self.ad_id.d.next = self.req_id.val();
            self.ad_mask.d.next = self.form_dec.sector_mask.val();
            self.ad_size.d.next = self.form_dec.size.val();
            self.ad_fp.d.next = self.form_dec.fp.val();
            self.ad_words.d.next = self.form_dec.words.val();
            self.ad_oor.d.next = self.form_dec.oor.val();
            self.ad_wait.d.next = self.form_dec.window.val();
            self.ad_key.d.next = self.form_dec.key.val();
        }
        if self.reset.val() {
            self.ad_v_nx.next = false;
        }
        self.ad_valid.d.next = self.ad_v_nx.val();

        // The address-dependent checks and queue fields, from `ad_*`.
        self.push_dec.op.next = self.ad_op.q.val();
        self.push_dec.off.next = self.ad_off.q.val();
        self.push_dec.line_in.next = self.ad_line.q.val();
        self.push_dec.data.next = self.ad_data.q.val();
        self.push_dec.id.next = self.ad_id.q.val();
        self.push_dec.sector_mask.next = self.ad_mask.q.val();
        self.push_dec.size.next = self.ad_size.q.val();
        self.push_dec.fp.next = self.ad_fp.q.val();
        self.push_dec.oor.next = self.ad_oor.q.val();

        // The push: the decoded request of the cycle before (`ac_*`, filled while empty or
        // moving into the queue), so that the queue's line compares start from registers.
        // (`ac_ld`: `!ac_valid || push_ready` as a register of its own, from both registers'
        // next values, so the 200-odd clock enables hang off a register, not a LUT; a read of
        // `push_ready` beside the writes of the queue's inputs makes Verilator see a loop
        // through the queue.)
        self.ac_v_nx.next = self.ac_valid.q.val();
        self.ac_line_nx.next = self.ac_line.q.val();
        if self.ac_ld.q.val() {
            self.ac_v_nx.next = self.ad_valid.q.val();
            self.ac_line_nx.next = self.push_dec.line.val();
            self.ac_ordered.d.next = self.push_dec.ordered.val();
            self.ac_wait.d.next = self.ad_wait.q.val();
            self.ac_payload.d.next = self.push_dec.payload.val();
            self.ac_key.d.next = self.ad_key.q.val();
            self.ac_words.d.next = self.ad_words.q.val();
        }
        if self.reset.val() {
            self.ac_v_nx.next = false;
        }
        self.ac_valid.d.next = self.ac_v_nx.val();
        self.ac_line.d.next = self.ac_line_nx.val();
        // (Separate statements for `req_ready` and the push: Verilator orders this block's
        // statements in groups, and one that reads `push_ready` and writes `push_valid` would
        // be a loop through the queue.)
        self.req_ready.next = self.ad_ld.q.val() && !self.reset.val();
        self.push_valid.next = self.ac_valid.q.val();
        self.push_line.next = self.ac_line.q.val();
        // (The next push line: the decoded line when the register loads, else its own;
        // whether it loads from `ac_ld`'s replica.)
        self.push_line_nx.next = self.push_dec.line.val();
        self.push_nx_keep.next = !self.ac_ld_q.q.val();
        self.push_ordered.next = self.ac_ordered.q.val();
        self.push_wait.next = self.ac_wait.q.val();
        self.push_payload.next = self.ac_payload.q.val();
        self.push_key.next = self.ac_key.q.val();
        self.push_key_nx.next = self.ad_key.q.val();
        self.push_words.next = self.ac_words.q.val();
        self.push_words_nx.next = self.ad_words.q.val();
        // (Their own statements, like `req_ready`: `ad_*` loads next cycle when it will be
        // empty or `ac_*` loads then.)
        self.ac_ld.d.next = !self.ac_v_nx.val() || self.push_ready_nx.val();
        self.ac_ld_q.d.next = !self.ac_v_nx.val() || self.push_ready_nx.val();
        self.ad_ld.d.next = !self.ad_v_nx.val() || !self.ac_v_nx.val() || self.push_ready_nx.val();
    }
}
