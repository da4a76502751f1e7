//! The response places reserved for issued requests: a count (+1 per issue, -1 per response
//! handshake) and whether it has reached its limit, which holds the queue's issue.
//!
//! A block of its own: the count is the unit's flow control between issue and response, and
//! reads nothing but the two handshakes.

use crate::k;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub(super) struct Credits {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// A request issues; a response leaves the port (`rsp_valid` and `rsp_ready`).
    pub issue: Signal<In, Bit>,
    pub rsp_fire: Signal<In, Bit>,
    /// Every reserved place is in use: nothing may issue (a register).
    pub full: Signal<Out, Bit>,
    /// Requests are in flight (the count is not zero).
    pub busy: Signal<Out, Bit>,
    credits: DFF<Bits<6>>,
    /// `credits` has reached `credit_max` (registered beside it, from its next value, so the
    /// issue enable is a flip-flop: the compare is off the queue's pick path).
    cr_full: DFF<Bit>,
    credits_nx: Signal<Local, Bits<6>>,
    /// The count at or above the limit after one more, no change, one less.
    cr_ge_p1: Signal<Local, Bit>,
    cr_ge_0: Signal<Local, Bit>,
    cr_ge_m1: Signal<Local, Bit>,
    credit_max: Constant<Bits<6>>,
    /// `credit_max - 1` and `credit_max + 1`.
    credit_max_m1: Constant<Bits<6>>,
    credit_max_p1: Constant<Bits<6>>,
    one6: Constant<Bits<6>>,
    zero6: Constant<Bits<6>>,
}

impl Credits {
    /// A count of at most `max` places.
    pub(super) fn new(max: usize) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            issue: Default::default(),
            rsp_fire: Default::default(),
            full: Default::default(),
            busy: Default::default(),
            credits: Default::default(),
            cr_full: Default::default(),
            credits_nx: Default::default(),
            cr_ge_p1: Default::default(),
            cr_ge_0: Default::default(),
            cr_ge_m1: Default::default(),
            credit_max: k(max as u128),
            credit_max_m1: k((max - 1) as u128),
            credit_max_p1: k((max + 1) as u128),
            one6: k(1),
            zero6: k(0),
        }
    }
}

impl Logic for Credits {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, credits, cr_full);
        // Reserved response places: + issue, - response handshake.
        self.credits_nx.next = self.credits.q.val();
        if self.issue.val() && !self.rsp_fire.val() {
            self.credits_nx.next = self.credits.q.val() + self.one6.val();
        }
        if self.rsp_fire.val() && !self.issue.val() {
            self.credits_nx.next = self.credits.q.val() - self.one6.val();
        }
        if self.reset.val() {
            self.credits_nx.next = self.zero6.val();
        }
        self.credits.d.next = self.credits_nx.val();
        // (Zero at power-up, as `credits`: the same value as comparing `credits` now.)
        // `credits_nx >= credit_max`, with the compares made on the register beside the
        // count's update and the handshakes only selecting one (no carry chain after them;
        // a response never leaves with no place reserved, so `credits - 1` does not wrap).
        self.cr_ge_p1.next = !(self.credits.q.val() < self.credit_max_m1.val());
        self.cr_ge_0.next = !(self.credits.q.val() < self.credit_max.val());
        self.cr_ge_m1.next = !(self.credits.q.val() < self.credit_max_p1.val());
        self.cr_full.d.next = self.cr_ge_0.val();
        if self.issue.val() && !self.rsp_fire.val() {
            self.cr_full.d.next = self.cr_ge_p1.val();
        }
        if self.rsp_fire.val() && !self.issue.val() {
            self.cr_full.d.next = self.cr_ge_m1.val();
        }
        if self.reset.val() {
            self.cr_full.d.next = false;
        }
        self.full.next = self.cr_full.q.val();
        self.busy.next = self.credits.q.val().any();
    }
}
