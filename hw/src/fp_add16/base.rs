//! The original f16/bf16 lane (3 stages, the default): the input registers and the pipeline
//! registers between its three stage blocks ([`super::base_stages`]).

use super::base_stages::{AddNormalise, RoundPack, Unpack};
use crate::config::HoldReg;
use crate::ecp5::replica_reg::ReplicaReg;
use rust_hdl::prelude::*;

/// The 3-stage lane: input registers `s0_`, stage 1 ([`Unpack`]), `s1_`, stage 2
/// ([`AddNormalise`]), `s2_`, stage 3 ([`RoundPack`]) driving `sum`. f16 exponents are
/// rebased to the bf16 bias (+112).
#[derive(LogicBlock, Default)]
pub struct Base16 {
    pub clock: Signal<In, Clock>,
    /// Old memory value `M`.
    pub a: Signal<In, Bits<16>>,
    /// Operand.
    pub b: Signal<In, Bits<16>>,
    /// Format: bf16 when high, f16 when low.
    pub bf16: Signal<In, Bit>,
    /// Operand isolation: the input registers keep their operands (this lane's result is
    /// not wanted; lanes fed the same operands then keep registers of their own).
    pub hold: Signal<In, Bit>,
    /// `a + b`, [`crate::config::FP16_STAGES_MIN`] cycles after the inputs.
    pub sum: Signal<Out, Bits<16>>,

    // Pipeline registers: s0_ holds the inputs, s1_/s2_ the results of stages 1/2.
    s0_a: HoldReg<Bits<16>>,
    s0_b: HoldReg<Bits<16>>,
    /// The format, a register of this lane's own (`ReplicaReg`): the lanes' format registers
    /// have one input, and merged they would be one register driving all 8 lanes.
    s0_bf16: ReplicaReg<Bit>,
    s1_sign: DFF<Bit>,
    s1_exp: DFF<Bits<8>>,
    s1_big: DFF<Bits<14>>,
    s1_small: DFF<Bits<14>>,
    s1_sub: DFF<Bit>,
    s1_special: DFF<Bit>,
    s1_special_val: DFF<Bits<16>>,
    s1_bf16: DFF<Bit>,
    s2_sign: DFF<Bit>,
    s2_exp: DFF<Bits<8>>,
    s2_norm: DFF<Bits<14>>,
    s2_zero: DFF<Bit>,
    s2_special: DFF<Bit>,
    s2_special_val: DFF<Bits<16>>,
    s2_bf16: DFF<Bit>,

    // The stages' logic.
    unpack: Unpack,
    add_normalise: AddNormalise,
    round_pack: RoundPack,
}

impl Logic for Base16 {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, s0_a, s0_b);
        dff_setup!(self, clock, s1_sign, s1_exp, s1_big, s1_small, s1_sub, s1_special, s1_special_val, s1_bf16);
        dff_setup!(self, clock, s2_sign, s2_exp, s2_norm, s2_zero, s2_special, s2_special_val, s2_bf16);

        // ==========================================================================
        // Input registers (s0_): the operands enter the pipeline unchanged, so no logic
        // sits between the ports and the first registers.
        // ==========================================================================
        // (Operand isolation: `hold` keeps the last operands.)
        self.s0_a.d.next = self.a.val();
        self.s0_b.d.next = self.b.val();
        self.s0_a.hold.next = self.hold.val();
        self.s0_b.hold.next = self.hold.val();
        self.s0_bf16.clock.next = self.clock.val();
        self.s0_bf16.d.next = self.bf16.val();

        // ==========================================================================
        // Stage 1 (from s0_): unpack, specials, compare and swap, align; into s1_.
        // ==========================================================================
        self.unpack.a.next = self.s0_a.q.val();
        self.unpack.b.next = self.s0_b.q.val();
        self.unpack.bf16.next = self.s0_bf16.q.val();
        self.s1_sign.d.next = self.unpack.sign.val();
        self.s1_exp.d.next = self.unpack.exp.val();
        self.s1_big.d.next = self.unpack.big_x.val();
        self.s1_small.d.next = self.unpack.small_x.val();
        self.s1_sub.d.next = self.unpack.sub.val();
        self.s1_special.d.next = self.unpack.special.val();
        self.s1_special_val.d.next = self.unpack.special_val.val();
        self.s1_bf16.d.next = self.s0_bf16.q.val();

        // ==========================================================================
        // Stage 2 (from s1_): add/subtract, leading-zero count, normalise; into s2_.
        // ==========================================================================
        self.add_normalise.sign.next = self.s1_sign.q.val();
        self.add_normalise.exp.next = self.s1_exp.q.val();
        self.add_normalise.big_x.next = self.s1_big.q.val();
        self.add_normalise.small_x.next = self.s1_small.q.val();
        self.add_normalise.sub.next = self.s1_sub.q.val();
        self.add_normalise.bf16.next = self.s1_bf16.q.val();
        self.s2_norm.d.next = self.add_normalise.norm_sig.val();
        self.s2_exp.d.next = self.add_normalise.norm_exp.val();
        self.s2_zero.d.next = self.add_normalise.zero.val();
        self.s2_sign.d.next = self.add_normalise.sum_sign.val();
        self.s2_special.d.next = self.s1_special.q.val();
        self.s2_special_val.d.next = self.s1_special_val.q.val();
        self.s2_bf16.d.next = self.s1_bf16.q.val();

        // ==========================================================================
        // Stage 3 (from s2_, drives `sum`): round, pack, overflow, specials.
        // ==========================================================================
        self.round_pack.sign.next = self.s2_sign.q.val();
        self.round_pack.exp.next = self.s2_exp.q.val();
        self.round_pack.norm.next = self.s2_norm.q.val();
        self.round_pack.zero.next = self.s2_zero.q.val();
        self.round_pack.special.next = self.s2_special.q.val();
        self.round_pack.special_val.next = self.s2_special_val.q.val();
        self.round_pack.bf16.next = self.s2_bf16.q.val();
        self.sum.next = self.round_pack.sum.val();
    }
}
