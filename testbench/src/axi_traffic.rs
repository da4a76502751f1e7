//! Stimulus for the AXI front end ([`crate::axi`]): random transactions of every kind the
//! front end takes or refuses, the atomic-counter stream, and `redunit bench --top axi`.

use hw::axi::{
    ATOP_BIG_ENDIAN, ATOP_COMPARE, ATOP_LOAD, ATOP_STORE, ATOP_SWAP, AWUSER_FORM_EN, BURST_FIXED, BURST_INCR,
    BURST_WRAP,
};
use sim::{Form, Memory};

use crate::axi::{ATOMIC_IDS, AxiSim, Policy, Txn};
use crate::traffic;
use crate::unit::RtlUnit;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        sim::splitmix64_next(&mut self.0)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn pct(&mut self, p: u64) -> bool {
        self.below(100) < p
    }
    fn wide(&mut self) -> u128 {
        (self.next() as u128) << 64 | self.next() as u128
    }
}

/// A line: mostly one of a few hot lines, else anywhere in memory, rarely past its end.
fn line(rng: &mut Rng, mem_bytes: u32) -> u32 {
    match rng.below(100) {
        0..=59 => 0x100 + 16 * rng.below(6) as u32,
        60..=97 => 16 * rng.below(mem_bytes as u64 / 16) as u32,
        _ => mem_bytes + 16 * rng.below(64) as u32,
    }
}

fn plain_id(rng: &mut Rng) -> u8 {
    rng.below(ATOMIC_IDS.start as u64) as u8
}

fn atomic_id(rng: &mut Rng) -> u8 {
    ATOMIC_IDS.start + rng.below((ATOMIC_IDS.end - ATOMIC_IDS.start) as u64) as u8
}

fn burst(rng: &mut Rng) -> u8 {
    match rng.below(100) {
        0..=84 => BURST_INCR,
        85..=96 => BURST_FIXED,
        _ => BURST_WRAP,
    }
}

/// Strobes of a beat of `2^size` bytes at `addr` (its lanes), sometimes thinned to whole
/// 4-byte groups, sometimes to random bytes (partial groups), sometimes none.
fn strobes(rng: &mut Rng, addr: u32, size: u8) -> u16 {
    let n = 1u32 << size;
    let lanes = ((((1u64 << n) - 1) << (addr & (16 - n) & 15)) & 0xffff) as u16;
    match rng.below(100) {
        0..=79 => lanes,
        80..=89 => {
            let g = rng.below(16) as u16;
            lanes & (0..4).fold(0u16, |m, i| m | if g >> i & 1 == 1 { 0xf << (4 * i) } else { 0 })
        }
        90..=94 => lanes & rng.next() as u16,
        _ => 0,
    }
}

fn random_write(rng: &mut Rng, mem_bytes: u32) -> Txn {
    let size = [4u8, 4, 4, 3, 2, 1][rng.below(6) as usize];
    let len = rng.below(4) as u8;
    let addr = line(rng, mem_bytes) + if rng.pct(20) { rng.below(16) as u32 } else { 0 };
    let b = burst(rng);
    let mut t = Txn::write(plain_id(rng), addr, size, b, vec![(0, 0); len as usize + 1]);
    for n in 0..=len as usize {
        let a = t.beat_addr(n);
        t.beats[n] = (rng.wide(), strobes(rng, a, size));
    }
    t
}

fn random_read(rng: &mut Rng, mem_bytes: u32) -> Txn {
    let size = [4u8, 4, 3, 2][rng.below(4) as usize];
    let addr = line(rng, mem_bytes) + if rng.pct(20) { rng.below(16) as u32 } else { 0 };
    Txn::read(plain_id(rng), addr, rng.below(4) as u8, size, burst(rng))
}

/// An ATOP atomic (store or load, any op, mostly 4 or 8 bytes and aligned).
fn random_atop(rng: &mut Rng, mem_bytes: u32) -> Txn {
    let kind = if rng.pct(50) { ATOP_STORE } else { ATOP_LOAD };
    let mut atop = kind << 4 | rng.below(8) as u8;
    if rng.pct(3) {
        atop |= ATOP_BIG_ENDIAN;
    }
    let size = if rng.pct(95) { 2 + rng.below(2) as u8 } else { rng.below(5) as u8 };
    let n = 1u32 << size;
    let mut addr = line(rng, mem_bytes) + (rng.below(16) as u32 & !(n - 1) & 15);
    if rng.pct(3) {
        addr += 2;
    }
    Txn::atomic(atomic_id(rng), atop, 0, addr, size, rng.wide())
}

/// A GPU form through `AWUSER` (rarely an illegal code), or a refused ATOP.
fn random_user(rng: &mut Rng, mem_bytes: u32, forms: &[Form]) -> Txn {
    let id = atomic_id(rng);
    match rng.below(100) {
        0..=89 => {
            let f = forms[rng.below(forms.len() as u64) as usize];
            let kind = if rng.pct(50) { ATOP_STORE } else { ATOP_LOAD };
            let n = f.bytes() as u32;
            let addr = line(rng, mem_bytes) + (rng.below(16) as u32 & !(n - 1) & 15);
            let user = 1 << AWUSER_FORM_EN | f.code();
            let op = rng.wide() & if rng.pct(50) { 0x3c00_3c00_3c00_3c00_3c00_3c00_3c00_3c00 } else { u128::MAX };
            Txn::atomic(id, kind << 4, user, addr, n.trailing_zeros() as u8, op)
        }
        90..=93 => {
            let code = loop {
                let c = rng.below(1024) as u16;
                if Form::from_code(c).is_none() {
                    break c;
                }
            };
            Txn::atomic(id, ATOP_LOAD << 4, 1 << AWUSER_FORM_EN | code, line(rng, mem_bytes), 2, rng.wide())
        }
        // Swap/Compare of a size they do not take.
        94..=96 => Txn::atomic(
            id,
            if rng.pct(50) { ATOP_SWAP } else { ATOP_COMPARE },
            0,
            line(rng, mem_bytes),
            if rng.pct(50) { 1 } else { 0 },
            rng.wide(),
        ),
        _ => {
            let mut t = Txn::atomic(id, ATOP_STORE << 4, 0, line(rng, mem_bytes), 2, rng.wide());
            t.len = 1;
            t.beats.push((rng.wide(), 0xf));
            t
        }
    }
}

/// AtomicSwap or AtomicCompare of 4 or 8 bytes, on 16 lines of their own (from 0x8000) with
/// values 0 to 3, so that compares often match.
fn random_exchange(rng: &mut Rng) -> Txn {
    let n8 = rng.pct(50);
    let nb = if n8 { 8u32 } else { 4 };
    let addr = 0x8000 + 16 * rng.below(16) as u32 + nb * rng.below((16 / nb) as u64) as u32;
    let small = |rng: &mut Rng| rng.below(4) as u128;
    if rng.pct(40) {
        Txn::atomic(atomic_id(rng), ATOP_SWAP, 0, addr, if n8 { 3 } else { 2 }, small(rng) << (8 * (addr % 16)))
    } else {
        let data = small(rng) << (8 * (addr % 16)) | small(rng) << (8 * ((addr ^ nb) % 16));
        Txn::atomic(atomic_id(rng), ATOP_COMPARE, 0, addr & !(2 * nb - 1), if n8 { 4 } else { 3 }, data).with_addr(addr)
    }
}

/// `n` random transactions over a memory of `mem_bytes`: plain writes (narrow, unaligned,
/// partial strobes, FIXED, WRAP) and reads, ATOP atomics, AtomicSwap/Compare, GPU forms
/// through `AWUSER`, and refused atomics; most of them on six hot lines.
pub fn random_traffic(seed: u64, n: usize, mem_bytes: usize) -> Vec<Txn> {
    let mut rng = Rng(seed);
    let forms = Form::all();
    let m = mem_bytes as u32;
    (0..n)
        .map(|_| match rng.below(100) {
            0..=24 => random_write(&mut rng, m),
            25..=44 => random_read(&mut rng, m),
            45..=71 => random_atop(&mut rng, m),
            72..=79 => random_exchange(&mut rng),
            _ => random_user(&mut rng, m, &forms),
        })
        .collect()
}

/// `n` increments of the u32 at `addr`: AtomicStore ADD 1, every fourth an AtomicLoad ADD 1.
pub fn counter_traffic(n: usize, addr: u32) -> Vec<Txn> {
    (0..n)
        .map(|i| {
            let kind = if i % 4 == 3 { ATOP_LOAD } else { ATOP_STORE };
            Txn::atomic(ATOMIC_IDS.start + (i % 4) as u8, kind << 4, 0, addr, 2, 1u128 << (8 * (addr % 16)))
        })
        .collect()
}

/// One row of `redunit bench --top axi`.
#[derive(Clone, Debug)]
pub struct AxiBenchRow {
    pub name: &'static str,
    pub requests: usize,
    pub unit_ops_per_cycle: f64,
    pub axi_ops_per_cycle: f64,
    pub unit_mismatches: u64,
}

/// Each bench pattern of the unit ([`traffic::bench_patterns`], `red`/`atom` requests) on the
/// bare unit (request port, as `redunit bench`) and through AXI (each request an atomic with
/// its form in `AWUSER`, no stall): operations per cycle from the first handshake to the last
/// response. The AXI run checks every response against the golden model (an error fails).
/// Then patterns of the AXI channels alone (`axi_*`: single-beat reads and writes of distinct
/// lines, both channels at once, 16-beat read bursts), counted in unit requests; AtomicSwap and
/// AtomicCompare to distinct lines, counted in transactions.
pub fn bench(n: usize) -> anyhow::Result<Vec<AxiBenchRow>> {
    let mem_bytes = crate::axi::AXI_MEM_BYTES;
    let mut rows = Vec::new();
    for (name, reqs) in traffic::bench_patterns(n, mem_bytes) {
        let mut unit = RtlUnit::with_config(mem_bytes, &hw::Config::unit_default(), None)?;
        let (outcomes, rsps) = crate::unit::execute_trace(&mut unit, &reqs)?;
        let first = rsps.iter().flatten().map(|r| r.accept).min().unwrap_or(0);
        let last = rsps.iter().flatten().map(|r| r.cycle).max().unwrap_or(0);
        let mut golden = Memory::new(mem_bytes);
        let unit_mismatches = reqs.iter().zip(&outcomes).filter(|(q, o)| golden.execute(q) != **o).count() as u64;
        if unit_mismatches > 0 {
            anyhow::bail!(
                "bench pattern {name}: {unit_mismatches} responses of the bare unit differ from the golden model"
            );
        }
        let txns: Vec<Txn> =
            reqs.iter().enumerate().map(|(i, r)| Txn::from_request(ATOMIC_IDS.start + (i % 4) as u8, r)).collect();
        let mut sim = AxiSim::new();
        let s = sim
            .run(&txns, &Policy::FULL_SPEED)
            .map_err(|e| anyhow::anyhow!("bench pattern {name} through AXI: {e}"))?;
        rows.push(AxiBenchRow {
            name,
            requests: reqs.len(),
            unit_ops_per_cycle: reqs.len() as f64 / (last + 1 - first).max(1) as f64,
            axi_ops_per_cycle: txns.len() as f64 / (s.last + 1 - s.first).max(1) as f64,
            unit_mismatches,
        });
    }
    // The AXI channels alone: plain reads and writes of whole lines, and a read burst.
    let lines = (mem_bytes / 16) as u32;
    let half = lines / 2;
    let rd = |i: usize| Txn::read((i % 12) as u8, 16 * (i as u32 % half), 0, 4, BURST_INCR);
    let wr =
        |i: usize| Txn::write((i % 12) as u8, 16 * (half + i as u32 % half), 4, BURST_INCR, vec![(i as u128, 0xffff)]);
    let channel: Vec<(&'static str, Vec<Txn>)> = vec![
        ("axi_read_distinct", (0..n).map(rd).collect()),
        ("axi_write_distinct", (0..n).map(wr).collect()),
        ("axi_read_write_distinct", (0..n).map(|i| if i % 2 == 0 { rd(i / 2) } else { wr(i / 2) }).collect()),
        (
            "axi_read_burst16",
            (0..n.div_ceil(16))
                .map(|i| Txn::read((i % 12) as u8, 16 * (16 * i as u32 % (lines - 16)), 15, 4, BURST_INCR))
                .collect(),
        ),
    ];
    // Swap (a load and a store) and Compare (the unit's `atom.cas`): counted in transactions.
    let swap =
        |i: usize| Txn::atomic(ATOMIC_IDS.start + (i % 4) as u8, ATOP_SWAP, 0, 16 * (i as u32 % lines), 2, i as u128);
    let cas = |i: usize| {
        Txn::atomic(ATOMIC_IDS.start + (i % 4) as u8, ATOP_COMPARE, 0, 16 * (i as u32 % lines), 3, (i as u128) << 32)
    };
    let exchange: Vec<(&'static str, Vec<Txn>)> = vec![
        ("axi_swap_distinct_txns", (0..n).map(swap).collect()),
        ("axi_compare_distinct_txns", (0..n).map(cas).collect()),
    ];
    for (k, (name, txns)) in channel.into_iter().chain(exchange).enumerate() {
        let mut sim = AxiSim::new();
        let s = sim.run(&txns, &Policy::FULL_SPEED).map_err(|e| anyhow::anyhow!("bench pattern {name}: {e}"))?;
        let ops = if k < 4 { s.unit_requests as usize } else { txns.len() };
        rows.push(AxiBenchRow {
            name,
            requests: ops,
            unit_ops_per_cycle: f64::NAN,
            axi_ops_per_cycle: ops as f64 / (s.last + 1 - s.first).max(1) as f64,
            unit_mismatches: 0,
        });
    }
    Ok(rows)
}

/// The table of [`bench`] (`-`: a pattern of the AXI channels, with no bare-unit twin).
pub fn bench_text(rows: &[AxiBenchRow]) -> String {
    let mut s = format!("{:<26} {:>9}  {:>14}  {:>13}\n", "pattern", "requests", "unit ops/cycle", "AXI ops/cycle");
    for r in rows {
        let unit = if r.unit_ops_per_cycle.is_nan() { "-".to_string() } else { format!("{:.4}", r.unit_ops_per_cycle) };
        s += &format!("{:<26} {:>9}  {:>14}  {:>13.4}\n", r.name, r.requests, unit, r.axi_ops_per_cycle);
    }
    s += "(per cycle from the first handshake to the last response: unit requests, or transactions\n\
          for the *_txns rows; `-`: the AXI channels alone, no bare-unit twin)\n";
    s
}
