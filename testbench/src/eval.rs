//! `redunit eval`: a filter from `form,init,b` rows (or `form,init,b,addr,cache_policy`) to the
//! same columns plus `result` ([`eval`]), or from `redux.sync` rows `form,mask,src0,...,src31`
//! (or with a last column `lane`) to the same columns plus `result` ([`eval_redux`]). The
//! header line says which ([`Format::of_header`]).

use std::io::{Read, Write};

use sim::redux::{LANES, ReduxForm};
use sim::{Form, RedInstr, TraceOp};

use crate::engine::{AluEngine, AluOp};
use crate::hex;
use crate::input_error::{Cached, InputError, check_header_any, csv_reader, next_record};
use crate::redux::{ReduxEngine, ReduxInst};

/// Instructions handed to the engine at a time.
const BATCH: usize = 8192;

struct Pending {
    /// The raw `form,init,b` text of each buffered row, back to back.
    text: Vec<u8>,
    /// Per buffered row: end offset in `text`, instruction index, element index.
    rows: Vec<(usize, u32, u8)>,
    ops: Vec<AluOp>,
    results: Vec<u128>,
    out: Vec<u8>,
}

impl Pending {
    /// Runs the complete instructions through the engine and writes their rows.
    fn flush(&mut self, engine: &mut dyn AluEngine, output: &mut dyn Write) -> anyhow::Result<()> {
        let complete = self.ops.len() as u32;
        let n_rows = self.rows.iter().take_while(|r| r.1 < complete).count();
        self.results.clear();
        engine.execute(&self.ops, &mut self.results)?;
        self.out.clear();
        let mut start = 0;
        for &(end, op, elem) in &self.rows[..n_rows] {
            let form = self.ops[op as usize].form;
            let w = form.elem_bits();
            self.out.extend_from_slice(&self.text[start..end]);
            self.out.push(b',');
            hex::push(&mut self.out, self.results[op as usize] >> (w * elem as u32), w);
            self.out.push(b'\n');
            start = end;
        }
        output.write_all(&self.out)?;
        self.text.drain(..start);
        self.rows.drain(..n_rows);
        for r in &mut self.rows {
            r.0 -= start;
            r.1 -= complete;
        }
        self.ops.clear();
        Ok(())
    }
}

/// The headers of `red` rows: the plain one, and the one with the address (which a generic
/// instruction needs to pick its space) and the cache-policy operand.
pub const RED_HEADERS: [&str; 2] = ["form,init,b", "form,init,b,addr,cache_policy"];

/// The form a row's instruction performs: its own space's, or for a generic instruction the
/// space its `addr` falls in (`sim::spaces::window`). Checks the `cache_policy` operand.
fn row_form(instr: RedInstr, rec: &csv::ByteRecord, line: u64) -> Result<Form, InputError> {
    let bad = |msg: String| InputError::new(line, msg);
    let addr = match rec.get(3) {
        None | Some(b"") => None,
        Some(f) => Some(hex::parse(f, 64).map_err(|e| bad(format!("addr: {e}")))? as u64),
    };
    if let Some(f) = rec.get(4).filter(|f| !f.is_empty()) {
        if !instr.cache_hint {
            return Err(bad(format!(
                "cache_policy: {instr} has no .L2::cache_hint, which the cache-policy operand needs (PTX); leave \
                 the column empty or add the qualifier"
            )));
        }
        hex::parse(f, 64).map_err(|e| bad(format!("cache_policy: {e}")))?;
    }
    if let Some(form) = instr.explicit_form() {
        return Ok(form);
    }
    let Some(a) = addr else {
        return Err(bad(format!(
            "{instr} names no state space (generic addressing), so its address picks global or shared: use the \
             header {} and give addr, or write .global or .shared",
            RED_HEADERS[1]
        )));
    };
    let r = TraceOp::Red(instr).resolve(a, 0).map_err(|e| bad(format!("{instr} at {a:x}: {e}")))?;
    match r.req.access {
        sim::Access::Red(form) => Ok(form),
        _ => unreachable!("a red resolves to a red"),
    }
}

/// Evaluates every row of `input` with `engine` and writes the result rows to `output`.
/// Returns the number of rows. On a bad row, every complete instruction before it has been
/// written and the error is an [`InputError`].
pub fn eval(input: impl Read, mut output: impl Write, engine: &mut dyn AluEngine) -> anyhow::Result<u64> {
    let mut rdr = csv_reader(input);
    let mut rec = csv::ByteRecord::new();
    let header = check_header_any(&mut rdr, &mut rec, &RED_HEADERS)?;
    output.write_all(RED_HEADERS[header].as_bytes())?;
    output.write_all(b",result\n")?;
    let cols = 3 + 2 * header;
    let mut p = Pending {
        text: Vec::new(),
        rows: Vec::new(),
        ops: Vec::with_capacity(BATCH),
        results: Vec::with_capacity(BATCH),
        out: Vec::new(),
    };
    let mut cached = Cached::<RedInstr>::default();
    // The instruction being assembled: form, elements so far, first line.
    let mut group: Option<(AluOp, usize, u64)> = None;
    let mut n = 0u64;
    let mut last_line = 1;
    let result = (|| -> anyhow::Result<()> {
        while next_record(&mut rdr, &mut rec)? {
            let line = rec.position().map_or(last_line + 1, |p| p.line());
            last_line = line;
            if rec.len() != cols {
                return Err(InputError::new(
                    line,
                    format!("expected {cols} columns ({}), found {}", RED_HEADERS[header], rec.len()),
                )
                .into());
            }
            let instr = cached.parse(&rec[0], line, "form")?;
            let form = row_form(instr, &rec, line)?;
            let w = form.elem_bits();
            let field = |i: usize, what: &str| {
                hex::parse(&rec[i], w)
                    .map_err(|e| InputError::new(line, format!("{what}: {e} (the element of {form} is {w} bits)")))
            };
            let (m, b) = (field(1, "init")?, field(2, "b")?);
            let (op, k, first) = match group.take() {
                Some((op, k, first)) if op.form == form => (op, k, first),
                Some((op, k, first)) => {
                    return Err(InputError::new(
                        line,
                        format!(
                            "vector group cut short: {} takes {} rows per instruction, the group \
                             starting at line {first} has {k}",
                            op.form,
                            op.form.vec()
                        ),
                    )
                    .into());
                }
                None => (AluOp { form, old: 0, b: 0 }, 0, line),
            };
            let sh = w * k as u32;
            let op = AluOp { form, old: op.old | m << sh, b: op.b | b << sh };
            p.text.extend_from_slice(&rec[0]);
            for f in rec.iter().skip(1) {
                p.text.push(b',');
                p.text.extend_from_slice(f);
            }
            p.rows.push((p.text.len(), p.ops.len() as u32, k as u8));
            n += 1;
            if k + 1 == form.vec() {
                p.ops.push(op);
                if p.ops.len() >= BATCH {
                    p.flush(engine, &mut output)?;
                }
            } else {
                group = Some((op, k + 1, first));
            }
        }
        if let Some((op, k, first)) = group {
            return Err(InputError::new(
                rdr.lines_read() + 1,
                format!(
                    "input ends inside a vector group: {} takes {} rows per instruction, the group \
                     starting at line {first} has {k}",
                    op.form,
                    op.form.vec()
                ),
            )
            .into());
        }
        Ok(())
    })();
    // Whatever happened, the complete instructions read so far are written.
    p.flush(engine, &mut output)?;
    output.flush()?;
    result.map(|()| n)
}

/// The two input formats of `eval`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `form,init,b`: `red` forms through the reduction ALU.
    Red,
    /// `form,mask,src0,...,src31`: `redux.sync` forms through the redux block.
    Redux,
}

impl Format {
    /// The format a header line announces: a header that starts `form,mask` is a redux
    /// header (checked in full by [`eval_redux`]); anything else goes to [`eval`], which
    /// checks for `form,init,b`.
    pub fn of_header(line: &str) -> Format {
        let l = line.trim_start_matches('\u{feff}').trim_end_matches(['\r', '\n']);
        if l == "form,mask" || l.starts_with("form,mask,") { Format::Redux } else { Format::Red }
    }
}

/// The header of `redux.sync` eval input: `form,mask,src0,...,src31`.
pub fn redux_header() -> String {
    let mut h = String::from("form,mask");
    for i in 0..LANES {
        h.push_str(&format!(",src{i}"));
    }
    h
}

/// Checks a row's membermask against PTX: an empty mask, and a mask without the executing
/// lane (`lane`, when the row names one), are undefined behaviour there.
fn check_mask(mask: u32, lane: Option<&[u8]>, line: u64) -> Result<(), InputError> {
    let bad = |msg: String| InputError::new(line, msg);
    if mask == 0 {
        return Err(bad(
            "mask: an empty membermask leaves redux.sync undefined (PTX: the executing thread must be in \
             membermask); set the bit of every lane that executes it"
                .into(),
        ));
    }
    let Some(field) = lane else { return Ok(()) };
    let text = String::from_utf8_lossy(field);
    let lane: u32 = match text.parse() {
        Ok(l) if l < LANES as u32 && text.bytes().all(|b| b.is_ascii_digit()) => l,
        _ => {
            return Err(bad(format!(
                "lane: `{}` is not a lane number (decimal 0-31)",
                crate::input_error::shown(field)
            )));
        }
    };
    if mask >> lane & 1 == 0 {
        return Err(bad(format!(
            "mask: {mask:08x} excludes the executing lane {lane}, which leaves redux.sync undefined (PTX); set \
             bit {lane} of the mask, or name a lane in it"
        )));
    }
    Ok(())
}

/// Evaluates every `redux.sync` row of `input` (`form,mask,src0,...,src31`, hex, one warp
/// instruction per row, or with a last column `lane`: the executing lane, decimal) with
/// `engine` and writes each row followed by `,result` (8 lowercase hex digits) to `output`.
/// Returns the number of rows. On a bad row, every row before it has been written and the
/// error is an [`InputError`]; a row whose mask is empty or leaves out its `lane` is bad.
pub fn eval_redux(input: impl Read, mut output: impl Write, engine: &mut dyn ReduxEngine) -> anyhow::Result<u64> {
    let plain = redux_header();
    let with_lane = format!("{plain},lane");
    let mut rdr = csv_reader(input);
    let mut rec = csv::ByteRecord::new();
    let which = check_header_any(&mut rdr, &mut rec, &[&plain, &with_lane])?;
    let header = if which == 0 { plain } else { with_lane };
    let cols = LANES + 2 + which;
    output.write_all(header.as_bytes())?;
    output.write_all(b",result\n")?;
    let mut text: Vec<u8> = Vec::new();
    let mut ends: Vec<usize> = Vec::new();
    let mut insts: Vec<ReduxInst> = Vec::with_capacity(BATCH);
    let mut results: Vec<u32> = Vec::with_capacity(BATCH);
    let mut out: Vec<u8> = Vec::new();
    let mut flush = |text: &mut Vec<u8>,
                     ends: &mut Vec<usize>,
                     insts: &mut Vec<ReduxInst>,
                     output: &mut dyn Write|
     -> anyhow::Result<()> {
        results.clear();
        engine.execute(insts, &mut results)?;
        out.clear();
        let mut start = 0;
        for (&end, &r) in ends.iter().zip(&results) {
            out.extend_from_slice(&text[start..end]);
            out.push(b',');
            hex::push(&mut out, r as u128, 32);
            out.push(b'\n');
            start = end;
        }
        output.write_all(&out)?;
        text.clear();
        ends.clear();
        insts.clear();
        Ok(())
    };
    let mut cached = Cached::<ReduxForm>::default();
    let mut n = 0u64;
    let mut last_line = 1;
    let result = (|| -> anyhow::Result<()> {
        while next_record(&mut rdr, &mut rec)? {
            let line = rec.position().map_or(last_line + 1, |p| p.line());
            last_line = line;
            if rec.len() != cols {
                let what = if which == 0 { "form,mask,src0,...,src31" } else { "form,mask,src0,...,src31,lane" };
                return Err(
                    InputError::new(line, format!("expected {cols} columns ({what}), found {}", rec.len())).into()
                );
            }
            let name = &rec[0];
            let form = cached.parse(name, line, "redux form")?;
            let field = |i: usize, what: &str| {
                hex::parse(&rec[i], 32).map(|v| v as u32).map_err(|e| InputError::new(line, format!("{what}: {e}")))
            };
            let mask = field(1, "mask")?;
            check_mask(mask, rec.get(LANES + 2), line)?;
            let mut src = [0u32; LANES];
            for (i, s) in src.iter_mut().enumerate() {
                *s = field(2 + i, &format!("src{i}"))?;
            }
            for (i, f) in rec.iter().enumerate() {
                if i > 0 {
                    text.push(b',');
                }
                text.extend_from_slice(f);
            }
            ends.push(text.len());
            insts.push(ReduxInst { form, mask, src });
            n += 1;
            if insts.len() >= BATCH {
                flush(&mut text, &mut ends, &mut insts, &mut output)?;
            }
        }
        Ok(())
    })();
    // Whatever happened, the rows read so far are written.
    flush(&mut text, &mut ends, &mut insts, &mut output)?;
    output.flush()?;
    result.map(|()| n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ModelAlu;
    use crate::redux::ModelRedux;

    fn redux_row(form: &str, mask: &str, src: &[&str]) -> String {
        let mut r = format!("{form},{mask}");
        for i in 0..LANES {
            r.push(',');
            r.push_str(src.get(i).copied().unwrap_or("0"));
        }
        r
    }

    fn run_redux(input: &str) -> (String, Result<u64, String>) {
        let mut out = Vec::new();
        let r = eval_redux(input.as_bytes(), &mut out, &mut ModelRedux).map_err(|e| e.to_string());
        (String::from_utf8(out).unwrap(), r)
    }

    #[test]
    fn redux_rows_get_their_result() {
        let h = redux_header();
        let a = redux_row("redux.sync.add.u32", "3", &["ffffffff", "2", "7"]);
        let b = redux_row("redux.sync.min.abs.NaN.f32", "FFFFFFFF", &["BF800000", "40000000"]);
        let c = redux_row("redux.sync.min.s32", "6", &["0", "ffffffff", "80000000"]);
        let (out, r) = run_redux(&format!("{h}\n{a}\n{b}\n{c}\n"));
        assert_eq!(r, Ok(3));
        assert_eq!(out, format!("{h},result\n{a},00000001\n{b},00000000\n{c},80000000\n"));
        assert_eq!(Format::of_header(&format!("{h}\r\n")), Format::Redux);
        assert_eq!(Format::of_header("form,init,b\n"), Format::Red);
        assert_eq!(Format::of_header("init,b"), Format::Red);
    }

    #[test]
    fn bad_redux_rows_name_their_line() {
        let h = redux_header();
        let good = redux_row("redux.sync.xor.b32", "1", &["5"]);
        let (out, r) = run_redux(&format!("{h}\n{good}\n{}\n", redux_row("redux.sync.add.f32", "1", &[])));
        assert_eq!(
            r.unwrap_err(),
            "line 3: unknown redux form `redux.sync.add.f32`: redux.sync.add takes u32 and s32 (f32 takes min and max only)"
        );
        assert_eq!(out, format!("{h},result\n{good},00000005\n"));
        let (_, r) = run_redux(&format!("{h}\n{}\n", redux_row("redux.sync.or.b32", "100000000", &[])));
        assert_eq!(r.unwrap_err(), "line 2: mask: `100000000` is wider than 32 bits");
        let (_, r) = run_redux(&format!("{h}\n{}\n", redux_row("redux.sync.or.b32", "1", &["0", "0", "x"])));
        assert_eq!(r.unwrap_err(), "line 2: src2: `x` is not hex (digits 0-9a-f, no 0x prefix)");
        let (_, r) = run_redux(&format!("{h}\nredux.sync.or.b32,1,2\n"));
        assert_eq!(r.unwrap_err(), "line 2: expected 34 columns (form,mask,src0,...,src31), found 3");
        let (_, r) = run_redux("form,mask,src0\n");
        assert!(r.unwrap_err().starts_with("line 1: expected the header `form,mask,src0,src1,"));
    }

    #[test]
    fn redux_rows_need_a_mask_with_the_executing_lane() {
        let h = redux_header();
        let (out, r) = run_redux(&format!("{h}\n{}\n", redux_row("redux.sync.add.u32", "0", &["1"])));
        assert!(r.unwrap_err().starts_with("line 2: mask: an empty membermask leaves redux.sync undefined"));
        assert_eq!(out, format!("{h},result\n"));
        let ok = redux_row("redux.sync.add.u32", "6", &["1", "2", "3"]) + ",2";
        let (out, r) = run_redux(&format!("{h},lane\n{ok}\n{}\n", redux_row("redux.sync.add.u32", "6", &[]) + ",0"));
        assert_eq!(
            r.unwrap_err(),
            "line 3: mask: 00000006 excludes the executing lane 0, which leaves redux.sync undefined (PTX); set bit 0 \
             of the mask, or name a lane in it"
        );
        assert_eq!(out, format!("{h},lane,result\n{ok},00000005\n"));
        let (_, r) = run_redux(&format!("{h},lane\n{}\n", redux_row("redux.sync.add.u32", "6", &[]) + ",32"));
        assert!(r.unwrap_err().contains("lane: `32` is not a lane number"));
        let (_, r) = run_redux(&format!("{h},lane\n{}\n", redux_row("redux.sync.add.u32", "6", &[])));
        assert!(r.unwrap_err().contains("expected 35 columns (form,mask,src0,...,src31,lane)"));
    }

    #[test]
    fn instructions_with_qualifiers_and_generic_addresses() {
        let h = "form,init,b,addr,cache_policy";
        // 1 (a subnormal) + 0: generic 10 is global (flushed), generic 100000010 is shared (kept).
        let rows = "red.relaxed.gpu.add.f32,1,0,10,\nred.release.sys.add.f32,1,0,100000010,\n\
                    red.global.and.L2::cache_hint.b32,6,3,,ffff\nred.cta.shared::cluster.add.f32,1,0,,\n";
        let (out, r) = run(&format!("{h}\n{rows}"));
        assert_eq!(r, Ok(4));
        let want: Vec<String> = rows
            .lines()
            .zip(["00000000", "00000001", "00000002", "00000001"])
            .map(|(l, r)| format!("{l},{r}\n"))
            .collect();
        assert_eq!(out, format!("{h},result\n{}", want.concat()));
        let (_, r) = run("form,init,b\nred.add.f32,1,0\n");
        assert!(r.unwrap_err().starts_with("line 2: add.f32 names no state space (generic addressing)"));
        let (_, r) = run(&format!("{h}\nred.add.noftz.v2.f16,1,0,100000000,\n"));
        assert!(r.unwrap_err().contains("vector red takes global addresses only"));
        let (_, r) = run(&format!("{h}\nred.global.add.u32,1,0,,5\n"));
        assert!(r.unwrap_err().contains("cache_policy: global.add.u32 has no .L2::cache_hint"));
        let (_, r) = run("form,init,b\nred.global.add.noftz.noftz.f16,1,0\n");
        assert!(r.unwrap_err().contains("`.noftz` appears twice"));
    }

    fn run(input: &str) -> (String, Result<u64, String>) {
        let mut out = Vec::new();
        let r = eval(input.as_bytes(), &mut out, &mut ModelAlu).map_err(|e| e.to_string());
        (String::from_utf8(out).unwrap(), r)
    }

    #[test]
    fn echoes_rows_and_appends_padded_results() {
        let (out, r) = run(
            "form,init,b\nglobal.add.f32,3F800000,3f800000\nglobal.add.noftz.f16,3c00,0\nglobal.v2.f16.min.noftz,1,8000\nglobal.v2.f16.min.noftz,3c00,0\n",
        );
        assert_eq!(r, Ok(4));
        assert_eq!(
            out,
            "form,init,b,result\nglobal.add.f32,3F800000,3f800000,40000000\nglobal.add.noftz.f16,3c00,0,3c00\n\
             global.v2.f16.min.noftz,1,8000,8000\nglobal.v2.f16.min.noftz,3c00,0,0000\n"
        );
    }

    #[test]
    fn bad_rows_name_their_line_and_keep_earlier_output() {
        let (out, r) = run("form,init,b\nglobal.add.u32,1,2\nglobal.add.s64,1,2\n");
        assert_eq!(
            r.unwrap_err(),
            "line 3: unknown form `global.add.s64`: red.add takes u32, s32, u64, f32, f64 (and .noftz f16/bf16/f16x2/bf16x2)"
        );
        assert_eq!(out, "form,init,b,result\nglobal.add.u32,1,2,00000003\n");
        let (_, r) = run("form,init,b\nglobal.add.noftz.f16,10000,0\n");
        assert!(r.unwrap_err().starts_with("line 2: init: `10000` is wider than 16 bits"));
        let (_, r) = run("form,init,b\nglobal.add.u32,1\n");
        assert_eq!(r.unwrap_err(), "line 2: expected 3 columns (form,init,b), found 2");
        let (out, r) = run("form,init,b\nglobal.v4.f32.add,1,2\nglobal.v4.f32.add,1,2\nglobal.add.u32,1,2\n");
        assert_eq!(
            r.unwrap_err(),
            "line 4: vector group cut short: global.v4.f32.add takes 4 rows per instruction, the group starting at line 2 has 2"
        );
        assert_eq!(out, "form,init,b,result\n");
        let (_, r) = run("form,init,b\nglobal.v2.f32.add,1,2\n");
        assert!(r.unwrap_err().starts_with("line 3: input ends inside a vector group"));
        let (_, r) = run("form,init\n");
        assert_eq!(r.unwrap_err(), "line 1: expected the header `form,init,b`, found `form,init`");
    }
}
