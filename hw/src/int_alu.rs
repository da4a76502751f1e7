//! The integer and bitwise unit: add, and, or, xor, min, max (signed and unsigned) on 32 and
//! 64 bits, inc and dec on u32 (PTX definitions, which the H100 follows exactly).
//!
//! 32-bit forms use the low 32 bits of `a`/`b` and give a result with bits 63..32 zero.
//! Signed compares flip the sign bit and compare unsigned. Latency [`INT_ALU_LATENCY`] in the
//! default configuration (the inputs are registered and the result is computed from those
//! registers); the ALU delays the result to its common latency.
//!
//! The 64-bit work is split in two segments with a candidate pipeline cut between them
//! ([`Config::int_stages`], 1 or 2: the cut `c1_*` is a wire at 1 and a register at 2). The
//! *fast* forms (add, and, or, xor) are skewed over the segments, low half first:
//!
//! | segment | work |
//! | --- | --- |
//! | 1 (from the `s0_` registers) | the fast low result `fast_lo` (the low halves' sum, with its carry out, or their bitwise result); the compares of the halves, each a carry chain (the high halves both ways, with a top bit that makes them false for 32-bit forms; the sign bit flipped for s64 and s32), `M + 1`, `M - 1` (its borrow is `M == 0`) and `b < M` (u32 forms); from them, min/max's choice of `b` (one LUT: `a < b` from three chains, and max), inc's select |
//! | 2 (drives `y`) | the fast high result (`a_hi + b_hi + carry`, a carry chain from the registers with the carry as its low bit, or with [`IntAlu::with_carry_select`] both sums and the carry choosing; or the high halves' bitwise result); an AND-OR of the candidates by the registered selects (min/max's `a` or `b` by its registered choice, dec's `b` or `M - 1` by its registered condition), the high sum ORed in last |
//!
//! **The loops.** `loop_a` loads `a`'s register from this cycle's `y` instead of the input: an
//! operation that depends on the one `int_stages` cycles ahead of it takes that one's result
//! where it is made (a chain of integer reductions to one address runs every `int_stages`
//! cycles). With the decisions made in segment 1, `y` but for the high sum (`yg`) is an
//! AND-OR of registers, so the register's input is one LUT from them. The high sum, last of
//! its carry chain, goes only where the chain is: into `ya_hi`, `y`'s high half registered,
//! which the next op's fast result reads as `M`'s high half under the loop (it is made in
//! segment 2, fed from the cut beside the chain). The compares of segment 1 read `a`'s
//! register, whose high half lacks the sum: a compare (min, max, inc, dec) never takes the
//! loop behind a 64-bit add (the unit's chain keys keep them apart).
//!
//! `loop_1` chains fast forms of one width every cycle: with it, an add/and/or/xor whose
//! producer (the op presented one cycle earlier, also add/and/or/xor of that width) is one
//! cycle ahead takes that result as `M` for its fast result (its other candidates still read
//! `a`). Segment 1 takes the low half from `lo_fb` (segment 1's `fast_lo`, loaded with each
//! op), a cycle after the producer's segment 1: its loop is the operand's 2:1 select, a
//! 32-bit carry chain (the select in the carry cells' LUTs: [`MuxAdd`]) and the sum/bitwise
//! select. The high half is selected before the cut (`c1_m_hi`): with a registered cut it is
//! this cycle's `y` (the producer is in segment 2), so segment 2's loop is the high carry
//! chain, fed by registers, and one LUT (the sum ORed into the select of the rest);
//! with a wire it is `hi_fb`, `y`'s high half registered. `lo_fb` and `hi_fb` keep their
//! value while the op's registers hold (`lo_fb` with `hold`, `hi_fb` a cycle later with it,
//! `c1_hold`): a held op computes the same result again (from `hi_fb`, its producer's result
//! being a cycle older), so the op after a `hold` cycle may chain to the one before it.

use crate::config::{Config, Cut, HoldReg};
use crate::ecp5::MuxAdd;
use crate::ecp5::hold_replica_reg::HoldReplicaReg;
use crate::fp_add::bits_u128;
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
    /// The loop: `M` is this cycle's `y` (the result of the op `int_stages` cycles ahead),
    /// not `a`. Not for min, max, inc or dec behind a 64-bit add (the compares do not see
    /// the loop's high sum).
    pub loop_a: Signal<In, Bit>,
    /// The loop of the fast forms: `M` is the result of the op presented one cycle earlier.
    /// Only when both are add, and, or or xor (any mix) of one width; over `loop_a`.
    pub loop_1: Signal<In, Bit>,
    /// The result, `int_stages` cycles later.
    pub y: Signal<Out, Bits<64>>,

    op_add: Constant<Bits<OP_WIDTH>>,
    op_and: Constant<Bits<OP_WIDTH>>,
    op_or: Constant<Bits<OP_WIDTH>>,
    op_xor: Constant<Bits<OP_WIDTH>>,
    op_min: Constant<Bits<OP_WIDTH>>,
    op_max: Constant<Bits<OP_WIDTH>>,
    op_inc: Constant<Bits<OP_WIDTH>>,
    op_dec: Constant<Bits<OP_WIDTH>>,
    ty_b64: Constant<Bits<TYPE_WIDTH>>,
    ty_u64: Constant<Bits<TYPE_WIDTH>>,
    ty_s64: Constant<Bits<TYPE_WIDTH>>,
    ty_s32: Constant<Bits<TYPE_WIDTH>>,
    one33: Constant<Bits<33>>,
    zero33: Constant<Bits<33>>,
    bit32_33: Constant<Bits<33>>,
    bit31_32: Constant<Bits<32>>,
    zero32: Constant<Bits<32>>,

    // Decode of the op and type at the input (registered as the s0_ kind bits).
    is64: Signal<Local, Bit>,
    is_signed: Signal<Local, Bit>,
    is_mm: Signal<Local, Bit>,
    // Segment 1.
    flip_lo: Signal<Local, Bits<32>>,
    flip_hi: Signal<Local, Bits<32>>,
    a_lo: Signal<Local, Bits<32>>,
    b_lo: Signal<Local, Bits<32>>,
    a_hi: Signal<Local, Bits<32>>,
    b_hi: Signal<Local, Bits<32>>,
    /// The fast low result: the low halves' sum or bitwise result, `M`'s low half from
    /// `lo_fb` under `loop_1`.
    lo_m: Signal<Local, Bits<32>>,
    sum_lo: Signal<Local, Bits<33>>,
    /// The low sum of `lo_m` and `b`: the select and the carry chain in one (see [`MuxAdd`]).
    add_lo: MuxAdd,
    bw_lo: Signal<Local, Bits<32>>,
    fast_lo: Signal<Local, Bits<32>>,
    dec33: Signal<Local, Bits<33>>,
    /// The compared halves (sign bit flipped for signed forms, by registered flips) and their
    /// compares.
    x_alo: Signal<Local, Bits<32>>,
    x_blo: Signal<Local, Bits<32>>,
    x_ahi: Signal<Local, Bits<32>>,
    x_bhi: Signal<Local, Bits<32>>,
    /// The high compares' operands with a top bit that makes them false for 32-bit forms.
    x_ahi_lt: Signal<Local, Bits<33>>,
    x_bhi_gt: Signal<Local, Bits<33>>,
    lt_lo: Signal<Local, Bit>,
    lt_hi: Signal<Local, Bit>,
    gt_hi: Signal<Local, Bit>,
    /// `a < b` (at either width).
    lt: Signal<Local, Bit>,
    /// The low half's selects of the sum and the bitwise result.
    k_sum: Signal<Local, Bit>,
    k_bw: Signal<Local, Bit>,
    /// `loop_1`'s high half of `M` as segment 1 sees it: the producer's `y` high half, this
    /// cycle's (registered cut, unless the op repeats after `hold`) or `hi_fb`; this
    /// cycle's without the high sum, which `m_hx` ORs in after the select (`m_hg`).
    p_hi: Signal<Local, Bits<32>>,
    // Segment 2: the fast high result `hi_x = {m, cy} + {b, cy}` (bits 32..1: one carry
    // chain with the low carry in, fed by the cut's registers).
    hi_m: Signal<Local, Bits<32>>,
    hi_b: Signal<Local, Bits<32>>,
    /// `{m, 0}` and `{b, 0}`, and the carry into their sum (`{0.., c1_cy}`; zero with a
    /// carry select, where `c1_cy` chooses between two sums instead).
    hi_ca: Signal<Local, Bits<33>>,
    hi_cb: Signal<Local, Bits<33>>,
    hi_ci: Signal<Local, Bits<33>>,
    hi_x: Signal<Local, Bits<33>>,
    /// With a carry select (`csel`): the high sum with a carry in of one (zero otherwise);
    /// `hi_x` is then the sum with none, `c1_cy` choosing between them after the chains.
    hi_x1: Signal<Local, Bits<33>>,
    /// The high sum as a carry select ([`IntAlu::with_carry_select`]).
    csel: Constant<Bit>,
    /// The high sum (`hi_x`'s bits 32..1) and the rest of `y`'s high half: the sum, last of
    /// the carry chain, joins each user in one LUT (`y`, `c1_m_hi`, `ya_hi`).
    hi_sum: Signal<Local, Bits<32>>,
    y_hg: Signal<Local, Bits<32>>,
    m_hg: Signal<Local, Bits<32>>,
    k_m_sum: Signal<Local, Bit>,
    y_hx: Signal<Local, Bits<32>>,
    m_hx: Signal<Local, Bits<32>>,
    y_lo: Signal<Local, Bits<32>>,
    y_hi: Signal<Local, Bits<32>>,

    // Candidate cut between the segments (`c1_`): the candidates and their selects.
    /// `M`'s low half, and its high half (`a`'s, or `loop_1`'s `p_hi`).
    c1_a_lo: Cut<Bits<32>>,
    c1_m_hi: Cut<Bits<32>>,
    c1_b: Cut<Bits<64>>,
    /// The fast low result and the low sum's carry out.
    c1_fast_lo: Cut<Bits<32>>,
    c1_cy: Cut<Bit>,
    /// `hold` (`hi_fb` keeps its value; the op in segment 1 repeats the one in segment 2).
    c1_hold: Cut<Bit>,
    /// `M + 1` and `M - 1` of the low halves (inc/dec are u32 forms only).
    c1_inc: Cut<Bits<32>>,
    c1_dec: Cut<Bits<32>>,
    /// The low half's selects: the fast result, min/max (of `a` or `b` by `c1_take_b`),
    /// `M + 1`; dec, and its condition `M == 0 || M > b` (the result `b`, else `M - 1`).
    c1_s_fast: Cut<Bit>,
    c1_s_mm: Cut<Bit>,
    c1_s_inc: Cut<Bit>,
    c1_k_dec: Cut<Bit>,
    c1_dec_b: Cut<Bit>,
    /// The high half's selects (all low for 32-bit forms, whose high half is zero): the high
    /// sum, the high halves' and, or, xor, min/max.
    c1_h_sum: Cut<Bit>,
    c1_h_and: Cut<Bit>,
    c1_h_or: Cut<Bit>,
    c1_h_xor: Cut<Bit>,
    c1_h_mm: Cut<Bit>,
    /// min/max's choice of `b`: `a < b` is max (one LUT of the compare chains and `s0_max`;
    /// the op and width are in the selects above, decoded at the input).
    c1_take_b: Cut<Bit>,

    // Input registers (the result is computed from them). The op's decode holds with the
    // operands and each lane keeps its own (`HoldReplicaReg`): as plain registers, Yosys
    // merged the unit's four integer lanes' copies into one, whose fan-out to the lanes'
    // sign flips is a critical path at 150 MHz.
    s0_op: HoldReplicaReg<Bits<OP_WIDTH>>,
    s0_is64: HoldReplicaReg<Bit>,
    /// The compares' controls decoded at the input: the sign flips of the low and the high
    /// half and the high compares' top bit (32-bit forms), so that the chains' operand bits
    /// are registers or one XOR of two.
    s0_flo: HoldReplicaReg<Bit>,
    s0_fhi: HoldReplicaReg<Bit>,
    s0_n64: HoldReplicaReg<Bit>,
    /// min/max decoded at the input (of 64 bits; of any width), max and inc: the selects
    /// after the compare chains are then one LUT each.
    s0_mm64: HoldReplicaReg<Bit>,
    s0_mm: HoldReplicaReg<Bit>,
    s0_max: HoldReplicaReg<Bit>,
    s0_inc: HoldReplicaReg<Bit>,
    s0_a: LoopReg,
    /// `loop_a` registered, and `y`'s high half with the sum (the loop's `M` high half for
    /// the fast result; beside the high chain, apart from `s0_a`'s compares).
    s0_la: HoldReg<Bit>,
    ya_hi: HoldReg<Bits<32>>,
    /// (Each lane keeps its own: the unit's lanes overlap, lane 0's high half being lane 1's
    /// low half, and one merged register fed both lanes' compares, placed apart.)
    s0_b: HoldReplicaReg<Bits<64>>,
    s0_l1: HoldReg<Bit>,
    // The sources of `loop_1` (registers, not cuts: no combinational loop at one stage;
    // blocks of their own, so that no statement group here reads `hold` and writes `y`).
    lo_fb: HoldReg<Bits<32>>,
    hi_fb: HoldReg<Bits<32>>,
    /// The cut is a register ([`Config::int_stages`] 2).
    cut_on: Constant<Bit>,
}

/// `M`'s input register: loads `y` without the high sum (`yg`: the loop) or `a`, keeps its
/// value while `hold`. The high sum's users in the next op are the fast forms, which read
/// `M`'s high half from `ya_hi` beside the high carry chain; the compares never follow a
/// 64-bit add in the loop (see `loop_a`), so the sum never travels to segment 1's chains. A
/// block of its own, so that no statement group that reads `a` writes `y` (Verilator would
/// see a loop from `a` to `y` through the unit's chain select). A replica: the unit's lanes
/// overlap, as for `s0_b`.
#[derive(LogicBlock, Default)]
pub struct LoopReg {
    pub clock: Signal<In, Clock>,
    pub a: Signal<In, Bits<64>>,
    /// `y` without the high sum: its low half, and the high half's other candidates.
    pub yg: Signal<In, Bits<64>>,
    pub take_y: Signal<In, Bit>,
    pub hold: Signal<In, Bit>,
    pub q: Signal<Out, Bits<64>>,
    r: HoldReplicaReg<Bits<64>>,
}

impl Logic for LoopReg {
    #[hdl_gen]
    fn update(&mut self) {
        self.r.clock.next = self.clock.val();
        self.r.hold.next = self.hold.val();
        self.r.d.next = self.a.val();
        if self.take_y.val() {
            self.r.d.next = self.yg.val();
        }
        self.q.next = self.r.q.val();
    }
}

impl Default for IntAlu {
    /// The default configuration (latency [`INT_ALU_LATENCY`]).
    fn default() -> Self {
        Self::new(&Config::default())
    }
}

impl IntAlu {
    /// The high sum as a carry select: both high sums (carry in zero and one) from the cut's
    /// registers, the low half's carry (`c1_cy`) choosing in the result's last LUT, so that
    /// the carry register feeds no carry chain. For an ALU whose loops stay off (the unit's
    /// masked-sector lanes): the low and the high half's chains can then be placed apart
    /// without the carry's route between them in one cycle; the loop's high half (`ya_hi`,
    /// `c1_m_hi`) would gain the select.
    pub fn with_carry_select(mut self) -> Self {
        self.csel = Constant::new(true);
        self
    }

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
            loop_a: Default::default(),
            loop_1: Default::default(),
            y: Default::default(),
            op_add: op(Op::Add),
            op_and: op(Op::And),
            op_or: op(Op::Or),
            op_xor: op(Op::Xor),
            op_min: op(Op::Min),
            op_max: op(Op::Max),
            op_inc: op(Op::Inc),
            op_dec: op(Op::Dec),
            ty_b64: ty(Type::B64),
            ty_u64: ty(Type::U64),
            ty_s64: ty(Type::S64),
            ty_s32: ty(Type::S32),
            one33: Constant::new(bits_u128(1)),
            zero33: Constant::new(bits_u128(0)),
            bit32_33: Constant::new(bits_u128(1 << 32)),
            bit31_32: Constant::new(bits_u128(1 << 31)),
            zero32: Constant::new(bits_u128(0)),
            is64: Default::default(),
            is_signed: Default::default(),
            is_mm: Default::default(),
            flip_lo: Default::default(),
            flip_hi: Default::default(),
            a_lo: Default::default(),
            b_lo: Default::default(),
            a_hi: Default::default(),
            b_hi: Default::default(),
            lo_m: Default::default(),
            sum_lo: Default::default(),
            add_lo: Default::default(),
            bw_lo: Default::default(),
            fast_lo: Default::default(),
            dec33: Default::default(),
            x_alo: Default::default(),
            x_blo: Default::default(),
            x_ahi: Default::default(),
            x_bhi: Default::default(),
            x_ahi_lt: Default::default(),
            x_bhi_gt: Default::default(),
            lt_lo: Default::default(),
            lt_hi: Default::default(),
            gt_hi: Default::default(),
            lt: Default::default(),
            k_sum: Default::default(),
            k_bw: Default::default(),
            p_hi: Default::default(),
            hi_m: Default::default(),
            hi_b: Default::default(),
            hi_ca: Default::default(),
            hi_cb: Default::default(),
            hi_ci: Default::default(),
            hi_x: Default::default(),
            hi_x1: Default::default(),
            csel: Constant::new(false),
            hi_sum: Default::default(),
            y_hg: Default::default(),
            m_hg: Default::default(),
            k_m_sum: Default::default(),
            y_hx: Default::default(),
            m_hx: Default::default(),
            y_lo: Default::default(),
            y_hi: Default::default(),
            c1_a_lo: Cut::new(on),
            c1_m_hi: Cut::new(on),
            c1_b: Cut::new(on),
            c1_fast_lo: Cut::new(on),
            c1_cy: Cut::new(on),
            c1_hold: Cut::new(on),
            c1_inc: Cut::new(on),
            c1_dec: Cut::new(on),
            c1_s_fast: Cut::new(on),
            c1_s_mm: Cut::new(on),
            c1_s_inc: Cut::new(on),
            c1_k_dec: Cut::new(on),
            c1_dec_b: Cut::new(on),
            c1_h_sum: Cut::new(on),
            c1_h_and: Cut::new(on),
            c1_h_or: Cut::new(on),
            c1_h_xor: Cut::new(on),
            c1_h_mm: Cut::new(on),
            c1_take_b: Cut::new(on),
            s0_op: Default::default(),
            s0_is64: Default::default(),
            s0_flo: Default::default(),
            s0_fhi: Default::default(),
            s0_n64: Default::default(),
            s0_mm64: Default::default(),
            s0_mm: Default::default(),
            s0_max: Default::default(),
            s0_inc: Default::default(),
            s0_a: Default::default(),
            s0_la: Default::default(),
            ya_hi: Default::default(),
            s0_b: Default::default(),
            s0_l1: Default::default(),
            lo_fb: Default::default(),
            hi_fb: Default::default(),
            cut_on: Constant::new(on),
        }
    }
}

crate::sections::logic_sections!(IntAlu: InputRegisters, Segment1, Segment2);

/// The input registers: the op decoded for both segments, held with `hold`.
enum InputRegisters {}

impl crate::sections::Section<InputRegisters> for IntAlu {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, s0_op, s0_is64, s0_flo, s0_fhi, s0_n64, s0_mm64, s0_mm, s0_max, s0_inc, s0_a, s0_b, s0_l1);
        clock!(self, clock, lo_fb, hi_fb, c1_a_lo, c1_m_hi, c1_b, c1_fast_lo, c1_cy, c1_hold, c1_inc, c1_dec);
        clock!(self, clock, c1_s_fast, c1_s_mm, c1_s_inc, c1_k_dec, c1_dec_b, c1_h_sum, c1_h_and, c1_h_or, c1_h_xor);
        clock!(self, clock, c1_h_mm, c1_take_b, s0_la, ya_hi);

        // ==========================================================================
        // Input registers (s0_): the op, its width, the compares' controls, min/max, inc,
        // `loop_1` (the operands are loaded last, after `y`: the loop).
        // ==========================================================================
        self.is64.next = (self.ty.val() == self.ty_b64.val())
            || (self.ty.val() == self.ty_u64.val())
            || (self.ty.val() == self.ty_s64.val());
        self.is_signed.next = (self.ty.val() == self.ty_s64.val()) || (self.ty.val() == self.ty_s32.val());
        self.s0_op.d.next = self.op.val();
        self.s0_is64.d.next = self.is64.val();
        self.s0_flo.d.next = self.is_signed.val() && !self.is64.val();
        self.s0_fhi.d.next = self.is_signed.val() && self.is64.val();
        self.s0_n64.d.next = !self.is64.val();
        self.s0_inc.d.next = self.op.val() == self.op_inc.val();
        self.s0_l1.d.next = self.loop_1.val();
        self.is_mm.next = (self.op.val() == self.op_min.val()) || (self.op.val() == self.op_max.val());
        self.s0_mm64.d.next = self.is_mm.val() && self.is64.val();
        self.s0_mm.d.next = self.is_mm.val();
        self.s0_max.d.next = self.op.val() == self.op_max.val();
        self.s0_mm64.hold.next = self.hold.val();
        self.s0_mm.hold.next = self.hold.val();
        self.s0_max.hold.next = self.hold.val();
        self.s0_op.hold.next = self.hold.val();
        self.s0_is64.hold.next = self.hold.val();
        self.s0_flo.hold.next = self.hold.val();
        self.s0_fhi.hold.next = self.hold.val();
        self.s0_n64.hold.next = self.hold.val();
        self.s0_inc.hold.next = self.hold.val();
        self.s0_a.hold.next = self.hold.val();
        self.s0_b.hold.next = self.hold.val();
        self.s0_l1.hold.next = self.hold.val();
        self.s0_la.hold.next = self.hold.val();
        self.ya_hi.hold.next = self.hold.val();
    }
}

/// Segment 1: the fast low result, the compares and the selects, into the cut.
enum Segment1 {}

impl crate::sections::Section<Segment1> for IntAlu {
    #[hdl_gen]
    fn update(&mut self) {
        // ==========================================================================
        // Segment 1 (from the s0_ registers): the fast low result, the other candidates and
        // the decisions between them. The high halves of 32-bit operands may hold anything:
        // no high select is set for a 32-bit form.
        // ==========================================================================
        // Signed compare = unsigned compare with the sign bit flipped: bit 31 of the low half
        // for s32, of the high half for s64.
        self.flip_lo.next = self.zero32.val();
        self.flip_hi.next = self.zero32.val();
        if self.s0_flo.q.val() {
            self.flip_lo.next = self.bit31_32.val();
        }
        if self.s0_fhi.q.val() {
            self.flip_hi.next = self.bit31_32.val();
        }
        self.a_lo.next = self.s0_a.q.val().get_bits::<32>(0);
        self.b_lo.next = self.s0_b.q.val().get_bits::<32>(0);
        self.a_hi.next = self.s0_a.q.val().get_bits::<32>(32);
        self.b_hi.next = self.s0_b.q.val().get_bits::<32>(32);
        // The fast low result, from the producer's (`lo_fb`) under `loop_1`: the select, the
        // carry chain or the bitwise op, the select between them.
        self.lo_m.next = self.a_lo.val();
        if self.s0_l1.q.val() {
            self.lo_m.next = self.lo_fb.q.val();
        }
        // (The select-and-add's inputs straight from the registers: a statement that wrote
        // them from `a_lo`, which the sum's users read too, would be a loop for Verilator.)
        self.add_lo.sel.next = self.s0_l1.q.val();
        self.add_lo.x.next = self.lo_fb.q.val();
        self.add_lo.y.next = self.s0_a.q.val().get_bits::<32>(0);
        self.add_lo.b.next = self.s0_b.q.val().get_bits::<32>(0);
        self.sum_lo.next = self.add_lo.sum.val();
        self.bw_lo.next = self.lo_m.val() ^ self.b_lo.val();
        if self.s0_op.q.val() == self.op_and.val() {
            self.bw_lo.next = self.lo_m.val() & self.b_lo.val();
        } else if self.s0_op.q.val() == self.op_or.val() {
            self.bw_lo.next = self.lo_m.val() | self.b_lo.val();
        }
        self.fast_lo.next = self.bw_lo.val();
        if self.s0_op.q.val() == self.op_add.val() {
            self.fast_lo.next = self.sum_lo.val().get_bits::<32>(0);
        }
        self.c1_fast_lo.d.next = self.fast_lo.val();
        self.c1_cy.d.next = self.sum_lo.val().get_bit(32);
        self.c1_hold.d.next = self.hold.val();
        // `lo_fb` keeps its value while the s0_ registers hold (the held op is computed again
        // from the same `lo_fb`).
        self.lo_fb.d.next = self.fast_lo.val();
        self.lo_fb.hold.next = self.hold.val();
        // The compares in 32-bit carry chains side by side (the high halves both ways, so
        // that no equality tree follows them; one 64-bit chain is 7 ns to the select), joined
        // in the select registers' LUTs.
        self.x_alo.next = self.a_lo.val() ^ self.flip_lo.val();
        self.x_blo.next = self.b_lo.val() ^ self.flip_lo.val();
        self.x_ahi.next = self.a_hi.val() ^ self.flip_hi.val();
        self.x_bhi.next = self.b_hi.val() ^ self.flip_hi.val();
        self.lt_lo.next = self.x_alo.val() < self.x_blo.val();
        // (For 32-bit forms a top bit set on the left makes both high compares false, in
        // the chains: `lt` is then the low compare with no width select after them.)
        self.x_ahi_lt.next = bit_cast::<33, 32>(self.x_ahi.val());
        self.x_bhi_gt.next = bit_cast::<33, 32>(self.x_bhi.val());
        if self.s0_n64.q.val() {
            self.x_ahi_lt.next = self.x_ahi_lt.val() | self.bit32_33.val();
            self.x_bhi_gt.next = self.x_bhi_gt.val() | self.bit32_33.val();
        }
        self.lt_hi.next = self.x_ahi_lt.val() < bit_cast::<33, 32>(self.x_bhi.val());
        self.gt_hi.next = self.x_bhi_gt.val() < bit_cast::<33, 32>(self.x_ahi.val());
        self.lt.next = self.lt_hi.val() || (!self.gt_hi.val() && self.lt_lo.val());
        // min: a < b ? a : b; max: a < b ? b : a (`b` when `a < b` is max).
        self.c1_take_b.d.next = self.lt.val() == self.s0_max.q.val();
        // inc: (M >= b) ? 0 : M + 1; dec: (M == 0 || M > b) ? b : M - 1 (u32 forms: low
        // halves, unsigned, so `lt_lo` is `M < b`). `M - 1`'s borrow out is `M == 0`.
        self.c1_inc.d.next = self.a_lo.val() + self.one33.val().get_bits::<32>(0);
        self.dec33.next = bit_cast::<33, 32>(self.a_lo.val()) - self.one33.val();
        self.c1_dec.d.next = self.dec33.val().get_bits::<32>(0);
        self.c1_dec_b.d.next = self.dec33.val().get_bit(32) || (self.b_lo.val() < self.a_lo.val());
        self.c1_a_lo.d.next = self.a_lo.val();
        self.c1_b.d.next = self.s0_b.q.val();
        // The selects: at most one per half is high.
        self.k_sum.next = false;
        self.k_bw.next = false;
        self.c1_s_inc.d.next = false;
        if self.s0_op.q.val() == self.op_add.val() {
            self.k_sum.next = true;
        }
        if (self.s0_op.q.val() == self.op_and.val())
            || (self.s0_op.q.val() == self.op_or.val())
            || (self.s0_op.q.val() == self.op_xor.val())
        {
            self.k_bw.next = true;
        }
        if self.s0_inc.q.val() {
            self.c1_s_inc.d.next = self.lt_lo.val();
        }
        self.c1_k_dec.d.next = self.s0_op.q.val() == self.op_dec.val();
        self.c1_s_fast.d.next = self.k_sum.val() || self.k_bw.val();
        self.c1_s_mm.d.next = self.s0_mm.q.val();
        self.c1_h_sum.d.next = self.s0_is64.q.val() && self.k_sum.val();
        self.c1_h_and.d.next = self.s0_is64.q.val() && (self.s0_op.q.val() == self.op_and.val());
        self.c1_h_or.d.next = self.s0_is64.q.val() && (self.s0_op.q.val() == self.op_or.val());
        self.c1_h_xor.d.next = self.s0_is64.q.val() && (self.s0_op.q.val() == self.op_xor.val());
        self.c1_h_mm.d.next = self.s0_mm64.q.val();
    }
}

/// Segment 2: the high sum and the result select into `y`; the loops into the next op.
enum Segment2 {}

impl crate::sections::Section<Segment2> for IntAlu {
    #[hdl_gen]
    fn update(&mut self) {
        // ==========================================================================
        // Segment 2 (after the c1_ cut, drives `y`): the fast high result, from `M`'s high
        // half as the cut holds it (the producer's under `loop_1`, selected before the cut,
        // so that no select lies in front of the carry chain in the loops); an AND-OR of the
        // candidates by the selects (one-hot per half, all zero: 0).
        // ==========================================================================
        self.hi_m.next = self.c1_m_hi.q.val();
        self.hi_b.next = self.c1_b.q.val().get_bits::<32>(32);
        // (The carry in enters as bit 0 of both operands: `{m, c} + {b, c}` is `2 (m + b + c)`.)
        self.hi_ca.next = bit_cast::<33, 32>(self.hi_m.val()) << 1;
        self.hi_cb.next = bit_cast::<33, 32>(self.hi_b.val()) << 1;
        self.hi_ci.next = self.zero33.val();
        if self.c1_cy.q.val() && !self.csel.val() {
            self.hi_ci.next = self.one33.val();
        }
        self.hi_x.next = (self.hi_ca.val() | self.hi_ci.val()) + (self.hi_cb.val() | self.hi_ci.val());
        // As a carry select: the sums with the carry in zero and one, the carry choosing.
        self.hi_x1.next = self.zero33.val();
        if self.csel.val() {
            self.hi_x1.next = (self.hi_ca.val() | self.one33.val()) + (self.hi_cb.val() | self.one33.val());
            if self.c1_cy.q.val() {
                self.hi_x.next = self.hi_x1.val();
            }
        }
        self.y_lo.next = self.zero32.val();
        if self.c1_s_fast.q.val() {
            self.y_lo.next = self.y_lo.val() | self.c1_fast_lo.q.val();
        }
        if self.c1_s_mm.q.val() {
            if self.c1_take_b.q.val() {
                self.y_lo.next = self.y_lo.val() | self.c1_b.q.val().get_bits::<32>(0);
            } else {
                self.y_lo.next = self.y_lo.val() | self.c1_a_lo.q.val();
            }
        }
        if self.c1_s_inc.q.val() {
            self.y_lo.next = self.y_lo.val() | self.c1_inc.q.val();
        }
        if self.c1_k_dec.q.val() {
            if self.c1_dec_b.q.val() {
                self.y_lo.next = self.y_lo.val() | self.c1_b.q.val().get_bits::<32>(0);
            } else {
                self.y_lo.next = self.y_lo.val() | self.c1_dec.q.val();
            }
        }
        self.y_hg.next = self.zero32.val();
        if self.c1_h_and.q.val() {
            self.y_hg.next = self.y_hg.val() | (self.hi_m.val() & self.hi_b.val());
        }
        if self.c1_h_or.q.val() {
            self.y_hg.next = self.y_hg.val() | (self.hi_m.val() | self.hi_b.val());
        }
        if self.c1_h_xor.q.val() {
            self.y_hg.next = self.y_hg.val() | (self.hi_m.val() ^ self.hi_b.val());
        }
        if self.c1_h_mm.q.val() {
            if self.c1_take_b.q.val() {
                self.y_hg.next = self.y_hg.val() | self.hi_b.val();
            } else {
                self.y_hg.next = self.y_hg.val() | self.hi_m.val();
            }
        }
        self.hi_sum.next = self.hi_x.val().get_bits::<32>(1);
        // (Each user ANDs the sum with its own select, in the LUT that ORs it in: a shared
        // `select ? sum : 0` would be a LUT level of its own after the chain.)
        self.y_hx.next = self.zero32.val();
        if self.c1_h_sum.q.val() {
            self.y_hx.next = self.hi_sum.val();
        }
        self.y_hi.next = self.y_hg.val() | self.y_hx.val();
        self.y.next = (bit_cast::<64, 32>(self.y_hi.val()) << 32) | bit_cast::<64, 32>(self.y_lo.val());
        // `hi_fb` keeps its value while the cut holds the op of a held cycle.
        self.hi_fb.d.next = self.y_hi.val();
        self.hi_fb.hold.next = self.c1_hold.q.val();
        // `M`'s high half into the cut: under `loop_1` the producer's. With a registered cut
        // that is this cycle's `y` (the producer is in segment 2), or `hi_fb` when the op
        // repeats after a `hold` cycle (the producer's result was the cycle before); with a
        // wire, `hi_fb`.
        // (The high sum joins last: `p_hi` is `y_hg` or `hi_fb`, and the sum is ORed in
        // when `p_hi` is this cycle's `y` of a sum.)
        self.p_hi.next = self.hi_fb.q.val();
        if self.cut_on.val() && !self.c1_hold.q.val() {
            self.p_hi.next = self.y_hg.val();
        }
        self.m_hg.next = self.a_hi.val();
        if self.s0_la.q.val() {
            self.m_hg.next = self.ya_hi.q.val();
        }
        if self.s0_l1.q.val() {
            self.m_hg.next = self.p_hi.val();
        }
        self.k_m_sum.next = self.s0_l1.q.val() && self.cut_on.val() && !self.c1_hold.q.val() && self.c1_h_sum.q.val();
        self.m_hx.next = self.zero32.val();
        if self.k_m_sum.val() {
            self.m_hx.next = self.hi_sum.val();
        }
        self.c1_m_hi.d.next = self.m_hg.val() | self.m_hx.val();

        // The operands, `M` from the input or the loop.
        self.s0_a.a.next = self.a.val();
        self.s0_a.yg.next = (bit_cast::<64, 32>(self.y_hg.val()) << 32) | bit_cast::<64, 32>(self.y_lo.val());
        self.s0_a.take_y.next = self.loop_a.val();
        self.s0_la.d.next = self.loop_a.val();
        self.ya_hi.d.next = self.y_hi.val();
        self.s0_b.d.next = self.b.val();
    }
}
