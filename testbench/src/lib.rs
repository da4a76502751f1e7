//! The redunit testbench: conformance against the H100 captures, the `eval` and `run`
//! contracts, and the engines behind them.

pub mod conformance;
pub mod cosim;
pub mod engine;
pub mod eval;
pub mod hex;
pub mod input_error;
pub mod rtl;
pub mod stimulus;
pub mod trace;

pub use input_error::InputError;
