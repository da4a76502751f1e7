//! The Verilated AXI front end (`hw::AxiUnit` in front of the unit, `Vaxi`) and its driver: an
//! AXI manager with random valid/ready stalls on all five channels, protocol assertions and a
//! golden model of every transaction ([`golden`], `docs/axi.md`).
//!
//! # What the driver checks
//! - Payload stability: an R or B response that is valid and not taken must stay valid with
//!   the same payload in the next cycle (and the driver's own AW/W/AR payloads likewise).
//! - One response per request: each write transaction (plain or atomic) gets one B; each read
//!   gets `ARLEN + 1` R beats with `RLAST` on the last only; an AtomicLoad/Swap/Compare gets one
//!   R beat (`RLAST` high) too. A response with no transaction waiting for it on its ID fails.
//! - Per-ID order: responses of one ID match that ID's transactions in handshake order (R: the
//!   reads and returning atomics, B: the writes and atomics).
//! - Outcomes: every `xRESP` and every `RDATA` of an `OKAY` response against [`golden`].
//!
//! # Order of the golden model
//! AXI orders nothing between the read and the write channel. The driver issues transactions
//! in program order, and holds back a read that shares a 16-byte line with an unfinished
//! write-channel transaction (and a write-channel transaction that shares one with an
//! unfinished read), as a manager that wants a defined result must. Write-channel
//! transactions run in `AW` order (one at a time in the front end, in arrival order per 32-bit word
//! in the unit), so the golden model applies each transaction when the driver issues it.
//! Atomic transactions use IDs of their own ([`ATOMIC_IDS`]), as AXI requires of atomics
//! against non-atomic transactions in flight.

use std::collections::{HashMap, VecDeque};
use std::ffi::c_void;

use hw::axi::{
    ATOP_COMPARE, ATOP_LOAD, ATOP_STORE, ATOP_SWAP, AWUSER_FORM_EN, BURST_FIXED, BURST_INCR, RESP_OKAY, RESP_SLVERR,
};
use sim::{Access, Form, Memory, Request, Width};

/// Mirrors `AxiIo` in `csrc/axi_shim.cpp`.
#[repr(C)]
#[derive(Clone, Copy, Default, Debug)]
pub struct AxiIo {
    pub reset: u8,
    pub awvalid: u8,
    pub wvalid: u8,
    pub wlast: u8,
    pub bready: u8,
    pub arvalid: u8,
    pub rready: u8,
    pub awid: u8,
    pub awlen: u8,
    pub awsize: u8,
    pub awburst: u8,
    pub awatop: u8,
    pub arid: u8,
    pub arlen: u8,
    pub arsize: u8,
    pub arburst: u8,
    pub awuser: u16,
    pub wstrb: u16,
    pub awaddr: u32,
    pub araddr: u32,
    pub wdata: [u32; 4],
    pub awready: u8,
    pub wready: u8,
    pub bvalid: u8,
    pub bid: u8,
    pub bresp: u8,
    pub arready: u8,
    pub rvalid: u8,
    pub rid: u8,
    pub rresp: u8,
    pub rlast: u8,
    pub fire: u8,
    pub pad0: u8,
    pub cov: u32,
    pub rdata: [u32; 4],
}

unsafe extern "C" {
    fn redunit_axi_new() -> *mut c_void;
    fn redunit_axi_free(h: *mut c_void);
    fn redunit_axi_cycle(h: *mut c_void, io: *mut AxiIo);
}

/// The memory size of the linked model.
pub const AXI_MEM_BYTES: usize = sim::memory::DEFAULT_MEM_BYTES;
/// IDs the driver gives atomic transactions (the others go to plain reads and writes).
pub const ATOMIC_IDS: std::ops::Range<u8> = 12..16;
/// Cycles without any handshake, with transactions outstanding, that fail a run.
pub const TIMEOUT_CYCLES: u64 = 10_000;

fn to_words(v: u128) -> [u32; 4] {
    [v as u32, (v >> 32) as u32, (v >> 64) as u32, (v >> 96) as u32]
}

fn from_words(w: [u32; 4]) -> u128 {
    w.iter().rev().fold(0u128, |a, &x| a << 32 | x as u128)
}

/// One AXI transaction as the manager issues it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Txn {
    /// AW/W (a write or an atomic) rather than AR.
    pub write: bool,
    pub id: u8,
    pub addr: u32,
    pub len: u8,
    pub size: u8,
    pub burst: u8,
    pub atop: u8,
    pub user: u16,
    /// W beats: data and strobes (`len + 1` of them).
    pub beats: Vec<(u128, u16)>,
}

impl Txn {
    pub fn read(id: u8, addr: u32, len: u8, size: u8, burst: u8) -> Txn {
        Txn { write: false, id, addr, len, size, burst, atop: 0, user: 0, beats: vec![] }
    }

    pub fn write(id: u8, addr: u32, size: u8, burst: u8, beats: Vec<(u128, u16)>) -> Txn {
        assert!(!beats.is_empty() && beats.len() <= 256);
        Txn { write: true, id, addr, len: (beats.len() - 1) as u8, size, burst, atop: 0, user: 0, beats }
    }

    /// An atomic of one beat: `data` on its byte lanes, all strobes of the operand set.
    pub fn atomic(id: u8, atop: u8, user: u16, addr: u32, size: u8, data: u128) -> Txn {
        let n = 1u32 << size.min(4);
        let lanes = ((1u32 << n) - 1) << (addr % 16);
        Txn { write: true, id, addr, len: 0, size, burst: BURST_INCR, atop, user, beats: vec![(data, lanes as u16)] }
    }

    /// A unit request as an atomic with its form in `AWUSER`: `red` → AtomicStore, `atom` →
    /// AtomicLoad.
    pub fn from_request(id: u8, r: &Request) -> Txn {
        let (atop, f) = match r.access {
            Access::Red(f) => (ATOP_STORE << 4, f),
            Access::Atom(f) => (ATOP_LOAD << 4, f),
            a => panic!("{a} has no atomic form"),
        };
        let size = f.bytes().trailing_zeros() as u8;
        let user = 1 << AWUSER_FORM_EN | f.code();
        Txn::atomic(id, atop, user, r.addr as u32, size, r.value << (8 * (r.addr % 16)))
    }

    /// The same transaction at address `addr` (its strobes kept).
    pub fn with_addr(mut self, addr: u32) -> Txn {
        self.addr = addr;
        self
    }

    pub fn is_atomic(&self) -> bool {
        self.write && self.atop >> 4 != 0
    }

    /// The atomic has an R response.
    pub fn returns(&self) -> bool {
        self.write && self.atop >> 5 == 1
    }

    /// The address of beat `n` (INCR and FIXED; WRAP is refused, counted as INCR).
    pub fn beat_addr(&self, n: usize) -> u32 {
        let sz = 1u32 << self.size;
        if self.burst == BURST_FIXED || n == 0 {
            self.addr
        } else {
            (self.addr & !(sz - 1)).wrapping_add(sz.wrapping_mul(n as u32))
        }
    }

    /// The 16-byte lines the transaction touches.
    pub fn lines(&self) -> Vec<u32> {
        let mut v: Vec<u32> = (0..=self.len as usize).map(|n| self.beat_addr(n) & !15).collect();
        v.dedup();
        v
    }
}

/// What a transaction must get back: its B response, and its R beats (response, data; data
/// `None`: not checked).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expect {
    pub b: Option<u8>,
    pub r: Vec<(u8, Option<u128>)>,
}

/// The unit operation of an AtomicStore/AtomicLoad and whether its operand is inverted;
/// `None`: refused (`docs/axi.md`; Swap and Compare are [`golden`]'s own).
pub fn atomic_access(t: &Txn) -> Option<(Access, bool)> {
    let kind = t.atop >> 4 & 3;
    if kind == 3 || t.len != 0 {
        return None;
    }
    let wrap = |f: Form| if kind == ATOP_STORE { Access::Red(f) } else { Access::Atom(f) };
    if t.user >> AWUSER_FORM_EN & 1 == 1 {
        return Form::from_code(t.user & 0x3ff).map(|f| (wrap(f), false));
    }
    let o = (t.atop & 7) as usize;
    let (op, t32, t64, neutral) = hw::axi::decode::ATOP_OPS[o];
    if !(t.size == 2 || t.size == 3) || (t.atop & 8 != 0 && !neutral) {
        return None;
    }
    let ty = if t.size == 3 { t64 } else { t32 };
    let f = Form::new(sim::Space::Global, op, ty, 1, false).expect("every ATOP maps to a legal form");
    Some((wrap(f), o == 1))
}

/// AtomicSwap and AtomicCompare: a load of the operand, then its store (Compare: only if the
/// old value equals the compare value, on the operand's lanes; the swap value is in the other
/// half of the 2N-byte window).
fn golden_exchange(mem: &mut Memory, t: &Txn) -> Expect {
    let cas = t.atop == ATOP_COMPARE;
    let n = if cas { t.size.wrapping_sub(1) } else { t.size };
    if t.len != 0 || !(n == 2 || n == 3) {
        return Expect { b: Some(RESP_SLVERR), r: vec![(RESP_SLVERR, None)] };
    }
    let (nb, w) = if n == 3 { (8u32, Width::B64) } else { (4, Width::B32) };
    let data = t.beats[0].0;
    let sh = 8 * (t.addr & 14);
    let Ok(Some(old)) = mem.execute(&Request { access: Access::Ld(w), addr: t.addr as u64, value: 0 }) else {
        return Expect { b: Some(RESP_SLVERR), r: vec![(RESP_SLVERR, None)] };
    };
    let sw_addr = if cas { t.addr ^ nb } else { t.addr };
    let swap = data >> (8 * (sw_addr & 14));
    let mask = (1u128 << (8 * nb)) - 1;
    if !cas || (data >> sh) & mask == old {
        mem.execute(&Request { access: Access::St(w), addr: t.addr as u64, value: swap }).expect("the load's address");
    }
    Expect { b: Some(RESP_OKAY), r: vec![(RESP_OKAY, Some(old << sh))] }
}

/// Applies `t` to `mem` as the front end does and returns what it must answer.
pub fn golden(mem: &mut Memory, t: &Txn) -> Expect {
    let ok = |r: bool| if r { RESP_OKAY } else { RESP_SLVERR };
    let bad_burst = t.burst != BURST_INCR && t.burst != BURST_FIXED;
    if !t.write {
        let r = (0..=t.len as usize)
            .map(|n| {
                let line = (t.beat_addr(n) & !15) as u64;
                match mem.check(line, 16) {
                    Ok(a) if !bad_burst => (RESP_OKAY, Some(mem.read(a, 16))),
                    _ => (RESP_SLVERR, None),
                }
            })
            .collect();
        return Expect { b: None, r };
    }
    if t.atop == ATOP_SWAP || t.atop == ATOP_COMPARE {
        return golden_exchange(mem, t);
    }
    if t.is_atomic() {
        let rn = if t.returns() { 1 } else { 0 };
        let Some((access, inv)) = atomic_access(t) else {
            return Expect { b: Some(RESP_SLVERR), r: vec![(RESP_SLVERR, None); rn] };
        };
        let sh = 8 * (t.addr & 14);
        let v = t.beats[t.len as usize].0 >> sh;
        let req = Request { access, addr: t.addr as u64, value: if inv { !v } else { v } };
        return match mem.execute(&req) {
            Ok(old) => Expect { b: Some(RESP_OKAY), r: vec![(RESP_OKAY, Some(old.unwrap_or(0) << sh)); rn] },
            Err(_) => Expect { b: Some(RESP_SLVERR), r: vec![(RESP_SLVERR, None); rn] },
        };
    }
    let mut good = !bad_burst;
    for (n, &(data, strb)) in t.beats.iter().enumerate() {
        if bad_burst {
            break;
        }
        let line = t.beat_addr(n) & !15;
        let in_range = mem.check(line as u64, 16).is_ok();
        if strb == 0 {
            good &= in_range;
        }
        for g in 0..4 {
            let s = strb >> (4 * g) & 0xf;
            if s != 0 && s != 0xf {
                good = false;
            } else if s == 0xf {
                match mem.check((line + 4 * g) as u64, 4) {
                    Ok(a) => mem.write(a, 4, data >> (32 * g)),
                    Err(_) => good = false,
                }
            }
        }
    }
    Expect { b: Some(ok(good)), r: vec![] }
}

/// Valid and ready percentages of a run (100: never stalls) and the seed of its coin.
#[derive(Clone, Copy, Debug)]
pub struct Policy {
    pub valid_pct: u32,
    pub ready_pct: u32,
    pub seed: u64,
}

impl Policy {
    pub const FULL_SPEED: Policy = Policy { valid_pct: 100, ready_pct: 100, seed: 1 };
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct RunStats {
    pub cycles: u64,
    /// Unit requests (`fire`).
    pub unit_requests: u64,
    /// The first address handshake and the last response handshake (cycles).
    pub first: u64,
    pub last: u64,
    pub slverr: u64,
    /// Cycles with an R or B response held (valid and not ready).
    pub held: u64,
}

/// The Verilated AXI unit with its golden memory.
pub struct AxiSim {
    h: *mut c_void,
    io: Box<AxiIo>,
    pub cycle: u64,
    pub golden: Memory,
}

impl Drop for AxiSim {
    fn drop(&mut self) {
        // SAFETY: the handle came from redunit_axi_new and is freed once.
        unsafe { redunit_axi_free(self.h) }
    }
}

impl Default for AxiSim {
    fn default() -> Self {
        Self::new()
    }
}

impl AxiSim {
    /// A model after 4 cycles of reset, memory zero.
    pub fn new() -> AxiSim {
        // SAFETY: plain constructor; the handle is owned by the returned value.
        let h = unsafe { redunit_axi_new() };
        let mut s = AxiSim { h, io: Box::default(), cycle: 0, golden: Memory::new(AXI_MEM_BYTES) };
        s.io.reset = 1;
        for _ in 0..4 {
            s.step();
        }
        s.io.reset = 0;
        s
    }

    fn step(&mut self) {
        // SAFETY: `h` is live and `io` a valid AxiIo for the call.
        unsafe { redunit_axi_cycle(self.h, &mut *self.io) };
        self.cycle += 1;
    }

    /// Drives `txns` (program order) to completion and checks every response; `Err` names
    /// the first violation.
    pub fn run(&mut self, txns: &[Txn], pol: &Policy) -> Result<RunStats, String> {
        Driver::new(txns, pol).run(self)
    }
}

/// A transaction in flight.
struct Live {
    exp: Expect,
    b_left: bool,
    r_next: usize,
}

struct Driver<'a> {
    txns: &'a [Txn],
    pol: Policy,
    rng: u64,
    next: usize,
    live: HashMap<usize, Live>,
    aw_q: VecDeque<usize>,
    w_q: VecDeque<usize>,
    w_beat: usize,
    ar_q: VecDeque<usize>,
    b_fifo: HashMap<u8, VecDeque<usize>>,
    r_fifo: HashMap<u8, VecDeque<usize>>,
    /// Lines of unfinished transactions per channel: line → count.
    lines_w: HashMap<u32, u32>,
    lines_r: HashMap<u32, u32>,
    aw_on: bool,
    w_on: bool,
    ar_on: bool,
    held_r: Option<(u8, u8, u8, [u32; 4])>,
    held_b: Option<(u8, u8)>,
    stats: RunStats,
}

/// Most transactions in flight at once.
const MAX_LIVE: usize = 96;

impl<'a> Driver<'a> {
    fn new(txns: &'a [Txn], pol: &Policy) -> Self {
        Driver {
            txns,
            pol: *pol,
            rng: pol.seed,
            next: 0,
            live: HashMap::new(),
            aw_q: VecDeque::new(),
            w_q: VecDeque::new(),
            w_beat: 0,
            ar_q: VecDeque::new(),
            b_fifo: HashMap::new(),
            r_fifo: HashMap::new(),
            lines_w: HashMap::new(),
            lines_r: HashMap::new(),
            aw_on: false,
            w_on: false,
            ar_on: false,
            held_r: None,
            held_b: None,
            stats: RunStats { first: u64::MAX, ..Default::default() },
        }
    }

    fn coin(&mut self, pct: u32) -> bool {
        pct >= 100 || sim::splitmix64_next(&mut self.rng) % 100 < pct as u64
    }

    /// Issues the transactions whose lines no unfinished transaction of the other channel uses.
    fn issue(&mut self, mem: &mut Memory) {
        while self.next < self.txns.len() && self.live.len() < MAX_LIVE {
            let t = &self.txns[self.next];
            let other = if t.write { &self.lines_r } else { &self.lines_w };
            let lines = t.lines();
            if lines.iter().any(|l| other.contains_key(l)) {
                return;
            }
            let mine = if t.write { &mut self.lines_w } else { &mut self.lines_r };
            for l in lines {
                *mine.entry(l).or_default() += 1;
            }
            let exp = golden(mem, t);
            self.live.insert(self.next, Live { b_left: exp.b.is_some(), r_next: 0, exp });
            if t.write {
                self.aw_q.push_back(self.next);
                self.w_q.push_back(self.next);
            } else {
                self.ar_q.push_back(self.next);
            }
            self.next += 1;
        }
    }

    fn finish_if_done(&mut self, i: usize) {
        let l = &self.live[&i];
        if l.b_left || l.r_next < l.exp.r.len() {
            return;
        }
        self.live.remove(&i);
        let t = &self.txns[i];
        let mine = if t.write { &mut self.lines_w } else { &mut self.lines_r };
        for l in t.lines() {
            let c = mine.get_mut(&l).expect("a live line");
            *c -= 1;
            if *c == 0 {
                mine.remove(&l);
            }
        }
    }

    /// Sets this cycle's inputs (payloads stay while valid and not taken).
    fn drive(&mut self, io: &mut AxiIo) {
        if !self.aw_on && !self.aw_q.is_empty() {
            self.aw_on = self.coin(self.pol.valid_pct);
        }
        if let (true, Some(&i)) = (self.aw_on, self.aw_q.front()) {
            let t = &self.txns[i];
            (io.awid, io.awaddr, io.awlen, io.awsize, io.awburst, io.awatop, io.awuser) =
                (t.id, t.addr, t.len, t.size, t.burst, t.atop, t.user);
        }
        io.awvalid = self.aw_on as u8;
        // A W beat only for a transaction whose AW is taken or on the bus now.
        let w_front = self.w_q.front().copied();
        let w_allowed = w_front.is_some_and(|i| self.aw_q.front() != Some(&i) || self.aw_on);
        if !self.w_on && w_allowed {
            self.w_on = self.coin(self.pol.valid_pct);
        }
        if let (true, Some(i)) = (self.w_on, w_front) {
            let t = &self.txns[i];
            let (d, s) = t.beats[self.w_beat];
            io.wdata = to_words(d);
            io.wstrb = s;
            io.wlast = (self.w_beat == t.len as usize) as u8;
        }
        io.wvalid = self.w_on as u8;
        if !self.ar_on && !self.ar_q.is_empty() {
            self.ar_on = self.coin(self.pol.valid_pct);
        }
        if let (true, Some(&i)) = (self.ar_on, self.ar_q.front()) {
            let t = &self.txns[i];
            (io.arid, io.araddr, io.arlen, io.arsize, io.arburst) = (t.id, t.addr, t.len, t.size, t.burst);
        }
        io.arvalid = self.ar_on as u8;
        io.rready = self.coin(self.pol.ready_pct) as u8;
        io.bready = self.coin(self.pol.ready_pct) as u8;
    }

    /// Checks the outputs sampled this cycle and applies the handshakes.
    fn observe(&mut self, io: &AxiIo, cycle: u64) -> Result<bool, String> {
        let mut progress = false;
        // Stability of held responses.
        if let Some(h) = self.held_r.take() {
            if io.rvalid == 0 || (io.rid, io.rresp, io.rlast, io.rdata) != h {
                return Err(format!(
                    "cycle {cycle}: R changed while valid and not ready: {h:?} -> valid {} {:?}",
                    io.rvalid,
                    (io.rid, io.rresp, io.rlast, io.rdata)
                ));
            }
        }
        if let Some(h) = self.held_b.take() {
            if io.bvalid == 0 || (io.bid, io.bresp) != h {
                return Err(format!(
                    "cycle {cycle}: B changed while valid and not ready: {h:?} -> valid {} {:?}",
                    io.bvalid,
                    (io.bid, io.bresp)
                ));
            }
        }
        if io.awvalid == 1 && io.awready == 1 {
            let i = self.aw_q.pop_front().expect("AW on the bus");
            let t = &self.txns[i];
            self.b_fifo.entry(t.id).or_default().push_back(i);
            if t.returns() {
                self.r_fifo.entry(t.id).or_default().push_back(i);
            }
            self.aw_on = false;
            self.stats.first = self.stats.first.min(cycle);
            progress = true;
        }
        if io.wvalid == 1 && io.wready == 1 {
            let i = *self.w_q.front().expect("W on the bus");
            self.w_beat += 1;
            if self.w_beat > self.txns[i].len as usize {
                self.w_q.pop_front();
                self.w_beat = 0;
            }
            self.w_on = false;
            progress = true;
        }
        if io.arvalid == 1 && io.arready == 1 {
            let i = self.ar_q.pop_front().expect("AR on the bus");
            self.r_fifo.entry(self.txns[i].id).or_default().push_back(i);
            self.ar_on = false;
            self.stats.first = self.stats.first.min(cycle);
            progress = true;
        }
        if io.bvalid == 1 && io.bready == 0 {
            self.held_b = Some((io.bid, io.bresp));
            self.stats.held += 1;
        }
        if io.rvalid == 1 && io.rready == 0 {
            self.held_r = Some((io.rid, io.rresp, io.rlast, io.rdata));
            self.stats.held += 1;
        }
        if io.bvalid == 1 && io.bready == 1 {
            let Some(i) = self.b_fifo.get_mut(&io.bid).and_then(|q| q.pop_front()) else {
                return Err(format!("cycle {cycle}: B with ID {} and no write transaction waiting on it", io.bid));
            };
            let l = self.live.get_mut(&i).expect("a live transaction");
            if Some(io.bresp) != l.exp.b {
                return Err(format!(
                    "cycle {cycle}: transaction {i} {:?}: BRESP {} expected {:?}",
                    self.txns[i], io.bresp, l.exp.b
                ));
            }
            self.stats.slverr += (io.bresp == RESP_SLVERR) as u64;
            l.b_left = false;
            self.finish_if_done(i);
            self.stats.last = cycle;
            progress = true;
        }
        if io.rvalid == 1 && io.rready == 1 {
            let Some(&i) = self.r_fifo.get(&io.rid).and_then(|q| q.front()) else {
                return Err(format!("cycle {cycle}: R with ID {} and no transaction waiting on it", io.rid));
            };
            let l = self.live.get_mut(&i).expect("a live transaction");
            let k = l.r_next;
            let (resp, data) = l.exp.r[k];
            let last = k + 1 == l.exp.r.len();
            let got = from_words(io.rdata);
            if io.rresp != resp || (io.rlast == 1) != last || data.is_some_and(|d| d != got) {
                return Err(format!(
                    "cycle {cycle}: transaction {i} {:?} beat {k}: RRESP {} RLAST {} RDATA {got:#034x}, expected {resp} {last} {:?}",
                    self.txns[i],
                    io.rresp,
                    io.rlast,
                    data.map(|d| format!("{d:#034x}"))
                ));
            }
            self.stats.slverr += (io.rresp == RESP_SLVERR) as u64;
            l.r_next += 1;
            if last {
                self.r_fifo.get_mut(&io.rid).expect("the ID's queue").pop_front();
            }
            self.finish_if_done(i);
            self.stats.last = cycle;
            progress = true;
        }
        self.stats.unit_requests += io.fire as u64;
        Ok(progress)
    }

    fn run(mut self, sim: &mut AxiSim) -> Result<RunStats, String> {
        let start = sim.cycle;
        let mut idle = 0u64;
        let mut io = *sim.io;
        loop {
            self.issue(&mut sim.golden);
            if self.next == self.txns.len() && self.live.is_empty() {
                break;
            }
            let prev = io;
            self.drive(&mut io);
            // The manager's own rule: a payload offered and not taken stays.
            if prev.awvalid == 1
                && prev.awready == 0
                && (io.awvalid, io.awid, io.awaddr, io.awatop) != (1, prev.awid, prev.awaddr, prev.awatop)
            {
                return Err(format!("cycle {}: the driver changed AW while it was not taken", sim.cycle));
            }
            *sim.io = io;
            sim.step();
            io = *sim.io;
            let cycle = sim.cycle - 1;
            if self.observe(&io, cycle)? {
                idle = 0;
            } else {
                idle += 1;
                if idle > TIMEOUT_CYCLES {
                    return Err(format!(
                        "cycle {cycle}: no handshake for {TIMEOUT_CYCLES} cycles with {} transactions in flight (next to issue: {})",
                        self.live.len(),
                        self.next
                    ));
                }
            }
        }
        self.stats.cycles = sim.cycle - start;
        io.awvalid = 0;
        io.wvalid = 0;
        io.arvalid = 0;
        *sim.io = io;
        Ok(self.stats)
    }
}
