//! The L2-slice unit: request and response ports, memory, ordering queue, ALU.
//!
//! INTERFACE STUB: the ports, the constants and `unit_verilog` are the contract with the
//! testbench. The behaviour below only answers every request one cycle later with status ok
//! and zero data, and is replaced by the real unit.

use rust_hdl::prelude::*;
use sim::memory::req_encoding::{REQ_OP_WIDTH, STATUS_WIDTH};

/// Width of the request id tag.
pub const ID_WIDTH: usize = 16;
/// Width of the coverage-event bus.
pub const COV_WIDTH: usize = 16;
/// The coverage points: name and bit of `cov`. A bit is high in each cycle its event happens.
pub const COVERAGE_POINTS: &[(&str, usize)] = &[];

#[derive(LogicBlock)]
pub struct SliceUnit {
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: the unit returns to idle (see the module doc).
    pub reset: Signal<In, Bit>,
    // Request port (valid/ready: a request moves when both are high at a rising edge).
    pub req_valid: Signal<In, Bit>,
    pub req_ready: Signal<Out, Bit>,
    /// [`sim::Access::code`].
    pub req_op: Signal<In, Bits<REQ_OP_WIDTH>>,
    /// Byte address of the least significant byte.
    pub req_addr: Signal<In, Bits<32>>,
    /// Store data or operand in the low bits (element 0 lowest).
    pub req_data: Signal<In, Bits<128>>,
    pub req_id: Signal<In, Bits<ID_WIDTH>>,
    // Response port (valid/ready): exactly one per request.
    pub rsp_valid: Signal<Out, Bit>,
    pub rsp_ready: Signal<In, Bit>,
    pub rsp_id: Signal<Out, Bits<ID_WIDTH>>,
    /// The old value for `ld` and `atom` in the low bits; zero otherwise.
    pub rsp_data: Signal<Out, Bits<128>>,
    /// [`sim::status_code`].
    pub rsp_status: Signal<Out, Bits<STATUS_WIDTH>>,
    /// Coverage events this cycle (see [`COVERAGE_POINTS`]).
    pub cov: Signal<Out, Bits<COV_WIDTH>>,
    r_valid: DFF<Bit>,
    r_id: DFF<Bits<ID_WIDTH>>,
    mem_bytes: Constant<Bits<32>>,
}

impl SliceUnit {
    /// A unit with `mem_bytes` of memory (a multiple of 16).
    pub fn new(mem_bytes: usize) -> Self {
        assert!(mem_bytes > 0 && mem_bytes % 16 == 0, "memory size must be a positive multiple of 16");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            req_valid: Default::default(),
            req_ready: Default::default(),
            req_op: Default::default(),
            req_addr: Default::default(),
            req_data: Default::default(),
            req_id: Default::default(),
            rsp_valid: Default::default(),
            rsp_ready: Default::default(),
            rsp_id: Default::default(),
            rsp_data: Default::default(),
            rsp_status: Default::default(),
            cov: Default::default(),
            r_valid: Default::default(),
            r_id: Default::default(),
            mem_bytes: Constant::new((mem_bytes as u64).to_bits()),
        }
    }
}

impl Logic for SliceUnit {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, r_valid, r_id);
        self.req_ready.next = !self.r_valid.q.val() | self.rsp_ready.val();
        if self.rsp_ready.val() {
            self.r_valid.d.next = false;
        }
        if self.req_valid.val() & self.req_ready.val() {
            self.r_valid.d.next = true;
            self.r_id.d.next = self.req_id.val();
        }
        if self.reset.val() {
            self.r_valid.d.next = false;
        }
        self.rsp_valid.next = self.r_valid.q.val();
        self.rsp_id.next = self.r_id.q.val();
        self.rsp_data.next = 0.into();
        self.rsp_status.next = 0.into();
        self.cov.next = 0.into();
    }
}

/// The Verilog of the unit with `mem_bytes` of memory, as a `top` module.
pub fn unit_verilog(mem_bytes: usize) -> String {
    crate::verilog::verilog(&mut SliceUnit::new(mem_bytes))
}
