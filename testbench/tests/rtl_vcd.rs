//! Waveforms of the Verilated ALU, read back with the `vcd` crate.

use std::collections::BTreeMap;
use std::path::PathBuf;

mod common;
use testbench::engine::{AluOp, golden, result_mask};
use testbench::rtl::{CLOCK_PERIOD_NS, FLUSH_CYCLES, RtlAlu};

/// Signal values at every dump time.
struct Wave {
    timescale: (u32, vcd::TimescaleUnit),
    /// time -> (clock, in_valid, out_valid, out_data) after the changes at that time.
    at: BTreeMap<u64, (u128, u128, u128, u128)>,
}

fn read(path: &std::path::Path) -> Wave {
    let (timescale, at) = common::read_vcd(path, &["clock", "in_valid", "out_valid", "out_data"]);
    Wave { timescale, at: at.into_iter().map(|(t, v)| (t, (v[0], v[1], v[2], v[3]))).collect() }
}

#[test]
fn a_request_comes_out_on_out_data_after_alu_latency_cycles() {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("rtl_vcd_latency.vcd");
    let form: sim::Form = "global.add.u32".parse().unwrap();
    let op = AluOp { form, old: 0x7fff_ffff, b: 0x8000_0002 };
    let mut out = Vec::new();
    {
        let mut rtl = RtlAlu::with_vcd(&path, 0).unwrap();
        assert_eq!(rtl.cycle(), FLUSH_CYCLES);
        rtl.run(&[op], &mut out).unwrap();
        rtl.idle(4);
    }
    let w = read(&path);
    assert_eq!(w.timescale, (1, vcd::TimescaleUnit::NS), "1 ns timescale");
    let period = CLOCK_PERIOD_NS;
    let end = *w.at.keys().last().unwrap() / period;
    // The clock toggles: low at 10c ns, high at 10c+5 ns, every cycle.
    for c in 0..end {
        assert_eq!(w.at.get(&(c * period)).map(|s| s.0), Some(0), "clock low at the start of cycle {c}");
        assert_eq!(w.at.get(&(c * period + period / 2)).map(|s| s.0), Some(1), "clock high in cycle {c}");
    }
    // Sampled at each rising edge: the low half of each cycle.
    let sample = |c: u64| w.at[&(c * period)];
    let issue = FLUSH_CYCLES;
    assert_eq!(sample(issue).1, 1, "in_valid in the cycle the request went in");
    let lat = hw::ALU_LATENCY as u64;
    for c in 0..end {
        let expect_valid = (c == issue + lat) as u128;
        assert_eq!(sample(c).2, expect_valid, "out_valid in cycle {c} (request in cycle {issue}, latency {lat})");
    }
    let m = result_mask(form);
    let data = sample(issue + lat).3 & m;
    assert_eq!(data, out[0] & m, "the VCD shows what the shim returned");
    assert_eq!(data, golden(&op) & m, "out_data is the golden model's result (0x7fffffff + 0x80000002 = 1)");
}

/// The failure path of the regression, exercised with a deliberately wrong reference (one bit
/// of every `global.add.u32` result flipped): it stops after `MAX_ERRORS` mismatches, names
/// each, and leaves a waveform in which the first failing operation's RTL result is on
/// `out_data` `ALU_LATENCY` cycles after the cycle it reports.
#[test]
fn a_failing_run_stops_after_20_errors_and_leaves_a_window_vcd() {
    use testbench::cosim::{self, MAX_ERRORS};
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("redunit-fail-injected.vcd");
    let _ = std::fs::remove_file(&path);
    let bad: sim::Form = "global.add.u32".parse().unwrap();
    let wrong = |op: &AluOp| if op.form == bad { golden(op) ^ 1 } else { golden(op) };
    let mut rtl = RtlAlu::new();
    let r = cosim::random_regression_against(&mut rtl, 7, 200_000, MAX_ERRORS, Some(&path), wrong, |_| {}).unwrap();
    assert!(r.stopped, "the run stops at the error limit");
    assert!(r.ops < 200_000, "it stopped early ({} ops)", r.ops);
    assert_eq!(r.failures.len(), MAX_ERRORS);
    assert!(r.mismatches >= MAX_ERRORS as u64);
    for f in &r.failures {
        assert_eq!(f.op.form, bad, "only the injected form fails: {f}");
        assert_eq!(f.got.unwrap() ^ f.expected, 1, "{f}");
        assert!(f.to_string().contains("global.add.u32"));
    }
    let vcd = r.vcd.expect("a failure waveform");
    assert_eq!(vcd.path, path);
    let first = &r.failures[0];
    assert_eq!(vcd.cycle, first.cycle, "the waveform keeps the run's cycle numbers");
    let w = read(&path);
    let c = first.cycle + hw::ALU_LATENCY as u64;
    let (_, in_valid, _, _) = w.at[&(first.cycle * CLOCK_PERIOD_NS)];
    assert_eq!(in_valid, 1, "the failing op is driven in the cycle the report names");
    let (_, _, out_valid, out_data) = w.at[&(c * CLOCK_PERIOD_NS)];
    assert_eq!(out_valid, 1);
    assert_eq!(out_data & result_mask(bad), first.got.unwrap(), "the waveform shows the RTL's result");
}
