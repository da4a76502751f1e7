//! Warp `RED` instructions: `redunit run` warp traces, the Verilated warp unit
//! (`hw::WarpUnit`: `hw::WarpCoalescer` + `hw::SliceUnit`, `csrc/warp_shim.cpp`), the warp
//! patterns of `redunit bench`.
//!
//! # Warp trace (`redunit run`)
//! The rows ([`crate::warp_trace`]): one warp instruction per row, a global `red` form or a
//! SASS `RED{.E}.op{.sz}` with its lanes' registers, operands and immediate offset. Output: the
//! header `index,op,mask,lines,requests,misaligned,out_of_range` and one row per instruction:
//! `lines` the 128-byte line accesses as the SASS text counts them
//! ([`sim::warp::line_accesses`], a property of the instruction, the same for both engines),
//! `requests` the unit requests it took (model: [`sim::warp::coalesce`]; rtl: the requests the
//! Verilated coalescer sent), and the lanes that failed with each error, as 8-digit hex lane
//! masks.

use std::collections::HashMap;
use std::ffi::c_void;

use anyhow::bail;
use sim::warp::{WarpInst, WarpOutcome, coalesce, line_accesses};
use sim::{MemError, Memory, Request};

/// The header of a warp trace.
pub fn header() -> String {
    let mut h = String::from("op,mask");
    for i in 0..32 {
        h.push_str(&format!(",addr{i},value{i}"));
    }
    h
}

/// Whether a trace's first line is a warp trace's header (starts with `op,mask,`).
pub fn is_warp_header(first_line: &str) -> bool {
    first_line.starts_with("op,mask,")
}

/// The result of one warp instruction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WarpResult {
    pub lines: usize,
    pub requests: usize,
    pub outcome: WarpOutcome,
}

/// The golden model: lane order on `mem`, requests from [`coalesce`].
pub fn execute_model(mem: &mut Memory, insts: &[WarpInst]) -> Vec<WarpResult> {
    insts
        .iter()
        .map(|w| WarpResult { lines: line_accesses(w), requests: coalesce(w).len(), outcome: mem.execute_warp(w) })
        .collect()
}

#[repr(C)]
#[derive(Clone, Copy)]
struct WarpIo {
    reset: u8,
    warp_valid: u8,
    req_valid: u8,
    rsp_ready: u8,
    req_mask: u8,
    pad0: [u8; 3],
    warp_form: u16,
    req_op: u16,
    warp_mask: u32,
    req_addr: u32,
    warp_addr: [u32; 32],
    warp_data: [u32; 128],
    req_data: [u32; 4],
    warp_ready: u8,
    req_ready: u8,
    fire: u8,
    rsp_valid: u8,
    rsp_status: u8,
    fire_mask: u8,
    busy: u8,
    pad1: u8,
    fire_id: u16,
    rsp_id: u16,
    fire_lanes: u32,
    rsp_data: [u32; 4],
}

unsafe extern "C" {
    fn redunit_warp_new() -> *mut c_void;
    fn redunit_warp_free(h: *mut c_void);
    fn redunit_warp_cycles(h: *mut c_void) -> u64;
    fn redunit_warp_cycle(h: *mut c_void, io: *mut WarpIo);
}

/// One thing to send: a warp instruction, or a plain request on the unit's own port.
#[derive(Clone, Copy, Debug)]
pub enum Item {
    Warp(WarpInst),
    Plain(Request),
}

/// What came back for an [`Item`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemResult {
    Warp { requests: usize, outcome: WarpOutcome },
    Plain(Result<Option<u128>, MemError>),
}

/// The Verilated warp unit (64 KiB).
pub struct RtlWarp {
    h: *mut c_void,
    io: Box<WarpIo>,
}

impl RtlWarp {
    /// A new model, reset for two cycles.
    pub fn new() -> RtlWarp {
        // SAFETY: the shim allocates a model and returns its handle; freed in Drop.
        let h = unsafe { redunit_warp_new() };
        // SAFETY: WarpIo is plain integers; all-zero is a valid value.
        let io: Box<WarpIo> = Box::new(unsafe { std::mem::zeroed() });
        let mut w = RtlWarp { h, io };
        w.io.reset = 1;
        w.step();
        w.step();
        w.io.reset = 0;
        w
    }

    /// The memory size of the built model.
    pub const MEM_BYTES: usize = sim::memory::DEFAULT_MEM_BYTES;

    fn step(&mut self) {
        // SAFETY: `h` is a live handle and `io` a valid WarpIo for the call.
        unsafe { redunit_warp_cycle(self.h, &mut *self.io) }
    }

    /// Cycles simulated so far.
    pub fn cycles(&self) -> u64 {
        // SAFETY: live handle.
        unsafe { redunit_warp_cycles(self.h) }
    }

    /// Sends `items` in order, as fast as the unit accepts them (`rsp_ready` always high),
    /// and waits for every response. Returns one result per item and the cycles from the
    /// first cycle to the last response.
    pub fn run(&mut self, items: &[Item]) -> anyhow::Result<(Vec<ItemResult>, u64)> {
        let start = self.cycles();
        let mut results: Vec<ItemResult> = items
            .iter()
            .map(|it| match it {
                Item::Warp(_) => ItemResult::Warp { requests: 0, outcome: WarpOutcome::default() },
                Item::Plain(_) => ItemResult::Plain(Ok(None)),
            })
            .collect();
        // id -> (item, lanes)
        let mut in_flight: HashMap<u16, (usize, u32)> = HashMap::new();
        let mut k = 0;
        let mut cur_warp = usize::MAX;
        let mut idle = 0u64;
        self.io.rsp_ready = 1;
        // (`quiet`: cycles since the last acceptance; an instruction accepted in the last
        // cycle has not shown `busy` or a request yet.)
        let mut quiet = 0;
        while k < items.len() || !in_flight.is_empty() || self.io.busy != 0 || quiet < 2 {
            quiet += 1;
            self.io.warp_valid = 0;
            self.io.req_valid = 0;
            let mut plain_out_of_port = false;
            if let Some(it) = items.get(k) {
                match it {
                    Item::Warp(w) => {
                        self.io.warp_valid = 1;
                        self.io.warp_form = w.form.code();
                        self.io.warp_mask = w.active;
                        self.io.warp_addr = w.addrs;
                        for (i, v) in w.operands.iter().enumerate() {
                            for j in 0..4 {
                                self.io.warp_data[4 * i + j] = (v >> (32 * j)) as u32;
                            }
                        }
                    }
                    Item::Plain(r) if r.addr >= 1 << 32 => {
                        // Not representable on the 32-bit port: answered as the contract says.
                        let e = if r.addr % r.access.bytes() as u64 != 0 {
                            MemError::Misaligned
                        } else {
                            MemError::OutOfRange
                        };
                        results[k] = ItemResult::Plain(Err(e));
                        plain_out_of_port = true;
                    }
                    Item::Plain(r) => {
                        self.io.req_valid = 1;
                        self.io.req_op = r.access.code();
                        self.io.req_addr = r.addr as u32;
                        self.io.req_mask = 0;
                        for j in 0..4 {
                            self.io.req_data[j] = (r.value >> (32 * j)) as u32;
                        }
                    }
                }
            }
            if plain_out_of_port {
                k += 1;
                continue;
            }
            self.step();
            let io = *self.io;
            if io.fire != 0 {
                let item = if io.fire_lanes != 0 { cur_warp } else { k };
                if io.fire_lanes == 0 && (io.req_valid == 0 || io.req_ready == 0) {
                    bail!("the warp unit reported a plain request that was not offered");
                }
                if let ItemResult::Warp { requests, .. } = &mut results[item] {
                    *requests += 1;
                }
                if in_flight.insert(io.fire_id, (item, io.fire_lanes)).is_some() {
                    bail!("the warp unit reused id {} while it was in flight", io.fire_id);
                }
            }
            if io.rsp_valid != 0 {
                let Some((item, lanes)) = in_flight.remove(&io.rsp_id) else {
                    bail!("the warp unit answered id {} that was not in flight", io.rsp_id);
                };
                let data = (0..4).fold(0u128, |a, j| a | (io.rsp_data[j] as u128) << (32 * j));
                let st = match io.rsp_status {
                    0 => Ok(()),
                    1 => Err(MemError::Misaligned),
                    2 => Err(MemError::OutOfRange),
                    s => bail!("the warp unit answered status {s}"),
                };
                match (&mut results[item], items[item]) {
                    (ItemResult::Warp { outcome, .. }, _) => {
                        if let Err(e) = st {
                            outcome.fail(lanes, e);
                        }
                    }
                    (ItemResult::Plain(r), Item::Plain(req)) => {
                        let m =
                            if req.access.bytes() >= 16 { u128::MAX } else { (1u128 << (8 * req.access.bytes())) - 1 };
                        *r = st.map(|()| req.access.returns().then_some(data & m));
                    }
                    _ => unreachable!(),
                }
            }
            let accepted = match items.get(k) {
                Some(Item::Warp(_)) => io.warp_ready != 0,
                Some(Item::Plain(_)) => io.req_ready != 0,
                None => false,
            };
            if accepted {
                if let Item::Warp(_) = items[k] {
                    cur_warp = k;
                }
                k += 1;
                idle = 0;
                quiet = 0;
            } else {
                idle += 1;
                if idle > 100_000 {
                    bail!("the warp unit made no progress for 100000 cycles");
                }
            }
        }
        Ok((results, self.cycles() - start))
    }

    /// Executes warp instructions; the per-instruction results of a warp trace.
    pub fn execute(&mut self, insts: &[WarpInst]) -> anyhow::Result<Vec<WarpResult>> {
        let items: Vec<Item> = insts.iter().map(|w| Item::Warp(*w)).collect();
        let (res, _) = self.run(&items)?;
        Ok(insts
            .iter()
            .zip(res)
            .map(|(w, r)| match r {
                ItemResult::Warp { requests, outcome } => WarpResult { lines: line_accesses(w), requests, outcome },
                ItemResult::Plain(_) => unreachable!(),
            })
            .collect())
    }

    /// Reads the first `bytes` of memory through the plain port (`ld.b128` per line).
    pub fn read_memory(&mut self, bytes: usize) -> anyhow::Result<Vec<u8>> {
        let items: Vec<Item> = (0..bytes / 16)
            .map(|l| Item::Plain(Request { access: "ld.b128".parse().unwrap(), addr: 16 * l as u64, value: 0 }))
            .collect();
        let (res, _) = self.run(&items)?;
        let mut out = Vec::with_capacity(bytes);
        for r in res {
            match r {
                ItemResult::Plain(Ok(Some(v))) => out.extend_from_slice(&v.to_le_bytes()),
                other => bail!("read-back load failed: {other:?}"),
            }
        }
        Ok(out)
    }
}

impl Default for RtlWarp {
    fn default() -> Self {
        RtlWarp::new()
    }
}

impl Drop for RtlWarp {
    fn drop(&mut self) {
        // SAFETY: the handle came from redunit_warp_new and is freed once.
        unsafe { redunit_warp_free(self.h) }
    }
}

pub use crate::warp_trace::{run_trace, run_trace_dump};

/// One warp pattern of `redunit bench`.
#[derive(Clone, Debug)]
pub struct WarpBench {
    pub pattern: &'static str,
    pub form: sim::Form,
    pub insts: usize,
    pub lines_per_inst: f64,
    pub requests_per_inst: f64,
    pub cycles_per_inst: f64,
    pub mismatches: usize,
}

/// The warp patterns of the issue for one form: lane i at `base + i*size` (fully coalesced),
/// all lanes at `base` (one address), lane i at `base + 128*i` (one line per lane).
pub fn pattern(name: &str, form: sim::Form, n: usize) -> WarpInst {
    let size = form.bytes() as u32;
    let base = 4096 * (n as u32 % 8);
    let addrs = std::array::from_fn(|i| match name {
        "coalesced" => base + size * i as u32,
        "one_address" => base,
        _ => base + 128 * i as u32,
    });
    let one = match form.ty() {
        sim::Type::F32 => 0x3f80_0000u128,
        sim::Type::F64 => 0x3ff0_0000_0000_0000,
        sim::Type::F16 | sim::Type::F16x2 => 0x3c00,
        sim::Type::Bf16 | sim::Type::Bf16x2 => 0x3f80,
        _ => 1,
    };
    let e = form.elem_bits();
    let op = (0..form.vec() as u32).fold(0u128, |a, i| a | one << (e * i));
    WarpInst { form, active: u32::MAX, addrs, operands: [op; 32] }
}

pub const PATTERNS: [&str; 3] = ["coalesced", "one_address", "line_per_lane"];
pub const BENCH_FORMS: [&str; 5] =
    ["global.add.u32", "global.add.f32", "global.add.f64", "global.v4.f32.add", "global.add.noftz.f16"];

/// Runs `insts` instructions of every pattern and form back to back through the Verilated
/// warp unit; checks requests, outcomes and the final memory against the model.
pub fn bench(insts: usize) -> anyhow::Result<Vec<WarpBench>> {
    let mut out = Vec::new();
    for name in PATTERNS {
        for f in BENCH_FORMS {
            out.push(bench_pattern(name, f.parse().unwrap(), insts)?);
        }
    }
    Ok(out)
}

/// [`bench`]'s row of one pattern and form.
pub fn bench_pattern(name: &'static str, form: sim::Form, insts: usize) -> anyhow::Result<WarpBench> {
    let ws: Vec<WarpInst> = (0..insts).map(|n| pattern(name, form, n)).collect();
    let mut rtl = RtlWarp::new();
    let items: Vec<Item> = ws.iter().map(|w| Item::Warp(*w)).collect();
    let (res, cycles) = rtl.run(&items)?;
    let mut model = Memory::new(RtlWarp::MEM_BYTES);
    let exp = execute_model(&mut model, &ws);
    let mut mismatches = 0;
    let mut reqs = 0;
    for (r, e) in res.iter().zip(&exp) {
        if let ItemResult::Warp { requests, outcome } = r {
            reqs += requests;
            mismatches += usize::from(*requests != e.requests || *outcome != e.outcome);
        }
    }
    let mem = rtl.read_memory(RtlWarp::MEM_BYTES)?;
    mismatches += usize::from(mem != model.bytes());
    Ok(WarpBench {
        pattern: name,
        form,
        insts,
        lines_per_inst: exp.iter().map(|e| e.lines).sum::<usize>() as f64 / insts as f64,
        requests_per_inst: reqs as f64 / insts as f64,
        cycles_per_inst: cycles as f64 / insts as f64,
        mismatches,
    })
}

/// The warp rows of `redunit bench`'s table.
pub fn bench_text(rows: &[WarpBench]) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let n = rows.first().map_or(0, |r| r.insts);
    let _ =
        writeln!(s, "warp: hw::WarpUnit (coalescer + unit), {n} instructions of 32 active lanes per row, back to back");
    let _ = writeln!(
        s,
        "{:<14} {:<22} {:>10} {:>10} {:>10}  mismatches vs golden",
        "pattern", "form", "lines/inst", "reqs/inst", "cycles/inst"
    );
    for r in rows {
        let _ = writeln!(
            s,
            "{:<14} {:<22} {:>10.2} {:>10.2} {:>10.2}  {}",
            r.pattern,
            r.form.to_string(),
            r.lines_per_inst,
            r.requests_per_inst,
            r.cycles_per_inst,
            r.mismatches
        );
    }
    s
}

/// Seeded random warp instructions over every form (the cosimulation test and `redunit regress`):
/// heavy same-address conflicts, partial masks, mixed lines, misaligned and out-of-range lanes,
/// addresses in the first `mem` bytes (plus 65536 for out-of-range lanes).
pub fn random_insts(seed: u64, n: usize, mem: u32) -> Vec<WarpInst> {
    let forms = sim::Form::all();
    let mut s = seed;
    let mut r = move || sim::splitmix64_next(&mut s);
    (0..n)
        .map(|k| {
            let form = forms[r() as usize % forms.len()];
            let size = form.bytes() as u32;
            // Few distinct addresses (conflicts) up to one line per lane; some lines in a
            // small hot region so that instructions depend on each other.
            let spread = [1u32, 2, 3, 8, 32, 256][k % 6];
            let base = if r() % 2 == 0 { 0 } else { (r() as u32 % (mem / 128)) * 128 };
            let addrs = std::array::from_fn(|_| {
                let x = r();
                let a = (base + size * (x as u32 % spread)) % mem;
                match x >> 58 {
                    0 => a + 1 + (x >> 20) as u32 % size.max(2).saturating_sub(1).max(1),
                    1 => 65536 + a,
                    _ => a,
                }
            });
            let operands = std::array::from_fn(|_| {
                let v = r() as u128 | (r() as u128) << 64;
                // Small float-ish operands now and then, so that FP sums stay interesting.
                if r() % 3 == 0 { v & 0x3fff_3fff_3fff_3fff_3fff_3fff_3fff_3fff } else { v }
            });
            let active = match r() % 4 {
                0 => u32::MAX,
                1 => r() as u32 & r() as u32,
                _ => r() as u32,
            };
            WarpInst { form, active, addrs, operands }
        })
        .collect()
}

/// The outcome of [`random_check`].
pub struct RandomCheck {
    pub insts: usize,
    /// Unit requests of the instructions that matched.
    pub requests: usize,
    pub cycles: u64,
    /// One line per instruction whose request count or failed lanes differ from the model (or
    /// whose request count differs from [`coalesce`]), and one if the memory differs.
    pub mismatches: Vec<String>,
}

/// `n` random instructions ([`random_insts`] over the first 4,096 bytes) through the Verilated
/// warp unit and the model (lane order): per-instruction request counts and failed lanes, then
/// the memory read back.
pub fn random_check(seed: u64, n: usize) -> anyhow::Result<RandomCheck> {
    let insts = random_insts(seed, n, 4096);
    let mut model = Memory::new(RtlWarp::MEM_BYTES);
    let exp = execute_model(&mut model, &insts);
    let mut rtl = RtlWarp::new();
    let items: Vec<Item> = insts.iter().map(|w| Item::Warp(*w)).collect();
    let (got, cycles) = rtl.run(&items)?;
    let (mut requests, mut mismatches) = (0, Vec::new());
    for (i, (g, e)) in got.iter().zip(&exp).enumerate() {
        match g {
            ItemResult::Warp { requests: r, outcome }
                if (*r, *outcome) == (e.requests, e.outcome) && *r == coalesce(&insts[i]).len() =>
            {
                requests += r
            }
            g => mismatches.push(format!("instruction {i} ({:?}): RTL {g:?}, model {e:?}", insts[i])),
        }
    }
    if rtl.read_memory(8192)? != model.bytes()[..8192] {
        mismatches.push("the memory read back differs from the model's (lane order)".into());
    }
    Ok(RandomCheck { insts: insts.len(), requests, cycles, mismatches })
}
