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

/// The ALU as one model and the split model, driven alike.
struct Both {
    full: RtlAlu,
    split: RtlAlu,
    a: Vec<u128>,
    b: Vec<u128>,
}

impl Both {
    fn new() -> Self {
        let (full, split) = (RtlAlu::new(), RtlAlu::split());
        assert!(split.is_split() && !full.is_split());
        Both { full, split, a: Vec::new(), b: Vec::new() }
    }

    /// Runs `ops` through both and asserts that every result (all 128 bits) and the cycle
    /// counts agree; `at` says where in the test a failure is.
    fn run(&mut self, ops: &[AluOp], seed: u64, at: &str) {
        self.a.clear();
        self.b.clear();
        self.full.run(ops, &mut self.a).unwrap();
        self.split.run(ops, &mut self.b).unwrap();
        assert_eq!(self.a.len(), self.b.len());
        for (i, ((x, y), op)) in self.a.iter().zip(&self.b).zip(ops).enumerate() {
            assert_eq!(
                x,
                y,
                "seed {seed:#x}: {at}, operation {i} ({}, old {}, b {}): full model {}, split model {}",
                op.form,
                words(op.old),
                words(op.b),
                words(*x),
                words(*y)
            );
        }
        assert_eq!(self.full.cycle(), self.split.cycle(), "seed {seed:#x}: the models' cycle counts part after {at}");
    }

    fn idle(&mut self, cycles: u64) {
        self.full.idle(cycles);
        self.split.idle(cycles);
    }
}

/// Every result bit (all 128, not only the form's), the out_form and the latency of every
/// operation are the full model's, over random operations with idle gaps of 0 to 40 cycles
/// between batches of 1 to 3000 operations (the gaps put units to sleep mid-pipeline).
#[test]
fn split_model_matches_the_full_model() {
    let seed = stimulus::seed_from_env().expect("REDUNIT_SEED");
    println!("rtl_split equivalence seed {seed:#x} (rerun with REDUNIT_SEED={seed:#x})");
    let mut both = Both::new();
    let mut stim = Stimulus::new(seed);
    let mut rng = seed ^ 0x5bd1_e995;
    let mut next = move || sim::splitmix64_next(&mut rng);
    let mut ops = Vec::<AluOp>::new();
    let mut total = 0usize;
    while total < 400_000 {
        let k = 1 + (next() % 3000) as usize;
        ops.clear();
        stim.fill(k, &mut ops);
        both.run(&ops, seed, &format!("the batch of {k} after {total} operations"));
        total += k;
        both.idle(next() % 41);
    }
}

/// One operation of each form alone, then idle cycles, on both models: each unit model then
/// holds a single operation in flight when the split model's chunk ends, and must still give
/// it out after its lane latency (a flush that gave results early failed here).
#[test]
fn split_model_single_operations_match_the_full_model() {
    let seed = stimulus::seed_from_env().expect("REDUNIT_SEED");
    println!("rtl_split single-operation seed {seed:#x} (rerun with REDUNIT_SEED={seed:#x})");
    let mut both = Both::new();
    let mut stim = Stimulus::new(seed);
    for round in 0..3 {
        for form in Form::all() {
            let op = stim.op(form);
            both.run(std::slice::from_ref(&op), seed, &format!("round {round}, {form} alone"));
            both.idle(round);
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
    assert_eq!(
        r.mismatches,
        0,
        "seed {seed:#x}: {} mismatches (stopped: {})\n{}",
        r.mismatches,
        r.stopped,
        list.join("\n")
    );
    assert_eq!(r.ops, 1_200_000);
    assert_eq!(r.forms.len(), Form::all().len(), "every form covered");
}
