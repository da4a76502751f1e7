//! The reduction ALU: executes every legal `red` form over a 128-bit datapath.
//!
//! INTERFACE STUB: the ports and `ALU_LATENCY` are the contract with the testbench; the
//! datapath below only passes `in_old` through and is replaced by the real ALU.

use rust_hdl::prelude::*;
use sim::form::encoding::CODE_WIDTH;

/// Cycles from a request on the input ports (`in_valid` high at a rising edge) to its result
/// on `out_valid`/`out_data`.
pub const ALU_LATENCY: usize = 2;

#[derive(LogicBlock)]
pub struct ReductionAlu {
    pub clock: Signal<In, Clock>,
    /// A new operation this cycle.
    pub in_valid: Signal<In, Bit>,
    /// The form code ([`sim::Form::code`]).
    pub in_form: Signal<In, Bits<CODE_WIDTH>>,
    /// Old memory value: the scalar in its low bits, or the whole vector (element 0 lowest).
    pub in_old: Signal<In, Bits<128>>,
    /// Operand, laid out like `in_old`.
    pub in_b: Signal<In, Bits<128>>,
    /// The result of the operation that entered `ALU_LATENCY` cycles ago.
    pub out_valid: Signal<Out, Bit>,
    pub out_form: Signal<Out, Bits<CODE_WIDTH>>,
    pub out_data: Signal<Out, Bits<128>>,
    s1_valid: DFF<Bit>,
    s1_form: DFF<Bits<CODE_WIDTH>>,
    s1_data: DFF<Bits<128>>,
    s2_valid: DFF<Bit>,
    s2_form: DFF<Bits<CODE_WIDTH>>,
    s2_data: DFF<Bits<128>>,
}

impl Default for ReductionAlu {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            in_valid: Default::default(),
            in_form: Default::default(),
            in_old: Default::default(),
            in_b: Default::default(),
            out_valid: Default::default(),
            out_form: Default::default(),
            out_data: Default::default(),
            s1_valid: Default::default(),
            s1_form: Default::default(),
            s1_data: Default::default(),
            s2_valid: Default::default(),
            s2_form: Default::default(),
            s2_data: Default::default(),
        }
    }
}

impl Logic for ReductionAlu {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, s1_valid, s1_form, s1_data, s2_valid, s2_form, s2_data);
        self.s1_valid.d.next = self.in_valid.val();
        self.s1_form.d.next = self.in_form.val();
        self.s1_data.d.next = self.in_old.val();
        self.s2_valid.d.next = self.s1_valid.q.val();
        self.s2_form.d.next = self.s1_form.q.val();
        self.s2_data.d.next = self.s1_data.q.val();
        self.out_valid.next = self.s2_valid.q.val();
        self.out_form.next = self.s2_form.q.val();
        self.out_data.next = self.s2_data.q.val();
    }
}

/// The Verilog of the ALU as a `top` module.
pub fn alu_verilog() -> String {
    let mut uut = ReductionAlu::default();
    uut.connect_all();
    generate_verilog(&uut)
}
