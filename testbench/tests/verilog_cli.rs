//! `redunit verilog` as other flows take it: the top module named for its block (or
//! `--module`), the same netlist as `hw` generates up to that name, `verilator --lint-only
//! -Wall FILE.v FILE.vlt` clean with the waiver file written beside it, and the FuseSoC core's
//! `lint` target (ignored by default: it needs FuseSoC from scripts/setup-synth.sh; CI runs it).

mod common;
use common::{redunit, text};
use std::path::{Path, PathBuf};
use std::process::Command;

fn out_dir(tag: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("verilog_cli_{tag}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `verilator --lint-only -Wall v vlt` and returns (success, stderr).
fn lint(v: &Path) -> (bool, String) {
    let out = Command::new("verilator")
        .args(["--lint-only", "-Wall"])
        .arg(v)
        .arg(v.with_extension("vlt"))
        .output()
        .expect("verilator runs (scripts/setup.sh installs it)");
    (out.status.success(), text(&out.stderr))
}

#[test]
fn each_top_is_named_for_its_block_and_lints_clean_with_its_waivers() {
    let dir = out_dir("tops");
    for (top, module) in [
        ("unit", "redunit_unit"),
        ("alu", "redunit_alu"),
        ("redux", "redunit_redux"),
        ("warp", "redunit_warp"),
        ("axi", "redunit_axi"),
        ("int-alu", "redunit_int_alu"),
    ] {
        let v = dir.join(format!("{module}.v"));
        let out = redunit(&["verilog", "--top", top, "-o", v.to_str().unwrap()], "");
        assert!(out.status.success(), "{top}: {}", text(&out.stderr));
        assert!(text(&out.stdout).contains(&format!("(module {module},")), "{}", text(&out.stdout));
        let src = std::fs::read_to_string(&v).unwrap();
        assert!(src.contains(&format!("\nmodule {module}(")), "{top}: no module {module}");
        assert!(!src.contains("\nmodule top"), "{top}: a module still named top");
        let (ok, err) = lint(&v);
        assert!(
            ok && err.trim().is_empty(),
            "{top}: verilator -Wall with {}:\n{err}",
            v.with_extension("vlt").display()
        );
        assert!(v.with_extension("core").exists());
    }
}

#[test]
fn the_written_netlist_is_hws_up_to_the_module_names() {
    let dir = out_dir("same");
    let v = dir.join("u.v");
    let out = redunit(&["verilog", "--module", "my_unit", "-o", v.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let src = std::fs::read_to_string(&v).unwrap();
    // Two header lines (what wrote it; the one-file waiver), then the renamed Verilog.
    let body: String = src.lines().skip(2).map(|l| format!("{l}\n")).collect();
    let want = hw::unit_verilog(sim::memory::DEFAULT_MEM_BYTES);
    assert_eq!(body.replace("my_unit", "top"), want, "the netlist differs beyond the module names");
    assert_ne!(body, want);
}

#[test]
fn a_module_name_that_is_not_an_identifier_is_refused() {
    let dir = out_dir("bad");
    let v = dir.join("u.v");
    let out = redunit(&["verilog", "--top", "alu", "--module", "2fast", "-o", v.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--module \"2fast\""), "{}", text(&out.stderr));
    assert!(!v.exists(), "nothing written for a refused name");
}

/// The core's `lint` target through FuseSoC: clean with the waivers, failing without them (so
/// the target does lint the file).
#[test]
#[ignore = "needs FuseSoC: scripts/setup-synth.sh, then cargo test --release -p testbench --test verilog_cli -- --ignored"]
fn fusesoc_lints_the_unit_with_its_core() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let fusesoc = root.join("synth/.venv/bin/fusesoc");
    assert!(fusesoc.exists(), "FuseSoC is not installed (synth/.venv/bin/fusesoc missing): run scripts/setup-synth.sh");
    let dir = out_dir("fusesoc");
    let v = dir.join("redunit_unit.v");
    assert!(
        redunit(&["verilog", "--top", "alu", "--module", "redunit_unit", "-o", v.to_str().unwrap()], "")
            .status
            .success()
    );
    let run = || {
        let _ = std::fs::remove_dir_all(dir.join("build"));
        Command::new(&fusesoc)
            .current_dir(&dir)
            .args(["--cores-root", "."])
            .args(["run", "--target", "lint", "redunit:redunit:redunit_unit"])
            .output()
            .unwrap()
    };
    let out = run();
    assert!(out.status.success(), "{}{}", text(&out.stdout), text(&out.stderr));
    std::fs::write(v.with_extension("vlt"), "`verilator_config\n").unwrap();
    let out = run();
    assert!(!out.status.success(), "the lint target passed without the waivers: it did not lint");
}
