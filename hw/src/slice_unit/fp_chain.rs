//! The FP loop's source select: where a chained FP op takes its old value from, decided in sr
//! (a stage before s1, from what s1 will see) and registered twice, so that s1b's operand
//! selects read registers placed beside them.
//!
//! An FP `red`/`atom` behind one of the same FP unit to the same bytes (equal chain keys: the
//! queue lets it issue `L` cycles after its producer, [`super::Shape::win_fp_chain`]) finds
//! its producer as its forwarding source (`fsel`) in `sp_*[d - 2]` when it is in s1, `d`
//! cycles behind it. At `d = L` the producer's result is on the unit's lanes in the cycle the
//! consumer enters the ALU: the ALU's `loop_a` puts each lane's own result on its `a` input.
//! At `L + 1` and `L + 2` the result is in `out_r` or was a cycle before: s1 registers it
//! (`cv`, from the ALU's output or `out_r`) and s1b puts that register on the ALU's old-value
//! inputs (`old_out`). Further behind, the merged line has it.

use crate::ecp5::ReplicaReg;
use crate::k;
use rust_hdl::prelude::*;

/// The ALU's old-value inputs that the chain's select drives (`in_old`, `in_old_mm`,
/// `in_old_wide`), each split into quarters with a copy of the select of its own.
const GROUPS: usize = 3;

#[derive(LogicBlock)]
pub(super) struct FpChain {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// sr's op may chain: valid, ordered, a plain FP `red`/`atom`.
    pub me: Signal<In, Bit>,
    /// Bit j: `sp_*[j]` will hold a plain FP `red`/`atom` when sr's op is in s1 (what the
    /// stage loads now).
    pub prod: Signal<In, Bits<32>>,
    /// The forwarding source sr's op will have in s1 (one-hot; `ForwardCompare`'s `fsel_nx`).
    pub fsel: Signal<In, Bits<32>>,
    /// s1b holds a valid op (the chain applies only then).
    pub c_valid: Signal<In, Bit>,
    /// The ALU's result (`out_r`'s input) and the result registered once (`out_r`).
    pub out_d: Signal<In, Bits<128>>,
    pub out_r: Signal<In, Bits<128>>,
    /// s1b's old value for each of the ALU's old-value inputs, from the line.
    pub old: [Signal<In, Bits<128>>; GROUPS],
    /// The same, with a chained op's producer result (`cv`) in its place.
    pub old_out: [Signal<Out, Bits<128>>; GROUPS],
    /// s1b's op takes its old value from its unit's own lanes (the ALU's `loop_a`).
    pub loop_a: Signal<Out, Bit>,
    /// s1b's op has a chain source (its response's old value is all ones in its bytes in
    /// `sp_*[0]`, ANDed with `rsp_val` on the way to `sp_*[1]`: no select of 128 bits in
    /// s1b's response path).
    pub rsp_mask: Signal<Out, Bit>,
    /// `sp_*[0]` holds a chained op: its old value, the producer's result, is `rsp_val` (from
    /// registers: `out_r` after the lanes' loop, else `cv` registered).
    pub rsp_apply: Signal<Out, Bit>,
    pub rsp_val: Signal<Out, Bits<128>>,
    /// Coverage: s1b's op took the lanes' loop (`cov_loop`) or a result register (`cov_reg`).
    pub cov_loop: Signal<Out, Bit>,
    pub cov_reg: Signal<Out, Bit>,
    /// Bit j of entry d: a consumer whose producer is in `sp_*[j]` takes its result `d`
    /// cycles after the ALU made it (`Shape::fp_chain_map`).
    map: [Constant<Bits<32>>; 3],
    /// s1's source as decided in sr, one-hot over the lanes' loop, `out_r` and `out_r` a
    /// cycle earlier (zero: the line).
    pre: [DFF<Bit>; 3],
    pre_nx: [Signal<Local, Bit>; 3],
    /// s1b's source.
    src: [DFF<Bit>; 3],
    /// s1b's op takes its old value from `cv`, again for each quarter of each old-value input
    /// (index `4g + q`), each copy beside its consumers.
    take: [ReplicaReg<Bit>; 4 * GROUPS],
    part: Signal<Local, Bits<128>>,
    qmask: [Constant<Bits<128>>; 4],
    /// s1b's chain value from a result register: `out_r`'s value of s1b's cycle (the ALU's
    /// output, a source `L + 1` behind) or of s1's (`L + 2`).
    cv: DFF<Bits<128>>,
    /// s1b's op has a chain source (any of `src`, one register).
    any_r: DFF<Bit>,
    /// `sp_*[0]`'s op took the lanes' loop (`rsp_r`) or any source (`rsp_any`); `val` a
    /// cycle later.
    rsp_r: DFF<Bit>,
    rsp_any: DFF<Bit>,
    val_r: DFF<Bits<128>>,
    zero128: Constant<Bits<128>>,
}

impl FpChain {
    /// For the stage map `map` (`Shape::fp_chain_map`).
    pub(super) fn new(map: [u128; 3]) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            me: Default::default(),
            prod: Default::default(),
            fsel: Default::default(),
            c_valid: Default::default(),
            out_d: Default::default(),
            out_r: Default::default(),
            old: Default::default(),
            old_out: Default::default(),
            loop_a: Default::default(),
            rsp_mask: Default::default(),
            rsp_apply: Default::default(),
            rsp_val: Default::default(),
            cov_loop: Default::default(),
            cov_reg: Default::default(),
            map: std::array::from_fn(|d| k(map[d])),
            pre: Default::default(),
            pre_nx: Default::default(),
            src: Default::default(),
            take: Default::default(),
            part: Default::default(),
            qmask: std::array::from_fn(|q| k(u128::from(u32::MAX) << (32 * q))),
            cv: Default::default(),
            any_r: Default::default(),
            rsp_r: Default::default(),
            rsp_any: Default::default(),
            val_r: Default::default(),
            zero128: k(0),
        }
    }
}

impl Logic for FpChain {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, cv, any_r, rsp_r, rsp_any, val_r);
        for d in 0..3 {
            self.pre[d].clock.next = self.clock.val();
            self.src[d].clock.next = self.clock.val();
        }
        for i in 0..self.take.len() {
            self.take[i].clock.next = self.clock.val();
        }
        // sr: the forwarding source s1 will have is a producer at a chain distance.
        for d in 0..3 {
            self.pre_nx[d].next = self.me.val() && (self.fsel.val() & self.prod.val() & self.map[d].val()).any();
            self.pre[d].d.next = self.pre_nx[d].val() && !self.reset.val();
        }
        // s1: the source for s1b, its copies per quarter of each old-value input, and the value
        // of a source in a result register. (No reset here: a reset drops s1's op, and for an
        // op not valid in s1b these only choose operands; `pre` is cleared.)
        for d in 0..3 {
            self.src[d].d.next = self.pre[d].q.val();
        }
        self.any_r.d.next = self.pre[0].q.val() || self.pre[1].q.val() || self.pre[2].q.val();
        for i in 0..self.take.len() {
            self.take[i].d.next = self.pre[1].q.val() || self.pre[2].q.val();
        }
        self.cv.d.next = self.out_r.val();
        if self.pre[1].q.val() {
            self.cv.d.next = self.out_d.val();
        }
        // s1b: the old values, each quarter from the line or `cv` by its own copy of `take`.
        for g in 0..GROUPS {
            self.old_out[g].next = self.zero128.val();
            for q in 0..4 {
                self.part.next = self.old[g].val();
                if self.take[4 * g + q].q.val() {
                    self.part.next = self.cv.q.val();
                }
                self.old_out[g].next = self.old_out[g].val() | (self.part.val() & self.qmask[q].val());
            }
        }
        self.loop_a.next = self.src[0].q.val();
        // The response's old value, a stage later, from registers.
        self.rsp_mask.next = self.any_r.q.val();
        self.rsp_r.d.next = self.src[0].q.val();
        self.rsp_any.d.next = self.any_r.q.val() && self.c_valid.val() && !self.reset.val();
        self.val_r.d.next = self.cv.q.val();
        self.rsp_apply.next = self.rsp_any.q.val();
        self.rsp_val.next = self.val_r.q.val();
        if self.rsp_r.q.val() {
            self.rsp_val.next = self.out_r.val();
        }
        self.cov_loop.next = self.src[0].q.val() && self.c_valid.val();
        self.cov_reg.next = (self.src[1].q.val() || self.src[2].q.val()) && self.c_valid.val();
    }
}
