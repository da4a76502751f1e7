//! The Verilated AXI front end (`hw::AxiUnit` + the unit) against the golden model, with
//! random valid/ready stalls on all five channels and the driver's protocol assertions
//! (`testbench::axi`). Seeds: `REDUNIT_SEED` (printed; rerun with it).

use hw::axi::{
    ATOP_BIG_ENDIAN, ATOP_COMPARE, ATOP_LOAD, ATOP_STORE, ATOP_SWAP, AWUSER_FORM_EN, BURST_INCR, BURST_WRAP, RESP_OKAY,
    RESP_SLVERR,
};
use sim::Memory;
use testbench::axi::{AxiSim, Expect, Policy, Txn, golden};
use testbench::axi_traffic::{counter_traffic, random_traffic};

fn seed(test: &str) -> u64 {
    let s = std::env::var("REDUNIT_SEED")
        .ok()
        .and_then(|s| s.strip_prefix("0x").map_or_else(|| s.parse().ok(), |h| u64::from_str_radix(h, 16).ok()))
        .unwrap_or(0xa71);
    eprintln!("{test}: seed {s:#x} (rerun with REDUNIT_SEED={s:#x})");
    s
}

/// Random traffic of every kind, under several stall policies, each run checked response by
/// response; the mix must reach every outcome (OKAY and SLVERR, held responses).
#[test]
fn axi_random_traffic_with_stalls() {
    let s = seed("axi_random_traffic_with_stalls");
    let n: usize = std::env::var("REDUNIT_AXI_TXNS").ok().and_then(|v| v.parse().ok()).unwrap_or(20_000);
    for (k, (valid, ready)) in [(100, 100), (70, 50), (30, 90), (90, 20)].into_iter().enumerate() {
        let txns = random_traffic(s.wrapping_add(k as u64), n, testbench::axi::AXI_MEM_BYTES);
        // The golden model in program order (the order the driver issues in): compares that
        // match and compares that do not both occur.
        let mut mem = Memory::new(testbench::axi::AXI_MEM_BYTES);
        let (mut hit, mut miss) = (0, 0);
        for t in &txns {
            let e = golden(&mut mem, t);
            if t.atop == ATOP_COMPARE && e.b == Some(RESP_OKAY) {
                let nb = 1u32 << (t.size - 1);
                let cmp = t.beats[0].0 >> (8 * (t.addr & 14)) & ((1u128 << (8 * nb)) - 1);
                if e.r[0].1 == Some(cmp << (8 * (t.addr & 14))) { hit += 1 } else { miss += 1 }
            }
        }
        assert!(hit > 50 && miss > 50, "compares: {hit} matched, {miss} did not");
        let mut sim = AxiSim::new();
        let pol = Policy { valid_pct: valid, ready_pct: ready, seed: s ^ (k as u64) << 32 };
        let st = sim.run(&txns, &pol).unwrap_or_else(|e| panic!("seed {s:#x}, policy {pol:?}: {e}"));
        eprintln!(
            "policy {valid}/{ready}: {n} transactions, {} unit requests in {} cycles, {} SLVERR, {} held",
            st.unit_requests, st.cycles, st.slverr, st.held
        );
        assert!(st.slverr > n as u64 / 50, "the mix reaches the refusals ({} SLVERR)", st.slverr);
        assert!(st.unit_requests >= n as u64, "every transaction sends at least one unit request");
        if ready < 100 {
            assert!(st.held > 0, "responses were held by the stalls");
        }
    }
}

/// 100,000 increments of one u32 through AXI (AtomicStore ADD and, every fourth, AtomicLoad
/// ADD, whose old values the driver checks one by one), with stalls; then a read of the
/// counter returns 100,000.
#[test]
fn axi_counter_100k_increments() {
    let s = seed("axi_counter_100k_increments");
    const N: usize = 100_000;
    let addr = 0x2c4;
    let mut txns = counter_traffic(N, addr);
    txns.push(Txn::read(0, addr & !15, 0, 4, BURST_INCR));
    let mut sim = AxiSim::new();
    let st = sim
        .run(&txns, &Policy { valid_pct: 80, ready_pct: 70, seed: s })
        .unwrap_or_else(|e| panic!("seed {s:#x}: {e}"));
    assert_eq!(sim.golden.read(addr as usize, 4), N as u128, "the golden counter");
    assert_eq!(st.slverr, 0);
    eprintln!("{N} increments in {} cycles ({:.3} per cycle)", st.cycles, N as f64 / st.cycles as f64);
}

/// Directed cases with their outcomes written out (so the golden model itself is pinned),
/// then run through the RTL.
#[test]
fn axi_directed_outcomes() {
    let mut mem = Memory::new(testbench::axi::AXI_MEM_BYTES);
    let line = 0x40u32;
    let data: u128 = 0x0f0e0d0c_0b0a0908_07060504_03020100;
    let cases: Vec<(Txn, Expect)> = vec![
        (Txn::write(0, line, 4, BURST_INCR, vec![(data, 0xffff)]), Expect { b: Some(RESP_OKAY), r: vec![] }),
        // AtomicLoad ADD u32 at +4: old value on lanes 4..7.
        (
            Txn::atomic(12, ATOP_LOAD << 4, 0, line + 4, 2, 0x10 << 32),
            Expect { b: Some(RESP_OKAY), r: vec![(RESP_OKAY, Some(0x07060504 << 32))] },
        ),
        // AtomicStore CLR (mem & !data) of the 8 bytes at +8.
        (
            Txn::atomic(13, ATOP_STORE << 4 | 1, 0, line + 8, 3, 0x00ff_0000_0000_00ffu128 << 64),
            Expect { b: Some(RESP_OKAY), r: vec![] },
        ),
        (
            Txn::read(1, line, 0, 4, BURST_INCR),
            Expect { b: None, r: vec![(RESP_OKAY, Some(0x0f000d0c_0b0a0900_07060514_03020100))] },
        ),
        // AtomicLoad SMAX u32, big-endian: refused, with its R beat.
        (
            Txn::atomic(14, ATOP_LOAD << 4 | ATOP_BIG_ENDIAN | 4, 0, line, 2, 5),
            Expect { b: Some(RESP_SLVERR), r: vec![(RESP_SLVERR, None)] },
        ),
        // Big-endian EOR is the same operation: taken.
        (
            Txn::atomic(14, ATOP_STORE << 4 | ATOP_BIG_ENDIAN | 2, 0, line, 2, 0xff),
            Expect { b: Some(RESP_OKAY), r: vec![] },
        ),
        // Swap of the u32 at +0 (0x030201ff after the EOR above) with 7.
        (
            Txn::atomic(15, ATOP_SWAP, 0, line, 2, 7),
            Expect { b: Some(RESP_OKAY), r: vec![(RESP_OKAY, Some(0x030201ff))] },
        ),
        // Compare at +0 (8-byte window 0..7: compare value at +0, swap value at +4): 7 matches,
        // 9 is stored; then 7 no longer matches and nothing is stored.
        (
            Txn::atomic(15, ATOP_COMPARE, 0, line, 3, 9 << 32 | 7),
            Expect { b: Some(RESP_OKAY), r: vec![(RESP_OKAY, Some(7))] },
        ),
        (
            Txn::atomic(15, ATOP_COMPARE, 0, line, 3, 5 << 32 | 7),
            Expect { b: Some(RESP_OKAY), r: vec![(RESP_OKAY, Some(9))] },
        ),
        // Compare of the u32 at +4 (window 0..7 from its base: compare value at +4, swap at +0).
        (
            Txn::atomic(15, ATOP_COMPARE, 0, line, 3, 0x07060514u128 << 32 | 0xabcd).with_addr(line + 4),
            Expect { b: Some(RESP_OKAY), r: vec![(RESP_OKAY, Some(0x07060514 << 32))] },
        ),
        (
            Txn::read(1, line, 0, 2, BURST_INCR),
            Expect { b: None, r: vec![(RESP_OKAY, Some(0x0f000d0c_0b0a0900_0000abcd_00000009))] },
        ),
        // Compare of 2 bytes and Swap of 2 bytes: refused.
        (Txn::atomic(15, ATOP_COMPARE, 0, line, 2, 1), Expect { b: Some(RESP_SLVERR), r: vec![(RESP_SLVERR, None)] }),
        (Txn::atomic(15, ATOP_SWAP, 0, line, 1, 1), Expect { b: Some(RESP_SLVERR), r: vec![(RESP_SLVERR, None)] }),
        // A 2-byte ATOP: refused.
        (Txn::atomic(12, ATOP_STORE << 4, 0, line, 1, 1), Expect { b: Some(RESP_SLVERR), r: vec![] }),
        // f32 add through AWUSER at +12 (1.0 + 0x0f0e0d0c); a misaligned u32 ATOP.
        (
            Txn::atomic(
                12,
                ATOP_LOAD << 4,
                1 << AWUSER_FORM_EN | "global.add.f32".parse::<sim::Form>().unwrap().code(),
                line + 12,
                2,
                0x3f80_0000u128 << 96,
            ),
            Expect { b: Some(RESP_OKAY), r: vec![(RESP_OKAY, Some(0x0f000d0cu128 << 96))] },
        ),
        (
            Txn::atomic(13, ATOP_LOAD << 4, 0, line + 2, 2, 1 << 16),
            Expect { b: Some(RESP_SLVERR), r: vec![(RESP_SLVERR, None)] },
        ),
        // A partial strobe group: SLVERR, the whole groups still written.
        (
            Txn::write(2, line + 16, 4, BURST_INCR, vec![(u128::MAX, 0x0f07)]),
            Expect { b: Some(RESP_SLVERR), r: vec![] },
        ),
        (Txn::read(3, line + 16, 0, 4, BURST_INCR), Expect { b: None, r: vec![(RESP_OKAY, Some(0xffff_ffff << 64))] }),
        // WRAP and out of range.
        (Txn::read(4, line, 1, 4, BURST_WRAP), Expect { b: None, r: vec![(RESP_SLVERR, None), (RESP_SLVERR, None)] }),
        (
            Txn::write(5, testbench::axi::AXI_MEM_BYTES as u32 - 16, 4, BURST_INCR, vec![(1, 0xffff), (2, 0xffff)]),
            Expect { b: Some(RESP_SLVERR), r: vec![] },
        ),
        // A narrow INCR read burst (4-byte beats) of one line: one whole-line beat each.
        (
            Txn::read(6, testbench::axi::AXI_MEM_BYTES as u32 - 16, 1, 2, BURST_INCR),
            Expect { b: None, r: vec![(RESP_OKAY, Some(1)); 2] },
        ),
    ];
    let f32_sum = sim::apply("global.add.f32".parse().unwrap(), 0x0f0e0d0c, 0x3f80_0000) as u32;
    assert_eq!(f32_sum, 0x3f80_0000, "1.0 + a tiny value rounds to 1.0");
    for (t, e) in &cases {
        assert_eq!(&golden(&mut mem, t), e, "golden model on {t:?}");
    }
    let mut sim = AxiSim::new();
    let txns: Vec<Txn> = cases.into_iter().map(|c| c.0).collect();
    sim.run(&txns, &Policy::FULL_SPEED).unwrap();
    sim.run(&txns, &Policy { valid_pct: 50, ready_pct: 50, seed: 7 }).unwrap();
}

/// The checker itself: a golden memory that differs from the RTL's fails the run at the read.
#[test]
fn axi_checker_catches_a_wrong_value() {
    let mut sim = AxiSim::new();
    sim.golden.write(0x80, 4, 0xdead);
    let e = sim.run(&[Txn::read(0, 0x80, 0, 4, BURST_INCR)], &Policy::FULL_SPEED).unwrap_err();
    assert!(e.contains("RDATA"), "{e}");
}
