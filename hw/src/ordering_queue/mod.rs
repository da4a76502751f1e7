//! The per-address ordering queue: holds accepted requests until they may issue, keeps
//! requests to one 32-bit word of a line in arrival order, and lets requests to other words
//! and lines overtake.
//!
//! [`QUEUE_DEPTH`] fixed slots; an entry stays in the slot it was pushed into until it
//! issues (nothing shifts). Each entry holds a line address, an `ordered` flag (the request
//! touches memory; error requests do not and are never ordered), a *hazard window* `W`
//! (`push_wait`: its new line exists only `W` cycles after its issue; the unit gives FP forms
//! `L + 2`, integer forms `Li + 2`, `ld`/`st` 1: `slice_unit::Shape`) and an opaque payload.
//! An entry is *eligible* when it is valid and either not ordered, or ordered and
//! - no older valid ordered entry has the same line and a word in common (`push_words`: the
//!   32-bit words of the line an entry touches; order per word, entries to other words of
//!   a line overtake each other), and
//! - no ordered entry to its line and words issued in the last `W` cycles, `W` that entry's window
//!   (its result is not there yet: the unit's pipeline holds it). The largest window is the
//!   constructor's `max_wait` ([`QUEUE_HAZARD_CYCLES`] = 2 for [`Default`]).
//!
//! In each cycle with `issue_enable` high the oldest eligible entry leaves on the `issue_*`
//! outputs (combinationally from the entry registers; the consumer must take it). A push
//! (`push_valid` and `push_ready`) takes the lowest free slot. `push_ready` is low only when
//! all slots are valid (it does not look at this cycle's issue, so there is no combinational
//! path from the issue side to it). Synchronous `reset` empties the queue.
//!
//! # Timing structure (150 MHz on the ECP5)
//! Everything the pick needs is registered, so the issue outputs are two short steps from
//! the registers: a one-hot oldest-eligible pick and a one-hot AND-OR of the slots.
//! - `e_elig[i]` (entry i is eligible) is a register, computed from the next state;
//! - `e_older[i]` bit j (entry i is older than entry j): the age matrix. A push into slot k
//!   clears row k and sets column k. The pick: `sel[i] = elig[i] & !OR_j(elig[j] & older[j][i])`
//!   (with a registered push `elig & !fb` in place of `elig`: see *Fast chains*);
//! - `e_dep[i]` bit j (entry i waits for the older ordered entry j to its line): set at the
//!   push (the pushed line compared with every slot's line, the only line compares), cleared
//!   when j issues;
//! - `e_cnt[i]`: the cycles entry i still waits for a result, as a thermometer code (bit k
//!   set while more than k cycles remain; shifting right counts down, and the larger of two
//!   waits is their OR). When a late entry j (window `W` > 0) issues, its dependents
//!   (`e_dep[i]` bit j) are blocked in the next cycle and get `e_cnt` = `W - 1` ones (`e_wt[j]`,
//!   decoded at the push): they move from waiting on the line to waiting on the result.
//! - The issue history `h_line[k]`, `h_t[k]`: the line of the late entry issued `k + 1` cycles
//!   ago and its remaining window (`W - k - 1` ones). A pushed entry ORs the windows of the
//!   history entries to its line (bit 0: it waits next cycle, the rest its `e_cnt`); one pushed
//!   in the cycle of such an issue takes the issuing entry's `e_wt` from its line compare.
//!   The history has `max_wait - 1` places (one with the default window of 2: the line of the
//!   last issue).
//!
//! # Registered push ([`OrderingQueue::with_registered_push`], the unit's queue)
//! The push keeps the pushed request's raw matches with the slots (`m_q`: line and words,
//! with no issue applied) and the history's count, and is not eligible in its first cycle;
//! every entry applies an issue one cycle late (`last_fs`, each entry reading a replica of
//! its own, away from the issue outputs' select: its dependence bit on the issued entry is
//! cleared, and that entry's window, `i_wt` read from its slot, joins its count a cycle
//! later still, shifted once: the count's D input waits for no match with the issued
//! slot). So neither the pushed request's decode nor any state of the other entries waits
//! for this cycle's pick; the price is a cycle more from push to issue, and a window of at
//! least 1 for every ordered entry.
//! Three more registers keep the pick and the line compares off each other's paths:
//! - the windows of the history places the pushed line matches (each place's match ANDed
//!   with its window) are registered, and join the entry's count a cycle later (the entry is
//!   not eligible then anyway) through one OR of three registers: the issue of the cycle
//!   before and the newest place (`ph_w`, the issue before it), both matched through their
//!   slots' line compares (a slot stays intact for two cycles after its issue; their word
//!   matches are registered apart, `ph_wh`, and ANDed in the OR), and the older
//!   places already ORed (`ph_hr`), whose matches are compared a cycle ahead like the
//!   slots' (`hm_r`: a place k > 0 is place k - 1 of the cycle before);
//! - a push takes the slot chosen a cycle before (`fr`, among the slots free then and not
//!   being pushed), so `push_ready` and the write enables wait for no search of the valid
//!   bits; a slot freed by an issue is offered two cycles later;
//! - hence an issued entry's slot stays intact for two cycles, and the issue outputs leave a
//!   cycle after the pick (`last_fs`, `last_fire`), read from that slot: the pick drives
//!   registers only. The issue of the cycle before is the history's newest place, read from
//!   its slot too (its line compare is the pushed line's slot compare).
//! - the pushed line's compares with the slots are made a cycle ahead (`m_r`), from the line
//!   the push will carry (`push_line_nx`) and each slot's line as it will be (the slot chosen
//!   by `fr` takes the pushed line): so the push's dependences start from a register. A
//!   pusher whose line register may keep its line says so (`push_nx_keep`) beside the line
//!   it would load; then the matches are already in `m_r` (its own next value, with the
//!   slot `fr` loads matching), and the bit selects between them and the compares in the
//!   last LUT (the history's place matches likewise shift along `hm_r`); the chain-key
//!   matches and the word matches likewise (`pc_r`, `pf_r`, `w_r`, from `push_key_nx` and
//!   `push_words_nx`);
//! - `cov_line_wait` and `cov_hazard_wait` come from a register per slot, a cycle after the
//!   event (the coverage is counted, not acted on).
//!
//! # Chains (registered push)
//! Each entry carries a *chain key* (`push_key`: the bytes it touches and the loop its
//! operation takes; 0 when it takes none). At the push the key is compared with every slot's
//! (`e_ch`, all bits but the fast one); when an entry's dependence with an equal key issues,
//! the entry waits the chain's window after it ([`OrderingQueue::with_chain_wait`], 1 by
//! default; [`OrderingQueue::with_long_chain_wait`] when the key has the long bit, the
//! chains of a longer loop, `e_lc`) instead of that entry's own: the unit forwards the
//! producer's result into the consumer's operand inside the ALU's loop, so the consumer
//! does not need the merged line.
//! A dependence with another key (other bytes, another loop, a line-path access) gives its
//! full window, and the count keeps the largest. An entry pushed after its producer issued
//! takes the producer's full window from the history (chains form among waiting entries).
//!
//! *Fast chains*: two keys with the chainable and the fast bit set that are equal in all bits
//! (`p_fa`) are fast-equal (the ALU runs the dependent op a cycle behind its producer). A
//! pushed entry takes no dependence on an entry it would depend on whose key is fast-equal:
//! that one is a *fast predecessor*. Entries to one line with fast-equal keys touch the same
//! words (the push contract), so they form a chain in push order, and each waits only for
//! the youngest fast predecessor at its push, its *last* (`e_lp`; per slot `e_tl` marks the
//! youngest of each chain). The pick never takes an entry that may still wait for it
//! (`e_fb`: the pick reads `elig & !fb`). So it may issue in the cycle after its last fast
//! predecessor's pick (a cycle earlier than a chain), never before, and still waits for its
//! other dependences and windows. `e_fb` is cleared without the pick on its path: each entry
//! sees that its last fast predecessor is the oldest entry the pick may take among those
//! older than itself (see `wait_state`).
//!
//! Coverage outputs (high in the cycle the event happens; with a registered push,
//! `cov_line_wait` and `cov_hazard_wait` a cycle later): `cov_full` (all entries valid),
//! `cov_overtake` (an entry issues while an older one waits), `cov_line_wait` (an entry waits
//! behind an older one to its line), `cov_hazard_wait` (an entry free of older same-line
//! entries waits for the result of a late entry to its line), `cov_back_to_back` (two
//! ordered pushes to one line in consecutive cycles).

//!
//! # Blocks
//! ```text
//!  push_* ──► free_slot::FreeSlot ──we, ld, fr──┬──────────────────────────────┐
//!             (handshake, slot choice)          │                              │
//!  push_* ──► slots::SlotData ◄─────────────────┤ fs                           │
//!             (line, words, payload, window,    │                              │
//!              key, age matrix)                 │                              │
//!               │ valid, line, words, key, wt   │                              │
//!               ▼                               │                              ▼
//!  push_* ──► push_match::PushMatch ──m──► history::History ──hist, ph_or──► wait_state::EntryWait
//!             (line/word/key compares,  n_dep, n_blk, n_wt, m_q, p_ch, p_fa ─► (e_dep, e_cnt, e_ch,
//!              pushed entry's deps)            ▲ issue_line, i_wt                e_dw, e_lp, e_fb, e_elig)
//!                                              │                                   │ elig, fb
//!  issue_* ◄── select::IssueSelect ────────────┴───────────── fs, last_fs ◄────────┘
//!             (oldest-eligible pick, one-hot AND-OR of the slots)
//! ```
//! Every arrow into `EntryWait` and `SlotData` ends at a register's D input; the pick reads
//! registers only (`elig`, `fb`, the age matrix), so the blocks form no combinational loop.

mod free_slot;
mod history;
mod push_match;
mod select;
mod slots;
mod wait_state;

use crate::line_memory::LINE_BITS;
use rust_hdl::prelude::*;

/// Entries in the ordering queue: the queue's one size parameter (all its logic follows this
/// constant; the unit and the tests pass with other depths, e.g. 5).
pub const QUEUE_DEPTH: usize = 8;
/// Width of an entry's opaque payload.
pub const QUEUE_PAYLOAD_BITS: usize = 174;
/// The largest hazard window of the queue's default ([`OrderingQueue::default`], the queue
/// alone and its tests): cycles after the issue of an ordered late entry in which ordered
/// entries to its line and words may not issue (the unit's queue takes the unit's windows,
/// up to `L + 2`).
pub const QUEUE_HAZARD_CYCLES: usize = 2;
/// The largest hazard window any queue takes (`OrderingQueue::new`): the width of the
/// thermometer counts.
pub const QUEUE_WAIT_MAX: usize = 16;
/// Width of `push_wait`.
pub const QUEUE_WAIT_BITS: usize = 5;
/// Width of `push_key` (the top bit: the entry may chain; the next: its chain is fast; the
/// next, [`QUEUE_KEY_LONG`]: its chain waits the long window).
pub const QUEUE_KEY_BITS: usize = 12;
/// The bit of `push_key` that gives the entry's chains the long window
/// ([`OrderingQueue::with_long_chain_wait`]).
pub const QUEUE_KEY_LONG: usize = QUEUE_KEY_BITS - 3;
const _: () = assert!(QUEUE_DEPTH >= 2 && QUEUE_DEPTH <= 16, "slot vectors shift by a 4-bit constant");

#[derive(LogicBlock)]
pub struct OrderingQueue {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // Push side.
    pub push_valid: Signal<In, Bit>,
    pub push_ready: Signal<Out, Bit>,
    /// Registered push only: the next cycle's `push_ready` before the reset (the D input of
    /// its register), for a consumer that registers its own copy of the handshake.
    pub push_ready_nx: Signal<Out, Bit>,
    pub push_line: Signal<In, Bits<LINE_BITS>>,
    /// Registered push only: the line `push_line` carries in the next cycle (the D input of
    /// the pusher's line register), so that the line compares start a cycle ahead.
    pub push_line_nx: Signal<In, Bits<LINE_BITS>>,
    /// Registered push only: the pusher keeps its line register next cycle (the next push
    /// line is `push_line` itself, whatever `push_line_nx` says). It selects, in the last
    /// LUT of each slot's match, the matches the queue already holds instead of the compares
    /// with `push_line_nx` (and `push_key_nx`, `push_words_nx`): a register, or a register's
    /// copy. 0 when unused. The held matches rely on it in every cycle: with it the push
    /// line, key and words must stay, without it `push_line_nx`, `push_key_nx` and
    /// `push_words_nx` must be next cycle's.
    /// (From power-up, a slot's held match is exact from the first cycle `fr` loads the slot,
    /// before which nothing reads it; the history places' are exact within `hm_r.len()`
    /// cycles, before which their windows are zero.)
    pub push_nx_keep: Signal<In, Bit>,
    pub push_ordered: Signal<In, Bit>,
    /// The entry's hazard window: its new line exists only this many cycles after its issue
    /// (0..=`max_wait`; 0: at once).
    pub push_wait: Signal<In, Bits<QUEUE_WAIT_BITS>>,
    pub push_payload: Signal<In, Bits<QUEUE_PAYLOAD_BITS>>,
    /// Registered push only: the entry's *chain key* (bit [`QUEUE_KEY_BITS`] - 1 set: the
    /// entry may chain; bit [`QUEUE_KEY_BITS`] - 2 set: its chain is fast; bit
    /// [`QUEUE_KEY_LONG`] set: its chain's window is the long one; the rest name the bytes
    /// and the loop it takes). An entry that waits on an older entry to its line with an
    /// equal chainable key (the fast bit not compared) waits only the chain's window after
    /// that one's issue (the long window when the key has the long bit), not that one's
    /// window: the consumer takes its operand from the producer's result in the ALU's loop,
    /// not from the line. With both keys fast and equal in all bits it waits for no window: it
    /// may issue in any cycle after that one's (see *Fast chains*). 0: never chains. A chainable entry's own window (`push_wait`) must be
    /// at least the chain's (the unit's integer window is), and two entries to one line with
    /// fast-equal keys must touch the same words (`push_words`; the unit's keys name the
    /// bytes).
    pub push_key: Signal<In, Bits<QUEUE_KEY_BITS>>,
    /// Registered push only: the key `push_key` carries in the next cycle (the D input of the
    /// pusher's key register), with `push_nx_keep` as for `push_line_nx`: the key matches
    /// start a cycle ahead too.
    pub push_key_nx: Signal<In, Bits<QUEUE_KEY_BITS>>,
    /// Registered push only: the words `push_words` carries in the next cycle, likewise.
    pub push_words_nx: Signal<In, Bits<4>>,
    /// The 32-bit words of its line the entry touches (bit w: bytes 4w..4w+3): it depends
    /// on the older entries to its line that touch one of them, and on no other. All ones:
    /// the whole line (hazards per line).
    pub push_words: Signal<In, Bits<4>>,
    // Issue side.
    pub issue_enable: Signal<In, Bit>,
    pub issue_valid: Signal<Out, Bit>,
    pub issue_line: Signal<Out, Bits<LINE_BITS>>,
    pub issue_ordered: Signal<Out, Bit>,
    pub issue_payload: Signal<Out, Bits<QUEUE_PAYLOAD_BITS>>,
    /// The issued entry's `push_words`.
    pub issue_words: Signal<Out, Bits<4>>,
    /// Registered push: the payload of the entry whose issue outputs were shown the cycle
    /// before (`issue_payload` a cycle later, from a register: the pick → `last_fs` → the
    /// payload RAM's read → the unit's register would be a long path). Otherwise zero.
    pub issue_payload_late: Signal<Out, Bits<QUEUE_PAYLOAD_BITS>>,
    // Coverage.
    pub cov_full: Signal<Out, Bit>,
    pub cov_overtake: Signal<Out, Bit>,
    pub cov_line_wait: Signal<Out, Bit>,
    pub cov_hazard_wait: Signal<Out, Bit>,
    pub cov_back_to_back: Signal<Out, Bit>,

    // The sub-blocks (see the block diagram above).
    alloc: free_slot::FreeSlot,
    slots: slots::SlotData,
    push: push_match::PushMatch,
    history: history::History,
    pick: select::IssueSelect,
    ent: wait_state::EntryWait,
    /// [`QUEUE_KEY_LONG`] as a bit index.
    key_long: Constant<Bits<4>>,
}

impl Default for OrderingQueue {
    /// The queue alone: a push that meets the pick in one cycle, windows of up to
    /// [`QUEUE_HAZARD_CYCLES`] (the unit's queue is [`OrderingQueue::with_registered_push`]).
    fn default() -> Self {
        OrderingQueue::new(QUEUE_HAZARD_CYCLES)
    }
}

impl OrderingQueue {
    /// A queue whose entries take hazard windows of up to `max_wait` cycles
    /// (1..=[`QUEUE_WAIT_MAX`]).
    pub fn new(max_wait: usize) -> Self {
        Self::with_registered_push(max_wait, false)
    }

    /// A queue for windows of up to `max_wait` cycles whose push, when `registered`, takes
    /// nothing from the cycle's issue or from the pushed request beyond its line: the pushed
    /// entry keeps its raw line and word matches and the history's count, applies the issue of its
    /// push cycle one cycle later, and is never eligible in its first cycle (one more cycle
    /// from push to issue; the push no longer meets the pick in one cycle's logic). Every
    /// entry applies an issue one cycle late (its dependence bit and the issued entry's
    /// window), so no state but the issuing entry's own waits for the pick; for that, every
    /// ordered entry's window is at least 1 (a window of 0 counts as 1).
    pub fn with_registered_push(max_wait: usize, registered: bool) -> Self {
        assert!(
            (1..=QUEUE_WAIT_MAX).contains(&max_wait),
            "OrderingQueue: max_wait {max_wait} is not in 1..={QUEUE_WAIT_MAX}"
        );
        let places = (max_wait - 1).max(1);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            push_valid: Default::default(),
            push_ready: Default::default(),
            push_ready_nx: Default::default(),
            push_line: Default::default(),
            push_line_nx: Default::default(),
            push_nx_keep: Default::default(),
            push_ordered: Default::default(),
            push_wait: Default::default(),
            push_payload: Default::default(),
            push_key: Default::default(),
            push_key_nx: Default::default(),
            push_words_nx: Default::default(),
            push_words: Default::default(),
            issue_enable: Default::default(),
            issue_valid: Default::default(),
            issue_line: Default::default(),
            issue_ordered: Default::default(),
            issue_payload: Default::default(),
            issue_words: Default::default(),
            issue_payload_late: Default::default(),
            cov_full: Default::default(),
            cov_overtake: Default::default(),
            cov_line_wait: Default::default(),
            cov_hazard_wait: Default::default(),
            cov_back_to_back: Default::default(),
            alloc: free_slot::FreeSlot::new(registered),
            slots: slots::SlotData::new(registered),
            push: push_match::PushMatch::new(registered),
            history: history::History::new(registered, places),
            pick: select::IssueSelect::new(registered),
            ent: wait_state::EntryWait::new(registered),
            key_long: crate::k::<4>(QUEUE_KEY_LONG as u128),
        }
    }

    /// The window of a chain dependent (1..=`max_wait`; 1 when not set): it waits this many
    /// cycles after its chain producer's issue, whatever that one's own window.
    pub fn with_chain_wait(mut self, wait: usize) -> Self {
        assert!(
            (1..=QUEUE_WAIT_MAX).contains(&wait),
            "OrderingQueue: chain wait {wait} is not in 1..={QUEUE_WAIT_MAX}"
        );
        self.ent.set_chain_wait(wait);
        self
    }

    /// The window of a chain dependent whose key has the [`QUEUE_KEY_LONG`] bit
    /// (1..=`max_wait`; 1 when not set): the chains of a slower loop.
    pub fn with_long_chain_wait(mut self, wait: usize) -> Self {
        assert!(
            (1..=QUEUE_WAIT_MAX).contains(&wait),
            "OrderingQueue: long chain wait {wait} is not in 1..={QUEUE_WAIT_MAX}"
        );
        self.ent.set_long_chain_wait(wait);
        self
    }
}

// The top block only wires the sub-blocks: one assignment per statement and no temporaries,
// so Verilator's statement groups never join a child's input to its own output.
impl Logic for OrderingQueue {
    #[hdl_gen]
    fn update(&mut self) {
        self.alloc.clock.next = self.clock.val();
        self.slots.clock.next = self.clock.val();
        self.push.clock.next = self.clock.val();
        self.history.clock.next = self.clock.val();
        self.pick.clock.next = self.clock.val();
        self.ent.clock.next = self.clock.val();
        self.alloc.reset.next = self.reset.val();
        self.slots.reset.next = self.reset.val();
        self.history.reset.next = self.reset.val();
        self.pick.reset.next = self.reset.val();
        self.ent.reset.next = self.reset.val();

        // ==========================================================================
        // Push handshake and slot choice.
        // ==========================================================================
        self.alloc.valid.next = self.slots.valid.val();
        self.alloc.push_valid.next = self.push_valid.val();
        self.alloc.push_ordered.next = self.push_ordered.val();
        self.alloc.push_line.next = self.push_line.val();
        self.push_ready.next = self.alloc.push_ready.val();
        self.push_ready_nx.next = self.alloc.push_ready_nx.val();
        self.cov_full.next = self.alloc.cov_full.val();
        self.cov_back_to_back.next = self.alloc.cov_back_to_back.val();

        // ==========================================================================
        // The slots' request state.
        // ==========================================================================
        self.slots.fs.next = self.pick.fs.val();
        self.slots.we.next = self.alloc.we.val();
        self.slots.ld.next = self.alloc.ld.val();
        self.slots.push_line.next = self.push_line.val();
        self.slots.push_ordered.next = self.push_ordered.val();
        self.slots.push_wait.next = self.push_wait.val();
        self.slots.push_payload.next = self.push_payload.val();
        self.slots.push_key.next = self.push_key.val();
        self.slots.push_words.next = self.push_words.val();
        self.slots.wr_addr.next = self.alloc.ld_addr.val();
        self.slots.wr_en.next = self.alloc.ld_any.val();
        self.slots.rd_addr.next = self.pick.rd_addr.val();
        self.slots.rd_en.next = self.pick.rd_en.val();
        self.pick.rd_payload.next = self.slots.rd_payload.val();

        // ==========================================================================
        // The pushed request's compares with the slots.
        // ==========================================================================
        self.push.push_line.next = self.push_line.val();
        self.push.push_line_nx.next = self.push_line_nx.val();
        self.push.push_nx_keep.next = self.push_nx_keep.val();
        self.push.push_words.next = self.push_words.val();
        self.push.push_key.next = self.push_key.val();
        self.push.push_key_nx.next = self.push_key_nx.val();
        self.push.push_words_nx.next = self.push_words_nx.val();
        self.push.valid.next = self.slots.valid.val();
        self.push.ordered.next = self.slots.ordered.val();
        self.push.late.next = self.slots.late.val();
        self.push.fs.next = self.pick.fs.val();
        self.push.fr.next = self.alloc.fr_q.val();

        // ==========================================================================
        // Pick and issue outputs.
        // ==========================================================================
        self.pick.issue_enable.next = self.issue_enable.val();
        self.pick.valid.next = self.slots.valid.val();
        self.pick.ordered.next = self.slots.ordered.val();
        self.pick.elig.next = self.ent.elig.val();
        self.pick.fb.next = self.ent.fb.val();
        for i in 0..QUEUE_DEPTH {
            self.push.line[i].next = self.slots.line[i].val();
            self.push.words[i].next = self.slots.words[i].val();
            self.push.key[i].next = self.slots.key[i].val();
            self.push.wt[i].next = self.slots.wt[i].val();
            self.pick.older[i].next = self.slots.older[i].val();
            self.pick.line[i].next = self.slots.line[i].val();
            self.pick.words[i].next = self.slots.words[i].val();
            self.pick.wt[i].next = self.slots.wt[i].val();
            self.ent.wt[i].next = self.slots.wt[i].val();
            self.ent.older[i].next = self.slots.older[i].val();
        }
        self.issue_valid.next = self.pick.issue_valid.val();
        self.issue_line.next = self.pick.issue_line.val();
        self.issue_ordered.next = self.pick.issue_ordered.val();
        self.issue_payload.next = self.pick.issue_payload.val();
        self.issue_words.next = self.pick.issue_words.val();
        self.issue_payload_late.next = self.pick.issue_payload_late.val();
        self.cov_overtake.next = self.pick.cov_overtake.val();

        // ==========================================================================
        // Issue history and the windows a push takes from it.
        // ==========================================================================
        self.history.issue_line.next = self.pick.issue_line.val();
        self.history.issue_words.next = self.pick.issue_words.val();
        self.history.i_wt.next = self.pick.i_wt.val();
        self.history.m.next = self.push.m.val();
        self.history.last_fs.next = self.pick.last_fs_q.val();
        self.history.last2_fs.next = self.pick.last2_fs_q.val();
        self.history.push_line.next = self.push_line.val();
        for k in 0..self.history.push_line_nx.len() {
            self.history.push_line_nx[k].next = self.push_line_nx.val();
        }
        self.history.push_nx_keep.next = self.push_nx_keep.val();
        self.history.push_words.next = self.push_words.val();
        self.history.push_ordered.next = self.push_ordered.val();
        self.history.we.next = self.alloc.we.val();

        // ==========================================================================
        // Per entry: dependences, counts, eligibility.
        // ==========================================================================
        self.ent.valid.next = self.slots.valid.val();
        self.ent.ordered.next = self.slots.ordered.val();
        self.ent.late.next = self.slots.late.val();
        self.ent.wt0.next = self.slots.wt0.val();
        self.ent.fs.next = self.pick.fs.val();
        self.ent.blk.next = self.pick.blk.val();
        self.ent.pick_en.next = self.pick.pick_en.val();
        for i in 0..QUEUE_DEPTH {
            self.ent.last_fs[i].next = self.pick.last_fs_e[i].val();
        }
        self.ent.i_wt.next = self.pick.i_wt.val();
        self.ent.ld.next = self.alloc.ld.val();
        self.ent.we.next = self.alloc.we_nr.val();
        self.ent.push_ordered.next = self.push_ordered.val();
        self.ent.push_long.next = self.push_key.val().get_bit(self.key_long.val().index());
        self.ent.n_dep.next = self.push.n_dep.val();
        self.ent.n_blk.next = self.push.n_blk.val();
        self.ent.n_hz1.next = self.push.n_hz1.val();
        self.ent.n_wt.next = self.push.n_wt.val();
        self.ent.m_q.next = self.push.m_q.val();
        self.ent.p_ch.next = self.push.p_ch.val();
        self.ent.p_fa.next = self.push.p_fa.val();
        self.ent.hist.next = self.history.hist.val();
        self.ent.ph_we.next = self.history.ph_we_q.val();
        self.ent.ph_or.next = self.history.ph_or.val();
        self.cov_line_wait.next = self.ent.cov_line_wait.val();
        self.cov_hazard_wait.next = self.ent.cov_hazard_wait.val();
    }
}
