//! `AsyncUnit`: the L2-slice unit ([`SliceUnit`]) with `red.async` completion on mbarriers
//! ([`Mbarrier`]). Verilog: [`async_verilog`] (`redunit verilog --top async`).
//!
//! ```text
//!            req (+ mbar_en, mbar) ──► completion table (32, tag = unit req_id) ──► SliceUnit
//!                                         │ done/status/data ◄── unit rsp (any order)
//!   rsp (request order) ◄── retire head ──┤
//!                                         └─ mbar_en && status ok ─► complete-tx ─► Mbarrier
//!   bar (init/arrive/expect_tx/complete_tx/test_wait/inval) ───────────────────────► Mbarrier
//! ```
//!
//! # Requests
//! `req_op`/`req_addr`/`req_data` are the unit's ([`sim::Access::code`]); any access may come
//! in. A `red.async` of a `.relaxed` form is its `red` form ([`sim::red_async::RedAsync::red_form`])
//! with `req_mbar_en` high and its mbarrier's address / 8 in `req_mbar`; `.release` forms and plain
//! accesses have `req_mbar_en` low. The complete-tx count is the bytes of the op's type
//! (8 for the 64-bit types, else 4: the `red.async` types). `req_mbar_en` with an op other
//! than a scalar integer `red` is outside the contract.
//!
//! # Completion table and responses
//! Each accepted request takes the next of [`ASYNC_TAGS`] table entries (its tag, which is
//! the unit's `req_id`); `req_ready` is low when all are in use or the unit is not ready. The
//! unit answers in any order; its response marks the entry done. The head entry retires in
//! request order when done and `rsp_ready` is high: it is the response (`rsp_data`,
//! `rsp_status`), and when it has `mbar_en` and status ok, the mbarrier performs
//! complete-tx with its bytes on that mbarrier in the same cycle (`tx_valid`, `tx_addr`,
//! `tx_bytes` show it). A failed request stores nothing and performs no complete-tx. Retiring
//! in request order makes the complete-tx sequence of an mbarrier the program order of its
//! `red.async`s.
//!
//! # Barrier operations
//! `bar_valid`/`bar_ready`, `bar_op`, `bar_addr` (the mbarrier's address / 8), `bar_arg`
//! ([`sim::mbarrier::mbar_encoding`]). `bar_ready` is high except in reset: a barrier
//! operation takes effect in the cycle it is offered and sees the mbarrier as it is in that
//! cycle, so a `test_wait` issued while a `red.async` on that mbarrier is in flight sees the
//! phase incomplete (as a consumer on the GPU does). The outputs `bar_wait_complete`,
//! `bar_parity`, `bar_pending`, `bar_tx`, `bar_err` show the addressed mbarrier before the
//! cycle's updates (the `test_wait.parity` result when `bar_op` is test_wait), `bar_full`
//! that an init finds the table full ([`crate::mbarrier`]). A barrier operation and a
//! complete-tx from a retiring request in one cycle both take effect (on one mbarrier: the
//! operation first); a barrier operation in the cycle a request is accepted is earlier than
//! that request.
//!
//! # The unit inside
//! The unit is built with its default configuration ([`ASYNC_UNIT_CONFIG`] =
//! [`Config::unit_default`]), the one `redunit verilog` writes for the unit alone.
//!
//! # Completion bound
//! With `rsp_ready` high, a `red.async` performs its complete-tx at most
//! [`ASYNC_COMPLETION_BOUND`] cycles after its acceptance: it retires behind at most
//! `ASYNC_TAGS - 1` older requests, and the unit answers each of them at most one cycle more
//! than its longest dependent interval after the one before it (an FP op's:
//! [`crate::slice_unit::dependent_issue_interval_with`]); a phase therefore completes at most
//! that many cycles after its last arrival and the acceptance of the last `red.async` it
//! waits for. The testbench checks the bound every cycle.
//!
//! # Timing (no waits)
//! Request accepted in cycle a → unit response in cycle a + the unit's latency
//! ([`unit_latency`]) → retire and complete-tx in the next cycle → the phase flip is visible
//! on `phase` one cycle after that: [`ASYNC_FLIP_LATENCY`] cycles from acceptance, 2 from the
//! unit's response (`u_rsp_valid`, `u_rsp_tag` show the unit's responses).
//!
//! # Reset
//! Synchronous `reset` resets the unit (in-flight requests are dropped), the table and the
//! mbarriers (all uninitialised).

use crate::config::Config;
use crate::k;
use crate::mbarrier::{MBARRIER_SLOTS, Mbarrier};
use crate::slice_unit::{ID_WIDTH, SliceUnit, unit_latency};
use rust_hdl::prelude::*;
use sim::form::encoding::{TYPE_LSB, TYPE_WIDTH};
use sim::mbarrier::mbar_encoding::{ADDR_WIDTH, ARG_WIDTH, ERR_WIDTH, OP_WIDTH, TX_WIDTH};
use sim::memory::req_encoding::{REQ_OP_WIDTH, STATUS_OK, STATUS_WIDTH};

/// Completion-table entries (requests in flight at most).
pub const ASYNC_TAGS: usize = 32;
/// Cycles from a `red.async`'s acceptance to its phase flip being visible on `phase`, when
/// it is the last byte and nothing waits.
pub const ASYNC_FLIP_LATENCY: usize = unit_latency(&ASYNC_UNIT_CONFIG) + 2;
/// Cycles from the unit's response (`u_rsp_valid`) to the flip being visible.
pub const ASYNC_FLIP_AFTER_RESPONSE: usize = 2;
/// The unit's configuration inside (the unit's default).
pub const ASYNC_UNIT_CONFIG: Config = Config::unit_default();
/// The longest interval between dependent requests to one line of the unit inside: behind
/// an FP op it does not chain with (the FP window, `alu_latency + 2`, and one).
pub const ASYNC_UNIT_MAX_INTERVAL: usize = ASYNC_UNIT_CONFIG.alu_latency() + 3;
/// The most cycles from a `red.async`'s acceptance to its complete-tx while `rsp_ready` is
/// high (module doc): the flip latency plus, for each older request in the table, the unit's
/// longest dependent interval and one cycle.
pub const ASYNC_COMPLETION_BOUND: usize = ASYNC_FLIP_LATENCY + (ASYNC_UNIT_MAX_INTERVAL + 1) * (ASYNC_TAGS - 1);

const _: () = assert!(ASYNC_TAGS == 32 && MBARRIER_SLOTS == 8, "pointer and count widths below");

#[derive(LogicBlock)]
pub struct AsyncUnit {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // Requests.
    pub req_valid: Signal<In, Bit>,
    pub req_ready: Signal<Out, Bit>,
    pub req_op: Signal<In, Bits<REQ_OP_WIDTH>>,
    pub req_addr: Signal<In, Bits<32>>,
    pub req_data: Signal<In, Bits<128>>,
    pub req_mbar_en: Signal<In, Bit>,
    pub req_mbar: Signal<In, Bits<ADDR_WIDTH>>,
    // Responses, in request order.
    pub rsp_valid: Signal<Out, Bit>,
    pub rsp_ready: Signal<In, Bit>,
    pub rsp_data: Signal<Out, Bits<128>>,
    pub rsp_status: Signal<Out, Bits<STATUS_WIDTH>>,
    // Barrier operations.
    pub bar_valid: Signal<In, Bit>,
    pub bar_ready: Signal<Out, Bit>,
    pub bar_op: Signal<In, Bits<OP_WIDTH>>,
    pub bar_addr: Signal<In, Bits<ADDR_WIDTH>>,
    pub bar_arg: Signal<In, Bits<ARG_WIDTH>>,
    pub bar_wait_complete: Signal<Out, Bit>,
    pub bar_parity: Signal<Out, Bit>,
    pub bar_pending: Signal<Out, Bits<ARG_WIDTH>>,
    pub bar_tx: Signal<Out, Bits<TX_WIDTH>>,
    pub bar_err: Signal<Out, Bits<ERR_WIDTH>>,
    pub bar_full: Signal<Out, Bit>,
    // Observation (per mbarrier table entry).
    pub mbar_valid: Signal<Out, Bits<MBARRIER_SLOTS>>,
    pub phase: Signal<Out, Bits<MBARRIER_SLOTS>>,
    pub mbar_errs: Signal<Out, Bits<MBARRIER_SLOTS>>,
    pub flip: Signal<Out, Bits<MBARRIER_SLOTS>>,
    pub tx_valid: Signal<Out, Bit>,
    pub tx_addr: Signal<Out, Bits<ADDR_WIDTH>>,
    pub tx_bytes: Signal<Out, Bits<4>>,
    pub u_rsp_valid: Signal<Out, Bit>,
    pub u_rsp_tag: Signal<Out, Bits<5>>,

    unit: SliceUnit,
    mbar: Mbarrier,

    // Completion table.
    e_mbar_en: [DFF<Bit>; ASYNC_TAGS],
    e_mbar: [DFF<Bits<ADDR_WIDTH>>; ASYNC_TAGS],
    e_bytes8: [DFF<Bit>; ASYNC_TAGS],
    e_done: [DFF<Bit>; ASYNC_TAGS],
    e_status: [DFF<Bits<STATUS_WIDTH>>; ASYNC_TAGS],
    e_data: [DFF<Bits<128>>; ASYNC_TAGS],
    wr_ptr: DFF<Bits<5>>,
    rd_ptr: DFF<Bits<5>>,
    count: DFF<Bits<6>>,

    ty_lsb: Constant<Bits<4>>,
    bytes8_tbl: Constant<Bits<16>>,
    status_ok: Constant<Bits<STATUS_WIDTH>>,
    one_oh: Constant<Bits<ASYNC_TAGS>>,
    one_p: Constant<Bits<5>>,
    one_c: Constant<Bits<6>>,
    zero_p: Constant<Bits<5>>,
    zero_c: Constant<Bits<6>>,
    zero128: Constant<Bits<128>>,
    /// `req_mask` of a plain (unmasked) unit request.
    zero_mask: Constant<Bits<8>>,
    zero_status: Constant<Bits<STATUS_WIDTH>>,
    zero_mbar: Constant<Bits<ADDR_WIDTH>>,
    four_bytes: Constant<Bits<4>>,
    eight_bytes: Constant<Bits<4>>,

    acc: Signal<Local, Bit>,
    ty: Signal<Local, Bits<TYPE_WIDTH>>,
    acc_bytes8: Signal<Local, Bit>,
    b8_shift: Signal<Local, Bits<16>>,
    wr_oh: Signal<Local, Bits<ASYNC_TAGS>>,
    rd_oh: Signal<Local, Bits<ASYNC_TAGS>>,
    ursp_oh: Signal<Local, Bits<ASYNC_TAGS>>,
    ursp_fire: Signal<Local, Bit>,
    hd_done: Signal<Local, Bit>,
    hd_mbar_en: Signal<Local, Bit>,
    hd_mbar: Signal<Local, Bits<ADDR_WIDTH>>,
    hd_bytes8: Signal<Local, Bit>,
    hd_status: Signal<Local, Bits<STATUS_WIDTH>>,
    hd_data: Signal<Local, Bits<128>>,
    retire: Signal<Local, Bit>,
    cpl: Signal<Local, Bit>,
    cpl_bytes: Signal<Local, Bits<4>>,
    unused_unit: Signal<Local, Bit>,
    unused_b8: Signal<Local, Bit>,
}

impl AsyncUnit {
    /// The async unit with a [`SliceUnit`] of `mem_bytes` of memory.
    pub fn new(mem_bytes: usize) -> Self {
        let mut b8 = 0u128;
        for t in sim::form::TYPES {
            if t.bits() == 64 {
                b8 |= 1 << t as u64;
            }
        }
        Self {
            clock: Default::default(),
            reset: Default::default(),
            req_valid: Default::default(),
            req_ready: Default::default(),
            req_op: Default::default(),
            req_addr: Default::default(),
            req_data: Default::default(),
            req_mbar_en: Default::default(),
            req_mbar: Default::default(),
            rsp_valid: Default::default(),
            rsp_ready: Default::default(),
            rsp_data: Default::default(),
            rsp_status: Default::default(),
            bar_valid: Default::default(),
            bar_ready: Default::default(),
            bar_op: Default::default(),
            bar_addr: Default::default(),
            bar_arg: Default::default(),
            bar_wait_complete: Default::default(),
            bar_parity: Default::default(),
            bar_pending: Default::default(),
            bar_tx: Default::default(),
            bar_err: Default::default(),
            bar_full: Default::default(),
            mbar_valid: Default::default(),
            phase: Default::default(),
            mbar_errs: Default::default(),
            flip: Default::default(),
            tx_valid: Default::default(),
            tx_addr: Default::default(),
            tx_bytes: Default::default(),
            u_rsp_valid: Default::default(),
            u_rsp_tag: Default::default(),
            unit: SliceUnit::with_config(mem_bytes, &ASYNC_UNIT_CONFIG),
            mbar: Default::default(),
            e_mbar_en: Default::default(),
            e_mbar: Default::default(),
            e_bytes8: Default::default(),
            e_done: Default::default(),
            e_status: Default::default(),
            e_data: Default::default(),
            wr_ptr: Default::default(),
            rd_ptr: Default::default(),
            count: Default::default(),
            ty_lsb: k(TYPE_LSB as u128),
            bytes8_tbl: k(b8),
            status_ok: k(STATUS_OK as u128),
            one_oh: k(1),
            one_p: k(1),
            one_c: k(1),
            zero_p: k(0),
            zero_c: k(0),
            zero128: k(0),
            zero_mask: k(0),
            zero_status: k(0),
            zero_mbar: k(0),
            four_bytes: k(4),
            eight_bytes: k(8),
            acc: Default::default(),
            ty: Default::default(),
            acc_bytes8: Default::default(),
            b8_shift: Default::default(),
            wr_oh: Default::default(),
            rd_oh: Default::default(),
            ursp_oh: Default::default(),
            ursp_fire: Default::default(),
            hd_done: Default::default(),
            hd_mbar_en: Default::default(),
            hd_mbar: Default::default(),
            hd_bytes8: Default::default(),
            hd_status: Default::default(),
            hd_data: Default::default(),
            retire: Default::default(),
            cpl: Default::default(),
            cpl_bytes: Default::default(),
            unused_unit: Default::default(),
            unused_b8: Default::default(),
        }
    }
}

impl Logic for AsyncUnit {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, wr_ptr, rd_ptr, count);
        for i in 0..ASYNC_TAGS {
            self.e_mbar_en[i].clock.next = self.clock.val();
            self.e_mbar[i].clock.next = self.clock.val();
            self.e_bytes8[i].clock.next = self.clock.val();
            self.e_done[i].clock.next = self.clock.val();
            self.e_status[i].clock.next = self.clock.val();
            self.e_data[i].clock.next = self.clock.val();
            self.e_mbar_en[i].d.next = self.e_mbar_en[i].q.val();
            self.e_mbar[i].d.next = self.e_mbar[i].q.val();
            self.e_bytes8[i].d.next = self.e_bytes8[i].q.val();
            self.e_done[i].d.next = self.e_done[i].q.val();
            self.e_status[i].d.next = self.e_status[i].q.val();
            self.e_data[i].d.next = self.e_data[i].q.val();
        }
        self.unit.clock.next = self.clock.val();
        self.mbar.clock.next = self.clock.val();
        self.unit.reset.next = self.reset.val();
        self.mbar.reset.next = self.reset.val();

        // ---- accept: a free table entry and a ready unit ----
        self.req_ready.next = self.unit.req_ready.val() && !self.count.q.val().get_bit(5) && !self.reset.val();
        self.acc.next = self.req_valid.val() && self.req_ready.val();
        self.unit.req_valid.next = self.req_valid.val() && !self.count.q.val().get_bit(5) && !self.reset.val();
        self.unit.req_op.next = self.req_op.val();
        self.unit.req_addr.next = self.req_addr.val();
        self.unit.req_data.next = self.req_data.val();
        self.unit.req_mask.next = self.zero_mask.val();
        self.unit.req_id.next = bit_cast::<ID_WIDTH, 5>(self.wr_ptr.q.val());
        self.ty.next = self.req_op.val().get_bits::<TYPE_WIDTH>(self.ty_lsb.val().index());
        self.b8_shift.next = self.bytes8_tbl.val() >> self.ty.val();
        self.acc_bytes8.next = self.b8_shift.val().get_bit(0);
        self.unused_b8.next = self.b8_shift.val().get_bits::<15>(1).any();
        self.wr_oh.next = self.one_oh.val() << self.wr_ptr.q.val();
        for i in 0..ASYNC_TAGS {
            if self.acc.val() && self.wr_oh.val().get_bit(i) {
                self.e_mbar_en[i].d.next = self.req_mbar_en.val();
                self.e_mbar[i].d.next = self.req_mbar.val();
                self.e_bytes8[i].d.next = self.acc_bytes8.val();
                self.e_done[i].d.next = false;
            }
        }

        // ---- unit responses (any order) mark their entry done ----
        self.unit.rsp_ready.next = true;
        self.ursp_fire.next = self.unit.rsp_valid.val();
        self.ursp_oh.next = self.one_oh.val() << self.unit.rsp_id.val().get_bits::<5>(0);
        self.unused_unit.next = self.unit.rsp_id.val().get_bits::<11>(5).any() ^ self.unit.cov.val().any();
        for i in 0..ASYNC_TAGS {
            if self.ursp_fire.val() && self.ursp_oh.val().get_bit(i) {
                self.e_done[i].d.next = true;
                self.e_status[i].d.next = self.unit.rsp_status.val();
                self.e_data[i].d.next = self.unit.rsp_data.val();
            }
        }
        self.u_rsp_valid.next = self.ursp_fire.val();
        self.u_rsp_tag.next = self.unit.rsp_id.val().get_bits::<5>(0);

        // ---- retire the head in request order ----
        self.rd_oh.next = self.one_oh.val() << self.rd_ptr.q.val();
        self.hd_done.next = false;
        self.hd_mbar_en.next = false;
        self.hd_mbar.next = self.zero_mbar.val();
        self.hd_bytes8.next = false;
        self.hd_status.next = self.zero_status.val();
        self.hd_data.next = self.zero128.val();
        for i in 0..ASYNC_TAGS {
            if self.rd_oh.val().get_bit(i) {
                self.hd_done.next = self.e_done[i].q.val();
                self.hd_mbar_en.next = self.e_mbar_en[i].q.val();
                self.hd_mbar.next = self.e_mbar[i].q.val();
                self.hd_bytes8.next = self.e_bytes8[i].q.val();
                self.hd_status.next = self.e_status[i].q.val();
                self.hd_data.next = self.e_data[i].q.val();
            }
        }
        self.rsp_valid.next = self.count.q.val().any() && self.hd_done.val() && !self.reset.val();
        self.rsp_data.next = self.hd_data.val();
        self.rsp_status.next = self.hd_status.val();
        self.retire.next = self.rsp_valid.val() && self.rsp_ready.val();
        for i in 0..ASYNC_TAGS {
            if self.retire.val() && self.rd_oh.val().get_bit(i) {
                self.e_done[i].d.next = false;
            }
        }
        if self.acc.val() {
            self.wr_ptr.d.next = self.wr_ptr.q.val() + self.one_p.val();
        }
        if self.retire.val() {
            self.rd_ptr.d.next = self.rd_ptr.q.val() + self.one_p.val();
        }
        if self.acc.val() && !self.retire.val() {
            self.count.d.next = self.count.q.val() + self.one_c.val();
        }
        if self.retire.val() && !self.acc.val() {
            self.count.d.next = self.count.q.val() - self.one_c.val();
        }

        // ---- complete-tx of a retiring red.async ----
        self.cpl.next = self.retire.val() && self.hd_mbar_en.val() && (self.hd_status.val() == self.status_ok.val());
        if self.hd_bytes8.val() {
            self.cpl_bytes.next = self.eight_bytes.val();
        } else {
            self.cpl_bytes.next = self.four_bytes.val();
        }
        self.mbar.cpl_valid.next = self.cpl.val();
        self.mbar.cpl_addr.next = self.hd_mbar.val();
        self.mbar.cpl_bytes.next = bit_cast::<ARG_WIDTH, 4>(self.cpl_bytes.val());
        self.tx_valid.next = self.cpl.val();
        self.tx_addr.next = self.hd_mbar.val();
        self.tx_bytes.next = self.cpl_bytes.val();

        // ---- barrier operations: taken at once ----
        self.bar_ready.next = !self.reset.val();
        self.mbar.op_valid.next = self.bar_valid.val() && self.bar_ready.val();
        self.mbar.op_code.next = self.bar_op.val();
        self.mbar.op_addr.next = self.bar_addr.val();
        self.mbar.op_arg.next = self.bar_arg.val();
        self.bar_wait_complete.next = self.mbar.op_wait_complete.val();
        self.bar_parity.next = self.mbar.op_parity.val();
        self.bar_pending.next = self.mbar.op_pending.val();
        self.bar_tx.next = self.mbar.op_tx.val();
        self.bar_err.next = self.mbar.op_err.val();
        self.bar_full.next = self.mbar.op_full.val();
        self.mbar_valid.next = self.mbar.valid.val();
        self.phase.next = self.mbar.phase.val();
        self.mbar_errs.next = self.mbar.errs.val();
        self.flip.next = self.mbar.flip.val();

        if self.reset.val() {
            self.wr_ptr.d.next = self.zero_p.val();
            self.rd_ptr.d.next = self.zero_p.val();
            self.count.d.next = self.zero_c.val();
            for i in 0..ASYNC_TAGS {
                self.e_done[i].d.next = false;
            }
        }
    }
}

/// The Verilog of the async unit with `mem_bytes` of memory, as module `top`.
pub fn async_verilog(mem_bytes: usize) -> String {
    crate::verilog::verilog(&mut AsyncUnit::new(mem_bytes))
}
