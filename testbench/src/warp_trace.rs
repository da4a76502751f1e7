//! Warp traces of `redunit run` (`RED` of a whole warp): parsing, both engines, the rows.
//!
//! # Rows
//! Header `op,mask,addr0,value0,...,addr31,value31` (66 columns), or the same with one more
//! column, `imm` (67): one warp instruction per row.
//! - `op`: a global PTX `red` form (`global.add.u32`, `red.` prefix allowed), or a SASS
//!   opcode as seed `004` writes it, `RED{.E}.op{.sz}` ([`sim::sass`]: `RED.E.MIN.U32`,
//!   `RED.ADD.F16x2.RN`). `atom`, `ld`, `st` are refused (SASS `RED` is a reduction), and so
//!   are shared forms: "A RED instruction must address global memory".
//! - `mask`: the active lanes. `addrN`: lane N's register `Ra` (hex; at most 32 bits, or with
//!   `.E` the 64-bit register pair `(R[a],R[a+1])`). `valueN`: its operand `Rb`.
//! - `imm`: the instruction's `ImmS20`, signed hex (`-190`, `1234`; empty: 0).
//!
//! Lane N's address is [`sim::sass::address`]: `Ra + ImmS20` wrapped at 32 bits (then
//! zero-extended), with `.E` at 64 bits. An active lane whose address falls in the shared
//! window of the generic address space ([`sim::spaces::SHARED_WINDOW_BASE`], 2^32 to
//! 2^33 - 1) is a bad row: RED addresses global memory, and on the GPU that lane is an
//! invalid address space error. Any other address is global; one outside the memory fails
//! `out-of-range` (a lane at or above 2^32 always does: the memory is at most 4 GiB).
//!
//! Output: `index,op,mask,lines,requests,misaligned,out_of_range`, `op` the row's op in its
//! canonical spelling (a PTX form's name, or `RED{.E}.OP.SZ`).

use std::io::{Read, Write};

use anyhow::bail;
use sim::sass::{self, SassRed};
use sim::spaces::{SHARED_WINDOW_BASE, SHARED_WINDOW_BYTES};
use sim::warp::{WarpOutcome, WideWarpInst};
use sim::{Access, Form, Memory, Space};

use crate::hex;
use crate::input_error::{Cached, InputError, Parsed, Rows, next_record};
use crate::warp::{Item, ItemResult, RtlWarp, WarpResult, header};

/// The op of a warp row as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WarpOp {
    /// A PTX `red` form (global; 32-bit lane addresses).
    Ptx(Form),
    /// A SASS `RED` opcode; its form is [`SassRed::form`].
    Sass(SassRed),
}

impl WarpOp {
    /// Whether lane registers are 64-bit register pairs (`.E`).
    pub fn extended(self) -> bool {
        matches!(self, WarpOp::Sass(s) if s.extended)
    }
}

impl std::fmt::Display for WarpOp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WarpOp::Ptx(form) => write!(f, "{form}"),
            WarpOp::Sass(s) => write!(f, "{s}"),
        }
    }
}

/// One warp row: its op, its immediate offset, and the instruction at the lanes' addresses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WarpRow {
    pub op: WarpOp,
    pub imm: i32,
    pub inst: WideWarpInst,
}

/// The header with the immediate-offset column.
pub fn header_imm() -> String {
    header() + ",imm"
}

/// Parses a warp trace up to its first bad row; the error when the header is bad.
pub fn parse_prefix(input: impl Read) -> anyhow::Result<Parsed<WarpRow>> {
    Parsed::read_any(input, &[&header(), &header_imm()], parse_rows)
}

/// Parses a warp trace.
pub fn parse(input: impl Read) -> anyhow::Result<Vec<WarpRow>> {
    parse_prefix(input)?.into_result()
}

fn parse_op(field: &[u8], ptx: &mut Cached<Access>, line: u64) -> Result<WarpOp, InputError> {
    let bad = |msg: String| InputError::new(line, msg);
    if field.starts_with(b"RED") {
        let s = String::from_utf8_lossy(field);
        let r: SassRed = s.parse().map_err(|e: sim::FormError| bad(format!("unknown op `{s}`: {e}")))?;
        r.form().map_err(|e| bad(format!("`{s}` is refused: {e}")))?;
        return Ok(WarpOp::Sass(r));
    }
    match ptx.parse(field, line, "op")? {
        Access::Red(f) if f.space() == Space::Global => Ok(WarpOp::Ptx(f)),
        Access::Red(f) => {
            let global: Form = f.to_string().replacen("shared.", "global.", 1).parse().unwrap();
            Err(bad(format!(
                "`{f}`: RED addresses global memory (seed 004: \"A RED instruction must address global memory\"); a \
                 shared-memory reduction is not a SASS RED; write {global}"
            )))
        }
        a => Err(bad(format!("`{a}`: a warp row is a `red` form (SASS RED), e.g. global.add.u32"))),
    }
}

fn parse_rows<R: Read>(
    rdr: &mut Rows<R>,
    rec: &mut csv::ByteRecord,
    out: &mut Vec<WarpRow>,
    which: usize,
) -> anyhow::Result<()> {
    let mut cached = Cached::<Access>::default();
    let cols = 66 + which;
    while next_record(rdr, rec)? {
        let line = rec.position().map_or(0, |p| p.line());
        let bad = |msg: String| -> anyhow::Error { InputError::new(line, msg).into() };
        if rec.len() != cols {
            let h = if which == 0 {
                "op,mask,addr0,value0,...,addr31,value31"
            } else {
                "op,mask,addr0,value0,...,addr31,value31,imm"
            };
            return Err(bad(format!("expected {cols} columns ({h}), found {}", rec.len())));
        }
        let op = parse_op(&rec[0], &mut cached, line)?;
        let form = match op {
            WarpOp::Ptx(f) => f,
            WarpOp::Sass(s) => s.form()?,
        };
        let active = hex::parse(&rec[1], 32).map_err(|e| bad(format!("mask: {e}")))? as u32;
        let imm = match rec.get(66) {
            Some(f) => sass::parse_imm(&String::from_utf8_lossy(f)).map_err(|e| bad(format!("imm: {e}")))?,
            None => 0,
        };
        let (reg_bits, hint) = match op {
            WarpOp::Ptx(_) => (32, "lane addresses are 32-bit"),
            WarpOp::Sass(s) if !s.extended => {
                (32, "lane addresses are 32-bit without .E: write RED.E.… for a 64-bit register pair")
            }
            WarpOp::Sass(_) => (64, "a .E lane address is a 64-bit register pair"),
        };
        let mut w = WideWarpInst { form, active, addrs: [0; 32], operands: [0; 32] };
        let bits = form.bytes() as u32 * 8;
        for i in 0..32 {
            let (a, v) = (&rec[2 + 2 * i], &rec[3 + 2 * i]);
            if active >> i & 1 == 0 && a.is_empty() && v.is_empty() {
                continue;
            }
            let reg = hex::parse(a, reg_bits).map_err(|e| bad(format!("addr{i}: {e} ({hint})")))? as u64;
            w.addrs[i] = sass::address(op.extended(), reg, imm);
            w.operands[i] =
                hex::parse(v, bits).map_err(|e| bad(format!("value{i}: {e} (the operand of {op} is {bits} bits)")))?;
            let a = w.addrs[i];
            if active >> i & 1 != 0 && (SHARED_WINDOW_BASE..SHARED_WINDOW_BASE + SHARED_WINDOW_BYTES).contains(&a) {
                return Err(bad(format!(
                    "lane {i}: address {a:x} is in the shared window of the generic address space ({SHARED_WINDOW_BASE:x}-{:x}): \
                     RED must address global memory (an invalid address space error on the GPU); use a global address",
                    SHARED_WINDOW_BASE + SHARED_WINDOW_BYTES - 1
                )));
            }
        }
        out.push(WarpRow { op, imm, inst: w });
    }
    Ok(())
}

/// Writes the `index,op,mask,lines,requests,misaligned,out_of_range` rows.
pub fn write_results(rows: &[WarpRow], results: &[WarpResult], mut out: impl Write) -> anyhow::Result<()> {
    writeln!(out, "index,op,mask,lines,requests,misaligned,out_of_range")?;
    for (i, (w, r)) in rows.iter().zip(results).enumerate() {
        writeln!(
            out,
            "{i},{},{:08x},{},{},{:08x},{:08x}",
            w.op, w.inst.active, r.lines, r.requests, r.outcome.misaligned, r.outcome.out_of_range
        )?;
    }
    out.flush()?;
    Ok(())
}

/// The golden model: lane order on `mem`, requests as [`sim::warp::coalesce`] makes them.
pub fn execute_model(mem: &mut Memory, rows: &[WarpRow]) -> Vec<WarpResult> {
    rows.iter()
        .map(|r| WarpResult {
            lines: r.inst.line_accesses(),
            requests: r.inst.requests_of(!0),
            outcome: mem.execute_wide_warp(&r.inst),
        })
        .collect()
}

/// The Verilated warp unit: each instruction's lanes below 2^32 go to the unit (its port has
/// 32 address bits); the testbench answers the lanes at or above 2^32 as the memory contract
/// says (`misaligned`, else `out-of-range`) and counts the requests the coalescer would make
/// of them (never in a sector with a lower lane, so the count adds).
pub fn execute_rtl(rtl: &mut RtlWarp, rows: &[WarpRow]) -> anyhow::Result<Vec<WarpResult>> {
    let parts: Vec<_> = rows.iter().map(|r| r.inst.split()).collect();
    // An instruction with lanes only above the port sends nothing (one without any active
    // lane is still sent, as before addresses were wide).
    let sent: Vec<usize> = (0..rows.len()).filter(|&k| parts[k].0.active != 0 || parts[k].1 == 0).collect();
    let items: Vec<Item> = sent.iter().map(|&k| Item::Warp(parts[k].0)).collect();
    let (res, _) = rtl.run(&items)?;
    let mut got = vec![(0usize, WarpOutcome::default()); rows.len()];
    for (&k, r) in sent.iter().zip(res) {
        match r {
            ItemResult::Warp { requests, outcome } => got[k] = (requests, outcome),
            ItemResult::Plain(_) => bail!("the warp unit answered a warp instruction as a plain request"),
        }
    }
    Ok(rows
        .iter()
        .zip(parts)
        .zip(got)
        .map(|((row, (_, high)), (requests, outcome))| {
            let o = row.inst.outside(high);
            WarpResult {
                lines: row.inst.line_accesses(),
                requests: requests + row.inst.requests_of(high),
                outcome: WarpOutcome {
                    misaligned: outcome.misaligned | o.misaligned,
                    out_of_range: outcome.out_of_range | o.out_of_range,
                },
            }
        })
        .collect())
}

/// Parses a warp trace, executes it and writes the rows (`redunit run` on a warp trace); with
/// `dump`, then writes the memory to it ([`crate::mem_dump`]). On a bad row, the rows before it
/// are executed and written (and the memory after them dumped), and the error is an
/// [`InputError`].
pub fn run_trace_dump(
    input: impl Read,
    output: impl Write,
    rtl: bool,
    mem_bytes: usize,
    dump: Option<&mut dyn Write>,
) -> anyhow::Result<usize> {
    let parsed = parse_prefix(input)?;
    let rows = &parsed.rows;
    let (results, mem) = if rtl {
        if mem_bytes != RtlWarp::MEM_BYTES {
            bail!(
                "--engine rtl runs warp traces on the built warp unit of {} bytes; --mem-bytes {mem_bytes} is \
                 available with --engine model only",
                RtlWarp::MEM_BYTES
            );
        }
        let mut unit = RtlWarp::new();
        let results = execute_rtl(&mut unit, rows)?;
        let mem = if dump.is_some() { unit.read_memory(RtlWarp::MEM_BYTES)? } else { Vec::new() };
        (results, mem)
    } else {
        let mut m = Memory::new(mem_bytes);
        let results = execute_model(&mut m, rows);
        (results, if dump.is_some() { m.bytes().to_vec() } else { Vec::new() })
    };
    write_results(rows, &results, output)?;
    if let Some(d) = dump {
        crate::mem_dump::write(d, &[(Space::Global, &mem)])?;
    }
    let n = rows.len();
    parsed.then(n)
}

/// [`run_trace_dump`] without a dump.
pub fn run_trace(input: impl Read, output: impl Write, rtl: bool, mem_bytes: usize) -> anyhow::Result<usize> {
    run_trace_dump(input, output, rtl, mem_bytes, None)
}

/// The SASS opcodes (without `.E`) that perform `form`.
fn sass_spellings(form: Form) -> Vec<SassRed> {
    let mut out = Vec::new();
    for op in sim::sass::SASS_OPS {
        for &size in sim::sass::table_sizes(op) {
            let r = SassRed { extended: false, op, size };
            if r.form().ok() == Some(form) {
                out.push(r);
            }
        }
    }
    out
}

/// A seeded random warp trace (header with `imm`) of `n` rows over the first 4,096 bytes:
/// the instructions of [`crate::warp::random_insts`] (same-address conflicts, partial masks,
/// misaligned and out-of-range lanes) in global space, written as PTX forms or SASS opcodes,
/// with random immediate offsets (the registers written so that register + offset is the
/// lane's address), and `.E` rows whose lanes reach past 2^32: beyond the shared window
/// (`200000000` and up) and far above it, all outside the memory.
pub fn random_trace(seed: u64, n: usize) -> String {
    let mut s = seed ^ 0x5a55_0e64;
    let mut r = move || sim::splitmix64_next(&mut s);
    let mut t = header_imm() + "\n";
    for w in crate::warp::random_insts(seed, n, 4096) {
        let form: Form = w.form.to_string().replacen("shared.", "global.", 1).parse().unwrap();
        let spellings = sass_spellings(form);
        let sass = (!spellings.is_empty() && r() % 3 != 0).then(|| spellings[r() as usize % spellings.len()]);
        let extended = sass.is_some() && r() % 2 == 0;
        let op = match sass {
            Some(s) => SassRed { extended, ..s }.to_string(),
            None => form.to_string(),
        };
        let imm: i64 = match r() % 3 {
            0 => 0,
            1 => (r() % 0x200) as i64 - 0x100,
            _ => (r() % (1 << 20)) as i64 + sim::sass::IMM_MIN as i64,
        };
        let m = if form.bytes() >= 16 { u128::MAX } else { (1u128 << (8 * form.bytes())) - 1 };
        let mut row = format!("{op},{:x}", w.active);
        for i in 0..32 {
            let mut addr = w.addrs[i] as u64;
            if extended && r() % 4 == 0 {
                addr += [2u64 << 32, 1 << 40, 0xffff_0000_0000_0000][r() as usize % 3];
            }
            let reg =
                if extended { addr.wrapping_sub(imm as u64) } else { (addr as u32).wrapping_sub(imm as u32) as u64 };
            if w.active >> i & 1 == 0 && r() % 2 == 0 {
                row.push_str(",,");
            } else {
                row.push_str(&format!(",{reg:x},{:x}", w.operands[i] & m));
            }
        }
        let sign = if imm < 0 { "-" } else { "" };
        t += &format!("{row},{sign}{:x}\n", imm.unsigned_abs());
    }
    t
}

/// The outcome of [`random_check`].
pub struct SassCheck {
    pub rows: usize,
    /// Rows with `.E` (64-bit lane registers), with a non-zero `ImmS20`, and `.E` rows with an
    /// active lane at or above 2^32.
    pub extended: usize,
    pub offset: usize,
    pub wide_lanes: usize,
    pub unit_requests: usize,
    /// One line per row whose result differs between the model and the RTL (at most 20), and
    /// one if the memory read back differs.
    pub mismatches: Vec<String>,
}

/// `n` rows of [`random_trace`] through the model and the Verilated warp unit: every row's
/// result (line accesses, requests, failed lanes), then the memory read back.
pub fn random_check(seed: u64, n: usize) -> anyhow::Result<SassCheck> {
    let text = random_trace(seed, n);
    let rows = parse(text.as_bytes())?;
    let mut model = Memory::new(RtlWarp::MEM_BYTES);
    let want = execute_model(&mut model, &rows);
    let mut unit = RtlWarp::new();
    let got = execute_rtl(&mut unit, &rows)?;
    let mut c =
        SassCheck { rows: rows.len(), extended: 0, offset: 0, wide_lanes: 0, unit_requests: 0, mismatches: Vec::new() };
    for (i, (row, (w, g))) in rows.iter().zip(want.iter().zip(&got)).enumerate() {
        c.extended += row.op.extended() as usize;
        c.offset += (row.imm != 0) as usize;
        c.wide_lanes += (0..32).any(|l| row.inst.active >> l & 1 == 1 && row.inst.addrs[l] >> 32 != 0) as usize;
        c.unit_requests += g.requests;
        if w != g && c.mismatches.len() < 20 {
            c.mismatches.push(format!("row {i} ({} imm {:x}): RTL {g:?}, model {w:?}", row.op, row.imm));
        }
    }
    if unit.read_memory(RtlWarp::MEM_BYTES)? != model.bytes() {
        c.mismatches.push("the memory read back from the warp unit differs from the model's".into());
    }
    Ok(c)
}
