//! `redunit run`: request traces (`op,addr,value`, or `op,addr,value,cache_policy`) against
//! a memory engine for each state space.
//!
//! A row's op names its state space (`global.add.u32`, `ld.shared.b32`) or none (generic:
//! `red.add.f32`, `ld.b32`); [`sim::spaces`] resolves it to the global or the shared memory
//! and the address in it, at parse time, so a row that cannot run in the space its address
//! picks (a generic vector `red` in the shared window) is a bad row. Each space runs on its
//! own engine; the two are separate memories, so their interleaving changes no result.

use std::io::{Read, Write};

use sim::spaces::Resolved;
use sim::{MemError, Memory, Request, Space, TraceOp};

use crate::hex;
use crate::input_error::{Cached, InputError, Parsed, Rows, next_record};

/// The outcome of one request: `Ok(Some(old))` for `ld`/`atom`, `Ok(None)` for `st`/`red`.
pub type Outcome = Result<Option<u128>, MemError>;

/// The header of a trace, and the one with the cache-policy operand column.
pub const HEADERS: [&str; 2] = ["op,addr,value", "op,addr,value,cache_policy"];

/// Executes whole traces: the golden memory, or (when built) the Verilated unit.
pub trait MemEngine {
    /// Executes `reqs` and returns one outcome per request, in trace order.
    fn execute(&mut self, reqs: &[Request]) -> anyhow::Result<Vec<Outcome>>;
}

impl MemEngine for Memory {
    fn execute(&mut self, reqs: &[Request]) -> anyhow::Result<Vec<Outcome>> {
        Ok(reqs.iter().map(|r| Memory::execute(self, r)).collect())
    }
}

/// One row of a trace as written, and what it resolves to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    pub op: TraceOp,
    /// The address as written (generic addresses before resolution).
    pub addr: u64,
    /// The `cache_policy` operand of an `.L2::cache_hint` op: read and ignored (a hint).
    pub cache_policy: Option<u64>,
    /// The memory it runs in, and the request there.
    pub resolved: Resolved,
}

impl Row {
    pub fn space(&self) -> Space {
        self.resolved.space
    }
    pub fn req(&self) -> &Request {
        &self.resolved.req
    }
}

/// Parses a trace: header `op,addr,value` (or with `cache_policy`), then one request per row.
pub fn parse(input: impl Read) -> anyhow::Result<Vec<Row>> {
    parse_prefix(input)?.into_result()
}

/// Parses a trace up to its first bad row; the error when the header is bad.
pub fn parse_prefix(input: impl Read) -> anyhow::Result<Parsed<Row>> {
    Parsed::read_any(input, &HEADERS, parse_rows)
}

fn parse_rows<R: Read>(
    rdr: &mut Rows<R>,
    rec: &mut csv::ByteRecord,
    rows: &mut Vec<Row>,
    header: usize,
) -> anyhow::Result<()> {
    let mut cached = Cached::<TraceOp>::default();
    let cols = 3 + header;
    while next_record(rdr, rec)? {
        let line = rec.position().map_or(0, |p| p.line());
        let bad = |msg: String| -> anyhow::Error { InputError::new(line, msg).into() };
        if rec.len() != cols {
            return Err(bad(format!("expected {cols} columns ({}), found {}", HEADERS[header], rec.len())));
        }
        let op = cached.parse(&rec[0], line, "op")?;
        let addr = hex::parse(&rec[1], 64).map_err(|e| bad(format!("addr: {e}")))? as u64;
        let value = if op.has_operand() {
            let bits = op.operand_bytes() as u32 * 8;
            hex::parse(&rec[2], bits).map_err(|e| bad(format!("value: {e} (the operand of {op} is {bits} bits)")))?
        } else if rec[2].is_empty() {
            0
        } else {
            return Err(bad(format!("{op} takes no value; leave the column empty")));
        };
        let cache_policy = match rec.get(3) {
            None | Some(b"") => None,
            Some(_) if !op.cache_hint() => {
                return Err(bad(format!(
                    "cache_policy: {op} has no .L2::cache_hint, which the cache-policy operand needs (PTX);                      leave the column empty or add the qualifier"
                )));
            }
            Some(f) => Some(hex::parse(f, 64).map_err(|e| bad(format!("cache_policy: {e}")))? as u64),
        };
        let resolved = op.resolve(addr, value).map_err(|e| bad(format!("{op} at {addr:x}: {e}")))?;
        rows.push(Row { op, addr, cache_policy, resolved });
    }
    Ok(())
}

/// Executes the rows on the engine of their space, each space's requests in trace order, and
/// returns the outcomes in trace order. `shared` may be `None` when no row is in shared memory.
pub fn execute(
    rows: &[Row],
    global: &mut dyn MemEngine,
    shared: Option<&mut dyn MemEngine>,
) -> anyhow::Result<Vec<Outcome>> {
    let mut outcomes = vec![Ok(None); rows.len()];
    let mut run = |space: Space, engine: &mut dyn MemEngine| -> anyhow::Result<()> {
        let idx: Vec<usize> = (0..rows.len()).filter(|&i| rows[i].space() == space).collect();
        if idx.is_empty() {
            return Ok(());
        }
        let reqs: Vec<Request> = idx.iter().map(|&i| *rows[i].req()).collect();
        for (i, o) in idx.into_iter().zip(engine.execute(&reqs)?) {
            outcomes[i] = o;
        }
        Ok(())
    };
    run(Space::Global, global)?;
    match shared {
        Some(engine) => run(Space::Shared, engine)?,
        None if rows.iter().any(|r| r.space() == Space::Shared) => {
            anyhow::bail!("the trace has shared-memory rows but no shared-memory engine was given")
        }
        None => {}
    }
    Ok(outcomes)
}

/// Writes the `index,op,addr,result` rows: one per `ld` and `atom`, one per failed request.
/// `op` and `addr` are the row's as written (the op in its canonical spelling).
pub fn write_results(rows: &[Row], outcomes: &[Outcome], mut out: impl Write) -> anyhow::Result<()> {
    let mut buf = Vec::with_capacity(64 * rows.len().min(1 << 16));
    buf.extend_from_slice(b"index,op,addr,result\n");
    for (i, (row, outcome)) in rows.iter().zip(outcomes).enumerate() {
        let result = match outcome {
            Ok(Some(v)) => hex::format(*v, row.req().access.bytes() as u32 * 8),
            Ok(None) => continue,
            Err(e) => format!("error:{e}"),
        };
        writeln!(buf, "{i},{},{:x},{result}", row.op, row.addr)?;
        if buf.len() > 1 << 20 {
            out.write_all(&buf)?;
            buf.clear();
        }
    }
    out.write_all(&buf)?;
    out.flush()?;
    Ok(())
}

/// Parses a trace, executes it on the engines and writes the result rows. On a bad row, the
/// rows before it are executed and written, and the error is an [`InputError`].
pub fn run(
    input: impl Read,
    output: impl Write,
    global: &mut dyn MemEngine,
    shared: &mut dyn MemEngine,
) -> anyhow::Result<usize> {
    let p = parse_prefix(input)?;
    let outcomes = execute(&p.rows, global, Some(shared))?;
    write_results(&p.rows, &outcomes, output)?;
    let n = p.rows.len();
    p.then(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(trace: &str, mem: usize) -> Result<String, String> {
        let mut out = Vec::new();
        run(trace.as_bytes(), &mut out, &mut Memory::new(mem), &mut Memory::new(mem)).map_err(|e| e.to_string())?;
        Ok(String::from_utf8(out).unwrap())
    }

    #[test]
    fn executes_in_order_and_reports_loads_atoms_and_errors() {
        let out = go(
            "op,addr,value\nst.b32,10,3F800000\nglobal.add.f32,10,3f800000\natom.global.add.f32,10,1\n\
             ld.b32,10,\nst.b64,4,1\nld.b128,fff0,\nglobal.v4.f32.add,20,3f8000003f800000\n\
             ld.b128,20,\n",
            65536,
        )
        .unwrap();
        assert_eq!(
            out,
            "index,op,addr,result\n2,atom.global.add.f32,10,40000000\n3,ld.b32,10,40000000\n\
             4,st.b64,4,error:misaligned\n5,ld.b128,fff0,00000000000000000000000000000000\n\
             7,ld.b128,20,00000000000000003f8000003f800000\n"
        );
        let out = go("op,addr,value\nld.b32,40,\n", 64).unwrap();
        assert_eq!(out, "index,op,addr,result\n0,ld.b32,40,error:out-of-range\n");
    }

    #[test]
    fn spaces_are_separate_and_qualifiers_are_carried_to_the_output() {
        let out = go(
            "op,addr,value,cache_policy\nst.b32,10,1,\nst.shared.b32,10,1,\nred.relaxed.gpu.add.f32,10,0,\n\
             red.release.cta.add.f32,100000010,0,\nred.global.and.L2::cache_hint.b32,10,3,0123456789abcdef\n\
             ld.b32,10,,\nld.b32,100000010,,\natom.shared::cluster.add.u32,10,1,\nld.global.b32,10,,\n",
            64,
        )
        .unwrap();
        // Generic 10 is global (f32 flushes the subnormal 1), generic 100000010 is shared
        // offset 10 (kept); shared::cluster is the own CTA's shared memory.
        assert_eq!(
            out,
            "index,op,addr,result\n5,ld.b32,10,00000000\n6,ld.b32,100000010,00000001\n\
             7,atom.shared::cluster.add.u32,10,00000001\n8,ld.global.b32,10,00000000\n"
        );
    }

    #[test]
    fn malformed_rows_name_their_line() {
        assert_eq!(
            go("op,addr,value\nld.b32,0,\nld.b32,0,5\n", 64).unwrap_err(),
            "line 3: ld.b32 takes no value; leave the column empty"
        );
        assert!(
            go("op,addr,value\nst.b32,0,123456789\n", 64)
                .unwrap_err()
                .starts_with("line 2: value: `123456789` is wider than 32 bits")
        );
        assert!(
            go("op,addr,value\nadd.u32.u64,0,1\n", 64)
                .unwrap_err()
                .starts_with("line 2: unknown op `add.u32.u64`: `u64` is a second type")
        );
        assert_eq!(
            go("op,addr,value\nglobal.add.u32,0,1\nred.add.v2.f32,100000000,0\n", 64).unwrap_err(),
            "line 3: v2.f32.add at 100000000: vector red takes global addresses only (PTX), and this one is in \
             shared memory: generic address 100000000 is in the shared window (100000000-1ffffffff); use a global \
             address (below 100000000) or write .global"
        );
        let h = "op,addr,value,cache_policy\n";
        assert!(
            go(&format!("{h}global.add.u32,0,1,5\n"), 64)
                .unwrap_err()
                .contains("cache_policy: global.add.u32 has no .L2::cache_hint")
        );
        assert!(
            go(&format!("{h}global.add.u32,0,1\n"), 64)
                .unwrap_err()
                .contains("expected 4 columns (op,addr,value,cache_policy)")
        );
        assert!(
            go(&format!("{h}global.and.L2::cache_hint.b32,0,1,x\n"), 64)
                .unwrap_err()
                .starts_with("line 2: cache_policy: `x` is not hex")
        );
        assert!(go("op,addr,value\nst.b32,zz,1\n", 64).unwrap_err().starts_with("line 2: addr: `zz` is not hex"));
    }
}
