//! Parsing the rows of `op,addr,value,mbar[,cta]` traces, with PTX's rules on where each row
//! may point: the state space of plain requests (separate global and shared memories), the
//! peer-CTA rule of `red.async.relaxed`, and the own-CTA rule of `mbarrier.init`, `inval`
//! and `test_wait`.

use std::io::Read;

use sim::mbarrier::{CLUSTER_CTAS, CLUSTER_SHARED_BYTES, CTA_SHARED_BYTES, MBAR_MAX, MBARRIER_BYTES, MbarOp, cta_of};
use sim::ptx::AddrSpace;
use sim::red_async::RedAsync;
use sim::spaces::{SHARED_WINDOW_BASE, SHARED_WINDOW_BYTES, window};
use sim::{Space, TraceOp};

use super::{BAR_OPS, HEADER, HEADER_CTA, Row};
use crate::hex;
use crate::input_error::{InputError, Parsed, Rows, next_record};

fn mbar_addr(field: &[u8], what: &str) -> Result<u64, String> {
    let a = hex::parse(field, 64).map_err(|e| format!("{what}: {e}"))?;
    check_mbar(a, what)
}

fn check_mbar(a: u128, what: &str) -> Result<u64, String> {
    if a % MBARRIER_BYTES as u128 != 0 || a >= CLUSTER_SHARED_BYTES as u128 {
        return Err(format!(
            "{what}: `{a:x}` is not an mbarrier address: an mbarrier is an 8-byte object at a multiple of 8 in the \
             cluster's shared memory, 0-{:x} (CTA 0: 0-{:x}, CTA 1: {:x}-{:x}; hex)",
            CLUSTER_SHARED_BYTES - 1,
            CTA_SHARED_BYTES - 1,
            CTA_SHARED_BYTES,
            CLUSTER_SHARED_BYTES - 1
        ));
    }
    Ok(a as u64)
}

/// The `.shared::cluster` address of a generic address of a `.relaxed` `red.async`.
fn from_window(a: u64, what: &str) -> Result<u64, String> {
    match a.checked_sub(SHARED_WINDOW_BASE) {
        Some(x) if x < SHARED_WINDOW_BYTES => Ok(x),
        _ => Err(format!(
            "{what}: the generic address `{a:x}` is not in the shared window ({SHARED_WINDOW_BASE:x} + the .shared::cluster \
             address): PTX leaves it undefined for red.async.relaxed; write .shared::cluster or a window address"
        )),
    }
}

/// PTX's condition on a `.relaxed` `red.async` executed by CTA `cta`: `a` and `mbar`
/// (`.shared::cluster` addresses) in the same CTA, a peer of `cta`. An `a` beyond the
/// cluster's shared memory is left to the memory (out of range).
pub fn peer_rule(cta: u64, a: u64, mbar: u64) -> Result<(), String> {
    let (Some(ca), Some(cm)) = (cta_of(a), cta_of(mbar)) else { return Ok(()) };
    if ca != cm || ca == cta {
        return Err(format!(
            "red.async.relaxed: the destination {a:x} (CTA {ca}) and the mbarrier {mbar:x} (CTA {cm}) must be in the same CTA, \
             a peer of the executing CTA {cta} in the cluster (PTX leaves anything else undefined)"
        ));
    }
    Ok(())
}

/// Whether PTX lets `op` act only on an mbarrier in the executing CTA's own shared memory:
/// `mbarrier.init`, `mbarrier.inval` and `mbarrier.test_wait` take `.shared{::cta}` only;
/// arrive, expect_tx and complete_tx also take `.shared::cluster` (a peer's mbarrier).
pub fn own_cta_only(op: MbarOp) -> bool {
    matches!(op, MbarOp::Init(_) | MbarOp::Inval | MbarOp::TestWait(_))
}

/// PTX's own-CTA rule on `op` at the mbarrier `addr`, executed by CTA `cta`.
pub fn own_cta_rule(cta: u64, addr: u64, op: MbarOp, name: &str) -> Result<(), String> {
    match cta_of(addr) {
        Some(c) if own_cta_only(op) && c != cta => Err(format!(
            "{name}: the mbarrier {addr:x} is in CTA {c}'s shared memory, and this row executes in CTA {cta}: PTX's \
             {name} acts on the executing CTA's own shared memory (.shared::cta) only; run the row in CTA {c} (the cta \
             column) or name an mbarrier of CTA {cta} ({:x}-{:x})",
            cta * CTA_SHARED_BYTES,
            (cta + 1) * CTA_SHARED_BYTES - 1
        )),
        _ => Ok(()),
    }
}

/// A plain request resolved in the cluster: generic addresses through the window (window +
/// `k` is `.shared::cluster` address `k`); a `.shared`/`.shared::cta` address is the
/// executing CTA's own shared memory at its `.shared::cluster` address, so with an executing
/// CTA given (`cta`) it must lie in that CTA's (PTX: the `.shared::cta` window is the own
/// CTA's); without one the row executes in the CTA that holds it.
pub fn resolve_access(op: TraceOp, addr: u64, value: u128, cta: Option<u64>) -> Result<Row, String> {
    let at = op.resolve(addr, value).map_err(|e| format!("{op} at {addr:x}: {e}"))?;
    if let (AddrSpace::Shared, Some(cta)) = (op.addr_space(), cta) {
        if let Some(c) = cta_of(addr).filter(|&c| c != cta) {
            return Err(format!(
                "{op} at {addr:x}: {addr:x} is CTA {c}'s shared memory, and .shared (.shared::cta) addresses the executing \
                 CTA {cta}'s own, {:x}-{:x}; write .shared::cluster to reach a peer CTA",
                cta * CTA_SHARED_BYTES,
                (cta + 1) * CTA_SHARED_BYTES - 1
            ));
        }
    }
    Ok(Row::Access { op, addr, at })
}

/// The executing CTA of a barrier row without the `cta` column: CTA 0, except for the
/// operations of [`own_cta_only`], which run in the CTA that holds their mbarrier.
pub fn default_cta(row_op: Option<(u64, MbarOp)>) -> u64 {
    match row_op {
        Some((addr, op)) if own_cta_only(op) => cta_of(addr).unwrap_or(0),
        _ => 0,
    }
}

/// Parses a trace with the header [`HEADER`] (or [`HEADER_CTA`]).
pub fn parse(input: impl Read) -> anyhow::Result<Vec<Row>> {
    parse_prefix(input)?.into_result()
}

/// Parses a trace up to its first bad row; the error when the header is bad.
pub fn parse_prefix(input: impl Read) -> anyhow::Result<Parsed<Row>> {
    Parsed::read_any(input, &[HEADER, HEADER_CTA], parse_rows)
}

fn parse_rows<R: Read>(
    rdr: &mut Rows<R>,
    rec: &mut csv::ByteRecord,
    rows: &mut Vec<Row>,
    which: usize,
) -> anyhow::Result<()> {
    let (cols, header) = if which == 0 { (4, HEADER) } else { (5, HEADER_CTA) };
    while next_record(rdr, rec)? {
        let line = rec.position().map_or(0, |p| p.line());
        let bad = |msg: String| -> anyhow::Error { InputError::new(line, msg).into() };
        if rec.len() != cols {
            return Err(bad(format!("expected {cols} columns ({header}), found {}", rec.len())));
        }
        let cta = if cols == 5 {
            let c = hex::parse(&rec[4], 64).map_err(|e| bad(format!("cta: {e}")))?;
            if c >= CLUSTER_CTAS as u128 {
                return Err(bad(format!("cta: {c:x} is not a CTA of the cluster: 0 or 1")));
            }
            Some(c as u64)
        } else {
            None
        };
        // No op name is this long: refuse it without echoing it twice (name and parse error).
        if rec[0].len() > 256 {
            return Err(bad(format!("unknown op `{}`: too long for a name", crate::input_error::shown(&rec[0]))));
        }
        let op = String::from_utf8_lossy(&rec[0]).into_owned();
        let empty = |col: usize, name: &str, why: &str| -> anyhow::Result<()> {
            if rec[col].is_empty() {
                Ok(())
            } else {
                Err(bad(format!("{op} takes no {name}{why}; leave the column empty")))
            }
        };
        if op.starts_with("mbarrier.") {
            let row = bar_row(rec, &op).map_err(bad)?;
            if let Row::Bar { addr, op: mop } = row {
                let cta = cta.unwrap_or_else(|| default_cta(Some((addr, mop))));
                own_cta_rule(cta, addr, mop, &op).map_err(bad)?;
            }
            rows.push(row);
            continue;
        }
        let addr = hex::parse(&rec[1], 64).map_err(|e| bad(format!("addr: {e}")))? as u64;
        if op.starts_with("red.async") {
            let cta = cta.unwrap_or(0);
            let form: RedAsync = op.parse().map_err(|e| bad(format!("unknown op `{op}`: {e}")))?;
            let bits = form.bytes() as u32 * 8;
            let value =
                hex::parse(&rec[2], bits).map_err(|e| bad(format!("value: {e} (b of {form} is {bits} bits)")))?;
            let mbar = if form.has_mbarrier() {
                if rec[3].is_empty() {
                    return Err(bad(format!("{form} completes on an mbarrier: give its address in the mbar column")));
                }
                let (a, m) = if form.explicit_space() {
                    (addr, hex::parse(&rec[3], 64).map_err(|e| bad(format!("mbar: {e}")))? as u64)
                } else {
                    let m = hex::parse(&rec[3], 64).map_err(|e| bad(format!("mbar: {e}")))? as u64;
                    (from_window(addr, "addr").map_err(bad)?, from_window(m, "mbar").map_err(bad)?)
                };
                let m = check_mbar(m as u128, "mbar").map_err(bad)?;
                peer_rule(cta, a, m).map_err(bad)?;
                Some(m)
            } else {
                empty(3, "mbar", " (.release forms have no completion mechanism)")?;
                if !form.explicit_space() && window(addr).0 == Space::Shared {
                    return Err(bad(format!(
                        "addr: the generic address `{addr:x}` is in the shared window ({SHARED_WINDOW_BASE:x}-{:x}): \
                         {form} writes global memory (PTX leaves a generic address outside the .global window undefined); \
                         write a global address (below {SHARED_WINDOW_BASE:x})",
                        SHARED_WINDOW_BASE + SHARED_WINDOW_BYTES - 1
                    )));
                }
                None
            };
            rows.push(Row::RedAsync { form, addr, value, mbar });
            continue;
        }
        let top: TraceOp = op.parse().map_err(|e| bad(format!("unknown op `{op}`: {e}")))?;
        let value = if top.has_operand() {
            let bits = top.operand_bytes() as u32 * 8;
            hex::parse(&rec[2], bits).map_err(|e| bad(format!("value: {e} (the operand of {top} is {bits} bits)")))?
        } else {
            empty(2, "value", "")?;
            0
        };
        empty(3, "mbar", "")?;
        rows.push(resolve_access(top, addr, value, cta).map_err(bad)?);
    }
    Ok(())
}

/// An mbarrier row (its columns checked), or the message of a bad one.
fn bar_row(rec: &csv::ByteRecord, op: &str) -> Result<Row, String> {
    let empty = |col: usize, name: &str, why: &str| -> Result<(), String> {
        if rec[col].is_empty() { Ok(()) } else { Err(format!("{op} takes no {name}{why}; leave the column empty")) }
    };
    let addr = mbar_addr(&rec[1], "addr")?;
    empty(3, "mbar", " (the mbarrier is the addr column)")?;
    let count = || -> Result<u32, String> {
        let v = hex::parse(&rec[2], 32).map_err(|e| format!("value: {e}"))?;
        if v > MBAR_MAX as u128 {
            return Err(format!("value: {v:x} is out of range: counts and bytes are at most fffff (2^20-1)"));
        }
        Ok(v as u32)
    };
    let mop = match op {
        "mbarrier.init" => MbarOp::Init(count()?),
        "mbarrier.arrive" => {
            empty(2, "value", "")?;
            MbarOp::Arrive
        }
        "mbarrier.inval" => {
            empty(2, "value", "")?;
            MbarOp::Inval
        }
        "mbarrier.arrive.expect_tx" => MbarOp::ArriveExpectTx(count()?),
        "mbarrier.expect_tx" => MbarOp::ExpectTx(count()?),
        "mbarrier.complete_tx" => MbarOp::CompleteTx(count()?),
        "mbarrier.test_wait.parity" => match &rec[2] {
            b"0" => MbarOp::TestWait(false),
            b"1" => MbarOp::TestWait(true),
            _ => return Err("value: the parity of mbarrier.test_wait.parity is 0 or 1".into()),
        },
        _ => return Err(format!("unknown mbarrier operation `{op}`: expected one of {}", BAR_OPS.join(", "))),
    };
    Ok(Row::Bar { addr, op: mop })
}
