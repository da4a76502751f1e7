//! The redunit testbench: conformance against the H100 captures, the `eval` and `run`
//! contracts, and the engines behind them.

pub mod async_run;
pub mod axi;
pub mod axi_traffic;
pub mod conformance;
pub mod cosim;
pub mod engine;
pub mod eval;
pub mod gtkw;
pub mod hex;
pub mod input_error;
pub mod json_layout;
pub mod redux;
pub mod rtl;
pub mod shard;
pub mod soak;
pub mod stimulus;
pub mod top;
pub mod trace;
pub mod unit;
pub mod verilator_flags;
pub mod verilog_out;
pub mod unit_cosim;
pub mod traffic;
pub mod bench;
pub mod synth;
pub mod warp;
pub mod warp_trace;
pub mod space_trace;
pub mod mem_dump;

pub use input_error::InputError;
