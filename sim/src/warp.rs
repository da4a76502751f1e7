//! Warp-level `RED`: one instruction of 32 lanes, its effect, its coalescing into unit
//! requests, and its line-access count (SASS `RED`, "Execution Behavior").
//!
//! # Effect
//! A warp instruction's effect on memory is that of its active lanes' reductions applied one
//! after another in **lane order** (lane 0 first). On the GPU the order of lanes that hit the
//! same address is implementation-defined; ours is lane order. Lanes at different addresses
//! commute, so any order that keeps same-address lanes in lane order gives the same memory
//! ([`Memory::execute_warp`]).
//!
//! A lane whose address is not a multiple of the access size (the whole vector for vector
//! forms) fails with `misaligned`, one with a byte outside the memory with `out-of-range`;
//! a failed lane does not touch memory and the other lanes proceed. [`WarpOutcome`] names the
//! failed lanes.
//!
//! # Coalescing ([`coalesce`]): what the hardware block `hw::WarpCoalescer` does
//! One unit request per round, until no active lane is pending:
//! 1. the *leader* is the lowest pending lane;
//! 2. a misaligned leader is sent alone as a plain (unmasked) request, which the unit answers
//!    `misaligned`;
//! 3. otherwise every pending, aligned lane in the leader's 16-byte sector joins, except that
//!    each *slot* of the sector (one access-size piece: 16/size slots) takes only its first
//!    lane in lane order: later lanes to the same address wait for a later round, which is
//!    the lane-order serialisation;
//! 4. the request is a *masked sector request* ([`Memory::execute_masked`]): the sector's
//!    address, the element enable mask (bit i = element i of the form's element size; all
//!    elements of a vector lane are enabled together) and the operands at their byte
//!    offsets;
//! 5. except when the leader joins alone: then it is a plain request at the leader's address
//!    with its operand (its low [`Form::bytes`] bytes), as a thread's own `red` is, so that
//!    lanes at one hot address reach the unit as the requests its integer loop chains.
//!
//! # Line accesses ([`line_accesses`]): what the SASS text counts
//! "RED instructions coalesce global accesses to different addresses in the same 128B cache
//! line into one access, serialize accesses to the same conflicting address, and serialize
//! accesses to each different cache line. ... Vector 64-bit accesses coalesce 16 parallel
//! threads at a time, and 128-bit accesses coalesce 8 threads at a time." Per lane group, per
//! 128-byte line touched by the group's active aligned lanes, the accesses are the number of
//! serialisation rounds: the largest number of those lanes sharing one address in the line;
//! the count is the sum.
//!
//! Lane groups by bytes per lane: up to 4 bytes (u32, f32, f16, f16x2, ...): the whole warp;
//! 8 bytes: half-warps (lanes 0-15, 16-31); 16 bytes: quarter-warps. **Our reading for the
//! scalar 64-bit forms** (u64, s64, b64, f64): the text's "vector 64-bit accesses" means 64
//! bits of data per thread, the width of the access, not the PTX `.v2` spelling: a scalar
//! u64 moves as many bytes per lane as a `v2.f32` (16 lanes fill a 128-byte line), so it is
//! counted in half-warps too. Misaligned lanes do not access memory and are not counted;
//! out-of-range lanes are (the access is made, and fails).

use crate::apply::apply_elem;
use crate::form::Form;
use crate::memory::{Access, MemError, Memory, Request};

/// Lanes of a warp.
pub const WARP_LANES: usize = 32;
/// Bytes of a sector: the unit's line, the span of one masked request.
pub const SECTOR_BYTES: u32 = 16;
/// Bytes of a cache line, the unit of the SASS text's accesses.
pub const LINE_BYTES: u32 = 128;

/// One warp-wide `red` instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WarpInst {
    pub form: Form,
    /// Bit i: lane i takes part.
    pub active: u32,
    /// Byte address of each lane's access (32-bit: SASS `RED` without `.E`).
    pub addrs: [u32; WARP_LANES],
    /// Each lane's operand in its low [`Form::bytes`] bytes (element 0 lowest).
    pub operands: [u128; WARP_LANES],
}

/// One request of a coalesced warp instruction, as the unit's request port receives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitRequest {
    /// Always `Access::Red(form)`.
    pub access: Access,
    /// The sector's address (mask non-zero), or the lane's address (mask zero).
    pub addr: u32,
    /// Element enable mask ([`Memory::execute_masked`]); zero for a plain request.
    pub mask: u8,
    /// Operands at their byte offsets in the sector (mask non-zero), or the lane's operand.
    pub data: u128,
    /// The lanes this request serves.
    pub lanes: u32,
}

/// What a warp instruction did: the lanes that failed, per error.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WarpOutcome {
    pub misaligned: u32,
    pub out_of_range: u32,
}

impl WarpOutcome {
    /// Records that `lanes` failed with `e`.
    pub fn fail(&mut self, lanes: u32, e: MemError) {
        match e {
            MemError::Misaligned => self.misaligned |= lanes,
            MemError::OutOfRange => self.out_of_range |= lanes,
        }
    }
}

fn bytes_mask(bytes: usize) -> u128 {
    if bytes >= 16 { u128::MAX } else { (1u128 << (8 * bytes)) - 1 }
}

/// The element enable mask of one aligned lane at byte offset `off` in its sector.
fn lane_elem_mask(form: Form, off: u32) -> u8 {
    let e = form.elem_bits() / 8;
    let v = form.vec() as u32;
    ((((1u32 << v) - 1) << (off / e)) & 0xff) as u8
}

/// The unit requests of `inst`, in issue order (see the module doc).
pub fn coalesce(inst: &WarpInst) -> Vec<UnitRequest> {
    rounds(inst.form, inst.active, &widen(&inst.addrs), &inst.operands)
        .into_iter()
        .map(|(addr, mask, data, lanes)| UnitRequest {
            access: Access::Red(inst.form),
            addr: addr as u32,
            mask,
            data,
            lanes,
        })
        .collect()
}

fn widen(addrs: &[u32; WARP_LANES]) -> [u64; WARP_LANES] {
    addrs.map(u64::from)
}

/// The coalescing rounds of [`coalesce`] on 64-bit lane addresses: (address, mask, data,
/// lanes) per unit request. Lanes in different sectors never share a round, so the rounds of
/// a set of lanes are those of its part below 2^32 plus those of the rest.
fn rounds(
    form: Form,
    active: u32,
    addrs: &[u64; WARP_LANES],
    operands: &[u128; WARP_LANES],
) -> Vec<(u64, u8, u128, u32)> {
    let size = form.bytes() as u64;
    let sector_bytes = SECTOR_BYTES as u64;
    let mut pending = active;
    let mut out = Vec::new();
    while pending != 0 {
        let leader = pending.trailing_zeros() as usize;
        let la = addrs[leader];
        if la % size != 0 {
            out.push((la, 0, operands[leader], 1 << leader));
            pending &= !(1 << leader);
            continue;
        }
        let sector = la / sector_bytes;
        let (mut taken, mut lanes, mut mask, mut data) = (0u32, 0u32, 0u8, 0u128);
        for i in 0..WARP_LANES {
            let a = addrs[i];
            if pending >> i & 1 == 0 || a % size != 0 || a / sector_bytes != sector {
                continue;
            }
            let off = (a % sector_bytes) as u32;
            let slot = off / size as u32;
            if taken >> slot & 1 != 0 {
                continue;
            }
            taken |= 1 << slot;
            lanes |= 1 << i;
            mask |= lane_elem_mask(form, off);
            data |= (operands[i] & bytes_mask(size as usize)) << (8 * off);
        }
        if lanes == 1 << leader {
            out.push((la, 0, operands[leader] & bytes_mask(size as usize), lanes));
        } else {
            out.push((sector * sector_bytes, mask, data, lanes));
        }
        pending &= !lanes;
    }
    out
}

/// Lanes coalesced together: 32, 16 or 8, by bytes per lane (see the module doc).
pub fn lanes_per_group(form: Form) -> usize {
    match form.bytes() {
        0..=4 => 32,
        8 => 16,
        _ => 8,
    }
}

/// The 128-byte line accesses of `inst` as the SASS text counts them (see the module doc).
pub fn line_accesses(inst: &WarpInst) -> usize {
    line_accesses_at(inst.form, inst.active, &widen(&inst.addrs))
}

fn line_accesses_at(form: Form, active: u32, addrs: &[u64; WARP_LANES]) -> usize {
    let size = form.bytes() as u64;
    let group = lanes_per_group(form);
    let mut total = 0;
    for g in (0..WARP_LANES).step_by(group) {
        // (line, address, lanes at that address)
        let mut per_addr: Vec<(u64, u64, usize)> = Vec::new();
        for i in g..g + group {
            let a = addrs[i];
            if active >> i & 1 == 0 || a % size != 0 {
                continue;
            }
            match per_addr.iter_mut().find(|(_, x, _)| *x == a) {
                Some(e) => e.2 += 1,
                None => per_addr.push((a / LINE_BYTES as u64, a, 1)),
            }
        }
        let mut lines: Vec<(u64, usize)> = Vec::new();
        for (line, _, n) in per_addr {
            match lines.iter_mut().find(|(l, _)| *l == line) {
                Some(e) => e.1 = e.1.max(n),
                None => lines.push((line, n)),
            }
        }
        total += lines.iter().map(|(_, n)| n).sum::<usize>();
    }
    total
}

/// A warp instruction with 64-bit lane addresses: SASS `RED.E`, whose register pairs address
/// beyond 2^32 (and `RED` with an immediate offset, whose 32-bit sums are zero-extended).
/// The unit's request port has 32 address bits; [`WideWarpInst::split`] gives the part it can
/// carry. A lane at or above 2^32 is outside every memory the model takes (at most 4 GiB), so
/// it fails `misaligned` (checked first) or `out-of-range`, as any lane outside the memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WideWarpInst {
    pub form: Form,
    /// Bit i: lane i takes part.
    pub active: u32,
    /// Byte address of each lane's access.
    pub addrs: [u64; WARP_LANES],
    /// Each lane's operand in its low [`Form::bytes`] bytes (element 0 lowest).
    pub operands: [u128; WARP_LANES],
}

impl From<&WarpInst> for WideWarpInst {
    fn from(w: &WarpInst) -> WideWarpInst {
        WideWarpInst { form: w.form, active: w.active, addrs: widen(&w.addrs), operands: w.operands }
    }
}

impl WideWarpInst {
    /// The active lanes whose address is at or above 2^32.
    pub fn high_lanes(&self) -> u32 {
        (0..WARP_LANES).filter(|&i| self.active >> i & 1 != 0 && self.addrs[i] >> 32 != 0).fold(0, |m, i| m | 1 << i)
    }

    /// The lanes below 2^32 as a [`WarpInst`] (the others inactive, their addresses 0), and
    /// the active lanes at or above 2^32.
    pub fn split(&self) -> (WarpInst, u32) {
        let high = self.high_lanes();
        let addrs = std::array::from_fn(|i| if high >> i & 1 != 0 { 0 } else { self.addrs[i] as u32 });
        (WarpInst { form: self.form, active: self.active & !high, addrs, operands: self.operands }, high)
    }

    /// The 128-byte line accesses ([`line_accesses`]).
    pub fn line_accesses(&self) -> usize {
        line_accesses_at(self.form, self.active, &self.addrs)
    }

    /// The unit requests [`coalesce`] makes of the lanes in `lanes` (a subset of the active).
    pub fn requests_of(&self, lanes: u32) -> usize {
        rounds(self.form, self.active & lanes, &self.addrs, &self.operands).len()
    }

    /// How the lanes in `lanes` fail when each is outside the memory (`misaligned` first).
    pub fn outside(&self, lanes: u32) -> WarpOutcome {
        let size = self.form.bytes() as u64;
        let mut out = WarpOutcome::default();
        for i in (0..WARP_LANES).filter(|&i| lanes >> i & 1 != 0) {
            out.fail(1 << i, if self.addrs[i] % size != 0 { MemError::Misaligned } else { MemError::OutOfRange });
        }
        out
    }
}

impl Memory {
    /// Executes a request with an element enable `mask` (the unit's `req_mask` port).
    ///
    /// `mask == 0`, and any `ld`/`st`: exactly [`Memory::execute`]. Otherwise, for `red` and
    /// `atom`, a *masked sector request*: `addr` must be a multiple of 16 (else `misaligned`)
    /// and the sector in memory (else `out-of-range`); for each set bit i of `mask` below
    /// 16 / element bytes, element i of the sector (the form's element size; bits above are
    /// ignored) becomes `op(element, operand element i of data)`. The form's vector width does
    /// not matter: a vector lane is its elements, enabled together. An `atom` returns the old
    /// sector with the disabled elements zero; a `red` returns nothing.
    pub fn execute_masked(
        &mut self,
        access: Access,
        addr: u64,
        mask: u8,
        data: u128,
    ) -> Result<Option<u128>, MemError> {
        let form = match access {
            Access::Red(f) | Access::Atom(f) if mask != 0 => f,
            _ => return self.execute(&Request { access, addr, value: data }),
        };
        let base = self.check(addr, SECTOR_BYTES as usize)?;
        let e = (form.elem_bits() / 8) as usize;
        let emask = bytes_mask(e);
        let mut old_masked = 0u128;
        for i in 0..16 / e {
            if mask >> i & 1 == 0 {
                continue;
            }
            let a = base + i * e;
            let old = self.read(a, e);
            let b = (data >> (8 * i * e)) & emask;
            let new = apply_elem(form, old as u64, b as u64) as u128 & emask;
            self.write(a, e, new);
            old_masked |= old << (8 * i * e);
        }
        Ok(matches!(access, Access::Atom(_)).then_some(old_masked))
    }

    /// Executes a warp instruction: its active lanes' reductions in lane order.
    pub fn execute_warp(&mut self, inst: &WarpInst) -> WarpOutcome {
        self.execute_wide_warp(&WideWarpInst::from(inst))
    }

    /// Executes a warp instruction with 64-bit lane addresses, lanes in lane order.
    pub fn execute_wide_warp(&mut self, inst: &WideWarpInst) -> WarpOutcome {
        let mut out = WarpOutcome::default();
        for i in 0..WARP_LANES {
            if inst.active >> i & 1 == 0 {
                continue;
            }
            let r = Request { access: Access::Red(inst.form), addr: inst.addrs[i], value: inst.operands[i] };
            if let Err(e) = self.execute(&r) {
                out.fail(1 << i, e);
            }
        }
        out
    }

    /// Executes a warp instruction as the coalesced unit requests of [`coalesce`]; the same
    /// memory and outcome as [`Memory::execute_warp`]. Returns the outcome and the requests.
    pub fn execute_warp_coalesced(&mut self, inst: &WarpInst) -> (WarpOutcome, Vec<UnitRequest>) {
        let reqs = coalesce(inst);
        let mut out = WarpOutcome::default();
        for r in &reqs {
            if let Err(e) = self.execute_masked(r.access, r.addr as u64, r.mask, r.data) {
                out.fail(r.lanes, e);
            }
        }
        (out, reqs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::splitmix64_next;

    fn inst(form: &str, active: u32, addr: impl Fn(usize) -> u32, op: impl Fn(usize) -> u128) -> WarpInst {
        WarpInst {
            form: form.parse().unwrap(),
            active,
            addrs: std::array::from_fn(addr),
            operands: std::array::from_fn(op),
        }
    }

    #[test]
    fn the_three_patterns_of_the_issue() {
        // Fully coalesced u32: one line, 8 sectors.
        let w = inst("global.add.u32", !0, |i| 0x100 + 4 * i as u32, |i| i as u128);
        assert_eq!(line_accesses(&w), 1);
        let r = coalesce(&w);
        assert_eq!(r.len(), 8);
        assert!(r.iter().all(|r| r.mask == 0xf && r.lanes.count_ones() == 4));
        // All lanes one address: 32 rounds, 32 requests, each lane alone: plain requests with
        // the operand's own bytes only.
        let w = inst("global.add.f32", !0, |_| 0x40, |i| (0xdead_u128 << 64) | (0x3f80_0000 + i as u128));
        assert_eq!(line_accesses(&w), 32);
        let r = coalesce(&w);
        assert_eq!(r.len(), 32);
        for (i, r) in r.iter().enumerate() {
            assert_eq!((r.addr, r.mask, r.data, r.lanes), (0x40, 0, 0x3f80_0000 + i as u128, 1 << i));
        }
        // One line per lane.
        let w = inst("global.add.u32", !0, |i| 128 * i as u32, |_| 1);
        assert_eq!(line_accesses(&w), 32);
        assert_eq!(coalesce(&w).len(), 32);
        // 64-bit per lane: two half-warps of one line each (u64 read as 64-bit accesses).
        let w = inst("global.add.u64", !0, |i| 8 * i as u32, |_| 1);
        assert_eq!(line_accesses(&w), 2);
        assert_eq!(coalesce(&w).len(), 16);
        // 128-bit per lane: four quarter-warps.
        let w = inst("global.v4.f32.add", !0, |i| 16 * i as u32, |_| 0);
        assert_eq!(line_accesses(&w), 4);
        assert_eq!(coalesce(&w).len(), 32);
        assert!(coalesce(&w).iter().enumerate().all(|(i, r)| r.mask == 0 && r.addr == 16 * i as u32));
        // Partial mask: lanes 0 and 1 at one address, lane 2 elsewhere in the line.
        let w = inst("global.add.u32", 0b111, |i| if i < 2 { 0 } else { 20 }, |_| 1);
        assert_eq!(line_accesses(&w), 2);
        assert_eq!(coalesce(&w).iter().map(|r| r.lanes).collect::<Vec<_>>(), vec![0b001, 0b010, 0b100]);
    }

    #[test]
    fn masked_sector_requests() {
        let mut m = Memory::new(64);
        let f: Form = "global.add.noftz.f16".parse().unwrap();
        // Elements 1 and 6 of sector 16: 1.0 + 1.0 and 0 + 2.0.
        m.write(16 + 2, 2, 0x3c00);
        let r = m.execute_masked(Access::Atom(f), 16, 0b0100_0010, (0x4000u128 << 96) | (0x3c00 << 16));
        assert_eq!(r, Ok(Some(0x3c00 << 16)));
        assert_eq!(m.read(16, 16), (0x4000u128 << 96) | (0x4000 << 16));
        assert_eq!(m.execute_masked(Access::Red(f), 8, 1, 0), Err(MemError::Misaligned));
        assert_eq!(m.execute_masked(Access::Red(f), 64, 1, 0), Err(MemError::OutOfRange));
        // Mask zero: a plain request.
        assert_eq!(m.execute_masked(Access::Atom(f), 18, 0, 0x3c00), Ok(Some(0x4000)));
    }

    #[test]
    fn failed_lanes_do_not_stop_the_others() {
        let w = inst("global.add.u32", 0b1111, |i| [0, 2, 64, 4][i % 4], |_| 5);
        let mut a = Memory::new(64);
        let out = a.execute_warp(&w);
        assert_eq!(out, WarpOutcome { misaligned: 0b0010, out_of_range: 0b0100 });
        assert_eq!(a.read(0, 8), 5 | 5 << 32);
        let mut b = Memory::new(64);
        assert_eq!(b.execute_warp_coalesced(&w).0, out);
        assert_eq!(a, b);
    }

    /// Random instructions with many conflicts: coalesced execution equals lane order.
    #[test]
    fn coalesced_equals_lane_order() {
        let forms = Form::all();
        let mut s = 0x5eed_u64;
        for n in 0..3000 {
            let form = forms[splitmix64_next(&mut s) as usize % forms.len()];
            let size = form.bytes() as u32;
            let spread = [1u32, 2, 8, 64][n % 4];
            let base = (splitmix64_next(&mut s) % 8) as u32 * 128;
            let mut rnd = || splitmix64_next(&mut s);
            let addrs: [u32; 32] = std::array::from_fn(|_| {
                let r = rnd();
                let a = base + (r % spread as u64) as u32 * size;
                if r >> 60 == 0 {
                    a + 2
                } else if r >> 58 == 1 {
                    4096 + a
                } else {
                    a
                }
            });
            let operands = std::array::from_fn(|_| rnd() as u128 | (rnd() as u128) << 64);
            let w = WarpInst { form, active: rnd() as u32 | (rnd() % 2) as u32 * !0, addrs, operands };
            let mut a = Memory::new(4096);
            let mut b = Memory::new(4096);
            for i in 0..256 {
                let v = rnd() as u128 | (rnd() as u128) << 64;
                a.write(16 * i, 16, v);
                b.write(16 * i, 16, v);
            }
            let oa = a.execute_warp(&w);
            let (ob, reqs) = b.execute_warp_coalesced(&w);
            assert_eq!(oa, ob, "{w:?}");
            assert!(a == b, "memory differs after {w:?}");
            // Every active lane is served exactly once.
            let mut served = 0u32;
            for r in &reqs {
                assert_eq!(served & r.lanes, 0);
                served |= r.lanes;
            }
            assert_eq!(served, w.active);
            assert!(reqs.len() >= line_accesses(&w).min(1));
        }
    }

    /// Lanes at or above 2^32 (SASS `RED.E`): the part below goes through the coalescer, the
    /// rest fails outside the memory; the same memory, outcome and request count as lane order
    /// on the whole instruction.
    #[test]
    fn wide_addresses_split_at_the_port() {
        let forms = Form::all();
        let mut s = 0xe64_u64;
        for n in 0..2000 {
            let form = forms[splitmix64_next(&mut s) as usize % forms.len()];
            let size = form.bytes() as u64;
            let mut rnd = || splitmix64_next(&mut s);
            let addrs: [u64; 32] = std::array::from_fn(|_| {
                let r = rnd();
                let a = (r % [2u64, 8, 64][n % 3]) * size + (r >> 62) * 0x8000_0000;
                if r >> 59 & 1 == 1 { a + 1 } else { a }
            });
            let operands = std::array::from_fn(|_| rnd() as u128);
            let w = WideWarpInst { form, active: rnd() as u32, addrs, operands };
            let (low, high) = w.split();
            assert_eq!(low.active | high, w.active);
            assert_eq!(w.requests_of(low.active) + w.requests_of(high), w.requests_of(!0));
            assert_eq!(coalesce(&low).len(), w.requests_of(low.active));
            let mut a = Memory::new(1 << 12);
            let mut b = Memory::new(1 << 12);
            let oa = a.execute_wide_warp(&w);
            let (ol, _) = b.execute_warp_coalesced(&low);
            let oh = w.outside(high);
            assert_eq!(
                oa,
                WarpOutcome {
                    misaligned: ol.misaligned | oh.misaligned,
                    out_of_range: ol.out_of_range | oh.out_of_range
                }
            );
            assert!(a == b);
        }
        // Narrow instructions count the same lines either way.
        let w = inst("global.add.u32", !0, |i| 0x100 + 4 * i as u32, |i| i as u128);
        assert_eq!(WideWarpInst::from(&w).line_accesses(), line_accesses(&w));
    }
}
