//! Engines that execute reduction instructions: the golden model, and (when built) the
//! Verilated RTL. Every command that takes `--engine` goes through this trait.

use sim::Form;

/// One instruction for the reduction ALU: the whole old value and operand (all elements of a
/// vector form, element 0 in the low bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AluOp {
    pub form: Form,
    pub old: u128,
    pub b: u128,
}

/// Executes ALU instructions in order.
pub trait AluEngine {
    /// Appends the new value of each op of `ops` to `out`, in order.
    fn execute(&mut self, ops: &[AluOp], out: &mut Vec<u128>) -> anyhow::Result<()>;
}

/// The golden model.
#[derive(Default)]
pub struct ModelAlu;

impl AluEngine for ModelAlu {
    fn execute(&mut self, ops: &[AluOp], out: &mut Vec<u128>) -> anyhow::Result<()> {
        out.extend(ops.iter().map(golden));
        Ok(())
    }
}

/// The golden model's result of one instruction (the whole value of a vector form; a scalar
/// form in the low bits, with the bits above its element zero).
#[inline]
pub fn golden(op: &AluOp) -> u128 {
    if op.form.is_vector() {
        sim::apply(op.form, op.old, op.b)
    } else {
        sim::apply_elem(op.form, op.old as u64, op.b as u64) as u128 & sim::elem_mask(op.form.elem_bits()) as u128
    }
}

/// The bits of an instruction's value that belong to it: all `form.bytes()` bytes. What an
/// engine returns above them (the high bits of a scalar) is not part of the result.
#[inline]
pub fn result_mask(form: Form) -> u128 {
    let bits = form.bytes() * 8;
    if bits >= 128 { u128::MAX } else { (1u128 << bits) - 1 }
}

/// The engines a command can use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EngineKind {
    /// The software golden model (`sim/`).
    Model,
    /// The Verilated RTL: the reduction ALU (`hw::ReductionAlu`) for `eval` and
    /// `conformance`, the L2-slice unit (`hw::SliceUnit`) for `run`.
    Rtl,
}

impl EngineKind {
    pub fn alu(self) -> Box<dyn AluEngine> {
        match self {
            EngineKind::Model => Box::new(ModelAlu),
            EngineKind::Rtl => Box::new(crate::rtl::RtlAlu::new()),
        }
    }
}
