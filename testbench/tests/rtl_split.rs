//! The split model of the ALU (`build_split.rs`, `csrc/alu_split_shim.cpp`: the ALU's own
//! logic and each unit kind as separate Verilated models, a unit clocked only when an
//! operation enters it) against the ALU as one model, and against the golden model.
//!
//! Both tests print their seed; rerun a failure with
//! `REDUNIT_SEED=<seed> cargo test --release -p testbench --test rtl_split`.

use sim::Form;
use testbench::cosim::{self, MAX_ERRORS};
use testbench::engine::AluOp;
use testbench::rtl::RtlAlu;
use testbench::stimulus::{self, Stimulus};

fn words(v: u128) -> String {
    format!("{:032x}", v)
}

/// Every result bit (all 128, not only the form's), the out_form and the latency of every
/// operation are the full model's, over random operations with idle gaps of 0 to 40 cycles
/// between batches of 1 to 3000 operations (the gaps put units to sleep mid-pipeline).
#[test]
fn split_model_matches_the_full_model() {
    let seed = stimulus::seed_from_env().expect("REDUNIT_SEED");
    println!("rtl_split equivalence seed {seed:#x} (rerun with REDUNIT_SEED={seed:#x})");
    let mut full = RtlAlu::new();
    let mut split = RtlAlu::split();
    assert!(split.is_split() && !full.is_split());
    let mut stim = Stimulus::new(seed);
    let mut rng = seed ^ 0x5bd1_e995;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let (mut ops, mut a, mut b) = (Vec::<AluOp>::new(), Vec::new(), Vec::new());
    let mut total = 0usize;
    while total < 400_000 {
        let k = 1 + (next() % 3000) as usize;
        ops.clear();
        stim.fill(k, &mut ops);
        a.clear();
        b.clear();
        full.run(&ops, &mut a).unwrap();
        split.run(&ops, &mut b).unwrap();
        assert_eq!(a.len(), b.len());
        for (i, ((x, y), op)) in a.iter().zip(&b).zip(&ops).enumerate() {
            assert_eq!(
                x,
                y,
                "seed {seed:#x}: operation {} ({}, old {}, b {}): full model {}, split model {}",
                total + i,
                op.form,
                words(op.old),
                words(op.b),
                words(*x),
                words(*y)
            );
        }
        assert_eq!(full.cycle(), split.cycle(), "seed {seed:#x}: the models' cycle counts part after {total} operations");
        total += k;
        let gap = next() % 41;
        full.idle(gap);
        split.idle(gap);
    }
}

/// One operation of each form alone, then idle cycles, on both models: each unit model then
/// holds a single operation in flight when the split model's chunk ends, and must still give
/// it out after its lane latency (a flush that gave results early failed here).
#[test]
fn split_model_single_operations_match_the_full_model() {
    let seed = stimulus::seed_from_env().expect("REDUNIT_SEED");
    println!("rtl_split single-operation seed {seed:#x} (rerun with REDUNIT_SEED={seed:#x})");
    let mut full = RtlAlu::new();
    let mut split = RtlAlu::split();
    let mut stim = Stimulus::new(seed);
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for round in 0..3 {
        for form in Form::all() {
            let op = stim.op(form);
            a.clear();
            b.clear();
            full.run(std::slice::from_ref(&op), &mut a).unwrap();
            split.run(std::slice::from_ref(&op), &mut b).unwrap();
            assert_eq!(
                a,
                b,
                "seed {seed:#x}: round {round}, {form} alone (old {}, b {}): full model {}, split model {}",
                words(op.old),
                words(op.b),
                words(a[0]),
                words(b[0])
            );
            assert_eq!(full.cycle(), split.cycle());
            full.idle(round);
            split.idle(round);
        }
    }
}

#[test]
fn split_model_random_regression_matches_the_golden_model() {
    let seed = stimulus::seed_from_env().expect("REDUNIT_SEED");
    println!("rtl_split regression seed {seed:#x} (rerun with REDUNIT_SEED={seed:#x})");
    let mut rtl = RtlAlu::split();
    let path = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("redunit-split-fail-{seed:#x}.vcd"));
    let r = cosim::random_regression(&mut rtl, seed, 1_200_000, MAX_ERRORS, Some(&path), |_| {}).unwrap();
    println!("{} ops over {} forms in {:.2} s ({:.2} M ops/s)", r.ops, r.forms.len(), r.seconds, r.ops_per_sec() / 1e6);
    let list: Vec<String> = r.failures.iter().map(|f| format!("  {f}")).collect();
    assert_eq!(r.mismatches, 0, "seed {seed:#x}: {} mismatches (stopped: {})\n{}", r.mismatches, r.stopped, list.join("\n"));
    assert_eq!(r.ops, 1_200_000);
    assert_eq!(r.forms.len(), Form::all().len(), "every form covered");
}
