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
    // Blocks without depth cuts (the ALU, the other lanes, the warp and async tops) refuse
    // the flags instead of ignoring them.
    for top in ["alu", "int-alu", "fp-add16", "warp", "async"] {
        let out = redunit(&["verilog", "-o", "/dev/null", "--top", top, "--fp-stages", "5"], "");
        assert_eq!(out.status.code(), Some(2), "{top}");
        let err = text(&out.stderr);
        assert!(err.contains(&format!("--top {top} takes the default pipeline depths only")), "{top}: {err}");
    }
}
