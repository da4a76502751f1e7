//! `redunit run`: request traces (`op,addr,value`) against a memory engine.

use std::io::{Read, Write};

use sim::{Access, MemError, Memory, Request};

use crate::hex;
use crate::input_error::{Cached, InputError, Parsed, Rows, next_record};

/// The outcome of one request: `Ok(Some(old))` for `ld`/`atom`, `Ok(None)` for `st`/`red`.
pub type Outcome = Result<Option<u128>, MemError>;

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

/// Parses a trace: header `op,addr,value`, then one request per row.
pub fn parse(input: impl Read) -> anyhow::Result<Vec<Request>> {
    parse_prefix(input)?.into_result()
}

/// Parses a trace up to its first bad row; the error when the header is bad.
pub fn parse_prefix(input: impl Read) -> anyhow::Result<Parsed<Request>> {
    Parsed::read(input, "op,addr,value", parse_rows)
}

fn parse_rows<R: Read>(rdr: &mut Rows<R>, rec: &mut csv::ByteRecord, reqs: &mut Vec<Request>) -> anyhow::Result<()> {
    let mut cached = Cached::<Access>::default();
    while next_record(rdr, rec)? {
        let line = rec.position().map_or(0, |p| p.line());
        let bad = |msg: String| -> anyhow::Error { InputError::new(line, msg).into() };
        if rec.len() != 3 {
            return Err(bad(format!("expected 3 columns (op,addr,value), found {}", rec.len())));
        }
        let access = cached.parse(&rec[0], line, "op")?;
        let addr = hex::parse(&rec[1], 64).map_err(|e| bad(format!("addr: {e}")))? as u64;
        let value = if access.has_operand() {
            let bits = access.bytes() as u32 * 8;
            hex::parse(&rec[2], bits)
                .map_err(|e| bad(format!("value: {e} (the operand of {access} is {bits} bits)")))?
        } else if rec[2].is_empty() {
            0
        } else {
            return Err(bad(format!("{access} takes no value; leave the column empty")));
        };
        reqs.push(Request { access, addr, value });
    }
    Ok(())
}

/// Writes the `index,op,addr,result` rows: one per `ld` and `atom`, one per failed request.
pub fn write_results(reqs: &[Request], outcomes: &[Outcome], mut out: impl Write) -> anyhow::Result<()> {
    let mut buf = Vec::with_capacity(64 * reqs.len().min(1 << 16));
    buf.extend_from_slice(b"index,op,addr,result\n");
    for (i, (req, outcome)) in reqs.iter().zip(outcomes).enumerate() {
        let result = match outcome {
            Ok(Some(v)) => hex::format(*v, req.access.bytes() as u32 * 8),
            Ok(None) => continue,
            Err(e) => format!("error:{e}"),
        };
        writeln!(buf, "{i},{},{:x},{result}", req.access, req.addr)?;
        if buf.len() > 1 << 20 {
            out.write_all(&buf)?;
            buf.clear();
        }
    }
    out.write_all(&buf)?;
    out.flush()?;
    Ok(())
}

/// Parses a trace, executes it on `engine` and writes the result rows. On a bad row, the rows
/// before it are executed and written, and the error is an [`InputError`].
pub fn run(input: impl Read, output: impl Write, engine: &mut dyn MemEngine) -> anyhow::Result<usize> {
    let p = parse_prefix(input)?;
    let outcomes = engine.execute(&p.rows)?;
    write_results(&p.rows, &outcomes, output)?;
    let n = p.rows.len();
    p.then(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(trace: &str, mem: usize) -> Result<String, String> {
        let mut out = Vec::new();
        run(trace.as_bytes(), &mut out, &mut Memory::new(mem)).map_err(|e| e.to_string())?;
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
    fn malformed_rows_name_their_line() {
        assert_eq!(go("op,addr,value\nld.b32,0,\nld.b32,0,5\n", 64).unwrap_err(), "line 3: ld.b32 takes no value; leave the column empty");
        assert!(go("op,addr,value\nst.b32,0,123456789\n", 64).unwrap_err().starts_with("line 2: value: `123456789` is wider than 32 bits"));
        assert!(go("op,addr,value\nadd.u32,0,1\n", 64).unwrap_err().starts_with("line 2: unknown op `add.u32`: missing state space"));
        assert!(go("op,addr,value\nst.b32,zz,1\n", 64).unwrap_err().starts_with("line 2: addr: `zz` is not hex"));
    }
}
