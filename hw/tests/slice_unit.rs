//! The L2-slice unit in the rust-hdl simulation against the golden memory model
//! (`sim::Memory`), plus measured throughput for the benchmark patterns.
//!
//! The golden model executes requests in the order the unit accepts them; the unit may
//! answer in any order, so a scoreboard keyed by id checks each response once. Final memory
//! is read back through the port with `ld.b128`.

mod common;
use common::{Rng, b128, seed, u128_of};
use hw::{Config, SliceUnit};
use rust_hdl::prelude::*;
use sim::memory::{Access, Memory, Width, status_code};
use std::collections::{HashMap, HashSet};

/// One request as driven on the port.
#[derive(Clone, Copy, Debug)]
struct Req {
    access: Access,
    addr: u32,
    data: u128,
    /// `req_mask`: zero for a plain request, else a masked sector request.
    mask: u8,
}

/// Expected response.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rsp {
    data: u128,
    status: u8,
}

struct Harness {
    uut: SliceUnit,
    golden: Memory,
    cycle: u64,
    next_id: u16,
    /// id -> (request, expected response)
    pending: HashMap<u16, (Req, Rsp)>,
    /// ids dropped by a reset: no response may come for them.
    dropped: HashSet<u16>,
    /// Cycle of every response handshake, and of every request handshake.
    rsp_cycles: Vec<u64>,
    acc_cycles: Vec<u64>,
    cov_seen: u32,
    /// Responses of loads issued by `read_line` (id -> data).
    loads: HashMap<u16, u128>,
    load_ids: HashSet<u16>,
}

impl Harness {
    fn new(mem_bytes: usize) -> Self {
        Self::with_config(mem_bytes, &Config::default())
    }

    fn with_config(mem_bytes: usize, cfg: &Config) -> Self {
        let mut uut = SliceUnit::with_config(mem_bytes, cfg);
        uut.connect_all();
        let mut h = Harness {
            uut,
            golden: Memory::new(mem_bytes),
            cycle: 0,
            next_id: 0,
            pending: HashMap::new(),
            dropped: HashSet::new(),
            rsp_cycles: vec![],
            acc_cycles: vec![],
            cov_seen: 0,
            loads: HashMap::new(),
            load_ids: HashSet::new(),
        };
        // Power-up reset.
        h.step(None, true, true);
        h.step(None, true, true);
        h
    }

    /// One clock cycle: drive `req` (if any), `rsp_ready`, `reset`; returns whether the
    /// request was accepted.
    fn step(&mut self, req: Option<Req>, rsp_ready: bool, reset: bool) -> bool {
        let u = &mut self.uut;
        u.clock.next = Clock::from(false);
        u.reset.next = reset;
        u.rsp_ready.next = rsp_ready;
        u.req_valid.next = req.is_some();
        if let Some(r) = req {
            u.req_op.next = b128(r.access.code() as u128);
            u.req_addr.next = b128(r.addr as u128);
            u.req_data.next = b128(r.data);
            u.req_id.next = b128(self.next_id as u128);
            u.req_mask.next = b128(r.mask as u128);
        }
        assert!(simulate(u, 10_000), "did not settle");
        let accepted = req.is_some() && u.req_ready.val();
        let rsp = if u.rsp_valid.val() && rsp_ready {
            Some((u128_of(u.rsp_id.val()) as u16, u128_of(u.rsp_data.val()), u128_of(u.rsp_status.val()) as u8))
        } else {
            None
        };
        if reset {
            assert!(!u.req_ready.val() && !u.rsp_valid.val(), "ports not idle in reset");
        }
        self.cov_seen |= u128_of(u.cov.val()) as u32;
        u.clock.next = Clock::from(true);
        assert!(simulate(u, 10_000), "did not settle");

        if let Some((id, data, status)) = rsp {
            assert!(!self.dropped.contains(&id), "cycle {}: response for id {id} dropped by reset", self.cycle);
            let (r, exp) = self
                .pending
                .remove(&id)
                .unwrap_or_else(|| panic!("cycle {}: response for unknown or answered id {id}", self.cycle));
            assert_eq!(
                Rsp { data, status },
                exp,
                "cycle {}: id {id}: {} at {:#x} value {:#x}",
                self.cycle,
                r.access,
                r.addr,
                r.data
            );
            if self.load_ids.remove(&id) {
                self.loads.insert(id, data);
            }
            self.rsp_cycles.push(self.cycle);
        }
        if accepted {
            let r = req.unwrap();
            let out = self.golden.execute_masked(r.access, r.addr as u64, r.mask, r.data);
            let exp = match out {
                Ok(v) => Rsp { data: v.unwrap_or(0), status: status_code(Ok(())) },
                Err(e) => Rsp { data: 0, status: status_code(Err(e)) },
            };
            assert!(self.pending.insert(self.next_id, (r, exp)).is_none(), "id reused while pending");
            self.next_id = self.next_id.wrapping_add(1);
            self.acc_cycles.push(self.cycle);
        }
        self.cycle += 1;
        accepted
    }

    /// Sends `reqs` (request valid with probability `p_valid`, rsp_ready with `p_ready`,
    /// with occasional long stalls), then waits for all responses.
    fn run(&mut self, reqs: &[Req], rng: &mut Rng, p_valid: u32, p_ready: u32) {
        let mut k = 0;
        let mut stall = 0;
        let limit = self.cycle + 200 * reqs.len() as u64 + 1000;
        while k < reqs.len() || !self.pending.is_empty() {
            assert!(self.cycle < limit, "no progress: {} pending", self.pending.len());
            let valid = k < reqs.len() && (rng.below(100) as u32) < p_valid;
            if stall > 0 {
                stall -= 1;
            } else if p_ready < 100 && rng.below(200) == 0 {
                stall = 5 + rng.below(30);
            }
            let ready = stall == 0 && (rng.below(100) as u32) < p_ready;
            if self.step(valid.then(|| reqs[k]), ready, false) {
                k += 1;
            }
        }
    }

    /// After a reset: every pending request is dropped; 20 idle cycles check that no
    /// response comes for any of them (`step` panics on a dropped id).
    fn drop_pending(&mut self) {
        for id in self.pending.keys().copied().collect::<Vec<_>>() {
            self.dropped.insert(id);
            self.pending.remove(&id);
        }
        for _ in 0..20 {
            self.step(None, true, false);
        }
    }

    /// Reads every line with ld.b128 and compares with the golden memory.
    fn check_memory(&mut self) {
        let lines = self.golden.size() / 16;
        let mut ids = vec![];
        let mut line = 0;
        while line < lines || !self.pending.is_empty() {
            let req = (line < lines).then(|| Req {
                mask: 0,
                access: Access::Ld(Width::B128),
                addr: (line * 16) as u32,
                data: 0,
            });
            let id = self.next_id;
            if self.step(req, true, false) {
                self.load_ids.insert(id);
                ids.push((line, id));
                line += 1;
            }
        }
        for (line, id) in ids {
            let got = self.loads[&id];
            let exp = self.golden.read(line * 16, 16);
            assert_eq!(got, exp, "line {line}: memory differs");
        }
    }
}

fn all_accesses() -> Vec<Access> {
    (0..1u16 << sim::memory::req_encoding::REQ_OP_WIDTH).filter_map(Access::from_code).collect()
}

/// A random request: mixed forms and kinds, hot lines, other bytes of a hot line,
/// misaligned and out-of-range addresses.
fn random_req(rng: &mut Rng, accesses: &[Access], mem_bytes: usize, lines: &[usize]) -> Req {
    let access = accesses[rng.below(accesses.len())];
    let size = access.bytes();
    let nlines = mem_bytes / 16;
    let line = match rng.below(20) {
        0..=6 => 3,                                     // the hot line
        7..=11 => lines[rng.below(lines.len())],        // a few warm lines
        12 => nlines + rng.below(8),                    // just out of range
        13 => (rng.next() as usize >> 8) & 0x0fff_ffff, // anywhere
        _ => rng.below(nlines),
    };
    let mut off = size * rng.below(16 / size);
    if rng.below(16) == 0 {
        off = (off + 1 + rng.below(size - 1)) % 16; // misaligned
    }
    let data = match access {
        Access::Red(f) | Access::Atom(f) => common::alu_operands(rng, f).1,
        // atom.cas: compare 0 (fresh memory: the swap succeeds) half the time.
        Access::Cas(w) if rng.below(2) == 0 => rng.next() as u128 & (u128::MAX >> (128 - 8 * w.bytes())),
        _ => (rng.next() as u128) << 64 | rng.next() as u128,
    };
    Req { mask: 0, access, addr: (line * 16 + off) as u32, data }
}

#[test]
fn slice_unit_random_against_golden() {
    let s = seed("slice_unit_random_against_golden");
    let mut rng = Rng(s);
    let mem_bytes = 1024;
    let accesses = all_accesses();
    // More integer ops than their share of forms, and loads/stores.
    let mut weighted = accesses.clone();
    for a in &accesses {
        match a {
            Access::Ld(_) | Access::St(_) | Access::Cas(_) => weighted.extend([*a; 8]),
            Access::Red(f) | Access::Atom(f) if f.ty().bits() >= 32 && !f.ty().is_half() => weighted.push(*a),
            _ => {}
        }
    }
    let mut h = Harness::new(mem_bytes);
    let warm = [3, 4, 5, 17];
    let n = std::env::var("REDUNIT_UNIT_REQS").ok().and_then(|s| s.parse().ok()).unwrap_or(1500);

    // Phase A: random traffic with stalls; drain.
    let reqs: Vec<Req> = (0..n).map(|_| random_req(&mut rng, &weighted, mem_bytes, &warm)).collect();
    h.run(&reqs, &mut rng, 85, 75);
    h.check_memory();

    // Phase B: requests in flight to scratch lines (56..63), then a reset mid-stream.
    let scratch = |rng: &mut Rng| {
        let a = weighted[rng.below(weighted.len())];
        let line = 56 + rng.below(8);
        Req {
            mask: 0,
            access: a,
            addr: (line * 16 + a.bytes() * rng.below(16 / a.bytes())) as u32,
            data: rng.next() as u128,
        }
    };
    let mut sent = 0;
    while sent < 20 {
        let r = scratch(&mut rng);
        if h.step(Some(r), rng.below(2) == 0, false) {
            sent += 1;
        }
    }
    assert!(!h.pending.is_empty(), "nothing in flight at the reset");
    h.step(Some(scratch(&mut rng)), true, true);
    h.step(None, true, true);
    h.drop_pending();
    // Scratch lines: unknown after the reset; store zeros there and in the golden model.
    let zero: Vec<Req> =
        (56..64).map(|l| Req { mask: 0, access: Access::St(Width::B128), addr: l * 16, data: 0 }).collect();
    h.run(&zero, &mut rng, 100, 100);

    // Phase C: random traffic again, all lines; drain; read back all memory.
    let reqs: Vec<Req> = (0..n).map(|_| random_req(&mut rng, &weighted, mem_bytes, &warm)).collect();
    h.run(&reqs, &mut rng, 95, 90);
    h.check_memory();

    let points: Vec<_> = hw::slice_unit::coverage_points(&Config::default()).collect();
    for (name, bit) in &points {
        eprintln!("coverage {name}: {}", if h.cov_seen >> bit & 1 == 1 { "hit" } else { "MISSED" });
    }
    for (name, bit) in &points {
        assert!(h.cov_seen >> bit & 1 == 1, "coverage point {name} never hit");
    }
}

/// The reset rule of the module doc: of the requests in flight, only the one in the write
/// stage in the first reset cycle is still written (the RAM's write enable is registered a
/// cycle ahead). Three stores to three lines, accepted in consecutive cycles; the reset comes
/// in the cycle the second one is in the write stage (the cycle before its response would be
/// on the port): the first and the second are in memory afterwards, the third is not. At the
/// shallowest depths and at the fastest clock.
#[test]
fn slice_unit_reset_writes_only_the_write_stage() {
    for cfg in [Config::default(), Config::fastest_clock()] {
        let mut h = Harness::with_config(65536, &cfg);
        let lat = hw::slice_unit::unit_latency(&cfg) as u64;
        let st = |line: u32, data: u128| Req { mask: 0, access: Access::St(Width::B128), addr: line * 16, data };
        let vals = [
            0x1111_2222_3333_4444_5555_6666_7777_8888u128,
            0x9999_aaaa_bbbb_cccc_dddd_eeee_ffff_0001,
            0x0123_4567_89ab_cdef_fedc_ba98_7654_3210,
        ];
        let first = h.cycle;
        for (i, &v) in vals.iter().enumerate() {
            assert!(h.step(Some(st(10 + i as u32, v)), true, false), "store {i} not accepted");
        }
        while h.cycle < first + lat {
            h.step(None, true, false);
        }
        assert_eq!(h.pending.len(), 3, "a response came before the reset (latency {lat})");
        h.step(None, true, true);
        h.drop_pending();
        // Expected: the first two stores written, the third line still zero.
        h.golden.execute_masked(Access::St(Width::B128), 12 * 16, 0, 0).unwrap();
        let lds: Vec<Req> =
            (10..13).map(|l| Req { mask: 0, access: Access::Ld(Width::B128), addr: l * 16, data: 0 }).collect();
        let ids: Vec<u16> = (0..3).map(|i| h.next_id.wrapping_add(i)).collect();
        h.load_ids.extend(ids.iter().copied());
        h.run(&lds, &mut Rng(1), 100, 100);
        let got: Vec<u128> = ids.iter().map(|id| h.loads[id]).collect();
        assert_eq!(
            got,
            vec![vals[0], vals[1], 0],
            "lines after a reset with the second store in the write stage ({cfg:?})"
        );
    }
}

/// Requests per cycle over the responses of a stream sent back to back, rsp_ready high.
fn throughput(reqs: &[Req]) -> f64 {
    throughput_with(&Config::default(), reqs)
}

/// [`throughput`] of the unit built with `cfg`.
fn throughput_with(cfg: &Config, reqs: &[Req]) -> f64 {
    let mut h = Harness::with_config(65536, cfg);
    let mut rng = Rng(1);
    h.run(reqs, &mut rng, 100, 100);
    let first = h.rsp_cycles[0];
    let last = *h.rsp_cycles.last().unwrap();
    reqs.len() as f64 / (last - first + 1) as f64
}

fn form(name: &str) -> sim::Form {
    name.parse().unwrap()
}

/// `atom.cas` to one address, back to back (every other one's compare value matching): one
/// per `dependent_issue_interval_with` cycles, at the shallowest depths and at the fastest
/// clock (a CAS settles its line two stages after a store's, behind its own window).
#[test]
fn slice_unit_cas_chain_interval() {
    for cfg in [Config::default(), Config::fastest_clock()] {
        for w in [Width::B32, Width::B64] {
            let a = Access::Cas(w);
            let bits = 8 * w.bytes() as u32;
            let reqs: Vec<Req> = (0..120u128)
                .map(|i| Req { mask: 0, access: a, addr: 0x40, data: ((i / 2) << bits) | (i / 2 + 1) })
                .collect();
            let t = throughput_with(&cfg, &reqs);
            let n = hw::slice_unit::dependent_issue_interval_with(a, &cfg) as f64;
            eprintln!("{a} ({}): {t:.4} requests/cycle, documented 1 per {n}", cfg.tag());
            assert!((t * n - 1.0).abs() < 0.02, "{a} ({cfg:?}): {t} requests/cycle, documented 1 per {n} cycles");
        }
    }
}

#[test]
fn slice_unit_latency() {
    let mut h = Harness::new(65536);
    for access in [
        Access::Ld(Width::B32),
        Access::St(Width::B64),
        Access::Red(form("global.add.f32")),
        Access::Atom(form("global.add.u32")),
    ] {
        let start = h.cycle;
        let id = h.next_id;
        assert!(h.step(Some(Req { mask: 0, access, addr: 64, data: 1 }), true, false));
        while h.pending.contains_key(&id) {
            h.step(None, true, false);
        }
        // The response handshake happened in the last cycle stepped.
        let lat = (h.cycle - 1 - start) as usize;
        eprintln!("{access}: latency {lat}");
        assert_eq!(lat, hw::slice_unit::latency(access), "{access}");
    }
}

#[test]
fn slice_unit_throughput() {
    let n = 240;
    let distinct: Vec<Req> = (0..n)
        .map(|i| {
            let f = all_accesses()[(i * 7) % 170];
            Req { mask: 0, access: f, addr: (i * 16) as u32, data: 1 }
        })
        .collect();
    let hot_int: Vec<Req> =
        (0..n).map(|_| Req { mask: 0, access: Access::Red(form("global.add.u32")), addr: 0x40, data: 1 }).collect();
    let hot_f32: Vec<Req> = (0..n)
        .map(|_| Req { mask: 0, access: Access::Red(form("global.add.f32")), addr: 0x40, data: 0x3f80_0000 })
        .collect();
    let hot_f64: Vec<Req> = (0..n)
        .map(|_| Req { mask: 0, access: Access::Atom(form("global.add.f64")), addr: 0x48, data: 0x3ff0_0000_0000_0000 })
        .collect();
    let mix: Vec<Req> = (0..n)
        .map(|i| {
            if i % 2 == 0 {
                Req { mask: 0, access: Access::Red(form("global.max.s64")), addr: 0x80, data: i as u128 }
            } else {
                Req { mask: 0, access: Access::Red(form("global.v4.f32.add")), addr: (0x1000 + i * 16) as u32, data: 7 }
            }
        })
        .collect();
    let mix_fp: Vec<Req> = (0..n)
        .map(|i| {
            if i % 2 == 0 {
                Req { mask: 0, access: Access::Red(form("global.add.f32")), addr: 0x80, data: 0x3f80_0000 }
            } else {
                Req { mask: 0, access: Access::Red(form("global.add.u64")), addr: (0x1000 + i * 16) as u32, data: 7 }
            }
        })
        .collect();
    // Not a target: half dependent f32 adds to one address can reach at most 2/3.
    eprintln!("throughput half one address (add.f32), half distinct: {:.3} requests/cycle", throughput(&mix_fp));
    let results = [
        ("distinct lines, mixed forms", throughput(&distinct), 0.95),
        ("one address, dependent add.u32", throughput(&hot_int), 0.95),
        ("one address, dependent add.f32", throughput(&hot_f32), 0.32),
        ("one address, dependent atom add.f64", throughput(&hot_f64), 0.32),
        ("half one address (max.s64), half distinct (v4.f32)", throughput(&mix), 0.9),
    ];
    for (name, t, min) in results {
        eprintln!("throughput {name}: {t:.3} requests/cycle (target {min})");
    }
    for (name, t, min) in results {
        assert!(t >= min, "{name}: {t:.3} < {min}");
    }
}

/// Masked sector requests (the warp coalescer's requests) mixed with plain traffic on a few
/// hot lines: every form family, random element masks, misaligned and out-of-range sectors,
/// stalls; the golden model is `Memory::execute_masked`.
#[test]
fn slice_unit_sector_requests_against_golden() {
    let s = seed("slice_unit_sector_requests_against_golden");
    let mut rng = Rng(s);
    let mem_bytes = 1024;
    let accesses = all_accesses();
    let mut h = Harness::new(mem_bytes);
    let warm = [3, 4, 5, 17];
    let n = 1200;
    let reqs: Vec<Req> = (0..n)
        .map(|_| {
            let mut r = random_req(&mut rng, &accesses, mem_bytes, &warm);
            if let (Access::Red(f) | Access::Atom(f), true) = (r.access, rng.below(3) != 0) {
                r.mask = (rng.next() as u8).max(1);
                r.addr &= !15;
                match rng.below(30) {
                    0 => r.addr += 4,
                    1 => r.addr = mem_bytes as u32 + 16 * rng.below(4) as u32,
                    _ => {}
                }
                r.data = (0..16 / (f.elem_bits() as usize / 8)).fold(0u128, |acc, i| {
                    let ebits = f.elem_bits() as usize;
                    let (_, b) = common::alu_operands(&mut rng, f);
                    acc | ((b & (u128::MAX >> (128 - ebits))) << (ebits * i))
                });
            }
            r
        })
        .collect();
    h.run(&reqs, &mut rng, 90, 80);
    h.check_memory();
}

/// Integer chains of mixed 64-bit forms to one 8-byte element (and its 32-bit halves), back
/// to back, in the unit at the fastest clock: 64-bit adds with carries across bit 31 among min, max,
/// and, xor, `red` and `atom`, so that ops chain behind each other one and two cycles apart
/// (`loop_1`, `loop_a`). `IntAlu`'s loop does not carry a 64-bit add's high sum to the
/// compares, so min/max must not chain behind such an add (their chain keys differ): every
/// response and the final memory against the golden model.
#[test]
fn slice_unit_mixed_integer_chains_against_golden() {
    let s = seed("slice_unit_mixed_integer_chains_against_golden");
    let mut rng = Rng(s);
    let mut h = Harness::with_config(256, &Config::fastest_clock());
    let forms64 = ["add.u64", "add.u64", "add.u64", "min.u64", "max.u64", "min.s64", "max.s64", "and.b64", "xor.b64"];
    let forms32 = ["add.u32", "min.u32", "max.s32", "inc.u32"];
    let mut reqs = Vec::new();
    for _ in 0..1200 {
        let wide = rng.below(5) != 0;
        let name = if wide { forms64[rng.below(forms64.len())] } else { forms32[rng.below(forms32.len())] };
        let f = form(&format!("global.{name}"));
        let access = if rng.below(3) == 0 { Access::Atom(f) } else { Access::Red(f) };
        let addr = if wide { 0x40 } else { 0x40 + 4 * rng.below(2) as u32 };
        // Small operands keep min/max near the running value; the others carry across bit 31
        // or 63 or move the high half.
        let data: u128 = match rng.below(4) {
            0 => rng.below(16) as u128,
            1 => (0xffff_fff0 + rng.below(32) as u64) as u128,
            2 => (rng.below(4) as u128) << 32 | rng.next() as u32 as u128,
            _ => rng.next() as u128,
        };
        let data = if wide { data & u64::MAX as u128 } else { data & u32::MAX as u128 };
        reqs.push(Req { mask: 0, access, addr, data });
    }
    h.run(&reqs, &mut rng, 100, 100);
    h.check_memory();
    for (name, bit) in
        [("int_chain_loop", hw::slice_unit::COV_INT_LOOP), ("int_chain_loop1", hw::slice_unit::COV_INT_LOOP1)]
    {
        assert!(h.cov_seen >> bit & 1 == 1, "coverage point {name} never hit");
    }
}

/// Dependent FP ops to one address in the default unit, back to back: one per
/// `dependent_issue_interval_with` cycles (the FP loop: `L`), for each FP unit's forms.
#[test]
fn slice_unit_fp_chain_interval() {
    let cfg = Config::unit_default();
    let l = cfg.alu_latency() as f64;
    for (name, red, addr, data) in [
        ("global.add.f32", true, 0x40, 0x3f80_0000u128),
        ("global.add.f64", false, 0x48, 0x3ff0_0000_0000_0000),
        ("global.add.noftz.f16", true, 0x42, 0x3c00),
        ("global.add.noftz.bf16x2", false, 0x44, 0x3f80_3f80),
        ("global.v2.f16.max.noftz", true, 0x4c, 0x3c00_3c01),
        ("global.v4.f32.add", true, 0x50, 0x3f80_0000_3f80_0000_3f80_0000_3f80_0000),
    ] {
        let f = form(name);
        let a = if red { Access::Red(f) } else { Access::Atom(f) };
        let reqs: Vec<Req> = (0..60).map(|_| Req { mask: 0, access: a, addr, data }).collect();
        let t = throughput_with(&cfg, &reqs);
        let n = hw::slice_unit::dependent_issue_interval_with(a, &cfg) as f64;
        eprintln!("{a}: {t:.4} requests/cycle, documented 1 per {n}");
        assert_eq!(n, l, "{a}: the FP loop's interval is the ALU's latency");
        assert!((t * n - 1.0).abs() < 0.03, "{a}: {t} requests/cycle, documented 1 per {n} cycles");
    }
}

/// FP forms of every FP unit on a few bytes of two lines, `red` and `atom`, with stalls on
/// both sides: chains through the lanes' loop (`L` behind), through the result registers
/// (`L + 1`, `L + 2`), and forms of other units on the same bytes (the line). Every response
/// and the final memory against the golden model; both FP loop coverage points hit. (A unit
/// whose chained op reads the line instead of the loop returns stale old values here.)
#[test]
fn slice_unit_mixed_fp_chains_against_golden() {
    let s = seed("slice_unit_mixed_fp_chains_against_golden");
    let mut rng = Rng(s);
    let mut h = Harness::with_config(256, &Config::unit_default());
    // (form, addresses it may take)
    let forms: [(&str, &[u32]); 10] = [
        ("add.f32", &[0x40, 0x44]),
        ("add.f32", &[0x40]),
        ("add.f64", &[0x48, 0x80]),
        ("add.noftz.f16", &[0x40, 0x42]),
        ("add.noftz.bf16x2", &[0x40, 0x44]),
        ("add.noftz.f16x2", &[0x44]),
        ("v2.f16.max.noftz", &[0x40, 0x4c]),
        ("v2.bf16.min.noftz", &[0x4c]),
        ("v2.f32.add", &[0x48, 0x80]),
        ("v4.f32.add", &[0x40, 0x80]),
    ];
    let mut reqs = Vec::new();
    for _ in 0..600 {
        // Runs of one form and address, so that chains form, among single requests.
        let (name, addrs) = forms[rng.below(forms.len())];
        let space = if !name.starts_with('v') && rng.below(4) == 0 { "shared" } else { "global" };
        let f = form(&format!("{space}.{name}"));
        let addr = addrs[rng.below(addrs.len())];
        for _ in 0..1 + rng.below(6) {
            let access = if rng.below(3) == 0 { Access::Atom(f) } else { Access::Red(f) };
            // Small values of both signs, some large or special: sums round, cancel and overflow.
            let data = match rng.below(4) {
                0 => 0x3f80_3c00_3f80_3c00_3ff0_0000_0000_0000u128 ^ (rng.below(4) as u128) << 31,
                1 => rng.next() as u128 | (rng.next() as u128) << 64,
                _ => 0x4000_4000_4000_4000_4000_4000_4000_4000u128 | (rng.below(256) as u128) * 0x0001_0001_0001_0001,
            };
            reqs.push(Req { mask: 0, access, addr, data });
        }
    }
    h.run(&reqs, &mut rng, 85, 90);
    h.check_memory();
    for (name, bit) in
        [("fp_chain_loop", hw::slice_unit::COV_FP_LOOP), ("fp_chain_reg", hw::slice_unit::COV_FP_LOOP_REG)]
    {
        assert!(h.cov_seen >> bit & 1 == 1, "coverage point {name} never hit");
    }
}
