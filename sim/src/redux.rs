//! `redux.sync`: the warp-wide reduction (PTX ISA 9.7.13.12), its form catalogue, binary
//! encoding and golden model.
//!
//! This is the one place where a redux form's encoding is defined: the hardware
//! (`hw/src/redux_sync.rs`) reads the field positions and enum discriminants below, and the
//! testbench packs codes with [`ReduxForm::code`].
//!
//! Names are the PTX spelling: `redux.sync.<op>[.abs][.NaN].<type>` (`redux.sync.add.u32`,
//! `redux.sync.xor.b32`, `redux.sync.min.abs.NaN.f32`). There are 17 legal forms:
//!
//! | op | types | qualifiers |
//! | --- | --- | --- |
//! | add, min, max | u32, s32 | none |
//! | and, or, xor | b32 | none |
//! | min, max | f32 | optional `.abs`, optional `.NaN` |
//!
//! Semantics ([`reduce`]): the 32-bit `src` of every lane in `membermask` is reduced; every
//! participating lane receives the result. `add` truncates to 32 bits; `s32` min/max compare
//! signed. For `f32`: `+0.0 > -0.0`; `.abs` reduces `|x|`; with `.NaN` any NaN input gives
//! the canonical NaN [`CANONICAL_NAN`]; without it NaN inputs are ignored, and the result is
//! the canonical NaN only when every input is NaN.
//!
//! Names must follow the syntax's order, `redux.sync.<op>[.abs][.NaN].<type>` (the prefix
//! may be left out); other orders are refused with the spelling to write.
//!
//! An empty `membermask` is undefined in PTX (the executing thread must be in the mask), and
//! `redunit eval` refuses such rows. [`reduce`] itself, and the hardware, define it as the reduction over no lanes: the identity of the op
//! in its ordering — `add`/`or`/`xor`: 0, `and`: `ffffffff`, `min.u32`: `ffffffff`,
//! `max.u32`: 0, `min.s32`: `7fffffff`, `max.s32`: `80000000` — and for `f32` the canonical
//! NaN (no non-NaN input, as if all inputs were NaN). The H100 conformance data never has an
//! empty mask.

use std::fmt;
use std::str::FromStr;

/// Field layout of a redux form code (`CODE_WIDTH` bits):
///
/// | bits | field |
/// | --- | --- |
/// | 2..0 | [`ReduxOp`] |
/// | 4..3 | [`ReduxType`] |
/// | 5 | `.abs` |
/// | 6 | `.NaN` |
pub mod encoding {
    pub const OP_LSB: usize = 0;
    pub const OP_WIDTH: usize = 3;
    pub const TYPE_LSB: usize = 3;
    pub const TYPE_WIDTH: usize = 2;
    pub const ABS_BIT: usize = 5;
    pub const NAN_BIT: usize = 6;
    /// Total width of a redux form code.
    pub const CODE_WIDTH: usize = 7;
}

/// Lanes in a warp.
pub const LANES: usize = 32;

/// The canonical NaN of `redux.sync...f32` results (PTX: `0x7fffffff`).
pub const CANONICAL_NAN: u32 = 0x7fff_ffff;

/// The reduction operation. The discriminant is the op field of the encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum ReduxOp {
    Add = 0,
    Min = 1,
    Max = 2,
    And = 3,
    Or = 4,
    Xor = 5,
}

/// The type. The discriminant is the type field of the encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum ReduxType {
    U32 = 0,
    S32 = 1,
    B32 = 2,
    F32 = 3,
}

pub const REDUX_OPS: [ReduxOp; 6] = [ReduxOp::Add, ReduxOp::Min, ReduxOp::Max, ReduxOp::And, ReduxOp::Or, ReduxOp::Xor];
pub const REDUX_TYPES: [ReduxType; 4] = [ReduxType::U32, ReduxType::S32, ReduxType::B32, ReduxType::F32];

impl ReduxOp {
    pub fn name(self) -> &'static str {
        match self {
            ReduxOp::Add => "add",
            ReduxOp::Min => "min",
            ReduxOp::Max => "max",
            ReduxOp::And => "and",
            ReduxOp::Or => "or",
            ReduxOp::Xor => "xor",
        }
    }
    pub fn from_code(code: u8) -> Option<ReduxOp> {
        REDUX_OPS.get(code as usize).copied()
    }
    fn is_bitwise(self) -> bool {
        matches!(self, ReduxOp::And | ReduxOp::Or | ReduxOp::Xor)
    }
}

impl ReduxType {
    pub fn name(self) -> &'static str {
        match self {
            ReduxType::U32 => "u32",
            ReduxType::S32 => "s32",
            ReduxType::B32 => "b32",
            ReduxType::F32 => "f32",
        }
    }
    pub fn from_code(code: u8) -> Option<ReduxType> {
        REDUX_TYPES.get(code as usize).copied()
    }
}

/// One legal `redux.sync` form. Only [`ReduxForm::new`] and parsing build one, so every
/// value is legal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ReduxForm {
    op: ReduxOp,
    ty: ReduxType,
    abs: bool,
    nan: bool,
}

/// Why a redux form name was refused; the text says which rule was broken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReduxFormError(pub String);

impl fmt::Display for ReduxFormError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for ReduxFormError {}

fn err<T>(msg: impl Into<String>) -> Result<T, ReduxFormError> {
    Err(ReduxFormError(msg.into()))
}

fn type_rule(op: ReduxOp) -> String {
    let o = op.name();
    match op {
        ReduxOp::And | ReduxOp::Or | ReduxOp::Xor => {
            format!("redux.sync.{o} takes b32 only (bitwise ops are untyped: write redux.sync.{o}.b32)")
        }
        ReduxOp::Add => "redux.sync.add takes u32 and s32 (f32 takes min and max only)".into(),
        ReduxOp::Min | ReduxOp::Max => format!("redux.sync.{o} takes u32, s32 and f32"),
    }
}

impl ReduxForm {
    /// Checks a combination against the legal forms of the PTX text.
    pub fn new(op: ReduxOp, ty: ReduxType, abs: bool, nan: bool) -> Result<ReduxForm, ReduxFormError> {
        let legal = match ty {
            ReduxType::U32 | ReduxType::S32 => !op.is_bitwise(),
            ReduxType::B32 => op.is_bitwise(),
            ReduxType::F32 => matches!(op, ReduxOp::Min | ReduxOp::Max),
        };
        if !legal {
            return err(type_rule(op));
        }
        if ty != ReduxType::F32 && (abs || nan) {
            let q = if abs { ".abs" } else { ".NaN" };
            return err(format!("{q} applies only to f32 min and max (e.g. redux.sync.min{q}.f32), not {}", ty.name()));
        }
        Ok(ReduxForm { op, ty, abs, nan })
    }

    pub fn op(self) -> ReduxOp {
        self.op
    }
    pub fn ty(self) -> ReduxType {
        self.ty
    }
    /// `.abs`: the reduction is over `|src|`.
    pub fn abs(self) -> bool {
        self.abs
    }
    /// `.NaN`: any NaN input gives the canonical NaN.
    pub fn nan(self) -> bool {
        self.nan
    }

    /// The binary form code, laid out as in [`encoding`].
    pub fn code(self) -> u8 {
        use encoding::*;
        ((self.op as u8) << OP_LSB)
            | ((self.ty as u8) << TYPE_LSB)
            | ((self.abs as u8) << ABS_BIT)
            | ((self.nan as u8) << NAN_BIT)
    }

    /// Decodes a form code; `None` for codes that are not a legal form.
    pub fn from_code(code: u8) -> Option<ReduxForm> {
        use encoding::*;
        if code >> CODE_WIDTH != 0 {
            return None;
        }
        let field = |lsb: usize, width: usize| (code >> lsb) & ((1 << width) - 1);
        let op = ReduxOp::from_code(field(OP_LSB, OP_WIDTH))?;
        let ty = ReduxType::from_code(field(TYPE_LSB, TYPE_WIDTH))?;
        ReduxForm::new(op, ty, field(ABS_BIT, 1) == 1, field(NAN_BIT, 1) == 1).ok()
    }

    /// Every legal form, in code order (17 of them).
    pub fn all() -> Vec<ReduxForm> {
        (0..1u8 << encoding::CODE_WIDTH).filter_map(ReduxForm::from_code).collect()
    }
}

impl fmt::Display for ReduxForm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "redux.sync.{}{}{}.{}",
            self.op.name(),
            if self.abs { ".abs" } else { "" },
            if self.nan { ".NaN" } else { "" },
            self.ty.name()
        )
    }
}

impl FromStr for ReduxForm {
    type Err = ReduxFormError;

    /// Parses a form name: `redux.sync.<op>[.abs][.NaN].<type>`. The `redux.sync.` prefix may
    /// be left out; the qualifiers come in the syntax's order.
    fn from_str(name: &str) -> Result<ReduxForm, ReduxFormError> {
        let body = match name.strip_prefix("redux.sync.") {
            Some(b) => b,
            None if name == "redux.sync" || name == "redux" => {
                return err(format!("`{name}` names no op: expected e.g. redux.sync.add.u32"));
            }
            None if name.starts_with("redux.") => {
                return err(format!("`{name}`: redux needs .sync (write redux.sync.<op>.<type>)"));
            }
            None => name,
        };
        if body.is_empty() {
            return err("empty form name: expected e.g. redux.sync.add.u32");
        }
        let (mut op, mut ty, mut abs, mut nan) = (None, None, false, false);
        // The tokens in the order they came, to check the grammar's order once all are known.
        let mut order: Vec<&str> = Vec::new();
        for tok in body.split('.') {
            order.push(tok);
            match tok {
                "abs" if abs => return err("`.abs` appears twice"),
                "abs" => abs = true,
                "NaN" if nan => return err("`.NaN` appears twice"),
                "NaN" => nan = true,
                "nan" | "NAN" | "Nan" => {
                    return err(format!("`.{tok}` is spelled `.NaN` in PTX"));
                }
                "sync" => return err(format!("`.sync` comes once, right after redux, in `{name}`")),
                "" => return err(format!("malformed form name `{name}`")),
                _ => {
                    if let Some(o) = REDUX_OPS.iter().find(|o| o.name() == tok) {
                        if op.is_some() {
                            return err(format!("`{tok}` is a second op; a form has one"));
                        }
                        op = Some(*o);
                    } else if let Some(t) = REDUX_TYPES.iter().find(|t| t.name() == tok) {
                        if ty.is_some() {
                            return err(format!("`{tok}` is a second type; a form has one"));
                        }
                        ty = Some(*t);
                    } else if matches!(tok, "inc" | "dec" | "s64" | "u64" | "b64" | "f64" | "f16" | "bf16") {
                        return err(format!(
                            "`.{tok}` does not exist for redux.sync: ops add, min, max, and, or, xor; \
                             types u32, s32, b32, f32"
                        ));
                    } else {
                        return err(format!(
                            "unknown qualifier `.{tok}` in `{name}`: expected an op (add, min, max, and, \
                             or, xor), a type (u32, s32, b32, f32), abs or NaN"
                        ));
                    }
                }
            }
        }
        let Some(op) = op else {
            return err(format!("`{name}` names no op: add, min, max, and, or or xor"));
        };
        let Some(ty) = ty else {
            return err(format!("`{name}` names no type: {}", type_rule(op)));
        };
        let form = ReduxForm::new(op, ty, abs, nan)?;
        let canonical = form.to_string();
        let want: Vec<&str> = canonical["redux.sync.".len()..].split('.').collect();
        if order != want {
            return err(format!(
                "`{name}`: qualifiers out of order; the syntax is redux.sync.<op>[.abs][.NaN].<type> \
                 (write {canonical})"
            ));
        }
        Ok(form)
    }
}

fn is_nan(x: u32) -> bool {
    x & 0x7fff_ffff > 0x7f80_0000
}

/// `a < b` for non-NaN f32 bit patterns, with `-0.0 < +0.0`.
fn f32_less(a: u32, b: u32) -> bool {
    let (fa, fb) = (f32::from_bits(a), f32::from_bits(b));
    if fa == fb {
        // Equal values differ only in the sign of a zero (or are identical).
        a >> 31 == 1 && b >> 31 == 0
    } else {
        fa < fb
    }
}

/// The result of `redux.sync` `form` over the lanes of `mask`: lane `i` contributes
/// `src[i]`; lanes outside `mask` are ignored. An empty mask gives the identity described in
/// the module documentation.
pub fn reduce(form: ReduxForm, mask: u32, src: &[u32; LANES]) -> u32 {
    let vals = (0..LANES).filter(|&i| mask >> i & 1 == 1).map(|i| src[i]);
    match form.ty {
        ReduxType::F32 => {
            let vals: Vec<u32> = vals.map(|x| if form.abs { x & 0x7fff_ffff } else { x }).collect();
            if form.nan && vals.iter().any(|&x| is_nan(x)) {
                return CANONICAL_NAN;
            }
            let mut best: Option<u32> = None;
            for x in vals.into_iter().filter(|&x| !is_nan(x)) {
                best = Some(match best {
                    None => x,
                    Some(b) => {
                        let take = if form.op == ReduxOp::Min { f32_less(x, b) } else { f32_less(b, x) };
                        if take { x } else { b }
                    }
                });
            }
            best.unwrap_or(CANONICAL_NAN)
        }
        ReduxType::S32 if matches!(form.op, ReduxOp::Min | ReduxOp::Max) => {
            let it = vals.map(|x| x as i32);
            (if form.op == ReduxOp::Min { it.min().unwrap_or(i32::MAX) } else { it.max().unwrap_or(i32::MIN) }) as u32
        }
        _ => match form.op {
            ReduxOp::Add => vals.fold(0u32, u32::wrapping_add),
            ReduxOp::Min => vals.min().unwrap_or(u32::MAX),
            ReduxOp::Max => vals.max().unwrap_or(0),
            ReduxOp::And => vals.fold(u32::MAX, |a, x| a & x),
            ReduxOp::Or => vals.fold(0, |a, x| a | x),
            ReduxOp::Xor => vals.fold(0, |a, x| a ^ x),
        },
    }
}

/// What each lane's `dst` holds after the instruction: the result in the lanes of `mask`,
/// 0 in the others (which did not execute it). This is the hardware's `out_lanes` vector.
pub fn reduce_lanes(form: ReduxForm, mask: u32, src: &[u32; LANES]) -> [u32; LANES] {
    let r = reduce(form, mask, src);
    std::array::from_fn(|i| if mask >> i & 1 == 1 { r } else { 0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(name: &str) -> ReduxForm {
        name.parse().unwrap()
    }
    fn e(name: &str) -> String {
        name.parse::<ReduxForm>().unwrap_err().0
    }
    fn lanes(v: &[u32]) -> [u32; LANES] {
        let mut s = [0xdead_beef; LANES];
        s[..v.len()].copy_from_slice(v);
        s
    }
    fn m(n: usize) -> u32 {
        if n == 32 { u32::MAX } else { (1 << n) - 1 }
    }
    fn red(name: &str, v: &[u32]) -> u32 {
        reduce(f(name), m(v.len()), &lanes(v))
    }

    #[test]
    fn there_are_17_forms_and_names_and_codes_round_trip() {
        let all = ReduxForm::all();
        assert_eq!(all.len(), 17);
        for form in &all {
            assert_eq!(ReduxForm::from_code(form.code()), Some(*form));
            assert_eq!(form.to_string().parse::<ReduxForm>(), Ok(*form), "{form}");
        }
        assert_eq!(all.iter().filter(|f| f.ty() == ReduxType::F32).count(), 8);
        let legal: Vec<u8> = all.iter().map(|f| f.code()).collect();
        assert_eq!((0..128u8).filter(|c| !legal.contains(c)).count(), 128 - 17);
        assert_eq!(ReduxForm::from_code(1 << encoding::CODE_WIDTH), None);
        for name in [
            "redux.sync.add.u32",
            "redux.sync.max.s32",
            "redux.sync.xor.b32",
            "redux.sync.min.f32",
            "redux.sync.min.abs.NaN.f32",
            "redux.sync.max.NaN.f32",
            "redux.sync.max.abs.f32",
        ] {
            assert_eq!(f(name).to_string(), name);
        }
        // Short names; the qualifiers in the syntax's order only.
        assert_eq!(f("add.s32").to_string(), "redux.sync.add.s32");
        assert_eq!(
            e("redux.sync.f32.NaN.abs.min"),
            "`redux.sync.f32.NaN.abs.min`: qualifiers out of order; the syntax is \
             redux.sync.<op>[.abs][.NaN].<type> (write redux.sync.min.abs.NaN.f32)"
        );
        assert!(e("redux.sync.min.NaN.abs.f32").contains("write redux.sync.min.abs.NaN.f32"));
        assert!(e("redux.sync.u32.add").contains("out of order"));
    }

    #[test]
    fn illegal_names_teach_the_rule() {
        assert!(e("redux.sync.min.abs.u32").starts_with(".abs applies only to f32"));
        assert!(e("redux.sync.max.NaN.s32").starts_with(".NaN applies only to f32"));
        assert!(e("redux.sync.add.f32").contains("f32 takes min and max only"));
        assert!(e("redux.sync.and.f32").contains("takes b32 only"));
        assert!(e("redux.sync.and.u32").contains("write redux.sync.and.b32"));
        assert!(e("redux.sync.add.b32").contains("takes u32 and s32"));
        assert!(e("redux.sync.min.b32").contains("takes u32, s32 and f32"));
        assert!(e("redux.sync.min.nan.f32").contains("spelled `.NaN`"));
        assert!(e("redux.add.u32").contains("needs .sync"));
        assert!(e("redux.sync.add").contains("names no type"));
        assert!(e("redux.sync.u32").contains("names no op"));
        assert!(e("redux.sync.add.min.u32").contains("second op"));
        assert!(e("redux.sync.add.u32.s32").contains("second type"));
        assert!(e("redux.sync.add.u64").contains("does not exist for redux.sync"));
        assert!(e("redux.sync.add.u32.foo").contains("unknown qualifier `.foo`"));
        assert!(e("redux.sync.min.abs.abs.f32").contains("twice"));
        assert!(e("redux.sync..add.u32").contains("malformed"));
    }

    #[test]
    fn integer_rules() {
        assert_eq!(red("add.u32", &[0xffff_ffff, 2]), 1, "add truncates to 32 bits");
        assert_eq!(red("add.s32", &[0x8000_0000; 32]), 0);
        assert_eq!(red("min.s32", &[1, 0xffff_ffff, 5]), 0xffff_ffff);
        assert_eq!(red("min.u32", &[1, 0xffff_ffff, 5]), 1);
        assert_eq!(red("max.s32", &[0x8000_0000, 0x7fff_ffff]), 0x7fff_ffff);
        assert_eq!(red("max.u32", &[0x8000_0000, 0x7fff_ffff]), 0x8000_0000);
        assert_eq!(red("and.b32", &[0xff0f, 0x0fff]), 0x0f0f);
        assert_eq!(red("or.b32", &[0xf000, 0x000f]), 0xf00f);
        assert_eq!(red("xor.b32", &[0xff, 0x0f, 0x01]), 0xf1);
        // Lanes outside the mask do not count.
        let s: [u32; 32] = std::array::from_fn(|i| i as u32 + 1);
        assert_eq!(reduce(f("add.u32"), 0b1010, &s), 2 + 4);
        assert_eq!(reduce(f("min.u32"), 1 << 31, &s), 32);
        assert_eq!(
            reduce_lanes(f("max.u32"), 0b101, &s),
            std::array::from_fn(|i| if i == 0 || i == 2 { 3 } else { 0 })
        );
    }

    #[test]
    fn empty_mask_gives_the_identity() {
        let s = [0x1234_5678; 32];
        for (name, want) in [
            ("add.u32", 0),
            ("add.s32", 0),
            ("and.b32", u32::MAX),
            ("or.b32", 0),
            ("xor.b32", 0),
            ("min.u32", u32::MAX),
            ("max.u32", 0),
            ("min.s32", 0x7fff_ffff),
            ("max.s32", 0x8000_0000),
            ("min.f32", CANONICAL_NAN),
            ("max.abs.NaN.f32", CANONICAL_NAN),
        ] {
            assert_eq!(reduce(f(name), 0, &s), want, "{name}");
        }
    }

    const P0: u32 = 0x0000_0000;
    const N0: u32 = 0x8000_0000;
    const ONE: u32 = 0x3f80_0000;
    const M_ONE: u32 = 0xbf80_0000;
    const TWO: u32 = 0x4000_0000;
    const M_TWO: u32 = 0xc000_0000;
    const INF: u32 = 0x7f80_0000;
    const M_INF: u32 = 0xff80_0000;
    const QNAN: u32 = 0x7fc0_0000;
    const SNAN: u32 = 0x7f80_0001;
    const M_NAN: u32 = 0xffc0_0001;

    #[test]
    fn f32_zero_signs_order_minus_below_plus() {
        assert_eq!(red("min.f32", &[P0, N0]), N0);
        assert_eq!(red("min.f32", &[N0, P0]), N0);
        assert_eq!(red("max.f32", &[N0, P0]), P0);
        assert_eq!(red("max.f32", &[P0, N0]), P0);
        assert_eq!(red("max.f32", &[N0, N0]), N0);
        // .abs: |-0.0| = +0.0.
        assert_eq!(red("min.abs.f32", &[N0, N0]), P0);
    }

    #[test]
    fn f32_min_max_and_abs() {
        assert_eq!(red("min.f32", &[ONE, M_TWO, TWO]), M_TWO);
        assert_eq!(red("max.f32", &[ONE, M_TWO, TWO]), TWO);
        assert_eq!(red("max.f32", &[M_INF, INF]), INF);
        assert_eq!(red("min.f32", &[M_INF, INF]), M_INF);
        assert_eq!(red("max.abs.f32", &[ONE, M_TWO]), TWO);
        assert_eq!(red("min.abs.f32", &[M_ONE, M_TWO]), ONE);
        assert_eq!(red("max.abs.f32", &[M_INF, ONE]), INF);
        // Subnormals are ordered (no flush): the smallest subnormals against zero.
        assert_eq!(red("min.f32", &[1, P0]), P0);
        assert_eq!(red("max.f32", &[0x8000_0001, N0]), N0);
        assert_eq!(red("max.f32", &[1, P0]), 1);
    }

    #[test]
    fn f32_nans_are_ignored_without_the_nan_qualifier() {
        assert_eq!(red("min.f32", &[QNAN, ONE, SNAN]), ONE);
        assert_eq!(red("max.f32", &[M_NAN, M_ONE]), M_ONE);
        assert_eq!(red("max.abs.f32", &[M_NAN, M_ONE]), ONE);
        // All NaN: the canonical NaN, whatever NaNs came in.
        assert_eq!(red("min.f32", &[QNAN, SNAN, M_NAN]), CANONICAL_NAN);
        assert_eq!(red("max.abs.f32", &[M_NAN]), CANONICAL_NAN);
        // Lanes outside the mask are not inputs: a NaN there does not count either way.
        let mut s = lanes(&[ONE]);
        s[1] = QNAN;
        assert_eq!(reduce(f("min.NaN.f32"), 1, &s), ONE);
        assert_eq!(reduce(f("min.f32"), 2, &s), CANONICAL_NAN);
    }

    #[test]
    fn f32_any_nan_gives_the_canonical_nan_with_the_nan_qualifier() {
        assert_eq!(red("min.NaN.f32", &[ONE, SNAN]), CANONICAL_NAN);
        assert_eq!(red("max.NaN.f32", &[M_NAN, INF]), CANONICAL_NAN);
        assert_eq!(red("max.abs.NaN.f32", &[M_NAN, INF]), CANONICAL_NAN);
        assert_eq!(red("max.NaN.f32", &[ONE, TWO]), TWO);
        assert_eq!(red("min.abs.NaN.f32", &[M_TWO, M_ONE]), ONE);
    }
}
