//! The redunit golden model: every legal PTX `red` form bit-exact to NVIDIA H100 silicon
//! (`form`, `apply`, `fp`), and a transaction-level memory that executes request traces
//! (`memory`), the warp-wide `redux.sync` reduction (`redux`), and the `red.async` forms
//! (`red_async`) with the mbarrier they complete on (`mbarrier`).

pub mod apply;
pub mod form;
pub mod fp;
pub mod mbarrier;
pub mod memory;
pub mod ptx;
pub mod red_async;
pub mod redux;
pub mod sass;
pub mod spaces;
pub mod warp;

pub use apply::{apply, apply_elem, elem_mask};
pub use form::{Form, FormError, Op, Space, Type};
pub use memory::{Access, MemError, Memory, Request, Width, status_code};
pub use ptx::{AddrSpace, RedInstr, Scope, Sem};
pub use redux::{ReduxForm, ReduxFormError, ReduxOp, ReduxType};
pub use spaces::{Spaces, TraceOp};
pub use warp::{UnitRequest, WarpInst, WarpOutcome, WideWarpInst, coalesce, line_accesses};

/// One step of splitmix64: advances `state` and returns the next output. Used for the
/// exhaustive digests (see `h100/README.md`) and as the project's seeded random source.
#[inline(always)]
pub fn splitmix64_next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    splitmix64_mix(*state)
}

/// The splitmix64 output function applied to `z` (without the increment).
#[inline(always)]
pub fn splitmix64_mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The digest function of the exhaustive captures: `splitmix64(x)` as that README defines
/// it, which adds the increment first.
#[inline(always)]
pub fn splitmix64(x: u64) -> u64 {
    splitmix64_mix(x.wrapping_add(0x9E37_79B9_7F4A_7C15))
}
