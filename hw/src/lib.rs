//! The redunit hardware in rust-hdl: the reduction ALU and (later) the L2-slice unit. Form
//! codes come from [`sim::form::encoding`].

pub mod alu;

pub use alu::{ALU_LATENCY, ReductionAlu, alu_verilog};
pub use sim::form::encoding;
