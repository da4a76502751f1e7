//! s0 accept: the request port's decode (operation, size, alignment, range, hazard window,
//! chain key, words) into the ordering queue's push, straight or (registered pipeline) in two
//! steps: the form's decode into `ad_*`, the access's (status, key, words) into `ac_*`.
//!
//! A block of its own so that the decode and its handshake read as one stage; the unit wires
//! the port in and the push out to its queue.

use super::{ID_WIDTH, P_DATA, P_FP, P_ID, P_MASK, P_OFF, P_SIZE, P_STATUS, Shape, elem_log2_table, is_int_type};
use crate::ecp5::replica_reg::ReplicaReg;
use crate::k;
use crate::line_memory::LINE_BITS;
use crate::ordering_queue::{QUEUE_KEY_BITS, QUEUE_PAYLOAD_BITS, QUEUE_WAIT_BITS};
use rust_hdl::prelude::*;
use sim::form::encoding::{CODE_WIDTH, TYPE_LSB, TYPE_WIDTH, VEC_LSB, VEC_WIDTH};
use sim::memory::req_encoding::{
    KIND_ATOM, KIND_LD, KIND_LSB, KIND_RED, KIND_ST, KIND_WIDTH, REQ_OP_WIDTH, STATUS_MISALIGNED, STATUS_OK,
    STATUS_OUT_OF_RANGE, STATUS_WIDTH,
};

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
    // The queue's push (its inputs, and its `push_ready`, `push_ready_nx`).
    pub push_ready: Signal<In, Bit>,
    pub push_ready_nx: Signal<In, Bit>,
    pub push_valid: Signal<Out, Bit>,
    pub push_line: Signal<Out, Bits<LINE_BITS>>,
    pub push_line_nx: Signal<Out, Bits<LINE_BITS>>,
    pub push_nx_keep: Signal<Out, Bit>,
    pub push_ordered: Signal<Out, Bit>,
    pub push_wait: Signal<Out, Bits<QUEUE_WAIT_BITS>>,
    pub push_payload: Signal<Out, Bits<QUEUE_PAYLOAD_BITS>>,
    pub push_key: Signal<Out, Bits<QUEUE_KEY_BITS>>,
    pub push_words: Signal<Out, Bits<4>>,

    // The form's decode, from the port: kind, size, FP, sector, range, window, chain.
    a_kind: Signal<Local, Bits<KIND_WIDTH>>,
    a_form: Signal<Local, Bits<CODE_WIDTH>>,
    a_ty: Signal<Local, Bits<TYPE_WIDTH>>,
    a_ty2: Signal<Local, Bits<8>>,
    a_elog: Signal<Local, Bits<32>>,
    a_memop: Signal<Local, Bit>,
    a_size: Signal<Local, Bits<3>>,
    a_fp: Signal<Local, Bit>,
    a_sector: Signal<Local, Bit>,
    a_mask: Signal<Local, Bits<8>>,
    a_oor: Signal<Local, Bit>,
    a_wait: Signal<Local, Bits<QUEUE_WAIT_BITS>>,
    a_chain: Signal<Local, Bit>,
    /// Registered pipeline: the request and its form's decode (`ad_ld`: `ad_*` takes the
    /// port's request, for it is empty or moves into `ac_*`), so that the access's decode
    /// starts from registers.
    ad_valid: DFF<Bit>,
    ad_op: DFF<Bits<REQ_OP_WIDTH>>,
    ad_off: DFF<Bits<4>>,
    ad_line: DFF<Bits<LINE_BITS>>,
    ad_data: DFF<Bits<128>>,
    ad_id: DFF<Bits<ID_WIDTH>>,
    ad_mask: DFF<Bits<8>>,
    ad_size: DFF<Bits<3>>,
    ad_fp: DFF<Bit>,
    ad_sector: DFF<Bit>,
    ad_oor: DFF<Bit>,
    ad_wait: DFF<Bits<QUEUE_WAIT_BITS>>,
    ad_chain: DFF<Bit>,
    ad_ld: DFF<Bit>,
    ad_v_nx: Signal<Local, Bit>,
    // The access's decode: from the form's (the port's in the shallow pipeline, else `ad_*`).
    d_valid: Signal<Local, Bit>,
    d_op: Signal<Local, Bits<REQ_OP_WIDTH>>,
    d_off: Signal<Local, Bits<4>>,
    d_line: Signal<Local, Bits<LINE_BITS>>,
    d_data: Signal<Local, Bits<128>>,
    d_id: Signal<Local, Bits<ID_WIDTH>>,
    d_mask: Signal<Local, Bits<8>>,
    d_size: Signal<Local, Bits<3>>,
    d_fp: Signal<Local, Bit>,
    d_sector: Signal<Local, Bit>,
    d_oor: Signal<Local, Bit>,
    d_wait: Signal<Local, Bits<QUEUE_WAIT_BITS>>,
    d_chain: Signal<Local, Bit>,
    d_align: Signal<Local, Bits<4>>,
    d_status: Signal<Local, Bits<STATUS_WIDTH>>,
    // The queue's push as decoded (straight into the queue, or into `ac_*` first).
    a_line: Signal<Local, Bits<LINE_BITS>>,
    a_ordered: Signal<Local, Bit>,
    a_payload: Signal<Local, Bits<QUEUE_PAYLOAD_BITS>>,
    /// Registered pipeline: the decoded request, registered before the queue's push.
    ac_valid: DFF<Bit>,
    ac_line: DFF<Bits<LINE_BITS>>,
    ac_ordered: DFF<Bit>,
    ac_wait: DFF<Bits<QUEUE_WAIT_BITS>>,
    ac_payload: DFF<Bits<QUEUE_PAYLOAD_BITS>>,
    /// The request's chain key for the queue (registered pipeline): an integer `red`/`atom`
    /// on a plain access may chain behind one with the same offset and size (bit 7; size in
    /// bits 6..4, offset in 3..0). See "The integer loop" in the unit's doc.
    a_key: Signal<Local, Bits<QUEUE_KEY_BITS>>,
    ac_key: DFF<Bits<QUEUE_KEY_BITS>>,
    /// The 32-bit words of its line the request touches (registered pipeline; the whole line
    /// in the shallow one): the queue orders requests per word, forwarding selects per word.
    a_words: Signal<Local, Bits<4>>,
    ac_words: DFF<Bits<4>>,
    /// `ac_*` takes `ad_*`'s request (it is empty or moves into the queue).
    ac_load: Signal<Local, Bit>,
    ac_ld: DFF<Bit>,
    /// `ac_ld` again (a replica), for the queue's `push_nx_keep` alone: it selects the held
    /// matches in the last LUT of each slot's and history place's match, apart from `ac_ld`'s
    /// 200-odd clock enables.
    ac_ld_q: ReplicaReg<Bit>,
    ac_v_nx: Signal<Local, Bit>,
    /// `ac_line`'s next value (the queue compares it with its slots a cycle ahead).
    ac_line_nx: Signal<Local, Bits<LINE_BITS>>,
    unused_decode: Signal<Local, Bit>,

    // Constants: encodings (from sim), tables, the memory's size and line bits, the windows.
    regs: Constant<Bit>,
    mem_bytes: Constant<Bits<32>>,
    line_mask: Constant<Bits<LINE_BITS>>,
    kind_lsb: Constant<Bits<4>>,
    ty_lsb: Constant<Bits<4>>,
    vec_lsb: Constant<Bits<4>>,
    kind_red: Constant<Bits<KIND_WIDTH>>,
    kind_atom: Constant<Bits<KIND_WIDTH>>,
    kind_ld: Constant<Bits<KIND_WIDTH>>,
    kind_st: Constant<Bits<KIND_WIDTH>>,
    status_ok: Constant<Bits<STATUS_WIDTH>>,
    status_mis: Constant<Bits<STATUS_WIDTH>>,
    status_oor: Constant<Bits<STATUS_WIDTH>>,
    elem_log2_tbl: Constant<Bits<32>>,
    fp_tbl: Constant<Bits<16>>,
    one8: Constant<Bits<8>>,
    zero8: Constant<Bits<8>>,
    two3: Constant<Bits<3>>,
    size1: Constant<Bits<3>>,
    size2: Constant<Bits<3>>,
    size3: Constant<Bits<3>>,
    size4: Constant<Bits<3>>,
    align1: Constant<Bits<4>>,
    align3: Constant<Bits<4>>,
    align7: Constant<Bits<4>>,
    align15: Constant<Bits<4>>,
    ones4: Constant<Bits<4>>,
    one4: Constant<Bits<4>>,
    two4: Constant<Bits<4>>,
    three4: Constant<Bits<4>>,
    key_chain: Constant<Bits<QUEUE_KEY_BITS>>,
    zero_key: Constant<Bits<QUEUE_KEY_BITS>>,
    p_off: Constant<Bits<8>>,
    p_size: Constant<Bits<8>>,
    p_fp: Constant<Bits<8>>,
    p_status: Constant<Bits<8>>,
    p_id: Constant<Bits<8>>,
    p_data: Constant<Bits<8>>,
    p_mask: Constant<Bits<8>>,
    win_fp: Constant<Bits<QUEUE_WAIT_BITS>>,
    win_int: Constant<Bits<QUEUE_WAIT_BITS>>,
    win_cas: Constant<Bits<QUEUE_WAIT_BITS>>,
    win_mem: Constant<Bits<QUEUE_WAIT_BITS>>,
    zero_wait: Constant<Bits<QUEUE_WAIT_BITS>>,
}

impl Accept {
    /// The decode for a memory of `mem_bytes` and the queue windows of `sh`; `regs`: the
    /// registered pipeline (`ad_*` after the form's decode, `ac_*` before the push).
    pub(super) fn new(mem_bytes: usize, regs: bool, sh: &Shape) -> Self {
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
            push_ready: Default::default(),
            push_ready_nx: Default::default(),
            push_valid: Default::default(),
            push_line: Default::default(),
            push_line_nx: Default::default(),
            push_nx_keep: Default::default(),
            push_ordered: Default::default(),
            push_wait: Default::default(),
            push_payload: Default::default(),
            push_key: Default::default(),
            push_words: Default::default(),
            a_kind: Default::default(),
            a_form: Default::default(),
            a_ty: Default::default(),
            a_ty2: Default::default(),
            a_elog: Default::default(),
            a_memop: Default::default(),
            a_size: Default::default(),
            a_fp: Default::default(),
            a_sector: Default::default(),
            a_mask: Default::default(),
            a_oor: Default::default(),
            a_wait: Default::default(),
            a_chain: Default::default(),
            ad_valid: Default::default(),
            ad_op: Default::default(),
            ad_off: Default::default(),
            ad_line: Default::default(),
            ad_data: Default::default(),
            ad_id: Default::default(),
            ad_mask: Default::default(),
            ad_size: Default::default(),
            ad_fp: Default::default(),
            ad_sector: Default::default(),
            ad_oor: Default::default(),
            ad_wait: Default::default(),
            ad_chain: Default::default(),
            ad_ld: Default::default(),
            ad_v_nx: Default::default(),
            d_valid: Default::default(),
            d_op: Default::default(),
            d_off: Default::default(),
            d_line: Default::default(),
            d_data: Default::default(),
            d_id: Default::default(),
            d_mask: Default::default(),
            d_size: Default::default(),
            d_fp: Default::default(),
            d_sector: Default::default(),
            d_oor: Default::default(),
            d_wait: Default::default(),
            d_chain: Default::default(),
            d_align: Default::default(),
            d_status: Default::default(),
            a_line: Default::default(),
            a_ordered: Default::default(),
            a_payload: Default::default(),
            ac_valid: Default::default(),
            ac_line: Default::default(),
            ac_ordered: Default::default(),
            ac_wait: Default::default(),
            ac_payload: Default::default(),
            a_key: Default::default(),
            ac_key: Default::default(),
            a_words: Default::default(),
            ac_words: Default::default(),
            ac_load: Default::default(),
            ac_ld: Default::default(),
            ac_ld_q: Default::default(),
            ac_v_nx: Default::default(),
            ac_line_nx: Default::default(),
            unused_decode: Default::default(),
            regs: Constant::new(regs),
            mem_bytes: k(mem_bytes as u128),
            line_mask: k(((mem_bytes / 16).next_power_of_two() - 1) as u128),
            kind_lsb: k(KIND_LSB as u128),
            ty_lsb: k(TYPE_LSB as u128),
            vec_lsb: k(VEC_LSB as u128),
            kind_red: k(KIND_RED as u128),
            kind_atom: k(KIND_ATOM as u128),
            kind_ld: k(KIND_LD as u128),
            kind_st: k(KIND_ST as u128),
            status_ok: k(STATUS_OK as u128),
            status_mis: k(STATUS_MISALIGNED as u128),
            status_oor: k(STATUS_OUT_OF_RANGE as u128),
            elem_log2_tbl: k(elem_log2_table()),
            fp_tbl: k(fp_type_table()),
            one8: k(1),
            zero8: k(0),
            two3: k(2),
            size1: k(1),
            size2: k(2),
            size3: k(3),
            size4: k(4),
            align1: k(1),
            align3: k(3),
            align7: k(7),
            align15: k(15),
            ones4: k(15),
            one4: k(1),
            two4: k(2),
            three4: k(3),
            key_chain: k(1 << (QUEUE_KEY_BITS - 1)),
            zero_key: k(0),
            p_off: k(P_OFF as u128),
            p_size: k(P_SIZE as u128),
            p_fp: k(P_FP as u128),
            p_status: k(P_STATUS as u128),
            p_id: k(P_ID as u128),
            p_data: k(P_DATA as u128),
            p_mask: k(P_MASK as u128),
            win_fp: k(sh.win_fp as u128),
            win_int: k(sh.win_int as u128),
            win_cas: k(sh.win_cas as u128),
            win_mem: k(sh.win_mem as u128),
            zero_wait: k(0),
        }
    }
}

impl Logic for Accept {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, ac_valid, ac_ld, ac_line, ac_ordered, ac_wait, ac_payload, ac_key, ac_words);
        dff_setup!(
            self, clock, ad_valid, ad_op, ad_off, ad_line, ad_data, ad_id, ad_mask, ad_size, ad_fp, ad_sector, ad_oor,
            ad_wait, ad_chain, ad_ld
        );
        self.ac_ld_q.clock.next = self.clock.val();

        // ------------------------------------------------------------------
        // The form's decode, from the port.
        // ------------------------------------------------------------------
        // The operation, its size (log2 of the access bytes: ld/st 2 + width code; forms
        // log2(element bytes) + log2(vec)) and whether the FP ALU computes it.
        self.a_kind.next = self.req_op.val().get_bits::<KIND_WIDTH>(self.kind_lsb.val().index());
        self.a_form.next = self.req_op.val().get_bits::<CODE_WIDTH>(0);
        self.a_ty.next = self.a_form.val().get_bits::<TYPE_WIDTH>(self.ty_lsb.val().index());
        self.a_memop.next = (self.a_kind.val() == self.kind_ld.val()) || (self.a_kind.val() == self.kind_st.val());
        self.a_ty2.next = bit_cast::<8, TYPE_WIDTH>(self.a_ty.val()) << self.one8.val();
        self.a_elog.next = self.elem_log2_tbl.val() >> self.a_ty2.val();
        if self.a_memop.val() {
            self.a_size.next = self.two3.val() + bit_cast::<3, 2>(self.a_form.val().get_bits::<2>(0));
            self.a_fp.next = false;
        } else {
            self.a_size.next = bit_cast::<3, 2>(self.a_elog.val().get_bits::<2>(0))
                + bit_cast::<3, VEC_WIDTH>(self.a_form.val().get_bits::<VEC_WIDTH>(self.vec_lsb.val().index()));
            self.a_fp.next = self.fp_tbl.val().get_bit(self.a_ty.val().index());
        }
        // A masked sector request (red/atom with a non-zero mask) spans its whole 16-byte line.
        self.a_sector.next = self.req_mask.val().any()
            && ((self.a_kind.val() == self.kind_red.val()) || (self.a_kind.val() == self.kind_atom.val()));
        self.a_mask.next = self.zero8.val();
        if self.a_sector.val() {
            self.a_size.next = self.size4.val();
            self.a_mask.next = self.req_mask.val();
        }
        // Out of range (an aligned access is in range when its first byte is).
        self.a_oor.next = self.req_addr.val() >= self.mem_bytes.val();
        // The queue holds requests to the line of an op while its result does not exist yet
        // (`Shape`'s windows: FP forms, integer/bitwise forms, `atom.cas`, ld/st).
        self.a_wait.next = self.zero_wait.val();
        if self.a_fp.val() {
            self.a_wait.next = self.win_fp.val();
        } else if (self.a_kind.val() == self.kind_red.val()) || (self.a_kind.val() == self.kind_atom.val()) {
            self.a_wait.next = self.win_int.val();
        } else if (self.a_kind.val() == self.kind_st.val()) && self.a_form.val().get_bit(2) {
            self.a_wait.next = self.win_cas.val();
        } else {
            self.a_wait.next = self.win_mem.val();
        }
        // A plain integer red/atom chains (registered pipeline).
        self.a_chain.next = self.regs.val()
            && !self.a_fp.val()
            && !self.a_sector.val()
            && ((self.a_kind.val() == self.kind_red.val()) || (self.a_kind.val() == self.kind_atom.val()));

        // ------------------------------------------------------------------
        // Registered pipeline: `ad_*` takes the request while empty or moving into `ac_*`.
        // ------------------------------------------------------------------
        self.ad_v_nx.next = self.ad_valid.q.val();
        if self.regs.val() && self.ad_ld.q.val() {
            self.ad_v_nx.next = self.req_valid.val();
            self.ad_op.d.next = self.req_op.val();
            self.ad_off.d.next = self.req_addr.val().get_bits::<4>(0);
            self.ad_line.d.next = self.req_addr.val().get_bits::<LINE_BITS>(4);
            self.ad_data.d.next = self.req_data.val();
            self.ad_id.d.next = self.req_id.val();
            self.ad_mask.d.next = self.a_mask.val();
            self.ad_size.d.next = self.a_size.val();
            self.ad_fp.d.next = self.a_fp.val();
            self.ad_sector.d.next = self.a_sector.val();
            self.ad_oor.d.next = self.a_oor.val();
            self.ad_wait.d.next = self.a_wait.val();
            self.ad_chain.d.next = self.a_chain.val();
        }
        if self.reset.val() {
            self.ad_v_nx.next = false;
        }
        self.ad_valid.d.next = self.ad_v_nx.val();
        self.d_valid.next = self.req_valid.val();
        self.d_op.next = self.req_op.val();
        self.d_off.next = self.req_addr.val().get_bits::<4>(0);
        self.d_line.next = self.req_addr.val().get_bits::<LINE_BITS>(4);
        self.d_data.next = self.req_data.val();
        self.d_id.next = self.req_id.val();
        self.d_mask.next = self.a_mask.val();
        self.d_size.next = self.a_size.val();
        self.d_fp.next = self.a_fp.val();
        self.d_sector.next = self.a_sector.val();
        self.d_oor.next = self.a_oor.val();
        self.d_wait.next = self.a_wait.val();
        self.d_chain.next = self.a_chain.val();
        if self.regs.val() {
            self.d_valid.next = self.ad_valid.q.val();
            self.d_op.next = self.ad_op.q.val();
            self.d_off.next = self.ad_off.q.val();
            self.d_line.next = self.ad_line.q.val();
            self.d_data.next = self.ad_data.q.val();
            self.d_id.next = self.ad_id.q.val();
            self.d_mask.next = self.ad_mask.q.val();
            self.d_size.next = self.ad_size.q.val();
            self.d_fp.next = self.ad_fp.q.val();
            self.d_sector.next = self.ad_sector.q.val();
            self.d_oor.next = self.ad_oor.q.val();
            self.d_wait.next = self.ad_wait.q.val();
            self.d_chain.next = self.ad_chain.q.val();
        }

        // ------------------------------------------------------------------
        // The access's decode: status, line, payload, words, chain key.
        // ------------------------------------------------------------------
        self.d_align.next = self.align15.val();
        if self.d_size.val() == self.size1.val() {
            self.d_align.next = self.align1.val();
        } else if self.d_size.val() == self.size2.val() {
            self.d_align.next = self.align3.val();
        } else if self.d_size.val() == self.size3.val() {
            self.d_align.next = self.align7.val();
        }
        // Misaligned first, then out of range.
        if (self.d_off.val() & self.d_align.val()).any() {
            self.d_status.next = self.status_mis.val();
        } else if self.d_oor.val() {
            self.d_status.next = self.status_oor.val();
        } else {
            self.d_status.next = self.status_ok.val();
        }
        // Only the line bits the memory has (an ordered request is in range): synthesis drops
        // the bits above from every line register and compare.
        self.a_line.next = self.d_line.val() & self.line_mask.val();
        self.a_ordered.next = self.d_status.val() == self.status_ok.val();
        self.a_payload.next = bit_cast::<QUEUE_PAYLOAD_BITS, REQ_OP_WIDTH>(self.d_op.val())
            | (bit_cast::<QUEUE_PAYLOAD_BITS, 4>(self.d_off.val()) << self.p_off.val())
            | (bit_cast::<QUEUE_PAYLOAD_BITS, 3>(self.d_size.val()) << self.p_size.val())
            | (bit_cast::<QUEUE_PAYLOAD_BITS, 1>(self.d_fp.val().into()) << self.p_fp.val())
            | (bit_cast::<QUEUE_PAYLOAD_BITS, STATUS_WIDTH>(self.d_status.val()) << self.p_status.val())
            | (bit_cast::<QUEUE_PAYLOAD_BITS, ID_WIDTH>(self.d_id.val()) << self.p_id.val())
            | (bit_cast::<QUEUE_PAYLOAD_BITS, 128>(self.d_data.val()) << self.p_data.val())
            | (bit_cast::<QUEUE_PAYLOAD_BITS, 8>(self.d_mask.val()) << self.p_mask.val());
        // The words the access touches: its aligned size from its first word (a masked sector
        // request, and every request of the shallow pipeline, the whole line).
        self.a_words.next = self.ones4.val();
        if self.regs.val() && !self.d_sector.val() {
            if self.d_size.val() == self.size3.val() {
                self.a_words.next = self.three4.val() << (self.d_off.val() >> self.two4.val());
            } else if self.d_size.val() < self.size3.val() {
                self.a_words.next = self.one4.val() << (self.d_off.val() >> self.two4.val());
            }
        }
        // The chain key: the bytes (offset, size) of a plain integer red/atom. (Not gated by
        // the status: the queue never makes an entry wait on an unordered one, and never
        // holds an unordered one, so an unordered entry's key is never read.)
        self.a_key.next = self.zero_key.val();
        if self.d_chain.val() {
            self.a_key.next = bit_cast::<QUEUE_KEY_BITS, 4>(self.d_off.val())
                | (bit_cast::<QUEUE_KEY_BITS, 3>(self.d_size.val()) << 4)
                | self.key_chain.val();
        }

        // ------------------------------------------------------------------
        // The push: the decoded request, or in the registered pipeline that of the cycle
        // before (`ac_*`, filled while empty or moving into the queue), so that the queue's
        // line compares start from registers. (`ac_ld`: `!ac_valid || push_ready` as a
        // register of its own, from both registers' next values, so the 200-odd clock enables
        // hang off a register, not a LUT; registered pipeline only: a read of `push_ready`
        // beside the writes of the queue's inputs makes Verilator see a loop through the queue.)
        // ------------------------------------------------------------------
        self.ac_load.next = self.regs.val() && self.ac_ld.q.val();
        self.ac_v_nx.next = self.ac_valid.q.val();
        self.ac_line_nx.next = self.ac_line.q.val();
        if self.ac_load.val() {
            self.ac_v_nx.next = self.d_valid.val();
            self.ac_line_nx.next = self.a_line.val();
            self.ac_ordered.d.next = self.a_ordered.val();
            self.ac_wait.d.next = self.d_wait.val();
            self.ac_payload.d.next = self.a_payload.val();
            self.ac_key.d.next = self.a_key.val();
            self.ac_words.d.next = self.a_words.val();
        }
        if self.reset.val() {
            self.ac_v_nx.next = false;
        }
        self.ac_valid.d.next = self.ac_v_nx.val();
        self.ac_line.d.next = self.ac_line_nx.val();
        // (Separate statements for `req_ready` and the push: Verilator orders this block's
        // statements in groups, and one that reads `push_ready` and writes `push_valid` would
        // be a loop through the queue.)
        self.req_ready.next = self.push_ready.val();
        if self.regs.val() {
            self.req_ready.next = self.ad_ld.q.val() && !self.reset.val();
        }
        self.push_valid.next = self.req_valid.val();
        self.push_line.next = self.a_line.val();
        self.push_line_nx.next = self.a_line.val();
        self.push_nx_keep.next = false;
        self.push_ordered.next = self.a_ordered.val();
        self.push_wait.next = self.d_wait.val();
        self.push_payload.next = self.a_payload.val();
        self.push_key.next = self.zero_key.val();
        self.push_words.next = self.a_words.val();
        if self.regs.val() {
            self.push_valid.next = self.ac_valid.q.val();
            self.push_line.next = self.ac_line.q.val();
            // (The next push line: `a_line` (above) when the register loads, else its own;
            // whether it loads from `ac_ld`'s replica.)
            self.push_nx_keep.next = !self.ac_ld_q.q.val();
            self.push_ordered.next = self.ac_ordered.q.val();
            self.push_wait.next = self.ac_wait.q.val();
            self.push_payload.next = self.ac_payload.q.val();
            self.push_key.next = self.ac_key.q.val();
            self.push_words.next = self.ac_words.q.val();
        }
        // (Their own statements, like `req_ready`: `ad_*` loads next cycle when it will be
        // empty or `ac_*` loads then.)
        self.ac_ld.d.next = !self.ac_v_nx.val() || self.push_ready_nx.val();
        self.ac_ld_q.d.next = !self.ac_v_nx.val() || self.push_ready_nx.val();
        self.ad_ld.d.next = !self.ad_v_nx.val() || !self.ac_v_nx.val() || self.push_ready_nx.val();
        // Unused decode bits (the space bit, op bits of ld/st) and table bits.
        self.unused_decode.next = self.a_form.val().any() ^ self.a_elog.val().any();
    }
}

/// Bit t: type code t goes to the FP ALU.
fn fp_type_table() -> u128 {
    let mut fp = 0u128;
    for t in sim::form::TYPES {
        if !is_int_type(t) {
            fp |= 1 << t as u128;
        }
    }
    fp
}
