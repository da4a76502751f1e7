//! `hw::WarpUnit` (the warp coalescer in front of the L2-slice unit) in the rust-hdl
//! simulation against the golden model: every unit request the coalescer sends must be the
//! one `sim::warp::coalesce` lists (address, element mask, data, lanes, in order), every
//! response status that of the model's masked request, and memory, read back through the
//! plain port, that of the lanes executed in lane order (`Memory::execute_warp`).

mod common;
use common::{Rng, b128, seed, u128_of};
use hw::WarpUnit;
use rust_hdl::prelude::*;
use sim::Form;
use sim::memory::{Access, Memory, Width, status_code};
use sim::warp::{UnitRequest, WarpInst, coalesce, line_accesses};
use std::collections::{HashMap, VecDeque};

struct Harness {
    uut: WarpUnit,
    /// Expected requests, in order, and their expected status (and data for loads).
    expect: VecDeque<(UnitRequest, u8, u128)>,
    /// id -> (expected status, expected data)
    pending: HashMap<u16, (u8, u128)>,
    model: Memory,
    requests: usize,
}

fn addr_bits(inst: &WarpInst) -> Bits<1024> {
    let mut b = Bits::<1024>::default();
    for i in 0..32 {
        b = b | (bit_cast::<1024, 32>(b128::<32>(inst.addrs[i] as u128)) << (32 * i as u64));
    }
    b
}

fn data_bits(inst: &WarpInst) -> Bits<4096> {
    let mut b = Bits::<4096>::default();
    for i in 0..32 {
        b = b | (bit_cast::<4096, 128>(b128::<128>(inst.operands[i])) << (128 * i as u64));
    }
    b
}

impl Harness {
    fn new(mem_bytes: usize) -> Self {
        let mut uut = WarpUnit::new(mem_bytes);
        uut.connect_all();
        let mut h = Harness {
            uut,
            expect: VecDeque::new(),
            pending: HashMap::new(),
            model: Memory::new(mem_bytes),
            requests: 0,
        };
        h.step(None, None, true);
        h.step(None, None, true);
        h
    }

    /// One cycle; returns (warp accepted, plain accepted).
    fn step(&mut self, warp: Option<&WarpInst>, plain: Option<(Access, u32, u128)>, reset: bool) -> (bool, bool) {
        let u = &mut self.uut;
        u.clock.next = Clock::from(false);
        u.reset.next = reset;
        u.rsp_ready.next = true;
        u.warp_valid.next = warp.is_some();
        if let Some(w) = warp {
            u.warp_form.next = b128(w.form.code() as u128);
            u.warp_mask.next = b128(w.active as u128);
            u.warp_addr.next = addr_bits(w);
            u.warp_data.next = data_bits(w);
        }
        u.req_valid.next = plain.is_some();
        if let Some((a, addr, d)) = plain {
            u.req_op.next = b128(a.code() as u128);
            u.req_addr.next = b128(addr as u128);
            u.req_data.next = b128(d);
            u.req_mask.next = b128(0);
        }
        assert!(simulate(u, 10_000), "did not settle");
        let wacc = warp.is_some() && u.warp_ready.val();
        let pacc = plain.is_some() && u.req_ready.val();
        if u.fire.val() && !reset {
            let id = u128_of(u.fire_id.val()) as u16;
            let lanes = u128_of(u.fire_lanes.val()) as u32;
            if lanes != 0 {
                let got = UnitRequest {
                    access: Access::from_code(u128_of(u.unit.req_op.val()) as u16).unwrap(),
                    addr: u128_of(u.unit.req_addr.val()) as u32,
                    mask: u128_of(u.fire_mask.val()) as u8,
                    data: u128_of(u.unit.req_data.val()),
                    lanes,
                };
                let (exp, status, data) = self.expect.pop_front().expect("a request the model does not send");
                assert_eq!(got, exp, "request {}", self.requests);
                self.pending.insert(id, (status, data));
                self.requests += 1;
            } else {
                let (a, addr, d) = plain.expect("a plain request entered without one offered");
                let out = self.model.execute_masked(a, addr as u64, 0, d);
                let (st, data) = match out {
                    Ok(v) => (status_code(Ok(())), v.unwrap_or(0)),
                    Err(e) => (status_code(Err(e)), 0),
                };
                self.pending.insert(id, (st, data));
            }
        }
        let rsp = u
            .rsp_valid
            .val()
            .then(|| (u128_of(u.rsp_id.val()) as u16, u128_of(u.rsp_status.val()) as u8, u128_of(u.rsp_data.val())));
        u.clock.next = Clock::from(true);
        assert!(simulate(u, 10_000), "did not settle");
        if let Some((id, st, data)) = rsp {
            let (es, ed) = self.pending.remove(&id).expect("response for an unknown id");
            assert_eq!((st, data), (es, ed), "response of id {id}");
        }
        (wacc, pacc)
    }

    fn send_warp(&mut self, w: &WarpInst) {
        // The model: the coalesced requests and their statuses, applied to the model memory
        // now (the unit keeps per-line order, so this is the order it executes them in).
        let mut lane_order = self.model.clone();
        lane_order.execute_warp(w);
        for r in coalesce(w) {
            let st = status_code(self.model.execute_masked(r.access, r.addr as u64, r.mask, r.data).map(|_| ()));
            self.expect.push_back((r, st, 0));
        }
        assert!(self.model == lane_order, "coalesced model differs from lane order");
        while !self.step(Some(w), None, false).0 {}
    }

    fn drain(&mut self) {
        for _ in 0..10_000 {
            if self.expect.is_empty() && self.pending.is_empty() {
                return;
            }
            self.step(None, None, false);
        }
        panic!("no progress");
    }

    fn check_memory(&mut self) {
        self.drain();
        let lines = self.model.size() / 16;
        for line in 0..lines {
            while !self.step(None, Some((Access::Ld(Width::B128), (16 * line) as u32, 0)), false).1 {}
        }
        self.drain();
    }
}

/// A random instruction: conflicts, partial masks, mixed lines, misaligned and out-of-range
/// lanes, every form.
fn random_inst(rng: &mut Rng, forms: &[Form], mem_bytes: u32) -> WarpInst {
    let form = forms[rng.below(forms.len())];
    let size = form.bytes() as u32;
    let spread = [1u32, 2, 4, 16, 64][rng.below(5)];
    let base = 128 * rng.below((mem_bytes / 128) as usize) as u32;
    let addrs = std::array::from_fn(|_| {
        let mut a = (base + size * rng.below(spread as usize) as u32) % mem_bytes;
        match rng.below(40) {
            0 => a += 1 + rng.below(size.max(2) as usize - 1) as u32 % size.max(1),
            1 => a = mem_bytes + 16 * rng.below(4) as u32,
            _ => {}
        }
        a
    });
    let operands = std::array::from_fn(|_| common::alu_operands(rng, form).1);
    let active = match rng.below(4) {
        0 => u32::MAX,
        1 => rng.next() as u32 & rng.next() as u32,
        _ => rng.next() as u32,
    };
    WarpInst { form, active, addrs, operands }
}

#[test]
fn warp_unit_against_model() {
    let s = seed("warp_unit_against_model");
    let mut rng = Rng(s);
    let mem_bytes = 512;
    let forms = Form::all();
    let mut h = Harness::new(mem_bytes);
    let n = 40;
    let (mut lines, mut reqs) = (0, 0);
    for _ in 0..n {
        let w = random_inst(&mut rng, &forms, mem_bytes as u32);
        lines += line_accesses(&w);
        reqs += coalesce(&w).len();
        h.send_warp(&w);
    }
    h.check_memory();
    eprintln!("{n} warp instructions: {lines} line accesses, {reqs} unit requests, all as the model");
    assert_eq!(h.requests, reqs);
}
