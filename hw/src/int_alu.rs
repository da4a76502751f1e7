//! The integer and bitwise unit: add, and, or, xor, min, max (signed and unsigned) on 32 and
//! 64 bits, inc and dec on u32 (PTX definitions, which the H100 follows exactly).
//!
//! 32-bit forms use the low 32 bits of `a`/`b` and give a result with bits 63..32 zero.
//! Signed compares flip the sign bit and compare unsigned. Latency [`INT_ALU_LATENCY`] in the
//! default configuration (the inputs are registered and the result is computed from those
//! registers); the ALU delays the result to its common latency.
//!
//! The 64-bit work is split in two 32-bit halves with a candidate pipeline cut between them
//! ([`Config::int_stages`], 1 or 2: the cut `c1_*` is a wire at 1 and a register at 2):
//!
//! | segment | work |
//! | --- | --- |
//! | 1 (from the `s0_` registers; the type is decoded before them) | the low halves' add (with its carry out), the high halves' sums with carry in 0 and 1 (carry select), the compares of each half (less-than, and equal for the high half; the sign flip on the high half for s64 and on the low half for s32), `M + 1`, `M - 1` and the inc/dec conditions (u32 forms), the bitwise result, the op's kind one-hot |
//! | 2 (drives `y`) | the high half's sum selected by the low carry, the 64-bit less-than from the halves' compares, the min/max and inc/dec selects, an AND-OR of the candidates over the one-hot kind (no priority chain), the 32-bit mask |

use crate::config::{Config, Cut, HoldReg};
use crate::fp_add::bits_u128;
use crate::ecp5::hold_replica_reg::HoldReplicaReg;
use rust_hdl::prelude::*;
use sim::form::encoding::{OP_WIDTH, TYPE_WIDTH};
use sim::{Op, Type};

/// Cycles from inputs to `y` in the default configuration ([`Config::int_stages`] in
/// general).
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
    /// Operand isolation: the input registers keep their operands (this lane's result is
    /// not wanted; lanes fed the same operands then keep registers of their own).
    pub hold: Signal<In, Bit>,
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

    kind_add: Constant<Bits<4>>,
    kind_bitw: Constant<Bits<4>>,
    kind_minmax: Constant<Bits<4>>,
    kind_incdec: Constant<Bits<4>>,
    one32: Constant<Bits<32>>,
    bit31_32: Constant<Bits<32>>,
    zero32: Constant<Bits<32>>,

    // Decode of the type at the input (registered as s0_is64, s0_signed).
    is64: Signal<Local, Bit>,
    is_signed: Signal<Local, Bit>,
    // Segment 1.
    flip_lo: Signal<Local, Bits<32>>,
    flip_hi: Signal<Local, Bits<32>>,
    a_lo: Signal<Local, Bits<32>>,
    b_lo: Signal<Local, Bits<32>>,
    a_hi: Signal<Local, Bits<32>>,
    b_hi: Signal<Local, Bits<32>>,
    // Segment 2.
    lt_lo: Signal<Local, Bit>,
    hi_sum: Signal<Local, Bits<32>>,
    a_less: Signal<Local, Bit>,
    res: Signal<Local, Bits<64>>,
    /// The min/max result and the inc/dec result (segment 2's candidates besides add and
    /// bitwise).
    mm_r: Signal<Local, Bits<64>>,
    id_r: Signal<Local, Bits<64>>,

    // Candidate cut between the segments (`c1_`).
    /// The op's kind, one-hot: add (bit 0), bitwise (and/or/xor, bit 1), min/max (bit 2),
    /// inc/dec (bit 3).
    c1_kind: Cut<Bits<4>>,
    c1_max: Cut<Bit>,
    c1_is64: Cut<Bit>,
    c1_a: Cut<Bits<64>>,
    c1_b: Cut<Bits<64>>,
    /// The low halves' sum with its carry out (bit 32).
    c1_sum_lo: Cut<Bits<33>>,
    /// The high halves' sums with carry in 0 and 1 (carry select: segment 2 picks one by
    /// the low carry, so no carry chain follows the cut).
    c1_hi0: Cut<Bits<32>>,
    c1_hi1: Cut<Bits<32>>,
    /// The and/or/xor result.
    c1_bitw: Cut<Bits<64>>,
    /// `M + 1` and `M - 1` of the low halves (inc/dec are u32 forms only).
    c1_inc: Cut<Bits<32>>,
    c1_dec: Cut<Bits<32>>,
    /// The op is inc (else dec, for the inc/dec kind).
    c1_is_inc: Cut<Bit>,
    /// dec gives `b` when `M == 0 || M > b` (low halves): the two terms apart (`c1_dec_z`:
    /// `M == 0`, `c1_dec_gt`: `M > b`), ORed in segment 2 (the zero test and the compare's
    /// chain ORed before the cut make a critical path of the unit).
    c1_dec_z: Cut<Bit>,
    c1_dec_gt: Cut<Bit>,
    c1_lt_lo: Cut<Bit>,
    c1_lt_hi: Cut<Bit>,
    c1_eq_hi: Cut<Bit>,

    // Input registers (the result is combinational from them). The op and type bits hold
    // with the operands and each lane keeps its own (`HoldReplicaReg`): as plain registers,
    // Yosys merged the unit's four integer lanes' copies into one, whose fan-out to the
    // lanes' sign flips is a critical path at 150 MHz.
    s0_op: HoldReplicaReg<Bits<OP_WIDTH>>,
    s0_is64: HoldReplicaReg<Bit>,
    s0_signed: HoldReplicaReg<Bit>,
    s0_a: HoldReg<Bits<64>>,
    s0_b: HoldReg<Bits<64>>,
}

impl Default for IntAlu {
    /// The default configuration (latency [`INT_ALU_LATENCY`]).
    fn default() -> Self {
        Self::new(&Config::default())
    }
}

impl IntAlu {
    /// The unit at `cfg.int_stages` stages ([`Config::int_stages`]).
    pub fn new(cfg: &Config) -> Self {
        let on = cfg.int_stages > 1;
        let op = |o: Op| Constant::new(bits_u128(o as u128));
        let ty = |t: Type| Constant::new(bits_u128(t as u128));
        Self {
            clock: Default::default(),
            op: Default::default(),
            ty: Default::default(),
            a: Default::default(),
            b: Default::default(),
            hold: Default::default(),
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
            kind_add: Constant::new(bits_u128(1)),
            kind_bitw: Constant::new(bits_u128(2)),
            kind_minmax: Constant::new(bits_u128(4)),
            kind_incdec: Constant::new(bits_u128(8)),
            one32: Constant::new(bits_u128(1)),
            bit31_32: Constant::new(bits_u128(1 << 31)),
            zero32: Constant::new(bits_u128(0)),
            is64: Default::default(),
            is_signed: Default::default(),
            flip_lo: Default::default(),
            flip_hi: Default::default(),
            a_lo: Default::default(),
            b_lo: Default::default(),
            a_hi: Default::default(),
            b_hi: Default::default(),
            lt_lo: Default::default(),
            hi_sum: Default::default(),
            a_less: Default::default(),
            res: Default::default(),
            mm_r: Default::default(),
            id_r: Default::default(),
            c1_kind: Cut::new(on),
            c1_max: Cut::new(on),
            c1_is64: Cut::new(on),
            c1_a: Cut::new(on),
            c1_b: Cut::new(on),
            c1_sum_lo: Cut::new(on),
            c1_hi0: Cut::new(on),
            c1_hi1: Cut::new(on),
            c1_bitw: Cut::new(on),
            c1_inc: Cut::new(on),
            c1_dec: Cut::new(on),
            c1_is_inc: Cut::new(on),
            c1_dec_z: Cut::new(on),
            c1_dec_gt: Cut::new(on),
            c1_lt_lo: Cut::new(on),
            c1_lt_hi: Cut::new(on),
            c1_eq_hi: Cut::new(on),
            s0_op: Default::default(),
            s0_is64: Default::default(),
            s0_signed: Default::default(),
            s0_a: Default::default(),
            s0_b: Default::default(),
        }
    }
}

impl Logic for IntAlu {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(
            self, clock, s0_op, s0_is64, s0_signed, s0_a, s0_b, c1_kind, c1_max, c1_is64, c1_a, c1_b, c1_sum_lo, c1_hi0, c1_hi1, c1_bitw,
            c1_inc, c1_dec, c1_is_inc, c1_dec_z, c1_dec_gt, c1_lt_lo, c1_lt_hi, c1_eq_hi
        );

        // ==========================================================================
        // Input registers (s0_): the operands unchanged, the type decoded to width and
        // signedness.
        // ==========================================================================
        self.is64.next = (self.ty.val() == self.ty_b64.val())
            || (self.ty.val() == self.ty_u64.val())
            || (self.ty.val() == self.ty_s64.val());
        self.is_signed.next = (self.ty.val() == self.ty_s64.val()) || (self.ty.val() == self.ty_s32.val());
        self.s0_op.d.next = self.op.val();
        self.s0_is64.d.next = self.is64.val();
        self.s0_signed.d.next = self.is_signed.val();
        self.s0_op.hold.next = self.hold.val();
        self.s0_is64.hold.next = self.hold.val();
        self.s0_signed.hold.next = self.hold.val();
        // (Operand isolation: `hold` keeps the last operands.)
        self.s0_a.d.next = self.a.val();
        self.s0_b.d.next = self.b.val();
        self.s0_a.hold.next = self.hold.val();
        self.s0_b.hold.next = self.hold.val();

        // ==========================================================================
        // Segment 1 (from the s0_ registers): per 32-bit half, the low add, +1, -1, the
        // compares and the zero tests. The high halves of 32-bit operands may hold anything:
        // segment 2 ignores their compares and the output keeps only the low half.
        // ==========================================================================
        // Signed compare = unsigned compare with the sign bit flipped: bit 31 of the low half
        // for s32, of the high half for s64.
        self.flip_lo.next = self.zero32.val();
        self.flip_hi.next = self.zero32.val();
        if self.s0_signed.q.val() {
            if self.s0_is64.q.val() {
                self.flip_hi.next = self.bit31_32.val();
            } else {
                self.flip_lo.next = self.bit31_32.val();
            }
        }
        self.a_lo.next = self.s0_a.q.val().get_bits::<32>(0);
        self.b_lo.next = self.s0_b.q.val().get_bits::<32>(0);
        self.a_hi.next = self.s0_a.q.val().get_bits::<32>(32);
        self.b_hi.next = self.s0_b.q.val().get_bits::<32>(32);
        self.c1_sum_lo.d.next = bit_cast::<33, 32>(self.a_lo.val()) + bit_cast::<33, 32>(self.b_lo.val());
        self.c1_hi0.d.next = self.a_hi.val() + self.b_hi.val();
        // (a + b + 1 as a - !b: one carry chain with its carry-in set. Written `a + b + 1`,
        // synthesis shares `a + b` with `c1_hi0` and adds 1 in a second chain behind it: two
        // 32-bit chains in series, the unit's most frequent critical path.)
        self.c1_hi1.d.next = self.a_hi.val() - !self.b_hi.val();
        self.lt_lo.next = (self.a_lo.val() ^ self.flip_lo.val()) < (self.b_lo.val() ^ self.flip_lo.val());
        self.c1_lt_lo.d.next = self.lt_lo.val();
        self.c1_lt_hi.d.next = (self.a_hi.val() ^ self.flip_hi.val()) < (self.b_hi.val() ^ self.flip_hi.val());
        self.c1_eq_hi.d.next = self.a_hi.val() == self.b_hi.val();
        // inc and dec are u32 forms: their operands and conditions from the low halves.
        self.c1_inc.d.next = self.a_lo.val() + self.one32.val();
        self.c1_dec.d.next = self.a_lo.val() - self.one32.val();
        self.c1_is_inc.d.next = self.s0_op.q.val() == self.op_inc.val();
        // (dec is u32 only: its condition M == 0 || M > b is an unsigned compare of its own,
        // not the signed-capable `lt_lo` with an equality beside it: that was the flip LUT, a
        // shared chain and two LUTs, too long for one segment at 150 MHz.)
        self.c1_dec_z.d.next = !self.a_lo.val().any();
        self.c1_dec_gt.d.next = self.b_lo.val() < self.a_lo.val();
        self.c1_bitw.d.next = self.s0_a.q.val() ^ self.s0_b.q.val();
        if self.s0_op.q.val() == self.op_and.val() {
            self.c1_bitw.d.next = self.s0_a.q.val() & self.s0_b.q.val();
        } else if self.s0_op.q.val() == self.op_or.val() {
            self.c1_bitw.d.next = self.s0_a.q.val() | self.s0_b.q.val();
        }
        self.c1_kind.d.next = self.kind_incdec.val();
        if self.s0_op.q.val() == self.op_add.val() {
            self.c1_kind.d.next = self.kind_add.val();
        } else if (self.s0_op.q.val() == self.op_and.val())
            || (self.s0_op.q.val() == self.op_or.val())
            || (self.s0_op.q.val() == self.op_xor.val())
        {
            self.c1_kind.d.next = self.kind_bitw.val();
        } else if (self.s0_op.q.val() == self.op_min.val()) || (self.s0_op.q.val() == self.op_max.val()) {
            self.c1_kind.d.next = self.kind_minmax.val();
        }
        self.c1_max.d.next = self.s0_op.q.val() == self.op_max.val();
        self.c1_is64.d.next = self.s0_is64.q.val();
        self.c1_a.d.next = self.s0_a.q.val();
        self.c1_b.d.next = self.s0_b.q.val();

        // ==========================================================================
        // Segment 2 (after the c1_ cut, drives `y`): the high sum selected by the low carry,
        // the whole compare from the halves', the select by op.
        // ==========================================================================
        self.hi_sum.next = self.c1_hi0.q.val();
        if self.c1_sum_lo.q.val().get_bit(32) {
            self.hi_sum.next = self.c1_hi1.q.val();
        }
        self.a_less.next = self.c1_lt_lo.q.val();
        if self.c1_is64.q.val() {
            self.a_less.next = self.c1_lt_hi.q.val() || (self.c1_eq_hi.q.val() && self.c1_lt_lo.q.val());
        }
        // The candidates, then an AND-OR over the one-hot kind (no priority chain: the kind's
        // register bits fan out to one gate level per result bit).
        // min: a < b ? a : b; max: a < b ? b : a.
        self.mm_r.next = self.c1_b.q.val();
        if self.a_less.val() != self.c1_max.q.val() {
            self.mm_r.next = self.c1_a.q.val();
        }
        // inc: (M >= b) ? 0 : M + 1; dec: (M == 0 || M > b) ? b : M - 1.
        self.id_r.next = bit_cast::<64, 32>(self.c1_dec.q.val());
        if self.c1_dec_z.q.val() || self.c1_dec_gt.q.val() {
            self.id_r.next = self.c1_b.q.val();
        }
        if self.c1_is_inc.q.val() {
            self.id_r.next = bit_cast::<64, 32>(self.c1_inc.q.val());
            if !self.c1_lt_lo.q.val() {
                self.id_r.next = bit_cast::<64, 32>(self.zero32.val());
            }
        }
        self.res.next = bit_cast::<64, 32>(self.zero32.val());
        if self.c1_kind.q.val().get_bit(0) {
            self.res.next = (bit_cast::<64, 32>(self.hi_sum.val()) << 32)
                | bit_cast::<64, 32>(self.c1_sum_lo.q.val().get_bits::<32>(0));
        }
        if self.c1_kind.q.val().get_bit(1) {
            self.res.next = self.res.val() | self.c1_bitw.q.val();
        }
        if self.c1_kind.q.val().get_bit(2) {
            self.res.next = self.res.val() | self.mm_r.val();
        }
        if self.c1_kind.q.val().get_bit(3) {
            self.res.next = self.res.val() | self.id_r.val();
        }
        self.y.next = self.res.val() & self.low32.val();
        if self.c1_is64.q.val() {
            self.y.next = self.res.val();
        }
    }
}
