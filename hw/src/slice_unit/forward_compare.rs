//! sc's forwarding compares (registered pipeline): for each word of the issued op's line, the
//! one op in flight to the line that writes the word and is not superseded for it, as a
//! one-hot select (`fsel_cq`), and the ops this one supersedes (`sup`); the select's copies in
//! si and sr, which s1 reads.
//!
//! A block of its own: the compares read the in-flight ops' lines and words, and only
//! registers leave it (the select is found two cycles before s1 needs it).

use crate::ecp5::replica_reg::ReplicaReg;
use crate::k;
use crate::line_memory::LINE_BITS;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub(super) struct ForwardCompare {
    pub clock: Signal<In, Clock>,
    /// sc holds a valid ordered op; its line (`sc_cl`) and the words it writes.
    pub sc_vo: Signal<In, Bit>,
    pub sc_cl: Signal<In, Bits<LINE_BITS>>,
    pub sc_ww: Signal<In, Bits<4>>,
    /// The compared ops, the one that will be three stages further first when sc's op reaches
    /// s1 (sr, s1, s1b, `sp_*[0]`, ..): line, valid and ordered, the words it writes. The
    /// first (sr's) is never superseded: the op behind it, in si, writes none of its words,
    /// for the queue keeps ops to one word two cycles apart.
    pub line: Vec<Signal<In, Bits<LINE_BITS>>>,
    pub vo: Vec<Signal<In, Bit>>,
    pub ww: Vec<Signal<In, Bits<4>>>,
    /// The words 0..2 si's op writes (they choose the select of the op's own lowest word; the
    /// last word's is the default).
    pub si_ww: Signal<In, Bits<3>>,
    /// The forwarding source of the op in s1, one-hot: bit j `sp_*[j]`, bit `stages + k`
    /// `sw_*[k]`, none: the RAM. Found per word in sc (`fsel_cq`), copied in si (`fsel_r`, and
    /// `fsel_q`: one replica per 32-bit quarter of sr's select), delayed to s1 (`fsel`; the
    /// chain and the coverage read it).
    pub fsel: Signal<Out, Bits<32>>,
    /// sr's select per quarter of the line (`fsel_q`); s1's (`fsel_s`), and whether s1 takes a
    /// source in the quarter (`fs_any_s`).
    pub sel_q: [Signal<Out, Bits<32>>; 4],
    pub sel_s: [Signal<Out, Bits<32>>; 4],
    pub any_s: [Signal<Out, Bits<1>>; 4],
    /// `sup[i]`: the compared op i + 1 is superseded, per word: a younger ordered op to its
    /// line entered behind it (set by that op's compares here), so no later op forwards from
    /// it. The youngest matching op is then the only matching op that is not superseded: the
    /// select needs no priority chain.
    sup: Vec<DFF<Bits<4>>>,
    /// Per word of the line, its forwarding source (one-hot as `fsel`), found in sc and copied
    /// in si (`fsel_rq`); `fsel_r`/`fsel` are the source of the op's own (lowest) word.
    fsel_cq: [DFF<Bits<32>>; 4],
    fsel_rq: [DFF<Bits<32>>; 4],
    fsel_r: DFF<Bits<32>>,
    fsel_d: DFF<Bits<32>>,
    fsel_q: [ReplicaReg<Bits<32>>; 4],
    /// s1's select again, one replica per quarter of its 128-bit select (`fsel` drives the
    /// coverage events and the chain only).
    fsel_s: [ReplicaReg<Bits<32>>; 4],
    /// Per quarter, `fsel_rq[q] != 0` (from `fsel_cq` in si), and its replicas for s1.
    fs_any_r: DFF<Bits<4>>,
    fs_any_s: [ReplicaReg<Bits<1>>; 4],
    fs_v: [Signal<Local, Bits<32>>; 4],
    /// The compared op has sc's line (masked to the memory's line bits); it is a source, per word.
    fs_eq: Signal<Local, Bit>,
    fs_hq: Signal<Local, Bits<4>>,
    fs_b: Signal<Local, Bit>,
    line_mask: Constant<Bits<LINE_BITS>>,
    zero4: Constant<Bits<4>>,
    three2: Constant<Bits<2>>,
    top31: Constant<Bits<5>>,
    /// 32 - (forwarding sources): moves the built vector down to bit 0.
    fs_sh: Constant<Bits<6>>,
}

impl ForwardCompare {
    /// `ops` compared ops, the memory's line bits `line_mask`, and the select's shift `fs_sh`.
    pub(super) fn new(ops: usize, line_mask: u128, fs_sh: usize) -> Self {
        Self {
            clock: Default::default(),
            sc_vo: Default::default(),
            sc_cl: Default::default(),
            sc_ww: Default::default(),
            line: (0..ops).map(|_| Default::default()).collect(),
            vo: (0..ops).map(|_| Default::default()).collect(),
            ww: (0..ops).map(|_| Default::default()).collect(),
            si_ww: Default::default(),
            fsel: Default::default(),
            sel_q: Default::default(),
            sel_s: Default::default(),
            any_s: Default::default(),
            sup: (0..ops - 1).map(|_| Default::default()).collect(),
            fsel_cq: Default::default(),
            fsel_rq: Default::default(),
            fsel_r: Default::default(),
            fsel_d: Default::default(),
            fsel_q: Default::default(),
            fsel_s: Default::default(),
            fs_any_r: Default::default(),
            fs_any_s: Default::default(),
            fs_v: Default::default(),
            fs_eq: Default::default(),
            fs_hq: Default::default(),
            fs_b: Default::default(),
            line_mask: k(line_mask),
            zero4: k(0),
            three2: k(3),
            top31: k(31),
            fs_sh: k(fs_sh as u128),
        }
    }
}

impl Logic for ForwardCompare {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..self.sup.len() {
            self.sup[i].clock.next = self.clock.val();
        }
        dff_setup!(self, clock, fsel_r, fsel_d, fs_any_r);
        for q in 0..4 {
            self.fsel_cq[q].clock.next = self.clock.val();
            self.fsel_rq[q].clock.next = self.clock.val();
            self.fsel_q[q].clock.next = self.clock.val();
            self.fsel_s[q].clock.next = self.clock.val();
            self.fs_any_s[q].clock.next = self.clock.val();
        }
        // (Each one-hot vector is built one op at a time, shifted in at bit 31, then moved
        // down to bit 0: shifts by a loop index give Verilog that -Wall rejects.)
        self.fs_eq.next = self.sc_vo.val() && !((self.line[0].val() ^ self.sc_cl.val()) & self.line_mask.val()).any();
        self.fs_hq.next = self.zero4.val();
        if self.vo[0].val() && self.fs_eq.val() {
            self.fs_hq.next = self.ww[0].val();
        }
        for q in 0..4 {
            self.fs_b.next = self.fs_hq.val().get_bit(q);
            self.fs_v[q].next = bit_cast::<32, 1>(self.fs_b.val().into()) << self.top31.val();
        }
        for i in 1..self.line.len() {
            self.fs_eq.next = self.sc_vo.val() && !((self.line[i].val() ^ self.sc_cl.val()) & self.line_mask.val()).any();
            self.fs_hq.next = self.zero4.val();
            if self.vo[i].val() && self.fs_eq.val() {
                self.fs_hq.next = self.ww[i].val() & !self.sup[i - 1].q.val();
            }
            for q in 0..4 {
                self.fs_b.next = self.fs_hq.val().get_bit(q);
                self.fs_v[q].next = (self.fs_v[q].val() >> 1) | (bit_cast::<32, 1>(self.fs_b.val().into()) << self.top31.val());
            }
        }
        // The compares also supersede the matching ops for the words this one writes (the
        // same compares again, which synthesis shares; the last op is no source).
        self.fs_eq.next = self.sc_vo.val() && !((self.line[0].val() ^ self.sc_cl.val()) & self.line_mask.val()).any();
        self.sup[0].d.next = self.zero4.val();
        if self.fs_eq.val() {
            self.sup[0].d.next = self.sc_ww.val();
        }
        for i in 1..self.sup.len() {
            self.fs_eq.next = self.sc_vo.val() && !((self.line[i].val() ^ self.sc_cl.val()) & self.line_mask.val()).any();
            self.sup[i].d.next = self.sup[i - 1].q.val();
            if self.fs_eq.val() {
                self.sup[i].d.next = self.sup[i - 1].q.val() | self.sc_ww.val();
            }
        }
        for q in 0..4 {
            self.fsel_cq[q].d.next = self.fs_v[q].val() >> self.fs_sh.val();
        }
        // si: each word's select copied, with no logic between, into a register per quarter
        // of sr's select (replicas: each sits by its quarter); for s1 the select of the op's
        // own lowest word, chosen here from registers.
        self.fsel_r.d.next = self.fsel_cq[3].q.val();
        if self.si_ww.val().get_bit(2) {
            self.fsel_r.d.next = self.fsel_cq[2].q.val();
        }
        if self.si_ww.val().get_bit(1) {
            self.fsel_r.d.next = self.fsel_cq[1].q.val();
        }
        if self.si_ww.val().get_bit(0) {
            self.fsel_r.d.next = self.fsel_cq[0].q.val();
        }
        self.fs_any_r.d.next = self.zero4.val();
        for q in 0..4 {
            self.fsel_rq[q].d.next = self.fsel_cq[q].q.val();
            self.fsel_q[q].d.next = self.fsel_cq[q].q.val();
            self.fs_b.next = self.fsel_cq[q].q.val().any();
            self.fs_any_r.d.next = (self.fs_any_r.d.val() >> 1) | (bit_cast::<4, 1>(self.fs_b.val().into()) << self.three2.val());
        }
        // sr: the same for s1.
        self.fsel_d.d.next = self.fsel_r.q.val();
        for q in 0..4 {
            self.fsel_s[q].d.next = self.fsel_rq[q].q.val();
            self.fs_b.next = self.fs_any_r.q.val().get_bit(q);
            self.fs_any_s[q].d.next = bit_cast::<1, 1>(self.fs_b.val().into());
        }
        self.fsel.next = self.fsel_d.q.val();
        for q in 0..4 {
            self.sel_q[q].next = self.fsel_q[q].q.val();
            self.sel_s[q].next = self.fsel_s[q].q.val();
            self.any_s[q].next = self.fs_any_s[q].q.val();
        }
    }
}
