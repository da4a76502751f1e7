//! The mbarrier model (PTX ISA "mbarrier", as used by `red.async`'s
//! `.mbarrier::complete_tx::bytes`), and the encoding of barrier operations on the
//! hardware's port ([`mbar_encoding`]; `hw::mbarrier` reads it from here).
//!
//! # State and operations (PTX)
//!
//! An mbarrier has a current phase (its parity is all that is observable), an expected arrival
//! count (set by `init`), a pending arrival count and a transaction count (tx-count).
//!
//! | operation | effect |
//! | --- | --- |
//! | `init(count)` | parity 0, pending = expected = `count`, tx-count 0, error cleared |
//! | `arrive` | pending -= 1 |
//! | `arrive.expect_tx(b)` | tx-count += b, then pending -= 1 |
//! | `expect_tx(b)` | tx-count += b |
//! | `complete_tx(b)` | tx-count -= b (also what a completed `red.async` does, `b` = its bytes) |
//! | `test_wait.parity(p)` | true when the phase with parity `p` has completed: `p != parity` |
//!
//! After every operation, when pending = 0 and tx-count = 0 the phase completes: the parity
//! flips, pending reloads the expected count, tx-count is 0. (So `complete_tx` may run before
//! the matching `expect_tx`: the tx-count is negative meanwhile, which PTX allows.)
//!
//! # Ranges and errors (undefined in PTX; defined here)
//!
//! PTX bounds the expected count to 1..=2^20-1 and the tx-count to -(2^20-1)..=2^20-1 and
//! leaves the rest undefined. Here an mbarrier has an error status ([`MbarError`]):
//! - `Uninitialized`: the state after reset, until the first `init`;
//! - `TxRange`: an `expect_tx`/`arrive.expect_tx`/`complete_tx` would take the tx-count out
//!   of range; that operation is not applied (neither its arrival);
//! - `Count`: `init` with a count of 0, or an arrival while no arrival is pending (pending
//!   is 0 and the phase waits for bytes: more arrivals than the expected count); that
//!   arrival (and its expect-tx) is not applied.
//!
//! An mbarrier with an error is frozen: every operation but `init` leaves it unchanged and
//! `test_wait` returns false. `init` clears the error. The error is observable (the trace
//! rows of `redunit run` report it on `test_wait`).
//!
//! # The table of mbarrier objects ([`MbarTable`])
//! An mbarrier is an 8-byte object in shared memory, named by its address (in the traces of
//! `redunit run`: a `.shared::cluster` address of the cluster's shared memories, [`CLUSTER_CTAS`]
//! CTAs of [`CTA_SHARED_BYTES`] each). The hardware keeps the objects in a table of
//! [`MBARRIER_SLOTS`] entries beside the memory, each an address tag and one [`Mbarrier`]:
//! - `init` of an address in the table initialises its entry again; of an address not in the
//!   table it takes the lowest free entry; with no free entry the table is full
//!   ([`TableEffect::full`], `error:mbarrier-table-full` in traces) and nothing changes.
//! - `inval` (PTX `mbarrier.inval`) frees the entry; of an address not in the table it does
//!   nothing.
//! - Every other operation on an address not in the table does nothing, and `test_wait` there
//!   reports [`MbarError::Uninitialized`]; a complete-tx (a `red.async`'s completion) to an
//!   address not in the table is dropped.
//!
//! # Two operations in one cycle
//! The hardware block takes one barrier operation and one complete-tx per cycle. When both
//! name the same mbarrier, the effect is the barrier operation first, then the complete-tx
//! ([`Mbarrier::apply`] twice, in that order); the phase can flip at most once in a cycle
//! (after a flip pending is the expected count, at least 1, and a complete-tx alone cannot
//! complete a phase with pending arrivals).

/// Entries of the mbarrier table: live mbarrier objects at most (module doc).
pub const MBARRIER_SLOTS: usize = 8;
/// Bytes of one mbarrier object (its address is a multiple of this).
pub const MBARRIER_BYTES: u64 = 8;
/// CTAs of the cluster whose shared memories the traces address.
pub const CLUSTER_CTAS: u64 = 2;
/// Shared memory of one CTA: CTA `r`'s is `.shared::cluster` addresses
/// `r * CTA_SHARED_BYTES ..` `(r + 1) * CTA_SHARED_BYTES`.
pub const CTA_SHARED_BYTES: u64 = 0x8000;
/// The cluster's shared memory: mbarrier addresses are below this.
pub const CLUSTER_SHARED_BYTES: u64 = CLUSTER_CTAS * CTA_SHARED_BYTES;
const _: () = assert!(CLUSTER_SHARED_BYTES == (MBARRIER_BYTES << mbar_encoding::ADDR_WIDTH));

/// The CTA whose shared memory holds `.shared::cluster` address `addr`, if any.
pub fn cta_of(addr: u64) -> Option<u64> {
    (addr < CLUSTER_SHARED_BYTES).then_some(addr / CTA_SHARED_BYTES)
}
/// The largest expected arrival count and the largest |tx-count|: 2^20 - 1.
pub const MBAR_MAX: u32 = (1 << 20) - 1;

/// The barrier-operation port of `hw::mbarrier::Mbarrier`.
///
/// | field | bits | meaning |
/// | --- | --- | --- |
/// | op | `OP_WIDTH` | `OP_INIT` .. `OP_TEST_WAIT` |
/// | addr | `ADDR_WIDTH` | the mbarrier's address / [`MBARRIER_BYTES`] (the table's tag) |
/// | arg | `ARG_WIDTH` | init: count; expect/complete: bytes; test_wait: parity in bit 0 |
///
/// Error codes (`ERR_WIDTH` bits): [`MbarError::code`].
pub mod mbar_encoding {
    pub const OP_WIDTH: usize = 3;
    pub const OP_INIT: u8 = 0;
    pub const OP_ARRIVE: u8 = 1;
    pub const OP_ARRIVE_EXPECT_TX: u8 = 2;
    pub const OP_EXPECT_TX: u8 = 3;
    pub const OP_COMPLETE_TX: u8 = 4;
    pub const OP_TEST_WAIT: u8 = 5;
    pub const OP_INVAL: u8 = 6;
    /// Bits of a table entry's index.
    pub const SLOT_WIDTH: usize = 3;
    /// Bits of an mbarrier's address / 8 (objects below 64 KiB).
    pub const ADDR_WIDTH: usize = 13;
    pub const ARG_WIDTH: usize = 20;
    /// The tx-count register: two's complement, wide enough that count + arg never wraps.
    pub const TX_WIDTH: usize = 22;
    pub const ERR_WIDTH: usize = 2;
    pub const ERR_NONE: u8 = 0;
    pub const ERR_UNINIT: u8 = 1;
    pub const ERR_TX_RANGE: u8 = 2;
    pub const ERR_COUNT: u8 = 3;
}
const _: () = assert!(1 << mbar_encoding::SLOT_WIDTH == MBARRIER_SLOTS);

/// One barrier operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MbarOp {
    Init(u32),
    Arrive,
    ArriveExpectTx(u32),
    ExpectTx(u32),
    CompleteTx(u32),
    /// `test_wait.parity`: the parity asked about.
    TestWait(bool),
    /// `mbarrier.inval`: frees the object's table entry ([`MbarTable`]).
    Inval,
}

impl MbarOp {
    /// (op code, arg) on the hardware port.
    pub fn code(self) -> (u8, u32) {
        use mbar_encoding::*;
        match self {
            MbarOp::Init(c) => (OP_INIT, c),
            MbarOp::Arrive => (OP_ARRIVE, 0),
            MbarOp::ArriveExpectTx(b) => (OP_ARRIVE_EXPECT_TX, b),
            MbarOp::ExpectTx(b) => (OP_EXPECT_TX, b),
            MbarOp::CompleteTx(b) => (OP_COMPLETE_TX, b),
            MbarOp::TestWait(p) => (OP_TEST_WAIT, p as u32),
            MbarOp::Inval => (OP_INVAL, 0),
        }
    }
}

/// Why an mbarrier is frozen (module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MbarError {
    Uninitialized,
    TxRange,
    Count,
}

impl MbarError {
    pub fn code(self) -> u8 {
        use mbar_encoding::*;
        match self {
            MbarError::Uninitialized => ERR_UNINIT,
            MbarError::TxRange => ERR_TX_RANGE,
            MbarError::Count => ERR_COUNT,
        }
    }
    pub fn from_code(c: u8) -> Option<MbarError> {
        use mbar_encoding::*;
        match c {
            ERR_UNINIT => Some(MbarError::Uninitialized),
            ERR_TX_RANGE => Some(MbarError::TxRange),
            ERR_COUNT => Some(MbarError::Count),
            _ => None,
        }
    }
    /// The name in trace results (`error:<name>`).
    pub fn name(self) -> &'static str {
        match self {
            MbarError::Uninitialized => "mbarrier-uninitialized",
            MbarError::TxRange => "mbarrier-tx-range",
            MbarError::Count => "mbarrier-count",
        }
    }
}

/// One mbarrier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mbarrier {
    pub parity: bool,
    pub expected: u32,
    pub pending: u32,
    pub tx: i32,
    pub error: Option<MbarError>,
}

impl Default for Mbarrier {
    /// The state after reset: uninitialised.
    fn default() -> Self {
        Mbarrier { parity: false, expected: 0, pending: 0, tx: 0, error: Some(MbarError::Uninitialized) }
    }
}

/// What one operation did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Effect {
    /// The phase completed (the parity flipped).
    pub flipped: bool,
    /// `test_wait`'s result (false for the other operations).
    pub wait_complete: bool,
}

impl Mbarrier {
    /// Applies one operation (module doc). Arguments above [`MBAR_MAX`] are a caller error
    /// (the port has 20 bits); they are masked to 20 bits as the hardware does.
    pub fn apply(&mut self, op: MbarOp) -> Effect {
        let mut e = Effect::default();
        if let MbarOp::Init(c) = op {
            let c = c & MBAR_MAX;
            *self =
                Mbarrier { parity: false, expected: c, pending: c, tx: 0, error: (c == 0).then_some(MbarError::Count) };
            return e;
        }
        if self.error.is_some() {
            return e;
        }
        let (dtx, arrive) = match op {
            MbarOp::Init(_) => unreachable!(),
            MbarOp::Arrive => (0i64, true),
            MbarOp::ArriveExpectTx(b) => ((b & MBAR_MAX) as i64, true),
            MbarOp::ExpectTx(b) => ((b & MBAR_MAX) as i64, false),
            MbarOp::CompleteTx(b) => (-((b & MBAR_MAX) as i64), false),
            MbarOp::TestWait(p) => {
                e.wait_complete = p != self.parity;
                return e;
            }
            // The table frees the entry; the object itself is unchanged.
            MbarOp::Inval => return e,
        };
        if arrive && self.pending == 0 {
            self.error = Some(MbarError::Count);
            return e;
        }
        let tx = self.tx as i64 + dtx;
        if tx.abs() > MBAR_MAX as i64 {
            self.error = Some(MbarError::TxRange);
            return e;
        }
        self.tx = tx as i32;
        if arrive {
            self.pending -= 1;
        }
        if self.pending == 0 && self.tx == 0 {
            self.parity = !self.parity;
            self.pending = self.expected;
            e.flipped = true;
        }
        e
    }
}

/// What one operation on the table did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TableEffect {
    /// The entry the operation addressed (before it: for `inval`, the entry it freed).
    pub entry: Option<usize>,
    pub effect: Effect,
    /// `init` found no free entry: nothing changed.
    pub full: bool,
    /// The object's error status after the operation (`Uninitialized` when it is not in the
    /// table).
    pub error: Option<MbarError>,
}

/// The table of mbarrier objects (module doc): [`MBARRIER_SLOTS`] entries, each free or an
/// address with its mbarrier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct MbarTable {
    pub entries: [Option<(u64, Mbarrier)>; MBARRIER_SLOTS],
}

impl MbarTable {
    /// The entry holding the mbarrier at `addr`.
    pub fn find(&self, addr: u64) -> Option<usize> {
        self.entries.iter().position(|e| e.is_some_and(|(a, _)| a == addr))
    }
    /// The mbarrier at `addr`, if it is in the table.
    pub fn get(&self, addr: u64) -> Option<&Mbarrier> {
        self.find(addr).and_then(|i| self.entries[i].as_ref().map(|(_, m)| m))
    }
    /// Applies `op` to the mbarrier at `addr` (module doc).
    pub fn apply(&mut self, addr: u64, op: MbarOp) -> TableEffect {
        let mut t = TableEffect { entry: self.find(addr), ..TableEffect::default() };
        match (op, t.entry) {
            (MbarOp::Init(_), None) => match self.entries.iter().position(Option::is_none) {
                Some(i) => {
                    self.entries[i] = Some((addr, Mbarrier::default()));
                    t.entry = Some(i);
                }
                None => {
                    t.full = true;
                    t.error = Some(MbarError::Uninitialized);
                    return t;
                }
            },
            (MbarOp::Inval, Some(i)) => {
                self.entries[i] = None;
                t.error = Some(MbarError::Uninitialized);
                return t;
            }
            (_, None) => {
                t.error = Some(MbarError::Uninitialized);
                return t;
            }
            _ => {}
        }
        let i = t.entry.unwrap();
        let m = &mut self.entries[i].as_mut().unwrap().1;
        t.effect = m.apply(op);
        t.error = m.error;
        t
    }
    /// Bit i: entry i's phase parity (0 for a free entry).
    pub fn parities(&self) -> u64 {
        self.entries.iter().enumerate().map(|(i, e)| (e.is_some_and(|(_, m)| m.parity) as u64) << i).sum()
    }
    /// Bit i: entry i is in use.
    pub fn valid(&self) -> u64 {
        self.entries.iter().enumerate().map(|(i, e)| (e.is_some() as u64) << i).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_holds_objects_by_address_and_reports_overflow() {
        let mut t = MbarTable::default();
        for k in 0..MBARRIER_SLOTS as u64 {
            let e = t.apply(0x8000 + 8 * k, MbarOp::Init(1));
            assert_eq!((e.entry, e.full, e.error), (Some(k as usize), false, None));
        }
        let e = t.apply(0x9000, MbarOp::Init(1));
        assert!(e.full && e.entry.is_none(), "a ninth object does not fit");
        assert_eq!(t.apply(0x9000, MbarOp::TestWait(false)).error, Some(MbarError::Uninitialized));
        // Initialising an object in the table again takes no new entry.
        assert_eq!(t.apply(0x8008, MbarOp::Init(2)).entry, Some(1));
        assert_eq!(t.apply(0x8008, MbarOp::Inval).entry, Some(1));
        assert_eq!(t.find(0x8008), None);
        assert_eq!(t.apply(0x8008, MbarOp::Arrive).error, Some(MbarError::Uninitialized));
        assert_eq!(t.apply(0x9000, MbarOp::Init(1)).entry, Some(1), "the freed entry is reused");
        assert!(t.apply(0x9000, MbarOp::Arrive).effect.flipped);
        assert_eq!(t.parities(), 0b10);
        assert_eq!(t.valid(), 0xff);
        assert_eq!((cta_of(0x7ff8), cta_of(0x8000), cta_of(CLUSTER_SHARED_BYTES)), (Some(0), Some(1), None));
    }

    #[test]
    fn phase_completes_when_arrivals_and_bytes_are_in() {
        let mut m = Mbarrier::default();
        assert_eq!(m.apply(MbarOp::Arrive), Effect::default());
        assert_eq!(m.error, Some(MbarError::Uninitialized));
        m.apply(MbarOp::Init(2));
        assert!(!m.apply(MbarOp::TestWait(false)).wait_complete);
        assert!(m.apply(MbarOp::TestWait(true)).wait_complete, "the phase before the first one counts as complete");
        assert!(!m.apply(MbarOp::ArriveExpectTx(12)).flipped);
        assert!(!m.apply(MbarOp::Arrive).flipped);
        assert_eq!((m.pending, m.tx), (0, 12));
        assert!(!m.apply(MbarOp::CompleteTx(4)).flipped);
        assert!(!m.apply(MbarOp::CompleteTx(4)).flipped);
        assert!(m.apply(MbarOp::CompleteTx(4)).flipped, "the last byte completes the phase");
        assert_eq!((m.parity, m.pending, m.tx), (true, 2, 0));
        assert!(m.apply(MbarOp::TestWait(false)).wait_complete);
        assert!(!m.apply(MbarOp::TestWait(true)).wait_complete);
    }

    #[test]
    fn bytes_may_complete_before_they_are_expected() {
        let mut m = Mbarrier::default();
        m.apply(MbarOp::Init(1));
        assert!(!m.apply(MbarOp::CompleteTx(8)).flipped);
        assert_eq!(m.tx, -8);
        assert!(!m.apply(MbarOp::ExpectTx(4)).flipped);
        assert!(m.apply(MbarOp::ArriveExpectTx(4)).flipped);
        assert_eq!((m.parity, m.pending, m.tx), (true, 1, 0));
        // A phase with no transactions: an arrival alone completes it.
        assert!(m.apply(MbarOp::Arrive).flipped);
        assert!(!m.parity);
    }

    #[test]
    fn out_of_range_counts_freeze_until_init() {
        let mut m = Mbarrier::default();
        m.apply(MbarOp::Init(1));
        m.apply(MbarOp::ExpectTx(MBAR_MAX));
        assert_eq!(m.error, None);
        m.apply(MbarOp::ExpectTx(1));
        assert_eq!((m.error, m.tx), (Some(MbarError::TxRange), MBAR_MAX as i32));
        assert_eq!(m.apply(MbarOp::CompleteTx(MBAR_MAX)), Effect::default());
        assert!(!m.apply(MbarOp::TestWait(true)).wait_complete);
        m.apply(MbarOp::Init(1));
        assert_eq!(m.error, None);
        m.apply(MbarOp::CompleteTx(MBAR_MAX));
        assert_eq!(m.error, None);
        m.apply(MbarOp::CompleteTx(1));
        assert_eq!(m.error, Some(MbarError::TxRange));
        m.apply(MbarOp::Init(0));
        assert_eq!(m.error, Some(MbarError::Count));
        assert!(!m.apply(MbarOp::Arrive).flipped);
        // One arrival too many while the phase waits for its bytes.
        m.apply(MbarOp::Init(1));
        m.apply(MbarOp::ArriveExpectTx(4));
        assert_eq!((m.pending, m.tx, m.error), (0, 4, None));
        m.apply(MbarOp::Arrive);
        assert_eq!((m.pending, m.tx, m.error), (0, 4, Some(MbarError::Count)));
    }
}
