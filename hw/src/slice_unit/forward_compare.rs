//! The forwarding compares: for each word of the issued op's line, the one op in flight to the
//! line that writes the word and is not superseded for it, as a one-hot select, and the ops
//! this one supersedes (`sup`); the select's copies in sr, which s1 reads.
//!
//! The line compare spans two stages: sc compares sc's line with each in-flight op's in
//! 4-bit chunks and registers the chunk equalities (`eq_r`); si ANDs them with the words and
//! the supersede bits into the select's registers. No compare meets the select's gating in one
//! cycle, and only registers leave the block.
//!
//! The op one cycle ahead of sc's (si's) is no forwarding source: the queue keeps ops to one
//! word two cycles apart, but for a *fast chain* (an add/and/or/xor behind one to the same
//! bytes, [`crate::ordering_queue::OrderingQueue`]), whose consumer takes its operand from
//! the integer ALU's loop and replaces all the bytes it reads. sc compares its line with
//! si's too: a match on a common word is such a chain (`l1`), and si's op supersedes the
//! one ahead of it for its words (`sup1`), which later ops then never forward from.

use crate::ecp5::replica_reg::ReplicaReg;
use crate::k;
use crate::line_memory::LINE_BITS;
use rust_hdl::prelude::*;

/// 4-bit chunks of a line address (`LINE_BITS` / 4).
const CHUNKS: usize = LINE_BITS / 4;

#[derive(LogicBlock)]
pub(super) struct ForwardCompare {
    pub clock: Signal<In, Clock>,
    /// sc holds a valid ordered op; its line (`sc_cl`).
    pub sc_vo: Signal<In, Bit>,
    pub sc_cl: Signal<In, Bits<LINE_BITS>>,
    /// The words sc's op touches, and si's op: valid and ordered, its line.
    pub sc_ww: Signal<In, Bits<4>>,
    pub si_vo: Signal<In, Bit>,
    pub si_line: Signal<In, Bits<LINE_BITS>>,
    /// si's op follows the op ahead of it (then in sr) on a word they both touch: a fast
    /// chain's consumer one cycle behind its producer.
    pub l1: Signal<Out, Bit>,
    /// The compared ops as sc sees them, the one that will be three stages further first when
    /// sc's op reaches s1 (sr, s1, s1b, `sp_*[0]`, ..): line, valid and ordered, the words it
    /// writes. The first is never superseded: the op between it and sc's writes none of its
    /// words, for the queue keeps ops to one word two cycles apart.
    pub line: Vec<Signal<In, Bits<LINE_BITS>>>,
    pub vo: Vec<Signal<In, Bit>>,
    pub ww: Vec<Signal<In, Bits<4>>>,
    /// The words si's op writes (it supersedes the matching ops for them), and words 0..2 of
    /// sr's (they choose the select of the op's own lowest word; the last word's is the
    /// default).
    pub si_ww: Signal<In, Bits<4>>,
    pub sr_ww: Signal<In, Bits<3>>,
    /// The forwarding source of the op in s1, one-hot: bit j `sp_*[j]`, bit `stages + k`
    /// `sw_*[k]`, none: the RAM. Found per word in si (`fsel_rq`, and `fsel_q`: one replica
    /// per 32-bit quarter of sr's select), the lowest word's chosen in sr (`fsel_d`; the
    /// coverage reads it).
    pub fsel: Signal<Out, Bits<32>>,
    /// `fsel` a cycle early, as sr chooses it (the chains decide their sources from it in sr).
    pub fsel_nx: Signal<Out, Bits<32>>,
    /// sr's select per quarter of the line (`fsel_q`); s1's (`fsel_s`), and whether s1 takes a
    /// source in the quarter (`fs_any_s`).
    pub sel_q: [Signal<Out, Bits<32>>; 4],
    pub sel_s: [Signal<Out, Bits<32>>; 4],
    pub any_s: [Signal<Out, Bits<1>>; 4],
    /// sc's compare of each op, registered: bits 0..3 the words the op writes where the lowest
    /// chunk matches (both ops valid and ordered), bit 4 that chunk's match, bits 5.. the
    /// other chunks' matches (1 for chunks above the memory's line bits).
    eq_r: Vec<DFF<Bits<16>>>,
    /// `sup[i]`: the compared op i + 1 is superseded, per word: a younger ordered op to its
    /// line entered behind it (set by that op's compares here), so no later op forwards from
    /// it. The youngest matching op is then the only matching op that is not superseded: the
    /// select needs no priority chain.
    sup: Vec<DFF<Bits<4>>>,
    /// Per word of the line, its forwarding source (one-hot as `fsel`), found in si
    /// (`fsel_rq`, and its replicas per quarter `fsel_q`); `fsel_d` is the op's own (lowest)
    /// word's.
    fsel_rq: [DFF<Bits<32>>; 4],
    fsel_d: DFF<Bits<32>>,
    /// sc's op and si's are valid, ordered, to one line (`eq1`), and touch a common word
    /// (`l1_r`); the words si's op supersedes in the op ahead of it, the first compared op of
    /// the op behind it (`sup1`).
    eq1: DFF<Bit>,
    l1_r: DFF<Bit>,
    sup1: DFF<Bits<4>>,
    fsel_q: [ReplicaReg<Bits<32>>; 4],
    /// s1's select again, one replica per quarter of its 128-bit select (`fsel` drives the
    /// coverage events and the chain only).
    fsel_s: [ReplicaReg<Bits<32>>; 4],
    /// Per quarter, `fsel_rq[q] != 0`, for s1.
    fs_any_s: [ReplicaReg<Bits<1>>; 4],
    fs_v: [Signal<Local, Bits<32>>; 4],
    /// sc: an op's line against sc's, and its chunk matches as registered.
    fc_x: Signal<Local, Bits<LINE_BITS>>,
    fc_v: Signal<Local, Bits<16>>,
    fc_w: Signal<Local, Bits<4>>,
    /// si: each op's line matches in chunks 1.. (`fs_hi`; chunk 0's is in its words and bit
    /// 4), and the words it is a source for.
    fs_hi: Vec<Signal<Local, Bit>>,
    /// The supersede bits of each compared op (the first's: by the op between it and this one,
    /// `sup1`).
    fs_sup: Vec<Signal<Local, Bits<4>>>,
    fs_hq: Signal<Local, Bits<4>>,
    fs_b: Signal<Local, Bit>,
    /// Chunk c of the memory's line bits, and its match's bit in `eq_r`.
    cmask: [Constant<Bits<LINE_BITS>>; CHUNKS],
    cbit: [Constant<Bits<16>>; CHUNKS],
    hi_ones: Constant<Bits<16>>,
    low5: Constant<Bits<16>>,
    zero4: Constant<Bits<4>>,
    zero32: Constant<Bits<32>>,
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
            si_vo: Default::default(),
            si_line: Default::default(),
            l1: Default::default(),
            eq1: Default::default(),
            l1_r: Default::default(),
            sup1: Default::default(),
            line: (0..ops).map(|_| Default::default()).collect(),
            vo: (0..ops).map(|_| Default::default()).collect(),
            ww: (0..ops).map(|_| Default::default()).collect(),
            si_ww: Default::default(),
            sr_ww: Default::default(),
            fsel: Default::default(),
            fsel_nx: Default::default(),
            sel_q: Default::default(),
            sel_s: Default::default(),
            any_s: Default::default(),
            eq_r: (0..ops).map(|_| Default::default()).collect(),
            sup: (0..ops - 1).map(|_| Default::default()).collect(),
            fsel_rq: Default::default(),
            fsel_d: Default::default(),
            fsel_q: Default::default(),
            fsel_s: Default::default(),
            fs_any_s: Default::default(),
            fs_v: Default::default(),
            fc_x: Default::default(),
            fc_v: Default::default(),
            fc_w: Default::default(),
            fs_hi: (0..ops).map(|_| Default::default()).collect(),
            fs_sup: (0..ops).map(|_| Default::default()).collect(),
            fs_hq: Default::default(),
            fs_b: Default::default(),
            cmask: std::array::from_fn(|c| k((0xf << (4 * c)) & line_mask)),
            cbit: std::array::from_fn(|c| k(1 << (4 + c))),
            hi_ones: k(0xffe0),
            low5: k(0x1f),
            zero4: k(0),
            zero32: k(0),
            top31: k(31),
            fs_sh: k(fs_sh as u128),
        }
    }
}

impl Logic for ForwardCompare {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..self.eq_r.len() {
            self.eq_r[i].clock.next = self.clock.val();
        }
        for i in 0..self.sup.len() {
            self.sup[i].clock.next = self.clock.val();
        }
        dff_setup!(self, clock, fsel_d, eq1, l1_r, sup1);
        for q in 0..4 {
            self.fsel_rq[q].clock.next = self.clock.val();
            self.fsel_q[q].clock.next = self.clock.val();
            self.fsel_s[q].clock.next = self.clock.val();
            self.fs_any_s[q].clock.next = self.clock.val();
        }
        // sc: each op's line against sc's, per 4-bit chunk; the lowest chunk's match carries
        // the ops' valid bits and the op's words.
        for i in 0..self.eq_r.len() {
            self.fc_x.next = self.line[i].val() ^ self.sc_cl.val();
            self.fc_v.next = self.hi_ones.val();
            for c in 1..CHUNKS {
                if (self.fc_x.val() & self.cmask[c].val()).any() {
                    self.fc_v.next = self.fc_v.val() & !self.cbit[c].val();
                }
            }
            self.fc_w.next = self.ww[i].val();
            if self.sc_vo.val() && self.vo[i].val() && !(self.fc_x.val() & self.cmask[0].val()).any() {
                self.fc_v.next = self.fc_v.val() | bit_cast::<16, 4>(self.fc_w.val()) | self.cbit[0].val();
            }
            self.eq_r[i].d.next = self.fc_v.val();
        }
        // sc against si's op (the op a cycle ahead): only a fast chain meets it on a word.
        self.eq1.d.next = self.sc_vo.val() && self.si_vo.val() && (self.sc_cl.val() == self.si_line.val());
        self.l1_r.d.next = self.eq1.d.val() && (self.sc_ww.val() & self.si_ww.val()).any();
        self.l1.next = self.l1_r.q.val();
        self.sup1.d.next = self.zero4.val();
        if self.eq1.q.val() {
            self.sup1.d.next = self.si_ww.val();
        }
        // si: per word, the matching op that writes it and is not superseded, as one-hot
        // vectors (each built one op at a time, shifted in at bit 31, then moved down to bit
        // 0: shifts by a loop index give Verilog that -Wall rejects). The matching ops are
        // superseded for the words si's op writes (the last op is no source of a later op).
        self.fs_sup[0].next = self.sup1.q.val();
        for i in 1..self.eq_r.len() {
            self.fs_sup[i].next = self.sup[i - 1].q.val();
        }
        for q in 0..4 {
            self.fs_v[q].next = self.zero32.val();
        }
        for i in 0..self.eq_r.len() {
            self.fs_hi[i].next = (self.eq_r[i].q.val() | self.low5.val()).all();
            self.fs_hq.next = self.zero4.val();
            if self.fs_hi[i].val() {
                self.fs_hq.next = self.eq_r[i].q.val().get_bits::<4>(0) & !self.fs_sup[i].val();
            }
            for q in 0..4 {
                self.fs_b.next = self.fs_hq.val().get_bit(q);
                self.fs_v[q].next =
                    (self.fs_v[q].val() >> 1) | (bit_cast::<32, 1>(self.fs_b.val().into()) << self.top31.val());
            }
        }
        for i in 0..self.sup.len() {
            self.sup[i].d.next = self.fs_sup[i].val();
            if self.fs_hi[i].val() && self.eq_r[i].q.val().get_bit(4) {
                self.sup[i].d.next = self.fs_sup[i].val() | self.si_ww.val();
            }
        }
        for q in 0..4 {
            self.fsel_rq[q].d.next = self.fs_v[q].val() >> self.fs_sh.val();
            self.fsel_q[q].d.next = self.fs_v[q].val() >> self.fs_sh.val();
        }
        // sr: the select copied for s1, per quarter; the select of the op's own lowest word,
        // and whether each quarter takes a source.
        self.fsel_d.d.next = self.fsel_rq[3].q.val();
        if self.sr_ww.val().get_bit(2) {
            self.fsel_d.d.next = self.fsel_rq[2].q.val();
        }
        if self.sr_ww.val().get_bit(1) {
            self.fsel_d.d.next = self.fsel_rq[1].q.val();
        }
        if self.sr_ww.val().get_bit(0) {
            self.fsel_d.d.next = self.fsel_rq[0].q.val();
        }
        for q in 0..4 {
            self.fsel_s[q].d.next = self.fsel_rq[q].q.val();
            self.fs_b.next = self.fsel_rq[q].q.val().any();
            self.fs_any_s[q].d.next = bit_cast::<1, 1>(self.fs_b.val().into());
        }
        self.fsel.next = self.fsel_d.q.val();
        self.fsel_nx.next = self.fsel_d.d.val();
        for q in 0..4 {
            self.sel_q[q].next = self.fsel_q[q].q.val();
            self.sel_s[q].next = self.fsel_s[q].q.val();
            self.any_s[q].next = self.fs_any_s[q].q.val();
        }
    }
}
