//! A block's combinational logic written as sections: each an `#[hdl_gen] fn update` of its
//! own, joined in order into the block's one `update` and its one `always @(*)`.
//!
//! A long block (the unit's stages, a queue entry's wait state) reads as its parts while the
//! Verilog stays what one function writes: the same statements in the same order, so the
//! defaults set early and overridden later keep their meaning. A part with ports and state
//! of its own is a sub-block instead.
//!
//! ```ignore
//! pub(super) enum Issue {}
//! impl Section<Issue> for SliceUnit {
//!     #[hdl_gen]
//!     fn update(&mut self) { /* the issue stage's statements */ }
//! }
//! logic_sections!(SliceUnit: Setup, Issue, Read);
//! ```
//!
//! Keep `Section` out of scope where the block's `#[derive(LogicBlock)]` is: both traits
//! name `update` and `connect`.

use rust_hdl::prelude::ast::{Verilog, VerilogBlock};

/// One section `S` (an empty type naming it) of a block's logic; `#[hdl_gen]` writes
/// `connect` and `hdl` from `update`.
pub trait Section<S> {
    fn update(&mut self);
    fn connect(&mut self);
    fn hdl(&self) -> Verilog;
}

/// The statements of a section's Verilog (`#[hdl_gen]` writes one combinational block).
pub fn statements(section: Verilog) -> VerilogBlock {
    match section {
        Verilog::Combinatorial(block) => block,
        _ => panic!("a section's Verilog must be the combinational block #[hdl_gen] writes"),
    }
}

/// The block's [`Logic`](rust_hdl::prelude::Logic): its sections in order, in simulation and
/// in Verilog.
macro_rules! logic_sections {
    ($block:ty: $($section:ty),+ $(,)?) => {
        impl rust_hdl::prelude::Logic for $block {
            fn update(&mut self) {
                $(<Self as $crate::sections::Section<$section>>::update(self);)+
            }
            fn connect(&mut self) {
                $(<Self as $crate::sections::Section<$section>>::connect(self);)+
            }
            fn hdl(&self) -> rust_hdl::prelude::ast::Verilog {
                let mut block = vec![];
                $(block.extend($crate::sections::statements(
                    <Self as $crate::sections::Section<$section>>::hdl(self),
                ));)+
                rust_hdl::prelude::ast::Verilog::Combinatorial(block)
            }
        }
    };
}
pub(crate) use logic_sections;
