//! The pushed request against every slot: line compares (`m`, the queue's only line
//! compares with the slots), word and chain-key matches, and from them the pushed entry's
//! dependences (`n_dep`, or the raw matches `m_q` with a registered push), whether it waits
//! next cycle (`n_blk`), its hazard bits (`n_hz1`, `n_wt`), and its chain and fast-chain
//! key matches (`p_ch`, `p_fa`).
//!
//! With a registered push the line, word and key compares are made a cycle ahead (`m_r`,
//! `w_r`, `pc_r`, `pf_r`), between the lines, words and keys as they will be, so the push's
//! dependences and chain bits start from registers.

use super::{QUEUE_DEPTH, QUEUE_KEY_BITS, QUEUE_WAIT_MAX};
use crate::line_memory::LINE_BITS;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub(super) struct PushMatch {
    pub clock: Signal<In, Clock>,
    pub push_line: Signal<In, Bits<LINE_BITS>>,
    pub push_line_nx: Signal<In, Bits<LINE_BITS>>,
    pub push_nx_keep: Signal<In, Bit>,
    pub push_words: Signal<In, Bits<4>>,
    pub push_key: Signal<In, Bits<QUEUE_KEY_BITS>>,
    /// Registered push: the key and words `push_key` and `push_words` carry in the next
    /// cycle (with `push_nx_keep`, themselves, whatever these say).
    pub push_key_nx: Signal<In, Bits<QUEUE_KEY_BITS>>,
    pub push_words_nx: Signal<In, Bits<4>>,
    /// The slots (see [`super::slots::SlotData`]), this cycle's issue (`fs`) and the slot the
    /// next push takes (`fr`).
    pub valid: Signal<In, Bits<QUEUE_DEPTH>>,
    pub ordered: Signal<In, Bits<QUEUE_DEPTH>>,
    pub late: Signal<In, Bits<QUEUE_DEPTH>>,
    pub line: [Signal<In, Bits<LINE_BITS>>; QUEUE_DEPTH],
    pub words: [Signal<In, Bits<4>>; QUEUE_DEPTH],
    pub key: [Signal<In, Bits<QUEUE_KEY_BITS>>; QUEUE_DEPTH],
    pub wt: [Signal<In, Bits<QUEUE_WAIT_MAX>>; QUEUE_DEPTH],
    pub fs: Signal<In, Bits<QUEUE_DEPTH>>,
    pub fr: Signal<In, Bits<QUEUE_DEPTH>>,
    /// The pushed line's matches with the slots (registered push: the raw line matches,
    /// compared a cycle ahead; otherwise ANDed with the word matches).
    pub m: Signal<Out, Bits<QUEUE_DEPTH>>,
    /// Registered push: the raw matches the pushed entry keeps (valid ordered slots whose
    /// line and words meet the push's).
    pub m_q: Signal<Out, Bits<QUEUE_DEPTH>>,
    /// The pushed entry's older ordered entries to its line (not the one issuing now),
    /// whether it waits next cycle, whether a late one of them issues now and its window.
    pub n_dep: Signal<Out, Bits<QUEUE_DEPTH>>,
    pub n_blk: Signal<Out, Bit>,
    pub n_hz1: Signal<Out, Bit>,
    pub n_wt: Signal<Out, Bits<QUEUE_WAIT_MAX>>,
    /// The pushed key's matches with the slots' keys (a chainable key only; the fast bit is
    /// not compared).
    pub p_ch: Signal<Out, Bits<QUEUE_DEPTH>>,
    /// The pushed key's fast-equal matches with the slots' keys (a chainable fast key only,
    /// all bits equal).
    pub p_fa: Signal<Out, Bits<QUEUE_DEPTH>>,
    /// Registered push: the pushed line's matches with the slots, compared a cycle ahead.
    m_r: DFF<Bits<QUEUE_DEPTH>>,
    m_nx: Signal<Local, Bits<QUEUE_DEPTH>>,
    /// Registered push: the word matches `p_wm`, compared a cycle ahead like `m_r`, and
    /// `push_words_nx` against `push_words` (the words of the slot `fr` chose).
    w_r: DFF<Bits<QUEUE_DEPTH>>,
    w_nx: Signal<Local, Bits<QUEUE_DEPTH>>,
    wq: Signal<Local, Bit>,
    vw_nx: Signal<Local, Bit>,
    /// Registered push: `p_ch` and `p_fa`, compared a cycle ahead like `m_r`.
    pc_r: DFF<Bits<QUEUE_DEPTH>>,
    pf_r: DFF<Bits<QUEUE_DEPTH>>,
    pc_nx: Signal<Local, Bits<QUEUE_DEPTH>>,
    pf_nx: Signal<Local, Bits<QUEUE_DEPTH>>,
    /// Registered push: `push_key_nx` against `push_key` (the key of the slot `fr` chose),
    /// chain-equal and fast-equal.
    kq_ch: Signal<Local, Bit>,
    kq_fa: Signal<Local, Bit>,
    vc_nx: Signal<Local, Bit>,
    vf_nx: Signal<Local, Bit>,
    /// Registered push: whether `push_line_nx` is `push_line` (the line of the slot `fr`
    /// chose).
    p_eq: Signal<Local, Bit>,
    vb_nx: Signal<Local, Bit>,
    /// The pushed words intersect slot j's (bit j).
    p_wm: Signal<Local, Bits<QUEUE_DEPTH>>,
    vb: Signal<Local, Bit>,
    rp: Constant<Bit>,
    /// The chainable and the fast bit of a key, and the mask of the bits a chain compares
    /// (all but the fast bit).
    key_top: Constant<Bits<4>>,
    key_fast: Constant<Bits<4>>,
    key_ch: Constant<Bits<QUEUE_KEY_BITS>>,
    zero_d: Constant<Bits<QUEUE_DEPTH>>,
    zero_w: Constant<Bits<QUEUE_WAIT_MAX>>,
    top_sh: Constant<Bits<4>>,
}

impl PushMatch {
    pub(super) fn new(registered: bool) -> Self {
        Self {
            clock: Default::default(),
            push_line: Default::default(),
            push_line_nx: Default::default(),
            push_nx_keep: Default::default(),
            push_words: Default::default(),
            push_key: Default::default(),
            push_key_nx: Default::default(),
            push_words_nx: Default::default(),
            valid: Default::default(),
            ordered: Default::default(),
            late: Default::default(),
            line: Default::default(),
            words: Default::default(),
            key: Default::default(),
            wt: Default::default(),
            fs: Default::default(),
            fr: Default::default(),
            m: Default::default(),
            m_q: Default::default(),
            n_dep: Default::default(),
            n_blk: Default::default(),
            n_hz1: Default::default(),
            n_wt: Default::default(),
            p_ch: Default::default(),
            p_fa: Default::default(),
            m_r: Default::default(),
            m_nx: Default::default(),
            w_r: Default::default(),
            w_nx: Default::default(),
            wq: Default::default(),
            vw_nx: Default::default(),
            pc_r: Default::default(),
            pf_r: Default::default(),
            pc_nx: Default::default(),
            pf_nx: Default::default(),
            kq_ch: Default::default(),
            kq_fa: Default::default(),
            vc_nx: Default::default(),
            vf_nx: Default::default(),
            p_eq: Default::default(),
            vb_nx: Default::default(),
            p_wm: Default::default(),
            vb: Default::default(),
            rp: Constant::new(registered),
            key_top: crate::k::<4>((QUEUE_KEY_BITS - 1) as u128),
            key_fast: crate::k::<4>((QUEUE_KEY_BITS - 2) as u128),
            key_ch: crate::k::<QUEUE_KEY_BITS>(((1u128 << QUEUE_KEY_BITS) - 1) & !(1u128 << (QUEUE_KEY_BITS - 2))),
            zero_d: crate::k::<QUEUE_DEPTH>(0),
            zero_w: crate::k::<QUEUE_WAIT_MAX>(0),
            top_sh: crate::k::<4>((QUEUE_DEPTH - 1) as u128),
        }
    }
}

crate::sections::logic_sections!(PushMatch: LineMatch, KeyMatch, PushDependence);

/// The pushed line and words against each slot's (a cycle ahead with a registered push).
enum LineMatch {}

impl crate::sections::Section<LineMatch> for PushMatch {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, m_r, w_r, pc_r, pf_r);
        self.m.next = self.zero_d.val();
        self.n_dep.next = self.zero_d.val();
        self.n_blk.next = false;
        self.n_hz1.next = false;
        self.n_wt.next = self.zero_w.val();
        for j in 0..QUEUE_DEPTH {
            self.vb.next = self.line[j].val() == self.push_line.val();
            self.m.next = (self.m.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.vb.val().into()) << self.top_sh.val());
        }
        // (Registered push: the same compares made a cycle ahead, between the lines as they
        // will be. A slot's line changes only where `fr` loads the push line, so next cycle's
        // slot line is `push_line` there and its own line elsewhere. Next cycle's push line
        // is `push_line_nx`, or with `push_nx_keep` `push_line` itself: then nothing is
        // compared, for `m_r` already holds every slot's match with `push_line` (it is its
        // own next value, the slot `fr` loads matching). So the compares are with
        // `push_line_nx` only (`p_eq` for the slot `fr` loads), and `push_nx_keep` selects in
        // the last LUT. Selecting the line before the compares (`push_nx_keep` in a LUT per
        // compared bit, over 200 loads) makes the push compares a critical path of the unit.)
        // (Their own temporaries: a statement group that reads `push_line_nx` must not share
        // one with the free-slot search, which makes `push_ready_nx`, or Verilator sees a
        // loop through the unit, whose `push_line_nx` and `push_ready_nx` meet in one block.)
        self.p_eq.next = self.push_line.val() == self.push_line_nx.val();
        self.m_nx.next = self.zero_d.val();
        for j in 0..QUEUE_DEPTH {
            self.vb_nx.next = self.line[j].val() == self.push_line_nx.val();
            if self.fr.val().get_bit(j) {
                self.vb_nx.next = self.p_eq.val();
            }
            self.m_nx.next =
                (self.m_nx.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.vb_nx.val().into()) << self.top_sh.val());
        }
        if self.push_nx_keep.val() {
            self.m_nx.next = self.m_r.q.val() | self.fr.val();
        }
        self.m_r.d.next = self.m_nx.val();
        if self.rp.val() {
            self.m.next = self.m_r.q.val();
        }
        // A dependence needs the words to meet too (the line matches above stay pure: the
        // registered push keeps them in `m_r`).
        self.p_wm.next = self.zero_d.val();
        for j in 0..QUEUE_DEPTH {
            self.vb.next = (self.words[j].val() & self.push_words.val()).any();
            self.p_wm.next =
                (self.p_wm.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.vb.val().into()) << self.top_sh.val());
        }
        // (Registered push: the same word matches a cycle ahead, like the line's: next cycle's
        // slot words are `push_words` at `fr` and its own elsewhere, next cycle's push words
        // `push_words_nx`, or with `push_nx_keep` `push_words`, whose matches are already
        // held, the slot `fr` loads matching when the push touches any word.)
        self.wq.next = (self.push_words.val() & self.push_words_nx.val()).any();
        self.w_nx.next = self.zero_d.val();
        for j in 0..QUEUE_DEPTH {
            self.vw_nx.next = (self.words[j].val() & self.push_words_nx.val()).any();
            if self.fr.val().get_bit(j) {
                self.vw_nx.next = self.wq.val();
            }
            self.w_nx.next =
                (self.w_nx.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.vw_nx.val().into()) << self.top_sh.val());
        }
        if self.push_nx_keep.val() {
            self.w_nx.next = self.zero_d.val();
            if self.push_words.val().any() {
                self.w_nx.next = self.w_r.q.val() | self.fr.val();
            }
        }
        self.w_r.d.next = self.w_nx.val();
        if self.rp.val() {
            self.p_wm.next = self.w_r.q.val();
        }
        // (Registered push: `m` keeps the raw line matches for the history's windows, whose
        // words are matched apart; the pushed entry's dependences take them at once.)
        if !self.rp.val() {
            self.m.next = self.m.val() & self.p_wm.val();
        }
    }
}

/// The pushed chain key against each slot's (a cycle ahead with a registered push).
enum KeyMatch {}

impl crate::sections::Section<KeyMatch> for PushMatch {
    #[hdl_gen]
    fn update(&mut self) {
        // The pushed key's matches with the slots' keys (a chainable key only; the line
        // match is the dependence itself): chains compare all bits but the fast one, fast
        // chains all bits of two fast keys.
        self.p_ch.next = self.zero_d.val();
        self.p_fa.next = self.zero_d.val();
        for j in 0..QUEUE_DEPTH {
            self.vb.next = self.push_key.val().get_bit(self.key_top.val().index())
                && ((self.key[j].val() & self.key_ch.val()) == (self.push_key.val() & self.key_ch.val()));
            self.p_ch.next =
                (self.p_ch.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.vb.val().into()) << self.top_sh.val());
            self.vb.next = self.push_key.val().get_bit(self.key_top.val().index())
                && self.push_key.val().get_bit(self.key_fast.val().index())
                && (self.key[j].val() == self.push_key.val());
            self.p_fa.next =
                (self.p_fa.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.vb.val().into()) << self.top_sh.val());
        }
        // (Registered push: the same key matches a cycle ahead, like the line's: next cycle's
        // slot key is `push_key` at `fr` and its own elsewhere, next cycle's push key
        // `push_key_nx`, or with `push_nx_keep` `push_key`, whose matches are already held,
        // the slot `fr` loads matching when the key chains at all.)
        self.kq_ch.next = (self.push_key.val() & self.key_ch.val()) == (self.push_key_nx.val() & self.key_ch.val());
        self.kq_fa.next = self.push_key.val() == self.push_key_nx.val();
        self.pc_nx.next = self.zero_d.val();
        self.pf_nx.next = self.zero_d.val();
        for j in 0..QUEUE_DEPTH {
            self.vc_nx.next = (self.key[j].val() & self.key_ch.val()) == (self.push_key_nx.val() & self.key_ch.val());
            self.vf_nx.next = self.key[j].val() == self.push_key_nx.val();
            if self.fr.val().get_bit(j) {
                self.vc_nx.next = self.kq_ch.val();
                self.vf_nx.next = self.kq_fa.val();
            }
            self.vc_nx.next = self.vc_nx.val() && self.push_key_nx.val().get_bit(self.key_top.val().index());
            self.vf_nx.next = self.vf_nx.val()
                && self.push_key_nx.val().get_bit(self.key_top.val().index())
                && self.push_key_nx.val().get_bit(self.key_fast.val().index());
            self.pc_nx.next =
                (self.pc_nx.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.vc_nx.val().into()) << self.top_sh.val());
            self.pf_nx.next =
                (self.pf_nx.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.vf_nx.val().into()) << self.top_sh.val());
        }
        if self.push_nx_keep.val() {
            self.pc_nx.next = self.zero_d.val();
            self.pf_nx.next = self.zero_d.val();
            if self.push_key.val().get_bit(self.key_top.val().index()) {
                self.pc_nx.next = self.pc_r.q.val() | self.fr.val();
                if self.push_key.val().get_bit(self.key_fast.val().index()) {
                    self.pf_nx.next = self.pf_r.q.val() | self.fr.val();
                }
            }
        }
        self.pc_r.d.next = self.pc_nx.val();
        self.pf_r.d.next = self.pf_nx.val();
        if self.rp.val() {
            self.p_ch.next = self.pc_r.q.val();
            self.p_fa.next = self.pf_r.q.val();
        }
    }
}

/// The pushed entry's dependences, line wait and window from the matches.
enum PushDependence {}

impl crate::sections::Section<PushDependence> for PushMatch {
    #[hdl_gen]
    fn update(&mut self) {
        self.m_q.next = self.zero_d.val();
        for j in 0..QUEUE_DEPTH {
            self.vb.next = self.m.val().get_bit(j)
                && self.p_wm.val().get_bit(j)
                && self.valid.val().get_bit(j)
                && self.ordered.val().get_bit(j);
            self.m_q.next =
                (self.m_q.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.vb.val().into()) << self.top_sh.val());
        }
        for j in 0..QUEUE_DEPTH {
            self.vb.next = self.m.val().get_bit(j)
                && self.valid.val().get_bit(j)
                && self.ordered.val().get_bit(j)
                && !self.fs.val().get_bit(j);
            self.n_dep.next =
                (self.n_dep.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.vb.val().into()) << self.top_sh.val());
            if self.m.val().get_bit(j) && self.valid.val().get_bit(j) && self.ordered.val().get_bit(j) {
                if !self.fs.val().get_bit(j) {
                    self.n_blk.next = true;
                }
                if self.late.val().get_bit(j) {
                    self.n_blk.next = true;
                }
                if self.fs.val().get_bit(j) && self.late.val().get_bit(j) {
                    self.n_hz1.next = true;
                    self.n_wt.next = self.n_wt.val() | self.wt[j].val();
                }
            }
        }
    }
}
