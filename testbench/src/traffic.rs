//! Request traffic for the L2-slice unit: the seeded random mix of the cosimulation and the
//! fixed patterns of `redunit bench`.

use sim::memory::Width;
use sim::{Access, Form, Request, Type};

use crate::stimulus::Stimulus;

/// Every access the unit accepts: red and atom of each form, three loads, three stores,
/// `atom.cas.b32` and `.b64`.
pub fn all_accesses() -> Vec<Access> {
    let mut v: Vec<Access> = Vec::new();
    for f in Form::all() {
        v.push(Access::Red(f));
        v.push(Access::Atom(f));
    }
    for w in [Width::B32, Width::B64, Width::B128] {
        v.push(Access::Ld(w));
        v.push(Access::St(w));
    }
    v.push(Access::Cas(Width::B32));
    v.push(Access::Cas(Width::B64));
    v
}

/// The latency family of an access: `int`, `f16` (all 16-bit float forms, packed ones too),
/// `f32`, `f64`, `ld`, `st`, `cas`.
pub fn family(a: Access) -> &'static str {
    match a {
        Access::Ld(_) => "ld",
        Access::St(_) => "st",
        Access::Cas(_) => "cas",
        Access::Red(f) | Access::Atom(f) => match f.ty() {
            Type::F32 => "f32",
            Type::F64 => "f64",
            Type::F16 | Type::Bf16 | Type::F16x2 | Type::Bf16x2 => "f16",
            _ => "int",
        },
    }
}

/// The families, in report order.
pub const FAMILIES: [&str; 7] = ["int", "f16", "f32", "f64", "ld", "st", "cas"];

/// The shape of the random mix (percentages of requests).
#[derive(Clone, Copy, Debug)]
pub struct Mix {
    /// Requests to one of the hot addresses.
    pub hot_pct: u32,
    /// Requests to a hot line at another offset (near misses: same line, other bytes).
    pub near_pct: u32,
    /// Misaligned requests.
    pub misaligned_pct: u32,
    /// Out-of-range requests (aligned, past the end of memory).
    pub out_of_range_pct: u32,
    /// Loads, stores and `atom.cas` (the rest are red and atom, half each).
    pub ld_pct: u32,
    pub st_pct: u32,
    pub cas_pct: u32,
    /// Number of hot addresses.
    pub hot: usize,
    /// Requests that repeat the last `red`/`atom` drawn (its form and address, either kind, a
    /// new operand): runs of one form on one element, which chain in the unit's loops.
    pub run_pct: u32,
}

impl Default for Mix {
    fn default() -> Self {
        Mix {
            hot_pct: 35,
            near_pct: 15,
            misaligned_pct: 4,
            out_of_range_pct: 4,
            ld_pct: 10,
            st_pct: 8,
            cas_pct: 4,
            hot: 4,
            run_pct: 8,
        }
    }
}

/// Seeded random requests over all accesses: hot addresses, near misses, random lines,
/// misaligned and out-of-range requests; operands biased to special values (from
/// [`Stimulus`]).
pub struct Traffic {
    state: u64,
    stim: Stimulus,
    accesses: Vec<Access>,
    /// The red and atom forms at the front of `accesses` (two per form).
    red_atom: usize,
    mem_bytes: u64,
    mix: Mix,
    /// 16-byte-aligned hot lines; a hot address is a line and a byte offset.
    hot_lines: Vec<u64>,
    /// Bytes no request may touch: `[lo, hi)` (the atomic-counter test's counter).
    exclude: Option<(u64, u64)>,
    /// The last swap value of an `atom.cas` drawn per address: the next one there compares
    /// against it half the time, so that swaps succeed as well as fail.
    last_swap: std::collections::HashMap<u64, u128>,
    /// The last `red`/`atom` drawn: its form and address (`Mix::run_pct`).
    last_ra: Option<(Form, u64)>,
}

impl Traffic {
    pub fn new(seed: u64, mem_bytes: usize, mix: Mix) -> Self {
        let mut t = Traffic {
            state: seed ^ 0x7261_6666_6963,
            stim: Stimulus::new(seed.wrapping_add(1)),
            accesses: all_accesses(),
            red_atom: 2 * Form::all().len(),
            mem_bytes: mem_bytes as u64,
            mix,
            hot_lines: Vec::new(),
            exclude: None,
            last_swap: Default::default(),
            last_ra: None,
        };
        assert!(t.accesses[..t.red_atom].iter().all(|a| matches!(a, Access::Red(_) | Access::Atom(_))));
        let lines = (mem_bytes / 16) as u64;
        // The first and last lines are always hot (edges of memory).
        t.hot_lines.push(0);
        t.hot_lines.push((lines - 1) * 16);
        while t.hot_lines.len() < mix.hot.max(2) {
            let l = t.below(lines) * 16;
            t.hot_lines.push(l);
        }
        t
    }

    /// No request will touch bytes `lo..hi`.
    pub fn exclude(&mut self, lo: u64, hi: u64) {
        self.exclude = Some((lo, hi));
    }

    #[inline]
    fn next(&mut self) -> u64 {
        sim::splitmix64_next(&mut self.state)
    }

    #[inline]
    fn below(&mut self, n: u64) -> u64 {
        ((self.next() as u128 * n as u128) >> 64) as u64
    }

    fn pct(&mut self) -> u32 {
        self.below(100) as u32
    }

    /// A random request.
    pub fn request(&mut self) -> Request {
        loop {
            let r = self.draw();
            match self.exclude {
                Some((lo, hi)) if r.addr < hi && r.addr + r.access.bytes() as u64 > lo => continue,
                _ => return r,
            }
        }
    }

    fn draw(&mut self) -> Request {
        if let Some((f, addr)) = self.last_ra
            && self.pct() < self.mix.run_pct
        {
            let access = if self.next() & 1 == 0 { Access::Red(f) } else { Access::Atom(f) };
            return Request { access, addr, value: self.stim.op(f).b };
        }
        let p = self.pct();
        let access = if p < self.mix.ld_pct {
            Access::Ld([Width::B32, Width::B64, Width::B128][self.below(3) as usize])
        } else if p < self.mix.ld_pct + self.mix.st_pct {
            Access::St([Width::B32, Width::B64, Width::B128][self.below(3) as usize])
        } else if p < self.mix.ld_pct + self.mix.st_pct + self.mix.cas_pct {
            Access::Cas([Width::B32, Width::B64][self.below(2) as usize])
        } else {
            // Red and atom of a uniformly drawn form.
            let i = self.below(self.red_atom as u64) as usize;
            self.accesses[i]
        };
        let size = access.bytes() as u64;
        let value = match access {
            Access::Red(f) | Access::Atom(f) => self.stim.op(f).b,
            Access::St(_) => {
                let v = (self.next() as u128) << 64 | self.next() as u128;
                v & crate::unit::mask(size as usize)
            }
            Access::Ld(_) | Access::Cas(_) => 0,
        };
        let slots = 16 / size; // aligned positions in a line
        let q = self.pct();
        let m = self.mix;
        let addr = if q < m.hot_pct {
            // A hot address: a hot line at offset 0 (or, for small accesses, a fixed second
            // offset chosen by the line's index).
            let i = self.below(self.hot_lines.len() as u64) as usize;
            self.hot_lines[i] + if i % 2 == 1 && size <= 8 { 8 } else { 0 }
        } else if q < m.hot_pct + m.near_pct {
            let i = self.below(self.hot_lines.len() as u64) as usize;
            self.hot_lines[i] + self.below(slots) * size
        } else if q < m.hot_pct + m.near_pct + m.misaligned_pct {
            let line = if self.next() & 1 == 0 {
                let i = self.below(self.hot_lines.len() as u64) as usize;
                self.hot_lines[i]
            } else {
                self.below(self.mem_bytes / 16) * 16
            };
            // Misaligned by 1..size-1 bytes (every access is at least 2 bytes); may also be
            // out of range at the end of memory.
            line + self.below(slots) * size + 1 + self.below(size - 1)
        } else if q < m.hot_pct + m.near_pct + m.misaligned_pct + m.out_of_range_pct {
            match self.below(4) {
                // Just past the end.
                0 => self.mem_bytes,
                1 => self.mem_bytes + self.below(64) * size,
                // Anywhere above, to the top of the 32-bit port.
                _ => {
                    let room = ((1u64 << 32) - self.mem_bytes) / size;
                    self.mem_bytes + self.below(room) * size
                }
            }
        } else {
            self.below(self.mem_bytes / size) * size
        };
        let value = match access {
            Access::Cas(_) => self.cas_operand(addr, size as usize),
            _ => value,
        };
        if let Access::Red(f) | Access::Atom(f) = access {
            self.last_ra = Some((f, addr));
        }
        Request { access, addr, value }
    }

    /// An `atom.cas` operand (`compare << 8*size | swap`): the compare value is the last swap
    /// value drawn for the address half the time (it matches when that swap succeeded and
    /// nothing wrote since), zero (fresh memory) a quarter, random otherwise.
    fn cas_operand(&mut self, addr: u64, size: usize) -> u128 {
        let mask = crate::unit::mask(size);
        let rand = ((self.next() as u128) << 64 | self.next() as u128) & mask;
        let compare = match self.below(4) {
            0 | 1 => self.last_swap.get(&addr).copied().unwrap_or(0) & mask,
            2 => 0,
            _ => rand,
        };
        let swap = (self.next() as u128 | 1) & mask;
        self.last_swap.insert(addr, swap);
        compare << (8 * size) | swap
    }

    /// `n` random requests.
    pub fn requests(&mut self, n: usize) -> Vec<Request> {
        (0..n).map(|_| self.request()).collect()
    }
}

/// `ld.b128` of every line of a memory of `mem_bytes` bytes, in address order.
pub fn sweep(mem_bytes: usize) -> Vec<Request> {
    (0..mem_bytes as u64 / 16).map(|l| Request { access: Access::Ld(Width::B128), addr: l * 16, value: 0 }).collect()
}

fn form(s: &str) -> Form {
    s.parse().expect("catalogue form")
}

/// The same-address rows of `redunit bench`: (pattern name, form, `atom` instead of `red`).
/// Each pattern sends `n` requests of the form to one address; the name is the JSON key
/// without `_ops_per_cycle`.
pub const SAME_ADDR_ROWS: [(&str, &str, bool); 24] = [
    ("same_addr_add_u32", "global.add.u32", false),
    ("same_addr_add_u64", "global.add.u64", false),
    ("same_addr_xor_b32", "global.xor.b32", false),
    ("same_addr_min_s32", "global.min.s32", false),
    ("same_addr_max_u64", "global.max.u64", false),
    ("same_addr_inc_u32", "global.inc.u32", false),
    ("same_addr_dec_u32", "global.dec.u32", false),
    ("same_addr_f16", "global.add.noftz.f16", false),
    ("same_addr_bf16", "global.add.noftz.bf16", false),
    ("same_addr_f16x2", "global.add.noftz.f16x2", false),
    ("same_addr_bf16x2", "global.add.noftz.bf16x2", false),
    ("same_addr_f32", "global.add.f32", false),
    ("same_addr_f64", "global.add.f64", false),
    ("same_addr_v4_f32", "global.v4.f32.add", false),
    ("same_addr_v8_f16_max", "global.v8.f16.max.noftz", false),
    ("same_addr_atom_add_u32", "global.add.u32", true),
    ("same_addr_atom_add_u64", "global.add.u64", true),
    ("same_addr_atom_f16", "global.add.noftz.f16", true),
    ("same_addr_atom_bf16", "global.add.noftz.bf16", true),
    ("same_addr_atom_f16x2", "global.add.noftz.f16x2", true),
    ("same_addr_atom_bf16x2", "global.add.noftz.bf16x2", true),
    ("same_addr_atom_f32", "global.add.f32", true),
    ("same_addr_atom_f64", "global.add.f64", true),
    ("same_addr_atom_v4_f32", "global.v4.f32.add", true),
];

/// Hot lines apart in the unit's memory for the `hot_lines_*` patterns (the GPU table's lines
/// are 4 KiB apart so that they spread over slices; the unit is one slice and orders per
/// 16-byte line, so any distinct lines will do).
const HOT_LINE_STRIDE: u64 = 0x40;

/// The benchmark patterns of `redunit bench`, `n` requests each, on a memory of `mem_bytes`:
/// `distinct`, `same_addr_int` (`add.u32`) and `mixed`, then the rows of [`SAME_ADDR_ROWS`]
/// (`same_addr_f32` and `same_addr_f64` among them), `hot_words_4_f32` (the four f32 words of
/// one 16-byte line, round robin) and `hot_lines_{2,4,8}_{int,f32}` (`add.u32` / `add.f32` to
/// K lines, round robin).
pub fn bench_patterns(n: usize, mem_bytes: usize) -> Vec<(&'static str, Vec<Request>)> {
    let lines = mem_bytes as u64 / 16;
    let mut stim = Stimulus::new(0xbe7c);
    let mut rng = 0x5eed_u64;
    let add_u32 = form("global.add.u32");
    let add_f32 = form("global.add.f32");
    let forms = Form::all();
    // A form drawn from all of them, half red and half atom, at the base of a line.
    let any = |line: u64, stim: &mut Stimulus, rng: &mut u64| {
        let r = sim::splitmix64_next(rng);
        let f = forms[(r % forms.len() as u64) as usize];
        let access = if r >> 63 == 0 { Access::Red(f) } else { Access::Atom(f) };
        Request { access, addr: line * 16, value: stim.op(f).b }
    };
    let one = |f: Form, v: u128| Request { access: Access::Red(f), addr: 0x100, value: v };
    let distinct: Vec<Request> = (0..n as u64).map(|i| any(i % lines, &mut stim, &mut rng)).collect();
    let int: Vec<Request> = (0..n).map(|_| one(add_u32, 1)).collect();
    // Half one hot address (integer and f32 adds alternating), half distinct lines (any
    // form); the hot address's line is skipped by the distinct half.
    let mixed: Vec<Request> = (0..n as u64)
        .map(|i| {
            if i % 2 == 0 {
                if i % 4 == 0 {
                    one(add_u32, 1)
                } else {
                    Request { access: Access::Red(add_f32), addr: 0x104, value: 0x3f80_0000 }
                }
            } else {
                let line = 0x20 + (i / 2) % (lines - 0x20);
                any(line, &mut stim, &mut rng)
            }
        })
        .collect();
    let mut v = vec![("distinct", distinct), ("same_addr_int", int), ("mixed", mixed)];
    // Each row's operands are the stimulus's special-value-biased ones (the interval of the
    // unit does not depend on them; the golden check does).
    for (name, f, atom) in SAME_ADDR_ROWS {
        let f = form(f);
        let reqs = (0..n)
            .map(|_| {
                let value = stim.op(f).b;
                Request { access: if atom { Access::Atom(f) } else { Access::Red(f) }, addr: 0x100, value }
            })
            .collect();
        v.push((name, reqs));
    }
    let words: Vec<Request> = (0..n as u64)
        .map(|i| Request { access: Access::Red(add_f32), addr: 0x100 + 4 * (i % 4), value: stim.op(add_f32).b })
        .collect();
    v.push(("hot_words_4_f32", words));
    for (k, int_name, f32_name) in [
        (2, "hot_lines_2_int", "hot_lines_2_f32"),
        (4, "hot_lines_4_int", "hot_lines_4_f32"),
        (8, "hot_lines_8_int", "hot_lines_8_f32"),
    ] {
        for (name, f) in [(int_name, add_u32), (f32_name, add_f32)] {
            let reqs = (0..n as u64)
                .map(|i| Request {
                    access: Access::Red(f),
                    addr: 0x100 + HOT_LINE_STRIDE * (i % k),
                    value: stim.op(f).b,
                })
                .collect();
            v.push((name, reqs));
        }
    }
    v
}

/// `n` isolated requests of a family for the latency measurement, each at its own line.
pub fn latency_requests(fam: &str, n: usize, mem_bytes: usize) -> Vec<Request> {
    let lines = mem_bytes as u64 / 16;
    let mut stim = Stimulus::new(0x1a7);
    let accesses: Vec<Access> = all_accesses().into_iter().filter(|a| family(*a) == fam).collect();
    (0..n as u64)
        .map(|i| {
            let access = accesses[(i % accesses.len() as u64) as usize];
            let value = match access {
                Access::Red(f) | Access::Atom(f) => stim.op(f).b,
                Access::St(w) => 0x1234_5678_9abc_def0_u128 & crate::unit::mask(w.bytes()),
                // Compare 0 against fresh memory: the swap succeeds.
                Access::Cas(w) => 0x1234_5678_9abc_def0_u128 & crate::unit::mask(w.bytes()),
                Access::Ld(_) => 0,
            };
            Request { access, addr: (i % lines) * 16, value }
        })
        .collect()
}
