//! PTX `red`/`atom` instructions as written (PTX ISA 9.7.13.6): a [`Form`] with the
//! qualifiers that do not pick the form's arithmetic — `.sem`, `.scope`, the state space
//! (including generic addressing, where there is none) and `.L2::cache_hint`.
//!
//! The grammar is the PTX text's:
//!
//! ```text
//! red{.sem}{.scope}{.space}.op{.noftz}{.L2::cache_hint}.type
//! red{.sem}{.scope}{.global}.op{.noftz}{.L2::cache_hint}.vN.type
//! .sem = { .relaxed, .release }   .scope = { .cta, .cluster, .gpu, .sys }
//! .space = { .global, .shared, .shared::cta, .shared::cluster }   (none: generic addressing)
//! ```
//!
//! `.sem` and `.scope` come first, in that order, before everything else; `.L2::cache_hint`
//! comes after the op (and its `.noftz`) and before the vector width and type. The form's own
//! tokens (space, op, `.noftz`, vector width, type) may come in any order, as [`Form`]'s names
//! always could (the capture files write vectors `global.v8.f16.add.noftz`). A token given
//! twice, a second `.sem`, `.scope` or space, and a token out of the grammar's order are
//! refused with the rule. The instruction's [`Form`] and its state space are separate:
//! generic instructions get their space from the address ([`crate::spaces`]).

use std::fmt;
use std::str::FromStr;

use crate::form::{Form, FormError, Space};

/// The memory-ordering semantics (`.sem`). Absent means `.relaxed` (PTX).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sem {
    Relaxed,
    Release,
}

/// The scope (`.scope`). Absent means `.gpu` (PTX).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scope {
    Cta,
    Cluster,
    Gpu,
    Sys,
}

/// The state space an instruction names, or `Generic` when it names none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AddrSpace {
    Global,
    /// `.shared` or `.shared::cta` (the same: `::cta` is the default sub-qualifier).
    Shared,
    /// `.shared::cluster`: the model has one CTA's shared memory, so this is the own CTA's.
    SharedCluster,
    /// No state space: the address picks one ([`crate::spaces::window`]).
    Generic,
}

impl Sem {
    pub fn name(self) -> &'static str {
        match self {
            Sem::Relaxed => "relaxed",
            Sem::Release => "release",
        }
    }
}

impl Scope {
    pub fn name(self) -> &'static str {
        match self {
            Scope::Cta => "cta",
            Scope::Cluster => "cluster",
            Scope::Gpu => "gpu",
            Scope::Sys => "sys",
        }
    }
}

impl AddrSpace {
    /// The token, empty for generic addressing.
    pub fn name(self) -> &'static str {
        match self {
            AddrSpace::Global => "global",
            AddrSpace::Shared => "shared",
            AddrSpace::SharedCluster => "shared::cluster",
            AddrSpace::Generic => "",
        }
    }
    /// The space an explicit state space names; `None` for generic addressing.
    pub fn space(self) -> Option<Space> {
        match self {
            AddrSpace::Global => Some(Space::Global),
            AddrSpace::Shared | AddrSpace::SharedCluster => Some(Space::Shared),
            AddrSpace::Generic => None,
        }
    }
    /// Parses a state-space token (`global`, `shared`, `shared::cta`, `shared::cluster`).
    pub fn from_token(tok: &str) -> Option<AddrSpace> {
        match tok {
            "global" => Some(AddrSpace::Global),
            "shared" | "shared::cta" => Some(AddrSpace::Shared),
            "shared::cluster" => Some(AddrSpace::SharedCluster),
            _ => None,
        }
    }
}

pub const SEMS: [Sem; 2] = [Sem::Relaxed, Sem::Release];
pub const SCOPES: [Scope; 4] = [Scope::Cta, Scope::Cluster, Scope::Gpu, Scope::Sys];
/// The cache-hint qualifier of `red` (the only `.level::cache_hint` PTX defines for it).
pub const CACHE_HINT: &str = "L2::cache_hint";

/// A `red` (or `atom`) instruction as written: its form and the qualifiers beside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RedInstr {
    /// As written; `None` means the default, `.relaxed`.
    pub sem: Option<Sem>,
    /// As written; `None` means the default, `.gpu`.
    pub scope: Option<Scope>,
    pub space: AddrSpace,
    /// `.L2::cache_hint`: a performance hint, accepted and ignored.
    pub cache_hint: bool,
    /// The form in the named space; for generic addressing, the form in global space.
    form: Form,
}

fn err<T>(msg: impl Into<String>) -> Result<T, FormError> {
    Err(FormError(msg.into()))
}

/// The grammar, quoted in order errors.
const GRAMMAR: &str = "red{.sem}{.scope}{.space}.op{.noftz}{.L2::cache_hint}{.vN}.type";

impl RedInstr {
    /// An instruction with no `.sem`, `.scope` or cache hint in `form`'s space.
    pub fn plain(form: Form) -> RedInstr {
        let space = match form.space() {
            Space::Global => AddrSpace::Global,
            Space::Shared => AddrSpace::Shared,
        };
        RedInstr { sem: None, scope: None, space, cache_hint: false, form }
    }

    /// The effective `.sem` (`.relaxed` when none is written).
    pub fn sem_or_default(self) -> Sem {
        self.sem.unwrap_or(Sem::Relaxed)
    }
    /// The effective `.scope` (`.gpu` when none is written).
    pub fn scope_or_default(self) -> Scope {
        self.scope.unwrap_or(Scope::Gpu)
    }

    /// The form in an explicit state space; `None` for generic addressing.
    pub fn explicit_form(self) -> Option<Form> {
        (self.space != AddrSpace::Generic).then_some(self.form)
    }

    /// The form the instruction performs when its address lies in `space`. Refused for a
    /// vector form or a cache hint in shared space (PTX: both are global only).
    pub fn form_in(self, space: Space) -> Result<Form, FormError> {
        if space == Space::Global {
            return Form::new(space, self.form.op(), self.form.ty(), self.form.vec() as u8, self.form.ty().is_half());
        }
        if self.form.is_vector() {
            return err("vector red takes global addresses only (PTX), and this one is in shared memory");
        }
        if self.cache_hint {
            return err(".L2::cache_hint is for global addresses only (PTX), and this one is in shared memory");
        }
        Form::new(space, self.form.op(), self.form.ty(), 1, self.form.ty().is_half())
    }

    /// Every spelling the grammar accepts for `form`'s op, type and vector width, in the
    /// grammar's order: each `.sem` (or none), `.scope` (or none), state space (with the
    /// sub-qualifiers, and none), with and without `.L2::cache_hint` where it is legal.
    pub fn spellings(form: Form) -> Vec<String> {
        let mut spaces = vec![AddrSpace::Global, AddrSpace::Generic];
        if !form.is_vector() {
            spaces.extend([AddrSpace::Shared, AddrSpace::SharedCluster]);
        }
        let mut out = Vec::new();
        for sem in [None].into_iter().chain(SEMS.map(Some)) {
            for scope in [None].into_iter().chain(SCOPES.map(Some)) {
                for &space in &spaces {
                    let shared = matches!(space, AddrSpace::Shared | AddrSpace::SharedCluster);
                    for hint in [false, true] {
                        if hint && shared {
                            continue;
                        }
                        let i = RedInstr { sem, scope, space, cache_hint: hint, form };
                        out.push(format!("red.{}", i.seed_order()));
                        if space == AddrSpace::Shared {
                            out.push(format!("red.{}", i.seed_order().replacen("shared", "shared::cta", 1)));
                        }
                    }
                }
            }
        }
        out
    }

    /// The spelling in the PTX grammar's order (vectors as `op.noftz.vN.type`).
    pub fn seed_order(self) -> String {
        let mut t = self.prefix();
        let f = self.form;
        t.push(f.op().name().to_string());
        if f.ty().is_half() {
            t.push("noftz".into());
        }
        if self.cache_hint {
            t.push(CACHE_HINT.into());
        }
        if f.is_vector() {
            t.push(format!("v{}", f.vec()));
        }
        t.push(f.ty().name().into());
        t.join(".")
    }

    fn prefix(self) -> Vec<String> {
        let mut t = Vec::new();
        t.extend(self.sem.map(|s| s.name().to_string()));
        t.extend(self.scope.map(|s| s.name().to_string()));
        if self.space != AddrSpace::Generic {
            t.push(self.space.name().into());
        }
        t
    }
}

impl fmt::Display for RedInstr {
    /// The qualifiers in the grammar's order, then the form as [`Form`] names it (without its
    /// space token); with a cache hint, the whole name in the grammar's order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.cache_hint {
            return f.write_str(&self.seed_order());
        }
        let mut t = self.prefix();
        let form = self.form.to_string();
        // The form's own space token is the first; the prefix carries the written one.
        let rest = form.split_once('.').map_or("", |(_, r)| r);
        t.push(rest.to_string());
        f.write_str(&t.join("."))
    }
}

/// Where a token sits in the grammar; the order of the variants is the grammar's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Slot {
    Sem,
    Scope,
    /// The state space and the op (they may swap, as Form names always allowed).
    Core,
}

/// `body` with its `.sem` and `.scope` tokens moved to the front in the grammar's order, when
/// that spelling parses: the suggestion for a name that has them out of place.
fn reordered(body: &str) -> Option<String> {
    let toks: Vec<&str> = body.split('.').collect();
    let is_sem = |t: &&str| SEMS.iter().any(|s| s.name() == *t);
    let is_scope = |t: &&str| SCOPES.iter().any(|s| s.name() == *t);
    let mut out: Vec<&str> = toks.iter().copied().filter(is_sem).collect();
    out.extend(toks.iter().copied().filter(is_scope));
    out.extend(toks.iter().copied().filter(|t| !is_sem(t) && !is_scope(t)));
    let s = out.join(".");
    s.parse::<RedInstr>().ok().map(|_| s)
}

impl FromStr for RedInstr {
    type Err = FormError;

    fn from_str(name: &str) -> Result<RedInstr, FormError> {
        let body = name.strip_prefix("red.").unwrap_or(name);
        if body.is_empty() {
            return err("empty form name: expected e.g. global.add.u32");
        }
        let (mut sem, mut scope, mut space, mut hint) = (None::<Sem>, None::<Scope>, None::<AddrSpace>, false);
        let mut last = Slot::Sem;
        // The hint follows the op and precedes the vector width and type.
        let (mut op_seen, mut tail_seen) = (false, false);
        let mut core: Vec<&str> = Vec::new();
        let mut seen: Vec<&str> = Vec::new();
        for tok in body.split('.') {
            if !tok.is_empty() && seen.contains(&tok) {
                return err(format!("`.{tok}` appears twice in `{name}`: write it once"));
            }
            seen.push(tok);
            let order = |what: &str, slot: Slot| -> Result<(), FormError> {
                if last > slot {
                    return err(format!(
                        "`.{tok}` is out of place in `{name}`: {what} comes before the state space and the op \
                         ({GRAMMAR}, .sem before .scope){}",
                        reordered(body).map_or(String::new(), |s| format!("; write red.{s}"))
                    ));
                }
                Ok(())
            };
            if let Some(s) = SEMS.iter().find(|s| s.name() == tok) {
                if let Some(prev) = sem {
                    return err(format!(
                        "`.{tok}` is a second .sem in `{name}` (after `.{}`): a red has one, .relaxed or .release",
                        prev.name()
                    ));
                }
                order(".sem", Slot::Sem)?;
                sem = Some(*s);
                last = Slot::Sem;
            } else if let Some(s) = SCOPES.iter().find(|s| s.name() == tok) {
                if let Some(prev) = scope {
                    return err(format!(
                        "`.{tok}` is a second .scope in `{name}` (after `.{}`): a red has one of .cta, .cluster, .gpu, .sys",
                        prev.name()
                    ));
                }
                order(".scope", Slot::Scope)?;
                scope = Some(*s);
                last = Slot::Scope;
            } else if matches!(tok, "acquire" | "acq_rel" | "weak" | "volatile" | "mmio") {
                return err(format!(
                    "`.{tok}` is not a qualifier of red in `{name}`: its .sem is .relaxed or .release \
                     (an acquiring read-modify-write is atom, not red)"
                ));
            } else if tok == CACHE_HINT {
                if !op_seen || tail_seen {
                    return err(format!(
                        "`.{CACHE_HINT}` is out of place in `{name}`: it follows the op (and .noftz) and \
                         precedes the vector width and type ({GRAMMAR})"
                    ));
                }
                hint = true;
            } else if tok.starts_with("L2::") || tok.starts_with("L1::") {
                return err(format!("`.{tok}` in `{name}`: the one cache qualifier of red is .{CACHE_HINT}"));
            } else {
                if let Some(s) = AddrSpace::from_token(tok) {
                    if let Some(prev) = space {
                        return err(format!(
                            "`.{tok}` is a second state space in `{name}` (after `.{}`): a red names one, or none \
                             for a generic address",
                            prev.name()
                        ));
                    }
                    space = Some(s);
                } else if crate::form::OPS.iter().any(|o| o.name() == tok) {
                    op_seen = true;
                } else if tok == "noftz" {
                    if hint {
                        return err(format!(
                            "`.noftz` is out of place in `{name}`: it precedes .{CACHE_HINT} ({GRAMMAR})"
                        ));
                    }
                } else {
                    tail_seen = true;
                }
                last = Slot::Core;
                core.push(tok);
            }
        }
        let space = space.unwrap_or(AddrSpace::Generic);
        if space == AddrSpace::Generic {
            core.insert(0, "global");
        }
        let text = core.join(".");
        // A generic name is checked as the global form; its errors quote the name as written.
        let form: Form =
            text.parse().map_err(|e: FormError| FormError(e.0.replace(&format!("`{text}`"), &format!("`{name}`"))))?;
        if hint && matches!(space, AddrSpace::Shared | AddrSpace::SharedCluster) {
            return err(format!(
                "`.{CACHE_HINT}` is for global addresses only (PTX) in `{name}`: drop it, or write .global"
            ));
        }
        Ok(RedInstr { sem, scope, space, cache_hint: hint, form })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> RedInstr {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }
    fn e(s: &str) -> String {
        s.parse::<RedInstr>().unwrap_err().0
    }

    #[test]
    fn the_seed_grammar_parses_with_its_qualifiers() {
        let i = p("red.relaxed.gpu.global.add.u32");
        assert_eq!(
            (i.sem, i.scope, i.space, i.cache_hint),
            (Some(Sem::Relaxed), Some(Scope::Gpu), AddrSpace::Global, false)
        );
        assert_eq!(i.explicit_form().unwrap().to_string(), "global.add.u32");
        assert_eq!(i.to_string(), "relaxed.gpu.global.add.u32");
        let i = p("red.release.sys.shared::cluster.max.u32");
        assert_eq!(i.space, AddrSpace::SharedCluster);
        assert_eq!(i.explicit_form().unwrap().to_string(), "shared.max.u32");
        let i = p("red.add.noftz.f16x2");
        assert_eq!((i.space, i.explicit_form()), (AddrSpace::Generic, None));
        assert_eq!(i.form_in(Space::Shared).unwrap().to_string(), "shared.add.noftz.f16x2");
        assert_eq!(i.to_string(), "add.noftz.f16x2");
        let i = p("red.global.and.L2::cache_hint.b32");
        assert!(i.cache_hint);
        assert_eq!(i.to_string(), "global.and.L2::cache_hint.b32");
        let i = p("red.cta.global.add.noftz.L2::cache_hint.v8.bf16");
        assert_eq!(i.to_string(), "cta.global.add.noftz.L2::cache_hint.v8.bf16");
        assert_eq!(i.explicit_form().unwrap().to_string(), "global.v8.bf16.add.noftz");
        // Defaults: .relaxed and .gpu.
        let i = p("shared::cta.inc.u32");
        assert_eq!(
            (i.sem_or_default(), i.scope_or_default(), i.to_string().as_str()),
            (Sem::Relaxed, Scope::Gpu, "shared.inc.u32")
        );
        // The capture-file names are unchanged.
        for f in Form::all() {
            assert_eq!(p(&f.to_string()), RedInstr::plain(f));
            assert_eq!(RedInstr::plain(f).to_string(), f.to_string());
        }
    }

    #[test]
    fn repeated_contradictory_and_misplaced_qualifiers_are_refused() {
        assert_eq!(
            e("red.global.add.noftz.noftz.f16"),
            "`.noftz` appears twice in `red.global.add.noftz.noftz.f16`: write it once"
        );
        assert!(e("red.relaxed.release.global.add.u32").contains("second .sem"));
        assert!(e("red.gpu.sys.global.add.u32").contains("second .scope"));
        assert!(e("red.global.shared.add.u32").contains("second state space"));
        assert!(e("red.shared::cta.shared::cluster.add.u32").contains("second state space"));
        assert!(e("red.global.cluster.relaxed.add.u32").contains("`.cluster` is out of place"));
        assert!(e("red.global.sys.add.u32").ends_with("; write red.sys.global.add.u32"));
        assert!(e("red.gpu.relaxed.global.add.u32").contains("`.relaxed` is out of place"));
        assert!(e("red.global.acquire.sys.add.u32").contains("not a qualifier of red"));
        assert!(e("red.global.L2::cache_hint.and.b32").contains("out of place"));
        assert!(e("red.global.and.b32.L2::cache_hint").contains("out of place"));
        assert!(e("red.global.v8.f16.add.noftz.L2::cache_hint").contains("out of place"));
        assert!(e("red.global.add.L2::cache_hint.noftz.f16").contains("`.noftz` is out of place"));
        assert!(e("red.shared.and.L2::cache_hint.b32").contains("global addresses only"));
        assert!(e("red.global.and.L2::evict_last.b32").contains("one cache qualifier"));
        assert!(e("red.shared.v2.f32.add").contains("vector forms are global only"));
    }

    #[test]
    fn generic_forms_resolve_per_space() {
        let v = p("red.add.noftz.v2.f16");
        assert_eq!(v.form_in(Space::Global).unwrap().to_string(), "global.v2.f16.add.noftz");
        assert!(v.form_in(Space::Shared).unwrap_err().0.contains("vector red takes global addresses only"));
        let h = p("red.and.L2::cache_hint.b32");
        assert!(h.form_in(Space::Shared).unwrap_err().0.contains("cache_hint is for global"));
        assert_eq!(p("red.add.f32").form_in(Space::Shared).unwrap().to_string(), "shared.add.f32");
    }

    #[test]
    fn every_listed_spelling_parses_back() {
        let mut n = 0;
        for f in Form::all().into_iter().filter(|f| f.space() == Space::Global) {
            for s in RedInstr::spellings(f) {
                let i = p(&s);
                assert_eq!(i.form_in(Space::Global).unwrap(), f, "{s}");
                assert_eq!(p(&i.to_string()), i, "{s}");
                n += 1;
            }
        }
        // 25 scalar forms: 3 sems x 5 scopes x (global 2 + generic 2 + shared 2 + shared::cluster 1);
        // 32 vector forms: 3 x 5 x (global 2 + generic 2).
        assert_eq!(n, 25 * 15 * 7 + 32 * 15 * 4);
    }
}
