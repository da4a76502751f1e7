//! The reduction ALU: executes every legal `red` form over a 128-bit datapath.
//!
//! The form code is decoded with the field positions of [`sim::form::encoding`]; the data
//! ports carry one scalar in their low bits or one whole 16-byte vector. Every unit is wired
//! to the operands, each on its own slice of the datapath, and loads them into its input
//! registers only when it executes the form (operand isolation, the units' `hold` input:
//! the others keep their last operands, so they do not switch, and synthesis cannot merge
//! the units' identical input registers into one register that fans out across the chip):
//!
//! | unit | lanes | slice |
//! | --- | --- | --- |
//! | [`IntAlu`] | 1 | bits 63..0 (32-bit forms use 31..0) |
//! | [`FpAdd16`] (f16 and bf16 add), [`FpMinMax16`] | 8 each | lane i = bits 16i+15..16i: a form of N bits in all uses lanes 0..N/16-1 (scalar f16: lane 0; f16x2: 0-1; v8.f16 and v4.f16x2: 0-7) |
//! | [`FpAddF32`] | 4 | lane i = bits 32i+31..32i (scalar, v2, v4) |
//! | [`FpAddF64`] | 2 | lane i = bits 64i+63..64i: lane 0 for every PTX f64 form; lane 1 only for the `v2` f64 code that the L2-slice unit sends for a masked sector request of f64 (two elements in one pass) |
//!
//! After the ALU's latency the delayed form code selects one unit's 128-bit result and
//! zeroes the bits above the form's width (`elem_bits * vec`). The select is decoded a cycle
//! before the output and registered one-hot (`o_sel` in `out_select.rs`: per unit and per
//! bit group), so the output is an AND-OR of registers (a select decoded in the output cycle
//! is the ALU's critical path, fanning out to all 128 bits). Every unit registers its
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
//!
//! # Pipeline depth
//! [`ReductionAlu::new`] takes a [`Config`]: the f32/f64 adders get `cfg.fp_stages` stages,
//! the f16/bf16 add lanes `cfg.fp16_stages`, the integer ALU `cfg.int_stages`, and the ALU's
//! latency is its deepest lane ([`Config::alu_latency`]); every shallower lane
//! is delayed to it by a [`Delay`] line (`dly_*`: registers at the lane's output, the form
//! code and valid bit travelling beside them), so every form still has one latency. The
//! default configuration has latency [`ALU_LATENCY`] and the same registers as before.
//!
//! # Blocks
//! [`ReductionAlu`] (`mod.rs`) holds the units, feeds them their operands, gathers their
//! lanes and delays them to the common latency; two child blocks do the rest:
//!
//! | file | block |
//! | --- | --- |
//! | `control.rs` | `AluControl`: the form decoded into the result select (`ctl`) and each unit's operand isolation (`hold_*`), now or a cycle early (`ctl_r`, `hold_r`) |
//! | `out_select.rs` | `OutSelect`: the output stage: the select decoded into the registered one-hot `o_sel`, then an AND-OR of the delayed unit results |

mod control;
mod out_select;

use crate::config::{Config, Delay};
use crate::fp_add::{FP_ADD_LATENCY, FpAddF32, FpAddF64};
use crate::fp_add16::FpAdd16;
use crate::fp_minmax16::{FpMinMax16, MINMAX16_LATENCY};
use crate::int_alu::{INT_ALU_LATENCY, IntAlu};
use crate::k;
use control::AluControl;
use out_select::OutSelect;
use rust_hdl::prelude::*;
use sim::form::encoding::{CODE_WIDTH, OP_LSB, OP_WIDTH, SPACE_LSB, TYPE_LSB, TYPE_WIDTH};
use sim::{Op, Type};

/// Cycles from a request on the input ports (`in_valid` high at a rising edge) to its result
/// on `out_valid`/`out_data`, in the default configuration ([`Config::alu_latency`] in
/// general).
pub const ALU_LATENCY: usize = 3;

const _: () = assert!(CODE_WIDTH <= 16);
const _: () = assert!(FP_ADD_LATENCY == ALU_LATENCY);
const _: () = assert!(INT_ALU_LATENCY + 2 == ALU_LATENCY);
const _: () = assert!(MINMAX16_LATENCY + 2 == ALU_LATENCY);

/// The latency of `form` in the default configuration: the same for every form.
pub fn latency(_form: sim::Form) -> usize {
    ALU_LATENCY
}

/// The unit of [`ReductionAlu`] that executes a form (the table in the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AluUnit {
    /// [`IntAlu`]: integer and bitwise forms.
    Int,
    /// [`FpAdd16`] lanes: f16/bf16 add (scalar, x2, vectors).
    Add16,
    /// [`FpMinMax16`] lanes: f16/bf16 min and max.
    MinMax16,
    /// [`FpAddF32`] lanes.
    AddF32,
    /// [`FpAddF64`] lanes.
    AddF64,
}

impl AluUnit {
    /// Every unit, in the order of [`ReductionAlu`]'s instances.
    pub const ALL: [AluUnit; 5] = [AluUnit::Int, AluUnit::Add16, AluUnit::MinMax16, AluUnit::AddF32, AluUnit::AddF64];

    /// Cycles from a lane's inputs to its result in an ALU of configuration `cfg` (the ALU
    /// delays the shorter lanes to [`Config::alu_latency`] itself).
    pub fn latency(self, cfg: &Config) -> usize {
        match self {
            AluUnit::Int => cfg.int_alu_latency(),
            AluUnit::Add16 => cfg.fp16_add_latency(),
            AluUnit::MinMax16 => cfg.minmax16_latency(),
            AluUnit::AddF32 | AluUnit::AddF64 => cfg.fp_add_latency(),
        }
    }

    /// The name used in `redunit forms` and in the Verilog instance names.
    pub fn name(self) -> &'static str {
        match self {
            AluUnit::Int => "int_alu",
            AluUnit::Add16 => "add16",
            AluUnit::MinMax16 => "minmax16",
            AluUnit::AddF32 => "add_f32",
            AluUnit::AddF64 => "add_f64",
        }
    }
}

/// Which unit executes `form` and which of its lanes it uses (bit i = lane i): lane i of
/// a unit of N-bit lanes holds bits N*i+N-1..N*i of the datapath, so a form of `w` bits in
/// all uses lanes 0..w/N-1. (The module docs' table as data, for tools: `redunit forms`.)
pub fn unit_lanes(form: sim::Form) -> (AluUnit, u8) {
    let (unit, lane_bits) = match form.ty() {
        Type::F32 => (AluUnit::AddF32, 32),
        Type::F64 => (AluUnit::AddF64, 64),
        Type::F16 | Type::Bf16 | Type::F16x2 | Type::Bf16x2 if form.op() == Op::Add => (AluUnit::Add16, 16),
        Type::F16 | Type::Bf16 | Type::F16x2 | Type::Bf16x2 => (AluUnit::MinMax16, 16),
        _ => return (AluUnit::Int, 1),
    };
    let lanes = (form.elem_bits() as usize * form.vec()).div_ceil(lane_bits);
    (unit, ((1u16 << lanes) - 1) as u8)
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
    /// With [`ReductionAlu::with_old_replicas`]: `in_old` again, for the min/max lanes
    /// (`in_old_mm`) and for the f32/f64 adders (`in_old_wide`), each from registers of its
    /// own that placement can put beside those units (`in_old` then feeds the integer ALU and
    /// the f16/bf16 adders). Otherwise unused.
    pub in_old_mm: Signal<In, Bits<128>>,
    pub in_old_wide: Signal<In, Bits<128>>,
    /// With [`ReductionAlu::with_early_hold`]: the next cycle's `in_valid` and `in_form`, from
    /// which the operand isolation and the output select are decoded a cycle ahead and
    /// registered (the caller guarantees it; `pre_valid` may also be high for an operation
    /// that then does not come, `in_valid` low: its unit loads operands it does not use).
    /// Otherwise unused.
    pub pre_valid: Signal<In, Bit>,
    pub pre_form: Signal<In, Bits<CODE_WIDTH>>,
    /// The FP loop: the operation entering now takes each FP lane's own result (that of the
    /// operation that entered [`Config::alu_latency`] cycles ago, in the same unit) as its
    /// old value in place of `in_old`, lane by lane: a chained op to the same bytes, whose
    /// producer's result is on the lanes in the cycle the consumer enters. The integer ALU
    /// ignores it. 0 when unused.
    pub loop_a: Signal<In, Bit>,
    /// The result of the operation that entered [`Config::alu_latency`] cycles ago.
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

    /// The result select and the units' operand isolation, decoded from the form.
    control: AluControl,
    /// The output stage: one unit's result, masked to the access width.
    out_select: OutSelect,

    // Form-code field positions and values (the lanes' inputs).
    // (4 bits: a bit index into the 10-bit code)
    op_lsb: Constant<Bits<4>>,
    ty_lsb: Constant<Bits<4>>,
    space_lsb: Constant<Bits<4>>,
    op_max: Constant<Bits<OP_WIDTH>>,
    ty_bf16: Constant<Bits<TYPE_WIDTH>>,
    ty_bf16x2: Constant<Bits<TYPE_WIDTH>>,
    zero64: Constant<Bits<64>>,

    // Decode of the incoming form (stage 1 inputs).
    in_op: Signal<Local, Bits<OP_WIDTH>>,
    in_ty: Signal<Local, Bits<TYPE_WIDTH>>,
    in_shared: Signal<Local, Bit>,
    in_bf16: Signal<Local, Bit>,
    /// The old value from `in_old_mm` and `in_old_wide` ([`ReductionAlu::with_old_replicas`]).
    replicas: Constant<Bit>,
    /// Floating-point forms only, no integer ALU ([`ReductionAlu::fp_only`]).
    no_int: Constant<Bit>,
    old_mm: Signal<Local, Bits<128>>,
    old_wide: Signal<Local, Bits<128>>,
    /// Each unit's old value after the FP loop's select (`loop_a`).
    old16: Signal<Local, Bits<128>>,
    old_mm16: Signal<Local, Bits<128>>,
    old_f32: Signal<Local, Bits<128>>,
    old_f64: Signal<Local, Bits<128>>,
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

    // Delay lines: the request's valid bit and form code (the whole latency), and each lane
    // group's result from its own latency to the ALU's.
    dly_valid: Delay<Bit>,
    dly_form: Delay<Bits<CODE_WIDTH>>,
    dly_ctl: Delay<Bits<7>>,
    dly_int: Delay<Bits<64>>,
    dly_mm_lo: Delay<Bits<64>>,
    dly_mm_hi: Delay<Bits<64>>,
    dly_add16_lo: Delay<Bits<64>>,
    dly_add16_hi: Delay<Bits<64>>,
    dly_f32_lo: Delay<Bits<64>>,
    dly_f32_hi: Delay<Bits<64>>,
    dly_f64_lo: Delay<Bits<64>>,
    dly_f64_hi: Delay<Bits<64>>,
}

impl Default for ReductionAlu {
    /// The default configuration (latency [`ALU_LATENCY`]).
    fn default() -> Self {
        Self::new(&Config::default())
    }
}

impl ReductionAlu {
    /// The ALU with the adders at `cfg`'s depths; latency [`Config::alu_latency`].
    pub fn new(cfg: &Config) -> Self {
        Self::with_early_hold(cfg, false)
    }

    /// This ALU taking the old value of its min/max lanes from `in_old_mm` and that of its
    /// f32/f64 adders from `in_old_wide` (the caller drives both with `in_old`'s value, from
    /// replicas of its registers: the unit).
    pub fn with_old_replicas(mut self) -> Self {
        self.replicas = Constant::new(true);
        self
    }

    /// This ALU for a caller that sends it floating-point forms only (the unit, whose integer
    /// forms go to integer ALUs of its own): the integer ALU's operands are tied to zero and
    /// held and its result is not delayed or selected, so synthesis removes it. An integer
    /// form's result is then zero.
    pub fn fp_only(mut self) -> Self {
        self.no_int = Constant::new(true);
        self
    }

    /// The same ALU; when `early`, its operand isolation (`hold`) and output select are
    /// decoded from `pre_valid`/`pre_form` (the next cycle's `in_valid`/`in_form`) and
    /// registered, so that the units' clock enables hang off registers (the unit, which knows
    /// its next operation a cycle ahead).
    pub fn with_early_hold(cfg: &Config, early: bool) -> Self {
        let lat = cfg.alu_latency();
        let fp = cfg.fp_add_latency();
        let fp16 = cfg.fp16_add_latency();
        let int = cfg.int_alu_latency();
        let mm = cfg.minmax16_latency();
        Self {
            clock: Default::default(),
            in_valid: Default::default(),
            in_form: Default::default(),
            in_old: Default::default(),
            in_b: Default::default(),
            in_old_mm: Default::default(),
            in_old_wide: Default::default(),
            pre_valid: Default::default(),
            pre_form: Default::default(),
            loop_a: Default::default(),
            out_valid: Default::default(),
            out_form: Default::default(),
            out_data: Default::default(),
            int_alu: IntAlu::new(cfg),
            add16: std::array::from_fn(|_| FpAdd16::new(cfg)),
            minmax16: std::array::from_fn(|_| FpMinMax16::new(cfg)),
            add_f32: std::array::from_fn(|_| FpAddF32::new(cfg)),
            add_f64: FpAddF64::new(cfg),
            add_f64_hi: FpAddF64::new(cfg),
            control: AluControl::new(early),
            out_select: OutSelect::new(),
            op_lsb: k(OP_LSB as u128),
            ty_lsb: k(TYPE_LSB as u128),
            space_lsb: k(SPACE_LSB as u128),
            op_max: k(Op::Max as u128),
            ty_bf16: k(Type::Bf16 as u128),
            ty_bf16x2: k(Type::Bf16x2 as u128),
            zero64: k(0),
            in_op: Default::default(),
            in_ty: Default::default(),
            in_shared: Default::default(),
            in_bf16: Default::default(),
            replicas: Constant::new(false),
            no_int: Constant::new(false),
            old_mm: Default::default(),
            old_wide: Default::default(),
            old16: Default::default(),
            old_mm16: Default::default(),
            old_f32: Default::default(),
            old_f64: Default::default(),
            lane_mm: Default::default(),
            lane_add16: Default::default(),
            lane_f32: Default::default(),
            mm_lo: Default::default(),
            mm_hi: Default::default(),
            add16_lo: Default::default(),
            add16_hi: Default::default(),
            f32_lo: Default::default(),
            f32_hi: Default::default(),
            dly_valid: Delay::new(lat),
            dly_form: Delay::new(lat),
            dly_ctl: Delay::new(lat - 1),
            dly_int: Delay::new(lat - int),
            dly_mm_lo: Delay::new(lat - mm),
            dly_mm_hi: Delay::new(lat - mm),
            dly_add16_lo: Delay::new(lat - fp16),
            dly_add16_hi: Delay::new(lat - fp16),
            dly_f32_lo: Delay::new(lat - fp),
            dly_f32_hi: Delay::new(lat - fp),
            dly_f64_lo: Delay::new(lat - fp),
            dly_f64_hi: Delay::new(lat - fp),
        }
    }
}

impl Logic for ReductionAlu {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, control, out_select, dly_valid, dly_form, dly_ctl, dly_int, dly_mm_lo, dly_mm_hi);
        clock!(self, clock, dly_add16_lo, dly_add16_hi, dly_f32_lo, dly_f32_hi, dly_f64_lo, dly_f64_hi);

        // Stage 1: decode the form, feed every unit its slice of the operands (the units
        // register their own stage-1 results).
        self.in_op.next = self.in_form.val().get_bits::<OP_WIDTH>(self.op_lsb.val().index());
        self.in_ty.next = self.in_form.val().get_bits::<TYPE_WIDTH>(self.ty_lsb.val().index());
        self.in_shared.next = self.in_form.val().get_bit(self.space_lsb.val().index());
        self.in_bf16.next = (self.in_ty.val() == self.ty_bf16.val()) || (self.in_ty.val() == self.ty_bf16x2.val());

        // The old value of the min/max lanes and of the f32/f64 adders: `in_old`, or its
        // replicas.
        self.old_mm.next = self.in_old.val();
        self.old_wide.next = self.in_old.val();
        if self.replicas.val() {
            self.old_mm.next = self.in_old_mm.val();
            self.old_wide.next = self.in_old_wide.val();
        }

        // The FP loop: each unit's lanes take their own results (the delay lines' ends, every
        // lane at the ALU's latency; registers) in place of the old value.
        self.old16.next = self.in_old.val();
        self.old_mm16.next = self.old_mm.val();
        self.old_f32.next = self.old_wide.val();
        self.old_f64.next = self.old_wide.val();
        if self.loop_a.val() {
            self.old16.next =
                (bit_cast::<128, 64>(self.dly_add16_hi.q.val()) << 64) | bit_cast::<128, 64>(self.dly_add16_lo.q.val());
            self.old_mm16.next =
                (bit_cast::<128, 64>(self.dly_mm_hi.q.val()) << 64) | bit_cast::<128, 64>(self.dly_mm_lo.q.val());
            self.old_f32.next =
                (bit_cast::<128, 64>(self.dly_f32_hi.q.val()) << 64) | bit_cast::<128, 64>(self.dly_f32_lo.q.val());
            self.old_f64.next =
                (bit_cast::<128, 64>(self.dly_f64_hi.q.val()) << 64) | bit_cast::<128, 64>(self.dly_f64_lo.q.val());
        }

        // The result select and the operand isolation (`hold`: only the unit that executes
        // the form loads its operands), decoded now or a cycle early.
        self.control.in_valid.next = self.in_valid.val();
        self.control.in_form.next = self.in_form.val();
        self.control.pre_valid.next = self.pre_valid.val();
        self.control.pre_form.next = self.pre_form.val();

        self.int_alu.clock.next = self.clock.val();
        self.int_alu.op.next = self.in_op.val();
        self.int_alu.loop_a.next = false;
        self.int_alu.loop_1.next = false;
        self.int_alu.ty.next = self.in_ty.val();
        self.int_alu.a.next = self.in_old.val().get_bits::<64>(0);
        self.int_alu.b.next = self.in_b.val().get_bits::<64>(0);
        self.int_alu.hold.next = self.control.hold_int.val();
        if self.no_int.val() {
            self.int_alu.hold.next = true;
            self.int_alu.a.next = self.zero64.val();
            self.int_alu.b.next = self.zero64.val();
        }
        for i in 0..8 {
            self.add16[i].clock.next = self.clock.val();
            self.add16[i].a.next = self.old16.val().get_bits::<16>(16 * i);
            self.add16[i].b.next = self.in_b.val().get_bits::<16>(16 * i);
            self.add16[i].bf16.next = self.in_bf16.val();
            self.add16[i].hold.next = self.control.hold_add16.val();
            self.minmax16[i].clock.next = self.clock.val();
            self.minmax16[i].a.next = self.old_mm16.val().get_bits::<16>(16 * i);
            self.minmax16[i].b.next = self.in_b.val().get_bits::<16>(16 * i);
            self.minmax16[i].bf16.next = self.in_bf16.val();
            self.minmax16[i].max.next = self.in_op.val() == self.op_max.val();
            self.minmax16[i].hold.next = self.control.hold_mm.val();
        }
        for i in 0..4 {
            self.add_f32[i].clock.next = self.clock.val();
            self.add_f32[i].a.next = self.old_f32.val().get_bits::<32>(32 * i);
            self.add_f32[i].b.next = self.in_b.val().get_bits::<32>(32 * i);
            // Global f32 flushes subnormal inputs and results.
            self.add_f32[i].ftz.next = !self.in_shared.val();
            self.add_f32[i].nan_quiet.next = false;
            self.add_f32[i].hold.next = self.control.hold_f32.val();
        }
        self.add_f64.clock.next = self.clock.val();
        self.add_f64.a.next = self.old_f64.val().get_bits::<64>(0);
        self.add_f64.b.next = self.in_b.val().get_bits::<64>(0);
        self.add_f64.ftz.next = false;
        self.add_f64.nan_quiet.next = self.in_shared.val();
        self.add_f64.hold.next = self.control.hold_f64.val();
        self.add_f64_hi.clock.next = self.clock.val();
        self.add_f64_hi.a.next = self.old_f64.val().get_bits::<64>(64);
        self.add_f64_hi.b.next = self.in_b.val().get_bits::<64>(64);
        self.add_f64_hi.ftz.next = false;
        self.add_f64_hi.nan_quiet.next = self.in_shared.val();
        self.add_f64_hi.hold.next = self.control.hold_f64.val();

        // Delay lines: the request (valid bit, form code, and its select: one register
        // shorter, the last place is the output stage's `o_sel`), and every lane group's
        // result from its own latency (integer and min/max: 1; f16/bf16 adders; f32/f64
        // adders) to the ALU's (the deepest).
        self.dly_valid.d.next = self.in_valid.val();
        self.dly_form.d.next = self.in_form.val();
        self.dly_ctl.d.next = self.control.ctl.val();
        self.dly_int.d.next = self.int_alu.y.val();
        if self.no_int.val() {
            // Nothing reads the integer result, so synthesis removes the integer ALU (its
            // carry cells are instances, which constant operands alone do not remove).
            self.dly_int.d.next = self.zero64.val();
        }
        self.mm_lo.next = self.zero64.val();
        self.mm_hi.next = self.zero64.val();
        for i in 0..4 {
            self.lane_mm.next = self.minmax16[3 - i].y.val();
            self.mm_lo.next = (self.mm_lo.val() << 16) | bit_cast::<64, 16>(self.lane_mm.val());
            self.lane_mm.next = self.minmax16[7 - i].y.val();
            self.mm_hi.next = (self.mm_hi.val() << 16) | bit_cast::<64, 16>(self.lane_mm.val());
        }
        self.dly_mm_lo.d.next = self.mm_lo.val();
        self.dly_mm_hi.d.next = self.mm_hi.val();
        self.add16_lo.next = self.zero64.val();
        self.add16_hi.next = self.zero64.val();
        for i in 0..4 {
            self.lane_add16.next = self.add16[3 - i].sum.val();
            self.add16_lo.next = (self.add16_lo.val() << 16) | bit_cast::<64, 16>(self.lane_add16.val());
            self.lane_add16.next = self.add16[7 - i].sum.val();
            self.add16_hi.next = (self.add16_hi.val() << 16) | bit_cast::<64, 16>(self.lane_add16.val());
        }
        self.lane_f32.next = self.add_f32[1].sum.val();
        self.f32_lo.next =
            (bit_cast::<64, 32>(self.lane_f32.val()) << 32) | bit_cast::<64, 32>(self.add_f32[0].sum.val());
        self.lane_f32.next = self.add_f32[3].sum.val();
        self.f32_hi.next =
            (bit_cast::<64, 32>(self.lane_f32.val()) << 32) | bit_cast::<64, 32>(self.add_f32[2].sum.val());
        self.dly_add16_lo.d.next = self.add16_lo.val();
        self.dly_add16_hi.d.next = self.add16_hi.val();
        self.dly_f32_lo.d.next = self.f32_lo.val();
        self.dly_f32_hi.d.next = self.f32_hi.val();
        self.dly_f64_lo.d.next = self.add_f64.sum.val();
        self.dly_f64_hi.d.next = self.add_f64_hi.sum.val();

        // Output (after the delay lines and the deepest lanes' last logic): select by
        // form, mask.
        self.out_select.ctl.next = self.dly_ctl.q.val();
        self.out_select.f32_lo.next = self.dly_f32_lo.q.val();
        self.out_select.f32_hi.next = self.dly_f32_hi.q.val();
        self.out_select.f64_lo.next = self.dly_f64_lo.q.val();
        self.out_select.f64_hi.next = self.dly_f64_hi.q.val();
        self.out_select.mm_lo.next = self.dly_mm_lo.q.val();
        self.out_select.mm_hi.next = self.dly_mm_hi.q.val();
        self.out_select.add16_lo.next = self.dly_add16_lo.q.val();
        self.out_select.add16_hi.next = self.dly_add16_hi.q.val();
        self.out_select.int_lo.next = self.dly_int.q.val();
        self.out_valid.next = self.dly_valid.q.val();
        self.out_form.next = self.dly_form.q.val();
        self.out_data.next = self.out_select.data.val();
    }
}

/// The Verilog of the ALU (default configuration) as a `top` module.
pub fn alu_verilog() -> String {
    alu_verilog_with(&Config::default())
}

/// The Verilog of the ALU at `cfg`'s depths as a `top` module.
pub fn alu_verilog_with(cfg: &Config) -> String {
    crate::verilog::verilog(&mut ReductionAlu::new(cfg))
}
