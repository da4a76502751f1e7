//! The per-address ordering queue: holds accepted requests until they may issue, keeps
//! requests to one line in arrival order, and lets requests to other lines overtake.
//!
//! [`QUEUE_DEPTH`] entries, kept compacted in arrival order (entry 0 the oldest). Each entry
//! holds a line address, an `ordered` flag (the request touches memory; error requests do
//! not and are never ordered) and an opaque payload. An entry is *eligible* when it is valid
//! and either not ordered, or ordered and
//! - no older valid ordered entry has the same line (order within a line), and
//! - its line matches neither hazard input (`hz_a`, `hz_b`: lines whose newest value the
//!   pipeline cannot forward yet).
//!
//! In each cycle with `issue_enable` high the oldest eligible entry leaves on the `issue_*`
//! outputs (combinationally from the entry registers; the consumer must take it) and the
//! entries above it move down one place. A push (`push_valid` and `push_ready`) lands behind
//! the entries that remain. `push_ready` is low only when all entries are valid (it does not
//! look at this cycle's issue, so there is no combinational path from the issue side to it).
//! Synchronous `reset` empties the queue.
//!
//! Coverage outputs (high in the cycle the event happens): `cov_full` (all entries valid),
//! `cov_overtake` (an entry issues while an older one waits), `cov_line_wait` (an entry waits
//! behind an older one to its line), `cov_hazard_wait` (an entry free of older same-line
//! entries waits for a hazard line).

use crate::line_memory::LINE_BITS;
use rust_hdl::prelude::*;

/// Entries in the ordering queue: the queue's one size parameter (all its logic follows this
/// constant; the unit and the tests pass with other depths, e.g. 5).
pub const QUEUE_DEPTH: usize = 8;
/// Index of the youngest place (`QUEUE_DEPTH - 1`; hdl loops need a plain name as a bound).
const QUEUE_TOP: usize = QUEUE_DEPTH - 1;
/// Width of an entry's opaque payload.
pub const QUEUE_PAYLOAD_BITS: usize = 174;

#[derive(LogicBlock)]
pub struct OrderingQueue {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // Push side.
    pub push_valid: Signal<In, Bit>,
    pub push_ready: Signal<Out, Bit>,
    pub push_line: Signal<In, Bits<LINE_BITS>>,
    pub push_ordered: Signal<In, Bit>,
    pub push_payload: Signal<In, Bits<QUEUE_PAYLOAD_BITS>>,
    // Hazard lines: ordered entries on these lines may not issue this cycle.
    pub hz_a_valid: Signal<In, Bit>,
    pub hz_a_line: Signal<In, Bits<LINE_BITS>>,
    pub hz_b_valid: Signal<In, Bit>,
    pub hz_b_line: Signal<In, Bits<LINE_BITS>>,
    // Issue side.
    pub issue_enable: Signal<In, Bit>,
    pub issue_valid: Signal<Out, Bit>,
    pub issue_line: Signal<Out, Bits<LINE_BITS>>,
    pub issue_ordered: Signal<Out, Bit>,
    pub issue_payload: Signal<Out, Bits<QUEUE_PAYLOAD_BITS>>,
    // Coverage.
    pub cov_full: Signal<Out, Bit>,
    pub cov_overtake: Signal<Out, Bit>,
    pub cov_line_wait: Signal<Out, Bit>,
    pub cov_hazard_wait: Signal<Out, Bit>,
    pub cov_back_to_back: Signal<Out, Bit>,

    // Entries (0 oldest).
    e_valid: [DFF<Bit>; QUEUE_DEPTH],
    e_line: [DFF<Bits<LINE_BITS>>; QUEUE_DEPTH],
    e_ordered: [DFF<Bit>; QUEUE_DEPTH],
    e_payload: [DFF<Bits<QUEUE_PAYLOAD_BITS>>; QUEUE_DEPTH],
    // The last push (back-to-back coverage).
    last_ordered: DFF<Bit>,
    last_line: DFF<Bits<LINE_BITS>>,

    // Combinational working signals.
    older_same: Signal<Local, Bit>,
    hz_hit: Signal<Local, Bit>,
    eligible: Signal<Local, Bit>,
    found: Signal<Local, Bit>,
    fire: Signal<Local, Bit>,
    push_fire: Signal<Local, Bit>,
    top_valid: Signal<Local, Bit>,
    sel_below: Signal<Local, Bit>,
    moving: Signal<Local, Bit>,
    kept: Signal<Local, Bit>,
    placed: Signal<Local, Bit>,
    line_wait: Signal<Local, Bit>,
    hazard_wait: Signal<Local, Bit>,
    zero_line: Constant<Bits<LINE_BITS>>,
    zero_payload: Constant<Bits<QUEUE_PAYLOAD_BITS>>,
}

impl Default for OrderingQueue {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            push_valid: Default::default(),
            push_ready: Default::default(),
            push_line: Default::default(),
            push_ordered: Default::default(),
            push_payload: Default::default(),
            hz_a_valid: Default::default(),
            hz_a_line: Default::default(),
            hz_b_valid: Default::default(),
            hz_b_line: Default::default(),
            issue_enable: Default::default(),
            issue_valid: Default::default(),
            issue_line: Default::default(),
            issue_ordered: Default::default(),
            issue_payload: Default::default(),
            cov_full: Default::default(),
            cov_overtake: Default::default(),
            cov_line_wait: Default::default(),
            cov_hazard_wait: Default::default(),
            cov_back_to_back: Default::default(),
            last_ordered: Default::default(),
            last_line: Default::default(),
            e_valid: Default::default(),
            e_line: Default::default(),
            e_ordered: Default::default(),
            e_payload: Default::default(),
            older_same: Default::default(),
            hz_hit: Default::default(),
            eligible: Default::default(),
            found: Default::default(),
            fire: Default::default(),
            push_fire: Default::default(),
            top_valid: Default::default(),
            sel_below: Default::default(),
            moving: Default::default(),
            kept: Default::default(),
            placed: Default::default(),
            line_wait: Default::default(),
            hazard_wait: Default::default(),
            zero_line: Constant::new(Bits::default()),
            zero_payload: Constant::new(Bits::default()),
        }
    }
}

impl Logic for OrderingQueue {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, last_ordered, last_line);
        for i in 0..QUEUE_DEPTH {
            self.e_valid[i].clock.next = self.clock.val();
            self.e_line[i].clock.next = self.clock.val();
            self.e_ordered[i].clock.next = self.clock.val();
            self.e_payload[i].clock.next = self.clock.val();
        }
        self.top_valid.next = false;
        for i in QUEUE_TOP..QUEUE_DEPTH {
            self.top_valid.next = self.e_valid[i].q.val();
        }
        self.push_ready.next = !self.top_valid.val() && !self.reset.val();
        // (Not from `push_ready`: Verilator orders this block's statements in separate groups
        // only when they share no variable, and top reads `push_ready`.)
        self.push_fire.next = self.push_valid.val() && !self.top_valid.val() && !self.reset.val();
        self.cov_back_to_back.next = self.push_fire.val()
            && self.push_ordered.val()
            && self.last_ordered.q.val()
            && (self.last_line.q.val() == self.push_line.val());
        self.last_ordered.d.next = self.push_fire.val() && self.push_ordered.val();
        self.last_line.d.next = self.push_line.val();
        self.issue_line.next = self.zero_line.val();
        self.issue_ordered.next = false;
        self.issue_payload.next = self.zero_payload.val();
        self.line_wait.next = false;
        self.hazard_wait.next = false;
        self.found.next = false;
        self.placed.next = false;

        // ==========================================================================
        // One pass from the oldest entry up. For entry i: eligibility (order within a
        // line, hazard lines); the oldest eligible entry drives the issue outputs; the
        // entries from it up move down one place when it issues; the push lands on the
        // first place that stays free.
        // ==========================================================================
        for i in 0..QUEUE_DEPTH {
            self.older_same.next = false;
            for j in 0..QUEUE_DEPTH {
                if (j < i)
                    && self.e_valid[j].q.val()
                    && self.e_ordered[j].q.val()
                    && (self.e_line[j].q.val() == self.e_line[i].q.val())
                {
                    self.older_same.next = true;
                }
            }
            self.hz_hit.next = (self.hz_a_valid.val() && (self.hz_a_line.val() == self.e_line[i].q.val()))
                || (self.hz_b_valid.val() && (self.hz_b_line.val() == self.e_line[i].q.val()));
            self.eligible.next = self.e_valid[i].q.val()
                && (!self.e_ordered[i].q.val() || (!self.older_same.val() && !self.hz_hit.val()));
            if self.e_valid[i].q.val() && self.e_ordered[i].q.val() && self.older_same.val() {
                self.line_wait.next = true;
            }
            if self.e_valid[i].q.val() && self.e_ordered[i].q.val() && !self.older_same.val() && self.hz_hit.val() {
                self.hazard_wait.next = true;
            }
            if self.eligible.val() && !self.found.val() {
                self.issue_line.next = self.e_line[i].q.val();
                self.issue_ordered.next = self.e_ordered[i].q.val();
                self.issue_payload.next = self.e_payload[i].q.val();
                self.found.next = true;
            }
        }
        self.fire.next = self.found.val() && self.issue_enable.val() && !self.reset.val();
        self.issue_valid.next = self.fire.val();

        // Next state. `sel_below` is recomputed per entry: the issuing entry is at or below i.
        self.sel_below.next = false;
        for i in 0..QUEUE_TOP {
            self.older_same.next = false;
            for j in 0..QUEUE_DEPTH {
                if (j < i)
                    && self.e_valid[j].q.val()
                    && self.e_ordered[j].q.val()
                    && (self.e_line[j].q.val() == self.e_line[i].q.val())
                {
                    self.older_same.next = true;
                }
            }
            self.hz_hit.next = (self.hz_a_valid.val() && (self.hz_a_line.val() == self.e_line[i].q.val()))
                || (self.hz_b_valid.val() && (self.hz_b_line.val() == self.e_line[i].q.val()));
            self.eligible.next = self.e_valid[i].q.val()
                && (!self.e_ordered[i].q.val() || (!self.older_same.val() && !self.hz_hit.val()));
            self.sel_below.next = self.sel_below.val() || self.eligible.val();
            self.moving.next = self.sel_below.val() && self.fire.val();
            self.e_valid[i].d.next = self.e_valid[i].q.val();
            self.e_line[i].d.next = self.e_line[i].q.val();
            self.e_ordered[i].d.next = self.e_ordered[i].q.val();
            self.e_payload[i].d.next = self.e_payload[i].q.val();
            self.kept.next = self.e_valid[i].q.val();
            if self.moving.val() {
                self.e_valid[i].d.next = self.e_valid[i + 1].q.val();
                self.e_line[i].d.next = self.e_line[i + 1].q.val();
                self.e_ordered[i].d.next = self.e_ordered[i + 1].q.val();
                self.e_payload[i].d.next = self.e_payload[i + 1].q.val();
                self.kept.next = self.e_valid[i + 1].q.val();
            }
            if self.push_fire.val() && !self.placed.val() && !self.kept.val() {
                self.e_valid[i].d.next = true;
                self.e_line[i].d.next = self.push_line.val();
                self.e_ordered[i].d.next = self.push_ordered.val();
                self.e_payload[i].d.next = self.push_payload.val();
                self.placed.next = true;
            }
        }
        // The top entry: moves out when it or an entry below issues; takes the push if
        // every place below stays full.
        for i in QUEUE_TOP..QUEUE_DEPTH {
            self.e_valid[i].d.next = self.e_valid[i].q.val() && !self.fire.val();
            self.e_line[i].d.next = self.e_line[i].q.val();
            self.e_ordered[i].d.next = self.e_ordered[i].q.val();
            self.e_payload[i].d.next = self.e_payload[i].q.val();
            if self.push_fire.val() && !self.placed.val() {
                self.e_valid[i].d.next = true;
                self.e_line[i].d.next = self.push_line.val();
                self.e_ordered[i].d.next = self.push_ordered.val();
                self.e_payload[i].d.next = self.push_payload.val();
            }
        }
        if self.reset.val() {
            for i in 0..QUEUE_DEPTH {
                self.e_valid[i].d.next = false;
            }
        }

        // ==========================================================================
        // Coverage. Entry 0 has no older entry: it is eligible unless a hazard line holds it.
        // ==========================================================================
        self.cov_full.next = self.top_valid.val();
        self.cov_overtake.next = self.fire.val()
            && self.e_valid[0].q.val()
            && self.e_ordered[0].q.val()
            && ((self.hz_a_valid.val() && (self.hz_a_line.val() == self.e_line[0].q.val()))
                || (self.hz_b_valid.val() && (self.hz_b_line.val() == self.e_line[0].q.val())));
        self.cov_line_wait.next = self.line_wait.val();
        self.cov_hazard_wait.next = self.hazard_wait.val();
    }
}
