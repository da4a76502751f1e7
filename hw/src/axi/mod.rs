//! [`AxiUnit`]: the L2-slice unit behind an AXI4 subordinate port with AXI5 atomics (ATOPs).
//! The interface, the ATOP and `AWUSER` mapping and the refusals are in `docs/axi.md`.
//!
//! ```text
//!  AW ─┬─► AxiWrite (AtopDecode, WritePick ─► q_*) ─┐
//!  W  ─┘                                (reg)       ├─► arbiter ─► rq_* ─► SliceUnit ─► ResponseOrder ─┬─► R
//!  AR ───► AxiRead (state regs: the request) ───────┘   (tag)      (reg)   (any order)  (request order) └─► B
//! ```
//!
//! | file | block |
//! | --- | --- |
//! | `decode.rs` | [`decode::AtopDecode`]: `AWATOP`/`AWSIZE`/`AWUSER` → the unit's operation, or refused |
//! | `write_pick.rs` | [`write_pick::WritePick`]: a W beat's next unit request (stores by strobe group, the atomic, poison) |
//! | `write.rs` | [`write::AxiWrite`]: AW and W, one transaction at a time |
//! | `read.rs` | [`read::AxiRead`]: AR, one `ld.b128` per beat |
//! | `rob.rs` | [`rob::ResponseOrder`]: tags, responses back in request order, R and B |
//!
//! The arbiter alternates between the read and the write channel when both have a request,
//! and sends nothing while every [`ROB_DEPTH`] reorder entry is in use. It reads registers
//! only: the write engine's one-entry request register (loaded when empty or taken, so one
//! request per cycle) and the read engine's state, from which its `ld.b128` follows directly.
//! So its grant (`go`) reaches an engine's next state, but no engine's request logic reaches
//! the grant in the same cycle. Its pick goes into a request register (`rq_*`, one cycle),
//! so that the unit's accept decode starts from registers too, or, in a cycle in which the
//! unit does not take `rq_*`, into a skid register (`sk_*`); the arbiter sends while the skid
//! register is empty, so the unit's `req_ready` reaches neither the arbiter nor the engines.
//! The unit's `req_id` carries the entry's tag (bits 4..0) and the shift that puts an
//! atomic's old value on its byte lanes (bits 7..5, in 2-byte steps); the response is shifted
//! before it is stored.
//!
//! AtomicCompare is the unit's `atom.cas`. AtomicSwap is a load and then a store from the
//! write engine: atomic, because every request that changes memory comes from that one engine
//! and the unit keeps their order.
//!
//! # Ordering
//! All requests enter the unit in one stream, in the order the arbiter picks them; the unit
//! keeps arrival order per 32-bit word, so an atomic and any
//! read or write to overlapping bytes execute in the order they entered, and requests to
//! other lines still overtake inside the unit. Responses leave in the order the requests
//! entered, whatever their ID (stronger than AXI's same-ID order): a request that waits in
//! the unit holds back the responses of younger requests, not their execution.

pub mod decode;
pub mod read;
pub mod rob;
pub mod write;
pub mod write_pick;

use crate::config::Config;
use crate::k;
use crate::slice_unit::{COV_WIDTH, ID_WIDTH, SliceUnit};
use rust_hdl::prelude::*;
use sim::memory::req_encoding::REQ_OP_WIDTH;

/// Width of `AWUSER`: bit [`AWUSER_FORM_EN`] set selects the form code in bits 9..0.
pub const AWUSER_BITS: usize = 11;
pub const AWUSER_FORM_EN: usize = 10;
/// Entries of the reorder buffer: requests in flight in the unit at most.
pub const ROB_DEPTH: usize = 32;
pub const ROB_TAG_BITS: usize = 5;
/// The AXI ID width of the default top (`redunit verilog --top axi`).
pub const AXI_ID_BITS: usize = 4;
/// `xRESP` codes.
pub const RESP_OKAY: u8 = 0;
pub const RESP_SLVERR: u8 = 2;
/// `AxBURST` codes.
pub const BURST_FIXED: u8 = 0;
pub const BURST_INCR: u8 = 1;
pub const BURST_WRAP: u8 = 2;
/// `AWATOP[5:4]`: the atomic's kind.
pub const ATOP_NONE: u8 = 0b00;
pub const ATOP_STORE: u8 = 0b01;
pub const ATOP_LOAD: u8 = 0b10;
pub const ATOP_SWAP: u8 = 0b11_0000;
pub const ATOP_COMPARE: u8 = 0b11_0001;
/// `AWATOP[3]`: big-endian operation.
pub const ATOP_BIG_ENDIAN: u8 = 0b1000;
const _: () = assert!(ROB_TAG_BITS == 5 && ROB_TAG_BITS + 3 <= ID_WIDTH, "the response path names bits 7..5 of rsp_id");

#[derive(LogicBlock)]
pub struct AxiUnit<const IDW: usize> {
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high (the unit's; transactions in flight are dropped).
    pub reset: Signal<In, Bit>,
    pub awvalid: Signal<In, Bit>,
    pub awready: Signal<Out, Bit>,
    pub awid: Signal<In, Bits<IDW>>,
    pub awaddr: Signal<In, Bits<32>>,
    pub awlen: Signal<In, Bits<8>>,
    pub awsize: Signal<In, Bits<3>>,
    pub awburst: Signal<In, Bits<2>>,
    pub awatop: Signal<In, Bits<6>>,
    pub awuser: Signal<In, Bits<AWUSER_BITS>>,
    pub wvalid: Signal<In, Bit>,
    pub wready: Signal<Out, Bit>,
    pub wdata: Signal<In, Bits<128>>,
    pub wstrb: Signal<In, Bits<16>>,
    /// Not used: the beat count comes from `AWLEN`.
    pub wlast: Signal<In, Bit>,
    pub bvalid: Signal<Out, Bit>,
    pub bready: Signal<In, Bit>,
    pub bid: Signal<Out, Bits<IDW>>,
    pub bresp: Signal<Out, Bits<2>>,
    pub arvalid: Signal<In, Bit>,
    pub arready: Signal<Out, Bit>,
    pub arid: Signal<In, Bits<IDW>>,
    pub araddr: Signal<In, Bits<32>>,
    pub arlen: Signal<In, Bits<8>>,
    pub arsize: Signal<In, Bits<3>>,
    pub arburst: Signal<In, Bits<2>>,
    pub rvalid: Signal<Out, Bit>,
    pub rready: Signal<In, Bit>,
    pub rid: Signal<Out, Bits<IDW>>,
    pub rdata: Signal<Out, Bits<128>>,
    pub rresp: Signal<Out, Bits<2>>,
    pub rlast: Signal<Out, Bit>,
    /// A request entered the unit this cycle (for counting operations).
    pub fire: Signal<Out, Bit>,
    /// The unit's coverage bus.
    pub cov: Signal<Out, Bits<COV_WIDTH>>,

    pub wr: write::AxiWrite<IDW>,
    pub rd: read::AxiRead<IDW>,
    pub rob: rob::ResponseOrder<IDW>,
    pub unit: SliceUnit,
    prefer_w: DFF<Bit>,
    /// The request register in front of the unit (`rq_*`): the arbiter ends here, and the
    /// unit's accept decode starts from registers.
    rq_valid: DFF<Bit>,
    rq_op: DFF<Bits<REQ_OP_WIDTH>>,
    rq_addr: DFF<Bits<32>>,
    rq_data: DFF<Bits<128>>,
    rq_id: DFF<Bits<ID_WIDTH>>,
    /// The skid register (`sk_*`): the pick of a cycle in which the unit does not take
    /// `rq_*`. The arbiter sends while it is empty, so the unit's `req_ready` reaches these
    /// two registers only, not the engines' next state.
    sk_valid: DFF<Bit>,
    sk_op: DFF<Bits<REQ_OP_WIDTH>>,
    sk_addr: DFF<Bits<32>>,
    sk_data: DFF<Bits<128>>,
    sk_id: DFF<Bits<ID_WIDTH>>,
    /// The arbiter's pick.
    p_op: Signal<Local, Bits<REQ_OP_WIDTH>>,
    p_addr: Signal<Local, Bits<32>>,
    p_data: Signal<Local, Bits<128>>,
    p_id: Signal<Local, Bits<ID_WIDTH>>,
    /// The unit takes `rq_*` this cycle.
    u_fire: Signal<Local, Bit>,
    take: Signal<Local, Bit>,
    sel_w: Signal<Local, Bit>,
    go_any: Signal<Local, Bit>,
    rsh: Signal<Local, Bits<8>>,
    unused: Signal<Local, Bit>,
    c4: Constant<Bits<4>>,
    c5: Constant<Bits<4>>,
    zero_mask: Constant<Bits<8>>,
    zero_status: Constant<Bits<2>>,
}

impl<const IDW: usize> AxiUnit<IDW> {
    /// The front end and a unit of `mem_bytes` in the unit's default configuration.
    pub fn new(mem_bytes: usize) -> Self {
        Self::with_config(mem_bytes, &Config::unit_default())
    }

    pub fn with_config(mem_bytes: usize, cfg: &Config) -> Self {
        assert!(IDW >= 1 && IDW <= 32, "AXI ID width {IDW}: 1 to 32");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            awvalid: Default::default(),
            awready: Default::default(),
            awid: Default::default(),
            awaddr: Default::default(),
            awlen: Default::default(),
            awsize: Default::default(),
            awburst: Default::default(),
            awatop: Default::default(),
            awuser: Default::default(),
            wvalid: Default::default(),
            wready: Default::default(),
            wdata: Default::default(),
            wstrb: Default::default(),
            wlast: Default::default(),
            bvalid: Default::default(),
            bready: Default::default(),
            bid: Default::default(),
            bresp: Default::default(),
            arvalid: Default::default(),
            arready: Default::default(),
            arid: Default::default(),
            araddr: Default::default(),
            arlen: Default::default(),
            arsize: Default::default(),
            arburst: Default::default(),
            rvalid: Default::default(),
            rready: Default::default(),
            rid: Default::default(),
            rdata: Default::default(),
            rresp: Default::default(),
            rlast: Default::default(),
            fire: Default::default(),
            cov: Default::default(),
            wr: Default::default(),
            rd: Default::default(),
            rob: Default::default(),
            unit: SliceUnit::with_config(mem_bytes, cfg),
            prefer_w: Default::default(),
            rq_valid: Default::default(),
            rq_op: Default::default(),
            rq_addr: Default::default(),
            rq_data: Default::default(),
            rq_id: Default::default(),
            sk_valid: Default::default(),
            sk_op: Default::default(),
            sk_addr: Default::default(),
            sk_data: Default::default(),
            sk_id: Default::default(),
            p_op: Default::default(),
            p_addr: Default::default(),
            p_data: Default::default(),
            p_id: Default::default(),
            u_fire: Default::default(),
            take: Default::default(),
            sel_w: Default::default(),
            go_any: Default::default(),
            rsh: Default::default(),
            unused: Default::default(),
            c4: k(4),
            c5: k(ROB_TAG_BITS as u128),
            zero_mask: k(0),
            zero_status: k(0),
        }
    }
}

impl<const IDW: usize> Logic for AxiUnit<IDW> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, prefer_w, rq_valid, rq_op, rq_addr, rq_data, rq_id);
        dff_setup!(self, clock, sk_valid, sk_op, sk_addr, sk_data, sk_id);
        clock!(self, clock, wr, rd, rob, unit);
        self.wr.reset.next = self.reset.val();
        self.rd.reset.next = self.reset.val();
        self.rob.reset.next = self.reset.val();
        self.unit.reset.next = self.reset.val();

        self.wr.awvalid.next = self.awvalid.val();
        self.wr.awid.next = self.awid.val();
        self.wr.awaddr.next = self.awaddr.val();
        self.wr.awlen.next = self.awlen.val();
        self.wr.awsize.next = self.awsize.val();
        self.wr.awburst.next = self.awburst.val();
        self.wr.awatop.next = self.awatop.val();
        self.wr.awuser.next = self.awuser.val();
        self.wr.wvalid.next = self.wvalid.val();
        self.wr.wdata.next = self.wdata.val();
        self.wr.wstrb.next = self.wstrb.val();
        self.awready.next = self.wr.awready.val();
        self.wready.next = self.wr.wready.val();
        self.rd.arvalid.next = self.arvalid.val();
        self.rd.arid.next = self.arid.val();
        self.rd.araddr.next = self.araddr.val();
        self.rd.arlen.next = self.arlen.val();
        self.rd.arsize.next = self.arsize.val();
        self.rd.arburst.next = self.arburst.val();
        self.arready.next = self.rd.arready.val();

        // The unit takes the request register.
        self.unit.req_valid.next = self.rq_valid.q.val();
        self.unit.req_op.next = self.rq_op.q.val();
        self.unit.req_addr.next = self.rq_addr.q.val();
        self.unit.req_data.next = self.rq_data.q.val();
        self.unit.req_id.next = self.rq_id.q.val();
        self.unit.req_mask.next = self.zero_mask.val();

        // The arbiter (from the engines' registers): the request of the channel it picks, into
        // the request register (or the skid register).
        self.sel_w.next = self.wr.q_valid.val() && (!self.rd.q_valid.val() || self.prefer_w.q.val());
        self.rob.a_id.next = self.rd.q_id.val();
        self.rob.a_r.next = true;
        self.rob.a_rlast.next = self.rd.q_rlast.val();
        self.rob.a_b.next = false;
        self.rob.a_w.next = false;
        self.p_op.next = self.rd.q_op.val();
        self.p_addr.next = self.rd.q_addr.val();
        self.p_data.next = self.wr.q_data.val();
        self.p_id.next = bit_cast::<ID_WIDTH, ROB_TAG_BITS>(self.rob.tail.val());
        if self.sel_w.val() {
            self.p_op.next = self.wr.q_op.val();
            self.p_addr.next = self.wr.q_addr.val();
            self.p_id.next = bit_cast::<ID_WIDTH, ROB_TAG_BITS>(self.rob.tail.val())
                | (bit_cast::<ID_WIDTH, 3>(self.wr.q_shift.val()) << self.c5.val());
            self.rob.a_id.next = self.wr.q_id.val();
            self.rob.a_r.next = self.wr.q_r.val();
            self.rob.a_rlast.next = true;
            self.rob.a_b.next = self.wr.q_b.val();
            self.rob.a_w.next = true;
        }

        // The handshake: the arbiter sends while the skid register is empty. The request
        // register holds while the unit does not take it; else it takes the skid register's
        // request, or the pick (which goes into the skid register when the unit stalls).
        self.take.next = !self.sk_valid.q.val();
        self.go_any.next = self.take.val() && !self.rob.full.val() && (self.wr.q_valid.val() || self.rd.q_valid.val());
        self.u_fire.next = self.rq_valid.q.val() && self.unit.req_ready.val();
        self.rq_valid.d.next = self.rq_valid.q.val();
        self.rq_op.d.next = self.rq_op.q.val();
        self.rq_addr.d.next = self.rq_addr.q.val();
        self.rq_data.d.next = self.rq_data.q.val();
        self.rq_id.d.next = self.rq_id.q.val();
        self.sk_valid.d.next = self.sk_valid.q.val();
        self.sk_op.d.next = self.sk_op.q.val();
        self.sk_addr.d.next = self.sk_addr.q.val();
        self.sk_data.d.next = self.sk_data.q.val();
        self.sk_id.d.next = self.sk_id.q.val();
        if !self.rq_valid.q.val() || self.u_fire.val() {
            if self.sk_valid.q.val() {
                self.rq_valid.d.next = true;
                self.rq_op.d.next = self.sk_op.q.val();
                self.rq_addr.d.next = self.sk_addr.q.val();
                self.rq_data.d.next = self.sk_data.q.val();
                self.rq_id.d.next = self.sk_id.q.val();
                self.sk_valid.d.next = false;
            } else {
                self.rq_valid.d.next = self.go_any.val();
                self.rq_op.d.next = self.p_op.val();
                self.rq_addr.d.next = self.p_addr.val();
                self.rq_data.d.next = self.p_data.val();
                self.rq_id.d.next = self.p_id.val();
            }
        } else if self.go_any.val() {
            self.sk_valid.d.next = true;
            self.sk_op.d.next = self.p_op.val();
            self.sk_addr.d.next = self.p_addr.val();
            self.sk_data.d.next = self.p_data.val();
            self.sk_id.d.next = self.p_id.val();
        }
        if self.reset.val() {
            self.rq_valid.d.next = false;
            self.sk_valid.d.next = false;
        }
        self.wr.go.next =
            self.go_any.val() && self.wr.q_valid.val() && (!self.rd.q_valid.val() || self.prefer_w.q.val());
        self.rd.go.next =
            self.go_any.val() && self.rd.q_valid.val() && !(self.wr.q_valid.val() && self.prefer_w.q.val());
        self.rob.alloc.next = self.go_any.val();
        self.fire.next = self.go_any.val();
        if self.reset.val() {
            self.prefer_w.d.next = false;
        } else if self.go_any.val() {
            self.prefer_w.d.next = !(self.wr.q_valid.val() && (!self.rd.q_valid.val() || self.prefer_w.q.val()));
        }

        // Responses.
        self.unit.rsp_ready.next = true;
        self.rsh.next = bit_cast::<8, 3>(self.unit.rsp_id.val().get_bits::<3>(5)) << self.c4.val();
        self.rob.rsp_valid.next = self.unit.rsp_valid.val();
        self.rob.rsp_tag.next = self.unit.rsp_id.val().get_bits::<ROB_TAG_BITS>(0);
        self.rob.rsp_data.next = self.unit.rsp_data.val() << self.rsh.val();
        self.rob.rsp_err.next = self.unit.rsp_status.val() != self.zero_status.val();
        self.rob.rready.next = self.rready.val();
        self.rob.bready.next = self.bready.val();
        self.rvalid.next = self.rob.rvalid.val();
        self.rid.next = self.rob.rid.val();
        self.rdata.next = self.rob.rdata.val();
        self.rresp.next = self.rob.rresp.val();
        self.rlast.next = self.rob.rlast.val();
        self.bvalid.next = self.rob.bvalid.val();
        self.bid.next = self.rob.bid.val();
        self.bresp.next = self.rob.bresp.val();
        self.cov.next = self.unit.cov.val();
        self.unused.next = self.wlast.val() ^ self.unit.rsp_id.val().get_bits::<8>(8).any();
    }
}

/// The Verilog of [`AxiUnit`] with `mem_bytes` of memory, [`AXI_ID_BITS`]-bit IDs, the unit
/// in `cfg`, as a `top` module.
pub fn axi_verilog_with(mem_bytes: usize, cfg: &Config) -> String {
    crate::verilog::verilog(&mut AxiUnit::<AXI_ID_BITS>::with_config(mem_bytes, cfg))
}

/// [`axi_verilog_with`] in the unit's default configuration.
pub fn axi_verilog(mem_bytes: usize) -> String {
    axi_verilog_with(mem_bytes, &Config::unit_default())
}
