//! [`ResponseOrder`]: the front end's reorder buffer. Every unit request takes the next of
//! [`ROB_DEPTH`] entries (its tag travels in the unit's `req_id`); its response, which the unit
//! may return before older ones (requests to other lines overtake), fills the entry by tag;
//! the oldest entry leaves when it is filled and its R beat and/or B response (what its
//! metadata asks for) are taken. So responses leave in request order: same-ID order holds
//! across IDs too (AXI allows that; it never reorders). The unit's response port is never
//! stalled: an entry exists for every request in flight.
//!
//! A write transaction's B response belongs to its last request; `BRESP` is `SLVERR` when
//! any of the transaction's requests failed (`werr` collects the failures of its earlier
//! write-channel requests, which leave in order before it).
//!
//! Storage: metadata and IDs (written at the request) and data (written at the response) in
//! [`LutRam`]s with their read address at the oldest entry; `done`/`err` are registers.
//! An entry's `done` bit is cleared when the entry is taken (`alloc`), not when it leaves, so
//! the retire decision (from `done` at the head) never feeds back into `done` in its cycle;
//! the head counts as done only while an entry is in use (`live`, a register: the count's
//! next value is not zero). `full` is bit 5 of the count (which never passes [`ROB_DEPTH`]),
//! so the arbiter reads it straight from a register.

use super::{RESP_OKAY, RESP_SLVERR, ROB_DEPTH, ROB_TAG_BITS};
use crate::k;
use crate::lut_ram::LutRam;
use rust_hdl::prelude::*;

const _: () =
    assert!(1 << ROB_TAG_BITS == ROB_DEPTH && ROB_TAG_BITS == crate::lut_ram::LUT_RAM_ADDR_BITS && ROB_TAG_BITS == 5);

#[derive(LogicBlock)]
pub struct ResponseOrder<const IDW: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // A request enters the unit with tag `tail`: its AXI ID and what it answers.
    pub alloc: Signal<In, Bit>,
    pub a_id: Signal<In, Bits<IDW>>,
    /// It sends an R beat; it is the burst's last; it sends a B response; it came from the
    /// write channel.
    pub a_r: Signal<In, Bit>,
    pub a_rlast: Signal<In, Bit>,
    pub a_b: Signal<In, Bit>,
    pub a_w: Signal<In, Bit>,
    pub tail: Signal<Out, Bits<ROB_TAG_BITS>>,
    /// Every entry in use: no request may enter.
    pub full: Signal<Out, Bit>,
    // The unit's response (data already on its byte lanes).
    pub rsp_valid: Signal<In, Bit>,
    pub rsp_tag: Signal<In, Bits<ROB_TAG_BITS>>,
    pub rsp_data: Signal<In, Bits<128>>,
    pub rsp_err: Signal<In, Bit>,
    // AXI R and B.
    pub rvalid: Signal<Out, Bit>,
    pub rready: Signal<In, Bit>,
    pub rid: Signal<Out, Bits<IDW>>,
    pub rdata: Signal<Out, Bits<128>>,
    pub rresp: Signal<Out, Bits<2>>,
    pub rlast: Signal<Out, Bit>,
    pub bvalid: Signal<Out, Bit>,
    pub bready: Signal<In, Bit>,
    pub bid: Signal<Out, Bits<IDW>>,
    pub bresp: Signal<Out, Bits<2>>,

    meta: LutRam<Bits<4>>,
    ids: LutRam<Bits<IDW>>,
    data: LutRam<Bits<128>>,
    head: DFF<Bits<ROB_TAG_BITS>>,
    tail_r: DFF<Bits<ROB_TAG_BITS>>,
    count: DFF<Bits<6>>,
    done: DFF<Bits<ROB_DEPTH>>,
    err: DFF<Bits<ROB_DEPTH>>,
    r_sent: DFF<Bit>,
    b_sent: DFF<Bit>,
    werr: DFF<Bit>,
    live: DFF<Bit>,
    hd: Signal<Local, Bit>,
    he: Signal<Local, Bit>,
    need_r: Signal<Local, Bit>,
    need_b: Signal<Local, Bit>,
    retire: Signal<Local, Bit>,
    abit: Signal<Local, Bits<ROB_DEPTH>>,
    tbit: Signal<Local, Bits<ROB_DEPTH>>,
    clr: Signal<Local, Bits<ROB_DEPTH>>,
    m: Signal<Local, Bits<4>>,
    zero4: Constant<Bits<4>>,
    m_r: Constant<Bits<4>>,
    m_b: Constant<Bits<4>>,
    m_rlast: Constant<Bits<4>>,
    m_w: Constant<Bits<4>>,
    one_tag: Constant<Bits<ROB_TAG_BITS>>,
    zero_tag: Constant<Bits<ROB_TAG_BITS>>,
    one6: Constant<Bits<6>>,
    zero6: Constant<Bits<6>>,
    one_d: Constant<Bits<ROB_DEPTH>>,
    zero_d: Constant<Bits<ROB_DEPTH>>,
    okay: Constant<Bits<2>>,
    slverr: Constant<Bits<2>>,
}

impl<const IDW: usize> Default for ResponseOrder<IDW> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            alloc: Default::default(),
            a_id: Default::default(),
            a_r: Default::default(),
            a_rlast: Default::default(),
            a_b: Default::default(),
            a_w: Default::default(),
            tail: Default::default(),
            full: Default::default(),
            rsp_valid: Default::default(),
            rsp_tag: Default::default(),
            rsp_data: Default::default(),
            rsp_err: Default::default(),
            rvalid: Default::default(),
            rready: Default::default(),
            rid: Default::default(),
            rdata: Default::default(),
            rresp: Default::default(),
            rlast: Default::default(),
            bvalid: Default::default(),
            bready: Default::default(),
            bid: Default::default(),
            bresp: Default::default(),
            meta: LutRam::new(ROB_DEPTH),
            ids: LutRam::new(ROB_DEPTH),
            data: LutRam::new(ROB_DEPTH),
            head: Default::default(),
            tail_r: Default::default(),
            count: Default::default(),
            done: Default::default(),
            err: Default::default(),
            r_sent: Default::default(),
            b_sent: Default::default(),
            werr: Default::default(),
            hd: Default::default(),
            live: Default::default(),
            he: Default::default(),
            need_r: Default::default(),
            need_b: Default::default(),
            retire: Default::default(),
            abit: Default::default(),
            tbit: Default::default(),
            clr: Default::default(),
            m: Default::default(),
            zero4: k(0),
            m_r: k(1),
            m_b: k(2),
            m_rlast: k(4),
            m_w: k(8),
            one_tag: k(1),
            zero_tag: k(0),
            one6: k(1),
            zero6: k(0),
            one_d: k(1),
            zero_d: k(0),
            okay: k(RESP_OKAY as u128),
            slverr: k(RESP_SLVERR as u128),
        }
    }
}

impl<const IDW: usize> Logic for ResponseOrder<IDW> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, head, tail_r, count, done, err, r_sent, b_sent, werr, live);
        clock!(self, clock, meta, ids, data);
        self.meta.write_enable.next = self.alloc.val();
        self.meta.write_addr.next = self.tail_r.q.val();
        self.m.next = self.zero4.val();
        if self.a_r.val() {
            self.m.next = self.m.val() | self.m_r.val();
        }
        if self.a_b.val() {
            self.m.next = self.m.val() | self.m_b.val();
        }
        if self.a_rlast.val() {
            self.m.next = self.m.val() | self.m_rlast.val();
        }
        if self.a_w.val() {
            self.m.next = self.m.val() | self.m_w.val();
        }
        self.meta.write_data.next = self.m.val();
        self.ids.write_enable.next = self.alloc.val();
        self.ids.write_addr.next = self.tail_r.q.val();
        self.ids.write_data.next = self.a_id.val();
        self.data.write_enable.next = self.rsp_valid.val();
        self.data.write_addr.next = self.rsp_tag.val();
        self.data.write_data.next = self.rsp_data.val();
        self.meta.read_addr.next = self.head.q.val();
        self.ids.read_addr.next = self.head.q.val();
        self.data.read_addr.next = self.head.q.val();
        self.tail.next = self.tail_r.q.val();
        self.full.next = self.count.q.val().get_bit(5);

        self.hd.next = self.done.q.val().get_bit(self.head.q.val().index()) && self.live.q.val();
        self.he.next = self.err.q.val().get_bit(self.head.q.val().index());
        self.need_r.next = self.meta.read_data.val().get_bit(0) && !self.r_sent.q.val();
        self.need_b.next = self.meta.read_data.val().get_bit(1) && !self.b_sent.q.val();
        self.rvalid.next = self.hd.val() && self.need_r.val();
        self.bvalid.next = self.hd.val() && self.need_b.val();
        self.rid.next = self.ids.read_data.val();
        self.bid.next = self.ids.read_data.val();
        self.rdata.next = self.data.read_data.val();
        self.rlast.next = self.meta.read_data.val().get_bit(2);
        self.rresp.next = self.okay.val();
        if self.he.val() {
            self.rresp.next = self.slverr.val();
        }
        self.bresp.next = self.okay.val();
        if self.he.val() || self.werr.q.val() {
            self.bresp.next = self.slverr.val();
        }

        self.retire.next =
            self.hd.val() && (!self.need_r.val() || self.rready.val()) && (!self.need_b.val() || self.bready.val());
        self.abit.next = self.one_d.val() << self.tail_r.q.val();
        self.tbit.next = self.one_d.val() << self.rsp_tag.val();
        if self.retire.val() {
            self.head.d.next = self.head.q.val() + self.one_tag.val();
            self.r_sent.d.next = false;
            self.b_sent.d.next = false;
            if self.meta.read_data.val().get_bit(3) {
                if self.meta.read_data.val().get_bit(1) {
                    self.werr.d.next = false;
                } else {
                    self.werr.d.next = self.werr.q.val() || self.he.val();
                }
            }
        } else {
            if self.rvalid.val() && self.rready.val() {
                self.r_sent.d.next = true;
            }
            if self.bvalid.val() && self.bready.val() {
                self.b_sent.d.next = true;
            }
        }
        // An entry's `done` clears when it is taken again.
        self.clr.next = self.zero_d.val();
        if self.alloc.val() {
            self.clr.next = self.abit.val();
        }
        self.done.d.next = self.done.q.val() & !self.clr.val();
        if self.rsp_valid.val() {
            self.done.d.next = (self.done.q.val() & !self.clr.val()) | self.tbit.val();
            self.err.d.next = self.err.q.val() & !self.tbit.val();
            if self.rsp_err.val() {
                self.err.d.next = self.err.q.val() | self.tbit.val();
            }
        }
        if self.alloc.val() {
            self.tail_r.d.next = self.tail_r.q.val() + self.one_tag.val();
        }
        if self.alloc.val() && !self.retire.val() {
            self.count.d.next = self.count.q.val() + self.one6.val();
        }
        if !self.alloc.val() && self.retire.val() {
            self.count.d.next = self.count.q.val() - self.one6.val();
        }
        // The count's next value is not zero.
        self.live.d.next = self.alloc.val()
            || self.count.q.val().get_bits::<5>(1).any()
            || (self.count.q.val().get_bit(0) && !self.retire.val());
        if self.reset.val() {
            self.head.d.next = self.zero_tag.val();
            self.tail_r.d.next = self.zero_tag.val();
            self.count.d.next = self.zero6.val();
            self.done.d.next = self.zero_d.val();
            self.r_sent.d.next = false;
            self.b_sent.d.next = false;
            self.werr.d.next = false;
            self.live.d.next = false;
        }
    }
}
