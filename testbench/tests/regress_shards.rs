//! `redunit regress --shard K/N --json` and `redunit merge` through the built binary: the
//! shards of a regression add up to the unsharded run of the same sizes, a mismatch injected
//! into one shard (the checker's test hook, not a design change) is reported by merge with a
//! command that reproduces it alone, bad result files are refused, and
//! `scripts/regress-local.sh` runs and merges the shards. Small sizes: a few seconds each.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// The sizes of every regression here (the H100 captures always run in full).
const SIZES: [&str; 12] = [
    "--ops",
    "20000",
    "--unit-requests",
    "4000",
    "--redux-insts",
    "3001",
    "--warp-insts",
    "201",
    "--async-traces",
    "5",
    "--space-rows",
    "4003",
];
const SEED: &str = "0x5eed";

/// A fresh working folder (regress writes synth/out/ and target/ under the current folder).
fn workdir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn redunit(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_redunit"));
    c.current_dir(dir).args(args).env_remove("REDUNIT_FLIP_GOLDEN");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Runs shard `k` of `n` into `dir/shard-k.json`; returns its output.
fn shard(dir: &Path, k: u64, n: u64, env: &[(&str, &str)]) -> Output {
    let (sh, out) = (format!("{k}/{n}"), format!("shard-{k}.json"));
    let mut args = vec!["regress", "--seed", SEED, "--shard", &sh, "--json", &out];
    args.extend(SIZES);
    redunit(dir, &args, env)
}

fn merge(dir: &Path, n: u64) -> Output {
    let files: Vec<String> = (0..n).map(|k| format!("shard-{k}.json")).collect();
    let mut args = vec!["merge", "--json", "merged.json"];
    args.extend(files.iter().map(String::as_str));
    redunit(dir, &args, &[])
}

/// The counts of a result that must not depend on the split: per block its count and
/// mismatches, the per-form counts of the captures and of the redux stream (whose forms follow
/// the instruction's place in the whole stream), the forms covered.
fn totals(r: &Value) -> Value {
    let mut blocks = serde_json::Map::new();
    for (name, b) in r["blocks"].as_object().unwrap() {
        let mut t = serde_json::json!({ "count": b["count"], "mismatches": b["mismatches"], "unit": b["unit"] });
        if ["vectors", "redux-h100", "redux"].contains(&name.as_str()) {
            t["per_form"] = b["per_form"].clone();
        }
        if name == "async" {
            t["rows"] = b["extra"]["rows"].clone();
        }
        blocks.insert(name.clone(), t);
    }
    serde_json::json!({ "blocks": blocks, "forms_covered": r["forms_covered"], "mismatches": r["mismatches"], "sizes": r["sizes"] })
}

#[test]
fn four_shards_merge_to_the_totals_of_one_run() {
    let dir = workdir("regress-shards-totals");
    let mut args = vec!["regress", "--seed", SEED, "--json", "whole.json"];
    args.extend(SIZES);
    let whole = redunit(&dir, &args, &[]);
    assert!(whole.status.success(), "{}{}", text(&whole.stdout), text(&whole.stderr));
    for k in 0..4 {
        let o = shard(&dir, k, 4, &[]);
        assert!(o.status.success(), "shard {k}: {}{}", text(&o.stdout), text(&o.stderr));
    }
    let m = merge(&dir, 4);
    let out = text(&m.stdout);
    assert!(m.status.success(), "{out}{}", text(&m.stderr));
    assert!(out.contains("coverage over all shards: ") && out.trim_end().ends_with("PASS"), "{out}");
    let (w, s) = (json(&dir.join("whole.json")), json(&dir.join("merged.json")));
    assert_eq!(totals(&s), totals(&w));
    assert_eq!(w["blocks"]["alu"]["count"], 20000);
    assert_eq!(w["blocks"]["vectors"]["count"], 950912);
    assert_eq!(w["blocks"]["unit"]["count"], 4000);
    assert_eq!(w["blocks"]["async"]["extra"]["rows"], 15000);
    assert_eq!(w["blocks"]["spaces"]["count"], 4003);
    // Each shard recorded its own seed; shard 0's is the master seed, as in the whole run.
    let seeds: Vec<&str> = s["shards"].as_array().unwrap().iter().map(|x| x["seed"].as_str().unwrap()).collect();
    assert_eq!(seeds.len(), 4);
    assert_eq!(seeds[0], SEED);
    assert_eq!(w["shards"][0]["seed"], SEED);
    assert!(seeds.windows(2).all(|p| p[0] != p[1]), "{seeds:?}");
    // Coverage over all shards: every point of the unit hit, as in the whole run.
    assert_eq!(s["coverage"]["hit"], s["coverage"]["total"]);
    assert_eq!(s["coverage"]["holes"], serde_json::json!([]), "{out}");
    assert_eq!(s["pass"], true);
}

#[test]
fn an_injected_mismatch_is_reported_by_merge_with_its_rerun_command() {
    let dir = workdir("regress-shards-failure");
    for k in 0..4 {
        let env: &[(&str, &str)] = if k == 2 { &[("REDUNIT_FLIP_GOLDEN", "321")] } else { &[] };
        let o = shard(&dir, k, 4, env);
        assert_eq!(o.status.code(), Some(if k == 2 { 1 } else { 0 }), "shard {k}: {}", text(&o.stdout));
    }
    let m = merge(&dir, 4);
    let out = text(&m.stdout);
    assert_eq!(m.status.code(), Some(1), "{out}{}", text(&m.stderr));
    let s = json(&dir.join("merged.json"));
    assert_eq!(s["mismatches"], 1);
    let f = &s["failures"].as_array().unwrap()[..];
    assert_eq!(f.len(), 1, "{f:?}");
    let (f, rerun) = (&f[0], f[0]["rerun"].as_str().unwrap());
    assert_eq!((f["block"].as_str(), &f["shard"]), (Some("alu"), &serde_json::json!({"index": 2, "count": 4})));
    assert!(f["first"].as_str().unwrap().starts_with("op 321 "), "{f}");
    assert!(out.contains(&format!("rerun: {rerun}")), "{out}");
    assert!(rerun.contains("--shard 2/4") && rerun.contains("--only alu") && rerun.contains("--vcd "), "{rerun}");
    // The printed command reproduces that failure alone, and writes its waveform.
    let mut words: Vec<&str> = rerun.split_whitespace().collect();
    let mut env = vec![];
    while let Some((k, v)) = words[0].split_once('=') {
        env.push((k, v));
        words.remove(0);
    }
    assert_eq!(words[0], "redunit");
    let args: Vec<&str> = words[1..].iter().copied().chain(["--json", "rerun.json"]).collect();
    let r = redunit(&dir, &args, &env);
    assert_eq!(r.status.code(), Some(1), "{}", text(&r.stdout));
    let rj = json(&dir.join("rerun.json"));
    assert_eq!(rj["blocks"].as_object().unwrap().keys().collect::<Vec<_>>(), ["alu"]);
    assert_eq!(rj["failures"][0]["first"], f["first"]);
    assert_eq!(rj["failures"][0]["rerun"], f["rerun"]);
    let vcd = words.iter().position(|w| *w == "--vcd").map(|i| words[i + 1]).unwrap();
    assert!(dir.join(vcd).metadata().unwrap().len() > 0, "no waveform at {vcd}");
}

#[test]
fn merge_refuses_bad_and_incomplete_inputs() {
    let dir = workdir("regress-shards-bad");
    for k in 0..2 {
        let mut args = vec!["regress", "--seed", "7", "--only", "warp", "--warp-insts", "20"];
        let (sh, out) = (format!("{k}/2"), format!("shard-{k}.json"));
        args.extend(["--shard", &sh, "--json", &out]);
        assert!(redunit(&dir, &args, &[]).status.success());
    }
    std::fs::write(dir.join("junk.json"), "{ \"schema\": 3 }").unwrap();
    let cases: [(&[&str], &str); 4] = [
        (&["shard-0.json"], "shard 1/2 missing"),
        (&["shard-0.json", "shard-0.json"], "shard-0.json: shard 0/2 is also in shard-0.json"),
        (&["shard-0.json", "junk.json"], "junk.json: not a `redunit regress --json` result"),
        (&["shard-0.json", "nothere.json"], "nothere.json: cannot read it"),
    ];
    for (files, msg) in cases {
        let o = redunit(&dir, &[&["merge"], files].concat(), &[]);
        assert_eq!(o.status.code(), Some(2), "{files:?}");
        assert!(text(&o.stderr).contains(msg), "{files:?}: {}", text(&o.stderr));
    }
    let ok = redunit(&dir, &["merge", "shard-1.json", "shard-0.json"], &[]);
    assert!(ok.status.success(), "{}", text(&ok.stdout));
    let bad = redunit(&dir, &["regress", "--shard", "4/4"], &[]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn the_local_script_runs_the_shards_and_merges_them() {
    let dir = workdir("regress-shards-local");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/regress-local.sh");
    let o = Command::new("bash")
        .arg(script)
        .args([
            "3",
            "--seed",
            "9",
            "--ops",
            "3000",
            "--unit-requests",
            "3000",
            "--redux-insts",
            "100",
            "--warp-insts",
            "30",
            "--async-traces",
            "2",
        ])
        .current_dir(&dir)
        .env("REDUNIT", env!("CARGO_BIN_EXE_redunit"))
        .env("OUT", dir.join("results"))
        .env("JOBS", "2")
        .output()
        .unwrap();
    let out = text(&o.stdout);
    assert!(o.status.success(), "{out}{}", text(&o.stderr));
    assert!(out.contains("redunit merge: 3 shards of seed 0x9") && out.trim_end().ends_with("PASS"), "{out}");
    let m = json(&dir.join("results/merged.json"));
    assert_eq!(m["blocks"]["alu"]["count"], 3000);
    assert_eq!(m["shards"].as_array().unwrap().len(), 3);
}
