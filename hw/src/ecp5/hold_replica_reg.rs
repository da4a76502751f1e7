//! A register replica with a load enable: [`crate::ecp5::replica_reg::ReplicaReg`] that keeps its
//! value while `hold` is high, like the [`crate::config::HoldReg`] it copies.
//!
//! An adder's operand register (a `HoldReg`, for operand isolation) feeds its first segment's
//! compares, exponent differences, unpack and the next stage's copy of the operand; its D comes
//! from the unit's old-value extract across the chip. A copy of some of its bits for one group
//! of consumers (the f32/f64 adders' exponent differences) must hold when the
//! operand holds, or the two would disagree. Under `REDUNIT_ECP5` each bit is an instantiated
//! `TRELLIS_FF` with its clock enable driven by `!hold` (no LUT before the D input, and no
//! optimisation pass merges it with the register it copies); elsewhere the behavioural
//! register, which synthesis merges with its original.
//!
//! The same block serves as a `HoldReg` of which every lane keeps its own: lanes fed the same
//! control bits under the same hold (the unit's integer lanes' op and type, the two f64
//! adders' `ftz` and NaN-quiet flags) would otherwise share one register fanned out to all of
//! them, a long route at 150 MHz.

use crate::ecp5::replica_reg::replica_verilog;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct HoldReplicaReg<T: Synth> {
    pub clock: Signal<In, Clock>,
    pub d: Signal<In, T>,
    /// High: keep `q` (the clock enable is `!hold`).
    pub hold: Signal<In, Bit>,
    /// `d` of the last cycle in which `hold` was low (zero at start).
    pub q: Signal<Out, T>,
}

impl<T: Synth> Default for HoldReplicaReg<T> {
    fn default() -> Self {
        Self { clock: Default::default(), d: Default::default(), hold: Default::default(), q: Default::default() }
    }
}

impl<T: Synth> Logic for HoldReplicaReg<T> {
    fn update(&mut self) {
        if self.clock.pos_edge() && !self.hold.val() {
            self.q.next = self.d.val();
        }
    }

    fn connect(&mut self) {
        self.q.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(replica_verilog(&format!("{:x}", T::default().verilog()), T::BITS, true))
    }

    fn timing(&self) -> Vec<TimingInfo> {
        vec![TimingInfo {
            name: "hold_replica_reg".into(),
            clock: "clock".into(),
            inputs: vec!["d".into(), "hold".into()],
            outputs: vec!["q".into()],
        }]
    }
}
