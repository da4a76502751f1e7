//! Per entry, what it waits for and whether it may issue next cycle.
//!
//! - `e_dep[i]` bit j: entry i waits for the older ordered entry j to its line and words
//!   (set at the push, cleared when j issues);
//! - `e_cnt[i]`: the cycles it still waits for a result, a thermometer code (bit k set while
//!   more than k cycles remain: shifting right counts down, and the larger of two waits is
//!   their OR). When a late dependence issues, the entry moves from waiting on the line to
//!   waiting on the result: it takes that entry's window (`e_wt`), or the chain's window when
//!   that entry is one of its chain producers (`e_ch`);
//! - `e_elig[i]`: eligible, computed from the next state, so the pick reads a register;
//! - registered push, fast chains: `e_lp[i]` (one-hot) is the entry's *last fast
//!   predecessor*, the youngest older entry to its line with a fast-equal key (`e_tl`, per
//!   slot: no younger one has been pushed); `e_fb[i]`: it may still be waiting for it. The
//!   pick never takes an entry with `e_fb` set: it may issue from the cycle after that
//!   entry's pick.
//!
//! With a registered push every entry applies an issue one cycle late (`last_fs`), and the
//! window it brings a cycle later still (`e_hw`, `e_hc`, `i_wt_r`: the count then takes it
//! shifted once, so it counts from the issue as before); a pushed entry holds its raw
//! matches (`m_q`) and takes the history's windows a cycle after its push (`ph_we`,
//! `ph_or`): no state here waits for this cycle's pick.
//!
//! `e_fb` is not made from the pick (`fs`): that would put the pick and an OR over the slots
//! in the fast chain's one-cycle loop. Each entry instead sees for itself whether its last
//! fast predecessor is picked: that one may be picked and no other entry older than itself
//! may. When some entry between the two in age may be picked too, the entry learns of the
//! pick a cycle later (`last_fs`); it could not have issued in that cycle anyway, for that
//! entry, older and still eligible, is picked before it.

use super::{QUEUE_DEPTH, QUEUE_WAIT_MAX};
use crate::ecp5::DOnlyReg;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub(super) struct EntryWait {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// The slots (see [`super::slots::SlotData`]).
    pub valid: Signal<In, Bits<QUEUE_DEPTH>>,
    pub ordered: Signal<In, Bits<QUEUE_DEPTH>>,
    pub late: Signal<In, Bits<QUEUE_DEPTH>>,
    pub wt0: Signal<In, Bits<QUEUE_DEPTH>>,
    pub wt: [Signal<In, Bits<QUEUE_WAIT_MAX>>; QUEUE_DEPTH],
    /// This cycle's issue, the pick's terms of it (see [`super::select::IssueSelect`]), the
    /// last cycle's issue (a replica per entry) and the window of the one the outputs show.
    pub fs: Signal<In, Bits<QUEUE_DEPTH>>,
    pub blk: Signal<In, Bits<QUEUE_DEPTH>>,
    pub pick_en: Signal<In, Bit>,
    pub last_fs: [Signal<In, Bits<QUEUE_DEPTH>>; QUEUE_DEPTH],
    pub i_wt: Signal<In, Bits<QUEUE_WAIT_MAX>>,
    /// The push: the slots that load the pushed state
    /// ([`super::free_slot::FreeSlot`]), the pushed entry's matches
    /// ([`super::push_match::PushMatch`]) and history windows ([`super::history::History`]).
    pub ld: Signal<In, Bits<QUEUE_DEPTH>>,
    /// The slot a push goes to (one-hot, zero when none; with a registered push whether or
    /// not `reset` is high: it marks chains only, which a reset empties) and the age matrix
    /// (`older[k]` bit i: entry k is older than entry i).
    pub we: Signal<In, Bits<QUEUE_DEPTH>>,
    pub older: [Signal<In, Bits<QUEUE_DEPTH>>; QUEUE_DEPTH],
    pub push_ordered: Signal<In, Bit>,
    /// The pushed key's long bit: the entry's chains wait the long chain window.
    pub push_long: Signal<In, Bit>,
    pub n_dep: Signal<In, Bits<QUEUE_DEPTH>>,
    pub n_blk: Signal<In, Bit>,
    pub n_hz1: Signal<In, Bit>,
    pub n_wt: Signal<In, Bits<QUEUE_WAIT_MAX>>,
    pub m_q: Signal<In, Bits<QUEUE_DEPTH>>,
    pub p_ch: Signal<In, Bits<QUEUE_DEPTH>>,
    pub p_fa: Signal<In, Bits<QUEUE_DEPTH>>,
    pub hist: Signal<In, Bits<QUEUE_WAIT_MAX>>,
    pub ph_we: Signal<In, Bits<QUEUE_DEPTH>>,
    pub ph_or: Signal<In, Bits<QUEUE_WAIT_MAX>>,
    /// The entries' eligibility, and whether they wait for a fast predecessor (registers).
    pub elig: Signal<Out, Bits<QUEUE_DEPTH>>,
    pub fb: Signal<Out, Bits<QUEUE_DEPTH>>,
    pub cov_line_wait: Signal<Out, Bit>,
    pub cov_hazard_wait: Signal<Out, Bit>,
    e_dep: [DFF<Bits<QUEUE_DEPTH>>; QUEUE_DEPTH],
    /// Remaining hazard cycles (thermometer). (D-only: as a synchronous reset Yosys made of
    /// the cases that clear the count, the clear reached the flip-flops' LSR input after three
    /// LUT levels.)
    e_cnt: [DOnlyReg<Bits<QUEUE_WAIT_MAX>>; QUEUE_DEPTH],
    /// Registered push: the window of the dependence whose issue the entry applied in the
    /// last cycle, which joins its count a cycle late (shifted once): the issued entry's own
    /// (`e_hw`, the window `i_wt_r`) or the chain's (`e_hc`). So the count's D input takes
    /// registers only, not the match of the issued slot with the dependences, which would
    /// fan out to every bit of the count. (D-only, like the count.)
    e_hw: [DOnlyReg<Bit>; QUEUE_DEPTH],
    e_hc: [DOnlyReg<Bit>; QUEUE_DEPTH],
    i_wt_r: DFF<Bits<QUEUE_WAIT_MAX>>,
    /// Waiting for a result in this cycle (coverage).
    e_hzc: [DFF<Bit>; QUEUE_DEPTH],
    e_elig: [DFF<Bit>; QUEUE_DEPTH],
    /// Registered push: the entries the entry waits on whose window is 2 or more (`e_wt` bit
    /// 0). When its last one issues, whether that one was among them says whether it waits
    /// in the next cycle: eligibility reads this, not the issued slot's window.
    e_dw: [DFF<Bits<QUEUE_DEPTH>>; QUEUE_DEPTH],
    /// Registered push: the slots whose key equalled the entry's own (chainable; the fast bit
    /// not compared) at its push:
    /// among its dependences, its chain producers, whose issue blocks it for the chain's
    /// window, not their own.
    e_ch: [DFF<Bits<QUEUE_DEPTH>>; QUEUE_DEPTH],
    /// Registered push: the entry's key has the long bit (its chain producers' issue blocks
    /// it for the long chain window).
    e_lc: [DFF<Bit>; QUEUE_DEPTH],
    /// Registered push: the entry's last fast predecessor (set at the push: the youngest of
    /// its dependences with a fast-equal key, which are left out of `e_dep`; cleared a cycle
    /// after its pick), and whether the entry may still wait for it (`e_fb`, set at the push:
    /// the pick reads one register per entry). Per slot, whether no younger entry with its
    /// line and fast-equal key has been pushed (`e_tl`).
    e_lp: [DFF<Bits<QUEUE_DEPTH>>; QUEUE_DEPTH],
    e_fb: [DFF<Bit>; QUEUE_DEPTH],
    e_tl: DFF<Bits<QUEUE_DEPTH>>,
    /// Registered push: per slot, waits on its line (`c_lw`) or for a result (`c_hw`) this
    /// cycle (the coverage outputs a cycle later).
    c_lw: DFF<Bits<QUEUE_DEPTH>>,
    c_hw: DFF<Bits<QUEUE_DEPTH>>,
    lw_v: Signal<Local, Bits<QUEUE_DEPTH>>,
    hw_v: Signal<Local, Bits<QUEUE_DEPTH>>,
    vb_e: Signal<Local, Bit>,
    /// One entry at a time: its dependences and count this cycle, whether the issue applied
    /// now is one of its dependences (`k_hit`) and chain producers (`k_chain`), whether it
    /// stays blocked on its line (`k_blk`), waits for a late entry issuing now (`k_hz1`,
    /// `k_wt`), its next dependences (`d_next`, one per entry: the load's section reads
    /// them) and chain producers, its count's bit 0 for eligibility.
    k_dep: Signal<Local, Bits<QUEUE_DEPTH>>,
    k_cnt: Signal<Local, Bits<QUEUE_WAIT_MAX>>,
    k_dw: Signal<Local, Bits<QUEUE_WAIT_MAX>>,
    /// The issue applied now is one of its dependences and it stays (`e_hw`, `e_hc`).
    k_ap: Signal<Local, Bit>,
    k_hz: Signal<Local, Bit>,
    k_hit: Signal<Local, Bit>,
    k_chain: Signal<Local, Bit>,
    k_blk: Signal<Local, Bit>,
    k_hz1: Signal<Local, Bit>,
    k_wt: Signal<Local, Bits<QUEUE_WAIT_MAX>>,
    d_next: [Signal<Local, Bits<QUEUE_DEPTH>>; QUEUE_DEPTH],
    ch_next: Signal<Local, Bits<QUEUE_DEPTH>>,
    /// Fast chains: the pushed entry's fast predecessors (`m_q & p_fa`), the entries the pick
    /// may take (`elig & !fb`); per entry, whether its last fast predecessor was picked in
    /// the last cycle (`k_ht`), whether it waits for it (`k_fx`: `e_fb` less that pick), and
    /// whether the pick may take it now (`k_pl`) and another entry older than the entry
    /// (`k_ob`).
    s_fa: Signal<Local, Bits<QUEUE_DEPTH>>,
    pe_v: Signal<Local, Bits<QUEUE_DEPTH>>,
    vb_p: Signal<Local, Bit>,
    k_ht: Signal<Local, Bit>,
    k_fx: Signal<Local, Bit>,
    k_pl: Signal<Local, Bit>,
    k_ob: Signal<Local, Bit>,
    vb_f: Signal<Local, Bit>,
    k_c0: Signal<Local, Bit>,
    vb: Signal<Local, Bit>,
    /// A chain dependent's window less one (thermometer), and whether it is 2 or more; the
    /// same for an entry whose key has the long bit (`_l`).
    pub(super) ch_wt: Constant<Bits<QUEUE_WAIT_MAX>>,
    pub(super) ch_wt0: Constant<Bit>,
    pub(super) ch_wt_l: Constant<Bits<QUEUE_WAIT_MAX>>,
    pub(super) ch_wt0_l: Constant<Bit>,
    /// The chain window of the entry in hand (`k_*`) is 2 or more.
    k_cw2: Signal<Local, Bit>,
    rp: Constant<Bit>,
    zero_d: Constant<Bits<QUEUE_DEPTH>>,
    zero_w: Constant<Bits<QUEUE_WAIT_MAX>>,
    top_sh: Constant<Bits<4>>,
}

impl EntryWait {
    pub(super) fn new(registered: bool) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            valid: Default::default(),
            ordered: Default::default(),
            late: Default::default(),
            wt0: Default::default(),
            wt: Default::default(),
            fs: Default::default(),
            blk: Default::default(),
            pick_en: Default::default(),
            last_fs: Default::default(),
            i_wt: Default::default(),
            ld: Default::default(),
            we: Default::default(),
            older: Default::default(),
            push_ordered: Default::default(),
            push_long: Default::default(),
            n_dep: Default::default(),
            n_blk: Default::default(),
            n_hz1: Default::default(),
            n_wt: Default::default(),
            m_q: Default::default(),
            p_ch: Default::default(),
            p_fa: Default::default(),
            hist: Default::default(),
            ph_we: Default::default(),
            ph_or: Default::default(),
            elig: Default::default(),
            fb: Default::default(),
            cov_line_wait: Default::default(),
            cov_hazard_wait: Default::default(),
            e_dep: Default::default(),
            e_cnt: Default::default(),
            e_hw: Default::default(),
            e_hc: Default::default(),
            i_wt_r: Default::default(),
            e_hzc: Default::default(),
            e_elig: Default::default(),
            e_dw: Default::default(),
            e_ch: Default::default(),
            e_lc: Default::default(),
            e_lp: Default::default(),
            e_fb: Default::default(),
            e_tl: Default::default(),
            c_lw: Default::default(),
            c_hw: Default::default(),
            lw_v: Default::default(),
            hw_v: Default::default(),
            vb_e: Default::default(),
            k_dep: Default::default(),
            k_cnt: Default::default(),
            k_dw: Default::default(),
            k_ap: Default::default(),
            k_hz: Default::default(),
            k_hit: Default::default(),
            k_chain: Default::default(),
            k_blk: Default::default(),
            k_hz1: Default::default(),
            k_wt: Default::default(),
            d_next: Default::default(),
            ch_next: Default::default(),
            s_fa: Default::default(),
            pe_v: Default::default(),
            vb_p: Default::default(),
            k_ht: Default::default(),
            k_fx: Default::default(),
            k_pl: Default::default(),
            k_ob: Default::default(),
            vb_f: Default::default(),
            k_c0: Default::default(),
            vb: Default::default(),
            ch_wt: crate::k::<QUEUE_WAIT_MAX>(0),
            ch_wt0: Constant::new(false),
            ch_wt_l: crate::k::<QUEUE_WAIT_MAX>(0),
            ch_wt0_l: Constant::new(false),
            k_cw2: Default::default(),
            rp: Constant::new(registered),
            zero_d: crate::k::<QUEUE_DEPTH>(0),
            zero_w: crate::k::<QUEUE_WAIT_MAX>(0),
            top_sh: crate::k::<4>((QUEUE_DEPTH - 1) as u128),
        }
    }

    /// A chain dependent's window: `wait` cycles after its chain producer's issue.
    pub(super) fn set_chain_wait(&mut self, wait: usize) {
        self.ch_wt = crate::k::<QUEUE_WAIT_MAX>((1u128 << (wait - 1)) - 1);
        self.ch_wt0 = Constant::new(wait >= 2);
    }

    /// The window of a chain dependent whose key has the long bit.
    pub(super) fn set_long_chain_wait(&mut self, wait: usize) {
        self.ch_wt_l = crate::k::<QUEUE_WAIT_MAX>((1u128 << (wait - 1)) - 1);
        self.ch_wt0_l = Constant::new(wait >= 2);
    }
}

crate::sections::logic_sections!(EntryWait: PickVectors, EntryWindow, EntryLoad);

/// The vectors the pick reads, from the entries' registers; the fast chains' youngest marks.
enum PickVectors {}

impl crate::sections::Section<PickVectors> for EntryWait {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, c_lw, c_hw, e_tl, i_wt_r);
        for i in 0..QUEUE_DEPTH {
            self.e_dep[i].clock.next = self.clock.val();
            self.e_cnt[i].clock.next = self.clock.val();
            self.e_hw[i].clock.next = self.clock.val();
            self.e_hc[i].clock.next = self.clock.val();
            self.e_hzc[i].clock.next = self.clock.val();
            self.e_elig[i].clock.next = self.clock.val();
            self.e_dw[i].clock.next = self.clock.val();
            self.e_ch[i].clock.next = self.clock.val();
            self.e_lc[i].clock.next = self.clock.val();
            self.e_lp[i].clock.next = self.clock.val();
            self.e_fb[i].clock.next = self.clock.val();
        }
        // The eligibility the pick reads (registers only, with temporaries of their own).
        self.elig.next = self.zero_d.val();
        self.fb.next = self.zero_d.val();
        for i in 0..QUEUE_DEPTH {
            self.vb_e.next = self.e_elig[i].q.val();
            self.elig.next =
                (self.elig.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.vb_e.val().into()) << self.top_sh.val());
            self.vb_f.next = self.e_fb[i].q.val();
            self.fb.next =
                (self.fb.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.vb_f.val().into()) << self.top_sh.val());
        }
        // Fast chains: the entries the pick may take (from the registers, with a temporary of
        // its own: a statement group that reads the `elig` output and `pick_en` is a loop
        // through the pick for Verilator), and a pushed ordered entry's fast predecessors
        // (their youngest, `e_tl`, is its last).
        self.pe_v.next = self.zero_d.val();
        for i in 0..QUEUE_DEPTH {
            self.vb_p.next = self.e_elig[i].q.val() && !self.e_fb[i].q.val();
            self.pe_v.next =
                (self.pe_v.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.vb_p.val().into()) << self.top_sh.val());
        }
        self.s_fa.next = self.zero_d.val();
        if self.rp.val() && self.push_ordered.val() {
            self.s_fa.next = self.m_q.val() & self.p_fa.val();
        }
        self.e_tl.d.next = self.e_tl.q.val() | self.we.val();
        if self.we.val().any() {
            self.e_tl.d.next = (self.e_tl.q.val() & !self.s_fa.val()) | self.we.val();
        }
        self.lw_v.next = self.zero_d.val();
        self.hw_v.next = self.zero_d.val();
        self.i_wt_r.d.next = self.i_wt.val();
    }
}

/// Each entry's dependences, window count and eligibility in the next cycle.
enum EntryWindow {}

impl crate::sections::Section<EntryWindow> for EntryWait {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..QUEUE_DEPTH {
            // The entry's dependences and count this cycle. With a registered push, an entry in
            // its first cycle holds the raw matches of its push (`e_dep`) and the history's
            // count; the issue of that cycle (`last_fs`) is applied now, and the window it
            // brings (`i_wt` or the chain's) a cycle later (`e_hw`, `e_hc`, `k_dw`).
            self.k_dep.next = self.e_dep[i].q.val();
            self.k_cnt.next = self.e_cnt[i].q.val();
            self.k_dw.next = self.zero_w.val();
            self.k_hz.next = self.e_hzc[i].q.val();
            // (The entries it waits on are ordered, hence late with a registered push.)
            self.k_hit.next = (self.e_dep[i].q.val() & self.last_fs[i].val()).any();
            self.k_chain.next = (self.e_ch[i].q.val() & self.last_fs[i].val()).any();
            if self.rp.val() {
                self.k_dep.next = self.e_dep[i].q.val() & !self.last_fs[i].val();
                // The window of the issue applied in the last cycle, a cycle on (a chain
                // producer's issue brings the chain's window, not its own).
                if self.e_hw[i].q.val() {
                    self.k_dw.next = self.i_wt_r.q.val();
                }
                if self.e_hc[i].q.val() && !self.e_lc[i].q.val() {
                    self.k_dw.next = self.k_dw.val() | self.ch_wt.val();
                }
                if self.e_hc[i].q.val() && self.e_lc[i].q.val() {
                    self.k_dw.next = self.k_dw.val() | self.ch_wt_l.val();
                }
                self.k_cnt.next = self.e_cnt[i].q.val() | (self.k_dw.val() >> 1);
                if self.k_hit.val() {
                    self.k_hz.next = true;
                }
                if self.ph_we.val().get_bit(i) {
                    self.k_cnt.next = self.k_cnt.val() | (self.ph_or.val() >> 1);
                    self.k_hz.next = self.k_hz.val() || self.ph_or.val().get_bit(0);
                }
            }
            if self.rp.val() && !self.ordered.val().get_bit(i) {
                self.k_dep.next = self.zero_d.val();
                self.k_cnt.next = self.zero_w.val();
                self.k_hz.next = false;
            }
            // Its last fast predecessor: picked in the last cycle (`k_ht`), still waited for
            // (`k_fx`), picked now (`k_pl` and not `k_ob`: the oldest the pick may take among
            // the entries older than this one).
            self.k_ht.next = (self.e_lp[i].q.val() & self.last_fs[i].val()).any();
            self.k_fx.next = self.e_fb[i].q.val() && self.e_lp[i].q.val().any() && !self.k_ht.val();
            self.k_pl.next = (self.e_lp[i].q.val() & self.pe_v.val()).any();
            self.k_ob.next = false;
            for k in 0..QUEUE_DEPTH {
                if (k != i)
                    && self.pe_v.val().get_bit(k)
                    && self.older[k].val().get_bit(i)
                    && !self.e_lp[i].q.val().get_bit(k)
                {
                    self.k_ob.next = true;
                }
            }
            // (A fast predecessor not picked yet counts as a wait on the line.)
            self.vb.next = self.valid.val().get_bit(i) && (self.k_dep.val().any() || self.k_fx.val());
            self.lw_v.next =
                (self.lw_v.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.vb.val().into()) << self.top_sh.val());
            self.vb.next =
                self.valid.val().get_bit(i) && !self.k_dep.val().any() && !self.k_fx.val() && self.k_hz.val();
            self.hw_v.next =
                (self.hw_v.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.vb.val().into()) << self.top_sh.val());
            // An entry that stays: it waits on its line while an older entry to it stays, and
            // for the result while a late one of them has just issued (`k_hz1`).
            self.k_blk.next = false;
            self.k_hz1.next = false;
            self.k_wt.next = self.zero_w.val();
            for j in 0..QUEUE_DEPTH {
                if self.k_dep.val().get_bit(j) && (!self.fs.val().get_bit(j) || self.late.val().get_bit(j)) {
                    self.k_blk.next = true;
                }
                if self.k_dep.val().get_bit(j) && self.fs.val().get_bit(j) && self.late.val().get_bit(j) {
                    self.k_hz1.next = true;
                    self.k_wt.next = self.k_wt.val() | self.wt[j].val();
                }
            }
            // A registered push applies an issue to the entries behind it a cycle late, so
            // nothing here waits for this cycle's pick: every ordered entry is late (window at
            // least 1), and an entry behind a valid one is blocked whether or not it issues.
            if self.rp.val() {
                self.k_blk.next = self.k_dep.val().any();
                self.k_hz1.next = false;
                self.k_wt.next = self.zero_w.val();
            }
            self.d_next[i].next = self.k_dep.val() & !self.fs.val();
            if self.rp.val() {
                self.d_next[i].next = self.k_dep.val();
            }
            self.e_cnt[i].d.next = (self.k_cnt.val() >> 1) | self.k_wt.val();
            // Whether the entry waits for a result in the next cycle (`k_cnt` bit 0), as
            // eligibility needs it. With a registered push, not from the issued slot's window
            // (`i_wt`, an AND-OR over the slots): an entry that stays blocked on its line is
            // not eligible anyway, and one whose last dependence issued (`k_hit`, none left)
            // waited on that entry alone, whose window bit 0 is in `e_dw`; the window of the
            // issue applied in the last cycle is `k_dw` (its bit 1: this count's bit 0), the
            // history's bit 0 comes from the push's registered matches.
            self.k_c0.next = self.k_cnt.val().get_bit(0);
            if self.rp.val() {
                self.k_c0.next = self.e_cnt[i].q.val().get_bit(0)
                    || self.k_dw.val().get_bit(1)
                    || (self.e_dw[i].q.val() & self.last_fs[i].val()).any()
                    || (self.ph_we.val().get_bit(i) && self.ph_or.val().get_bit(1));
            }
            // Waits for a result in the next cycle (coverage): eligibility's bit (with a
            // registered push not the count's, whose issued-window select is the longest path
            // to a register only coverage reads; `k_hz1` is then low).
            self.e_hzc[i].d.next = self.k_hz1.val() || self.k_c0.val();
            // (`!fs[i]` as the pick's terms: see `blk`; the pick takes `elig & !fb`.)
            self.e_elig[i].d.next = self.valid.val().get_bit(i)
                && (self.blk.val().get_bit(i)
                    || !self.e_elig[i].q.val()
                    || self.e_fb[i].q.val()
                    || !self.pick_en.val())
                && !self.k_c0.val()
                && !self.k_blk.val();
            // Its fast predecessor's wait, kept or cleared (a pushed entry's is set below), and
            // the window an issue applied now brings a cycle on (`e_hw`, `e_hc`).
            self.e_lp[i].d.next = self.e_lp[i].q.val() & !self.last_fs[i].val();
            self.e_fb[i].d.next = self.k_fx.val() && !(self.pick_en.val() && self.k_pl.val() && !self.k_ob.val());
            // (A pushed entry has none; nor has an unordered one, whose first cycle's raw
            // matches are no dependences.)
            self.k_ap.next =
                self.rp.val() && self.k_hit.val() && self.ordered.val().get_bit(i) && !self.ld.val().get_bit(i);
            self.e_hw[i].d.next = self.k_ap.val() && !self.k_chain.val();
            self.e_hc[i].d.next = self.k_ap.val() && self.k_chain.val();
        }
    }
}

/// The slot a push loads (its dependences, chain, window bits); reset; coverage.
enum EntryLoad {}

impl crate::sections::Section<EntryLoad> for EntryWait {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..QUEUE_DEPTH {
            // A pushed entry (with a registered push: the slot `fr` loads in every cycle).
            self.ch_next.next = self.e_ch[i].q.val();
            self.e_lc[i].d.next = self.e_lc[i].q.val();
            self.k_cw2.next = self.ch_wt0.val();
            if self.e_lc[i].q.val() {
                self.k_cw2.next = self.ch_wt0_l.val();
            }
            if self.ld.val().get_bit(i) {
                self.d_next[i].next = self.zero_d.val();
                self.e_cnt[i].d.next = self.zero_w.val();
                self.e_hzc[i].d.next = false;
                self.e_elig[i].d.next = true;
                if self.push_ordered.val() {
                    self.d_next[i].next = self.n_dep.val();
                    self.e_cnt[i].d.next = self.n_wt.val() | (self.hist.val() >> 1);
                    self.e_hzc[i].d.next = self.n_hz1.val() || self.hist.val().get_bit(0);
                    self.e_elig[i].d.next = !self.n_blk.val() && !self.hist.val().get_bit(0);
                }
                // A registered push keeps the raw matches (nothing from this cycle's issue, nor
                // from the pushed request's own decode) and is not eligible in its first cycle.
                if self.rp.val() {
                    self.d_next[i].next = self.m_q.val();
                    self.e_cnt[i].d.next = self.zero_w.val();
                    self.e_hzc[i].d.next = false;
                    self.e_elig[i].d.next = false;
                }
                self.ch_next.next = self.p_ch.val();
                self.e_lc[i].d.next = self.push_long.val();
                self.k_cw2.next = self.ch_wt0.val();
                if self.push_long.val() {
                    self.k_cw2.next = self.ch_wt0_l.val();
                }
                // Registered push: the matches with a fast-equal key are fast predecessors,
                // not dependences (of an ordered entry only: an unordered one waits on none);
                // it waits for the youngest, which issues after the others. `e_fb` is set
                // (the entry is not eligible in its first cycle, so the pick never reads it
                // then), and cleared in the next cycle when there is none.
                self.e_lp[i].d.next = self.zero_d.val();
                self.e_fb[i].d.next = self.rp.val();
                if self.rp.val() && self.push_ordered.val() {
                    self.d_next[i].next = self.m_q.val() & !self.p_fa.val();
                    self.e_lp[i].d.next = self.s_fa.val() & self.e_tl.q.val();
                }
            }
            self.e_dep[i].d.next = self.d_next[i].val();
            // (`k_chain` is read only when the issued slot is a dependence, `k_hit`, so the raw
            // key matches serve: a bit of a slot reloaded since is never among `e_dep`.)
            self.e_ch[i].d.next = self.ch_next.val();
            // (An unordered entry's raw matches in its first cycle are not dependences. With a
            // chain window of 1, chain producers are not among the windows of 2 or more.)
            self.e_dw[i].d.next = self.zero_d.val();
            if (self.ordered.val().get_bit(i) && !self.ld.val().get_bit(i))
                || (self.push_ordered.val() && self.ld.val().get_bit(i))
            {
                self.e_dw[i].d.next = self.d_next[i].val() & self.wt0.val();
                if !self.k_cw2.val() {
                    self.e_dw[i].d.next = self.d_next[i].val() & self.wt0.val() & !self.ch_next.val();
                }
            }
        }
        self.c_lw.d.next = self.lw_v.val();
        self.c_hw.d.next = self.hw_v.val();
        if self.reset.val() {
            for i in 0..QUEUE_DEPTH {
                self.e_elig[i].d.next = false;
            }
        }
        // Line- and hazard-wait coverage (registered push: from a register, a cycle later).
        self.cov_line_wait.next = self.lw_v.val().any();
        self.cov_hazard_wait.next = self.hw_v.val().any();
        if self.rp.val() {
            self.cov_line_wait.next = self.c_lw.q.val().any();
            self.cov_hazard_wait.next = self.c_hw.q.val().any();
        }
    }
}
