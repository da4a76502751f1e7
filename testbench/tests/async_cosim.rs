//! `red.async` with mbarrier completion: seeded random traces that mix red.async (all 56
//! forms), plain accesses and mbarrier operations on more mbarrier objects than the table
//! holds, through the Verilated async unit (`hw::AsyncUnit`) with the cycle-level check (a
//! phase never completes before its last byte and arrival, always within the completion
//! bound after them; test_waits while red.async are in flight see the phase as it is), and
//! the golden model following the RTL's completion events; the model engine's lagging
//! completions; and the `redunit run` rows of docs/cli.md.

mod common;
use common::{redunit, text};
use testbench::async_run::{self, ASYNC_MEM_BYTES, RowResult, RtlAsync};

fn seed() -> u64 {
    let s = std::env::var("REDUNIT_SEED").ok().and_then(|s| testbench::stimulus::parse_seed(&s).ok()).unwrap_or(0x5eed);
    eprintln!("async_cosim: seed {s:#x} (rerun with REDUNIT_SEED={s:#x})");
    s
}

#[test]
fn random_traces_rtl_matches_the_model_cycle_by_cycle() {
    let s = seed();
    let mut rng = s;
    let (mut flips, mut waits, mut errors, mut full) = (0, [0usize; 2], 0, 0);
    let (mut in_flight, mut in_flight_incomplete, mut max_cpl, mut unit_cycles) = (0, 0, 0, 0);
    let mut mix = async_run::RandomTraceMix::default();
    for t in 0..100 {
        let rows = async_run::random_trace(&mut rng, 3000);
        let m = async_run::random_trace_mix(&rows);
        for (sum, k) in [
            (&mut mix.global, m.global),
            (&mut mix.shared, m.shared),
            (&mut mix.generic, m.generic),
            (&mut mix.qualified, m.qualified),
            (&mut mix.relaxed, m.relaxed),
            (&mut mix.release, m.release),
            (&mut mix.test_waits, m.test_waits),
            (&mut mix.waits_right_after, m.waits_right_after),
        ] {
            *sum += k;
        }
        let run = async_run::rtl(&mut RtlAsync::new(), &rows).unwrap();
        assert!(run.mismatches.is_empty(), "seed {s:#x}, trace {t}: {:#?}", run.mismatches);
        let model = async_run::model_events(&rows, &run.events, ASYNC_MEM_BYTES)
            .unwrap_or_else(|e| panic!("seed {s:#x}, trace {t}: the RTL's completion events: {e}"));
        for (i, (m, r)) in model.iter().zip(&run.results).enumerate() {
            assert_eq!(m, r, "seed {s:#x}, trace {t}, row {i} ({:?})", rows[i]);
            match m {
                RowResult::Wait(w) => waits[*w as usize] += 1,
                RowResult::Mbar(_) => errors += 1,
                RowResult::TableFull => full += 1,
                _ => {}
            }
        }
        flips += run.stats.flips_by_bytes;
        in_flight += run.stats.waits_in_flight;
        in_flight_incomplete += run.stats.waits_in_flight_incomplete;
        max_cpl = max_cpl.max(run.stats.max_completion);
        unit_cycles += run.stats.cycles;
    }
    eprintln!("drawn: {mix:?}");
    // Plain rows in both memories at the same offsets, named and generic, with qualifiers;
    // both kinds of red.async; test_waits right after a phase's red.async.
    assert!(
        mix.global > 20_000
            && mix.shared > 30_000
            && mix.generic > 20_000
            && mix.qualified > 10_000
            && mix.relaxed > 25_000
            && mix.release > 10_000
            && mix.waits_right_after > 7_000,
        "weak stimulus: {mix:?}"
    );
    eprintln!(
        "{flips} flips by a last byte, test_wait 0/1: {waits:?}, {errors} error results, {full} inits on a full table, \
         {in_flight_incomplete} of {in_flight} test_waits during a red.async on their mbarrier saw the phase incomplete, \
         completion at most {max_cpl} cycles after acceptance (bound {}), {unit_cycles} cycles",
        async_run::COMPLETION_BOUND
    );
    assert!(
        flips > 600 && waits[0] > 1000 && waits[1] > 1000 && errors > 100 && full > 20 && in_flight_incomplete > 500,
        "weak stimulus"
    );
    assert!(max_cpl <= async_run::COMPLETION_BOUND);
}

/// The model engine's lagging completions: with a lag of 0 rows it is the trace order; with
/// lags, a test_wait after the red.async of a phase sees it complete under some seeds and
/// incomplete under others, and every seed's completions keep PTX's rules (the model checks
/// the event order); the memory results never change.
#[test]
fn lagging_completions_vary_with_the_seed() {
    let rows = async_run::parse(LAG_TRACE.as_bytes()).unwrap();
    let base = async_run::model(&rows, ASYNC_MEM_BYTES);
    assert_eq!(async_run::model_events(&rows, &async_run::lagged(&rows, 7, 0), ASYNC_MEM_BYTES).unwrap(), base);
    let mut seen = [0; 2];
    for seed in 0..64 {
        let r = async_run::model_events(&rows, &async_run::lagged(&rows, seed, 4), ASYNC_MEM_BYTES).unwrap();
        match r[4] {
            RowResult::Wait(w) => seen[w as usize] += 1,
            ref x => panic!("seed {seed}: {x:?}"),
        }
        assert_eq!(r[6], base[6], "seed {seed}: the load is in trace order");
        assert_eq!(r[8], RowResult::Wait(true), "seed {seed}: a lag of at most 4 rows has completed by row 8");
    }
    // Complete by row 4 only when the two completions lag by at most 1 and 0 rows: 2/5 * 1/5.
    assert!(seen[0] > 20 && seen[1] > 1, "{seen:?}");
    // The CLI: the same through `redunit run --lag-seed`.
    let mut outs = std::collections::BTreeSet::new();
    for seed in ["1", "2", "3", "4", "5", "6", "7", "8"] {
        let out = redunit(&["run", "--lag-seed", seed, "--lag-rows", "1", "-"], LAG_TRACE);
        assert!(out.status.success(), "{}", text(&out.stderr));
        outs.insert(text(&out.stdout));
    }
    assert!(outs.len() >= 2, "{outs:?}");
    let out = redunit(&["run", "--engine", "rtl", "--lag-seed", "1", "-"], LAG_TRACE);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--lag-seed needs --engine model"));
}

/// The completion bound under the slowest traffic: red.async behind long chains of dependent
/// f64 and integer reductions to one word (the unit's slowest dependent op), checked every
/// cycle by the driver.
#[test]
fn completion_stays_within_the_bound_behind_dependent_chains() {
    let mut t = String::from("op,addr,value,mbar\nmbarrier.init,8008,1,\nmbarrier.arrive.expect_tx,8008,fffff,\n");
    for k in 0..400 {
        match k % 20 {
            19 => t += "red.async.relaxed.cluster.shared::cluster.add.u32,8040,1,8008\n",
            17 => t += "mbarrier.test_wait.parity,8008,0,\n",
            x if x < 17 => t += "shared::cluster.add.f64,8040,3ff0000000000000,\n",
            _ => t += "shared::cluster.add.u64,8040,1,\n",
        }
    }
    let rows = async_run::parse(t.as_bytes()).unwrap();
    let run = async_run::rtl(&mut RtlAsync::new(), &rows).unwrap();
    assert!(run.mismatches.is_empty(), "{:#?}", run.mismatches);
    assert!(async_run::check_against_model(&rows, &run, ASYNC_MEM_BYTES).is_empty());
    eprintln!(
        "completion at most {} cycles after acceptance (bound {})",
        run.stats.max_completion,
        async_run::COMPLETION_BOUND
    );
    assert!(run.stats.max_completion > 20, "the chains did not slow the red.async: {}", run.stats.max_completion);
}

const LAG_TRACE: &str = "op,addr,value,mbar
mbarrier.init,8008,1,
mbarrier.arrive.expect_tx,8008,8,
red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32,8040,5,8008
red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32,8044,6,8008
mbarrier.test_wait.parity,8008,0,
ld.shared::cluster.b32,8080,,
ld.shared::cluster.b64,8040,,
ld.shared::cluster.b32,8080,,
mbarrier.test_wait.parity,8008,0,
";

/// The mbarrier table: eight objects fit, a ninth init reports the overflow on both engines,
/// `mbarrier.inval` frees an entry for it.
#[test]
fn the_mbarrier_table_overflows_with_an_error() {
    let mut t = String::from("op,addr,value,mbar\n");
    for k in 0..9 {
        t += &format!("mbarrier.init,{:x},1,\n", 0x8000 + 8 * k);
    }
    t += "mbarrier.test_wait.parity,8040,0,\nmbarrier.inval,8000,,\nmbarrier.init,8040,1,\nmbarrier.arrive,8040,,\nmbarrier.test_wait.parity,8040,0,\nmbarrier.test_wait.parity,8000,0,\n";
    let want = "index,op,addr,result
8,mbarrier.init,8040,error:mbarrier-table-full
9,mbarrier.test_wait.parity,8040,error:mbarrier-uninitialized
13,mbarrier.test_wait.parity,8040,1
14,mbarrier.test_wait.parity,8000,error:mbarrier-uninitialized
";
    for engine in ["model", "rtl"] {
        let out = redunit(&["run", "--engine", engine, "-"], &t);
        assert!(out.status.success(), "{engine}: {}", text(&out.stderr));
        assert_eq!(text(&out.stdout), want, "{engine}");
    }
}

const README_TRACE: &str = "op,addr,value,mbar
mbarrier.init,8008,1,
mbarrier.arrive.expect_tx,8008,c,
red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32,8040,5,8008
red.async.relaxed.cluster.add.u64,100008048,7,100008008
mbarrier.test_wait.parity,8008,0,
red.async.release.sys.global.add.s64,8048,ffffffffffffffff,
ld.shared::cluster.b128,8040,,
red.async.relaxed.cluster.min.u32,100008042,1,100008008
mbarrier.test_wait.parity,8010,0,
mbarrier.test_wait.parity,8008,0,
ld.b128,8040,,
ld.b128,100008040,,
";

/// The model: each red.async completes at its row.
const README_OUT: &str = "index,op,addr,result
4,mbarrier.test_wait.parity,8008,1
6,ld.shared::cluster.b128,8040,00000000000000070000000000000005
7,red.async.relaxed.cluster.mbarrier::complete_tx::bytes.min.u32,100008042,error:misaligned
8,mbarrier.test_wait.parity,8010,error:mbarrier-uninitialized
9,mbarrier.test_wait.parity,8008,1
10,ld.b128,8040,ffffffffffffffff0000000000000000
11,ld.b128,100008040,00000000000000070000000000000005
";

/// The RTL: the test_waits come while the two red.async are in flight (one row per cycle).
const README_OUT_RTL: &str = "index,op,addr,result
4,mbarrier.test_wait.parity,8008,0
6,ld.shared::cluster.b128,8040,00000000000000070000000000000005
7,red.async.relaxed.cluster.mbarrier::complete_tx::bytes.min.u32,100008042,error:misaligned
8,mbarrier.test_wait.parity,8010,error:mbarrier-uninitialized
9,mbarrier.test_wait.parity,8008,0
10,ld.b128,8040,ffffffffffffffff0000000000000000
11,ld.b128,100008040,00000000000000070000000000000005
";

#[test]
fn run_with_the_mbar_column_on_both_engines() {
    for (engine, want) in [("model", README_OUT), ("rtl", README_OUT_RTL)] {
        let out = redunit(&["run", "--engine", engine, "-"], README_TRACE);
        assert!(out.status.success(), "{engine}: {}", text(&out.stderr));
        assert_eq!(text(&out.stdout), want, "{engine}");
    }
    // The executing CTA as a fifth column: the same rows from CTA 0, but init and test_wait
    // from CTA 1, which holds the mbarriers (as the rows run without the column).
    let cta = |l: &str| if l.starts_with("mbarrier.init") || l.starts_with("mbarrier.test_wait") { 1 } else { 0 };
    let with_cta: String = README_TRACE
        .lines()
        .enumerate()
        .map(|(i, l)| if i == 0 { format!("{l},cta\n") } else { format!("{l},{}\n", cta(l)) })
        .collect();
    let out = redunit(&["run", "-"], &with_cta);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), README_OUT);
}

#[test]
fn bad_async_rows_are_refused_with_the_rule() {
    let h = "op,addr,value,mbar\nmbarrier.init,0,1,\n";
    for (row, msg) in [
        (
            "red.async.relaxed.cluster.add.s64,0,1,0",
            "line 3: unknown op `red.async.relaxed.cluster.add.s64`: red.async.relaxed .add takes .u32, .s32, .u64 (.s64 exists only in the .release.global variant)",
        ),
        ("red.async.mmio.release.gpu.add.u32,0,1,", "if .mmio is specified, .scope must be .sys"),
        ("red.async.relaxed.cluster.add.u32,0,1,", "completes on an mbarrier: give its address in the mbar column"),
        ("red.async.release.gpu.add.u32,0,1,0", "takes no mbar (.release forms have no completion mechanism)"),
        (
            "red.async.relaxed.cluster.shared::cluster.add.u32,8000,1,800c",
            "`800c` is not an mbarrier address: an mbarrier is an 8-byte object at a multiple of 8",
        ),
        ("red.async.relaxed.cluster.shared::cluster.add.u32,8000,1,10000", "`10000` is not an mbarrier address"),
        ("red.async.relaxed.cluster.add.u32,8000,1,8008", "the generic address `8000` is not in the shared window"),
        (
            "red.async.relaxed.cluster.shared::cluster.add.u32,40,1,8008",
            "the destination 40 (CTA 0) and the mbarrier 8008 (CTA 1) must be in the same CTA",
        ),
        (
            "red.async.relaxed.cluster.shared::cluster.add.u32,8040,1,8",
            "must be in the same CTA, a peer of the executing CTA 0",
        ),
        (
            "red.async.relaxed.cluster.shared::cluster.add.u32,40,1,8",
            "the destination 40 (CTA 0) and the mbarrier 8 (CTA 0)",
        ),
        ("red.async.mmio.mmio.release.sys.global.add.u32,0,1,", "`.mmio` is repeated"),
        ("mbarrier.inval,8,1,", "mbarrier.inval takes no value"),
        ("mbarrier.test_wait.parity,0,2,", "the parity of mbarrier.test_wait.parity is 0 or 1"),
        ("mbarrier.expect_tx,0,100000,", "at most fffff"),
        ("mbarrier.wait,0,1,", "unknown mbarrier operation `mbarrier.wait`"),
        ("red.async.release.gpu.add.u32,100000040,1,", "the generic address `100000040` is in the shared window"),
        ("ld.b32,0,", "expected 4 columns"),
    ] {
        let input = format!("{h}{row}\n");
        let out = redunit(&["run", "-"], &input);
        assert_eq!(out.status.code(), Some(2), "{row}");
        let err = text(&out.stderr);
        assert!(err.contains(msg), "{row}: {err}");
        assert!(err.contains("-: line"), "{row}: {err}");
    }
    // The executing CTA's column: CTA 1 may not target its own shared memory.
    let h5 = "op,addr,value,mbar,cta\n";
    for (row, msg) in [
        ("red.async.relaxed.cluster.shared::cluster.add.u32,8040,1,8008,1", "a peer of the executing CTA 1"),
        ("red.async.relaxed.cluster.shared::cluster.add.u32,8040,1,8008,2", "cta: 2 is not a CTA of the cluster"),
        ("ld.b32,0,,", "expected 5 columns"),
        // PTX: init, inval and test_wait act on the executing CTA's own shared memory.
        (
            "mbarrier.init,8008,1,,0",
            "line 2: mbarrier.init: the mbarrier 8008 is in CTA 1's shared memory, and this row executes in CTA 0: PTX's mbarrier.init acts on the executing CTA's own shared memory (.shared::cta) only",
        ),
        (
            "mbarrier.test_wait.parity,8,0,,1",
            "line 2: mbarrier.test_wait.parity: the mbarrier 8 is in CTA 0's shared memory, and this row executes in CTA 1",
        ),
        ("mbarrier.inval,fff8,,,0", "PTX's mbarrier.inval acts on the executing CTA's own shared memory"),
        (
            "ld.shared.b32,8040,,,0",
            "8040 is CTA 1's shared memory, and .shared (.shared::cta) addresses the executing CTA 0's own, 0-7fff",
        ),
        (
            "ld.shared::cta.b32,40,,,1",
            "40 is CTA 0's shared memory, and .shared (.shared::cta) addresses the executing CTA 1's own, 8000-ffff",
        ),
    ] {
        let out = redunit(&["run", "-"], &format!("{h5}{row}\n"));
        assert_eq!(out.status.code(), Some(2), "{row}");
        assert!(text(&out.stderr).contains(msg), "{row}: {}", text(&out.stderr));
    }
    let out = redunit(&["run", "-"], &format!("{h5}red.async.relaxed.cluster.shared::cluster.add.u32,40,1,8,1\n"));
    assert!(out.status.success(), "{}", text(&out.stderr));
    // Arrivals, expect_tx and complete_tx may name a peer CTA's mbarrier (.shared::cluster).
    let peer = format!(
        "{h5}mbarrier.init,8008,1,,1\nmbarrier.arrive.expect_tx,8008,4,,0\nmbarrier.complete_tx,8008,4,,0\nmbarrier.test_wait.parity,8008,0,,1\n"
    );
    let out = redunit(&["run", "-"], &peer);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "index,op,addr,result\n3,mbarrier.test_wait.parity,8008,1\n");
    let out = redunit(&["run", "--engine", "rtl", "--mem-bytes", "4096", "-"], README_TRACE);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("built with 65536 bytes only"));
}

#[test]
fn bench_async_reports_the_figures() {
    let out = redunit(&["bench-async", "--phases", "200", "--stream", "2000"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let o = text(&out.stdout);
    let l = hw::ASYNC_FLIP_LATENCY;
    assert!(
        o.contains(&format!("flip latency from the last red.async's acceptance: min {l}, mean {l}.00, max {l} cycles")),
        "{o}"
    );
    assert!(o.contains("flip latency from its unit response:              min 2, mean 2.00, max 2 cycles"), "{o}");
}
