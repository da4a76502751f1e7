//! Separate global and shared memories, generic addresses and the trace operations that name
//! a state space.
//!
//! On a GPU, global and shared memory are different memories: a shared `red` executes in the
//! SM's shared memory, a global one in the L2 slice that owns the line. [`Spaces`] holds one
//! [`Memory`] for each; an explicit state space addresses its own memory from 0.
//!
//! Generic addresses (an instruction with no state space) resolve through a window map like
//! the GPU's: one window of [`SHARED_WINDOW_BYTES`] at [`SHARED_WINDOW_BASE`] maps onto the
//! CTA's shared memory (generic `SHARED_WINDOW_BASE + k` is shared offset `k`); every other
//! generic address is the same global address. The GPU's window base is chosen by the driver
//! (read with `cvta`/`isspacep`); the model fixes it at 2^32, above every global memory it
//! takes (at most 4 GiB), so the two never overlap. `.shared::cluster` addresses the own
//! CTA's shared memory (the model has one CTA). A generic address inside the window but past
//! the shared memory's size is out of range, as an explicit shared address is.

use std::fmt;
use std::str::FromStr;

use crate::form::{FormError, Space};
use crate::memory::{Access, MemError, Memory, Request, Width};
use crate::ptx::{AddrSpace, RedInstr};

/// Generic address of shared offset 0.
pub const SHARED_WINDOW_BASE: u64 = 1 << 32;
/// Size of the shared window in the generic address space.
pub const SHARED_WINDOW_BYTES: u64 = 1 << 32;

/// The space and the address in it of a generic address.
pub fn window(generic: u64) -> (Space, u64) {
    match generic.checked_sub(SHARED_WINDOW_BASE) {
        Some(k) if k < SHARED_WINDOW_BYTES => (Space::Shared, k),
        _ => (Space::Global, generic),
    }
}

/// The space and address a trace address means under a named state space.
pub fn resolve(space: AddrSpace, addr: u64) -> (Space, u64) {
    match space.space() {
        Some(s) => (s, addr),
        None => window(addr),
    }
}

/// An operation of a request trace as written: `ld`/`st` with an optional state space, or a
/// `red`/`atom` instruction with its qualifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TraceOp {
    Ld(Width, AddrSpace),
    St(Width, AddrSpace),
    Red(RedInstr),
    Atom(RedInstr),
    /// `atom[.space].cas.b32|b64`.
    Cas(Width, AddrSpace),
}

/// A trace operation resolved at its address: the memory it runs in and the request there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resolved {
    pub space: Space,
    /// The request, its address relative to `space`'s memory.
    pub req: Request,
}

impl TraceOp {
    /// Bytes the operation's operand takes (its access size).
    pub fn bytes(self) -> usize {
        match self {
            TraceOp::Ld(w, _) | TraceOp::St(w, _) | TraceOp::Cas(w, _) => w.bytes(),
            TraceOp::Red(i) | TraceOp::Atom(i) => i.form_in(Space::Global).map_or(0, |f| f.bytes()),
        }
    }
    /// Bytes of the operand column: the access's, twice that for `atom.cas` (compare, swap).
    pub fn operand_bytes(self) -> usize {
        match self {
            TraceOp::Cas(w, _) => 2 * w.bytes(),
            op => op.bytes(),
        }
    }
    pub fn has_operand(self) -> bool {
        !matches!(self, TraceOp::Ld(..))
    }
    pub fn returns(self) -> bool {
        matches!(self, TraceOp::Ld(..) | TraceOp::Atom(_) | TraceOp::Cas(..))
    }
    /// The cache hint, which takes the optional cache-policy operand.
    pub fn cache_hint(self) -> bool {
        matches!(self, TraceOp::Red(i) | TraceOp::Atom(i) if i.cache_hint)
    }
    /// The state space the operation names (`Generic` when none).
    pub fn addr_space(self) -> AddrSpace {
        match self {
            TraceOp::Ld(_, s) | TraceOp::St(_, s) | TraceOp::Cas(_, s) => s,
            TraceOp::Red(i) | TraceOp::Atom(i) => i.space,
        }
    }

    /// Resolves the operation at `addr` (generic addresses through [`window`]). Refused, with
    /// the reason, when a generic vector `red` or a cache hint points into shared memory.
    pub fn resolve(self, addr: u64, value: u128) -> Result<Resolved, FormError> {
        let (space, a) = resolve(self.addr_space(), addr);
        let access = match self {
            TraceOp::Ld(w, _) => Access::Ld(w),
            TraceOp::St(w, _) => Access::St(w),
            TraceOp::Cas(w, _) => Access::Cas(w),
            TraceOp::Red(i) | TraceOp::Atom(i) => {
                let form = i.form_in(space).map_err(|e| {
                    FormError(format!(
                        "{e}: generic address {addr:x} is in the shared window ({SHARED_WINDOW_BASE:x}-{:x}); use a \
                         global address (below {SHARED_WINDOW_BASE:x}) or write .global",
                        SHARED_WINDOW_BASE + SHARED_WINDOW_BYTES - 1
                    ))
                })?;
                if matches!(self, TraceOp::Red(_)) { Access::Red(form) } else { Access::Atom(form) }
            }
        };
        Ok(Resolved { space, req: Request { access, addr: a, value } })
    }
}

impl fmt::Display for TraceOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sp = |s: AddrSpace| if s == AddrSpace::Generic { String::new() } else { format!("{}.", s.name()) };
        match self {
            TraceOp::Ld(w, s) => {
                write!(f, "{}", Access::Ld(*w).to_string().replacen("ld.", &format!("ld.{}", sp(*s)), 1))
            }
            TraceOp::St(w, s) => {
                write!(f, "{}", Access::St(*w).to_string().replacen("st.", &format!("st.{}", sp(*s)), 1))
            }
            TraceOp::Red(i) => write!(f, "{i}"),
            TraceOp::Atom(i) => write!(f, "atom.{i}"),
            TraceOp::Cas(w, s) => {
                write!(f, "{}", Access::Cas(*w).to_string().replacen("atom.", &format!("atom.{}", sp(*s)), 1))
            }
        }
    }
}

impl FromStr for TraceOp {
    type Err = FormError;
    /// `ld`/`st` with an optional state space (`ld.shared.b32`; none: generic) and width
    /// `b32|b64|b128`; a `red` instruction ([`RedInstr`]); or `atom.` + one.
    fn from_str(s: &str) -> Result<TraceOp, FormError> {
        let plain = |rest: &str, ld: bool| -> Result<TraceOp, FormError> {
            let (space, width) = match rest.split_once('.') {
                Some((sp, w)) => match AddrSpace::from_token(sp) {
                    Some(space) => (space, w),
                    None => {
                        return Err(FormError(format!(
                            "`{s}`: loads and stores are {}[.global|.shared|.shared::cta|.shared::cluster].b32|b64|b128",
                            if ld { "ld" } else { "st" }
                        )));
                    }
                },
                None => (AddrSpace::Generic, rest),
            };
            let op = if ld { "ld" } else { "st" };
            let access: Access = format!("{op}.{width}")
                .parse()
                .map_err(|_| FormError(format!("`{s}`: loads and stores are b32, b64 or b128")))?;
            let w = match access {
                Access::Ld(w) | Access::St(w) => w,
                _ => unreachable!("an ld./st. name parses as a load or store"),
            };
            Ok(if ld { TraceOp::Ld(w, space) } else { TraceOp::St(w, space) })
        };
        if let Some(r) = s.strip_prefix("ld.") {
            plain(r, true)
        } else if let Some(r) = s.strip_prefix("st.") {
            plain(r, false)
        } else if let Some(r) = s.strip_prefix("atom.").filter(|r| r.contains("cas.")) {
            // `atom[.space].cas.b32|b64`.
            let (space, width) = match r.split_once("cas.") {
                Some(("", w)) => (AddrSpace::Generic, w),
                Some((sp, w)) => match sp.strip_suffix('.').and_then(AddrSpace::from_token) {
                    Some(space) => (space, w),
                    None => {
                        return Err(FormError(format!(
                            "`{s}`: atom.cas is atom[.global|.shared|.shared::cta|.shared::cluster].cas.b32|b64"
                        )));
                    }
                },
                None => unreachable!("filtered on `cas.`"),
            };
            match format!("atom.cas.{width}").parse::<Access>()? {
                Access::Cas(w) => Ok(TraceOp::Cas(w, space)),
                _ => unreachable!("an atom.cas. name parses as atom.cas"),
            }
        } else if let Some(r) = s.strip_prefix("atom.") {
            Ok(TraceOp::Atom(r.parse()?))
        } else {
            Ok(TraceOp::Red(s.parse()?))
        }
    }
}

/// The global and the shared memory of the model, each addressed from 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spaces {
    pub global: Memory,
    pub shared: Memory,
}

impl Spaces {
    pub fn new(global_bytes: usize, shared_bytes: usize) -> Spaces {
        Spaces { global: Memory::new(global_bytes), shared: Memory::new(shared_bytes) }
    }
    pub fn memory(&mut self, space: Space) -> &mut Memory {
        match space {
            Space::Global => &mut self.global,
            Space::Shared => &mut self.shared,
        }
    }
    /// Executes a resolved request in its space's memory.
    pub fn execute(&mut self, r: &Resolved) -> Result<Option<u128>, MemError> {
        self.memory(r.space).execute(&r.req)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(m: &mut Spaces, op: &str, addr: u64, value: u128) -> Result<Option<u128>, MemError> {
        let r = op.parse::<TraceOp>().unwrap().resolve(addr, value).unwrap();
        m.execute(&r)
    }

    #[test]
    fn cas_names_a_space_and_round_trips() {
        for t in ["atom.cas.b32", "atom.global.cas.b64", "atom.shared::cluster.cas.b32"] {
            assert_eq!(t.parse::<TraceOp>().unwrap().to_string(), t);
        }
        assert!("atom.local.cas.b32".parse::<TraceOp>().unwrap_err().0.contains("atom.cas is"));
        let mut m = Spaces::new(256, 256);
        run(&mut m, "st.shared.b32", 0x40, 9).unwrap();
        assert_eq!(run(&mut m, "atom.cas.b32", SHARED_WINDOW_BASE + 0x40, 9 << 32 | 3), Ok(Some(9)));
        assert_eq!(run(&mut m, "ld.shared.b32", 0x40, 0), Ok(Some(3)));
        assert_eq!(run(&mut m, "ld.global.b32", 0x40, 0), Ok(Some(0)));
    }

    #[test]
    fn global_and_shared_are_separate_memories() {
        let mut m = Spaces::new(256, 256);
        run(&mut m, "global.add.u32", 0x40, 1).unwrap();
        run(&mut m, "shared.add.u32", 0x40, 2).unwrap();
        run(&mut m, "shared::cluster.add.u32", 0x40, 4).unwrap();
        run(&mut m, "red.relaxed.cta.shared::cta.add.u32", 0x40, 8).unwrap();
        assert_eq!(run(&mut m, "ld.global.b32", 0x40, 0), Ok(Some(1)));
        assert_eq!(run(&mut m, "ld.b32", 0x40, 0), Ok(Some(1)), "a generic low address is global");
        assert_eq!(run(&mut m, "ld.shared.b32", 0x40, 0), Ok(Some(14)));
        assert_eq!(run(&mut m, "ld.b32", SHARED_WINDOW_BASE + 0x40, 0), Ok(Some(14)));
        assert_eq!(run(&mut m, "ld.shared.b32", 0x100, 0), Err(MemError::OutOfRange));
    }

    #[test]
    fn a_generic_f32_add_takes_its_space_rule() {
        let mut m = Spaces::new(64, 64);
        // 1 (the smallest subnormal) + 0: global flushes it to zero, shared keeps it.
        run(&mut m, "st.b32", 0, 1).unwrap();
        run(&mut m, "st.b32", SHARED_WINDOW_BASE, 1).unwrap();
        run(&mut m, "red.add.f32", 0, 0).unwrap();
        run(&mut m, "red.add.f32", SHARED_WINDOW_BASE, 0).unwrap();
        assert_eq!(run(&mut m, "ld.global.b32", 0, 0), Ok(Some(0)));
        assert_eq!(run(&mut m, "ld.shared.b32", 0, 0), Ok(Some(1)));
        let r = "red.add.f32".parse::<TraceOp>().unwrap();
        assert_eq!(r.resolve(SHARED_WINDOW_BASE + 4, 0).unwrap().req.access.to_string(), "shared.add.f32");
        assert_eq!(r.resolve(4, 0).unwrap().req.access.to_string(), "global.add.f32");
    }

    #[test]
    fn generic_vectors_and_cache_hints_in_the_shared_window_are_refused() {
        let v = "red.add.v2.f32".parse::<TraceOp>().unwrap();
        assert!(v.resolve(0x10, 0).is_ok());
        let e = v.resolve(SHARED_WINDOW_BASE + 0x10, 0).unwrap_err().0;
        assert!(e.contains("vector red takes global addresses only") && e.contains("shared window"), "{e}");
        let h = "red.and.L2::cache_hint.b32".parse::<TraceOp>().unwrap();
        assert!(h.resolve(SHARED_WINDOW_BASE, 0).unwrap_err().0.contains("cache_hint"));
    }

    #[test]
    fn trace_op_names_round_trip() {
        for s in [
            "ld.b32",
            "ld.shared.b64",
            "st.global.b128",
            "st.shared::cluster.b32",
            "global.add.u32",
            "atom.relaxed.gpu.add.f32",
            "release.sys.global.and.L2::cache_hint.b32",
            "atom.shared::cluster.inc.u32",
        ] {
            assert_eq!(s.parse::<TraceOp>().unwrap().to_string(), s);
        }
        assert_eq!("ld.shared::cta.b32".parse::<TraceOp>().unwrap().to_string(), "ld.shared.b32");
        assert!("ld.local.b32".parse::<TraceOp>().unwrap_err().0.contains("ld[.global|.shared"));
        assert!("st.b16".parse::<TraceOp>().unwrap_err().0.contains("b32, b64 or b128"));
    }
}
