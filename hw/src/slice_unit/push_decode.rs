//! The accept's second step: the checks and queue fields that need the address with the
//! operation's size (alignment and range status, the line) and the queue entry's payload.
//!
//! A block of its own: it reads the first step's register (`ad_*`) and feeds the push
//! register (`ac_*`).

use super::{ID_WIDTH, P_DATA, P_FP, P_ID, P_MASK, P_OFF, P_SIZE, P_STATUS};
use crate::k;
use crate::line_memory::LINE_BITS;
use crate::ordering_queue::QUEUE_PAYLOAD_BITS;
use rust_hdl::prelude::*;
use sim::memory::req_encoding::{REQ_OP_WIDTH, STATUS_MISALIGNED, STATUS_OK, STATUS_OUT_OF_RANGE, STATUS_WIDTH};

#[derive(LogicBlock)]
pub(super) struct PushDecode {
    /// The request: operation, the address's offset in its line and line bits, data, ID.
    pub op: Signal<In, Bits<REQ_OP_WIDTH>>,
    pub off: Signal<In, Bits<4>>,
    pub line_in: Signal<In, Bits<LINE_BITS>>,
    pub data: Signal<In, Bits<128>>,
    pub id: Signal<In, Bits<ID_WIDTH>>,
    /// The first step's decode (see [`super::form_decode::FormDecode`]).
    pub sector_mask: Signal<In, Bits<8>>,
    pub size: Signal<In, Bits<3>>,
    pub fp: Signal<In, Bit>,
    pub oor: Signal<In, Bit>,
    /// The queue's push fields: the line (only the bits the memory has: an ordered request is
    /// in range, and synthesis drops the bits above from every line register and compare),
    /// ordered (status OK), the payload.
    pub line: Signal<Out, Bits<LINE_BITS>>,
    pub ordered: Signal<Out, Bit>,
    pub payload: Signal<Out, Bits<QUEUE_PAYLOAD_BITS>>,
    align: Signal<Local, Bits<4>>,
    status: Signal<Local, Bits<STATUS_WIDTH>>,
    line_mask: Constant<Bits<LINE_BITS>>,
    status_ok: Constant<Bits<STATUS_WIDTH>>,
    status_mis: Constant<Bits<STATUS_WIDTH>>,
    status_oor: Constant<Bits<STATUS_WIDTH>>,
    size1: Constant<Bits<3>>,
    size2: Constant<Bits<3>>,
    size3: Constant<Bits<3>>,
    align1: Constant<Bits<4>>,
    align3: Constant<Bits<4>>,
    align7: Constant<Bits<4>>,
    align15: Constant<Bits<4>>,
    p_off: Constant<Bits<8>>,
    p_size: Constant<Bits<8>>,
    p_fp: Constant<Bits<8>>,
    p_status: Constant<Bits<8>>,
    p_id: Constant<Bits<8>>,
    p_data: Constant<Bits<8>>,
    p_mask: Constant<Bits<8>>,
}

impl PushDecode {
    /// For a memory of `mem_bytes`.
    pub(super) fn new(mem_bytes: usize) -> Self {
        Self {
            op: Default::default(),
            off: Default::default(),
            line_in: Default::default(),
            data: Default::default(),
            id: Default::default(),
            sector_mask: Default::default(),
            size: Default::default(),
            fp: Default::default(),
            oor: Default::default(),
            line: Default::default(),
            ordered: Default::default(),
            payload: Default::default(),
            align: Default::default(),
            status: Default::default(),
            line_mask: k(((mem_bytes / 16).next_power_of_two() - 1) as u128),
            status_ok: k(STATUS_OK as u128),
            status_mis: k(STATUS_MISALIGNED as u128),
            status_oor: k(STATUS_OUT_OF_RANGE as u128),
            size1: k(1),
            size2: k(2),
            size3: k(3),
            align1: k(1),
            align3: k(3),
            align7: k(7),
            align15: k(15),
            p_off: k(P_OFF as u128),
            p_size: k(P_SIZE as u128),
            p_fp: k(P_FP as u128),
            p_status: k(P_STATUS as u128),
            p_id: k(P_ID as u128),
            p_data: k(P_DATA as u128),
            p_mask: k(P_MASK as u128),
        }
    }
}

impl Logic for PushDecode {
    #[hdl_gen]
    fn update(&mut self) {
        // Misaligned first, then out of range.
        self.align.next = self.align15.val();
        if self.size.val() == self.size1.val() {
            self.align.next = self.align1.val();
        } else if self.size.val() == self.size2.val() {
            self.align.next = self.align3.val();
        } else if self.size.val() == self.size3.val() {
            self.align.next = self.align7.val();
        }
        if (self.off.val() & self.align.val()).any() {
            self.status.next = self.status_mis.val();
        } else if self.oor.val() {
            self.status.next = self.status_oor.val();
        } else {
            self.status.next = self.status_ok.val();
        }
        self.line.next = self.line_in.val() & self.line_mask.val();
        self.ordered.next = self.status.val() == self.status_ok.val();
        self.payload.next = bit_cast::<QUEUE_PAYLOAD_BITS, REQ_OP_WIDTH>(self.op.val())
            | (bit_cast::<QUEUE_PAYLOAD_BITS, 4>(self.off.val()) << self.p_off.val())
            | (bit_cast::<QUEUE_PAYLOAD_BITS, 3>(self.size.val()) << self.p_size.val())
            | (bit_cast::<QUEUE_PAYLOAD_BITS, 1>(self.fp.val().into()) << self.p_fp.val())
            | (bit_cast::<QUEUE_PAYLOAD_BITS, STATUS_WIDTH>(self.status.val()) << self.p_status.val())
            | (bit_cast::<QUEUE_PAYLOAD_BITS, ID_WIDTH>(self.id.val()) << self.p_id.val())
            | (bit_cast::<QUEUE_PAYLOAD_BITS, 128>(self.data.val()) << self.p_data.val())
            | (bit_cast::<QUEUE_PAYLOAD_BITS, 8>(self.sector_mask.val()) << self.p_mask.val());
    }
}
