//! The redunit hardware in rust-hdl. The reduction ALU, its floating-point adders and the
//! L2-slice unit arrive here in the next issues; they take their form codes from
//! [`sim::form::encoding`].

pub use sim::form::encoding;
