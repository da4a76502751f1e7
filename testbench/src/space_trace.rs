//! Random `op,addr,value,cache_policy` traces that mix the state spaces (`redunit regress
//! --only spaces`, `tests/spaces_regress.rs`): the requests of [`Traffic`] (every form and
//! access, hot lines, misaligned and out-of-range addresses) spelled as PTX writes them —
//! `.global`, `.shared`, `.shared::cta`, `.shared::cluster` or a generic address (global as
//! it is, shared through the window), with `.sem`/`.scope` qualifiers and `.L2::cache_hint`
//! with a cache policy on global ones — run through the model (`sim::Spaces`) and through two
//! Verilated units (one per space, as `redunit run --engine rtl` runs them), row by row and
//! then each memory read back.

use sim::ptx::{AddrSpace, RedInstr, SCOPES, SEMS};
use sim::spaces::SHARED_WINDOW_BASE;
use sim::{Access, Form, Space, Spaces};

use crate::traffic::{Mix, Traffic};
use crate::unit::RtlUnit;
use crate::{hex, mem_dump, trace};

/// What a trace holds, by how its rows are written and where they run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpaceMix {
    /// Rows that run in global and in shared memory.
    pub global: usize,
    pub shared: usize,
    /// Rows with a generic address in global memory and in the shared window.
    pub generic_global: usize,
    pub generic_shared: usize,
    /// `.shared::cta` and `.shared::cluster` spellings.
    pub cta: usize,
    pub cluster: usize,
    /// `red`/`atom` with a `.sem` or a `.scope`, and with `.L2::cache_hint`.
    pub qualified: usize,
    pub hinted: usize,
}

/// The spelling of a `red`/`atom` of `form` in its space, drawn by `r`; and whether its
/// address goes through the shared window.
fn red_spelling(form: Form, atom: bool, r: &mut impl FnMut() -> u64) -> (String, bool) {
    let mut i = RedInstr::plain(form);
    i.sem = [None, Some(SEMS[0]), Some(SEMS[1])][(r() % 3) as usize];
    i.scope = if r() % 2 == 0 { None } else { Some(SCOPES[(r() % 4) as usize]) };
    let shared = form.space() == Space::Shared;
    let mut window = false;
    match r() % 3 {
        0 if shared => i.space = AddrSpace::SharedCluster,
        0 => i.cache_hint = true,
        1 => {
            i.space = AddrSpace::Generic;
            window = shared;
        }
        _ => {}
    }
    let mut s = if r() % 2 == 0 { format!("red.{}", i.seed_order()) } else { i.to_string() };
    if i.space == AddrSpace::Shared && r() % 2 == 0 {
        s = s.replacen("shared", "shared::cta", 1);
    }
    if atom {
        s = format!("atom.{}", s.strip_prefix("red.").unwrap_or(&s));
    }
    (s, window)
}

/// A seeded random trace of `n` rows (header `op,addr,value,cache_policy`) over memories of
/// `mem_bytes` each (module doc).
pub fn random_trace(seed: u64, n: usize, mem_bytes: usize) -> String {
    let mut t = Traffic::new(seed, mem_bytes, Mix::default());
    let mut s = seed ^ 0x5ace_5ace;
    let mut r = move || sim::splitmix64_next(&mut s);
    let mut out = String::from("op,addr,value,cache_policy\n");
    for req in t.requests(n) {
        let (op, window) = match req.access {
            Access::Red(f) | Access::Atom(f) => red_spelling(f, matches!(req.access, Access::Atom(_)), &mut r),
            Access::Ld(_) | Access::St(_) | Access::Cas(_) => {
                let a = req.access.to_string();
                let (kind, width) = a.split_once('.').expect("ld.bN, st.bN or atom.cas.bN");
                let (space, window) = [
                    ("", false),
                    ("global.", false),
                    ("shared.", false),
                    ("shared::cta.", false),
                    ("shared::cluster.", false),
                    ("", true),
                ][(r() % 6) as usize];
                (format!("{kind}.{space}{width}"), window)
            }
        };
        let mut addr = req.addr;
        if r() % 500 == 0 {
            addr |= 1 << 40; // beyond the units' 32-bit port: the testbench answers it
        }
        if window {
            addr = SHARED_WINDOW_BASE + req.addr;
        }
        let value = if req.access.has_operand() {
            hex::format(req.value, req.access.operand_bytes() as u32 * 8)
        } else {
            String::new()
        };
        let policy = if op.contains("L2::cache_hint") && r() % 2 == 0 { format!("{:x}", r()) } else { String::new() };
        out += &format!("{op},{addr:x},{value},{policy}\n");
    }
    out
}

/// The outcome of [`random_check`].
pub struct SpaceCheck {
    pub rows: usize,
    pub mix: SpaceMix,
    /// One line per row whose outcome differs between the model and the RTL (at most 20), and
    /// one per memory whose contents differ after the trace.
    pub mismatches: Vec<String>,
}

/// How the rows of a parsed trace are written and where they run.
pub fn mix_of(rows: &[trace::Row]) -> SpaceMix {
    let mut m = SpaceMix::default();
    for row in rows {
        let (space, qualified, hinted) = match row.op {
            sim::TraceOp::Ld(_, s) | sim::TraceOp::St(_, s) | sim::TraceOp::Cas(_, s) => (s, false, false),
            sim::TraceOp::Red(i) | sim::TraceOp::Atom(i) => {
                (i.space, i.sem.is_some() || i.scope.is_some(), i.cache_hint)
            }
        };
        let global = row.space() == Space::Global;
        *if global { &mut m.global } else { &mut m.shared } += 1;
        match space {
            AddrSpace::Generic if global => m.generic_global += 1,
            AddrSpace::Generic => m.generic_shared += 1,
            AddrSpace::SharedCluster => m.cluster += 1,
            _ => {}
        }
        m.qualified += qualified as usize;
        m.hinted += hinted as usize;
    }
    m
}

/// `n` rows of [`random_trace`] over the built unit's memory through the model and the
/// Verilated units: every row's outcome, then both memories read back.
pub fn random_check(seed: u64, n: usize) -> anyhow::Result<SpaceCheck> {
    let mem = sim::memory::DEFAULT_MEM_BYTES;
    let text = random_trace(seed, n, mem);
    let rows = trace::parse(text.as_bytes())?;
    let mut mix = mix_of(&rows);
    mix.cta = text.matches("shared::cta").count();
    let mut model = Spaces::new(mem, mem);
    let want = trace::execute(&rows, &mut model.global, Some(&mut model.shared))?;
    let (mut global, mut shared) = (RtlUnit::new(mem)?, RtlUnit::new(mem)?);
    let got = trace::execute(&rows, &mut global, Some(&mut shared))?;
    let mut mismatches = Vec::new();
    for (i, (w, g)) in want.iter().zip(&got).enumerate() {
        if w != g && mismatches.len() < 20 {
            let row = &rows[i];
            mismatches.push(format!(
                "row {i} ({} at {:x}, {:?} memory): RTL {g:?}, model {w:?}",
                row.op,
                row.addr,
                row.space()
            ));
        }
    }
    for (space, unit, bytes) in
        [(Space::Global, &mut global, model.global.bytes()), (Space::Shared, &mut shared, model.shared.bytes())]
    {
        if mem_dump::read_back(unit, mem)? != bytes {
            mismatches.push(format!("the {} memory read back from the RTL differs from the model's", space.name()));
        }
    }
    Ok(SpaceCheck { rows: rows.len(), mix, mismatches })
}
