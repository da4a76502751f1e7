//! `redunit eval`: a filter from `form,init,b` rows to `form,init,b,result` rows.

use std::io::{Read, Write};

use sim::Form;

use crate::engine::{AluEngine, AluOp};
use crate::hex;
use crate::input_error::{InputError, check_header, csv_reader, next_record};

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

/// Evaluates every row of `input` with `engine` and writes the result rows to `output`.
/// Returns the number of rows. On a bad row, every complete instruction before it has been
/// written and the error is an [`InputError`].
pub fn eval(input: impl Read, mut output: impl Write, engine: &mut dyn AluEngine) -> anyhow::Result<u64> {
    let mut rdr = csv_reader(input);
    let mut rec = csv::ByteRecord::new();
    check_header(&mut rdr, &mut rec, "form,init,b")?;
    output.write_all(b"form,init,b,result\n")?;
    let mut p = Pending {
        text: Vec::new(),
        rows: Vec::new(),
        ops: Vec::with_capacity(BATCH),
        results: Vec::with_capacity(BATCH),
        out: Vec::new(),
    };
    let mut cached: Option<(Vec<u8>, Form)> = None;
    // The instruction being assembled: form, elements so far, first line.
    let mut group: Option<(AluOp, usize, u64)> = None;
    let mut n = 0u64;
    let mut last_line = 1;
    let result = (|| -> anyhow::Result<()> {
        while next_record(&mut rdr, &mut rec)? {
            let line = rec.position().map_or(last_line + 1, |p| p.line());
            last_line = line;
            if rec.len() != 3 {
                return Err(InputError::new(line, format!("expected 3 columns (form,init,b), found {}", rec.len())).into());
            }
            let name = &rec[0];
            let form = match &cached {
                Some((bytes, f)) if bytes.as_slice() == name => *f,
                _ => {
                    let s = std::str::from_utf8(name).unwrap_or("");
                    let f: Form = s
                        .parse()
                        .map_err(|e| InputError::new(line, format!("unknown form `{s}`: {e}")))?;
                    cached = Some((name.to_vec(), f));
                    f
                }
            };
            let w = form.elem_bits();
            let field = |i: usize, what: &str| {
                hex::parse(&rec[i], w).map_err(|e| {
                    InputError::new(line, format!("{what}: {e} (the element of {form} is {w} bits)"))
                })
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
            for f in [&rec[1], &rec[2]] {
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
                last_line + 1,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ModelAlu;

    fn run(input: &str) -> (String, Result<u64, String>) {
        let mut out = Vec::new();
        let r = eval(input.as_bytes(), &mut out, &mut ModelAlu).map_err(|e| e.to_string());
        (String::from_utf8(out).unwrap(), r)
    }

    #[test]
    fn echoes_rows_and_appends_padded_results() {
        let (out, r) = run("form,init,b\nglobal.add.f32,3F800000,3f800000\nglobal.add.noftz.f16,3c00,0\nglobal.v2.f16.min.noftz,1,8000\nglobal.v2.f16.min.noftz,3c00,0\n");
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
        assert_eq!(r.unwrap_err(), "line 3: unknown form `global.add.s64`: red.add takes u32, s32, u64, f32, f64 (and .noftz f16/bf16/f16x2/bf16x2)");
        assert_eq!(out, "form,init,b,result\nglobal.add.u32,1,2,00000003\n");
        let (_, r) = run("form,init,b\nglobal.add.noftz.f16,10000,0\n");
        assert!(r.unwrap_err().starts_with("line 2: init: `10000` is wider than 16 bits"));
        let (_, r) = run("form,init,b\nglobal.add.u32,1\n");
        assert_eq!(r.unwrap_err(), "line 2: expected 3 columns (form,init,b), found 2");
        let (out, r) = run("form,init,b\nglobal.v4.f32.add,1,2\nglobal.v4.f32.add,1,2\nglobal.add.u32,1,2\n");
        assert_eq!(r.unwrap_err(), "line 4: vector group cut short: global.v4.f32.add takes 4 rows per instruction, the group starting at line 2 has 2");
        assert_eq!(out, "form,init,b,result\n");
        let (_, r) = run("form,init,b\nglobal.v2.f32.add,1,2\n");
        assert!(r.unwrap_err().starts_with("line 3: input ends inside a vector group"));
        let (_, r) = run("form,init\n");
        assert_eq!(r.unwrap_err(), "line 1: expected the header `form,init,b`, found `form,init`");
    }
}
