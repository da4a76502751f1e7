//! The pipeline-depth flags of `redunit verilog` / `redunit synth` (`hw::Config`): the depth
//! reaches the Verilog, and bad depths (or depths on blocks without them) are refused with a
//! message and exit status 2.

mod common;
use common::{redunit, text};

fn verilog(args: &[&str]) -> String {
    // (A number per call: tests run in parallel and some ask for the same Verilog.)
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("redunit-depth-{}-{n}-{}.v", std::process::id(), args.join("_")));
    let p = path.to_str().unwrap();
    let mut a = vec!["verilog", "-o", p];
    a.extend_from_slice(args);
    let out = redunit(&a, "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(path.with_extension("vlt"));
    let _ = std::fs::remove_file(path.with_extension("core"));
    // The first line names the files beside it (this call's own names): the netlist follows.
    v.split_once('\n').map_or(v.clone(), |(_, rest)| rest.to_string())
}

/// Candidate cuts: the `Cut` modules (each has an `on` localparam).
fn cuts(v: &str) -> usize {
    v.matches("localparam  on = ").count()
}

/// Kept cuts: the `Cut` modules whose `on` localparam is 1.
fn kept_cuts(v: &str) -> usize {
    v.matches("localparam  on = 1'b1;").count()
}

#[test]
fn fp_stages_sets_the_number_of_kept_cuts() {
    let d = verilog(&["--top", "fp-add-f32"]);
    let deep = verilog(&["--top", "fp-add-f32", "--fp-stages", "14"]);
    let preset = verilog(&["--top", "fp-add-f32", "--preset", "fastest-clock"]);
    assert_eq!(kept_cuts(&d), 0, "the default adder keeps no candidate cut");
    assert!(kept_cuts(&deep) > 8, "14 stages keep every cut group: {}", kept_cuts(&deep));
    assert_eq!(deep, preset, "--preset fastest-clock is --fp-stages 14");
    assert!(kept_cuts(&verilog(&["--top", "fp-add-f32", "--fp-stages", "4"])) < kept_cuts(&deep));
}

#[test]
fn the_alu_takes_the_adder_depth_and_delays_its_other_lanes() {
    let d = verilog(&["--top", "alu"]);
    let deep = verilog(&["--top", "alu", "--preset", "fastest-clock"]);
    // Default: the valid bit and form code delayed 3 cycles, the result select 2 (its third
    // register is the decoded one-hot select, a plain register), the integer and min/max
    // results 2 (the adders keep no candidate cut).
    assert_eq!(kept_cuts(&d), 3 + 3 + 2 + 2 + 2 + 2, "delay registers of the default ALU");
    // Fastest clock: 4 f32 and 2 f64 adders keep every cut, and the shallower lanes
    // (integer, min/max, f16/bf16 add) are delayed to the f32/f64 latency.
    let adder = kept_cuts(&verilog(&["--top", "fp-add-f32", "--preset", "fastest-clock"]));
    let adder64 = kept_cuts(&verilog(&["--top", "fp-add-f64", "--preset", "fastest-clock"]));
    assert!(kept_cuts(&deep) > 4 * adder + 2 * adder64, "{} kept cuts", kept_cuts(&deep));
}

#[test]
fn int_stages_cuts_the_integer_alu_in_halves() {
    // The candidate cuts between the halves (the `c1_` fields of `IntAlu`): all wires at 1
    // stage, all registers at 2.
    let one = verilog(&["--top", "int-alu"]);
    let two = verilog(&["--top", "int-alu", "--int-stages", "2"]);
    assert!(cuts(&one) > 0 && cuts(&one) == cuts(&two), "{} and {} cuts", cuts(&one), cuts(&two));
    assert_eq!(kept_cuts(&one), 0);
    assert_eq!(kept_cuts(&two), cuts(&two));
    assert_eq!(
        verilog(&["--top", "int-alu", "--int-stages", "2"]),
        verilog(&["--top", "int-alu", "--preset", "fastest-clock"])
    );
    let out = redunit(&["verilog", "-o", "/dev/null", "--top", "int-alu", "--int-stages", "3"], "");
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("--int-stages") && err.contains("1 to 2"), "{err}");
}

#[test]
fn bad_depths_are_refused_with_a_message() {
    let out = redunit(&["verilog", "-o", "/dev/null", "--top", "fp-add-f64", "--fp-stages", "2"], "");
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("--fp-stages") && err.contains("3 to 14"), "{err}");

    for cmd in ["verilog", "synth"] {
        let out =
            redunit(&[cmd, "--top", "unit", "--unit-regs", "2", "--no-save"][..if cmd == "synth" { 6 } else { 5 }], "");
        assert_eq!(out.status.code(), Some(2), "{cmd}");
        let err = text(&out.stderr);
        assert!(err.contains("--unit-regs 2") && err.contains("registered pipeline"), "{cmd}: {err}");
    }
    // Blocks without depth cuts (the min/max lane, the warp and async tops) refuse the flags
    // instead of ignoring them.
    for top in ["fp-minmax16", "warp", "async"] {
        for (flag, n) in [("--fp-stages", "5"), ("--fp16-stages", "5"), ("--int-stages", "2")] {
            let out = redunit(&["verilog", "-o", "/dev/null", "--top", top, flag, n], "");
            assert_eq!(out.status.code(), Some(2), "{top} {flag}");
            let err = text(&out.stderr);
            assert!(err.contains(&format!("--top {top} takes the default pipeline depths only")), "{top}: {err}");
        }
    }
}

#[test]
fn fp16_stages_sets_the_depth_of_the_f16_bf16_lane() {
    let d = verilog(&["--top", "fp-add16"]);
    let deep = verilog(&["--top", "fp-add16", "--fp16-stages", "9"]);
    let preset = verilog(&["--top", "fp-add16", "--preset", "fastest-clock"]);
    assert_eq!(kept_cuts(&d), 0, "the default lane keeps no candidate cut");
    assert!(!d.contains("localparam  on = "), "the default lane is the original one, without cuts");
    assert!(kept_cuts(&deep) > 6, "9 stages keep every cut group: {}", kept_cuts(&deep));
    assert_eq!(deep, preset, "--preset fastest-clock is --fp16-stages 9 on fp-add16");
    let four = kept_cuts(&verilog(&["--top", "fp-add16", "--fp16-stages", "4"]));
    assert!(0 < four && four < kept_cuts(&deep), "4 stages keep one cut group: {four}");
    // The other adders' flag at its default value is harmless; the preset sets each block's own depth.
    assert_eq!(verilog(&["--top", "fp-add16", "--fp-stages", "3"]), d);
    assert_eq!(
        verilog(&["--top", "fp-add-f32", "--preset", "fastest-clock"]),
        verilog(&["--top", "fp-add-f32", "--fp-stages", "14"])
    );
}

#[test]
fn fp16_stages_is_refused_where_it_does_not_apply() {
    for (args, flag) in [
        (&["--top", "fp-add16", "--fp16-stages", "2"][..], "--fp16-stages"),
        (&["--top", "fp-add16", "--fp16-stages", "10"][..], "--fp16-stages"),
    ] {
        let mut a = vec!["verilog", "-o", "/dev/null"];
        a.extend_from_slice(args);
        let out = redunit(&a, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.contains(flag) && err.contains("3 to 9"), "{args:?}: {err}");
    }
    // A depth flag of another block: refused by name, by `verilog` and `synth` alike.
    for cmd in ["verilog", "synth"] {
        for (top, flag, n, own) in [
            ("fp-add-f32", "--fp16-stages", "5", "--fp-stages"),
            ("fp-add-f64", "--fp16-stages", "5", "--fp-stages"),
            ("fp-add16", "--fp-stages", "5", "--fp16-stages"),
            ("int-alu", "--fp-stages", "5", "--int-stages"),
            ("fp-add-f32", "--int-stages", "2", "--fp-stages"),
        ] {
            let mut a = vec![cmd, "--top", top, flag, n];
            if cmd == "verilog" {
                a.extend_from_slice(&["-o", "/dev/null"]);
            } else {
                a.push("--no-save");
            }
            let out = redunit(&a, "");
            assert_eq!(out.status.code(), Some(2), "{cmd} {top} {flag}");
            let err = text(&out.stderr);
            assert!(
                err.contains(&format!("{flag}: --top {top} does not take it")) && err.contains(own),
                "{cmd} {top}: {err}"
            );
        }
    }
    let out = redunit(&["synth", "--top", "alu", "--unit-regs", "1", "--no-save"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--unit-regs: --top alu does not take it"), "{}", text(&out.stderr));
}

/// The unit takes every depth: `fastest-clock`, the unit's default configuration, keeps more
/// of the ALU's cuts than `most-ops-per-cycle`, the unit at its shallowest depths (one pipeline
/// at both: the RAM read through its output register), and the depth flags override either.
#[test]
fn the_unit_takes_the_depths_and_the_registered_pipeline() {
    let d = verilog(&["--top", "unit"]);
    let fast = verilog(&["--top", "unit", "--preset", "fastest-clock"]);
    let shallow = verilog(&["--top", "unit", "--preset", "most-ops-per-cycle"]);
    assert!(d == fast, "the unit's default configuration is fastest-clock");
    // One pipeline at every depth: both read the RAM through its output register; the depths
    // keep or drop the ALU's cuts.
    assert!(shallow.contains("rd_q <= ram[ra];"), "the shallowest unit reads through an output register");
    assert!(fast.contains("rd_q <= ram[ra];"), "the default unit reads through an output register");
    assert!(kept_cuts(&fast) > kept_cuts(&shallow) + 50, "{} vs {} kept cuts", kept_cuts(&fast), kept_cuts(&shallow));
    // `--unit-regs 1` names the one pipeline and changes nothing; 0 is refused with a message.
    assert!(verilog(&["--top", "unit", "--preset", "most-ops-per-cycle", "--unit-regs", "1"]) == shallow);
    let out = redunit(&["verilog", "-o", "/dev/null", "--top", "unit", "--unit-regs", "0"], "");
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("--unit-regs 0") && err.contains("one pipeline"), "{err}");
    assert!(verilog(&["--top", "unit", "--fp-stages", "3", "--fp16-stages", "3", "--int-stages", "1"]) == shallow);
    // A block alone keeps its shallowest depths by default.
    assert_eq!(verilog(&["--top", "fp-add-f32"]), verilog(&["--top", "fp-add-f32", "--preset", "most-ops-per-cycle"]));
}
