//! `red.async` with mbarrier completion: seeded random traces that mix red.async (all 56
//! forms), plain accesses and mbarrier operations, through the model and the Verilated async
//! unit (`hw::AsyncUnit`), with the cycle-level check that a phase flips exactly when its last
//! byte completes; and the `redunit run` rows of docs/cli.md.

mod common;
use common::{redunit, text};
use testbench::async_run::{self, ASYNC_MEM_BYTES, RowResult, RtlAsync};

fn seed() -> u64 {
    let s = std::env::var("REDUNIT_SEED")
        .ok()
        .and_then(|s| testbench::stimulus::parse_seed(&s).ok())
        .unwrap_or(0x5eed);
    eprintln!("async_cosim: seed {s:#x} (rerun with REDUNIT_SEED={s:#x})");
    s
}

#[test]
fn random_traces_rtl_matches_the_model_cycle_by_cycle() {
    let s = seed();
    let mut rng = s;
    let (mut flips, mut waits, mut errors, mut bar_waits) = (0, [0usize; 2], 0, 0);
    let mut unit_cycles = 0;
    for t in 0..100 {
        let rows = async_run::random_trace(&mut rng, 3000);
        let model = async_run::model(&rows, ASYNC_MEM_BYTES);
        let run = async_run::rtl(&mut RtlAsync::new(), &rows).unwrap();
        assert!(run.mismatches.is_empty(), "seed {s:#x}, trace {t}: {:#?}", run.mismatches);
        for (i, (m, r)) in model.iter().zip(&run.results).enumerate() {
            assert_eq!(m, r, "seed {s:#x}, trace {t}, row {i} ({:?})", rows[i]);
            match m {
                RowResult::Wait(w) => waits[*w as usize] += 1,
                RowResult::Mbar(_) => errors += 1,
                _ => {}
            }
        }
        flips += run.stats.flips_by_bytes;
        bar_waits += run.stats.bar_wait_cycles;
        unit_cycles += run.stats.cycles;
    }
    eprintln!("{flips} flips by a last byte, test_wait 0/1: {waits:?}, {errors} error results, {bar_waits} barrier wait cycles, {unit_cycles} cycles");
    assert!(flips > 600 && waits[0] > 1000 && waits[1] > 1000 && errors > 100 && bar_waits > 10_000, "weak stimulus");
}

const README_TRACE: &str = "op,addr,value,mbar
mbarrier.init,8,1,
mbarrier.arrive.expect_tx,8,c,
red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32,40,5,8
red.async.relaxed.cluster.add.u64,48,7,8
mbarrier.test_wait.parity,8,0,
red.async.release.sys.global.add.s64,48,ffffffffffffffff,
ld.b128,40,,
red.async.relaxed.cluster.min.u32,42,1,8
mbarrier.test_wait.parity,10,0,
";

const README_OUT: &str = "index,op,addr,result
4,mbarrier.test_wait.parity,8,1
6,ld.b128,40,00000000000000060000000000000005
7,red.async.relaxed.cluster.mbarrier::complete_tx::bytes.min.u32,42,error:misaligned
8,mbarrier.test_wait.parity,10,error:mbarrier-uninitialized
";

#[test]
fn run_with_the_mbar_column_on_both_engines() {
    for engine in ["model", "rtl"] {
        let out = redunit(&["run", "--engine", engine, "-"], README_TRACE);
        assert!(out.status.success(), "{engine}: {}", text(&out.stderr));
        assert_eq!(text(&out.stdout), README_OUT, "{engine}");
    }
}

#[test]
fn bad_async_rows_are_refused_with_the_rule() {
    let h = "op,addr,value,mbar\nmbarrier.init,0,1,\n";
    for (row, msg) in [
        ("red.async.relaxed.cluster.add.s64,0,1,0", "line 3: unknown op `red.async.relaxed.cluster.add.s64`: red.async.relaxed .add takes .u32, .s32, .u64 (.s64 exists only in the .release.global variant)"),
        ("red.async.mmio.release.gpu.add.u32,0,1,", "if .mmio is specified, .scope must be .sys"),
        ("red.async.relaxed.cluster.add.u32,0,1,", "completes on an mbarrier: give its address in the mbar column"),
        ("red.async.release.gpu.add.u32,0,1,0", "takes no mbar (.release forms have no completion mechanism)"),
        ("red.async.relaxed.cluster.add.u32,0,1,c", "`c` is not an mbarrier address: the 8 mbarriers are at 0, 8, ..., 38 (hex)"),
        ("mbarrier.test_wait.parity,0,2,", "the parity of mbarrier.test_wait.parity is 0 or 1"),
        ("mbarrier.expect_tx,0,100000,", "at most fffff"),
        ("mbarrier.wait,0,1,", "unknown mbarrier operation `mbarrier.wait`"),
        ("ld.b32,0,", "expected 4 columns"),
    ] {
        let input = format!("{h}{row}\n");
        let out = redunit(&["run", "-"], &input);
        assert_eq!(out.status.code(), Some(2), "{row}");
        let err = text(&out.stderr);
        assert!(err.contains(msg), "{row}: {err}");
        assert!(err.contains("-: line"), "{row}: {err}");
    }
    let out = redunit(&["run", "--engine", "rtl", "--mem-bytes", "4096", "-"], README_TRACE);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("built with 65536 bytes only"));
}

#[test]
fn bench_async_reports_the_figures() {
    let out = redunit(&["bench-async", "--phases", "200", "--stream", "2000"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let o = text(&out.stdout);
    assert!(o.contains("flip latency from the last red.async's acceptance: min 8, mean 8.00, max 8 cycles"), "{o}");
    assert!(o.contains("flip latency from its unit response:              min 2, mean 2.00, max 2 cycles"), "{o}");
}
