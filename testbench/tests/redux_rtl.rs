//! Cosimulation of the Verilated `redux.sync` block against the golden model: all 17 forms
//! interleaved one instruction per cycle (f32 included), masks full, single-lane, sparse,
//! random and empty (the block's defined identity), sources random and special; the shim
//! checks the latency, `out_form`/`out_mask` and the per-lane vector of every instruction.

use sim::redux::{ReduxForm, reduce};
use testbench::redux::{ReduxEngine, ReduxInst, RtlRedux, random_inst};

fn seed() -> u64 {
    let s = std::env::var("REDUNIT_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x5eed);
    eprintln!("redux_rtl: seed {s} (rerun with REDUNIT_SEED={s})");
    s
}

#[test]
fn rtl_matches_the_model_on_random_instructions_of_all_17_forms() {
    let forms = ReduxForm::all();
    let mut state = seed();
    let insts: Vec<ReduxInst> = (0..200_000).map(|k| random_inst(&mut state, forms[k % forms.len()], true)).collect();
    assert!(insts.iter().filter(|i| i.mask == 0).count() > 1000, "empty masks are covered");
    let mut rtl = RtlRedux::new();
    let mut got = Vec::new();
    // Two batches: the pipeline state carries over from one to the next.
    let (a, b) = insts.split_at(77_777);
    rtl.execute(a, &mut got).unwrap();
    rtl.idle(3);
    rtl.execute(b, &mut got).unwrap();
    let mut bad = 0;
    for (i, g) in insts.iter().zip(&got) {
        let want = reduce(i.form, i.mask, &i.src);
        if *g != want {
            bad += 1;
            if bad <= 10 {
                eprintln!("{} mask={:08x} src={:08x?}: rtl {g:08x}, model {want:08x}", i.form, i.mask, i.src);
            }
        }
    }
    assert_eq!(bad, 0, "{bad} of {} redux results differ", insts.len());
}

#[test]
fn an_empty_batch_is_fine_and_the_cycle_counts_one_per_instruction() {
    let mut rtl = RtlRedux::new();
    let mut out = Vec::new();
    rtl.execute(&[], &mut out).unwrap();
    assert!(out.is_empty());
    let before = rtl.cycle();
    let mut state = 1;
    let insts: Vec<ReduxInst> = (0..100).map(|_| random_inst(&mut state, ReduxForm::all()[0], false)).collect();
    rtl.execute(&insts, &mut out).unwrap();
    // 100 issue cycles, the drain of REDUX_LATENCY, and one more look for a stray result.
    assert_eq!(rtl.cycle() - before, 100 + hw::REDUX_LATENCY as u64 + 1);
}
