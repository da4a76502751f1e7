//! The pipeline-depth flags of `redunit verilog` / `redunit synth` (`hw::Config`): the depth
//! reaches the Verilog, and bad depths (or depths on the unit, phase 2) are refused with a
//! message and exit status 2.

mod common;
use common::{redunit, text};

fn verilog(args: &[&str]) -> String {
    let path = std::env::temp_dir().join(format!("redunit-depth-{}-{}.v", std::process::id(), args.join("_")));
    let p = path.to_str().unwrap();
    let mut a = vec!["verilog", "-o", p];
    a.extend_from_slice(args);
    let out = redunit(&a, "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    v
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
    // Default: the valid bit and form code delayed 3 cycles, the integer and min/max results
    // 2 (the adders keep no candidate cut).
    assert_eq!(kept_cuts(&d), 3 + 3 + 2 + 2 + 2, "delay registers of the default ALU");
    // Fastest clock: 4 f32 and 2 f64 adders keep every cut, and the shallower lanes
    // (integer, min/max, f16/bf16 add) are delayed to the f32/f64 latency.
    let adder = kept_cuts(&verilog(&["--top", "fp-add-f32", "--preset", "fastest-clock"]));
    let adder64 = kept_cuts(&verilog(&["--top", "fp-add-f64", "--preset", "fastest-clock"]));
    assert!(kept_cuts(&deep) > 4 * adder + 2 * adder64, "{} kept cuts", kept_cuts(&deep));
}

#[test]
fn int_stages_cuts_the_integer_alu_in_halves() {
    // 14 candidate cuts between the halves: all wires at 1 stage, all registers at 2.
    assert_eq!(kept_cuts(&verilog(&["--top", "int-alu"])), 0);
    assert_eq!(kept_cuts(&verilog(&["--top", "int-alu", "--int-stages", "2"])), 14);
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
        let out = redunit(&[cmd, "--top", "unit", "--fp-stages", "5", "--no-save"][..if cmd == "synth" { 6 } else { 5 }], "");
        assert_eq!(out.status.code(), Some(2), "{cmd}");
        let err = text(&out.stderr);
        assert!(err.contains("phase 2") && err.contains("--top unit"), "{cmd}: {err}");
    }
    // Blocks without depth cuts (the other lanes, the warp and async tops) refuse the flags
    // instead of ignoring them.
    for top in ["fp-add16", "warp", "async"] {
        let out = redunit(&["verilog", "-o", "/dev/null", "--top", top, "--fp-stages", "5"], "");
        assert_eq!(out.status.code(), Some(2), "{top}");
        let err = text(&out.stderr);
        assert!(err.contains(&format!("--top {top} takes the default pipeline depths only")), "{top}: {err}");
    }
}
