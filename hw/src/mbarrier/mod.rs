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
//! registers at the end of the cycle in which the last byte (or arrival) comes in. This file
//! is the table (lookup, allocation, the addressed object's state, the per-entry outputs);
//! each object, its registers and its update, is a [`MbarSlot`] (`slot.rs`).
//!
//! # Reset
//! Synchronous `reset` frees every entry. The power-up register contents are not a valid
//! state: reset before use.

use crate::k;
use rust_hdl::prelude::*;
use sim::mbarrier::mbar_encoding::{
    ADDR_WIDTH, ARG_WIDTH, ERR_NONE, ERR_UNINIT, ERR_WIDTH, OP_INIT, OP_INVAL, OP_WIDTH, TX_WIDTH,
};

mod slot;
pub use sim::mbarrier::MBARRIER_SLOTS;
pub use slot::MbarSlot;

const _: () = assert!(MBARRIER_SLOTS == 8, "the loops below");
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

    /// The objects, each with its state registers and update.
    slots: [MbarSlot; MBARRIER_SLOTS],

    c_init: Constant<Bits<OP_WIDTH>>,
    e_none: Constant<Bits<ERR_WIDTH>>,
    e_uninit: Constant<Bits<ERR_WIDTH>>,
    one_slot: Constant<Bits<MBARRIER_SLOTS>>,
    zero_slots: Constant<Bits<MBARRIER_SLOTS>>,
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
    v_bit: Signal<Local, Bit>,
    used_bits: Signal<Local, Bits<MBARRIER_SLOTS>>,
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
            slots: Default::default(),
            c_init: k(OP_INIT as u128),
            e_none: k(ERR_NONE as u128),
            e_uninit: k(ERR_UNINIT as u128),
            one_slot: k(1),
            zero_slots: k(0),
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
            v_bit: Default::default(),
            used_bits: Default::default(),
            flips: Default::default(),
            phases: Default::default(),
            err_bits: Default::default(),
        }
    }
}

impl Logic for Mbarrier {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- table lookup: the entry holding op_addr, and the lowest free entry ----
        // Entry i's bits enter at the top and move down: after 8 entries, entry i is bit i.
        self.op_hits.next = self.zero_slots.val();
        self.frees.next = self.zero_slots.val();
        for i in 0..8 {
            self.v_hit.next = self.slots[i].used.val() && (self.slots[i].tag.val() == self.op_addr.val());
            self.v_free.next = !self.slots[i].used.val();
            self.op_hits.next =
                (self.op_hits.val() >> 1) | (bit_cast::<MBARRIER_SLOTS, 1>(self.v_hit.val().into()) << 7);
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
                self.op_parity.next = self.slots[i].parity.val();
                self.op_pending.next = self.slots[i].pending.val();
                self.op_tx.next = self.slots[i].tx.val();
                self.op_err.next = self.slots[i].err.val();
            }
        }
        self.op_wait_complete.next =
            (self.op_arg.val().get_bit(0) != self.op_parity.val()) && (self.op_err.val() == self.e_none.val());

        // ---- each object's update (the operation routed by the lookup, then complete-tx) ----
        for i in 0..8 {
            self.slots[i].clock.next = self.clock.val();
            self.slots[i].reset.next = self.reset.val();
            self.slots[i].op_sel.next = self.op_valid.val() && self.op_oh.val().get_bit(i);
            self.slots[i].op_code.next = self.op_code.val();
            self.slots[i].op_addr.next = self.op_addr.val();
            self.slots[i].op_arg.next = self.op_arg.val();
            self.slots[i].cpl_valid.next = self.cpl_valid.val();
            self.slots[i].cpl_addr.next = self.cpl_addr.val();
            self.slots[i].cpl_bytes.next = self.cpl_bytes.val();
        }
        // Per-entry outputs; slot i's bits enter at the top and move down.
        self.flips.next = self.zero_slots.val();
        self.phases.next = self.zero_slots.val();
        self.err_bits.next = self.zero_slots.val();
        self.used_bits.next = self.zero_slots.val();
        for i in 0..8 {
            self.v_bit.next = self.slots[i].flip.val();
            self.flips.next = (self.flips.val() >> 1) | (bit_cast::<MBARRIER_SLOTS, 1>(self.v_bit.val().into()) << 7);
            self.v_bit.next = self.slots[i].parity.val();
            self.phases.next = (self.phases.val() >> 1) | (bit_cast::<MBARRIER_SLOTS, 1>(self.v_bit.val().into()) << 7);
            self.v_bit.next = self.slots[i].err.val().any();
            self.err_bits.next =
                (self.err_bits.val() >> 1) | (bit_cast::<MBARRIER_SLOTS, 1>(self.v_bit.val().into()) << 7);
            self.v_bit.next = self.slots[i].used.val();
            self.used_bits.next =
                (self.used_bits.val() >> 1) | (bit_cast::<MBARRIER_SLOTS, 1>(self.v_bit.val().into()) << 7);
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
