//! The mbarrier block: a table of [`MBARRIER_SLOTS`] mbarrier objects, each entry an address
//! tag and one mbarrier (phase parity, expected and pending arrival counts, tx-count, error
//! status); one barrier operation and one complete-tx per cycle, both naming the object by its
//! address. The semantics, the ranges, the error statuses and the table's rules are those of
//! the model [`sim::mbarrier`] ([`sim::mbarrier::MbarTable`]); the port encoding is
//! [`sim::mbarrier::mbar_encoding`].
//!
//! # The table
//! An mbarrier is an object in shared memory; `op_addr`/`cpl_addr` carry its address / 8
//! (`ADDR_WIDTH` bits). Each entry compares its tag with both addresses (8 comparators per
//! port). `init` of an address in the table initialises that entry again; of a new address it
//! takes the lowest free entry; when no entry is free `op_full` is high and nothing changes
//! (the trace's `error:mbarrier-table-full`). `inval` frees the entry. Any other operation on
//! an address not in the table does nothing (the outputs show the `Uninitialized` error), and
//! a complete-tx to an address not in the table is dropped.
//!
//! # Ports
//! - Barrier operation: `op_valid`, `op_code`, `op_addr`, `op_arg` (init: count; expect_tx,
//!   arrive.expect_tx, complete_tx: bytes; test_wait: parity in bit 0). Always taken.
//!   In the same cycle the block shows the addressed object's state *before* the cycle's
//!   updates: `op_parity`, `op_pending`, `op_tx` (22-bit two's complement), `op_err`
//!   (`Uninitialized` when the address is not in the table), `op_wait_complete` (the
//!   `test_wait.parity` result: the asked parity differs from the current one and the object
//!   has no error) and `op_full` (`op_code` is init, the address is not in the table and no
//!   entry is free).
//! - Completion: `cpl_valid`, `cpl_addr`, `cpl_bytes` — a complete-tx (from the unit's
//!   completed `red.async` requests). Always taken.
//! - Per entry (bit i: entry i): `valid` (in use), `phase` (parity, a register: a flip is
//!   visible in the cycle after the operation that completed the phase; 0 when free), `errs`
//!   (an error), `flip` (the phase completes at this cycle's rising edge; combinational).
//!
//! # One cycle
//! Both inputs may name the same object: the barrier operation applies first (an `init` that
//! takes a new entry included), then the complete-tx, each followed by the phase-completion
//! check (pending = 0 and tx-count = 0: parity flips, pending reloads). The phase flips at most
//! once per cycle. This is the model's `apply(op)` then `apply(CompleteTx)`.
//!
//! # Stage
//! Single stage: the state registers and the combinational update; the flip is in the
//! registers at the end of the cycle in which the last byte (or arrival) comes in.
//!
//! # Reset
//! Synchronous `reset` frees every entry. The power-up register contents are not a valid
//! state: reset before use.

use crate::k;
use rust_hdl::prelude::*;
use sim::mbarrier::mbar_encoding::{
    ADDR_WIDTH, ARG_WIDTH, ERR_COUNT, ERR_NONE, ERR_TX_RANGE, ERR_UNINIT, ERR_WIDTH, OP_ARRIVE, OP_ARRIVE_EXPECT_TX,
    OP_COMPLETE_TX, OP_EXPECT_TX, OP_INIT, OP_INVAL, OP_TEST_WAIT, OP_WIDTH, TX_WIDTH,
};
pub use sim::mbarrier::MBARRIER_SLOTS;

const _: () = assert!(MBARRIER_SLOTS == 8 && TX_WIDTH == ARG_WIDTH + 2, "the loops and range check below");
const _: () = assert!(OP_WIDTH == 3 && OP_INVAL < 8);


#[derive(LogicBlock)]
pub struct Mbarrier {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // Barrier operation.
    pub op_valid: Signal<In, Bit>,
    pub op_code: Signal<In, Bits<OP_WIDTH>>,
    pub op_addr: Signal<In, Bits<ADDR_WIDTH>>,
    pub op_arg: Signal<In, Bits<ARG_WIDTH>>,
    pub op_wait_complete: Signal<Out, Bit>,
    pub op_parity: Signal<Out, Bit>,
    pub op_pending: Signal<Out, Bits<ARG_WIDTH>>,
    pub op_tx: Signal<Out, Bits<TX_WIDTH>>,
    pub op_err: Signal<Out, Bits<ERR_WIDTH>>,
    pub op_full: Signal<Out, Bit>,
    // Completion (complete-tx).
    pub cpl_valid: Signal<In, Bit>,
    pub cpl_addr: Signal<In, Bits<ADDR_WIDTH>>,
    pub cpl_bytes: Signal<In, Bits<ARG_WIDTH>>,
    // State, per entry.
    pub valid: Signal<Out, Bits<MBARRIER_SLOTS>>,
    pub phase: Signal<Out, Bits<MBARRIER_SLOTS>>,
    pub errs: Signal<Out, Bits<MBARRIER_SLOTS>>,
    pub flip: Signal<Out, Bits<MBARRIER_SLOTS>>,

    used: [DFF<Bit>; MBARRIER_SLOTS],
    tag: [DFF<Bits<ADDR_WIDTH>>; MBARRIER_SLOTS],
    parity: [DFF<Bit>; MBARRIER_SLOTS],
    expected: [DFF<Bits<ARG_WIDTH>>; MBARRIER_SLOTS],
    pending: [DFF<Bits<ARG_WIDTH>>; MBARRIER_SLOTS],
    tx: [DFF<Bits<TX_WIDTH>>; MBARRIER_SLOTS],
    err: [DFF<Bits<ERR_WIDTH>>; MBARRIER_SLOTS],

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
    one_slot: Constant<Bits<MBARRIER_SLOTS>>,
    zero_slots: Constant<Bits<MBARRIER_SLOTS>>,
    one_arg: Constant<Bits<ARG_WIDTH>>,
    zero_arg: Constant<Bits<ARG_WIDTH>>,
    zero_tx: Constant<Bits<TX_WIDTH>>,

    op_oh: Signal<Local, Bits<MBARRIER_SLOTS>>,
    op_hits: Signal<Local, Bits<MBARRIER_SLOTS>>,
    frees: Signal<Local, Bits<MBARRIER_SLOTS>>,
    alloc: Signal<Local, Bits<MBARRIER_SLOTS>>,
    op_hit: Signal<Local, Bit>,
    op_is_init: Signal<Local, Bit>,
    v_hit: Signal<Local, Bit>,
    v_free: Signal<Local, Bit>,
    v_used: Signal<Local, Bit>,
    v_tag: Signal<Local, Bits<ADDR_WIDTH>>,
    v_ubit: Signal<Local, Bit>,
    used_bits: Signal<Local, Bits<MBARRIER_SLOTS>>,
    op_arg_tx: Signal<Local, Bits<TX_WIDTH>>,
    cpl_tx: Signal<Local, Bits<TX_WIDTH>>,
    // Per-slot working copies (variables, reassigned in each loop iteration).
    v_par: Signal<Local, Bit>,
    v_pend: Signal<Local, Bits<ARG_WIDTH>>,
    v_tx: Signal<Local, Bits<TX_WIDTH>>,
    v_err: Signal<Local, Bits<ERR_WIDTH>>,
    v_exp: Signal<Local, Bits<ARG_WIDTH>>,
    v_ntx: Signal<Local, Bits<TX_WIDTH>>,
    v_ok: Signal<Local, Bit>,
    v_arrive: Signal<Local, Bit>,
    v_flip: Signal<Local, Bit>,
    v_pbit: Signal<Local, Bit>,
    v_ebit: Signal<Local, Bit>,
    flips: Signal<Local, Bits<MBARRIER_SLOTS>>,
    phases: Signal<Local, Bits<MBARRIER_SLOTS>>,
    err_bits: Signal<Local, Bits<MBARRIER_SLOTS>>,
}

impl Default for Mbarrier {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            op_valid: Default::default(),
            op_code: Default::default(),
            op_addr: Default::default(),
            op_arg: Default::default(),
            op_wait_complete: Default::default(),
            op_parity: Default::default(),
            op_pending: Default::default(),
            op_tx: Default::default(),
            op_err: Default::default(),
            op_full: Default::default(),
            cpl_valid: Default::default(),
            cpl_addr: Default::default(),
            cpl_bytes: Default::default(),
            valid: Default::default(),
            phase: Default::default(),
            errs: Default::default(),
            flip: Default::default(),
            used: Default::default(),
            tag: Default::default(),
            parity: Default::default(),
            expected: Default::default(),
            pending: Default::default(),
            tx: Default::default(),
            err: Default::default(),
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
            one_slot: k(1),
            zero_slots: k(0),
            one_arg: k(1),
            zero_arg: k(0),
            zero_tx: k(0),
            op_oh: Default::default(),
            op_hits: Default::default(),
            frees: Default::default(),
            alloc: Default::default(),
            op_hit: Default::default(),
            op_is_init: Default::default(),
            v_hit: Default::default(),
            v_free: Default::default(),
            v_used: Default::default(),
            v_tag: Default::default(),
            v_ubit: Default::default(),
            used_bits: Default::default(),
            op_arg_tx: Default::default(),
            cpl_tx: Default::default(),
            v_par: Default::default(),
            v_pend: Default::default(),
            v_tx: Default::default(),
            v_err: Default::default(),
            v_exp: Default::default(),
            v_ntx: Default::default(),
            v_ok: Default::default(),
            v_arrive: Default::default(),
            v_flip: Default::default(),
            v_pbit: Default::default(),
            v_ebit: Default::default(),
            flips: Default::default(),
            phases: Default::default(),
            err_bits: Default::default(),
        }
    }
}

impl Logic for Mbarrier {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..8 {
            self.used[i].clock.next = self.clock.val();
            self.tag[i].clock.next = self.clock.val();
            self.parity[i].clock.next = self.clock.val();
            self.expected[i].clock.next = self.clock.val();
            self.pending[i].clock.next = self.clock.val();
            self.tx[i].clock.next = self.clock.val();
            self.err[i].clock.next = self.clock.val();
        }
        self.op_arg_tx.next = bit_cast::<TX_WIDTH, ARG_WIDTH>(self.op_arg.val());
        self.cpl_tx.next = bit_cast::<TX_WIDTH, ARG_WIDTH>(self.cpl_bytes.val());

        // ---- table lookup: the entry holding op_addr, and the lowest free entry ----
        // Entry i's bits enter at the top and move down: after 8 entries, entry i is bit i.
        self.op_hits.next = self.zero_slots.val();
        self.frees.next = self.zero_slots.val();
        for i in 0..8 {
            self.v_hit.next = self.used[i].q.val() && (self.tag[i].q.val() == self.op_addr.val());
            self.v_free.next = !self.used[i].q.val();
            self.op_hits.next = (self.op_hits.val() >> 1) | (bit_cast::<MBARRIER_SLOTS, 1>(self.v_hit.val().into()) << 7);
            self.frees.next = (self.frees.val() >> 1) | (bit_cast::<MBARRIER_SLOTS, 1>(self.v_free.val().into()) << 7);
        }
        self.op_hit.next = self.op_hits.val().any();
        self.alloc.next = self.frees.val() & ((!self.frees.val()) + self.one_slot.val());
        self.op_is_init.next = self.op_code.val() == self.c_init.val();
        self.op_full.next = self.op_is_init.val() && !self.op_hit.val() && !self.frees.val().any();
        if self.op_hit.val() {
            self.op_oh.next = self.op_hits.val();
        } else if self.op_is_init.val() {
            self.op_oh.next = self.alloc.val();
        } else {
            self.op_oh.next = self.zero_slots.val();
        }

        // The addressed object's state, before this cycle's updates.
        self.op_parity.next = false;
        self.op_pending.next = self.zero_arg.val();
        self.op_tx.next = self.zero_tx.val();
        self.op_err.next = self.e_uninit.val();
        for i in 0..8 {
            if self.op_hits.val().get_bit(i) {
                self.op_parity.next = self.parity[i].q.val();
                self.op_pending.next = self.pending[i].q.val();
                self.op_tx.next = self.tx[i].q.val();
                self.op_err.next = self.err[i].q.val();
            }
        }
        self.op_wait_complete.next = (self.op_arg.val().get_bit(0) != self.op_parity.val())
            && (self.op_err.val() == self.e_none.val());

        self.flips.next = self.zero_slots.val();
        self.phases.next = self.zero_slots.val();
        self.err_bits.next = self.zero_slots.val();
        self.used_bits.next = self.zero_slots.val();
        for i in 0..8 {
            self.v_used.next = self.used[i].q.val();
            self.v_tag.next = self.tag[i].q.val();
            self.v_par.next = self.parity[i].q.val();
            self.v_pend.next = self.pending[i].q.val();
            self.v_tx.next = self.tx[i].q.val();
            self.v_err.next = self.err[i].q.val();
            self.v_exp.next = self.expected[i].q.val();
            self.v_flip.next = false;
            self.v_ntx.next = self.v_tx.val();
            self.v_ok.next = true;
            self.v_arrive.next = false;

            // ---- the barrier operation ----
            if self.op_valid.val() && self.op_oh.val().get_bit(i) {
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
            self.used[i].d.next = self.v_used.val();
            self.tag[i].d.next = self.v_tag.val();
            self.parity[i].d.next = self.v_par.val();
            self.expected[i].d.next = self.v_exp.val();
            self.pending[i].d.next = self.v_pend.val();
            self.tx[i].d.next = self.v_tx.val();
            self.err[i].d.next = self.v_err.val();
            // Slot i's bits enter at the top and move down: after 8 slots, slot i is bit i.
            self.v_pbit.next = self.parity[i].q.val();
            self.v_ebit.next = self.err[i].q.val().any();
            self.v_ubit.next = self.used[i].q.val();
            self.used_bits.next = (self.used_bits.val() >> 1) | (bit_cast::<MBARRIER_SLOTS, 1>(self.v_ubit.val().into()) << 7);
            self.flips.next = (self.flips.val() >> 1) | (bit_cast::<MBARRIER_SLOTS, 1>(self.v_flip.val().into()) << 7);
            self.phases.next = (self.phases.val() >> 1) | (bit_cast::<MBARRIER_SLOTS, 1>(self.v_pbit.val().into()) << 7);
            self.err_bits.next = (self.err_bits.val() >> 1) | (bit_cast::<MBARRIER_SLOTS, 1>(self.v_ebit.val().into()) << 7);
        }
        self.flip.next = self.flips.val();
        self.phase.next = self.phases.val();
        self.errs.next = self.err_bits.val();
        self.valid.next = self.used_bits.val();
    }
}

/// The Verilog of the mbarrier block alone, as module `top`.
pub fn mbarrier_verilog() -> String {
    crate::verilog::verilog(&mut Mbarrier::default())
}
