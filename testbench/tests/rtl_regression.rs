//! The Verilated ALU against the golden model and the H100 captures.
//!
//! `random_regression_matches_the_golden_model` prints its seed; rerun a failure with
//! `REDUNIT_SEED=<seed> cargo test --release -p testbench --test rtl_regression`.

use std::path::PathBuf;

use sim::Form;
use testbench::conformance;
use testbench::cosim::{self, MAX_ERRORS};
use testbench::engine::AluOp;
use testbench::rtl::RtlAlu;
use testbench::stimulus::{self, Stimulus};

/// Random operations per run (across all 82 forms).
const OPS: u64 = 1_200_000;

fn fail_vcd(tag: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("redunit-fail-{tag}.vcd"))
}

#[test]
fn random_regression_matches_the_golden_model() {
    let seed = stimulus::seed_from_env().expect("REDUNIT_SEED");
    println!("rtl_regression seed {seed:#x} (rerun with REDUNIT_SEED={seed:#x})");
    let mut rtl = RtlAlu::new();
    let path = fail_vcd(&format!("{seed:#x}"));
    let r = cosim::random_regression(&mut rtl, seed, OPS, MAX_ERRORS, Some(&path), |_| {}).unwrap();
    println!("{} ops over {} forms in {:.2} s ({:.2} M ops/s)", r.ops, r.forms.len(), r.seconds, r.ops_per_sec() / 1e6);
    if r.mismatches > 0 {
        let list: Vec<String> = r.failures.iter().map(|f| format!("  {f}")).collect();
        let vcd =
            r.vcd.as_ref().map_or("none".into(), |v| format!("{} ({})", v.path.display(), cosim::vcd_time(v.cycle)));
        panic!(
            "seed {seed:#x}: {} mismatches in {} ops (stopped: {})\n{}\nwaveform: {vcd}",
            r.mismatches,
            r.ops,
            r.stopped,
            list.join("\n")
        );
    }
    assert_eq!(r.ops, OPS);
    assert_eq!(r.forms.len(), Form::all().len(), "every form covered");
}

#[test]
fn all_h100_vectors_pass_through_the_rtl() {
    let data = conformance::default_data_dir();
    let forms = conformance::vector_forms(&data).unwrap();
    assert_eq!(forms.len(), 82);
    let mut rtl = RtlAlu::new();
    let mut bad = Vec::new();
    let mut rows = 0;
    for (form, path) in &forms {
        let vectors = conformance::load_vectors(path, *form).unwrap();
        let r = conformance::check_vectors(*form, &vectors, &mut rtl).unwrap();
        rows += r.rows;
        if let Some(m) = r.first.first() {
            let w = form.elem_bits();
            bad.push(format!(
                "{form}: {}/{} rows differ; first: row {} init {} b {} expected {} got {}",
                r.mismatches,
                r.rows,
                m.row,
                testbench::hex::format(m.vector.init as u128, w),
                testbench::hex::format(m.vector.b as u128, w),
                testbench::hex::format(m.vector.result as u128, w),
                testbench::hex::format(m.got as u128, w)
            ));
        }
    }
    assert!(bad.is_empty(), "{} of 82 forms differ from H100 ({rows} rows):\n{}", bad.len(), bad.join("\n"));
}

/// The pipeline contract, independent of the datapath: one result per operation, in order,
/// with its form on out_form, `hw::ALU_LATENCY` cycles after it went in, across batches of
/// any size, with no spurious out_valid.
#[test]
fn pipeline_keeps_order_latency_and_forms() {
    let mut rtl = RtlAlu::new();
    let mut stim = Stimulus::new(0x5eed);
    let mut out = Vec::new();
    for n in [1usize, 2, 3, hw::ALU_LATENCY, hw::ALU_LATENCY + 1, 100, 8192, 20_000] {
        let mut ops: Vec<AluOp> = Vec::new();
        stim.fill(n, &mut ops);
        let before = rtl.cycle();
        out.clear();
        rtl.run(&ops, &mut out).unwrap_or_else(|e| panic!("batch of {n}: {e:#}"));
        assert_eq!(out.len(), n);
        assert_eq!(rtl.last_batch_start(), before);
        assert!(rtl.cycle() >= before + (n + hw::ALU_LATENCY) as u64);
    }
}
