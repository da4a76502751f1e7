//! The redunit hardware in rust-hdl: the reduction ALU and its units, the L2-slice unit, the
//! warp coalescer, the async unit with its mbarriers and the `redux.sync` block. Form codes
//! come from [`sim::form::encoding`]; the design is described in `docs/architecture.md`.
//!
//! | file | block |
//! | --- | --- |
//! | `alu/` | [`ReductionAlu`]: decode, lanes, select, common latency (sub-blocks: control decode with operand isolation, output select) |
//! | `config.rs` | [`Config`]: the pipeline depths (generator parameters); [`config::Cut`], a candidate register |
//! | `int_alu.rs` | [`int_alu::IntAlu`]: 32/64-bit integer and bitwise ops |
//! | `fp_add/` | [`fp_add::FpAddF32`], [`fp_add::FpAddF64`]: pipelined adders from one generic design, a block per stage group |
//! | `fp_add16/` | [`fp_add16::FpAdd16`]: pipelined f16/bf16 add lane with a format select, a block per stage group |
//! | `fp_minmax16.rs` | [`fp_minmax16::FpMinMax16`]: f16/bf16 min/max lane |
//! | `lut_ram.rs` | [`lut_ram::LutRam`]: a small distributed (LUT) RAM, asynchronous read |
//! | `old_extract.rs` | [`old_extract::OldExtract`]: an access's old value from register replicas of its line and shift (the unit's compute stage) |
//! | `ecp5/` | [`ecp5`]: ECP5 cells and placement aids behind generic blocks (register replicas, the RAM/forward mux, the block RAM) |
//! | `redux_sync.rs` | [`ReduxSync`]: the pipelined 32-lane `redux.sync` warp reduction |
//! | `sections.rs` | [`sections::Section`]: a block's logic written as sections joined into its one combinational block |
//! | `slice_unit/` | [`SliceUnit`]: the L2-slice unit: request/response ports, ordering, memory, ALUs, forwarding |
//! | `ordering_queue/` | [`ordering_queue::OrderingQueue`]: the unit's queue, arrival order per 16-byte line, other lines overtake (sub-blocks: push handshake, slots, push compares, history, pick, per-entry wait state) |
//! | `line_memory.rs` | [`line_memory::LineMemory`]: the unit's memory of 16-byte lines, synchronous read (block RAM) |
//! | `response_fifo.rs` | [`response_fifo::ResponseFifo`]: the unit's responses waiting for `rsp_ready` |
//! | `mbarrier/` | [`mbarrier::Mbarrier`]: a table of 8 mbarrier objects by address (phase, arrivals, tx-count), barrier ops and complete-tx; each object a [`mbarrier::MbarSlot`] |
//! | `async_unit.rs` | [`AsyncUnit`]: `SliceUnit` + `Mbarrier`, `red.async` completion by complete-tx |
//! | `warp_coalescer.rs` | [`WarpCoalescer`]: warp `RED` → masked sector requests; [`WarpUnit`]: it in front of the unit |
//! | `axi/` | [`axi::AxiUnit`]: an AXI4 subordinate with AXI5 atomics in front of the unit (`docs/axi.md`) |
//! | `verilog.rs` | [`verilog::verilog`]: Verilog of any block, as shipped and simulated |

pub mod alu;
pub mod async_unit;
pub mod axi;
pub mod config;
pub mod ecp5;
pub mod fp_add;
pub mod fp_add16;
pub mod fp_minmax16;
pub mod int_alu;
pub mod line_memory;
pub mod lut_ram;
pub mod mbarrier;
pub mod old_extract;
pub mod ordering_queue;
pub mod redux_sync;
pub mod response_fifo;
pub mod sections;
pub mod slice_unit;
pub mod verilog;
pub mod warp_coalescer;

/// A sized constant (a Verilog localparam of `N` bits) holding `v`: the one helper the blocks
/// use for their encodings, tables and masks.
pub(crate) fn k<const N: usize>(v: u128) -> rust_hdl::prelude::Constant<rust_hdl::prelude::Bits<N>> {
    rust_hdl::prelude::Constant::new(fp_add::bits_u128(v))
}

pub use alu::{ALU_LATENCY, AluUnit, ReductionAlu, alu_verilog, alu_verilog_with, latency, unit_lanes};
pub use async_unit::{ASYNC_COMPLETION_BOUND, ASYNC_FLIP_LATENCY, AsyncUnit, async_verilog};
pub use axi::{AxiUnit, axi_verilog, axi_verilog_with};
pub use config::Config;
pub use mbarrier::mbarrier_verilog;
pub use redux_sync::{REDUX_LATENCY, ReduxSync, redux_verilog};
pub use sim::form::encoding;
pub use slice_unit::{COVERAGE_POINTS, SliceUnit, UNIT_MIN_LATENCY, unit_latency, unit_verilog, unit_verilog_with};
pub use warp_coalescer::{WarpCoalescer, WarpUnit, warp_verilog};
