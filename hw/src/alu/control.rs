//! The ALU's control decode: the form's result select (`ctl`, delayed beside the request to
//! the output stage) and each unit's operand isolation (`hold_*`), decoded from this cycle's
//! request or, with `early`, from the next one's (`pre_*`) and registered, so that the units'
//! load enables come straight from flip-flops.

use crate::k;
use rust_hdl::prelude::*;
use sim::form::encoding::{CODE_WIDTH, OP_LSB, OP_WIDTH, TYPE_LSB, TYPE_WIDTH, VEC_LSB, VEC_WIDTH};
use sim::{Op, Type};

#[derive(LogicBlock)]
pub(super) struct AluControl {
    pub clock: Signal<In, Clock>,
    pub in_valid: Signal<In, Bit>,
    pub in_form: Signal<In, Bits<CODE_WIDTH>>,
    /// The next cycle's `in_valid` and `in_form` (read only when `early`).
    pub pre_valid: Signal<In, Bit>,
    pub pre_form: Signal<In, Bits<CODE_WIDTH>>,
    /// The result select of this cycle's request (so the output needs no form decode): bits
    /// 2..0 log2 of the access width in bits, then one-hot f32, f64, f16/bf16 min/max,
    /// f16/bf16 add (none: integer).
    pub ctl: Signal<Out, Bits<7>>,
    /// Each unit's operand isolation (high: keep the last operands).
    pub hold_int: Signal<Out, Bit>,
    pub hold_f32: Signal<Out, Bit>,
    pub hold_f64: Signal<Out, Bit>,
    pub hold_mm: Signal<Out, Bit>,
    pub hold_add16: Signal<Out, Bit>,

    // Form-code field positions and values.
    // (4 bits: a bit index into the 10-bit code)
    op_lsb: Constant<Bits<4>>,
    ty_lsb: Constant<Bits<4>>,
    vec_lsb: Constant<Bits<4>>,
    op_add: Constant<Bits<OP_WIDTH>>,
    ty_b64: Constant<Bits<TYPE_WIDTH>>,
    ty_u64: Constant<Bits<TYPE_WIDTH>>,
    ty_s64: Constant<Bits<TYPE_WIDTH>>,
    ty_f32: Constant<Bits<TYPE_WIDTH>>,
    ty_f64: Constant<Bits<TYPE_WIDTH>>,
    ty_f16: Constant<Bits<TYPE_WIDTH>>,
    ty_bf16: Constant<Bits<TYPE_WIDTH>>,
    ty_f16x2: Constant<Bits<TYPE_WIDTH>>,
    ty_bf16x2: Constant<Bits<TYPE_WIDTH>>,
    ctl_f32: Constant<Bits<7>>,
    ctl_f64: Constant<Bits<7>>,
    ctl_mm: Constant<Bits<7>>,
    ctl_add16: Constant<Bits<7>>,
    log2_16: Constant<Bits<3>>,
    log2_32: Constant<Bits<3>>,
    log2_64: Constant<Bits<3>>,
    ones5: Constant<Bits<5>>,
    /// Decoded a cycle early and registered.
    early: Constant<Bit>,

    /// The decode's form (`in_form`, or `pre_form` when early), its op, type and vector
    /// field, log2 of its access width, and its select (`ctl`'s value, now or a cycle early).
    c_form: Signal<Local, Bits<CODE_WIDTH>>,
    c_op: Signal<Local, Bits<OP_WIDTH>>,
    c_ty: Signal<Local, Bits<TYPE_WIDTH>>,
    in_vec: Signal<Local, Bits<VEC_WIDTH>>,
    in_log2: Signal<Local, Bits<3>>,
    c_ctl: Signal<Local, Bits<7>>,
    unused_c_form: Signal<Local, Bit>,
    ctl_r: DFF<Bits<7>>,
    /// The units' holds (bit 0 int, then f32, f64, min/max, f16/bf16 add) from the decode,
    /// registered, and the ones in use.
    vb_h: Signal<Local, Bit>,
    vb_i: Signal<Local, Bit>,
    hold_nx: Signal<Local, Bits<5>>,
    hold_r: DFF<Bits<5>>,
    hold_h: Signal<Local, Bits<5>>,
}

impl AluControl {
    pub(super) fn new(early: bool) -> Self {
        let op = |o: Op| k::<OP_WIDTH>(o as u128);
        let ty = |t: Type| k::<TYPE_WIDTH>(t as u128);
        Self {
            clock: Default::default(),
            in_valid: Default::default(),
            in_form: Default::default(),
            pre_valid: Default::default(),
            pre_form: Default::default(),
            ctl: Default::default(),
            hold_int: Default::default(),
            hold_f32: Default::default(),
            hold_f64: Default::default(),
            hold_mm: Default::default(),
            hold_add16: Default::default(),
            op_lsb: k(OP_LSB as u128),
            ty_lsb: k(TYPE_LSB as u128),
            vec_lsb: k(VEC_LSB as u128),
            op_add: op(Op::Add),
            ty_b64: ty(Type::B64),
            ty_u64: ty(Type::U64),
            ty_s64: ty(Type::S64),
            ty_f32: ty(Type::F32),
            ty_f64: ty(Type::F64),
            ty_f16: ty(Type::F16),
            ty_bf16: ty(Type::Bf16),
            ty_f16x2: ty(Type::F16x2),
            ty_bf16x2: ty(Type::Bf16x2),
            ctl_f32: k(1 << 3),
            ctl_f64: k(1 << 4),
            ctl_mm: k(1 << 5),
            ctl_add16: k(1 << 6),
            log2_16: k(4),
            log2_32: k(5),
            log2_64: k(6),
            ones5: k(0b11111),
            early: Constant::new(early),
            c_form: Default::default(),
            c_op: Default::default(),
            c_ty: Default::default(),
            in_vec: Default::default(),
            in_log2: Default::default(),
            c_ctl: Default::default(),
            unused_c_form: Default::default(),
            ctl_r: Default::default(),
            vb_h: Default::default(),
            vb_i: Default::default(),
            hold_nx: Default::default(),
            hold_r: Default::default(),
            hold_h: Default::default(),
        }
    }
}

impl Logic for AluControl {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, hold_r, ctl_r);

        // The result select, decoded here (or a cycle early, from `pre_form`): log2 of the
        // element width, then of the access.
        self.c_form.next = self.in_form.val();
        if self.early.val() {
            self.c_form.next = self.pre_form.val();
        }
        self.c_op.next = self.c_form.val().get_bits::<OP_WIDTH>(self.op_lsb.val().index());
        // (The space bit is not part of the decode.)
        self.unused_c_form.next = self.c_form.val().any();
        self.c_ty.next = self.c_form.val().get_bits::<TYPE_WIDTH>(self.ty_lsb.val().index());
        self.in_vec.next = self.c_form.val().get_bits::<VEC_WIDTH>(self.vec_lsb.val().index());
        self.in_log2.next = self.log2_32.val();
        if (self.c_ty.val() == self.ty_f16.val()) || (self.c_ty.val() == self.ty_bf16.val()) {
            self.in_log2.next = self.log2_16.val();
        }
        if (self.c_ty.val() == self.ty_b64.val())
            || (self.c_ty.val() == self.ty_u64.val())
            || (self.c_ty.val() == self.ty_s64.val())
            || (self.c_ty.val() == self.ty_f64.val())
        {
            self.in_log2.next = self.log2_64.val();
        }
        self.in_log2.next = self.in_log2.val() + bit_cast::<3, VEC_WIDTH>(self.in_vec.val());
        self.c_ctl.next = bit_cast::<7, 3>(self.in_log2.val());
        if self.c_ty.val() == self.ty_f32.val() {
            self.c_ctl.next = self.c_ctl.val() | self.ctl_f32.val();
        } else if self.c_ty.val() == self.ty_f64.val() {
            self.c_ctl.next = self.c_ctl.val() | self.ctl_f64.val();
        } else if (self.c_ty.val() == self.ty_f16.val())
            || (self.c_ty.val() == self.ty_f16x2.val())
            || (self.c_ty.val() == self.ty_bf16.val())
            || (self.c_ty.val() == self.ty_bf16x2.val())
        {
            if self.c_op.val() == self.op_add.val() {
                self.c_ctl.next = self.c_ctl.val() | self.ctl_add16.val();
            } else {
                self.c_ctl.next = self.c_ctl.val() | self.ctl_mm.val();
            }
        }
        self.ctl_r.d.next = self.c_ctl.val();
        self.ctl.next = self.c_ctl.val();
        if self.early.val() {
            self.ctl.next = self.ctl_r.q.val();
        }

        // Operand isolation: only the unit that executes the form (the unit bits of the
        // select; none: the integer ALU) loads its operands, the others keep theirs. Besides
        // saving their switching, this keeps each unit's input registers its own: fed the same
        // operand bits, synthesis would merge them into one register fanned out to every unit.
        // (Early: from the next cycle's operation, registered, one flip-flop per unit kind.)
        self.vb_h.next = self.in_valid.val();
        if self.early.val() {
            self.vb_h.next = self.pre_valid.val();
        }
        // Bit 0: the integer ALU (no unit bit); bits 1-4: `c_ctl`'s unit bits 3-6 (f32, f64,
        // min/max, f16/bf16 add).
        self.vb_i.next = !self.c_ctl.val().get_bits::<4>(3).any();
        self.hold_nx.next = self.ones5.val();
        if self.vb_h.val() {
            self.hold_nx.next = !((bit_cast::<5, 4>(self.c_ctl.val().get_bits::<4>(3)) << 1)
                | bit_cast::<5, 1>(self.vb_i.val().into()));
        }
        self.hold_r.d.next = self.hold_nx.val();
        self.hold_h.next = self.hold_nx.val();
        if self.early.val() {
            self.hold_h.next = self.hold_r.q.val();
        }
        self.hold_int.next = self.hold_h.val().get_bit(0);
        self.hold_f32.next = self.hold_h.val().get_bit(1);
        self.hold_f64.next = self.hold_h.val().get_bit(2);
        self.hold_mm.next = self.hold_h.val().get_bit(3);
        self.hold_add16.next = self.hold_h.val().get_bit(4);
    }
}
