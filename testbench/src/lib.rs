//! The redunit testbench: conformance against the H100 captures, the `eval` and `run`
//! contracts, and the engines behind them.

pub mod async_run;
pub mod axi;
pub mod axi_traffic;
pub mod bench;
pub mod conformance;
pub mod cosim;
pub mod engine;
pub mod eval;
pub mod gtkw;
pub mod hex;
pub mod input_error;
pub mod json_layout;
pub mod mem_dump;
pub mod redux;
pub mod rtl;
pub mod shard;
pub mod soak;
pub mod space_trace;
pub mod stimulus;
pub mod synth;
pub mod top;
pub mod trace;
pub mod traffic;
pub mod unit;
pub mod unit_cosim;
pub mod unit_library;
pub mod verilator_flags;
pub mod verilog_out;
pub mod warp;
pub mod warp_trace;

pub use input_error::InputError;
