//! The segmented f16/bf16 lane (4 stages and more): the input registers and the blocks of its
//! segments, wired in pipeline order. Each block starts with the candidate cut (or pipeline
//! register) in front of it.

use super::deep_add::{Add, Align};
use super::deep_normalise::Normalise;
use super::deep_round::{Pack, Round};
use super::deep_unpack::{Classify, Swap};
use crate::config::HoldReg;
use crate::ecp5::replica_reg::ReplicaReg;
use rust_hdl::prelude::*;

/// The segmented lane: input registers `s0_`, [`Classify`] (segment A), [`Swap`] (`ccmp`, B),
/// [`Align`] (`csh`, C), [`Add`] (`s1_`, D), [`Normalise`] (`csum`, F, `cnrm`, H), [`Round`]
/// (`s2_`, I), [`Pack`] (`crnd`, J, `cout`) driving `sum`.
#[derive(LogicBlock)]
pub struct Deep16 {
    pub clock: Signal<In, Clock>,
    pub a: Signal<In, Bits<16>>,
    pub b: Signal<In, Bits<16>>,
    pub bf16: Signal<In, Bit>,
    pub hold: Signal<In, Bit>,
    pub sum: Signal<Out, Bits<16>>,
    s0_a: HoldReg<Bits<16>>,
    s0_b: HoldReg<Bits<16>>,
    /// The format, a register of this lane's own (`ReplicaReg`): the lanes' format registers
    /// have one input, and merged they would be one register driving all 8 lanes.
    s0_bf16: ReplicaReg<Bit>,
    classify: Classify,
    swap: Swap,
    align: Align,
    add: Add,
    normalise: Normalise,
    round: Round,
    pack: Pack,
}

impl Deep16 {
    /// The cuts whose priority index is set in `mask` are registers.
    pub fn new(mask: u32) -> Self {
        Self {
            clock: Default::default(),
            a: Default::default(),
            b: Default::default(),
            bf16: Default::default(),
            hold: Default::default(),
            sum: Default::default(),
            s0_a: Default::default(),
            s0_b: Default::default(),
            s0_bf16: Default::default(),
            classify: Default::default(),
            swap: Swap::new(mask),
            align: Align::new(mask),
            add: Default::default(),
            normalise: Normalise::new(mask),
            round: Default::default(),
            pack: Pack::new(mask),
        }
    }
}

impl Logic for Deep16 {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, s0_a, s0_b, s0_bf16, swap, align, add, normalise, round, pack);
        // ==========================================================================
        // Input registers (s0_). (Operand isolation: `hold` keeps the last operands.)
        // ==========================================================================
        self.s0_a.d.next = self.a.val();
        self.s0_b.d.next = self.b.val();
        self.s0_a.hold.next = self.hold.val();
        self.s0_b.hold.next = self.hold.val();
        self.s0_bf16.d.next = self.bf16.val();

        // ==========================================================================
        // Stage 1: classify (A), swap (B), align (C).
        // ==========================================================================
        self.classify.a.next = self.s0_a.q.val();
        self.classify.b.next = self.s0_b.q.val();
        self.classify.bf16.next = self.s0_bf16.q.val();
        self.swap.lt_hi.next = self.classify.lt_hi.val();
        self.swap.eq_hi.next = self.classify.eq_hi.val();
        self.swap.lt_lo.next = self.classify.lt_lo.val();
        self.swap.a_sig.next = self.classify.a_sig.val();
        self.swap.b_sig.next = self.classify.b_sig.val();
        self.swap.a_exp.next = self.classify.a_exp.val();
        self.swap.b_exp.next = self.classify.b_exp.val();
        self.swap.fl.next = self.classify.fl.val();
        self.align.big_sig.next = self.swap.big_sig.val();
        self.align.small_sig.next = self.swap.small_sig.val();
        self.align.big_exp.next = self.swap.big_exp.val();
        self.align.sh.next = self.swap.sh.val();
        self.align.far.next = self.swap.far.val();
        self.align.sb_b.next = self.swap.sb_b.val();

        // ==========================================================================
        // Stage 2: add (D), leading-zero count and normalise (F, H).
        // ==========================================================================
        self.add.big_x.next = self.align.big_x.val();
        self.add.small_x.next = self.align.small_x.val();
        self.add.exp.next = self.align.exp.val();
        self.add.mark.next = self.align.mark.val();
        self.add.sb.next = self.align.sb.val();
        self.normalise.sum.next = self.add.sum.val();
        self.normalise.e_0.next = self.add.e_0.val();
        self.normalise.e_p1.next = self.add.e_p1.val();
        self.normalise.e_m4.next = self.add.e_m4.val();
        self.normalise.e_m8.next = self.add.e_m8.val();
        self.normalise.e_m12.next = self.add.e_m12.val();
        self.normalise.sum_mark.next = self.add.sum_mark.val();
        self.normalise.sum_sb.next = self.add.sum_sb.val();

        // ==========================================================================
        // Stage 3: round (I) and pack (J), driving `sum`.
        // ==========================================================================
        self.round.norm.next = self.normalise.norm.val();
        self.round.norm_exp.next = self.normalise.norm_exp.val();
        self.round.norm_sb.next = self.normalise.norm_sb.val();
        self.pack.sig.next = self.round.sig.val();
        self.pack.ef0.next = self.round.ef0.val();
        self.pack.ef1.next = self.round.ef1.val();
        self.pack.ef2.next = self.round.ef2.val();
        self.pack.ov.next = self.round.ov.val();
        self.pack.sb.next = self.round.sb.val();
        self.sum.next = self.pack.sum.val();
    }
}
