//! ECP5-specific cells and placement aids, kept apart from the design logic.
//!
//! Each block here is a generic block first: its Verilog is plain, vendor-neutral RTL that any
//! simulator and synthesis tool reads. Under the define `REDUNIT_ECP5` (which `redunit synth`
//! sets) the same block instantiates ECP5 cells instead, so that synthesis keeps a structure
//! the placer needs: a register duplicated per consumer group, a mux with the late input in
//! its last LUT, a block RAM with its own output register. The design logic uses these blocks
//! by what they do (a register, a replica, a select); which cells they become is decided here.
//!
//! | file | block |
//! | --- | --- |
//! | `replica_reg.rs` | [`ReplicaReg`]: a register that synthesis keeps as its own copy (register duplication; `TRELLIS_FF` per bit); [`DOnlyReg`], the same cell for a register whose clear or enable must stay in its D logic (no `LSR`/`CE` inference) |
//! | `hold_replica_reg.rs` | [`HoldReplicaReg`]: the same with a load enable (`hold`), a copy of a `HoldReg` |
//! | `ram_forward_mux.rs` | [`RamForwardMux`]: the forwarded line or the RAM's, per quarter, the RAM bit in the last LUT (`LUT4` per bit) |
//! | `mux_add.rs` | [`MuxAdd`]: a 32-bit add whose first operand is a 2:1 select, the select in the carry cells' LUTs (`CCU2C`), for a loop closed at an adder |
//! | `bram.rs` | [`bram::line_brams`]: the line memory as 32 `DP16KD` with their output register |

pub mod bram;
pub mod hold_replica_reg;
pub mod mux_add;
pub mod ram_forward_mux;
pub mod replica_reg;

pub use hold_replica_reg::HoldReplicaReg;
pub use mux_add::MuxAdd;
pub use ram_forward_mux::RamForwardMux;
pub use replica_reg::ReplicaReg;

/// A register whose next value is all in its D logic: synthesis cannot move a clear or a load
/// enable onto the slice's `LSR` or `CE` input (an `LSR` input has a route of its own and 0.4
/// ns of setup, after the same decode). The cell of [`ReplicaReg`].
pub type DOnlyReg<T> = ReplicaReg<T>;
