//! The legal PTX `red.async` forms (PTX ISA 8.7, section 9.7.13.7; the rules as read are in
//! `docs/semantics.md`) and the `red` operation each one performs.
//!
//! A `red.async` form is a [`RedAsync`]. It is never encoded on its own: the reduction it
//! performs is an existing `red` [`Form`] ([`RedAsync::red_form`]), sent to the unit with that
//! form's code, and the completion ([`RedAsync::complete_tx_bytes`]) is what the mbarrier
//! sees.
//!
//! # The 56 forms
//!
//! | sem | scope | `.mmio` | `.ss` | op.type | count |
//! | --- | --- | --- | --- | --- | --- |
//! | `.relaxed` | `.cluster` | no | `.shared::cluster` or none (generic) | `inc.u32 dec.u32 min.u32 min.s32 max.u32 max.s32 and.b32 or.b32 xor.b32 add.u32 add.s32 add.u64` | 2 × 12 = 24 |
//! | `.release` | `.cluster`, `.gpu`, `.sys` | no | `.global` or none (generic) | `add.u32 add.s32 add.u64 add.s64` | 3 × 2 × 4 = 24 |
//! | `.release` | `.sys` | yes | `.global` or none | the same four | 2 × 4 = 8 |
//!
//! [`RedAsync::all`] lists them (24 + 24 + 8 = 56).
//!
//! # How the seed text is read (its inconsistencies, resolved)
//!
//! 1. **`.sys` with `.release`.** The syntax block lists `.scope = { .gpu, .cluster }` for
//!    `.release`, but the Conditions say "if `.mmio` is specified, `.scope` must be `.sys`",
//!    the example is `red.async.release.sys.global.add.u32`, and the ISA notes introduce "the
//!    `.gpu` and `.sys` scopes" with `.release`. Reading: `.release` takes `.cluster`, `.gpu`
//!    and `.sys`; the syntax list omits `.sys`. `.mmio` needs `.sys`.
//! 2. **Completion mechanism.** For `.relaxed` it may be left out and then defaults to
//!    `.mbarrier::complete_tx::bytes`, so both spellings are the same form (printed with it).
//!    For `.release` it must not be given (and there is no `[mbar]` operand).
//! 3. **`.ss` is optional**: without it the address is generic (it must fall in the
//!    `.shared::cluster` window for `.relaxed`, `.global` for `.release`, else undefined). The
//!    two spellings are kept apart (printing round-trips). In `redunit run` traces a generic
//!    `.relaxed` address must lie in the shared window (`sim::spaces::SHARED_WINDOW_BASE` +
//!    the `.shared::cluster` address), else the row is refused; a generic `.release` address
//!    is used as it is.
//! 4. **`.add.s64`** exists only for `.release` (`.global`). Two's-complement addition is the
//!    same bit operation for signed and unsigned operands, and `red` has no `add.s64` form
//!    (see [`crate::form`]), so `add.s64` performs `global.add.u64`.
//! 5. **Spaces.** `.relaxed` performs the `shared` form, `.release` the `global` form
//!    (`relaxed.cluster.shared::cluster...add.u32` performs `shared.add.u32`). For these
//!    integer types the result does not depend on the space.
//! 6. **Bytes completed.** "complete-tx with `completeCount` equal to the amount of data
//!    stored in bytes": the size of `.type`, 4 (`.u32 .s32 .b32`) or 8 (`.u64`). A request
//!    that fails (misaligned, out of range) stores nothing and performs no complete-tx.
//! 7. **Qualifier order.** PTX writes `red.async{.mmio}.sem.scope{.ss}{.completion}.op.type`;
//!    like the `red` parser, any order is accepted after `red.async`. Every qualifier is
//!    written at most once: a repeated one (`.mmio.mmio`, a second `.sem`, scope, state space,
//!    completion mechanism, op or type) is refused with a message.

use std::fmt;
use std::str::FromStr;

use crate::form::{Form, FormError, Op, Space, Type};

/// Memory ordering of a `red.async`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sem {
    Relaxed,
    Release,
}

/// Scope of a `red.async`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scope {
    Cluster,
    Gpu,
    Sys,
}

impl Scope {
    pub fn name(self) -> &'static str {
        match self {
            Scope::Cluster => "cluster",
            Scope::Gpu => "gpu",
            Scope::Sys => "sys",
        }
    }
}

/// The one completion mechanism.
pub const COMPLETE_TX: &str = "mbarrier::complete_tx::bytes";

/// One legal `red.async` form. Only parsing and [`RedAsync::all`] build one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RedAsync {
    sem: Sem,
    scope: Scope,
    mmio: bool,
    /// `.ss` written (`.shared::cluster` for relaxed, `.global` for release); false: generic.
    ss: bool,
    op: Op,
    ty: Type,
}

fn err<T>(msg: impl Into<String>) -> Result<T, FormError> {
    Err(FormError(msg.into()))
}

/// The op.type pairs of `.relaxed` (with the rule text for errors).
fn relaxed_types(op: Op) -> (&'static [Type], &'static str) {
    match op {
        Op::Inc | Op::Dec => (&[Type::U32], "red.async .inc/.dec take .u32 only"),
        Op::Min | Op::Max => (&[Type::U32, Type::S32], "red.async .min/.max take .u32, .s32"),
        Op::And | Op::Or | Op::Xor => (&[Type::B32], "red.async .and/.or/.xor take .b32 only"),
        Op::Add => (
            &[Type::U32, Type::S32, Type::U64],
            "red.async.relaxed .add takes .u32, .s32, .u64 (.s64 exists only in the .release.global variant)",
        ),
    }
}

const RELEASE_TYPES: [Type; 4] = [Type::U32, Type::S32, Type::U64, Type::S64];

impl RedAsync {
    /// Checks a combination against the rules of the seed text (as read in the module doc).
    /// `ss`: the state space written, if any (`"shared::cluster"`, `"global"`, ...);
    /// `completion`: whether `.mbarrier::complete_tx::bytes` was written.
    pub fn new(
        sem: Sem,
        scope: Scope,
        mmio: bool,
        ss: Option<&str>,
        completion: bool,
        op: Op,
        ty: Type,
    ) -> Result<RedAsync, FormError> {
        match sem {
            Sem::Relaxed => {
                if mmio {
                    return err("with .relaxed, .mmio must not be specified");
                }
                if scope != Scope::Cluster {
                    return err(format!("red.async.relaxed takes scope .cluster only, not .{}", scope.name()));
                }
                if let Some(s) = ss.filter(|s| *s != "shared::cluster") {
                    return err(format!(
                        "with .relaxed, .ss must be .shared::cluster (or left out for generic addressing), not .{s}"
                    ));
                }
                let (types, rule) = relaxed_types(op);
                if !types.contains(&ty) {
                    return err(rule);
                }
            }
            Sem::Release => {
                if completion {
                    return err(format!(".{COMPLETE_TX} must not be specified with .release (it has no [mbar])"));
                }
                if let Some(s) = ss.filter(|s| *s != "global") {
                    return err(format!(
                        "with .release, .ss must be .global (or left out for generic addressing), not .{s}"
                    ));
                }
                if mmio && scope != Scope::Sys {
                    return err(format!("if .mmio is specified, .scope must be .sys, not .{}", scope.name()));
                }
                if op != Op::Add {
                    return err(format!("red.async.release takes .add only, not .{}", op.name()));
                }
                if !RELEASE_TYPES.contains(&ty) {
                    return err(format!("red.async.release .add takes .u32, .s32, .u64, .s64, not .{}", ty.name()));
                }
            }
        }
        Ok(RedAsync { sem, scope, mmio, ss: ss.is_some(), op, ty })
    }

    /// Every legal form (56), in a fixed order.
    pub fn all() -> Vec<RedAsync> {
        let mut v = Vec::new();
        for ss in [Some("shared::cluster"), None] {
            for op in crate::form::OPS {
                for ty in relaxed_types(op).0 {
                    v.push(RedAsync::new(Sem::Relaxed, Scope::Cluster, false, ss, true, op, *ty).unwrap());
                }
            }
        }
        for mmio in [false, true] {
            for scope in [Scope::Cluster, Scope::Gpu, Scope::Sys] {
                if mmio && scope != Scope::Sys {
                    continue;
                }
                for ss in [Some("global"), None] {
                    for ty in RELEASE_TYPES {
                        v.push(RedAsync::new(Sem::Release, scope, mmio, ss, false, Op::Add, ty).unwrap());
                    }
                }
            }
        }
        v
    }

    pub fn sem(self) -> Sem {
        self.sem
    }
    pub fn scope(self) -> Scope {
        self.scope
    }
    pub fn mmio(self) -> bool {
        self.mmio
    }
    /// Whether `.ss` was written (false: generic addressing).
    pub fn explicit_space(self) -> bool {
        self.ss
    }
    pub fn op(self) -> Op {
        self.op
    }
    pub fn ty(self) -> Type {
        self.ty
    }
    /// Bytes the reduction stores (4 or 8), which is also its alignment.
    pub fn bytes(self) -> usize {
        self.ty.bits() as usize / 8
    }
    /// Whether the form completes on an mbarrier (`.relaxed`: it takes `[mbar]`).
    pub fn has_mbarrier(self) -> bool {
        self.sem == Sem::Relaxed
    }
    /// The complete-tx count performed on the mbarrier when the reduction completes: the
    /// bytes stored, for the `.relaxed` forms; `None` for `.release` (no mbarrier).
    pub fn complete_tx_bytes(self) -> Option<u32> {
        self.has_mbarrier().then_some(self.bytes() as u32)
    }

    /// The `red` form this performs (module doc, points 4 and 5).
    pub fn red_form(self) -> Form {
        let (space, ty) = match self.sem {
            Sem::Relaxed => (Space::Shared, self.ty),
            Sem::Release => (Space::Global, if self.ty == Type::S64 { Type::U64 } else { self.ty }),
        };
        Form::new(space, self.op, ty, 1, false).expect("every red.async performs a legal red form")
    }
}

impl fmt::Display for RedAsync {
    /// `red.async{.mmio}.sem.scope{.ss}{.mbarrier::complete_tx::bytes}.op.type`, the
    /// completion mechanism always written for `.relaxed`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("red.async")?;
        if self.mmio {
            f.write_str(".mmio")?;
        }
        match self.sem {
            Sem::Relaxed => {
                write!(f, ".relaxed.{}", self.scope.name())?;
                if self.ss {
                    f.write_str(".shared::cluster")?;
                }
                write!(f, ".{COMPLETE_TX}")?;
            }
            Sem::Release => {
                write!(f, ".release.{}", self.scope.name())?;
                if self.ss {
                    f.write_str(".global")?;
                }
            }
        }
        write!(f, ".{}.{}", self.op.name(), self.ty.name())
    }
}

impl FromStr for RedAsync {
    type Err = FormError;

    /// Parses `red.async.<qualifiers>`; qualifiers in any order.
    fn from_str(name: &str) -> Result<RedAsync, FormError> {
        let Some(body) = name.strip_prefix("red.async.") else {
            return err(format!("`{name}` is not a red.async form: it must start with `red.async.`"));
        };
        let (mut sem, mut scope, mut ss, mut op, mut ty) = (None, None, None, None, None);
        let (mut mmio, mut completion) = (false, false);
        fn once<T>(slot: &mut Option<T>, v: T, what: &str, tok: &str) -> Result<(), FormError> {
            if slot.is_some() {
                return err(format!("`.{tok}` is a second {what}; a red.async form has one"));
            }
            *slot = Some(v);
            Ok(())
        }
        for tok in body.split('.') {
            match tok {
                "relaxed" => once(&mut sem, Sem::Relaxed, ".sem", tok)?,
                "release" => once(&mut sem, Sem::Release, ".sem", tok)?,
                "acquire" | "acq_rel" | "weak" | "volatile" | "relaxed_mmio" => {
                    return err(format!("red.async .sem is .relaxed or .release, not .{tok}"));
                }
                "cluster" => once(&mut scope, Scope::Cluster, ".scope", tok)?,
                "gpu" => once(&mut scope, Scope::Gpu, ".scope", tok)?,
                "sys" => once(&mut scope, Scope::Sys, ".scope", tok)?,
                "cta" => {
                    return err(
                        "red.async takes scope .cluster (.relaxed) or .cluster, .gpu, .sys (.release), not .cta",
                    );
                }
                "shared::cluster" | "global" | "shared::cta" | "shared" | "local" | "const" | "param" => {
                    once(&mut ss, tok, "state space", tok)?
                }
                "mmio" if mmio => return err(format!("`.mmio` is repeated in `{name}`: write it once")),
                "mmio" => mmio = true,
                COMPLETE_TX if completion => {
                    return err(format!("`.{COMPLETE_TX}` is repeated in `{name}`: write it once"));
                }
                COMPLETE_TX => completion = true,
                t if t.starts_with("mbarrier::") => {
                    return err(format!("the completion mechanism is .{COMPLETE_TX}, not .{t}"));
                }
                _ => {
                    if let Some(o) = crate::form::OPS.iter().find(|o| o.name() == tok) {
                        once(&mut op, *o, "op", tok)?;
                    } else if let Some(t) = crate::form::TYPES.iter().find(|t| t.name() == tok) {
                        once(&mut ty, *t, "type", tok)?;
                    } else {
                        return err(format!(
                            "unknown qualifier `.{tok}` in `{name}`: expected .mmio, a .sem (relaxed, release), \
                             a .scope (cluster, gpu, sys), a .ss (shared::cluster, global), .{COMPLETE_TX}, \
                             an op (add, min, max, inc, dec, and, or, xor) or a type (u32, s32, u64, s64, b32)"
                        ));
                    }
                }
            }
        }
        let Some(sem) = sem else {
            return err(format!("`{name}` names no .sem: red.async needs .relaxed or .release"));
        };
        let Some(scope) = scope else {
            return err(format!(
                "`{name}` names no .scope: .relaxed takes .cluster; .release takes .cluster, .gpu or .sys"
            ));
        };
        let Some(op) = op else {
            return err(format!("`{name}` names no op: add, min, max, inc, dec, and, or or xor"));
        };
        let Some(ty) = ty else {
            return err(format!("`{name}` names no type"));
        };
        RedAsync::new(sem, scope, mmio, ss, completion, op, ty)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_56_forms_that_round_trip() {
        let all = RedAsync::all();
        assert_eq!(all.len(), 56);
        let relaxed = all.iter().filter(|f| f.sem() == Sem::Relaxed).count();
        assert_eq!(relaxed, 24);
        for f in &all {
            assert_eq!(f.to_string().parse::<RedAsync>(), Ok(*f), "{f}");
        }
        let mut uniq = all.clone();
        uniq.sort();
        uniq.dedup();
        assert_eq!(uniq.len(), all.len());
    }

    #[test]
    fn forms_map_to_red_forms() {
        let p = |s: &str| s.parse::<RedAsync>().unwrap();
        let f = p("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.min.u32");
        assert_eq!(f.red_form().to_string(), "shared.min.u32");
        assert_eq!(f.complete_tx_bytes(), Some(4));
        // The completion mechanism defaults, and the printed name spells it out.
        let g = p("red.async.relaxed.cluster.add.u64");
        assert_eq!(g.to_string(), "red.async.relaxed.cluster.mbarrier::complete_tx::bytes.add.u64");
        assert_eq!(g.red_form().to_string(), "shared.add.u64");
        assert_eq!(g.complete_tx_bytes(), Some(8));
        let r = p("red.async.release.sys.global.add.u32");
        assert_eq!(r.red_form().to_string(), "global.add.u32");
        assert_eq!(r.complete_tx_bytes(), None);
        assert_eq!(p("red.async.mmio.release.sys.add.s64").red_form().to_string(), "global.add.u64");
        assert_eq!(p("red.async.relaxed.cluster.xor.b32").red_form().to_string(), "shared.xor.b32");
        // Any qualifier order.
        assert_eq!(
            p("red.async.u32.inc.cluster.relaxed").to_string(),
            "red.async.relaxed.cluster.mbarrier::complete_tx::bytes.inc.u32"
        );
    }

    #[test]
    fn illegal_forms_name_the_rule() {
        let e = |s: &str| s.parse::<RedAsync>().unwrap_err().0;
        assert!(e("red.async.relaxed.cluster.add.s64").contains(".s64 exists only in the .release.global variant"));
        assert!(e("red.async.relaxed.cluster.inc.s32").contains(".inc/.dec take .u32 only"));
        assert!(e("red.async.relaxed.cluster.min.u64").contains(".min/.max take .u32, .s32"));
        assert!(e("red.async.relaxed.cluster.and.b64").contains(".and/.or/.xor take .b32 only"));
        assert!(e("red.async.mmio.release.gpu.global.add.u32").contains("if .mmio is specified, .scope must be .sys"));
        assert!(e("red.async.mmio.relaxed.cluster.add.u32").contains("with .relaxed, .mmio must not be specified"));
        assert!(
            e("red.async.release.gpu.global.mbarrier::complete_tx::bytes.add.u32")
                .contains("must not be specified with .release")
        );
        assert!(e("red.async.release.gpu.shared::cluster.add.u32").contains(".ss must be .global"));
        assert!(e("red.async.relaxed.cluster.global.add.u32").contains(".ss must be .shared::cluster"));
        assert!(e("red.async.relaxed.gpu.add.u32").contains("scope .cluster only"));
        assert!(e("red.async.release.gpu.min.u32").contains(".add only"));
        assert!(e("red.async.release.gpu.add.f32").contains(".u32, .s32, .u64, .s64"));
        assert!(e("red.async.acquire.gpu.add.u32").contains(".relaxed or .release"));
        assert!(e("red.async.cluster.add.u32").contains("names no .sem"));
        assert!(e("red.async.relaxed.add.u32").contains("names no .scope"));
        assert!(e("red.async.relaxed.cluster.mbarrier::complete_tx::foo.add.u32").contains("completion mechanism"));
        assert!(e("red.async.relaxed.cluster.add.u32.bogus").contains("unknown qualifier `.bogus`"));
        assert!(e("red.async.relaxed.relaxed.cluster.add.u32").contains("second .sem"));
        assert!(e("red.async.mmio.mmio.release.sys.global.add.u32").contains("`.mmio` is repeated"));
        assert!(e("red.async.mmio.release.sys.mmio.add.u32").contains("`.mmio` is repeated"));
        assert!(
            e("red.async.relaxed.cluster.mbarrier::complete_tx::bytes.mbarrier::complete_tx::bytes.add.u32")
                .contains("is repeated")
        );
        assert!(e("red.async.relaxed.cluster.shared::cluster.shared::cluster.add.u32").contains("second state space"));
        assert!(e("red.async.relaxed.cluster.add.add.u32").contains("second op"));
        assert!(e("red.async.relaxed.cluster.add.u32.u32").contains("second type"));
        assert!(e("red.async.release.sys.sys.add.u32").contains("second .scope"));
        assert!(e("red.global.add.u32").contains("must start with `red.async.`"));
    }
}
