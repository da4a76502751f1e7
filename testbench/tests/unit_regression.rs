//! The Verilated L2-slice unit against the golden memory: the random cosimulation (stalls,
//! reset, hot addresses, near misses, errors) with its scoreboard, the atomic-counter
//! invariant, coverage, and the request/response contract. The unit under test is its
//! default configuration (`hw::Config::unit_default`, every block at its deepest: the fastest
//! clock), linked into the binary; the most-operations-per-cycle configuration (every block at
//! its shallowest) runs a random regression of its own, verilated at run time.
//!
//! The random regression prints its seed; rerun a failure with
//! `REDUNIT_SEED=<seed> cargo test --release -p testbench --test unit_regression`. A failure
//! writes the waveform of the cycles around the first mismatch to
//! `target/redunit-fail-<seed>.vcd`.

use std::path::PathBuf;
use std::sync::OnceLock;

use sim::{Access, Request};
use testbench::stimulus;
use testbench::traffic::{Mix, Traffic};
use testbench::unit::RtlUnit;
use testbench::unit_cosim::{self, Config, End, Kind, Plan, Report, Segment};

/// Random requests per regression run.
const REQUESTS: usize = 400_000;
const MEM: usize = sim::memory::DEFAULT_MEM_BYTES;

fn fail_vcd(seed: u64) -> PathBuf {
    // CARGO_TARGET_TMPDIR is <target>/tmp.
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    tmp.parent().unwrap_or(&tmp).join(format!("redunit-fail-{seed:#x}.vcd"))
}

/// The random regression, run once for the tests that look at it.
fn regression() -> &'static Report {
    static R: OnceLock<Report> = OnceLock::new();
    R.get_or_init(|| {
        let seed = stimulus::seed_from_env().expect("REDUNIT_SEED");
        println!("unit_regression seed {seed:#x} (rerun with REDUNIT_SEED={seed:#x})");
        let r = unit_cosim::random_regression(seed, &Config::new(MEM, REQUESTS), Some(&fail_vcd(seed))).unwrap();
        println!(
            "{} requests, {} cycles, {} dropped by the reset, {:.2} s ({:.2} M requests/s)",
            r.requests,
            r.cycles,
            r.coverage.dropped,
            r.seconds,
            r.requests as f64 / r.seconds / 1e6
        );
        r
    })
}

/// The random regression on the unit at its shallowest depths (`Config::most_ops_per_cycle`:
/// adders of 3 stages, ALU latency 3, unit latency 16), verilated at run time; fewer requests.
/// Its coverage must be complete too.
#[test]
#[ignore = "verilates the unit at its shallowest depths at run time (minutes); CI runs it: cargo test --release -p testbench --test unit_cli --test unit_regression -- --ignored"]
fn most_ops_per_cycle_random_cosimulation_matches_the_golden_model() {
    let seed = stimulus::seed_from_env().expect("REDUNIT_SEED");
    println!("most-ops-per-cycle seed {seed:#x} (rerun with REDUNIT_SEED={seed:#x})");
    let mut cfg = Config::new(MEM, 150_000);
    cfg.hw = hw::Config::most_ops_per_cycle();
    assert_ne!(cfg.hw, Config::new(MEM, 1).hw, "the default regression runs the other configuration");
    let r = unit_cosim::random_regression(seed, &cfg, None).unwrap();
    println!("{} requests, {} cycles, {:.2} s", r.requests, r.cycles, r.seconds);
    assert!(r.ok(), "seed {:#x}: {} mismatches in {} requests\n{}", r.seed, r.mismatches, r.requests, r.describe());
    let holes = r.coverage.holes();
    assert!(holes.is_empty(), "coverage holes in the most-ops-per-cycle unit: {holes:?}");
}

#[test]
fn random_cosimulation_matches_the_golden_model() {
    let r = regression();
    assert!(r.ok(), "seed {:#x}: {} mismatches in {} requests\n{}", r.seed, r.mismatches, r.requests, r.describe());
}

#[test]
fn random_regression_hits_every_coverage_point() {
    let r = regression();
    let mut text = Vec::new();
    r.coverage.report(&mut text).unwrap();
    let holes = r.coverage.holes();
    assert!(
        holes.is_empty(),
        "seed {:#x}: never hit:\n  {}\n{}",
        r.seed,
        holes.join("\n  "),
        String::from_utf8_lossy(&text)
    );
}

/// 100,000 `global.add.u32` of 1 to one address, woven into random traffic that never
/// touches its four bytes (but does touch the rest of its line), under backpressure, end at
/// exactly 100,000.
#[test]
fn atomic_counter_ends_at_exactly_100000() {
    const ADDS: usize = 100_000;
    const COUNTER: u64 = 0x1f4;
    let add: Access = "global.add.u32".parse().unwrap();
    let mut t = Traffic::new(0xc0_4e75, MEM, Mix { hot: 6, ..Mix::default() });
    t.exclude(COUNTER, COUNTER + 4);
    let mut reqs = Vec::with_capacity(3 * ADDS);
    let mut rng = 0x600d_u64;
    let mut adds = 0;
    while adds < ADDS {
        let r = sim::splitmix64_next(&mut rng);
        if r % 5 < 2 {
            reqs.push(Request { access: add, addr: COUNTER, value: 1 });
            adds += 1;
        } else if r % 5 == 2 {
            // A near miss: the same line, other bytes.
            let off = [0u64, 8, 12][(r >> 8) as usize % 3];
            reqs.push(Request { access: add, addr: (COUNTER & !15) + off, value: 3 });
        } else {
            reqs.push(t.request());
        }
    }
    reqs.push(Request { access: "ld.b32".parse().unwrap(), addr: COUNTER, value: 0 });
    let n = reqs.len();
    let plan = Plan {
        mem_bytes: MEM,
        segments: vec![Segment { kind: Kind::Traffic, reqs, end: End::Drain }],
        policy_seed: 0xc0de,
        rsp_ready_pct: 75,
        req_valid_pct: 90,
        hw: hw::Config::unit_default(),
    };
    let mut unit = RtlUnit::new(MEM).unwrap();
    let obs = unit_cosim::drive(&mut unit, &plan).unwrap();
    assert!(obs.protocol.is_none(), "{}", obs.protocol.unwrap());
    let last = obs.batches[0].responses[n - 1].expect("the final load is answered");
    assert_eq!(last.status, 0, "the final load failed");
    assert_eq!(last.data as u32, ADDS as u32, "the counter after {ADDS} adds of 1 (read back with ld.b32)");
    let mut report = Report::default();
    unit_cosim::check(&plan, &obs, &mut report);
    assert!(report.ok(), "{} mismatches around the counter traffic\n{}", report.mismatches, report.describe());
}

/// The request/response contract alone (holds for any datapath): every request gets exactly
/// one response with its id, under random backpressure and request gaps, across batches and
/// id wrap-around; nothing comes out while idle.
#[test]
fn every_request_gets_exactly_one_response() {
    let mut unit = RtlUnit::new(MEM).unwrap();
    unit.set_policy(7, 40, 60);
    let mut t = Traffic::new(9, MEM, Mix::default());
    let mut base = 0u64;
    for n in [1usize, 2, 17, 1000, 70_000] {
        let reqs = t.requests(n);
        let b = unit.run(&reqs, base, None, true).unwrap_or_else(|e| panic!("batch of {n}: {e:#}"));
        assert_eq!(b.issued, n);
        for (i, r) in b.responses.iter().enumerate() {
            let r = r.unwrap_or_else(|| panic!("batch of {n}: request {i} got no response"));
            assert!(
                r.cycle >= r.accept,
                "request {i}: response in cycle {} before acceptance in {}",
                r.cycle,
                r.accept
            );
            assert!(r.status <= 2, "request {i}: rsp_status {}", r.status);
        }
        base += n as u64;
        unit.idle(50);
    }
    // A reset with requests in flight, then the unit still answers everything.
    unit.set_policy(8, 10, 100);
    let reqs = t.requests(500);
    unit.run(&reqs, base, None, false).unwrap();
    unit.reset(3);
    unit.set_policy(9, 100, 100);
    let reqs = t.requests(5000);
    let b = unit.run(&reqs, 0, None, true).unwrap();
    assert!(b.responses.iter().all(|r| r.is_some()));
}

/// Both presets' cycle figures are the ones `hw` documents: latency `hw::unit_latency`,
/// dependent requests to one line every `dependent_issue_interval_with` cycles, and one
/// request per cycle to distinct lines (`redunit bench` patterns). `fastest-clock` (the unit's
/// default) and `most-ops-per-cycle` (dependent add/logic ops every cycle, the other integer
/// ops every 2, FP ops every 3 cycles).
#[test]
fn registered_pipeline_latency_and_intervals_are_the_documented_ones() {
    let cfg = hw::Config::fastest_clock();
    // The intervals the unit is built for: add/and/or/xor every cycle (the integer ALU's
    // `loop_1`), the other integer forms every 2 (its `loop_a`), `red` and `atom` alike.
    for (form, n) in [
        ("global.add.u32", 1),
        ("global.xor.b32", 1),
        ("global.add.u64", 1),
        ("global.or.b64", 1),
        ("global.min.s32", 2),
        ("global.max.u64", 2),
        ("global.inc.u32", 2),
        ("global.dec.u32", 2),
    ] {
        for a in [Access::Red(form.parse().unwrap()), Access::Atom(form.parse().unwrap())] {
            assert_eq!(hw::slice_unit::dependent_issue_interval_with(a, &cfg), n, "{a:?}");
        }
    }
    check_latency_and_intervals(&cfg);
}

#[test]
#[ignore = "verilates the unit at its shallowest depths at run time (minutes); CI runs it: cargo test --release -p testbench --test unit_cli --test unit_regression -- --ignored"]
fn most_ops_per_cycle_latency_and_intervals_are_the_documented_ones() {
    let cfg = hw::Config::most_ops_per_cycle();
    let int = Access::Red("global.add.u32".parse().unwrap());
    let f32 = Access::Red("global.add.f32".parse().unwrap());
    assert_eq!(
        hw::slice_unit::dependent_issue_interval_with(int, &cfg),
        1,
        "the shallowest unit: dependent add.u32 every cycle"
    );
    assert!(
        hw::slice_unit::dependent_issue_interval_with(f32, &cfg) <= 3,
        "the shallowest unit: dependent f32 adds at least every 3 cycles"
    );
    check_latency_and_intervals(&cfg);
}

fn check_latency_and_intervals(cfg: &hw::Config) {
    let r = testbench::bench::bench_with(3000, MEM, 40, cfg).unwrap();
    assert!(r.patterns.iter().all(|p| p.mismatches == 0), "{:?}", r.patterns);
    let lat = hw::unit_latency(cfg) as u64;
    for l in &r.latency {
        assert_eq!((l.min, l.max), (lat, lat), "latency of {}", l.family);
    }
    let every = |form: &str, name: &str| {
        let a = Access::Red(form.parse().unwrap());
        let n = hw::slice_unit::dependent_issue_interval_with(a, cfg) as f64;
        let got = r.ops_per_cycle(name);
        assert!((got * n - 1.0).abs() < 0.01, "{name}: {got} ops/cycle, documented 1 per {n} cycles");
    };
    every("global.add.u32", "same_addr_int");
    every("global.add.f32", "same_addr_f32");
    every("global.add.f64", "same_addr_f64");
    // Every same-address row, red and atom: one request per documented dependent interval.
    for (name, form, atom) in testbench::traffic::SAME_ADDR_ROWS {
        let f = form.parse().unwrap();
        let a = if atom { Access::Atom(f) } else { Access::Red(f) };
        let n = hw::slice_unit::dependent_issue_interval_with(a, cfg) as f64;
        let got = r.ops_per_cycle(name);
        assert!((got * n - 1.0).abs() < 0.01, "{name}: {got} ops/cycle, documented 1 per {n} cycles");
    }
    // Hazards are per 32-bit word (four f32 words of one line run as four chains side by side);
    // K hot lines overlap up to one request per cycle.
    let f32_n =
        hw::slice_unit::dependent_issue_interval_with(Access::Red("global.add.f32".parse().unwrap()), cfg) as f64;
    let want = (4.0 / f32_n).min(1.0);
    let got = r.ops_per_cycle("hot_words_4_f32");
    assert!(got <= want + 0.002 && got >= 0.95 * want, "hot_words_4_f32: {got} ops/cycle, documented {want}");
    // Chains form among waiting entries: a request pushed after its producer's issue takes the
    // producer's whole window from the queue's history. With 8 f32 lines in turn the queue's
    // 16 places hold two requests per line, and a line's next request mostly comes after its
    // producer left: between the line path's rate (the FP window, `win_fp + 1`) and the loop's.
    let line_path = hw::slice_unit::shape(cfg).win_fp as f64 + 1.0;
    for k in [2u32, 4, 8] {
        for (fam, form) in [("int", "global.add.u32"), ("f32", "global.add.f32")] {
            let n = hw::slice_unit::dependent_issue_interval_with(Access::Red(form.parse().unwrap()), cfg) as f64;
            let want = (k as f64 / n).min(1.0);
            let floor = if fam == "f32" && k == 8 { (k as f64 / line_path).min(1.0) } else { want };
            let got = r.ops_per_cycle(&format!("hot_lines_{k}_{fam}"));
            assert!(
                got <= want + 0.002 && got >= 0.95 * floor,
                "hot_lines_{k}_{fam}: {got} ops/cycle, documented {want} (at least {floor})"
            );
        }
    }
    assert!(r.ops_per_cycle("distinct") > 0.99, "distinct lines: {}", r.ops_per_cycle("distinct"));
}
