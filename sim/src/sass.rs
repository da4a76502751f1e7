//! SASS `RED` as the seed text (`004`, "RED : Reduction Operation on generic Memory") writes
//! it: `RED{.E}.op{.sz} [Ra + ImmS20], Rb`, the [`Form`] each op/size combination performs,
//! and the lane address it computes.
//!
//! # Spelling ([`SassRed`])
//! `RED`, then `.E` (64-bit addresses from a register pair), the op (`ADD MIN MAX INC DEC AND
//! OR XOR`) and the size, whose tokens the seed writes in upper case (`.F16x2` with a lower
//! `x`); tokens after `RED` are matched ignoring case. The size is one of the `.sz` list —
//! `.U32` (the default, marked `*`; `.32` is an alias), `.S32`, `.U64` (`.64` an alias),
//! `.S64` (the list writes it without its dot), `.F32.FTZ.RN`, `.F16x2.FTZ.RN` — or one the
//! operations table adds, `.F16x2.RN` and `.F64.RN`. Each op takes the sizes of its row of
//! the operations table; [`SassRed::form`] says which PTX form performs it, or why none does:
//!
//! | op | sizes (table) | form |
//! | --- | --- | --- |
//! | ADD | U32 S32 U64 F32.FTZ.RN F16x2.RN F64.RN | `global.add.{u32,s32,u64,f32}`, `global.add.noftz.f16x2`, `global.add.f64` |
//! | MIN, MAX | U32 S32 U64 S64 F16x2.RN | `global.min.{u32,s32,u64,s64}`; F16x2: `global.v2.f16.min.noftz` (two f16 lanes of one 32-bit word) |
//! | INC, DEC | U32 | `global.inc.u32` |
//! | AND, OR, XOR | U32 S32 U64 | `global.and.b32` (U32 and S32: the same bits), `global.and.b64` |
//!
//! `.F16x2.FTZ.RN` (the `.sz` list's spelling) is refused: the operations table writes the
//! f16x2 forms `.F16x2.RN`, and no PTX `red` flushes f16x2 (its f16 adds require `.noftz`).
//! Global `f32` add flushes subnormals (`global.add.f32`), which is `.F32.FTZ.RN`.
//!
//! # Address ([`address`])
//! "The generic byte address is computed as the 32-bit addition of register Ra plus the
//! signed immediate offset ImmS20, which is then zero-extended to 40-bits. If the .E extension
//! is specified, the generic byte address is computed as the sum of the 64-bit value
//! (R[a],R[a+1]) plus the sign-extended immediate offset ImmS20." Without `.E` the sum wraps
//! at 2^32; with `.E` at 2^64.

use std::fmt;
use std::str::FromStr;

use crate::form::{Form, FormError, Op};

/// The size qualifier of `RED`, as the seed's `.sz` list and operations table name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SassSize {
    U32,
    S32,
    U64,
    S64,
    F32FtzRn,
    F16x2FtzRn,
    F16x2Rn,
    F64Rn,
}

impl SassSize {
    /// The canonical spelling (without the leading dot).
    pub fn name(self) -> &'static str {
        match self {
            SassSize::U32 => "U32",
            SassSize::S32 => "S32",
            SassSize::U64 => "U64",
            SassSize::S64 => "S64",
            SassSize::F32FtzRn => "F32.FTZ.RN",
            SassSize::F16x2FtzRn => "F16x2.FTZ.RN",
            SassSize::F16x2Rn => "F16x2.RN",
            SassSize::F64Rn => "F64.RN",
        }
    }

    /// Every size, in the `.sz` list's order and then the operations table's additions.
    pub const ALL: [SassSize; 8] = [
        SassSize::U32,
        SassSize::S32,
        SassSize::U64,
        SassSize::S64,
        SassSize::F32FtzRn,
        SassSize::F16x2FtzRn,
        SassSize::F16x2Rn,
        SassSize::F64Rn,
    ];

    /// Parses the size tokens after the op (joined with dots; empty: the default `.U32`).
    fn parse(tokens: &str) -> Result<SassSize, FormError> {
        let t = tokens.to_ascii_uppercase();
        Ok(match t.as_str() {
            "" | "U32" | "32" => SassSize::U32,
            "S32" => SassSize::S32,
            "U64" | "64" => SassSize::U64,
            "S64" => SassSize::S64,
            "F32.FTZ.RN" => SassSize::F32FtzRn,
            "F16X2.FTZ.RN" => SassSize::F16x2FtzRn,
            "F16X2.RN" => SassSize::F16x2Rn,
            "F64.RN" => SassSize::F64Rn,
            _ => {
                let hint = match t.split('.').next().unwrap_or("") {
                    "F32" => " (global f32 adds flush subnormals: write .F32.FTZ.RN)",
                    "F16X2" => " (write .F16x2.RN)",
                    "F64" => " (write .F64.RN)",
                    _ => "",
                };
                return Err(FormError(format!(
                    "unknown size `.{tokens}`{hint}: RED's sizes are .U32 (the default; .32 is an alias), .S32, .U64 (.64), \
                     .S64, .F32.FTZ.RN, .F16x2.FTZ.RN, and in the operations table .F16x2.RN and .F64.RN"
                )));
            }
        })
    }
}

/// A SASS `RED` instruction's opcode as written: `.E`, the op and the size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SassRed {
    /// `.E`: the address is a 64-bit register pair.
    pub extended: bool,
    pub op: Op,
    pub size: SassSize,
}

/// The ops in the operations table's order.
pub const SASS_OPS: [Op; 8] = [Op::Add, Op::Min, Op::Max, Op::Inc, Op::Dec, Op::And, Op::Or, Op::Xor];

/// The sizes of `op`'s row of the operations table.
pub fn table_sizes(op: Op) -> &'static [SassSize] {
    use SassSize::*;
    match op {
        Op::Add => &[U32, S32, U64, F32FtzRn, F16x2Rn, F64Rn],
        Op::Min | Op::Max => &[U32, S32, U64, S64, F16x2Rn],
        Op::Inc | Op::Dec => &[U32],
        Op::And | Op::Or | Op::Xor => &[U32, S32, U64],
    }
}

fn op_name(op: Op) -> String {
    op.name().to_ascii_uppercase()
}

impl SassRed {
    /// The PTX form that performs the instruction, or why there is none (see the module doc).
    pub fn form(self) -> Result<Form, FormError> {
        use SassSize::*;
        let op = self.op;
        let name = match (op, self.size) {
            (_, F16x2FtzRn) if matches!(op, Op::Add | Op::Min | Op::Max) => {
                return Err(FormError(format!(
                    "{}.F16x2.FTZ.RN: the .sz list spells it so, but the operations table gives {}.F16x2.RN, and no PTX red \
                     flushes f16x2 subnormals (its f16 adds require .noftz); write .F16x2.RN",
                    op_name(op),
                    op_name(op)
                )));
            }
            (_, s) if !table_sizes(op).contains(&s) => {
                let sizes: Vec<String> = table_sizes(op).iter().map(|s| format!(".{}", s.name())).collect();
                let hint = match (op, s) {
                    (Op::Add, S64) => "; a 64-bit add is the same bits signed or unsigned: write .U64",
                    (Op::And | Op::Or | Op::Xor, S64) => {
                        "; bitwise ops are the same bits signed or unsigned: write .U64"
                    }
                    _ => "",
                };
                return Err(FormError(format!(
                    "{}.{}: the operations table gives {} the sizes {}{hint}",
                    op_name(op),
                    s.name(),
                    op_name(op),
                    sizes.join(" ")
                )));
            }
            (Op::And | Op::Or | Op::Xor, U32 | S32) => format!("global.{}.b32", op.name()),
            (Op::And | Op::Or | Op::Xor, _) => format!("global.{}.b64", op.name()),
            (Op::Add, F32FtzRn) => "global.add.f32".into(),
            (Op::Add, F64Rn) => "global.add.f64".into(),
            (Op::Add, F16x2Rn) => "global.add.noftz.f16x2".into(),
            (_, F16x2Rn) => format!("global.v2.f16.{}.noftz", op.name()),
            (_, s) => format!("global.{}.{}", op.name(), s.name().to_ascii_lowercase()),
        };
        name.parse()
    }
}

impl fmt::Display for SassRed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RED{}.{}.{}", if self.extended { ".E" } else { "" }, op_name(self.op), self.size.name())
    }
}

impl FromStr for SassRed {
    type Err = FormError;

    /// Parses `RED{.E}.op{.sz}` (the op and size are not checked against the table here:
    /// [`SassRed::form`] does, with the reason).
    fn from_str(s: &str) -> Result<SassRed, FormError> {
        let rest = s
            .strip_prefix("RED")
            .filter(|r| r.is_empty() || r.starts_with('.'))
            .ok_or_else(|| FormError(format!("`{s}` is not a SASS RED opcode (RED{{.E}}.op{{.sz}})")))?;
        let mut toks: Vec<&str> = rest.split('.').skip(1).collect();
        let extended = toks.first().is_some_and(|t| t.eq_ignore_ascii_case("E"));
        if extended {
            toks.remove(0);
        }
        let Some(op_tok) = toks.first() else {
            return Err(FormError("RED needs an op: RED{.E}.op{.sz}, op one of ADD MIN MAX INC DEC AND OR XOR".into()));
        };
        let op = SASS_OPS.into_iter().find(|o| o.name().eq_ignore_ascii_case(op_tok)).ok_or_else(|| {
            FormError(format!("unknown op `.{op_tok}`: RED{{.E}}.op{{.sz}} takes ADD MIN MAX INC DEC AND OR XOR"))
        })?;
        let sz = &toks[1..];
        if sz.iter().any(|t| t.eq_ignore_ascii_case("E")) {
            return Err(FormError(format!(
                ".E is out of place: it comes right after RED (write RED.E.{})",
                op_name(op)
            )));
        }
        let size = SassSize::parse(&sz.join("."))?;
        Ok(SassRed { extended, op, size })
    }
}

/// Bits of the immediate offset.
pub const IMM_BITS: u32 = 20;
/// The immediate's range: -2^19 ..= 2^19 - 1.
pub const IMM_MIN: i32 = -(1 << (IMM_BITS - 1));
pub const IMM_MAX: i32 = (1 << (IMM_BITS - 1)) - 1;

/// The byte address of `[Ra + ImmS20]`: without `.E` the 32-bit sum of `reg`'s low 32 bits and
/// `imm`, zero-extended; with `.E` the 64-bit sum of the register pair `reg` and `imm`
/// sign-extended (both wrap).
pub fn address(extended: bool, reg: u64, imm: i32) -> u64 {
    if extended { reg.wrapping_add(imm as i64 as u64) } else { (reg as u32).wrapping_add(imm as u32) as u64 }
}

/// Parses an `ImmS20` written in hex with an optional sign (`-190`, `1234`, `+10`; empty: 0).
pub fn parse_imm(s: &str) -> Result<i32, String> {
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if s.is_empty() {
        return Ok(0);
    }
    let range = format!("ImmS20 is -{:x} to {IMM_MAX:x} (hex)", -(IMM_MIN as i64));
    if digits.is_empty() || digits.len() > 8 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!("`{s}` is not a signed hex offset ({range}, e.g. -190)"));
    }
    let m = i64::from_str_radix(digits, 16).unwrap();
    let v = if neg { -m } else { m };
    if v < IMM_MIN as i64 || v > IMM_MAX as i64 {
        return Err(format!("`{s}` does not fit: {range}"));
    }
    Ok(v as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(s: &str) -> Result<String, String> {
        let r: SassRed = s.parse().map_err(|e: FormError| e.0)?;
        r.form().map(|f| f.to_string()).map_err(|e| e.0)
    }

    #[test]
    fn every_table_cell_maps_to_a_global_form() {
        assert_eq!(form("RED.E.MIN.U32").unwrap(), "global.min.u32");
        assert_eq!(form("RED.ADD").unwrap(), "global.add.u32");
        assert_eq!(form("RED.ADD.32").unwrap(), "global.add.u32");
        assert_eq!(form("RED.E.MAX.64").unwrap(), "global.max.u64");
        assert_eq!(form("RED.ADD.F32.FTZ.RN").unwrap(), "global.add.f32");
        assert_eq!(form("RED.ADD.F16x2.RN").unwrap(), "global.add.noftz.f16x2");
        assert_eq!(form("RED.MAX.F16x2.RN").unwrap(), "global.v2.f16.max.noftz");
        assert_eq!(form("RED.ADD.F64.RN").unwrap(), "global.add.f64");
        assert_eq!(form("RED.XOR.S32").unwrap(), "global.xor.b32");
        assert_eq!(form("RED.OR.U64").unwrap(), "global.or.b64");
        assert_eq!(form("RED.DEC").unwrap(), "global.dec.u32");
        assert_eq!(form("RED.MIN.S64").unwrap(), "global.min.s64");
        for op in SASS_OPS {
            for &s in table_sizes(op) {
                let r = SassRed { extended: true, op, size: s };
                let f = r.form().unwrap();
                assert_eq!(f.space(), crate::Space::Global);
                assert_eq!(f.op(), op);
                assert_eq!(r.to_string().parse::<SassRed>().unwrap(), r);
            }
        }
    }

    #[test]
    fn combinations_outside_the_table_say_why() {
        assert!(form("RED.ADD.S64").unwrap_err().contains("write .U64"));
        assert!(form("RED.INC.S32").unwrap_err().contains("INC the sizes .U32"));
        assert!(form("RED.MIN.F32.FTZ.RN").unwrap_err().contains("MIN the sizes .U32 .S32 .U64 .S64 .F16x2.RN"));
        assert!(form("RED.ADD.F16x2.FTZ.RN").unwrap_err().contains("write .F16x2.RN"));
        assert!(form("RED.ADD.F32").unwrap_err().contains("write .F32.FTZ.RN"));
        assert!(form("RED.ADD.E.U32").unwrap_err().contains("write RED.E.ADD"));
        assert!(form("RED.CAS.U32").unwrap_err().contains("unknown op `.CAS`"));
        assert!(form("RED").unwrap_err().contains("RED needs an op"));
        assert!(form("REDUX.ADD").is_err());
    }

    #[test]
    fn addresses_as_the_seed_computes_them() {
        // 32-bit add, zero-extended: wraps at 2^32.
        assert_eq!(address(false, 0x1000, -0x190), 0xe70);
        assert_eq!(address(false, 0x10, -0x20), 0xffff_fff0);
        assert_eq!(address(false, 0xffff_fff0, 0x20), 0x10);
        // .E: 64-bit register pair plus the sign-extended immediate.
        assert_eq!(address(true, 0x1_0000_0010, -0x20), 0xffff_fff0);
        assert_eq!(address(true, 0xffff_fff0, 0x20), 0x1_0000_0010);
        assert_eq!(parse_imm("-190"), Ok(-0x190));
        assert_eq!(parse_imm("7ffff"), Ok(IMM_MAX));
        assert_eq!(parse_imm("-80000"), Ok(IMM_MIN));
        assert_eq!(parse_imm(""), Ok(0));
        assert!(parse_imm("80000").unwrap_err().contains("does not fit"));
        assert!(parse_imm("0x10").is_err());
    }
}
