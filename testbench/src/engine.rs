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
        out.extend(ops.iter().map(|op| {
            if op.form.is_vector() {
                sim::apply(op.form, op.old, op.b)
            } else {
                sim::apply_elem(op.form, op.old as u64, op.b as u64) as u128
            }
        }));
        Ok(())
    }
}

/// The engines a command can use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EngineKind {
    /// The software golden model (`sim/`).
    Model,
}

impl EngineKind {
    pub fn alu(self) -> Box<dyn AluEngine> {
        match self {
            EngineKind::Model => Box::new(ModelAlu),
        }
    }
}
