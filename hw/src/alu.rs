//! The reduction ALU: executes every legal `red` form over a 128-bit datapath.
//!
//! The form code is decoded with the field positions of [`sim::form::encoding`]; the data
//! ports carry one scalar in their low bits or one whole 16-byte vector. All units see the
//! operands every cycle, each on its own slice of the datapath:
//!
//! | unit | lanes | slice |
//! | --- | --- | --- |
//! | [`IntAlu`] | 1 | bits 63..0 (32-bit forms use 31..0) |
//! | [`FpAdd16`] (f16 and bf16 add), [`FpMinMax16`] | 8 each | lane i = bits 16i+15..16i: a form of N bits in all uses lanes 0..N/16-1 (scalar f16: lane 0; f16x2: 0-1; v8.f16 and v4.f16x2: 0-7) |
//! | [`FpAddF32`] | 4 | lane i = bits 32i+31..32i (scalar, v2, v4) |
//! | [`FpAddF64`] | 2 | lane i = bits 64i+63..64i: lane 0 for every PTX f64 form; lane 1 only for the `v2` f64 code that the L2-slice unit sends for a masked sector request of f64 (two elements in one pass) |
//!
//! After [`ALU_LATENCY`] cycles the delayed form code selects one unit's 128-bit result and
//! zeroes the bits above the form's width (`elem_bits * vec`). Every unit registers its
//! operands first and computes from those registers (the adders' last stage drives their
//! `sum` from their stage-2 registers), so there is no logic between the input ports and the
//! first registers and no path from the inputs to the outputs; a cycle-based simulator then
//! evaluates the datapath once per clock edge. Results are gathered and selected as two
//! 64-bit halves (no 128-bit shifts but the final join). The floating-point adders take
//! three stages (see [`crate::fp_add`]); the integer ALU and the min/max lanes take one and
//! are delayed by two registers here, so every form has the same latency. Three stages keep
//! each stage to roughly one wide operation (align shift; add + leading-zero count + normalise
//! shift; round increment + pack) while dependent f32 adds to one address can still issue
//! every three cycles.

use crate::fp_add::{FP_ADD_LATENCY, FpAddF32, FpAddF64, bits_u128};
use crate::fp_add16::FpAdd16;
use crate::fp_minmax16::{FpMinMax16, MINMAX16_LATENCY};
use crate::int_alu::{INT_ALU_LATENCY, IntAlu};
use rust_hdl::prelude::*;
use sim::form::encoding::{CODE_WIDTH, OP_LSB, OP_WIDTH, SPACE_LSB, TYPE_LSB, TYPE_WIDTH, VEC_LSB, VEC_WIDTH};
use sim::{Op, Type};

/// Cycles from a request on the input ports (`in_valid` high at a rising edge) to its result
/// on `out_valid`/`out_data`.
pub const ALU_LATENCY: usize = 3;

const _: () = assert!(CODE_WIDTH <= 16);
const _: () = assert!(FP_ADD_LATENCY == ALU_LATENCY);
const _: () = assert!(INT_ALU_LATENCY + 2 == ALU_LATENCY);
const _: () = assert!(MINMAX16_LATENCY + 2 == ALU_LATENCY);

/// The latency of `form`: the same for every form.
pub fn latency(_form: sim::Form) -> usize {
    ALU_LATENCY
}

#[derive(LogicBlock)]
pub struct ReductionAlu {
    pub clock: Signal<In, Clock>,
    /// A new operation this cycle.
    pub in_valid: Signal<In, Bit>,
    /// The form code ([`sim::Form::code`]).
    pub in_form: Signal<In, Bits<CODE_WIDTH>>,
    /// Old memory value: the scalar in its low bits, or the whole vector (element 0 lowest).
    pub in_old: Signal<In, Bits<128>>,
    /// Operand, laid out like `in_old`.
    pub in_b: Signal<In, Bits<128>>,
    /// The result of the operation that entered `ALU_LATENCY` cycles ago.
    pub out_valid: Signal<Out, Bit>,
    pub out_form: Signal<Out, Bits<CODE_WIDTH>>,
    pub out_data: Signal<Out, Bits<128>>,

    // Units.
    int_alu: IntAlu,
    add16: [FpAdd16; 8],
    minmax16: [FpMinMax16; 8],
    add_f32: [FpAddF32; 4],
    add_f64: FpAddF64,
    /// The second f64 lane (bits 127..64): only masked sector requests of the unit use it
    /// (the form code then says `v2` of f64, which no PTX form has).
    add_f64_hi: FpAddF64,

    // Form-code field positions and values.
    // (4 bits: a bit index into the 10-bit code)
    op_lsb: Constant<Bits<4>>,
    ty_lsb: Constant<Bits<4>>,
    space_lsb: Constant<Bits<4>>,
    vec_lsb: Constant<Bits<4>>,
    op_add: Constant<Bits<OP_WIDTH>>,
    op_max: Constant<Bits<OP_WIDTH>>,
    ty_b64: Constant<Bits<TYPE_WIDTH>>,
    ty_u64: Constant<Bits<TYPE_WIDTH>>,
    ty_s64: Constant<Bits<TYPE_WIDTH>>,
    ty_f32: Constant<Bits<TYPE_WIDTH>>,
    ty_f64: Constant<Bits<TYPE_WIDTH>>,
    ty_f16: Constant<Bits<TYPE_WIDTH>>,
    ty_bf16: Constant<Bits<TYPE_WIDTH>>,
    ty_f16x2: Constant<Bits<TYPE_WIDTH>>,
    ty_bf16x2: Constant<Bits<TYPE_WIDTH>>,
    log2_16: Constant<Bits<3>>,
    log2_32: Constant<Bits<3>>,
    log2_64: Constant<Bits<3>>,
    zero64: Constant<Bits<64>>,
    mask16: Constant<Bits<64>>,
    mask32: Constant<Bits<64>>,
    ones64: Constant<Bits<64>>,

    // Decode of the incoming form (stage 1 inputs).
    in_op: Signal<Local, Bits<OP_WIDTH>>,
    in_ty: Signal<Local, Bits<TYPE_WIDTH>>,
    in_shared: Signal<Local, Bit>,
    in_bf16: Signal<Local, Bit>,
    // Decode of the outgoing form (after stage 3).
    out_op: Signal<Local, Bits<OP_WIDTH>>,
    out_ty: Signal<Local, Bits<TYPE_WIDTH>>,
    out_vec: Signal<Local, Bits<VEC_WIDTH>>,
    out_log2: Signal<Local, Bits<3>>,
    // Result select and mask, as low and high 64-bit halves.
    mask_lo: Signal<Local, Bits<64>>,
    mask_hi: Signal<Local, Bits<64>>,
    sel_lo: Signal<Local, Bits<64>>,
    sel_hi: Signal<Local, Bits<64>>,
    // Lane gathering (lanes 0-3 / 4-7 of the 16-bit units, 0-1 / 2-3 of the f32 adders).
    lane_mm: Signal<Local, Bits<16>>,
    lane_add16: Signal<Local, Bits<16>>,
    lane_f32: Signal<Local, Bits<32>>,
    mm_lo: Signal<Local, Bits<64>>,
    mm_hi: Signal<Local, Bits<64>>,
    add16_lo: Signal<Local, Bits<64>>,
    add16_hi: Signal<Local, Bits<64>>,
    f32_lo: Signal<Local, Bits<64>>,
    f32_hi: Signal<Local, Bits<64>>,

    // Pipeline registers.
    s1_valid: DFF<Bit>,
    s1_form: DFF<Bits<CODE_WIDTH>>,
    s2_valid: DFF<Bit>,
    s2_form: DFF<Bits<CODE_WIDTH>>,
    s2_int: DFF<Bits<64>>,
    s2_mm_lo: DFF<Bits<64>>,
    s2_mm_hi: DFF<Bits<64>>,
    s3_valid: DFF<Bit>,
    s3_form: DFF<Bits<CODE_WIDTH>>,
    s3_int: DFF<Bits<64>>,
    s3_mm_lo: DFF<Bits<64>>,
    s3_mm_hi: DFF<Bits<64>>,
}

impl Default for ReductionAlu {
    fn default() -> Self {
        let op = |o: Op| Constant::new(bits_u128(o as u128));
        let ty = |t: Type| Constant::new(bits_u128(t as u128));
        let mask = |bits: u32| Constant::new(bits_u128(u128::MAX >> (128 - bits)));
        let zero = || Constant::new(bits_u128(0));
        Self {
            clock: Default::default(),
            in_valid: Default::default(),
            in_form: Default::default(),
            in_old: Default::default(),
            in_b: Default::default(),
            out_valid: Default::default(),
            out_form: Default::default(),
            out_data: Default::default(),
            int_alu: Default::default(),
            add16: Default::default(),
            minmax16: Default::default(),
            add_f32: Default::default(),
            add_f64: Default::default(),
            add_f64_hi: Default::default(),
            op_lsb: Constant::new(bits_u128(OP_LSB as u128)),
            ty_lsb: Constant::new(bits_u128(TYPE_LSB as u128)),
            space_lsb: Constant::new(bits_u128(SPACE_LSB as u128)),
            vec_lsb: Constant::new(bits_u128(VEC_LSB as u128)),
            op_add: op(Op::Add),
            op_max: op(Op::Max),
            ty_b64: ty(Type::B64),
            ty_u64: ty(Type::U64),
            ty_s64: ty(Type::S64),
            ty_f32: ty(Type::F32),
            ty_f64: ty(Type::F64),
            ty_f16: ty(Type::F16),
            ty_bf16: ty(Type::Bf16),
            ty_f16x2: ty(Type::F16x2),
            ty_bf16x2: ty(Type::Bf16x2),
            log2_16: Constant::new(bits_u128(4)),
            log2_32: Constant::new(bits_u128(5)),
            log2_64: Constant::new(bits_u128(6)),
            zero64: zero(),
            mask16: mask(16),
            mask32: mask(32),
            ones64: mask(64),
            in_op: Default::default(),
            in_ty: Default::default(),
            in_shared: Default::default(),
            in_bf16: Default::default(),
            out_op: Default::default(),
            out_ty: Default::default(),
            out_vec: Default::default(),
            out_log2: Default::default(),
            mask_lo: Default::default(),
            mask_hi: Default::default(),
            sel_lo: Default::default(),
            sel_hi: Default::default(),
            lane_mm: Default::default(),
            lane_add16: Default::default(),
            lane_f32: Default::default(),
            mm_lo: Default::default(),
            mm_hi: Default::default(),
            add16_lo: Default::default(),
            add16_hi: Default::default(),
            f32_lo: Default::default(),
            f32_hi: Default::default(),
            s1_valid: Default::default(),
            s1_form: Default::default(),
            s2_valid: Default::default(),
            s2_form: Default::default(),
            s2_int: Default::default(),
            s2_mm_lo: Default::default(),
            s2_mm_hi: Default::default(),
            s3_valid: Default::default(),
            s3_form: Default::default(),
            s3_int: Default::default(),
            s3_mm_lo: Default::default(),
            s3_mm_hi: Default::default(),
        }
    }
}

impl Logic for ReductionAlu {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, s1_valid, s1_form, s2_valid, s2_form, s2_int, s2_mm_lo, s2_mm_hi,
            s3_valid, s3_form, s3_int, s3_mm_lo, s3_mm_hi
        );

        // ==========================================================================
        // Stage 1: decode the form, feed every unit its slice of the operands.
        // (The units register their own stage-1 results.)
        // ==========================================================================
        self.in_op.next = self.in_form.val().get_bits::<OP_WIDTH>(self.op_lsb.val().index());
        self.in_ty.next = self.in_form.val().get_bits::<TYPE_WIDTH>(self.ty_lsb.val().index());
        self.in_shared.next = self.in_form.val().get_bit(self.space_lsb.val().index());
        self.in_bf16.next =
            (self.in_ty.val() == self.ty_bf16.val()) || (self.in_ty.val() == self.ty_bf16x2.val());

        self.int_alu.clock.next = self.clock.val();
        self.int_alu.op.next = self.in_op.val();
        self.int_alu.ty.next = self.in_ty.val();
        self.int_alu.a.next = self.in_old.val().get_bits::<64>(0);
        self.int_alu.b.next = self.in_b.val().get_bits::<64>(0);

        for i in 0..8 {
            self.add16[i].clock.next = self.clock.val();
            self.add16[i].a.next = self.in_old.val().get_bits::<16>(16 * i);
            self.add16[i].b.next = self.in_b.val().get_bits::<16>(16 * i);
            self.add16[i].bf16.next = self.in_bf16.val();
            self.minmax16[i].clock.next = self.clock.val();
            self.minmax16[i].a.next = self.in_old.val().get_bits::<16>(16 * i);
            self.minmax16[i].b.next = self.in_b.val().get_bits::<16>(16 * i);
            self.minmax16[i].bf16.next = self.in_bf16.val();
            self.minmax16[i].max.next = self.in_op.val() == self.op_max.val();
        }
        for i in 0..4 {
            self.add_f32[i].clock.next = self.clock.val();
            self.add_f32[i].a.next = self.in_old.val().get_bits::<32>(32 * i);
            self.add_f32[i].b.next = self.in_b.val().get_bits::<32>(32 * i);
            // Global f32 flushes subnormal inputs and results.
            self.add_f32[i].ftz.next = !self.in_shared.val();
            self.add_f32[i].nan_quiet.next = false;
        }
        self.add_f64.clock.next = self.clock.val();
        self.add_f64.a.next = self.in_old.val().get_bits::<64>(0);
        self.add_f64.b.next = self.in_b.val().get_bits::<64>(0);
        self.add_f64.ftz.next = false;
        self.add_f64.nan_quiet.next = self.in_shared.val();
        self.add_f64_hi.clock.next = self.clock.val();
        self.add_f64_hi.a.next = self.in_old.val().get_bits::<64>(64);
        self.add_f64_hi.b.next = self.in_b.val().get_bits::<64>(64);
        self.add_f64_hi.ftz.next = false;
        self.add_f64_hi.nan_quiet.next = self.in_shared.val();

        self.s1_valid.d.next = self.in_valid.val();
        self.s1_form.d.next = self.in_form.val();

        // ==========================================================================
        // Stage 2: delay the one-stage units (integer, min/max) to the FP latency.
        // ==========================================================================
        self.s2_valid.d.next = self.s1_valid.q.val();
        self.s2_form.d.next = self.s1_form.q.val();
        self.s2_int.d.next = self.int_alu.y.val();
        self.mm_lo.next = self.zero64.val();
        self.mm_hi.next = self.zero64.val();
        for i in 0..4 {
            self.lane_mm.next = self.minmax16[3 - i].y.val();
            self.mm_lo.next = (self.mm_lo.val() << 16) | bit_cast::<64, 16>(self.lane_mm.val());
            self.lane_mm.next = self.minmax16[7 - i].y.val();
            self.mm_hi.next = (self.mm_hi.val() << 16) | bit_cast::<64, 16>(self.lane_mm.val());
        }
        self.s2_mm_lo.d.next = self.mm_lo.val();
        self.s2_mm_hi.d.next = self.mm_hi.val();

        // ==========================================================================
        // Stage 3: one more delay for the one-stage units.
        // ==========================================================================
        self.s3_valid.d.next = self.s2_valid.q.val();
        self.s3_form.d.next = self.s2_form.q.val();
        self.s3_int.d.next = self.s2_int.q.val();
        self.s3_mm_lo.d.next = self.s2_mm_lo.q.val();
        self.s3_mm_hi.d.next = self.s2_mm_hi.q.val();

        // ==========================================================================
        // Output (after the stage-3 registers and the adders' stage-3 logic): gather lanes,
        // select by form, mask.
        // ==========================================================================
        self.add16_lo.next = self.zero64.val();
        self.add16_hi.next = self.zero64.val();
        for i in 0..4 {
            self.lane_add16.next = self.add16[3 - i].sum.val();
            self.add16_lo.next = (self.add16_lo.val() << 16) | bit_cast::<64, 16>(self.lane_add16.val());
            self.lane_add16.next = self.add16[7 - i].sum.val();
            self.add16_hi.next = (self.add16_hi.val() << 16) | bit_cast::<64, 16>(self.lane_add16.val());
        }
        self.lane_f32.next = self.add_f32[1].sum.val();
        self.f32_lo.next = (bit_cast::<64, 32>(self.lane_f32.val()) << 32)
            | bit_cast::<64, 32>(self.add_f32[0].sum.val());
        self.lane_f32.next = self.add_f32[3].sum.val();
        self.f32_hi.next = (bit_cast::<64, 32>(self.lane_f32.val()) << 32)
            | bit_cast::<64, 32>(self.add_f32[2].sum.val());

        self.out_op.next = self.s3_form.q.val().get_bits::<OP_WIDTH>(self.op_lsb.val().index());
        self.out_ty.next = self.s3_form.q.val().get_bits::<TYPE_WIDTH>(self.ty_lsb.val().index());
        self.out_vec.next = self.s3_form.q.val().get_bits::<VEC_WIDTH>(self.vec_lsb.val().index());

        // log2 of the element width, then of the whole access.
        self.out_log2.next = self.log2_32.val();
        if (self.out_ty.val() == self.ty_f16.val()) || (self.out_ty.val() == self.ty_bf16.val()) {
            self.out_log2.next = self.log2_16.val();
        }
        if (self.out_ty.val() == self.ty_b64.val())
            || (self.out_ty.val() == self.ty_u64.val())
            || (self.out_ty.val() == self.ty_s64.val())
            || (self.out_ty.val() == self.ty_f64.val())
        {
            self.out_log2.next = self.log2_64.val();
        }
        self.out_log2.next = self.out_log2.val() + bit_cast::<3, VEC_WIDTH>(self.out_vec.val());
        self.mask_lo.next = self.ones64.val();
        self.mask_hi.next = self.ones64.val();
        if self.out_log2.val() == self.log2_16.val() {
            self.mask_lo.next = self.mask16.val();
            self.mask_hi.next = self.zero64.val();
        } else if self.out_log2.val() == self.log2_32.val() {
            self.mask_lo.next = self.mask32.val();
            self.mask_hi.next = self.zero64.val();
        } else if self.out_log2.val() == self.log2_64.val() {
            self.mask_hi.next = self.zero64.val();
        }

        self.sel_lo.next = self.s3_int.q.val();
        self.sel_hi.next = self.zero64.val();
        if self.out_ty.val() == self.ty_f32.val() {
            self.sel_lo.next = self.f32_lo.val();
            self.sel_hi.next = self.f32_hi.val();
        } else if self.out_ty.val() == self.ty_f64.val() {
            self.sel_lo.next = self.add_f64.sum.val();
            self.sel_hi.next = self.add_f64_hi.sum.val();
        } else if (self.out_ty.val() == self.ty_f16.val())
            || (self.out_ty.val() == self.ty_f16x2.val())
            || (self.out_ty.val() == self.ty_bf16.val())
            || (self.out_ty.val() == self.ty_bf16x2.val())
        {
            self.sel_lo.next = self.s3_mm_lo.q.val();
            self.sel_hi.next = self.s3_mm_hi.q.val();
            if self.out_op.val() == self.op_add.val() {
                self.sel_lo.next = self.add16_lo.val();
                self.sel_hi.next = self.add16_hi.val();
            }
        }

        self.out_valid.next = self.s3_valid.q.val();
        self.out_form.next = self.s3_form.q.val();
        self.sel_hi.next = self.sel_hi.val() & self.mask_hi.val();
        self.sel_lo.next = self.sel_lo.val() & self.mask_lo.val();
        self.out_data.next =
            (bit_cast::<128, 64>(self.sel_hi.val()) << 64) | bit_cast::<128, 64>(self.sel_lo.val());
    }
}

/// The Verilog of the ALU as a `top` module.
pub fn alu_verilog() -> String {
    crate::verilog::verilog(&mut ReductionAlu::default())
}
