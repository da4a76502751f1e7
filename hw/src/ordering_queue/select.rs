//! The pick and the issue outputs.
//!
//! The pick: the oldest eligible entry, one-hot `sel[i] = pe[i] & !OR_j(pe[j] &
//! older[j][i])`, from registers only: `pe = elig & !fb`, an eligible entry that waits for no
//! fast predecessor (an entry that is not picked while one is left needs no more, so it
//! neither wins nor holds the younger ones back). The issue outputs are a one-hot AND-OR of the slots
//! with the select as a mask (a chain of `if`s synthesises as one 7-level multiplexer for 8
//! slots), the payload the slots' RAM read at that select; with a registered push they show
//! the pick of the cycle before (`last_fs`), read from its slot, which stays intact for two
//! cycles, so the pick drives registers only, and the late payload is the issue payload
//! registered.

use super::{QUEUE_DEPTH, QUEUE_PAYLOAD_BITS, QUEUE_WAIT_MAX};
use crate::ecp5::replica_reg::ReplicaReg;
use crate::line_memory::LINE_BITS;
use crate::lut_ram::LUT_RAM_ADDR_BITS;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub(super) struct IssueSelect {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub issue_enable: Signal<In, Bit>,
    /// The slots (see [`super::slots::SlotData`]) and their eligibility.
    pub valid: Signal<In, Bits<QUEUE_DEPTH>>,
    pub ordered: Signal<In, Bits<QUEUE_DEPTH>>,
    pub elig: Signal<In, Bits<QUEUE_DEPTH>>,
    /// Registered push: the entries that may still wait for a fast predecessor (registers).
    pub fb: Signal<In, Bits<QUEUE_DEPTH>>,
    pub older: [Signal<In, Bits<QUEUE_DEPTH>>; QUEUE_DEPTH],
    pub line: [Signal<In, Bits<LINE_BITS>>; QUEUE_DEPTH],
    /// The payload of the slot `rd_addr` (the slots' RAM, read at the issue outputs' slot,
    /// in binary), zero unless `rd_en` (`issue_valid`).
    pub rd_payload: Signal<In, Bits<QUEUE_PAYLOAD_BITS>>,
    pub rd_addr: Signal<Out, Bits<LUT_RAM_ADDR_BITS>>,
    pub rd_en: Signal<Out, Bit>,
    pub words: [Signal<In, Bits<4>>; QUEUE_DEPTH],
    pub wt: [Signal<In, Bits<QUEUE_WAIT_MAX>>; QUEUE_DEPTH],
    /// The slot issuing this cycle (one-hot, zero when none), and the issues of the last two
    /// cycles.
    pub fs: Signal<Out, Bits<QUEUE_DEPTH>>,
    /// The pick's terms for the entries' eligibility: an older eligible entry (bit i: entry
    /// i does not win), and whether the pick issues (`fs[i] = en & elig[i] & !blk[i]`).
    pub blk: Signal<Out, Bits<QUEUE_DEPTH>>,
    pub pick_en: Signal<Out, Bit>,
    /// `last_fs` again, one replica per entry for its wait state, so the issue outputs'
    /// AND-OR (over 200 loads) does not load the entries' counts and dependences.
    pub last_fs_e: [Signal<Out, Bits<QUEUE_DEPTH>>; QUEUE_DEPTH],
    pub last_fs_q: Signal<Out, Bits<QUEUE_DEPTH>>,
    pub last2_fs_q: Signal<Out, Bits<QUEUE_DEPTH>>,
    pub issue_valid: Signal<Out, Bit>,
    pub issue_line: Signal<Out, Bits<LINE_BITS>>,
    pub issue_ordered: Signal<Out, Bit>,
    pub issue_payload: Signal<Out, Bits<QUEUE_PAYLOAD_BITS>>,
    pub issue_words: Signal<Out, Bits<4>>,
    pub issue_payload_late: Signal<Out, Bits<QUEUE_PAYLOAD_BITS>>,
    /// The issued entry's window (`e_wt` of the slot `fs`, or `last_fs` with a registered
    /// push).
    pub i_wt: Signal<Out, Bits<QUEUE_WAIT_MAX>>,
    pub cov_overtake: Signal<Out, Bit>,
    last_fs: DFF<Bits<QUEUE_DEPTH>>,
    last2_fs: DFF<Bits<QUEUE_DEPTH>>,
    lfs_e: [ReplicaReg<Bits<QUEUE_DEPTH>>; QUEUE_DEPTH],
    /// Registered push: the issue payload of the cycle before (`issue_payload_late`).
    late: DFF<Bits<QUEUE_PAYLOAD_BITS>>,
    /// The binary number of `fs` (registered: `last_fs` in binary, the payload RAM's read
    /// address from a register of its own) and of `sel`, and each slot's number.
    last_bin: DFF<Bits<LUT_RAM_ADDR_BITS>>,
    fs_bin: Signal<Local, Bits<LUT_RAM_ADDR_BITS>>,
    sel_bin: Signal<Local, Bits<LUT_RAM_ADDR_BITS>>,
    slot_no: [Constant<Bits<LUT_RAM_ADDR_BITS>>; QUEUE_DEPTH],
    /// Registered push: an entry issued in the last cycle (the late issue outputs).
    last_fire: DFF<Bit>,
    /// The slots the issue outputs read (`sel`, or `last_fs` with a registered push), and
    /// those whose window `i_wt` is (`fs` or `last_fs`).
    o_sel: Signal<Local, Bits<QUEUE_DEPTH>>,
    w_sel: Signal<Local, Bits<QUEUE_DEPTH>>,
    /// The issue outputs' select masks for one slot.
    mk_line: Signal<Local, Bits<LINE_BITS>>,
    mk_words: Signal<Local, Bits<4>>,
    en: Signal<Local, Bit>,
    found: Signal<Local, Bit>,
    fire: Signal<Local, Bit>,
    win: Signal<Local, Bit>,
    bk: Signal<Local, Bit>,
    sel: Signal<Local, Bits<QUEUE_DEPTH>>,
    /// The entries the pick may take: `elig & !fb`.
    pe: Signal<Local, Bits<QUEUE_DEPTH>>,
    oldest: Signal<Local, Bit>,
    old_waits: Signal<Local, Bit>,
    /// `old_waits` registered (registered push: overtake coverage a cycle later, with
    /// `last_fire`, so that no coverage logic follows the valid bits' age compare).
    c_ow: DFF<Bit>,
    rp: Constant<Bit>,
    ones_line: Constant<Bits<LINE_BITS>>,
    ones_words: Constant<Bits<4>>,
    zero_line: Constant<Bits<LINE_BITS>>,
    zero_payload: Constant<Bits<QUEUE_PAYLOAD_BITS>>,
    zero_words: Constant<Bits<4>>,
    zero_d: Constant<Bits<QUEUE_DEPTH>>,
    zero_w: Constant<Bits<QUEUE_WAIT_MAX>>,
    top_sh: Constant<Bits<4>>,
}

impl IssueSelect {
    pub(super) fn new(registered: bool) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            issue_enable: Default::default(),
            valid: Default::default(),
            ordered: Default::default(),
            elig: Default::default(),
            fb: Default::default(),
            older: Default::default(),
            line: Default::default(),
            rd_payload: Default::default(),
            rd_addr: Default::default(),
            rd_en: Default::default(),
            words: Default::default(),
            wt: Default::default(),
            fs: Default::default(),
            blk: Default::default(),
            pick_en: Default::default(),
            last_fs_e: Default::default(),
            last_fs_q: Default::default(),
            last2_fs_q: Default::default(),
            issue_valid: Default::default(),
            issue_line: Default::default(),
            issue_ordered: Default::default(),
            issue_payload: Default::default(),
            issue_words: Default::default(),
            issue_payload_late: Default::default(),
            i_wt: Default::default(),
            cov_overtake: Default::default(),
            last_fs: Default::default(),
            last2_fs: Default::default(),
            lfs_e: Default::default(),
            late: Default::default(),
            last_bin: Default::default(),
            fs_bin: Default::default(),
            sel_bin: Default::default(),
            slot_no: std::array::from_fn(|i| crate::k::<LUT_RAM_ADDR_BITS>(i as u128)),
            last_fire: Default::default(),
            o_sel: Default::default(),
            w_sel: Default::default(),
            mk_line: Default::default(),
            mk_words: Default::default(),
            en: Default::default(),
            found: Default::default(),
            fire: Default::default(),
            win: Default::default(),
            bk: Default::default(),
            sel: Default::default(),
            pe: Default::default(),
            oldest: Default::default(),
            old_waits: Default::default(),
            c_ow: Default::default(),
            rp: Constant::new(registered),
            ones_line: Constant::new(Bits::<LINE_BITS>::mask()),
            ones_words: crate::k::<4>(15),
            zero_line: Constant::new(Bits::default()),
            zero_payload: Constant::new(Bits::default()),
            zero_words: Constant::new(Bits::default()),
            zero_d: crate::k::<QUEUE_DEPTH>(0),
            zero_w: crate::k::<QUEUE_WAIT_MAX>(0),
            top_sh: crate::k::<4>((QUEUE_DEPTH - 1) as u128),
        }
    }
}

impl Logic for IssueSelect {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, last_fs, last2_fs, last_fire, c_ow, late, last_bin);
        for i in 0..QUEUE_DEPTH {
            self.lfs_e[i].clock.next = self.clock.val();
        }
        // The pick: the oldest eligible entry (one-hot `sel`). `blk` and `en` go to the
        // entries' eligibility too, which takes `!fs[i]` as `blk[i] | !elig[i] | !en`: one
        // LUT after the OR of the older entries, not after the pick.
        self.en.next = self.issue_enable.val() && !self.reset.val();
        self.pick_en.next = self.en.val();
        self.pe.next = self.elig.val() & !self.fb.val();
        self.found.next = false;
        self.sel.next = self.zero_d.val();
        self.blk.next = self.zero_d.val();
        for i in 0..QUEUE_DEPTH {
            if self.pe.val().get_bit(i) {
                self.found.next = true;
            }
            self.bk.next = false;
            for j in 0..QUEUE_DEPTH {
                if (j != i) && self.pe.val().get_bit(j) && self.older[j].val().get_bit(i) {
                    self.bk.next = true;
                }
            }
            self.blk.next =
                (self.blk.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.bk.val().into()) << self.top_sh.val());
            self.win.next = self.pe.val().get_bit(i) && !self.bk.val();
            self.sel.next =
                (self.sel.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.win.val().into()) << self.top_sh.val());
        }
        self.fire.next = self.found.val() && self.en.val();
        self.fs.next = self.zero_d.val();
        if self.en.val() {
            self.fs.next = self.sel.val();
        }
        self.last_fs.d.next = self.fs.val();
        for i in 0..QUEUE_DEPTH {
            self.lfs_e[i].d.next = self.fs.val();
            self.last_fs_e[i].next = self.lfs_e[i].q.val();
        }
        self.last2_fs.d.next = self.last_fs.q.val();
        self.last_fs_q.next = self.last_fs.q.val();
        self.last2_fs_q.next = self.last2_fs.q.val();
        // The issue outputs and the issued entry's window: this cycle's pick (`sel`, `fs`),
        // or with a registered push the last cycle's (`last_fs`, `last_fire`); zero when
        // nothing issues.
        self.last_fire.d.next = self.fire.val();
        self.issue_valid.next = self.fire.val();
        self.o_sel.next = self.sel.val();
        self.w_sel.next = self.fs.val();
        if self.rp.val() {
            self.issue_valid.next = self.last_fire.q.val();
            self.o_sel.next = self.last_fs.q.val();
            self.w_sel.next = self.last_fs.q.val();
        }
        self.issue_line.next = self.zero_line.val();
        self.issue_words.next = self.zero_words.val();
        self.i_wt.next = self.zero_w.val();
        for i in 0..QUEUE_DEPTH {
            self.mk_line.next = self.zero_line.val();
            self.mk_words.next = self.zero_words.val();
            if self.o_sel.val().get_bit(i) {
                self.mk_line.next = self.ones_line.val();
                self.mk_words.next = self.ones_words.val();
            }
            self.issue_words.next = self.issue_words.val() | (self.words[i].val() & self.mk_words.val());
            self.issue_line.next = self.issue_line.val() | (self.line[i].val() & self.mk_line.val());
            // (`e_wt` is zero unless the entry is late.)
            if self.w_sel.val().get_bit(i) {
                self.i_wt.next = self.i_wt.val() | self.wt[i].val();
            }
        }
        self.issue_ordered.next = (self.o_sel.val() & self.ordered.val()).any();
        // The payload: the slots' RAM read at the issuing slot (`rd_addr`; the slots give zero
        // when nothing issues, `rd_en`). The late payload (registered push; zero otherwise) is
        // it a cycle later, from a register, so the unit's stage after the issue takes it from
        // flip-flops.
        self.fs_bin.next = self.slot_no[0].val();
        self.sel_bin.next = self.slot_no[0].val();
        for i in 0..QUEUE_DEPTH {
            if self.fs.val().get_bit(i) {
                self.fs_bin.next = self.fs_bin.val() | self.slot_no[i].val();
            }
            if self.sel.val().get_bit(i) {
                self.sel_bin.next = self.sel_bin.val() | self.slot_no[i].val();
            }
        }
        self.last_bin.d.next = self.fs_bin.val();
        self.rd_addr.next = self.sel_bin.val();
        if self.rp.val() {
            self.rd_addr.next = self.last_bin.q.val();
        }
        // (The payload's statements read no variable of the pick's: the slots gate it with
        // `rd_en`, so Verilator orders them apart from the pick that drives `rd_addr`.)
        self.rd_en.next = self.issue_valid.val();
        self.issue_payload.next = self.rd_payload.val();
        self.late.d.next = self.rd_payload.val();
        self.issue_payload_late.next = self.zero_payload.val();
        if self.rp.val() {
            self.issue_payload_late.next = self.late.q.val();
        }
        // Overtake coverage. The oldest valid entry has no older entry to its line: it waits
        // only for a hazard, and an issue while it waits overtakes it.
        self.old_waits.next = false;
        for i in 0..QUEUE_DEPTH {
            self.oldest.next = self.valid.val().get_bit(i);
            for j in 0..QUEUE_DEPTH {
                if (j != i) && self.valid.val().get_bit(j) && self.older[j].val().get_bit(i) {
                    self.oldest.next = false;
                }
            }
            if self.oldest.val() && !self.pe.val().get_bit(i) {
                self.old_waits.next = true;
            }
        }
        self.c_ow.d.next = self.old_waits.val();
        self.cov_overtake.next = self.fire.val() && self.old_waits.val();
        if self.rp.val() {
            self.cov_overtake.next = self.last_fire.q.val() && self.c_ow.q.val();
        }
    }
}
