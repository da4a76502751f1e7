//! The FP loop's source select: where a chained FP op takes its old value from, decided in s1
//! and registered for s1b.
//!
//! An FP `red`/`atom` behind one of the same FP unit to the same bytes (equal chain keys: the
//! queue lets it issue `L` cycles after its producer, [`super::Shape::win_fp_chain`]) finds
//! its producer as its forwarding source (`fsel`) in `sp_*[d - 2]` when it is in s1, `d`
//! cycles behind it. At `d = L` the producer's result is on the unit's lanes in the cycle the
//! consumer enters the ALU: the ALU's `loop_a` puts each lane's own result on its `a` input.
//! At `L + 1` and `L + 2` the result is in `out_r` or `out_rr`, and s1b puts it on the ALU's
//! old-value inputs (`take`, `val`). Further behind, the merged line has it.

use crate::k;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub(super) struct FpChain {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// s1's op may chain: valid, ordered, a plain FP `red`/`atom`.
    pub me: Signal<In, Bit>,
    /// Bit j: `sp_*[j]` holds a plain FP `red`/`atom` (a producer it may chain behind).
    pub prod: Signal<In, Bits<32>>,
    /// s1's forwarding source (one-hot; `ForwardCompare`'s `fsel`).
    pub fsel: Signal<In, Bits<32>>,
    /// s1b holds a valid op (the chain applies only then).
    pub c_valid: Signal<In, Bit>,
    /// The ALU's result, registered once (`out_r`).
    pub out_r: Signal<In, Bits<128>>,
    /// s1b's op takes its old value from its unit's own lanes (the ALU's `loop_a`).
    pub loop_a: Signal<Out, Bit>,
    /// s1b's op takes its old value from `val` (`out_r` or `out_rr`).
    pub take: Signal<Out, Bit>,
    pub val: Signal<Out, Bits<128>>,
    /// s1b's op has a chain source (its response's old value is all ones in its bytes in
    /// `sp_*[0]`, ANDed with `rsp_val` on the way to `sp_*[1]`: no select of 128 bits in
    /// s1b's response path).
    pub rsp_mask: Signal<Out, Bit>,
    /// `sp_*[0]` holds a chained op: its old value, the producer's result, is `rsp_val` (from
    /// registers: `out_r` after the lanes' loop, else `val` registered).
    pub rsp_apply: Signal<Out, Bit>,
    pub rsp_val: Signal<Out, Bits<128>>,
    /// Coverage: s1b's op took the lanes' loop (`cov_loop`) or a result register (`cov_reg`).
    pub cov_loop: Signal<Out, Bit>,
    pub cov_reg: Signal<Out, Bit>,
    /// Bit j of entry d: a consumer whose producer is in `sp_*[j]` takes its result `d`
    /// cycles after the ALU made it (`Shape::fp_chain_map`).
    map: [Constant<Bits<32>>; 3],
    /// s1b's source, one-hot over the lanes' loop, `out_r` and `out_rr` (zero: the line).
    src: [DFF<Bit>; 3],
    src_nx: [Signal<Local, Bit>; 3],
    out_rr: DFF<Bits<128>>,
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
            out_r: Default::default(),
            loop_a: Default::default(),
            take: Default::default(),
            val: Default::default(),
            rsp_mask: Default::default(),
            rsp_apply: Default::default(),
            rsp_val: Default::default(),
            cov_loop: Default::default(),
            cov_reg: Default::default(),
            map: std::array::from_fn(|d| k(map[d])),
            src: Default::default(),
            src_nx: Default::default(),
            out_rr: Default::default(),
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
        dff_setup!(self, clock, out_rr, any_r, rsp_r, rsp_any, val_r);
        for d in 0..3 {
            self.src[d].clock.next = self.clock.val();
        }
        // s1: the forwarding source is a producer at a chain distance.
        for d in 0..3 {
            self.src_nx[d].next = self.me.val() && (self.fsel.val() & self.prod.val() & self.map[d].val()).any();
            self.src[d].d.next = self.src_nx[d].val() && !self.reset.val();
        }
        self.any_r.d.next = (self.src_nx[0].val() || self.src_nx[1].val() || self.src_nx[2].val()) && !self.reset.val();
        // s1b: the source.
        self.out_rr.d.next = self.out_r.val();
        self.loop_a.next = self.src[0].q.val();
        self.take.next = self.src[1].q.val() || self.src[2].q.val();
        self.val.next = self.zero128.val();
        if self.src[1].q.val() {
            self.val.next = self.out_r.val();
        }
        if self.src[2].q.val() {
            self.val.next = self.out_rr.q.val();
        }
        // The response's old value, a stage later, from registers.
        self.rsp_mask.next = self.any_r.q.val();
        self.rsp_r.d.next = self.src[0].q.val();
        self.rsp_any.d.next = self.any_r.q.val() && self.c_valid.val() && !self.reset.val();
        self.val_r.d.next = self.val.val();
        self.rsp_apply.next = self.rsp_any.q.val();
        self.rsp_val.next = self.val_r.q.val();
        if self.rsp_r.q.val() {
            self.rsp_val.next = self.out_r.val();
        }
        self.cov_loop.next = self.src[0].q.val() && self.c_valid.val();
        self.cov_reg.next = (self.src[1].q.val() || self.src[2].q.val()) && self.c_valid.val();
    }
}
