//! The whole ALU against `sim::apply`: every one of the 82 forms, special and random
//! operands, one operation per cycle with the forms interleaved, each result checked
//! `ALU_LATENCY` cycles after its request (`Config::alu_latency` for other depths), with
//! `out_valid`/`out_form` and zeroed high bits.

mod common;
use common::*;
use hw::{ALU_LATENCY, Config, ReductionAlu};
use rust_hdl::prelude::*;
use sim::Form;

#[test]
#[ignore = "minutes in rust-hdl's simulator (the Verilated ALU runs every form in the default run); CI runs it: cargo test --release -p hw -- --ignored"]
fn alu_executes_all_82_forms_like_the_golden_model() {
    check_alu(&Config::default(), 150, true, "alu", false);
}

/// The ALU that decodes its operand isolation and output select a cycle ahead
/// (`with_early_hold`, as the unit builds it): driven with the next cycle's valid bit
/// and form on `pre_valid`/`pre_form`, every form interleaved with every other unit's.
#[test]
#[ignore = "a minute and a half in rust-hdl's simulator; CI runs it: cargo test --release -p hw -- --ignored"]
fn alu_with_early_hold_matches_the_golden_model() {
    check_alu(&Config::default(), 30, true, "alu-early", true);
}

/// The deepest configuration (every adder cut kept, the other lanes delayed to the f32/f64
/// adders' latency): fewer cases, because rust-hdl's simulator is slow on the deeper design.
#[test]
fn alu_at_the_fastest_clock_configuration_matches_the_golden_model() {
    let cfg = Config::fastest_clock();
    assert!(cfg.alu_latency() > ALU_LATENCY);
    check_alu(&cfg, 20, false, "alu-fastest", false);
}

fn check_alu(cfg: &Config, per_form: usize, specials: bool, name: &str, early: bool) {
    let forms = Form::all();
    assert_eq!(forms.len(), 82);
    let mut rng = Rng(seed(name));
    // (valid, form, old, b); an idle cycle now and then.
    let mut cases: Vec<(bool, Form, u128, u128)> = Vec::new();
    for _ in 0..per_form {
        for &form in &forms {
            let (m, b) = alu_operands(&mut rng, form);
            cases.push((true, form, m, b));
        }
        let f = forms[rng.below(forms.len())];
        cases.push((false, f, 0, 0));
    }
    // Every pair of element specials in lane 0 of each scalar form.
    for &form in forms.iter().filter(|f| specials && !f.is_vector()) {
        let sp = elem_specials(form.ty());
        for &a in &sp {
            for &b in &sp {
                cases.push((true, form, a as u128, b as u128));
            }
        }
    }
    if early {
        // (A first idle cycle: the registered decode holds the first operation's then.)
        cases.insert(0, (false, forms[0], 0, 0));
    }
    // Each case with the next one's valid bit and form (`pre_valid`, `pre_form`).
    let next: Vec<(bool, u16)> =
        (0..cases.len()).map(|i| cases.get(i + 1).map_or((false, 0), |c| (c.0, c.1.code()))).collect();
    let driven: Vec<_> = cases.iter().zip(&next).map(|(&c, &n)| (c, n)).collect();
    let mut uut = ReductionAlu::with_early_hold(cfg, early);
    uut.connect_all();
    let got = stream(
        &mut uut,
        cfg.alu_latency(),
        &driven,
        |u, c| u.clock.next = c.into(),
        |u, &((valid, form, m, b), (nv, nf))| {
            u.pre_valid.next = nv;
            u.pre_form.next = (nf as u64).into();
            u.in_valid.next = valid;
            u.in_form.next = (form.code() as u64).into();
            u.in_old.next = b128(m);
            u.in_b.next = b128(b);
        },
        |u| (u.out_valid.val(), u.out_form.val().to_u64() as u16, u128_of(u.out_data.val())),
    );
    let mut bad = 0;
    for (&(valid, form, m, b), &(gv, gf, gd)) in cases.iter().zip(&got) {
        assert_eq!(gv, valid, "out_valid");
        assert_eq!(gf, form.code(), "out_form");
        if !valid {
            continue;
        }
        let want = sim::apply(form, m, b);
        if gd != want {
            bad += 1;
            if bad <= 10 {
                eprintln!("{form}: old={m:032x} b={b:032x}\n  got  {gd:032x}\n  want {want:032x}");
            }
        }
    }
    assert_eq!(bad, 0, "{bad} of {} ALU results wrong (depths {})", cases.len(), cfg.tag());
}

#[test]
fn latency_is_the_same_for_every_form() {
    for form in Form::all() {
        assert_eq!(hw::latency(form), ALU_LATENCY, "{form}");
    }
    assert!((2..=4).contains(&ALU_LATENCY));
    assert_eq!(Config::default().alu_latency(), ALU_LATENCY);
}

/// The ALU the unit uses (`fp_only`, at the unit's depths and with its replicas) after
/// `synth_ecp5` of the ECP5 flow's Verilog (its carry cells instantiated): nothing of its
/// integer ALU is left, neither a cell flattened from the `int_alu` instance nor a flip-flop or
/// carry cell on its nets. An f32 adder's instance keeps both, so the names the check reads
/// survive synthesis.
#[test]
#[ignore = "a synth_ecp5 run, a minute or two; CI runs it: cargo test --release -p hw -- --ignored"]
fn fp_only_alu_leaves_no_integer_alu_after_synthesis() {
    let cfg = Config::unit_default();
    let mut alu = ReductionAlu::with_early_hold(&cfg, true).with_old_replicas().fp_only();
    let counts =
        |inst: &str| format!("select -count c:{inst}.*; select -count w:{inst}.* %ci1 t:TRELLIS_FF t:CCU2C %u %i; ");
    let script = format!(
        "read_verilog -DREDUNIT_ECP5 top.v; synth_ecp5 -top top; check -assert; {}{}",
        counts("int_alu"),
        counts("add_f32$0")
    );
    let log = yosys("generic_synth", "alu_fp_only_ecp5", &hw::verilog::verilog(&mut alu), &script);
    let n: Vec<usize> =
        log.lines().filter_map(|l| l.trim().strip_suffix(" objects.").and_then(|n| n.parse().ok())).collect();
    assert_eq!(n.len(), 4, "expected four `select -count` results in the Yosys log, got {n:?}");
    eprintln!("(cells, flip-flops and carry cells): int_alu ({}, {}), add_f32$0 ({}, {})", n[0], n[1], n[2], n[3]);
    assert!(n[2] > 0 && n[3] > 0, "the f32 adder's cells lost their instance names: {n:?}");
    assert_eq!((n[0], n[1]), (0, 0), "the fp-only ALU keeps (part of) its integer ALU");
}
