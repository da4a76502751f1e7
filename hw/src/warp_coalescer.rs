//! Warp-level coalescing of SASS `RED`: one warp instruction in, masked sector requests out
//! to the L2-slice unit ([`WarpCoalescer`]), and the unit with the coalescer in front of it
//! ([`WarpUnit`], `redunit verilog --top warp`).
//!
//! The algorithm is [`sim::warp::coalesce`], round for round: the hardware emits exactly the
//! golden model's request list, in its order (`tests/warp_coalescer.rs` checks both).
//!
//! # [`WarpCoalescer`]
//! `in_valid`/`in_ready`: one instruction, a `red` form code (`in_form`), the active mask
//! (`in_mask`, bit i = lane i), 32 byte addresses (`in_addr`, lane i = bits 32i+31..32i) and
//! 32 operands of 128 bits (`in_data`, lane i = bits 128i+127..128i, the lane's operand in the
//! low [`sim::Form::bytes`] bytes: 128 bits so that 16-byte vector lanes fit). The instruction
//! is registered; then every cycle, while a lane is pending, `out_valid` is high with one unit
//! request, combinational from the registers:
//! 1. leader = the lowest pending lane (`pending & -pending`);
//! 2. a misaligned leader goes alone, as a plain request (`out_mask` 0): the unit answers
//!    `misaligned`;
//! 3. otherwise the *candidates* are the pending, aligned lanes of the leader's 16-byte
//!    sector; for each of the sector's slots (16 / access bytes) the lowest candidate in that
//!    slot is selected (per slot `v & -v`): lanes at one address go one per round, in lane
//!    order;
//! 4. `out_addr` = the sector, `out_mask` = the selected lanes' element bits (all elements
//!    of a vector lane), `out_data` = their operands shifted to their byte offsets,
//!    `out_lanes` = the selected lanes;
//! 5. a leader selected alone goes as a plain request (`out_mask` 0, its address, its
//!    operand's low bytes), as a thread's own `red`: the unit's integer loop chains plain
//!    requests to one address, not masked ones.
//!
//! At the `out_valid && out_ready` handshake the selected lanes leave `pending`. `in_ready`
//! is high when nothing is pending, or in the cycle whose handshake sends the last request,
//! so instructions follow each other without a gap: an instruction of N requests takes N
//! cycles when the unit accepts one per cycle. An empty active mask is accepted and sends
//! nothing. `reset` empties `pending`.
//!
//! # [`WarpUnit`]
//! [`WarpCoalescer`] → [`SliceUnit`] (its `req_mask` port; the unit's default configuration,
//! [`Config::unit_default`]), plus a plain request port for
//! `ld`/`st`/single requests between instructions. The coalescer has priority: the plain port
//! is ready only when no warp request is pending (so trace order is kept: a plain request
//! enters the unit after every request of the instructions before it). The top numbers the
//! unit requests itself (`req_id` = a 16-bit count of requests entered, never more than
//! 2^16 in flight: the unit holds at most its queue, its pipeline and its response FIFO, a few
//! dozen), and reports every entry on `fire`, with its
//! `fire_id`, `fire_lanes` (0 for a plain request) and `fire_mask`, so that a testbench can
//! map each response (`rsp_id`) to its lanes.

use crate::config::Config;
use crate::k;
use crate::slice_unit::{COV_WIDTH, ID_WIDTH, SliceUnit, elem_log2_table};
use rust_hdl::prelude::*;
use sim::form::encoding::{CODE_WIDTH, TYPE_LSB, TYPE_WIDTH, VEC_LSB, VEC_WIDTH};
use sim::memory::req_encoding::{KIND_LSB, KIND_RED, REQ_OP_WIDTH, STATUS_WIDTH};

/// Lanes of a warp.
pub const WARP_LANES: usize = 32;
const _: () = assert!(WARP_LANES == sim::warp::WARP_LANES);

/// The coalescer's combinational datapath: from the registered instruction (`form`,
/// `pending`, `addr`, `data`) to the request of this round and the lanes it serves (`sel`).
/// A block of its own so that Verilator orders it apart from the handshake logic, which
/// reads `out_ready` (one `always` block holding both would be a combinational loop through
/// the unit's `req_ready` for Verilator).
#[derive(LogicBlock)]
pub struct CoalescerPick {
    pub form: Signal<In, Bits<CODE_WIDTH>>,
    pub pending: Signal<In, Bits<32>>,
    pub addr: Signal<In, Bits<1024>>,
    pub data: Signal<In, Bits<4096>>,
    pub out_op: Signal<Out, Bits<REQ_OP_WIDTH>>,
    pub out_addr: Signal<Out, Bits<32>>,
    pub out_data: Signal<Out, Bits<128>>,
    pub out_mask: Signal<Out, Bits<8>>,
    pub sel: Signal<Out, Bits<32>>,

    elem_log2_tbl: Constant<Bits<32>>,
    kind_red: Constant<Bits<REQ_OP_WIDTH>>,
    vec_lsb: Constant<Bits<4>>,
    ty_lsb: Constant<Bits<4>>,
    one8: Constant<Bits<8>>,
    one32: Constant<Bits<32>>,
    zero8: Constant<Bits<8>>,
    zero32: Constant<Bits<32>>,
    zero128: Constant<Bits<128>>,
    zero256: Constant<Bits<256>>,
    sz1: Constant<Bits<3>>,
    sz2: Constant<Bits<3>>,
    sz3: Constant<Bits<3>>,
    v1: Constant<Bits<VEC_WIDTH>>,
    v2: Constant<Bits<VEC_WIDTH>>,
    v3: Constant<Bits<VEC_WIDTH>>,
    align1: Constant<Bits<4>>,
    align3: Constant<Bits<4>>,
    align7: Constant<Bits<4>>,
    align15: Constant<Bits<4>>,
    m16: Constant<Bits<128>>,
    m32: Constant<Bits<128>>,
    m64: Constant<Bits<128>>,
    m128: Constant<Bits<128>>,
    bm1: Constant<Bits<8>>,
    bm3: Constant<Bits<8>>,
    bm15: Constant<Bits<8>>,
    bm255: Constant<Bits<8>>,
    three7: Constant<Bits<7>>,
    sector_mask: Constant<Bits<32>>,

    // Decode of the registered form.
    ty2: Signal<Local, Bits<8>>,
    elogw: Signal<Local, Bits<32>>,
    elog: Signal<Local, Bits<2>>,
    vecf: Signal<Local, Bits<VEC_WIDTH>>,
    size: Signal<Local, Bits<3>>,
    align: Signal<Local, Bits<4>>,
    bytes_mask: Signal<Local, Bits<128>>,
    base_mask: Signal<Local, Bits<8>>,
    // Leader.
    leader: Signal<Local, Bits<32>>,
    la: Signal<Local, Bits<32>>,
    ld: Signal<Local, Bits<128>>,
    la_ok: Signal<Local, Bit>,
    // Per lane (loop variables).
    lane_a: Signal<Local, Bits<32>>,
    lane_cand: Signal<Local, Bit>,
    lane_in: Signal<Local, Bit>,
    cand: Signal<Local, Bits<32>>,
    lane_slot: Signal<Local, Bits<4>>,
    lane_oh: Signal<Local, Bits<8>>,
    lane_sh: Signal<Local, Bits<7>>,
    lane_e: Signal<Local, Bits<4>>,
    // Per slot.
    slotvec: Signal<Local, Bits<256>>,
    sv: Signal<Local, Bits<32>>,
    o_sel: Signal<Local, Bits<32>>,
    o_mask: Signal<Local, Bits<8>>,
    o_data: Signal<Local, Bits<128>>,
    unused: Signal<Local, Bit>,
}

impl Default for CoalescerPick {
    fn default() -> Self {
        let elem_log2 = elem_log2_table();
        Self {
            form: Default::default(),
            pending: Default::default(),
            addr: Default::default(),
            data: Default::default(),
            out_op: Default::default(),
            out_addr: Default::default(),
            out_data: Default::default(),
            out_mask: Default::default(),
            sel: Default::default(),
            elem_log2_tbl: k(elem_log2),
            kind_red: k((KIND_RED as u128) << KIND_LSB),
            vec_lsb: k(VEC_LSB as u128),
            ty_lsb: k(TYPE_LSB as u128),
            one8: k(1),
            one32: k(1),
            zero8: k(0),
            zero32: k(0),
            zero128: k(0),
            zero256: k(0),
            sz1: k(1),
            sz2: k(2),
            sz3: k(3),
            v1: k(1),
            v2: k(2),
            v3: k(3),
            align1: k(1),
            align3: k(3),
            align7: k(7),
            align15: k(15),
            m16: k(u16::MAX as u128),
            m32: k(u32::MAX as u128),
            m64: k(u64::MAX as u128),
            m128: k(u128::MAX),
            bm1: k(1),
            bm3: k(3),
            bm15: k(15),
            bm255: k(255),
            three7: k(3),
            sector_mask: k(0xffff_fff0),
            ty2: Default::default(),
            elogw: Default::default(),
            elog: Default::default(),
            vecf: Default::default(),
            size: Default::default(),
            align: Default::default(),
            bytes_mask: Default::default(),
            base_mask: Default::default(),
            leader: Default::default(),
            la: Default::default(),
            ld: Default::default(),
            la_ok: Default::default(),
            lane_a: Default::default(),
            lane_cand: Default::default(),
            lane_in: Default::default(),
            cand: Default::default(),
            lane_slot: Default::default(),
            lane_oh: Default::default(),
            lane_sh: Default::default(),
            lane_e: Default::default(),
            slotvec: Default::default(),
            sv: Default::default(),
            o_sel: Default::default(),
            o_mask: Default::default(),
            o_data: Default::default(),
            unused: Default::default(),
        }
    }
}

impl Logic for CoalescerPick {
    #[hdl_gen]
    fn update(&mut self) {
        // ==========================================================================
        // Decode of the registered form: access size, alignment, element and lane masks.
        // ==========================================================================
        self.ty2.next = bit_cast::<8, TYPE_WIDTH>(self.form.val().get_bits::<TYPE_WIDTH>(self.ty_lsb.val().index()))
            << self.one8.val();
        self.elogw.next = self.elem_log2_tbl.val() >> self.ty2.val();
        self.elog.next = self.elogw.val().get_bits::<2>(0);
        self.vecf.next = self.form.val().get_bits::<VEC_WIDTH>(self.vec_lsb.val().index());
        // log2 of the access bytes (1..4).
        self.size.next = bit_cast::<3, 2>(self.elog.val()) + bit_cast::<3, VEC_WIDTH>(self.vecf.val());
        self.align.next = self.align15.val();
        self.bytes_mask.next = self.m128.val();
        if self.size.val() == self.sz1.val() {
            self.align.next = self.align1.val();
            self.bytes_mask.next = self.m16.val();
        } else if self.size.val() == self.sz2.val() {
            self.align.next = self.align3.val();
            self.bytes_mask.next = self.m32.val();
        } else if self.size.val() == self.sz3.val() {
            self.align.next = self.align7.val();
            self.bytes_mask.next = self.m64.val();
        }
        // The element bits of one lane at element 0: 1, 2, 4 or 8 elements.
        self.base_mask.next = self.bm1.val();
        if self.vecf.val() == self.v1.val() {
            self.base_mask.next = self.bm3.val();
        } else if self.vecf.val() == self.v2.val() {
            self.base_mask.next = self.bm15.val();
        } else if self.vecf.val() == self.v3.val() {
            self.base_mask.next = self.bm255.val();
        }

        // ==========================================================================
        // Leader: the lowest pending lane, its address and operand.
        // ==========================================================================
        self.leader.next = self.pending.val() & (!self.pending.val() + self.one32.val());
        self.la.next = self.zero32.val();
        self.ld.next = self.zero128.val();
        for i in 0..32 {
            if self.leader.val().get_bit(i) {
                self.la.next = self.addr.val().get_bits::<32>(32 * i);
                self.ld.next = self.data.val().get_bits::<128>(128 * i);
            }
        }
        self.la_ok.next = !(self.la.val().get_bits::<4>(0) & self.align.val()).any();

        // ==========================================================================
        // Candidates per slot (bit 32*slot + lane), then the first lane of each slot.
        // ==========================================================================
        // (Vectors are built by shifting in one bit per lane, last lane first: `replace_bit`
        // gives Verilog with 32-bit shift constants that Verilator's -Wall rejects.)
        self.cand.next = self.zero32.val();
        self.slotvec.next = self.zero256.val();
        for i in 0..32 {
            self.lane_a.next = self.addr.val().get_bits::<32>(32 * (31 - i));
            self.lane_cand.next = self.pending.val().get_bit(31 - i)
                && !(self.lane_a.val().get_bits::<4>(0) & self.align.val()).any()
                && ((self.lane_a.val() & self.sector_mask.val()) == (self.la.val() & self.sector_mask.val()));
            self.lane_slot.next = self.lane_a.val().get_bits::<4>(0) >> self.size.val();
            self.lane_oh.next = self.one8.val() << self.lane_slot.val();
            self.cand.next = (self.cand.val() << 1) | bit_cast::<32, 1>(self.lane_cand.val().into());
            self.slotvec.next = (self.slotvec.val() << 8) | bit_cast::<256, 8>(self.lane_oh.val());
        }
        // slotvec: lane i's slot one-hot at bits 8i+7..8i.
        self.o_sel.next = self.zero32.val();
        for s in 0..8 {
            self.sv.next = self.zero32.val();
            for i in 0..32 {
                self.lane_in.next = self.cand.val().get_bit(31 - i) && self.slotvec.val().get_bit(8 * (31 - i) + s);
                self.sv.next = (self.sv.val() << 1) | bit_cast::<32, 1>(self.lane_in.val().into());
            }
            self.o_sel.next = self.o_sel.val() | (self.sv.val() & (!self.sv.val() + self.one32.val()));
        }
        if !self.la_ok.val() {
            self.o_sel.next = self.leader.val();
        }

        // ==========================================================================
        // The request: element mask and operands of the selected lanes.
        // ==========================================================================
        self.o_mask.next = self.zero8.val();
        self.o_data.next = self.zero128.val();
        for i in 0..32 {
            self.lane_a.next = self.addr.val().get_bits::<32>(32 * i);
            self.lane_sh.next = bit_cast::<7, 4>(self.lane_a.val().get_bits::<4>(0)) << self.three7.val();
            self.lane_e.next = self.lane_a.val().get_bits::<4>(0) >> self.elog.val();
            if self.o_sel.val().get_bit(i) {
                self.o_mask.next = self.o_mask.val() | (self.base_mask.val() << self.lane_e.val());
                self.o_data.next = self.o_data.val()
                    | ((self.data.val().get_bits::<128>(128 * i) & self.bytes_mask.val()) << self.lane_sh.val());
            }
        }
        self.out_op.next = self.kind_red.val() | bit_cast::<REQ_OP_WIDTH, CODE_WIDTH>(self.form.val());
        self.out_addr.next = self.la.val() & self.sector_mask.val();
        self.out_mask.next = self.o_mask.val();
        self.out_data.next = self.o_data.val();
        // A leader alone (a misaligned one always is: `o_sel` above) goes as a plain request;
        // a misaligned one keeps its whole operand, which the unit never reads.
        if self.o_sel.val() == self.leader.val() {
            self.out_addr.next = self.la.val();
            self.out_mask.next = self.zero8.val();
            self.out_data.next = self.ld.val() & self.bytes_mask.val();
            if !self.la_ok.val() {
                self.out_data.next = self.ld.val();
            }
        }
        self.sel.next = self.o_sel.val();
        self.unused.next = self.elogw.val().any();
    }
}

/// The warp coalescer (see the module doc): registers, handshakes, and a [`CoalescerPick`].
#[derive(LogicBlock)]
pub struct WarpCoalescer {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub in_valid: Signal<In, Bit>,
    pub in_ready: Signal<Out, Bit>,
    pub in_form: Signal<In, Bits<CODE_WIDTH>>,
    pub in_mask: Signal<In, Bits<32>>,
    pub in_addr: Signal<In, Bits<1024>>,
    pub in_data: Signal<In, Bits<4096>>,
    pub out_valid: Signal<Out, Bit>,
    pub out_ready: Signal<In, Bit>,
    /// [`sim::Access::code`] of `Red(form)`.
    pub out_op: Signal<Out, Bits<REQ_OP_WIDTH>>,
    pub out_addr: Signal<Out, Bits<32>>,
    pub out_data: Signal<Out, Bits<128>>,
    pub out_mask: Signal<Out, Bits<8>>,
    pub out_lanes: Signal<Out, Bits<32>>,
    /// A lane is pending.
    pub busy: Signal<Out, Bit>,

    pick: CoalescerPick,
    // The registered instruction.
    form: DFF<Bits<CODE_WIDTH>>,
    pending: DFF<Bits<32>>,
    addr: DFF<Bits<1024>>,
    data: DFF<Bits<4096>>,
    zero32: Constant<Bits<32>>,
    fire: Signal<Local, Bit>,
    rest: Signal<Local, Bits<32>>,
    in_fire: Signal<Local, Bit>,
}

impl Default for WarpCoalescer {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            in_valid: Default::default(),
            in_ready: Default::default(),
            in_form: Default::default(),
            in_mask: Default::default(),
            in_addr: Default::default(),
            in_data: Default::default(),
            out_valid: Default::default(),
            out_ready: Default::default(),
            out_op: Default::default(),
            out_addr: Default::default(),
            out_data: Default::default(),
            out_mask: Default::default(),
            out_lanes: Default::default(),
            busy: Default::default(),
            pick: Default::default(),
            form: Default::default(),
            pending: Default::default(),
            addr: Default::default(),
            data: Default::default(),
            zero32: k(0),
            fire: Default::default(),
            rest: Default::default(),
            in_fire: Default::default(),
        }
    }
}

impl Logic for WarpCoalescer {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, form, pending, addr, data);
        self.pick.form.next = self.form.q.val();
        self.pick.pending.next = self.pending.q.val();
        self.pick.addr.next = self.addr.q.val();
        self.pick.data.next = self.data.q.val();
        self.out_valid.next = self.pending.q.val().any();
        self.busy.next = self.pending.q.val().any();
        self.out_op.next = self.pick.out_op.val();
        self.out_addr.next = self.pick.out_addr.val();
        self.out_data.next = self.pick.out_data.val();
        self.out_mask.next = self.pick.out_mask.val();
        self.out_lanes.next = self.pick.sel.val();

        // Handshakes.
        self.fire.next = self.pending.q.val().any() && self.out_ready.val();
        self.rest.next = self.pending.q.val() & !self.pick.sel.val();
        self.in_ready.next =
            (!self.pending.q.val().any() || (self.fire.val() && !self.rest.val().any())) && !self.reset.val();
        self.in_fire.next = self.in_valid.val() && self.in_ready.val();
        if self.fire.val() {
            self.pending.d.next = self.rest.val();
        }
        if self.in_fire.val() {
            self.pending.d.next = self.in_mask.val();
            self.form.d.next = self.in_form.val();
            self.addr.d.next = self.in_addr.val();
            self.data.d.next = self.in_data.val();
        }
        if self.reset.val() {
            self.pending.d.next = self.zero32.val();
        }
    }
}

/// The L2-slice unit with the warp coalescer in front (see the module doc).
#[derive(LogicBlock)]
pub struct WarpUnit {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // Warp instruction port.
    pub warp_valid: Signal<In, Bit>,
    pub warp_ready: Signal<Out, Bit>,
    pub warp_form: Signal<In, Bits<CODE_WIDTH>>,
    pub warp_mask: Signal<In, Bits<32>>,
    pub warp_addr: Signal<In, Bits<1024>>,
    pub warp_data: Signal<In, Bits<4096>>,
    // Plain request port (the unit's, without the id).
    pub req_valid: Signal<In, Bit>,
    pub req_ready: Signal<Out, Bit>,
    pub req_op: Signal<In, Bits<REQ_OP_WIDTH>>,
    pub req_addr: Signal<In, Bits<32>>,
    pub req_data: Signal<In, Bits<128>>,
    pub req_mask: Signal<In, Bits<8>>,
    // Response port (the unit's).
    pub rsp_valid: Signal<Out, Bit>,
    pub rsp_ready: Signal<In, Bit>,
    pub rsp_id: Signal<Out, Bits<ID_WIDTH>>,
    pub rsp_data: Signal<Out, Bits<128>>,
    pub rsp_status: Signal<Out, Bits<STATUS_WIDTH>>,
    // A request entered the unit this cycle: its id, lanes (0: plain port) and mask.
    pub fire: Signal<Out, Bit>,
    pub fire_id: Signal<Out, Bits<ID_WIDTH>>,
    pub fire_lanes: Signal<Out, Bits<32>>,
    pub fire_mask: Signal<Out, Bits<8>>,
    /// The coalescer holds lanes of an instruction.
    pub busy: Signal<Out, Bit>,
    pub cov: Signal<Out, Bits<COV_WIDTH>>,

    pub coalescer: WarpCoalescer,
    pub unit: SliceUnit,
    next_id: DFF<Bits<ID_WIDTH>>,
    one_id: Constant<Bits<ID_WIDTH>>,
    zero_id: Constant<Bits<ID_WIDTH>>,
    zero32: Constant<Bits<32>>,
    fired: Signal<Local, Bit>,
}

impl WarpUnit {
    /// The unit with `mem_bytes` of memory and the coalescer.
    pub fn new(mem_bytes: usize) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            warp_valid: Default::default(),
            warp_ready: Default::default(),
            warp_form: Default::default(),
            warp_mask: Default::default(),
            warp_addr: Default::default(),
            warp_data: Default::default(),
            req_valid: Default::default(),
            req_ready: Default::default(),
            req_op: Default::default(),
            req_addr: Default::default(),
            req_data: Default::default(),
            req_mask: Default::default(),
            rsp_valid: Default::default(),
            rsp_ready: Default::default(),
            rsp_id: Default::default(),
            rsp_data: Default::default(),
            rsp_status: Default::default(),
            fire: Default::default(),
            fire_id: Default::default(),
            fire_lanes: Default::default(),
            fire_mask: Default::default(),
            busy: Default::default(),
            cov: Default::default(),
            coalescer: Default::default(),
            unit: SliceUnit::with_config(mem_bytes, &Config::unit_default()),
            next_id: Default::default(),
            one_id: k(1),
            zero_id: k(0),
            zero32: k(0),
            fired: Default::default(),
        }
    }
}

impl Logic for WarpUnit {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, next_id);
        self.coalescer.clock.next = self.clock.val();
        self.coalescer.reset.next = self.reset.val();
        self.unit.clock.next = self.clock.val();
        self.unit.reset.next = self.reset.val();

        self.coalescer.in_valid.next = self.warp_valid.val();
        self.coalescer.in_form.next = self.warp_form.val();
        self.coalescer.in_mask.next = self.warp_mask.val();
        self.coalescer.in_addr.next = self.warp_addr.val();
        self.coalescer.in_data.next = self.warp_data.val();
        self.warp_ready.next = self.coalescer.in_ready.val();
        self.busy.next = self.coalescer.busy.val();

        // The coalescer has priority over the plain port. (Separate statements: the ones that
        // drive the unit's request inputs read no value computed from `unit.req_ready`, so
        // Verilator orders them apart and sees no combinational loop; see `SliceUnit`.)
        self.unit.req_id.next = self.next_id.q.val();
        if self.coalescer.out_valid.val() {
            self.unit.req_valid.next = true;
            self.unit.req_op.next = self.coalescer.out_op.val();
            self.unit.req_addr.next = self.coalescer.out_addr.val();
            self.unit.req_data.next = self.coalescer.out_data.val();
            self.unit.req_mask.next = self.coalescer.out_mask.val();
        } else {
            self.unit.req_valid.next = self.req_valid.val();
            self.unit.req_op.next = self.req_op.val();
            self.unit.req_addr.next = self.req_addr.val();
            self.unit.req_data.next = self.req_data.val();
            self.unit.req_mask.next = self.req_mask.val();
        }
        self.coalescer.out_ready.next = self.unit.req_ready.val();
        self.req_ready.next = self.unit.req_ready.val() && !self.coalescer.out_valid.val();
        self.fired.next = self.unit.req_ready.val() && (self.coalescer.out_valid.val() || self.req_valid.val());
        self.fire.next = self.fired.val();
        self.fire_id.next = self.next_id.q.val();
        self.fire_lanes.next = self.zero32.val();
        if self.coalescer.out_valid.val() {
            self.fire_lanes.next = self.coalescer.out_lanes.val();
        }
        self.fire_mask.next = self.req_mask.val();
        if self.coalescer.out_valid.val() {
            self.fire_mask.next = self.coalescer.out_mask.val();
        }
        if self.fired.val() {
            self.next_id.d.next = self.next_id.q.val() + self.one_id.val();
        }
        if self.reset.val() {
            self.next_id.d.next = self.zero_id.val();
        }

        self.unit.rsp_ready.next = self.rsp_ready.val();
        self.rsp_valid.next = self.unit.rsp_valid.val();
        self.rsp_id.next = self.unit.rsp_id.val();
        self.rsp_data.next = self.unit.rsp_data.val();
        self.rsp_status.next = self.unit.rsp_status.val();
        self.cov.next = self.unit.cov.val();
    }
}

/// The Verilog of [`WarpUnit`] with `mem_bytes` of memory, as a `top` module.
pub fn warp_verilog(mem_bytes: usize) -> String {
    crate::verilog::verilog(&mut WarpUnit::new(mem_bytes))
}
