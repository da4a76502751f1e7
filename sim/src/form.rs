//! The catalogue of legal `red` forms and their binary encoding.
//!
//! This is the one place where a form's encoding is defined. The hardware (`hw/`) reads the
//! field positions and the enum discriminants below; the testbench packs codes with
//! [`Form::code`]. Nothing else re-types them.
//!
//! Names follow the H100 capture files: scalar forms are `space.op[.noftz].type`
//! (`global.add.noftz.f16`), vector forms are `space.vN.type.op[.noftz]`
//! (`global.v8.bf16.min.noftz`).

use std::fmt;
use std::str::FromStr;

/// Field layout of a form code (`CODE_WIDTH` bits):
///
/// | bits | field |
/// | --- | --- |
/// | 2..0 | [`Op`] |
/// | 6..3 | [`Type`] |
/// | 7 | [`Space`] (0 global, 1 shared) |
/// | 9..8 | log2 of the vector width (0 scalar, 1 v2, 2 v4, 3 v8) |
pub mod encoding {
    pub const OP_LSB: usize = 0;
    pub const OP_WIDTH: usize = 3;
    pub const TYPE_LSB: usize = 3;
    pub const TYPE_WIDTH: usize = 4;
    pub const SPACE_LSB: usize = 7;
    pub const VEC_LSB: usize = 8;
    pub const VEC_WIDTH: usize = 2;
    /// Total width of a form code.
    pub const CODE_WIDTH: usize = 10;
}

/// The reduction operation. The discriminant is the op field of the encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Op {
    Add = 0,
    And = 1,
    Or = 2,
    Xor = 3,
    Min = 4,
    Max = 5,
    Inc = 6,
    Dec = 7,
}

/// The element type. The discriminant is the type field of the encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Type {
    B32 = 0,
    B64 = 1,
    U32 = 2,
    S32 = 3,
    U64 = 4,
    S64 = 5,
    F32 = 6,
    F64 = 7,
    F16 = 8,
    Bf16 = 9,
    F16x2 = 10,
    Bf16x2 = 11,
}

/// The state space. The discriminant is the space bit of the encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Space {
    Global = 0,
    Shared = 1,
}

pub const OPS: [Op; 8] = [Op::Add, Op::And, Op::Or, Op::Xor, Op::Min, Op::Max, Op::Inc, Op::Dec];
pub const TYPES: [Type; 12] = [
    Type::B32,
    Type::B64,
    Type::U32,
    Type::S32,
    Type::U64,
    Type::S64,
    Type::F32,
    Type::F64,
    Type::F16,
    Type::Bf16,
    Type::F16x2,
    Type::Bf16x2,
];

impl Op {
    pub fn name(self) -> &'static str {
        match self {
            Op::Add => "add",
            Op::And => "and",
            Op::Or => "or",
            Op::Xor => "xor",
            Op::Min => "min",
            Op::Max => "max",
            Op::Inc => "inc",
            Op::Dec => "dec",
        }
    }
    pub fn from_code(code: u8) -> Option<Op> {
        OPS.get(code as usize).copied()
    }
}

impl Type {
    pub fn name(self) -> &'static str {
        match self {
            Type::B32 => "b32",
            Type::B64 => "b64",
            Type::U32 => "u32",
            Type::S32 => "s32",
            Type::U64 => "u64",
            Type::S64 => "s64",
            Type::F32 => "f32",
            Type::F64 => "f64",
            Type::F16 => "f16",
            Type::Bf16 => "bf16",
            Type::F16x2 => "f16x2",
            Type::Bf16x2 => "bf16x2",
        }
    }
    pub fn from_code(code: u8) -> Option<Type> {
        TYPES.get(code as usize).copied()
    }
    /// Width of one element in bits (a packed x2 word counts as one 32-bit element).
    pub fn bits(self) -> u32 {
        match self {
            Type::F16 | Type::Bf16 => 16,
            Type::B32 | Type::U32 | Type::S32 | Type::F32 | Type::F16x2 | Type::Bf16x2 => 32,
            Type::B64 | Type::U64 | Type::S64 | Type::F64 => 64,
        }
    }
    /// The 16-bit floating-point types, which need `.noftz`.
    pub fn is_half(self) -> bool {
        matches!(self, Type::F16 | Type::Bf16 | Type::F16x2 | Type::Bf16x2)
    }
}

impl Space {
    pub fn name(self) -> &'static str {
        match self {
            Space::Global => "global",
            Space::Shared => "shared",
        }
    }
}

/// One legal `red` instruction form. Only [`Form::new`] and parsing build one, so every
/// `Form` value is legal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Form {
    space: Space,
    op: Op,
    ty: Type,
    /// Number of vector elements: 1 for scalar forms, else 2, 4 or 8.
    vec: u8,
}

/// Why a form name was refused; the text says which rule was broken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormError(pub String);

impl fmt::Display for FormError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for FormError {}

fn err<T>(msg: impl Into<String>) -> Result<T, FormError> {
    Err(FormError(msg.into()))
}

/// The scalar types each op accepts (ptxas for sm_90).
fn scalar_types(op: Op) -> &'static [Type] {
    match op {
        Op::And | Op::Or | Op::Xor => &[Type::B32, Type::B64],
        Op::Add => {
            &[Type::U32, Type::S32, Type::U64, Type::F32, Type::F64, Type::F16, Type::Bf16, Type::F16x2, Type::Bf16x2]
        }
        Op::Inc | Op::Dec => &[Type::U32],
        Op::Min | Op::Max => &[Type::U32, Type::S32, Type::U64, Type::S64],
    }
}

fn scalar_rule(op: Op) -> String {
    let o = op.name();
    match op {
        Op::And | Op::Or | Op::Xor => format!("red.{o} takes b32, b64"),
        Op::Add => "red.add takes u32, s32, u64, f32, f64 (and .noftz f16/bf16/f16x2/bf16x2)".into(),
        Op::Inc | Op::Dec => format!("red.{o} takes u32 only"),
        Op::Min | Op::Max => format!(
            "red.{o} takes u32, s32, u64, s64 (f16/bf16 {o} exists only as a global vector form, \
             e.g. global.v2.f16.{o}.noftz)"
        ),
    }
}

impl Form {
    /// Checks a combination against the legal-form tables of the spec.
    pub fn new(space: Space, op: Op, ty: Type, vec: u8, noftz: bool) -> Result<Form, FormError> {
        Self::check(Some(space), op, ty, vec, noftz)
    }

    fn check(space: Option<Space>, op: Op, ty: Type, vec: u8, noftz: bool) -> Result<Form, FormError> {
        if vec == 1 {
            if !scalar_types(op).contains(&ty) {
                return err(scalar_rule(op));
            }
        } else {
            if !matches!(op, Op::Add | Op::Min | Op::Max) {
                return err(format!("vector forms take add, min or max, not {}", op.name()));
            }
            match ty {
                Type::F16 | Type::Bf16 => {}
                Type::F16x2 | Type::Bf16x2 | Type::F32 if vec == 8 => {
                    return err(format!("v8 needs 16-bit elements: {} vectors are v2 or v4", ty.name()));
                }
                Type::F16x2 | Type::Bf16x2 => {}
                Type::F32 if op == Op::Add => {}
                Type::F32 => return err(format!("vector f32 takes add only, not {}", op.name())),
                _ => {
                    return err(format!(
                        "vector forms take f16, bf16 (v2/v4/v8), f16x2, bf16x2 (v2/v4) or \
                         f32 (v2/v4, add only), not {}",
                        ty.name()
                    ));
                }
            }
        }
        if ty.is_half() && !noftz {
            return err(format!(
                "{} {} needs .noftz",
                ty.name(),
                if vec == 1 { op.name().to_string() } else { format!("v{vec} {}", op.name()) }
            ));
        }
        if !ty.is_half() && noftz {
            return err(format!(".noftz applies only to f16, bf16, f16x2 and bf16x2 forms, not {}", ty.name()));
        }
        let Some(space) = space else {
            return err("missing state space: write global.<form> or shared.<form>");
        };
        if vec != 1 && space != Space::Global {
            return err("vector forms are global only");
        }
        Ok(Form { space, op, ty, vec })
    }

    pub fn space(self) -> Space {
        self.space
    }
    pub fn op(self) -> Op {
        self.op
    }
    pub fn ty(self) -> Type {
        self.ty
    }
    /// Number of elements: 1 for scalar forms, 2/4/8 for vector forms.
    pub fn vec(self) -> usize {
        self.vec as usize
    }
    pub fn is_vector(self) -> bool {
        self.vec > 1
    }
    /// Width of one element in bits.
    pub fn elem_bits(self) -> u32 {
        self.ty.bits()
    }
    /// Bytes the whole instruction touches, which is also its required alignment.
    pub fn bytes(self) -> usize {
        self.vec() * self.ty.bits() as usize / 8
    }

    /// The binary form code, laid out as in [`encoding`].
    pub fn code(self) -> u16 {
        use encoding::*;
        ((self.op as u16) << OP_LSB)
            | ((self.ty as u16) << TYPE_LSB)
            | ((self.space as u16) << SPACE_LSB)
            | ((self.vec.trailing_zeros() as u16) << VEC_LSB)
    }

    /// Decodes a form code; `None` for codes that are not a legal form.
    pub fn from_code(code: u16) -> Option<Form> {
        use encoding::*;
        if code >> CODE_WIDTH != 0 {
            return None;
        }
        let field = |lsb: usize, width: usize| ((code >> lsb) & ((1 << width) - 1)) as u8;
        let op = Op::from_code(field(OP_LSB, OP_WIDTH))?;
        let ty = Type::from_code(field(TYPE_LSB, TYPE_WIDTH))?;
        let space = if field(SPACE_LSB, 1) == 0 { Space::Global } else { Space::Shared };
        let vec = 1u8 << field(VEC_LSB, VEC_WIDTH);
        Form::new(space, op, ty, vec, ty.is_half()).ok()
    }

    /// Every legal form, in code order (82 of them).
    pub fn all() -> Vec<Form> {
        (0..1u16 << encoding::CODE_WIDTH).filter_map(Form::from_code).collect()
    }
}

impl fmt::Display for Form {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let noftz = if self.ty.is_half() { ".noftz" } else { "" };
        let (s, o, t) = (self.space.name(), self.op.name(), self.ty.name());
        if self.vec == 1 { write!(f, "{s}.{o}{noftz}.{t}") } else { write!(f, "{s}.v{}.{t}.{o}{noftz}", self.vec) }
    }
}

const SEM_SCOPE: [&str; 6] = ["relaxed", "release", "cta", "cluster", "gpu", "sys"];

impl FromStr for Form {
    type Err = FormError;

    /// Parses a form name. Qualifiers may come in any order; a leading `red.` is accepted, and
    /// `shared::cta` / `shared::cluster` mean `shared`.
    fn from_str(name: &str) -> Result<Form, FormError> {
        let body = name.strip_prefix("red.").unwrap_or(name);
        if body.is_empty() {
            return err("empty form name: expected e.g. global.add.u32");
        }
        let (mut space, mut op, mut ty, mut vec, mut noftz) = (None, None, None, None, false);
        fn once<T>(slot: &mut Option<T>, v: T, what: &str, tok: &str) -> Result<(), FormError> {
            if slot.is_some() {
                return err(format!("`{tok}` is a second {what}; a form has one"));
            }
            *slot = Some(v);
            Ok(())
        }
        for tok in body.split('.') {
            match tok {
                "global" => once(&mut space, Space::Global, "state space", tok)?,
                "shared" | "shared::cta" | "shared::cluster" => once(&mut space, Space::Shared, "state space", tok)?,
                "v2" => once(&mut vec, 2u8, "vector width", tok)?,
                "v4" => once(&mut vec, 4u8, "vector width", tok)?,
                "v8" => once(&mut vec, 8u8, "vector width", tok)?,
                "noftz" if noftz => return err(format!("`.noftz` appears twice in `{name}`: write it once")),
                "noftz" => noftz = true,
                _ => {
                    if let Some(o) = OPS.iter().find(|o| o.name() == tok) {
                        once(&mut op, *o, "op", tok)?;
                    } else if let Some(t) = TYPES.iter().find(|t| t.name() == tok) {
                        once(&mut ty, *t, "type", tok)?;
                    } else if SEM_SCOPE.contains(&tok) {
                        return err(format!(
                            "`.{tok}` is a memory-ordering qualifier, which a form name does not \
                             take; an instruction (eval and run rows, sim::RedInstr) takes it first, as \
                             in red.relaxed.gpu.global.add.u32; drop it from `{name}` here"
                        ));
                    } else if tok == "generic" || tok == "" {
                        return err(format!("malformed form name `{name}`"));
                    } else {
                        return err(format!(
                            "unknown qualifier `.{tok}` in `{name}`: expected a state space \
                             (global, shared), a vector width (v2, v4, v8), an op (add, and, or, \
                             xor, min, max, inc, dec), a type (b32, b64, u32, s32, u64, s64, f32, \
                             f64, f16, bf16, f16x2, bf16x2) or noftz"
                        ));
                    }
                }
            }
        }
        let Some(op) = op else {
            return err(format!("`{name}` names no op: add, and, or, xor, min, max, inc or dec"));
        };
        let Some(ty) = ty else {
            return err(format!("`{name}` names no type: {}", scalar_rule(op)));
        };
        Form::check(space, op, ty, vec.unwrap_or(1), noftz)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_82_forms_and_codes_round_trip() {
        let all = Form::all();
        assert_eq!(all.len(), 82);
        for f in &all {
            assert_eq!(Form::from_code(f.code()), Some(*f));
            assert_eq!(f.to_string().parse::<Form>(), Ok(*f), "{f}");
        }
        let vectors = all.iter().filter(|f| f.is_vector()).count();
        assert_eq!(vectors, 32);
    }

    #[test]
    fn names_match_the_capture_files() {
        for (name, bytes) in [
            ("global.add.f32", 4),
            ("shared.inc.u32", 4),
            ("global.add.noftz.bf16x2", 4),
            ("global.add.noftz.f16", 2),
            ("global.v8.bf16.min.noftz", 16),
            ("global.v4.f16x2.max.noftz", 16),
            ("global.v2.f32.add", 8),
            ("shared.max.s64", 8),
        ] {
            let f: Form = name.parse().unwrap();
            assert_eq!(f.to_string(), name);
            assert_eq!(f.bytes(), bytes, "{name}");
        }
        // Qualifier order and the red./::cta spellings are accepted.
        assert_eq!("red.shared::cta.u32.add".parse::<Form>().unwrap().to_string(), "shared.add.u32");
        assert_eq!("global.noftz.add.f16".parse::<Form>().unwrap().to_string(), "global.add.noftz.f16");
    }

    #[test]
    fn illegal_names_teach_the_rule() {
        let e = |s: &str| s.parse::<Form>().unwrap_err().0;
        assert_eq!(e("add.s64"), "red.add takes u32, s32, u64, f32, f64 (and .noftz f16/bf16/f16x2/bf16x2)");
        assert_eq!(e("global.add.s64"), e("add.s64"));
        assert_eq!(e("shared.v2.f32.add"), "vector forms are global only");
        assert_eq!(e("add.f16"), "f16 add needs .noftz");
        assert!(e("global.min.f32").starts_with("red.min takes u32, s32, u64, s64"));
        assert!(e("global.inc.s32").contains("u32 only"));
        assert!(e("global.v8.f32.add").contains("v8 needs 16-bit elements"));
        assert!(e("global.v2.f32.min").contains("add only"));
        assert!(e("global.add.noftz.f32").contains(".noftz applies only"));
        assert!(e("global.v2.u32.add").contains("vector forms take"));
        assert!(e("global.v2.f16.and.noftz").contains("add, min or max"));
        assert!(e("add.u32").contains("missing state space"));
        assert!(e("global.add.u32.foo").contains("unknown qualifier `.foo`"));
        assert!(e("global.add").contains("names no type"));
        assert!(e("global.shared.add.u32").contains("second state space"));
        assert!(e("global.relaxed.add.u32").contains("memory-ordering"));
        assert!(e("global.add.noftz.noftz.f16").contains("`.noftz` appears twice"));
    }

    #[test]
    fn illegal_codes_decode_to_none() {
        let legal = Form::all().into_iter().map(|f| f.code()).collect::<Vec<_>>();
        let illegal = (0..1u16 << encoding::CODE_WIDTH).filter(|c| !legal.contains(c)).count();
        assert_eq!(illegal, 1024 - 82);
        assert_eq!(Form::from_code(1 << encoding::CODE_WIDTH), None);
    }
}
