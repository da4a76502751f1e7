//! The issue history and the windows a pushed entry takes from it.
//!
//! `h_line[k]`, `h_words[k]`, `h_t[k]`: the line, words and remaining window (thermometer)
//! of the late entry issued `k + 1` cycles ago. A pushed entry ORs the windows of the places
//! to its line and words (`hist`). With a registered push those windows are registered
//! already matched (`ph_w`, `ph_wh`, `ph_hr`) and join the entry's count a cycle later
//! through one OR (`ph_or`), so the entries' state reads three registers, not the compares.

use super::{QUEUE_DEPTH, QUEUE_WAIT_MAX};
use crate::line_memory::LINE_BITS;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub(super) struct History {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// This cycle's issue outputs (the newest place) and the issued entry's window.
    pub issue_line: Signal<In, Bits<LINE_BITS>>,
    pub issue_words: Signal<In, Bits<4>>,
    pub i_wt: Signal<In, Bits<QUEUE_WAIT_MAX>>,
    /// The pushed line's slot matches ([`super::push_match::PushMatch`]'s `m`), and the
    /// issues of the last two cycles (one-hot slots).
    pub m: Signal<In, Bits<QUEUE_DEPTH>>,
    pub last_fs: Signal<In, Bits<QUEUE_DEPTH>>,
    pub last2_fs: Signal<In, Bits<QUEUE_DEPTH>>,
    pub push_line: Signal<In, Bits<LINE_BITS>>,
    /// `push_line_nx`, once per history place compared a cycle ahead (`hm_r`; none with a
    /// single place, which leaves no place to compare).
    pub push_line_nx: Vec<Signal<In, Bits<LINE_BITS>>>,
    pub push_nx_keep: Signal<In, Bit>,
    pub push_words: Signal<In, Bits<4>>,
    pub push_ordered: Signal<In, Bit>,
    pub we: Signal<In, Bits<QUEUE_DEPTH>>,
    /// The windows of the late entries issued in the last cycles to the pushed line.
    pub hist: Signal<Out, Bits<QUEUE_WAIT_MAX>>,
    /// Registered push: the last push's slot (one-hot, zero when none), and the windows it
    /// takes from the history a cycle after its push.
    pub ph_we_q: Signal<Out, Bits<QUEUE_DEPTH>>,
    pub ph_or: Signal<Out, Bits<QUEUE_WAIT_MAX>>,
    // The issue history: the late entries issued 1, 2, .. cycles ago.
    h_line: Vec<DFF<Bits<LINE_BITS>>>,
    h_t: Vec<DFF<Bits<QUEUE_WAIT_MAX>>>,
    h_words: Vec<DFF<Bits<4>>>,
    ph_we: DFF<Bits<QUEUE_DEPTH>>,
    /// Registered push: per source of a window the pushed line may wait on (0: the issue of
    /// the cycle before; 1: history place 0, the issue before it; both matched through their
    /// slots), that window as it was at the push if the line matched it, else zero.
    ph_w: [DFF<Bits<QUEUE_WAIT_MAX>>; 2],
    /// Registered push: whether the pushed words meet those of `ph_w`'s sources. Registered
    /// apart from the line match and ANDed in `ph_or`, so the pushed words reach a register
    /// through two LUTs.
    ph_wh: [DFF<Bit>; 2],
    /// Registered push: history places 1.. : their matches with the push line compared a
    /// cycle ahead (`hm_r[k - 1]`: place k), and the OR of the windows of those that match,
    /// in two halves (`ph_hr[0]`: places 1 to `places / 2`, `ph_hr[1]` the rest; from
    /// `ph_hn`), so that the pushed words reach a register through fewer LUTs; `ph_or` joins
    /// them.
    hm_r: Vec<DFF<Bit>>,
    ph_hr: [DFF<Bits<QUEUE_WAIT_MAX>>; 2],
    ph_hn: [Signal<Local, Bits<QUEUE_WAIT_MAX>>; 2],
    rp: Constant<Bit>,
    zero_d: Constant<Bits<QUEUE_DEPTH>>,
    zero_w: Constant<Bits<QUEUE_WAIT_MAX>>,
}

impl History {
    /// `places`: the history's length (`max_wait - 1`, at least 1).
    pub(super) fn new(registered: bool, places: usize) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            issue_line: Default::default(),
            issue_words: Default::default(),
            i_wt: Default::default(),
            m: Default::default(),
            last_fs: Default::default(),
            last2_fs: Default::default(),
            push_line: Default::default(),
            push_line_nx: (1..places).map(|_| Default::default()).collect(),
            push_nx_keep: Default::default(),
            push_words: Default::default(),
            push_ordered: Default::default(),
            we: Default::default(),
            hist: Default::default(),
            ph_we_q: Default::default(),
            ph_or: Default::default(),
            h_line: (0..places).map(|_| Default::default()).collect(),
            h_t: (0..places).map(|_| Default::default()).collect(),
            h_words: (0..places).map(|_| Default::default()).collect(),
            ph_we: Default::default(),
            ph_w: Default::default(),
            ph_wh: Default::default(),
            hm_r: (1..places).map(|_| Default::default()).collect(),
            ph_hr: Default::default(),
            ph_hn: Default::default(),
            rp: Constant::new(registered),
            zero_d: crate::k::<QUEUE_DEPTH>(0),
            zero_w: crate::k::<QUEUE_WAIT_MAX>(0),
        }
    }
}

impl Logic for History {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, ph_we);
        for h in 0..2 {
            self.ph_hr[h].clock.next = self.clock.val();
        }
        for k in 0..self.hm_r.len() {
            self.hm_r[k].clock.next = self.clock.val();
        }
        for k in 0..self.h_line.len() {
            self.h_line[k].clock.next = self.clock.val();
            self.h_t[k].clock.next = self.clock.val();
            self.h_words[k].clock.next = self.clock.val();
        }
        for k in 0..self.ph_w.len() {
            self.ph_w[k].clock.next = self.clock.val();
            self.ph_wh[k].clock.next = self.clock.val();
        }
        // The history: this issue's line and window (W - 1 ones left after this cycle), then
        // each place one cycle older with one cycle less. (Registered push: the issue of the
        // cycle before, W - 2 ones; the push compares its line with that issue's slot.)
        self.h_line[0].d.next = self.issue_line.val();
        self.h_words[0].d.next = self.issue_words.val();
        self.h_t[0].d.next = self.i_wt.val();
        if self.rp.val() {
            self.h_t[0].d.next = self.i_wt.val() >> 1;
        }
        for k in 1..self.h_line.len() {
            self.h_line[k].d.next = self.h_line[k - 1].q.val();
            self.h_words[k].d.next = self.h_words[k - 1].q.val();
            self.h_t[k].d.next = self.h_t[k - 1].q.val() >> 1;
        }
        // The windows of the late entries issued in the last cycles to the pushed line.
        self.hist.next = self.zero_w.val();
        // (Registered push: `ph_w[0]` the issue of the cycle before and `ph_w[1]` history
        // place 0 (the issue before it), matched through their slots' compares (`m`: made a
        // cycle ahead; the slot of an issue stays intact for two cycles); `ph_hr` the places
        // after them, through their compares of the cycle before.)
        // (The issued slots are one-hot, so the word match is that of their words alone:
        // `issue_words` is slot `last_fs`'s, history place 0 slot `last2_fs`'s.)
        self.ph_w[0].d.next = self.zero_w.val();
        if (self.m.val() & self.last_fs.val()).any() {
            self.ph_w[0].d.next = self.i_wt.val();
        }
        self.ph_w[1].d.next = self.zero_w.val();
        if (self.m.val() & self.last2_fs.val()).any() {
            self.ph_w[1].d.next = self.h_t[0].q.val();
        }
        self.ph_wh[0].d.next = (self.issue_words.val() & self.push_words.val()).any();
        self.ph_wh[1].d.next = (self.h_words[0].q.val() & self.push_words.val()).any();
        for k in 0..self.h_line.len() {
            if (self.h_line[k].q.val() == self.push_line.val())
                && (self.h_words[k].q.val() & self.push_words.val()).any()
            {
                self.hist.next = self.hist.val() | self.h_t[k].q.val();
            }
        }
        // Next cycle's place k (this cycle's place k - 1) against next cycle's push line: the
        // one the pusher would load, or with `push_nx_keep` its own, whose match with place
        // k - 1 is already in `hm_r[k - 2]` (place k - 1 was place k - 2 a cycle before),
        // only place 0's compared.
        self.ph_hn[0].next = self.zero_w.val();
        self.ph_hn[1].next = self.zero_w.val();
        for k in 0..self.hm_r.len() {
            self.hm_r[k].d.next = self.h_line[k].q.val() == self.push_line_nx[k].val();
        }
        if self.push_nx_keep.val() {
            // (A loop of at most one: no places to match with a single history place.)
            for k in 0..self.hm_r.len().min(1) {
                self.hm_r[k].d.next = self.h_line[0].q.val() == self.push_line.val();
            }
            for k in 1..self.hm_r.len() {
                self.hm_r[k].d.next = self.hm_r[k - 1].q.val();
            }
        }
        for k in 1..(self.h_line.len() / 2 + 1) {
            if self.hm_r[k - 1].q.val() && (self.h_words[k].q.val() & self.push_words.val()).any() {
                self.ph_hn[0].next = self.ph_hn[0].val() | self.h_t[k].q.val();
            }
        }
        for k in (self.h_line.len() / 2 + 1)..self.h_line.len() {
            if self.hm_r[k - 1].q.val() && (self.h_words[k].q.val() & self.push_words.val()).any() {
                self.ph_hn[1].next = self.ph_hn[1].val() | self.h_t[k].q.val();
            }
        }
        self.ph_hr[0].d.next = self.ph_hn[0].val();
        self.ph_hr[1].d.next = self.ph_hn[1].val();
        // A registered push takes them a cycle later: a window that was at place k then sits
        // in history place k with one cycle less (`>> 1`: the place after the last one would
        // hold at most 1 >> 1 = 0, so nothing is lost).
        self.ph_or.next = self.ph_hr[0].q.val() | self.ph_hr[1].q.val();
        for k in 0..self.ph_w.len() {
            if self.ph_wh[k].q.val() {
                self.ph_or.next = self.ph_or.val() | self.ph_w[k].q.val();
            }
        }
        self.ph_we.d.next = self.zero_d.val();
        if self.push_ordered.val() {
            self.ph_we.d.next = self.we.val();
        }
        self.ph_we_q.next = self.ph_we.q.val();
        if self.reset.val() {
            for k in 0..self.h_t.len() {
                self.h_t[k].d.next = self.zero_w.val();
            }
        }
    }
}
