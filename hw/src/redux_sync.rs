//! `redux.sync`: a pipelined 32-lane warp reduction, one warp instruction per cycle.
//!
//! The form code is decoded with the field positions of [`sim::redux::encoding`]; the
//! behaviour is [`sim::redux::reduce`] (add/min/max on u32/s32, and/or/xor on b32, min/max on
//! f32 with `.abs` and `.NaN`; an empty mask gives the op's identity, f32 the canonical NaN).
//!
//! Every op runs on one datapath: each lane's source is mapped to a 32-bit *key* on which the
//! op is plain unsigned arithmetic, a binary tree of 31 [`ReduxNode`]s (add, and, or, xor,
//! unsigned min, unsigned max) reduces the 32 keys, and the root key is mapped back:
//!
//! | form | key of `x` | lane outside the mask (and f32 NaN) |
//! | --- | --- | --- |
//! | add, and, or, xor; u32 min/max | `x` | identity: add/or/xor 0, and `ffffffff` |
//! | s32 min/max | `x ^ 80000000` (signed order = unsigned order of the key) | min `ffffffff`, max 0 |
//! | f32 min/max | `x` with the sign cleared under `.abs`, then `~x` if negative, else `x \| 80000000` (a total order with -0.0 < +0.0) | min `ffffffff`, max 0 |
//!
//! No non-NaN f32 value has key `ffffffff` or 0 (those are +NaN `7fffffff` and -NaN
//! `ffffffff`), so an f32 root key equal to the identity means "no non-NaN input": the result
//! is the canonical NaN, as it is under `.NaN` when any participating lane held a NaN (an OR
//! tree beside the key tree).
//!
//! Pipeline ([`REDUX_LATENCY`] = 4; no logic between the input ports and the first
//! registers, and the outputs are combinational from the last ones):
//!
//! | stage | registers at its start | logic |
//! | --- | --- | --- |
//! | 1 | `s1_`: the inputs | decode, 32 [`ReduxLane`]s (abs, key, identity, NaN), tree level 1 (32 → 16), NaN OR |
//! | 2 | `s2_`: 16 keys | tree levels 2, 3 (16 → 8 → 4) |
//! | 3 | `s3_`: 4 keys | tree levels 4, 5 (4 → 2 → 1) |
//! | out | `s4_`: 1 key | key → value, canonical NaN, the result into the lanes of the mask |
//!
//! Outputs: `out_result` (the one 32-bit result), `out_lanes` (the result in every lane of the
//! mask, 0 in the others: lane i = bits 32i+31..32i), with `out_valid`, `out_form` and
//! `out_mask` of the same instruction.

use crate::fp_add::bits_u128;
use rust_hdl::prelude::*;
use sim::redux::encoding::{ABS_BIT, CODE_WIDTH, NAN_BIT, OP_LSB, OP_WIDTH, TYPE_LSB, TYPE_WIDTH};
use sim::redux::{CANONICAL_NAN, ReduxOp, ReduxType};

/// Cycles from an instruction on the input ports (`in_valid` high at a rising edge) to its
/// result on the outputs.
pub const REDUX_LATENCY: usize = 4;

const _: () = assert!(CODE_WIDTH <= 8);
const _: () = assert!(sim::redux::LANES == 32);

/// One node of the reduction tree (combinational): `y = a op b` on keys.
#[derive(LogicBlock)]
pub struct ReduxNode {
    /// The op field of the form code ([`ReduxOp`] discriminant).
    pub op: Signal<In, Bits<OP_WIDTH>>,
    pub a: Signal<In, Bits<32>>,
    pub b: Signal<In, Bits<32>>,
    pub y: Signal<Out, Bits<32>>,
    op_add: Constant<Bits<OP_WIDTH>>,
    op_min: Constant<Bits<OP_WIDTH>>,
    op_max: Constant<Bits<OP_WIDTH>>,
    op_and: Constant<Bits<OP_WIDTH>>,
    op_or: Constant<Bits<OP_WIDTH>>,
}

fn op_const(o: ReduxOp) -> Constant<Bits<OP_WIDTH>> {
    Constant::new(bits_u128(o as u128))
}

impl Default for ReduxNode {
    fn default() -> Self {
        Self {
            op: Default::default(),
            a: Default::default(),
            b: Default::default(),
            y: Default::default(),
            op_add: op_const(ReduxOp::Add),
            op_min: op_const(ReduxOp::Min),
            op_max: op_const(ReduxOp::Max),
            op_and: op_const(ReduxOp::And),
            op_or: op_const(ReduxOp::Or),
        }
    }
}

impl Logic for ReduxNode {
    #[hdl_gen]
    fn update(&mut self) {
        // xor, unless another op is selected.
        self.y.next = self.a.val() ^ self.b.val();
        if self.op.val() == self.op_add.val() {
            self.y.next = self.a.val() + self.b.val();
        } else if self.op.val() == self.op_min.val() {
            self.y.next = self.b.val();
            if self.a.val() < self.b.val() {
                self.y.next = self.a.val();
            }
        } else if self.op.val() == self.op_max.val() {
            self.y.next = self.a.val();
            if self.a.val() < self.b.val() {
                self.y.next = self.b.val();
            }
        } else if self.op.val() == self.op_and.val() {
            self.y.next = self.a.val() & self.b.val();
        } else if self.op.val() == self.op_or.val() {
            self.y.next = self.a.val() | self.b.val();
        }
    }
}

/// One lane's source mapped to its key (combinational; see the module table).
#[derive(LogicBlock)]
pub struct ReduxLane {
    /// The lane's source.
    pub x: Signal<In, Bits<32>>,
    /// The lane is in the mask.
    pub take: Signal<In, Bit>,
    /// The form is f32.
    pub f32: Signal<In, Bit>,
    /// `.abs` (only set for f32).
    pub abs: Signal<In, Bit>,
    /// XORed into integer keys: the sign bit for s32 min/max, else 0.
    pub flip: Signal<In, Bits<32>>,
    /// The key of a lane that does not count.
    pub ident: Signal<In, Bits<32>>,
    pub key: Signal<Out, Bits<32>>,
    /// The lane is in the mask and holds an f32 NaN (after `.abs`).
    pub nan: Signal<Out, Bit>,

    magnitude: Constant<Bits<32>>,
    sign: Constant<Bits<32>>,
    inf: Constant<Bits<32>>,
    v: Signal<Local, Bits<32>>,
    is_nan: Signal<Local, Bit>,
}

impl Default for ReduxLane {
    fn default() -> Self {
        Self {
            x: Default::default(),
            take: Default::default(),
            f32: Default::default(),
            abs: Default::default(),
            flip: Default::default(),
            ident: Default::default(),
            key: Default::default(),
            nan: Default::default(),
            magnitude: Constant::new(bits_u128(0x7fff_ffff)),
            sign: Constant::new(bits_u128(0x8000_0000)),
            inf: Constant::new(bits_u128(0x7f80_0000)),
            v: Default::default(),
            is_nan: Default::default(),
        }
    }
}

impl Logic for ReduxLane {
    #[hdl_gen]
    fn update(&mut self) {
        self.v.next = self.x.val();
        if self.abs.val() {
            self.v.next = self.x.val() & self.magnitude.val();
        }
        self.is_nan.next = self.f32.val() && ((self.v.val() & self.magnitude.val()) > self.inf.val());
        self.key.next = self.v.val() ^ self.flip.val();
        if self.f32.val() {
            self.key.next = self.v.val() | self.sign.val();
            if self.v.val().get_bit(31) {
                self.key.next = !self.v.val();
            }
        }
        if !self.take.val() || self.is_nan.val() {
            self.key.next = self.ident.val();
        }
        self.nan.next = self.take.val() && self.is_nan.val();
    }
}

#[derive(LogicBlock)]
pub struct ReduxSync {
    pub clock: Signal<In, Clock>,
    /// A new warp instruction this cycle.
    pub in_valid: Signal<In, Bit>,
    /// The form code ([`sim::ReduxForm::code`]).
    pub in_form: Signal<In, Bits<CODE_WIDTH>>,
    /// The membermask: bit i = lane i takes part.
    pub in_mask: Signal<In, Bits<32>>,
    /// The sources: lane i in bits 32i+31..32i.
    pub in_src: Signal<In, Bits<1024>>,
    /// The lane that executes the instruction (PTX: it must be in the membermask).
    pub in_lane: Signal<In, Bits<5>>,
    /// The instruction that entered `REDUX_LATENCY` cycles ago.
    pub out_valid: Signal<Out, Bit>,
    pub out_form: Signal<Out, Bits<CODE_WIDTH>>,
    pub out_mask: Signal<Out, Bits<32>>,
    /// The result.
    pub out_result: Signal<Out, Bits<32>>,
    /// The result in every lane of the mask, 0 in the others (lane i in bits 32i+31..32i).
    pub out_lanes: Signal<Out, Bits<1024>>,
    /// The instruction is undefined in PTX: an empty membermask, or one without the executing
    /// lane (`in_lane`). Its result is then the op's identity (empty mask) or the members'.
    pub out_error: Signal<Out, Bit>,

    // Units.
    lane: [ReduxLane; 32],
    l1: [ReduxNode; 16],
    l2: [ReduxNode; 8],
    l3: [ReduxNode; 4],
    l4: [ReduxNode; 2],
    l5: ReduxNode,

    // Form-code field positions and values.
    op_lsb: Constant<Bits<3>>,
    ty_lsb: Constant<Bits<3>>,
    abs_bit: Constant<Bits<3>>,
    nan_bit: Constant<Bits<3>>,
    op_and: Constant<Bits<OP_WIDTH>>,
    op_min: Constant<Bits<OP_WIDTH>>,
    op_max: Constant<Bits<OP_WIDTH>>,
    ty_s32: Constant<Bits<TYPE_WIDTH>>,
    ty_f32: Constant<Bits<TYPE_WIDTH>>,
    zero32: Constant<Bits<32>>,
    ones32: Constant<Bits<32>>,
    sign32: Constant<Bits<32>>,
    canonical_nan: Constant<Bits<32>>,

    // Stage-1 decode (from s1_form).
    s1_op: Signal<Local, Bits<OP_WIDTH>>,
    s1_ty: Signal<Local, Bits<TYPE_WIDTH>>,
    s1_f32: Signal<Local, Bit>,
    s1_flip: Signal<Local, Bits<32>>,
    s1_ident: Signal<Local, Bits<32>>,
    s1_any_nan: Signal<Local, Bit>,
    // Output decode (from s4_form) and the value.
    out_op: Signal<Local, Bits<OP_WIDTH>>,
    out_ty: Signal<Local, Bits<TYPE_WIDTH>>,
    out_minmax: Signal<Local, Bit>,
    out_ident: Signal<Local, Bits<32>>,
    value: Signal<Local, Bits<32>>,
    lane_value: Signal<Local, Bits<32>>,
    lanes: Signal<Local, Bits<1024>>,

    // Pipeline registers.
    s1_valid: DFF<Bit>,
    s1_form: DFF<Bits<CODE_WIDTH>>,
    s1_mask: DFF<Bits<32>>,
    s1_src: DFF<Bits<1024>>,
    s1_err: DFF<Bit>,
    s2_err: DFF<Bit>,
    s3_err: DFF<Bit>,
    s4_err: DFF<Bit>,
    s2_valid: DFF<Bit>,
    s2_form: DFF<Bits<CODE_WIDTH>>,
    s2_mask: DFF<Bits<32>>,
    s2_nan: DFF<Bit>,
    s2_key: [DFF<Bits<32>>; 16],
    s3_valid: DFF<Bit>,
    s3_form: DFF<Bits<CODE_WIDTH>>,
    s3_mask: DFF<Bits<32>>,
    s3_nan: DFF<Bit>,
    s3_key: [DFF<Bits<32>>; 4],
    s4_valid: DFF<Bit>,
    s4_form: DFF<Bits<CODE_WIDTH>>,
    s4_mask: DFF<Bits<32>>,
    s4_nan: DFF<Bit>,
    s4_key: DFF<Bits<32>>,
}

impl Default for ReduxSync {
    fn default() -> Self {
        let ty = |t: ReduxType| Constant::new(bits_u128(t as u128));
        let c32 = |v: u32| Constant::new(bits_u128(v as u128));
        let pos = |p: usize| Constant::new(bits_u128(p as u128));
        Self {
            clock: Default::default(),
            in_valid: Default::default(),
            in_form: Default::default(),
            in_mask: Default::default(),
            in_src: Default::default(),
            in_lane: Default::default(),
            out_valid: Default::default(),
            out_form: Default::default(),
            out_mask: Default::default(),
            out_result: Default::default(),
            out_lanes: Default::default(),
            out_error: Default::default(),
            lane: Default::default(),
            l1: Default::default(),
            l2: Default::default(),
            l3: Default::default(),
            l4: Default::default(),
            l5: Default::default(),
            op_lsb: pos(OP_LSB),
            ty_lsb: pos(TYPE_LSB),
            abs_bit: pos(ABS_BIT),
            nan_bit: pos(NAN_BIT),
            op_and: op_const(ReduxOp::And),
            op_min: op_const(ReduxOp::Min),
            op_max: op_const(ReduxOp::Max),
            ty_s32: ty(ReduxType::S32),
            ty_f32: ty(ReduxType::F32),
            zero32: c32(0),
            ones32: c32(u32::MAX),
            sign32: c32(0x8000_0000),
            canonical_nan: c32(CANONICAL_NAN),
            s1_op: Default::default(),
            s1_ty: Default::default(),
            s1_f32: Default::default(),
            s1_flip: Default::default(),
            s1_ident: Default::default(),
            s1_any_nan: Default::default(),
            out_op: Default::default(),
            out_ty: Default::default(),
            out_minmax: Default::default(),
            out_ident: Default::default(),
            value: Default::default(),
            lane_value: Default::default(),
            lanes: Default::default(),
            s1_valid: Default::default(),
            s1_form: Default::default(),
            s1_mask: Default::default(),
            s1_err: Default::default(),
            s2_err: Default::default(),
            s3_err: Default::default(),
            s4_err: Default::default(),
            s1_src: Default::default(),
            s2_valid: Default::default(),
            s2_form: Default::default(),
            s2_mask: Default::default(),
            s2_nan: Default::default(),
            s2_key: Default::default(),
            s3_valid: Default::default(),
            s3_form: Default::default(),
            s3_mask: Default::default(),
            s3_nan: Default::default(),
            s3_key: Default::default(),
            s4_valid: Default::default(),
            s4_form: Default::default(),
            s4_mask: Default::default(),
            s4_nan: Default::default(),
            s4_key: Default::default(),
        }
    }
}

impl Logic for ReduxSync {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, s1_valid, s1_form, s1_mask, s1_src, s2_valid, s2_form, s2_mask, s2_nan, s3_valid);
        dff_setup!(self, clock, s3_form, s3_mask, s3_nan, s4_valid, s4_form, s4_mask, s4_nan, s4_key, s1_err, s2_err);
        dff_setup!(self, clock, s3_err, s4_err);
        for i in 0..16 {
            self.s2_key[i].clock.next = self.clock.val();
        }
        for i in 0..4 {
            self.s3_key[i].clock.next = self.clock.val();
        }

        // ==========================================================================
        // Input registers (s1_): the instruction enters the pipeline unchanged.
        // ==========================================================================
        self.s1_valid.d.next = self.in_valid.val();
        self.s1_form.d.next = self.in_form.val();
        self.s1_mask.d.next = self.in_mask.val();
        self.s1_err.d.next = !self.in_mask.val().get_bit(self.in_lane.val().index());
        self.s2_err.d.next = self.s1_err.q.val();
        self.s3_err.d.next = self.s2_err.q.val();
        self.s4_err.d.next = self.s3_err.q.val();
        self.s1_src.d.next = self.in_src.val();

        // ==========================================================================
        // Stage 1 (from s1_): decode, lane keys, tree level 1 (32 -> 16), NaN OR.
        // ==========================================================================
        self.s1_op.next = self.s1_form.q.val().get_bits::<OP_WIDTH>(self.op_lsb.val().index());
        self.s1_ty.next = self.s1_form.q.val().get_bits::<TYPE_WIDTH>(self.ty_lsb.val().index());
        self.s1_f32.next = self.s1_ty.val() == self.ty_f32.val();
        // Signed order through the key only for s32 min/max (add wraps the same either way).
        self.s1_flip.next = self.zero32.val();
        if (self.s1_ty.val() == self.ty_s32.val())
            && ((self.s1_op.val() == self.op_min.val()) || (self.s1_op.val() == self.op_max.val()))
        {
            self.s1_flip.next = self.sign32.val();
        }
        // The identity key: all ones for and and min, 0 for the rest.
        self.s1_ident.next = self.zero32.val();
        if (self.s1_op.val() == self.op_and.val()) || (self.s1_op.val() == self.op_min.val()) {
            self.s1_ident.next = self.ones32.val();
        }
        self.s1_any_nan.next = false;
        for i in 0..32 {
            self.lane[i].x.next = self.s1_src.q.val().get_bits::<32>(32 * i);
            self.lane[i].take.next = self.s1_mask.q.val().get_bit(i);
            self.lane[i].f32.next = self.s1_f32.val();
            self.lane[i].abs.next = self.s1_f32.val() && self.s1_form.q.val().get_bit(self.abs_bit.val().index());
            self.lane[i].flip.next = self.s1_flip.val();
            self.lane[i].ident.next = self.s1_ident.val();
            self.s1_any_nan.next = self.s1_any_nan.val() || self.lane[i].nan.val();
        }
        for i in 0..16 {
            self.l1[i].op.next = self.s1_op.val();
            self.l1[i].a.next = self.lane[2 * i].key.val();
            self.l1[i].b.next = self.lane[2 * i + 1].key.val();
            self.s2_key[i].d.next = self.l1[i].y.val();
        }
        self.s2_valid.d.next = self.s1_valid.q.val();
        self.s2_form.d.next = self.s1_form.q.val();
        self.s2_mask.d.next = self.s1_mask.q.val();
        self.s2_nan.d.next = self.s1_any_nan.val();

        // ==========================================================================
        // Stage 2 (from s2_): tree levels 2 and 3 (16 -> 8 -> 4).
        // ==========================================================================
        for i in 0..8 {
            self.l2[i].op.next = self.s2_form.q.val().get_bits::<OP_WIDTH>(self.op_lsb.val().index());
            self.l2[i].a.next = self.s2_key[2 * i].q.val();
            self.l2[i].b.next = self.s2_key[2 * i + 1].q.val();
        }
        for i in 0..4 {
            self.l3[i].op.next = self.s2_form.q.val().get_bits::<OP_WIDTH>(self.op_lsb.val().index());
            self.l3[i].a.next = self.l2[2 * i].y.val();
            self.l3[i].b.next = self.l2[2 * i + 1].y.val();
            self.s3_key[i].d.next = self.l3[i].y.val();
        }
        self.s3_valid.d.next = self.s2_valid.q.val();
        self.s3_form.d.next = self.s2_form.q.val();
        self.s3_mask.d.next = self.s2_mask.q.val();
        self.s3_nan.d.next = self.s2_nan.q.val();

        // ==========================================================================
        // Stage 3 (from s3_): tree levels 4 and 5 (4 -> 2 -> 1).
        // ==========================================================================
        for i in 0..2 {
            self.l4[i].op.next = self.s3_form.q.val().get_bits::<OP_WIDTH>(self.op_lsb.val().index());
            self.l4[i].a.next = self.s3_key[2 * i].q.val();
            self.l4[i].b.next = self.s3_key[2 * i + 1].q.val();
        }
        self.l5.op.next = self.s3_form.q.val().get_bits::<OP_WIDTH>(self.op_lsb.val().index());
        self.l5.a.next = self.l4[0].y.val();
        self.l5.b.next = self.l4[1].y.val();
        self.s4_key.d.next = self.l5.y.val();
        self.s4_valid.d.next = self.s3_valid.q.val();
        self.s4_form.d.next = self.s3_form.q.val();
        self.s4_mask.d.next = self.s3_mask.q.val();
        self.s4_nan.d.next = self.s3_nan.q.val();

        // ==========================================================================
        // Output (from s4_): key -> value, canonical NaN, the result into the mask's lanes.
        // ==========================================================================
        self.out_op.next = self.s4_form.q.val().get_bits::<OP_WIDTH>(self.op_lsb.val().index());
        self.out_ty.next = self.s4_form.q.val().get_bits::<TYPE_WIDTH>(self.ty_lsb.val().index());
        self.out_minmax.next = (self.out_op.val() == self.op_min.val()) || (self.out_op.val() == self.op_max.val());
        self.out_ident.next = self.zero32.val();
        if self.out_op.val() == self.op_min.val() {
            self.out_ident.next = self.ones32.val();
        }
        self.value.next = self.s4_key.q.val();
        if (self.out_ty.val() == self.ty_s32.val()) && self.out_minmax.val() {
            self.value.next = self.s4_key.q.val() ^ self.sign32.val();
        }
        if self.out_ty.val() == self.ty_f32.val() {
            self.value.next = !self.s4_key.q.val();
            if self.s4_key.q.val().get_bit(31) {
                self.value.next = self.s4_key.q.val() ^ self.sign32.val();
            }
            // No non-NaN input, or a NaN input under .NaN.
            if (self.s4_key.q.val() == self.out_ident.val())
                || (self.s4_nan.q.val() && self.s4_form.q.val().get_bit(self.nan_bit.val().index()))
            {
                self.value.next = self.canonical_nan.val();
            }
        }
        self.lanes.next = bit_cast::<1024, 32>(self.zero32.val());
        for i in 0..32 {
            self.lane_value.next = self.zero32.val();
            if self.s4_mask.q.val().get_bit(31 - i) {
                self.lane_value.next = self.value.val();
            }
            self.lanes.next = (self.lanes.val() << 32) | bit_cast::<1024, 32>(self.lane_value.val());
        }
        self.out_valid.next = self.s4_valid.q.val();
        self.out_error.next = self.s4_valid.q.val() && self.s4_err.q.val();
        self.out_form.next = self.s4_form.q.val();
        self.out_mask.next = self.s4_mask.q.val();
        self.out_result.next = self.value.val();
        self.out_lanes.next = self.lanes.val();
    }
}

/// The Verilog of the redux block as a `top` module.
pub fn redux_verilog() -> String {
    crate::verilog::verilog(&mut ReduxSync::default())
}
