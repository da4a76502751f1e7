//! Builds the Verilated reduction ALU into the `redunit` binary and the tests.
//!
//! 1. `hw::alu_verilog()` writes the Verilog of the ALU (module `top`) to `$OUT_DIR/redunit.v`.
//! 2. Verilator compiles it twice, into `Valu` (no tracing, for speed) and `Valut` (`--trace`,
//!    for waveforms), each in its own object directory; `--build` makes `V<prefix>__ALL.a`.
//! 3. Verilator 5.006 does not build its runtime without `--exe`, so `make` builds
//!    `verilated.o`, `verilated_vcd_c.o` and `verilated_threads.o` in the traced directory and
//!    they are archived into one runtime library shared by both models.
//! 4. The `extern "C"` shim in `csrc/alu_shim.cpp` is compiled with the `cc` crate, and the
//!    shim, both models, the runtime and libstdc++ are linked (static libraries need the `lib`
//!    prefix, so the Verilator archives are copied). Every shim includes `csrc/harness.h` (the
//!    model's context, the two-phase clock, the VCD and the drain), found beside it.
//!
//! 5. The same for the L2-slice unit (`build_unit.rs`): `hw::unit_verilog(65536)` becomes `Vunit`
//!    and `Vunitt` (traced), with the shim `csrc/unit_shim.cpp`, on the same runtime library.
//!
//!    The warp unit (`hw::warp_verilog(65536)`, coalescer + unit) becomes `Vwarp` (untraced)
//!    with `csrc/warp_shim.cpp`.
//! 6. The `redux.sync` block: `hw::redux_verilog()` becomes `Vredux` (untraced only), with the
//!    shim `csrc/redux_shim.cpp`, on the same runtime library.
//!
//! 6b. The split model of the ALU (`build_split.rs`): the ALU's Verilog cut at its unit
//!    instances into `Vsplit_front`, `Vsplit_back` and, per unit kind, `Vsplit_<unit>_x<N>`
//!    (its lanes 0..N-1 side by side), with the shim `csrc/alu_split_shim.cpp` (the fast
//!    cosimulation engine).
//!
//! 7. The async unit (`build_async.rs`): `hw::async_verilog(65536)` becomes `Vasync` (untraced),
//!    with the shim `csrc/async_shim.cpp`.
//!
//! 8. The AXI front end (`build_axi.rs`): `hw::axi_verilog(65536)` becomes `Vaxi` (untraced),
//!    with the shim `csrc/axi_shim.cpp`.
//!
//! The build reruns when the design (`../hw/src`, `../sim/src`) or the shim changes.

use std::path::{Path, PathBuf};
use std::process::Command;

// The L2-slice unit's models and shim (kept apart from the ALU's for easy merges).
#[path = "build_unit.rs"]
mod unit;
// The AXI front end in front of the unit.
#[path = "build_axi.rs"]
mod axi;
// The async unit (red.async + mbarriers).
#[path = "build_async.rs"]
mod async_unit;
// The split model of the ALU (front, back, models of each unit kind's lanes).
#[path = "build_split.rs"]
mod split;
#[path = "src/verilator_flags.rs"]
mod verilator_flags;

const INSTALL_HINT: &str = "install it with `sudo scripts/setup.sh` from the repository root \
(or `apt-get install -y verilator` on Debian/Ubuntu; Verilator 5.006 or later), \
or point the VERILATOR environment variable at the verilator binary";

fn fail(msg: impl AsRef<str>) -> ! {
    // Cargo shows a failed build script's stderr; exit without a panic's backtrace noise.
    eprintln!("\nerror: {}\n", msg.as_ref());
    std::process::exit(1);
}

fn run(cmd: &mut Command, what: &str) {
    let out = cmd.output().unwrap_or_else(|e| fail(format!("{what}: cannot start {:?}: {e}", cmd.get_program())));
    if !out.status.success() {
        fail(format!(
            "{what} failed ({}): {:?}\n--- stdout\n{}\n--- stderr\n{}",
            out.status,
            cmd,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
}

/// Compiles `csrc/<shim>.cpp` against Verilator's headers and the models' directories `dirs`
/// into the static library `redunit_<shim>`.
fn compile_shim(manifest: &Path, include: &Path, shim: &str, dirs: &[&Path]) {
    let mut b = cc::Build::new();
    b.cpp(true)
        .std("c++17")
        .cpp_link_stdlib(None)
        .file(manifest.join(format!("csrc/{shim}.cpp")))
        .include(include)
        .include(include.join("vltstd"))
        .flag_if_supported("-Wno-unused-parameter")
        .opt_level(2);
    for d in dirs {
        b.include(d);
    }
    b.compile(&format!("redunit_{shim}"));
}

/// Copies Verilator's archive of the model `prefix` (in `dir`) to `lib<prefix>.a` in `out`,
/// the name a static library needs on the link line.
fn copy_archive(dir: &Path, prefix: &str, out: &Path) {
    let from = dir.join(format!("{prefix}__ALL.a"));
    let to = out.join(format!("lib{prefix}.a"));
    std::fs::copy(&from, &to).unwrap_or_else(|e| fail(format!("Verilator did not leave {}: {e}", from.display())));
}

/// Verilator's runtime (`verilated.o`, the VCD writer, threads), built once in the traced
/// ALU's object directory and archived as `libredunit_verilated_rt.a` for every model.
fn build_runtime(out: &Path, traced: &Path, jobs: &str) {
    let rt_objs = ["verilated.o", "verilated_vcd_c.o", "verilated_threads.o"];
    run(
        Command::new("make").current_dir(traced).args(["-j", jobs, "-f", "Valut.mk"]).args(rt_objs),
        "building the Verilator runtime",
    );
    let rt = out.join("libredunit_verilated_rt.a");
    let _ = std::fs::remove_file(&rt);
    run(
        Command::new("ar").arg("rcs").arg(&rt).args(rt_objs.iter().map(|o| traced.join(o))),
        "archiving the Verilator runtime",
    );
}

/// The build reruns when the design, the shims or this script change.
fn rerun_if_changed(manifest: &Path) {
    for p in [
        "../hw/src",
        "../sim/src",
        "../hw/Cargo.toml",
        "../sim/Cargo.toml",
        "csrc",
        "build.rs",
        "src/verilator_flags.rs",
    ] {
        println!("cargo:rerun-if-changed={}", manifest.join(p).display());
    }
}

/// The Verilator to use (`$VERILATOR` or `verilator`), its version line and its include
/// directory; fails with an install hint when it is missing or incomplete.
fn find_verilator() -> (String, String, PathBuf) {
    println!("cargo:rerun-if-env-changed=VERILATOR");

    let verilator = std::env::var("VERILATOR").unwrap_or_else(|_| "verilator".into());
    let version = match Command::new(&verilator).arg("--version").output() {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).trim().to_string(),
        Ok(o) => fail(format!(
            "`{verilator} --version` failed: {}; the RTL cosimulation needs Verilator: {INSTALL_HINT}",
            String::from_utf8_lossy(&o.stderr).trim()
        )),
        Err(e) => {
            fail(format!("Verilator was not found (`{verilator}`: {e}); the RTL cosimulation needs it: {INSTALL_HINT}"))
        }
    };
    let root = Command::new(&verilator)
        .arg("--getenv")
        .arg("VERILATOR_ROOT")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
        .unwrap_or_else(|| fail(format!("`{verilator} --getenv VERILATOR_ROOT` failed; {INSTALL_HINT}")));
    let include = root.join("include");
    if !include.join("verilated.h").exists() {
        fail(format!(
            "{} has no verilated.h: the Verilator installation is incomplete; {INSTALL_HINT}",
            include.display()
        ));
    }

    (verilator, version, include)
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    rerun_if_changed(&manifest);
    let (verilator, version, include) = find_verilator();

    // 1. The Verilog.
    let verilog = hw::alu_verilog();
    let vfile = out.join("redunit.v");
    std::fs::write(&vfile, &verilog).unwrap_or_else(|e| fail(format!("cannot write {}: {e}", vfile.display())));

    // 2. Two Verilated models.
    let jobs = std::env::var("NUM_JOBS").unwrap_or_else(|_| "2".into());
    let model_with = |prefix: &str, trace: bool, vfile: &Path, what: &str, extra: &[&str]| -> PathBuf {
        let dir = out.join(format!("obj_{prefix}"));
        let _ = std::fs::remove_dir_all(&dir);
        let mut cmd = Command::new(&verilator);
        cmd.args(verilator_flags::VERILATOR_FLAGS)
            .args(extra)
            .args(["-j", &jobs, "--prefix", prefix, "-Mdir"])
            .arg(&dir)
            .arg(vfile);
        if trace {
            cmd.arg("--trace");
        }
        run(&mut cmd, &format!("{version}: verilating {what} ({prefix})"));
        dir
    };
    let model = |prefix: &str, trace: bool, vfile: &Path, what: &str| model_with(prefix, trace, vfile, what, &[]);
    let plain = model("Valu", false, &vfile, "the ALU");
    let traced = model("Valut", true, &vfile, "the ALU");
    // The redux.sync block: one untraced model.
    let redux_vfile = out.join("redunit_redux.v");
    std::fs::write(&redux_vfile, hw::redux_verilog())
        .unwrap_or_else(|e| fail(format!("cannot write {}: {e}", redux_vfile.display())));
    let redux = model("Vredux", false, &redux_vfile, "the redux.sync block");
    let (unit_plain, unit_traced) = unit::verilate(&out, &|p, t, v| model(p, t, v, "the L2-slice unit"));
    let async_dir = async_unit::verilate(&out, &|p, t, v| model(p, t, v, "the async unit"));
    let warp = unit::verilate_warp(&out, &|p, t, v| model(p, t, v, "the warp unit"));
    let axi_dir = axi::verilate(&out, &|p, t, v| model(p, t, v, "the AXI unit"));
    // Verilator's C++ without building it (the split model reads it to find what is live).
    let codegen = |prefix: &str, vfile: &Path| -> PathBuf {
        let dir = out.join(format!("obj_{prefix}"));
        let _ = std::fs::remove_dir_all(&dir);
        let mut cmd = Command::new(&verilator);
        cmd.args(verilator_flags::VERILATOR_FLAGS.iter().filter(|f| **f != "--build"))
            .args(["--prefix", prefix, "-Mdir"])
            .arg(&dir)
            .arg(vfile);
        run(&mut cmd, &format!("{version}: generating C++ for the split ALU ({prefix})"));
        dir
    };
    let split_dirs = split::verilate(
        &out,
        &|p, t, v| model_with(p, t, v, "the split ALU", verilator_flags::SPLIT_EXTRA_FLAGS),
        &codegen,
    );

    // 3. The runtime, once.
    build_runtime(&out, &traced, &jobs);
    let copy_lib = |dir: &Path, prefix: &str| copy_archive(dir, prefix, &out);
    copy_lib(&plain, "Valu");
    copy_lib(&traced, "Valut");
    copy_lib(&redux, "Vredux");
    copy_lib(&unit_plain, unit::PLAIN);
    copy_lib(&unit_traced, unit::TRACED);
    copy_lib(&warp, unit::WARP);

    // 4. The shim, then the link line (shim first: static libraries resolve left to right).
    compile_shim(&manifest, &include, "alu_shim", &[&plain, &traced]);
    compile_shim(&manifest, &include, "redux_shim", &[&redux]);
    unit::shim(&manifest, &include, &unit_plain, &unit_traced);
    split::shim_and_link(&manifest, &include, &out, &split_dirs);
    unit::warp_shim(&manifest, &include, &warp);
    println!("cargo:rustc-link-search=native={}", out.display());
    println!("cargo:rustc-link-lib=static=Valu");
    println!("cargo:rustc-link-lib=static=Valut");
    println!("cargo:rustc-link-lib=static=Vredux");
    unit::link(&out);
    async_unit::shim_and_link(&manifest, &include, &async_dir, &out);
    axi::shim_and_link(&manifest, &include, &axi_dir, &out);
    println!("cargo:rustc-link-lib=static=redunit_verilated_rt");
    println!("cargo:rustc-link-lib=dylib=stdc++");
    println!("cargo:rustc-link-lib=dylib=pthread");
    println!("cargo:rustc-env=REDUNIT_VERILATOR_VERSION={version}");
}
