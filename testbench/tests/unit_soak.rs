//! The unit's random stream with faults (`testbench::soak`) at a high rate: a reset every few
//! hundred requests, aimed in turn at a full ordering queue, a full response FIFO and a
//! dependent chain in flight, and `rsp_ready` droughts. Every hard moment must be hit, with no
//! mismatch; and checkers with a deliberate bug (a response expected for a dropped request,
//! no dropped request allowed to reach memory) must fail on the same correct unit, so the
//! checks that matter do bite. The unit is its default configuration, linked into the binary.
//!
//! Rerun with `REDUNIT_SEED=<seed> cargo test --release -p testbench --test unit_soak`.

use std::path::PathBuf;

use testbench::soak::{self, Mutation, SoakConfig, SoakReport};
use testbench::stimulus;

const MEM: usize = sim::memory::DEFAULT_MEM_BYTES;

fn config(requests: u64) -> SoakConfig {
    SoakConfig { reset_every: 400, drought_every: 2000, ..SoakConfig::new(MEM, requests) }
}

fn soak(seed: u64, cfg: &SoakConfig) -> SoakReport {
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let vcd = tmp.parent().unwrap_or(&tmp).join(format!("redunit-fail-soak-{seed:#x}.vcd"));
    let vcd = cfg.mutation.is_none().then_some(vcd);
    soak::run(seed, cfg, vcd.as_deref()).unwrap()
}

#[test]
fn a_soak_with_frequent_resets_hits_every_hard_moment_and_matches_the_golden_model() {
    let seed = stimulus::seed_from_env().expect("REDUNIT_SEED");
    println!("unit_soak seed {seed:#x} (rerun with REDUNIT_SEED={seed:#x})");
    let cfg = config(60_000);
    let s = soak(seed, &cfg);
    println!("{:?}, {} requests, {} cycles, {:.2} s", s.stats, s.report.requests, s.report.cycles, s.report.seconds);
    assert!(s.report.ok(), "{}", s.report.describe());
    assert_eq!(s.traffic, cfg.requests);
    let st = &s.stats;
    assert!(st.resets >= 100, "{st:?}");
    assert!(st.holes().is_empty(), "{:?}: {st:?}", st.holes());
    // The FIFO-full turn (a quarter of the resets) must find the FIFO full nearly always.
    assert!(st.fifo_full * 5 >= st.resets, "{st:?}");
    assert!(st.queue_full * 5 >= st.resets, "{st:?}");
    assert!(st.dropped > st.resets && st.landed > 0 && st.landed < st.dropped, "{st:?}");
    assert!(st.droughts >= 10 && st.drought_cycles >= st.droughts * soak::DROUGHT_MIN, "{st:?}");
    // The unit saw its resets with requests in flight, and its FIFO full.
    let cov = s.report.coverage.cov;
    assert!(cov[hw::slice_unit::COV_RESET_IN_FLIGHT] > 0, "{cov:?}");
    assert!(cov[hw::slice_unit::COV_CREDIT_STALL] > 0 && cov[hw::slice_unit::COV_QUEUE_FULL] > 0);
}

/// The same soak on the unit at its shallowest depths (`most-ops-per-cycle`: ALU latency 3,
/// 16-cycle latency), verilated at run time (tens of seconds the first time,
/// hence ignored by default: `cargo test --release -p testbench --test unit_soak -- --ignored`).
#[test]
#[ignore]
fn a_soak_of_the_shallowest_unit_hits_every_hard_moment() {
    let seed = stimulus::seed_from_env().expect("REDUNIT_SEED");
    println!("unit_soak most-ops-per-cycle seed {seed:#x} (rerun with REDUNIT_SEED={seed:#x})");
    let cfg = SoakConfig { hw: hw::Config::most_ops_per_cycle(), ..config(30_000) };
    let s = soak(seed, &cfg);
    println!("{:?}, {} requests, {} cycles, {:.2} s", s.stats, s.report.requests, s.report.cycles, s.report.seconds);
    assert!(s.report.ok(), "{}", s.report.describe());
    assert!(s.stats.resets >= 50 && s.stats.holes().is_empty(), "{:?}", s.stats);
}

#[test]
fn checkers_with_a_deliberate_bug_fail_on_the_correct_unit() {
    let seed = 0x5eed;
    // A response expected for every dropped request: each one is a "no response" failure.
    let s = soak(seed, &SoakConfig { mutation: Some(Mutation::ExpectDroppedResponse), ..config(5_000) });
    assert!(
        s.report.mismatches > 0 && s.report.failures.iter().all(|f| f.note == "no response"),
        "{}",
        s.report.describe()
    );
    // No dropped request allowed to land: the written ones (responses in the FIFO at the
    // reset, the write stage) make read-backs fail.
    let s = soak(seed, &SoakConfig { mutation: Some(Mutation::NothingLands), ..config(5_000) });
    assert!(s.report.failures.iter().any(|f| f.note.contains("no closed set")), "{}", s.report.describe());
    // The same soak, checked right, passes.
    let s = soak(seed, &config(5_000));
    assert!(s.report.ok(), "{}", s.report.describe());
}

/// A unit shard failing under the checker hook (`REDUNIT_SOAK_MUTATION`: a deliberate checker
/// bug, the design untouched) records a rerun command that names the fault rates and the
/// hook, and that command alone reproduces the same first failure and writes its waveform.
#[test]
fn a_failing_unit_shard_is_reproduced_by_its_rerun_command() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("unit-soak-rerun");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let redunit = |env: (&str, &str), args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_redunit"))
            .current_dir(&dir)
            .env_remove("REDUNIT_FLIP_GOLDEN")
            .env(env.0, env.1)
            .args(args)
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let hook = ("REDUNIT_SOAK_MUTATION", "nothing-lands");
    let args = ["regress", "--shard", "1/3", "--seed", "0x5eed", "--unit-requests", "30000", "--reset-every", "1000"];
    let (code, out) =
        redunit(hook, &[&args[..], &["--drought-every", "5000", "--only", "unit", "--json", "shard.json"]].concat());
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("unit faults (a reset per 1000 requests, a drought per 5000): "), "{out}");
    let r: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("shard.json")).unwrap()).unwrap();
    assert!(r["blocks"]["unit"]["extra"]["resets"].as_u64().unwrap() >= 5, "{r}");
    let (first, rerun) = (r["failures"][0]["first"].as_str().unwrap(), r["failures"][0]["rerun"].as_str().unwrap());
    let expected = "REDUNIT_SOAK_MUTATION=nothing-lands redunit regress --shard 1/3 --seed 0x5eed --unit-requests 30000 \
                    --reset-every 1000 --drought-every 5000 --only unit --vcd ";
    assert!(rerun.starts_with(expected), "{rerun}");
    let words: Vec<&str> = rerun.split_whitespace().collect();
    let (code, again) = redunit(hook, &words[2..]);
    assert_eq!(code, Some(1), "{again}");
    assert!(again.contains(&format!("first failure: {first}")), "{again}\n---\n{first}");
    assert!(dir.join(words.last().unwrap()).exists(), "no waveform {}", words.last().unwrap());
}
