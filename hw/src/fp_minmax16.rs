//! One 16-bit floating-point min/max lane (f16 or bf16, IEEE minNum/maxNum as measured on
//! the H100): one NaN operand gives the other operand, two give `7fff`, `-0 < +0`,
//! subnormals kept.
//!
//! The compare maps sign-magnitude bits to an unsigned key that orders like the values
//! (negative: all bits inverted; positive: sign bit set), so one 16-bit unsigned compare
//! orders every non-NaN pair including the signed zeros. Latency [`MINMAX16_LATENCY`] (the
//! inputs are registered and the result is computed from those registers); the ALU delays the
//! result to its common latency.

use crate::config::{Config, Cut, HoldReg};
use crate::fp_add::bits_u128;
use rust_hdl::prelude::*;

/// Cycles from inputs to `y`.
pub const MINMAX16_LATENCY: usize = 1;

#[derive(LogicBlock)]
pub struct FpMinMax16 {
    pub clock: Signal<In, Clock>,
    /// Old memory value `M`.
    pub a: Signal<In, Bits<16>>,
    /// Operand.
    pub b: Signal<In, Bits<16>>,
    /// Format: bf16 when high, f16 when low.
    pub bf16: Signal<In, Bit>,
    /// max when high, min when low.
    pub max: Signal<In, Bit>,
    /// Operand isolation: the input registers keep their operands (this lane's result is
    /// not wanted; lanes fed the same operands then keep registers of their own).
    pub hold: Signal<In, Bit>,
    /// The result, one cycle later.
    pub y: Signal<Out, Bits<16>>,

    mag_mask: Constant<Bits<16>>,
    sign16: Constant<Bits<16>>,
    f16_inf: Constant<Bits<16>>,
    bf16_inf: Constant<Bits<16>>,
    nan16: Constant<Bits<16>>,

    inf: Signal<Local, Bits<16>>,
    a_nan: Signal<Local, Bit>,
    b_nan: Signal<Local, Bit>,
    a_key: Signal<Local, Bits<16>>,
    b_key: Signal<Local, Bits<16>>,
    a_less: Signal<Local, Bit>,

    // Input registers (the result is combinational from them).
    s0_a: HoldReg<Bits<16>>,
    s0_b: HoldReg<Bits<16>>,
    s0_bf16: DFF<Bit>,
    s0_max: DFF<Bit>,
    /// The candidate cut between the compare and the select ([`Config::minmax16_latency`] 2).
    c_a: Cut<Bits<16>>,
    c_b: Cut<Bits<16>>,
    c_max: Cut<Bit>,
    c_anan: Cut<Bit>,
    c_bnan: Cut<Bit>,
    c_less: Cut<Bit>,
}

impl Default for FpMinMax16 {
    /// The one-stage lane ([`MINMAX16_LATENCY`]).
    fn default() -> Self {
        FpMinMax16::new(&Config::default())
    }
}

impl FpMinMax16 {
    /// The lane at the depth of `cfg` ([`Config::minmax16_latency`]: 1, or 2 with the compare
    /// and the select in separate cycles).
    pub fn new(cfg: &Config) -> Self {
        let cut = cfg.minmax16_latency() > MINMAX16_LATENCY;
        Self {
            clock: Default::default(),
            a: Default::default(),
            b: Default::default(),
            bf16: Default::default(),
            max: Default::default(),
            hold: Default::default(),
            y: Default::default(),
            mag_mask: Constant::new(bits_u128(0x7fff)),
            sign16: Constant::new(bits_u128(0x8000)),
            f16_inf: Constant::new(bits_u128(0x7c00)),
            bf16_inf: Constant::new(bits_u128(0x7f80)),
            nan16: Constant::new(bits_u128(sim::fp::H_NAN as u128)),
            inf: Default::default(),
            a_nan: Default::default(),
            b_nan: Default::default(),
            a_key: Default::default(),
            b_key: Default::default(),
            a_less: Default::default(),
            s0_a: Default::default(),
            s0_b: Default::default(),
            s0_bf16: Default::default(),
            s0_max: Default::default(),
            c_a: Cut::new(cut),
            c_b: Cut::new(cut),
            c_max: Cut::new(cut),
            c_anan: Cut::new(cut),
            c_bnan: Cut::new(cut),
            c_less: Cut::new(cut),
        }
    }
}

impl Logic for FpMinMax16 {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, s0_bf16, s0_max);
        clock!(self, clock, s0_a, s0_b, c_a, c_b, c_max, c_anan, c_bnan, c_less);

        // ==========================================================================
        // Input registers (s0_): the operands enter the pipeline unchanged.
        // ==========================================================================
        // (Operand isolation: `hold` keeps the last operands.)
        self.s0_a.d.next = self.a.val();
        self.s0_b.d.next = self.b.val();
        self.s0_a.hold.next = self.hold.val();
        self.s0_b.hold.next = self.hold.val();
        self.s0_bf16.d.next = self.bf16.val();
        self.s0_max.d.next = self.max.val();

        // ==========================================================================
        // Stage 1 (from the s0_ registers, drives `y`): NaN detection, ordering keys, compare, select.
        // ==========================================================================
        self.inf.next = self.f16_inf.val();
        if self.s0_bf16.q.val() {
            self.inf.next = self.bf16_inf.val();
        }
        self.a_nan.next = (self.s0_a.q.val() & self.mag_mask.val()) > self.inf.val();
        self.b_nan.next = (self.s0_b.q.val() & self.mag_mask.val()) > self.inf.val();
        self.a_key.next = self.s0_a.q.val() | self.sign16.val();
        if self.s0_a.q.val().get_bit(15) {
            self.a_key.next = !self.s0_a.q.val();
        }
        self.b_key.next = self.s0_b.q.val() | self.sign16.val();
        if self.s0_b.q.val().get_bit(15) {
            self.b_key.next = !self.s0_b.q.val();
        }
        self.a_less.next = self.a_key.val() < self.b_key.val();
        self.c_a.d.next = self.s0_a.q.val();
        self.c_b.d.next = self.s0_b.q.val();
        self.c_max.d.next = self.s0_max.q.val();
        self.c_anan.d.next = self.a_nan.val();
        self.c_bnan.d.next = self.b_nan.val();
        self.c_less.d.next = self.a_less.val();
        if self.c_anan.q.val() && self.c_bnan.q.val() {
            self.y.next = self.nan16.val();
        } else if self.c_anan.q.val() {
            self.y.next = self.c_b.q.val();
        } else if self.c_bnan.q.val() {
            self.y.next = self.c_a.q.val();
        } else if self.c_less.q.val() != self.c_max.q.val() {
            self.y.next = self.c_a.q.val();
        } else {
            self.y.next = self.c_b.q.val();
        }
    }
}
