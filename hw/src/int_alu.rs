//! The integer and bitwise unit: add, and, or, xor, min, max (signed and unsigned) on 32 and
//! 64 bits, inc and dec on u32 (PTX definitions, which the H100 follows exactly).
//!
//! 32-bit forms use the low 32 bits of `a`/`b` and give a result with bits 63..32 zero.
//! Signed compares flip the sign bit and compare unsigned. Latency [`INT_ALU_LATENCY`] (the
//! inputs are registered and the result is computed from those registers); the ALU delays the
//! result to its common latency.

use crate::fp_add::bits_u128;
use rust_hdl::prelude::*;
use sim::form::encoding::{OP_WIDTH, TYPE_WIDTH};
use sim::{Op, Type};

/// Cycles from inputs to `y`.
pub const INT_ALU_LATENCY: usize = 1;

#[derive(LogicBlock)]
pub struct IntAlu {
    pub clock: Signal<In, Clock>,
    /// The op field of the form code ([`Op`] discriminant).
    pub op: Signal<In, Bits<OP_WIDTH>>,
    /// The type field of the form code ([`Type`] discriminant).
    pub ty: Signal<In, Bits<TYPE_WIDTH>>,
    /// Old memory value `M`.
    pub a: Signal<In, Bits<64>>,
    /// Operand.
    pub b: Signal<In, Bits<64>>,
    /// The result, one cycle later.
    pub y: Signal<Out, Bits<64>>,

    op_add: Constant<Bits<OP_WIDTH>>,
    op_and: Constant<Bits<OP_WIDTH>>,
    op_or: Constant<Bits<OP_WIDTH>>,
    op_xor: Constant<Bits<OP_WIDTH>>,
    op_min: Constant<Bits<OP_WIDTH>>,
    op_max: Constant<Bits<OP_WIDTH>>,
    op_inc: Constant<Bits<OP_WIDTH>>,
    ty_b64: Constant<Bits<TYPE_WIDTH>>,
    ty_u64: Constant<Bits<TYPE_WIDTH>>,
    ty_s64: Constant<Bits<TYPE_WIDTH>>,
    ty_s32: Constant<Bits<TYPE_WIDTH>>,
    low32: Constant<Bits<64>>,
    bit31: Constant<Bits<64>>,
    bit63: Constant<Bits<64>>,
    one64: Constant<Bits<64>>,
    zero64: Constant<Bits<64>>,

    is64: Signal<Local, Bit>,
    is_signed: Signal<Local, Bit>,
    a_w: Signal<Local, Bits<64>>,
    b_w: Signal<Local, Bits<64>>,
    flip: Signal<Local, Bits<64>>,
    a_less: Signal<Local, Bit>,
    res: Signal<Local, Bits<64>>,

    // Input registers (the result is combinational from them).
    s0_op: DFF<Bits<OP_WIDTH>>,
    s0_ty: DFF<Bits<TYPE_WIDTH>>,
    s0_a: DFF<Bits<64>>,
    s0_b: DFF<Bits<64>>,
}

impl Default for IntAlu {
    fn default() -> Self {
        let op = |o: Op| Constant::new(bits_u128(o as u128));
        let ty = |t: Type| Constant::new(bits_u128(t as u128));
        Self {
            clock: Default::default(),
            op: Default::default(),
            ty: Default::default(),
            a: Default::default(),
            b: Default::default(),
            y: Default::default(),
            op_add: op(Op::Add),
            op_and: op(Op::And),
            op_or: op(Op::Or),
            op_xor: op(Op::Xor),
            op_min: op(Op::Min),
            op_max: op(Op::Max),
            op_inc: op(Op::Inc),
            ty_b64: ty(Type::B64),
            ty_u64: ty(Type::U64),
            ty_s64: ty(Type::S64),
            ty_s32: ty(Type::S32),
            low32: Constant::new(bits_u128(0xffff_ffff)),
            bit31: Constant::new(bits_u128(1 << 31)),
            bit63: Constant::new(bits_u128(1 << 63)),
            one64: Constant::new(bits_u128(1)),
            zero64: Constant::new(bits_u128(0)),
            is64: Default::default(),
            is_signed: Default::default(),
            a_w: Default::default(),
            b_w: Default::default(),
            flip: Default::default(),
            a_less: Default::default(),
            res: Default::default(),
            s0_op: Default::default(),
            s0_ty: Default::default(),
            s0_a: Default::default(),
            s0_b: Default::default(),
        }
    }
}

impl Logic for IntAlu {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, s0_op, s0_ty, s0_a, s0_b);

        // ==========================================================================
        // Input registers (s0_): the operands enter the pipeline unchanged.
        // ==========================================================================
        self.s0_op.d.next = self.op.val();
        self.s0_ty.d.next = self.ty.val();
        self.s0_a.d.next = self.a.val();
        self.s0_b.d.next = self.b.val();

        // ==========================================================================
        // Stage 1 (from the s0_ registers, drives `y`): decode width and signedness, compute, select by op.
        // ==========================================================================
        self.is64.next = (self.s0_ty.q.val() == self.ty_b64.val())
            || (self.s0_ty.q.val() == self.ty_u64.val())
            || (self.s0_ty.q.val() == self.ty_s64.val());
        self.is_signed.next =
            (self.s0_ty.q.val() == self.ty_s64.val()) || (self.s0_ty.q.val() == self.ty_s32.val());
        // Operands at the form's width (zero-extended 32-bit values).
        self.a_w.next = self.s0_a.q.val() & self.low32.val();
        self.b_w.next = self.s0_b.q.val() & self.low32.val();
        self.flip.next = self.bit31.val();
        if self.is64.val() {
            self.a_w.next = self.s0_a.q.val();
            self.b_w.next = self.s0_b.q.val();
            self.flip.next = self.bit63.val();
        }
        // Signed compare = unsigned compare with the sign bits flipped.
        if self.is_signed.val() {
            self.a_less.next = (self.a_w.val() ^ self.flip.val()) < (self.b_w.val() ^ self.flip.val());
        } else {
            self.a_less.next = self.a_w.val() < self.b_w.val();
        }
        if self.s0_op.q.val() == self.op_add.val() {
            self.res.next = self.a_w.val() + self.b_w.val();
        } else if self.s0_op.q.val() == self.op_and.val() {
            self.res.next = self.a_w.val() & self.b_w.val();
        } else if self.s0_op.q.val() == self.op_or.val() {
            self.res.next = self.a_w.val() | self.b_w.val();
        } else if self.s0_op.q.val() == self.op_xor.val() {
            self.res.next = self.a_w.val() ^ self.b_w.val();
        } else if self.s0_op.q.val() == self.op_min.val() {
            self.res.next = self.b_w.val();
            if self.a_less.val() {
                self.res.next = self.a_w.val();
            }
        } else if self.s0_op.q.val() == self.op_max.val() {
            self.res.next = self.a_w.val();
            if self.a_less.val() {
                self.res.next = self.b_w.val();
            }
        } else if self.s0_op.q.val() == self.op_inc.val() {
            // inc: (M >= b) ? 0 : M + 1
            self.res.next = self.a_w.val() + self.one64.val();
            if !self.a_less.val() {
                self.res.next = self.zero64.val();
            }
        } else {
            // dec: (M == 0 || M > b) ? b : M - 1
            self.res.next = self.a_w.val() - self.one64.val();
            if !self.a_w.val().any() || (self.b_w.val() < self.a_w.val()) {
                self.res.next = self.b_w.val();
            }
        }
        self.y.next = self.res.val() & self.low32.val();
        if self.is64.val() {
            self.y.next = self.res.val();
        }
    }
}
