//! One mbarrier object of the table: its address tag and state registers, and the cycle's
//! update: the barrier operation (when the table routes it here), then the complete-tx to its
//! address, each followed by the phase-completion check; reset frees it.

use crate::k;
use rust_hdl::prelude::*;
use sim::mbarrier::mbar_encoding::{
    ADDR_WIDTH, ARG_WIDTH, ERR_COUNT, ERR_NONE, ERR_TX_RANGE, ERR_UNINIT, ERR_WIDTH, OP_ARRIVE, OP_ARRIVE_EXPECT_TX,
    OP_COMPLETE_TX, OP_EXPECT_TX, OP_INIT, OP_INVAL, OP_TEST_WAIT, OP_WIDTH, TX_WIDTH,
};

const _: () = assert!(TX_WIDTH == ARG_WIDTH + 2, "the tx-count range check below");

#[derive(LogicBlock)]
pub struct MbarSlot {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// The barrier operation applies to this object (the table's lookup or allocation).
    pub op_sel: Signal<In, Bit>,
    pub op_code: Signal<In, Bits<OP_WIDTH>>,
    pub op_addr: Signal<In, Bits<ADDR_WIDTH>>,
    pub op_arg: Signal<In, Bits<ARG_WIDTH>>,
    pub cpl_valid: Signal<In, Bit>,
    pub cpl_addr: Signal<In, Bits<ADDR_WIDTH>>,
    pub cpl_bytes: Signal<In, Bits<ARG_WIDTH>>,
    /// The registers (the state before this cycle's updates).
    pub used: Signal<Out, Bit>,
    pub tag: Signal<Out, Bits<ADDR_WIDTH>>,
    pub parity: Signal<Out, Bit>,
    pub pending: Signal<Out, Bits<ARG_WIDTH>>,
    pub tx: Signal<Out, Bits<TX_WIDTH>>,
    pub err: Signal<Out, Bits<ERR_WIDTH>>,
    /// The phase completes at this cycle's rising edge.
    pub flip: Signal<Out, Bit>,

    r_used: DFF<Bit>,
    r_tag: DFF<Bits<ADDR_WIDTH>>,
    r_parity: DFF<Bit>,
    r_expected: DFF<Bits<ARG_WIDTH>>,
    r_pending: DFF<Bits<ARG_WIDTH>>,
    r_tx: DFF<Bits<TX_WIDTH>>,
    r_err: DFF<Bits<ERR_WIDTH>>,

    c_init: Constant<Bits<OP_WIDTH>>,
    c_arrive: Constant<Bits<OP_WIDTH>>,
    c_arrive_expect: Constant<Bits<OP_WIDTH>>,
    c_expect: Constant<Bits<OP_WIDTH>>,
    c_complete: Constant<Bits<OP_WIDTH>>,
    c_test_wait: Constant<Bits<OP_WIDTH>>,
    c_inval: Constant<Bits<OP_WIDTH>>,
    e_none: Constant<Bits<ERR_WIDTH>>,
    e_uninit: Constant<Bits<ERR_WIDTH>>,
    e_tx_range: Constant<Bits<ERR_WIDTH>>,
    e_count: Constant<Bits<ERR_WIDTH>>,
    one_arg: Constant<Bits<ARG_WIDTH>>,
    zero_arg: Constant<Bits<ARG_WIDTH>>,
    zero_tx: Constant<Bits<TX_WIDTH>>,

    op_arg_tx: Signal<Local, Bits<TX_WIDTH>>,
    cpl_tx: Signal<Local, Bits<TX_WIDTH>>,
    // Working copies of the state (variables, reassigned through the cycle's updates).
    v_used: Signal<Local, Bit>,
    v_tag: Signal<Local, Bits<ADDR_WIDTH>>,
    v_par: Signal<Local, Bit>,
    v_pend: Signal<Local, Bits<ARG_WIDTH>>,
    v_tx: Signal<Local, Bits<TX_WIDTH>>,
    v_err: Signal<Local, Bits<ERR_WIDTH>>,
    v_exp: Signal<Local, Bits<ARG_WIDTH>>,
    v_ntx: Signal<Local, Bits<TX_WIDTH>>,
    v_ok: Signal<Local, Bit>,
    v_arrive: Signal<Local, Bit>,
    v_flip: Signal<Local, Bit>,
}

impl Default for MbarSlot {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            op_sel: Default::default(),
            op_code: Default::default(),
            op_addr: Default::default(),
            op_arg: Default::default(),
            cpl_valid: Default::default(),
            cpl_addr: Default::default(),
            cpl_bytes: Default::default(),
            used: Default::default(),
            tag: Default::default(),
            parity: Default::default(),
            pending: Default::default(),
            tx: Default::default(),
            err: Default::default(),
            flip: Default::default(),
            r_used: Default::default(),
            r_tag: Default::default(),
            r_parity: Default::default(),
            r_expected: Default::default(),
            r_pending: Default::default(),
            r_tx: Default::default(),
            r_err: Default::default(),
            c_init: k(OP_INIT as u128),
            c_arrive: k(OP_ARRIVE as u128),
            c_arrive_expect: k(OP_ARRIVE_EXPECT_TX as u128),
            c_expect: k(OP_EXPECT_TX as u128),
            c_complete: k(OP_COMPLETE_TX as u128),
            c_test_wait: k(OP_TEST_WAIT as u128),
            c_inval: k(OP_INVAL as u128),
            e_none: k(ERR_NONE as u128),
            e_uninit: k(ERR_UNINIT as u128),
            e_tx_range: k(ERR_TX_RANGE as u128),
            e_count: k(ERR_COUNT as u128),
            one_arg: k(1),
            zero_arg: k(0),
            zero_tx: k(0),
            op_arg_tx: Default::default(),
            cpl_tx: Default::default(),
            v_used: Default::default(),
            v_tag: Default::default(),
            v_par: Default::default(),
            v_pend: Default::default(),
            v_tx: Default::default(),
            v_err: Default::default(),
            v_exp: Default::default(),
            v_ntx: Default::default(),
            v_ok: Default::default(),
            v_arrive: Default::default(),
            v_flip: Default::default(),
        }
    }
}

impl Logic for MbarSlot {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, r_used, r_tag, r_parity, r_expected, r_pending, r_tx, r_err);
        self.used.next = self.r_used.q.val();
        self.tag.next = self.r_tag.q.val();
        self.parity.next = self.r_parity.q.val();
        self.pending.next = self.r_pending.q.val();
        self.tx.next = self.r_tx.q.val();
        self.err.next = self.r_err.q.val();
        self.op_arg_tx.next = bit_cast::<TX_WIDTH, ARG_WIDTH>(self.op_arg.val());
        self.cpl_tx.next = bit_cast::<TX_WIDTH, ARG_WIDTH>(self.cpl_bytes.val());
        self.v_used.next = self.r_used.q.val();
        self.v_tag.next = self.r_tag.q.val();
        self.v_par.next = self.r_parity.q.val();
        self.v_pend.next = self.r_pending.q.val();
        self.v_tx.next = self.r_tx.q.val();
        self.v_err.next = self.r_err.q.val();
        self.v_exp.next = self.r_expected.q.val();
        self.v_flip.next = false;
        self.v_ntx.next = self.v_tx.val();
        self.v_ok.next = true;
        self.v_arrive.next = false;
        // ---- the barrier operation ----
        if self.op_sel.val() {
            if self.op_code.val() == self.c_init.val() {
                self.v_used.next = true;
                self.v_tag.next = self.op_addr.val();
                self.v_par.next = false;
                self.v_exp.next = self.op_arg.val();
                self.v_pend.next = self.op_arg.val();
                self.v_tx.next = self.zero_tx.val();
                if self.op_arg.val().any() {
                    self.v_err.next = self.e_none.val();
                } else {
                    self.v_err.next = self.e_count.val();
                }
            } else if self.op_code.val() == self.c_inval.val() {
                self.v_used.next = false;
                self.v_par.next = false;
                self.v_err.next = self.e_uninit.val();
            } else if self.v_err.val() == self.e_none.val() {
                if (self.op_code.val() == self.c_arrive_expect.val()) || (self.op_code.val() == self.c_expect.val()) {
                    self.v_ntx.next = self.v_tx.val() + self.op_arg_tx.val();
                }
                if self.op_code.val() == self.c_complete.val() {
                    self.v_ntx.next = self.v_tx.val() - self.op_arg_tx.val();
                }
                // In range: |tx| <= 2^20 - 1 (bits 21..20 a sign extension, and not -2^20).
                self.v_ok.next = (!self.v_ntx.val().get_bit(21) && !self.v_ntx.val().get_bit(20))
                    || (self.v_ntx.val().get_bit(21)
                        && self.v_ntx.val().get_bit(20)
                        && self.v_ntx.val().get_bits::<20>(0).any());
                self.v_arrive.next =
                    (self.op_code.val() == self.c_arrive.val()) || (self.op_code.val() == self.c_arrive_expect.val());
                if self.v_arrive.val() && !self.v_pend.val().any() {
                    self.v_err.next = self.e_count.val();
                } else if self.v_ok.val() {
                    self.v_tx.next = self.v_ntx.val();
                    if self.v_arrive.val() {
                        self.v_pend.next = self.v_pend.val() - self.one_arg.val();
                    }
                    if (self.op_code.val() != self.c_test_wait.val())
                        && !self.v_pend.val().any()
                        && !self.v_tx.val().any()
                    {
                        self.v_flip.next = true;
                        self.v_par.next = !self.v_par.val();
                        self.v_pend.next = self.v_exp.val();
                    }
                } else {
                    self.v_err.next = self.e_tx_range.val();
                }
            }
        }

        // ---- the complete-tx, after the operation ----
        if self.cpl_valid.val()
            && self.v_used.val()
            && (self.v_tag.val() == self.cpl_addr.val())
            && (self.v_err.val() == self.e_none.val())
        {
            self.v_ntx.next = self.v_tx.val() - self.cpl_tx.val();
            self.v_ok.next = (!self.v_ntx.val().get_bit(21) && !self.v_ntx.val().get_bit(20))
                || (self.v_ntx.val().get_bit(21)
                    && self.v_ntx.val().get_bit(20)
                    && self.v_ntx.val().get_bits::<20>(0).any());
            if self.v_ok.val() {
                self.v_tx.next = self.v_ntx.val();
                if !self.v_pend.val().any() && !self.v_tx.val().any() {
                    self.v_flip.next = true;
                    self.v_par.next = !self.v_par.val();
                    self.v_pend.next = self.v_exp.val();
                }
            } else {
                self.v_err.next = self.e_tx_range.val();
            }
        }

        if self.reset.val() {
            self.v_used.next = false;
            self.v_par.next = false;
            self.v_exp.next = self.zero_arg.val();
            self.v_pend.next = self.zero_arg.val();
            self.v_tx.next = self.zero_tx.val();
            self.v_err.next = self.e_uninit.val();
            self.v_flip.next = false;
        }
        self.r_used.d.next = self.v_used.val();
        self.r_tag.d.next = self.v_tag.val();
        self.r_parity.d.next = self.v_par.val();
        self.r_expected.d.next = self.v_exp.val();
        self.r_pending.d.next = self.v_pend.val();
        self.r_tx.d.next = self.v_tx.val();
        self.r_err.d.next = self.v_err.val();
        self.flip.next = self.v_flip.val();
    }
}
