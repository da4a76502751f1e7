//! Builds the Verilated models into the `redunit` binary and the tests, from one table.
//!
//! 1. Each design's Verilog (`DESIGNS`: the ALU, the `redux.sync` block, the L2-slice unit,
//!    the warp unit, the async unit, the AXI front end; 64 KiB of memory where there is one)
//!    is written to `$OUT_DIR/<file>`.
//! 2. Verilator compiles each of a design's models (untraced, or `--trace` for waveforms) in
//!    its own object directory; `--build` makes `V<prefix>__ALL.a`, copied to
//!    `lib<prefix>.a` (the name a static library needs on the link line).
//! 3. The split model of the ALU (`build_split.rs`): the ALU's Verilog cut at its unit
//!    instances into `Vsplit_front`, `Vsplit_back` and, per unit kind, `Vsplit_<unit>_x<N>`
//!    (its lanes 0..N-1 side by side), with the shim `csrc/alu_split_shim.cpp` (the fast
//!    cosimulation engine).
//! 4. Verilator 5.006 does not build its runtime without `--exe`, so `make` builds
//!    `verilated.o`, `verilated_vcd_c.o` and `verilated_threads.o` in the traced ALU's
//!    directory and they are archived into one runtime library shared by every model.
//! 5. Each `extern "C"` shim of `SHIMS` (`csrc/<name>.cpp`, including `csrc/harness.h`: the
//!    model's context, the two-phase clock, the VCD and the drain) is compiled with the `cc`
//!    crate against its models, and the shims, the models, the runtime and libstdc++ are
//!    linked, in that order.
//!
//! Other memory sizes of the unit are verilated at run time (`testbench/src/unit.rs`). The
//! build reruns when the design (`../hw/src`, `../sim/src`), a shim or this script changes.

use std::path::{Path, PathBuf};
use std::process::Command;

// The split model of the ALU (front, back, models of each unit kind's lanes).
#[path = "build_split.rs"]
mod split;
// (Its `fnv1a` names the run-time builds of other memory sizes; the build script has none.)
#[allow(dead_code)]
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

/// Compiles `csrc/<shim>.cpp` against Verilator's headers and the models' directories `dirs`,
/// with the preprocessor symbols `defines`, into the static library `redunit_<shim>`.
fn compile_shim(manifest: &Path, include: &Path, shim: &str, dirs: &[&Path], defines: &[&str]) {
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
    for d in defines {
        b.define(d, None);
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

/// Verilator's runtime (`verilated.o`, the VCD writer, threads), built once in a traced
/// model's object directory and archived as `libredunit_verilated_rt.a` for every model.
fn build_runtime(out: &Path, traced: &Path, prefix: &str, jobs: &str) {
    let rt_objs = ["verilated.o", "verilated_vcd_c.o", "verilated_threads.o"];
    let makefile = format!("{prefix}.mk");
    run(
        Command::new("make").current_dir(traced).args(["-j", jobs, "-f", &makefile]).args(rt_objs),
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

/// The memory of the unit's models built here.
const MEM: usize = sim::memory::DEFAULT_MEM_BYTES;

/// A Verilog file of the build: its name in `OUT_DIR`, what it holds, its text, and the
/// models Verilated from it (prefix, and whether it can write a VCD).
struct Design {
    file: &'static str,
    what: &'static str,
    verilog: fn() -> String,
    models: &'static [(&'static str, bool)],
}

const DESIGNS: &[Design] = &[
    Design {
        file: "redunit.v",
        what: "the ALU",
        verilog: hw::alu_verilog,
        models: &[("Valu", false), ("Valut", true)],
    },
    Design {
        file: "redunit_redux.v",
        what: "the redux.sync block",
        verilog: hw::redux_verilog,
        models: &[("Vredux", false)],
    },
    Design {
        file: "redunit_unit.v",
        what: "the L2-slice unit",
        verilog: || hw::unit_verilog(MEM),
        models: &[("Vunit", false), ("Vunitt", true)],
    },
    Design {
        file: "redunit_warp.v",
        what: "the warp unit",
        verilog: || hw::warp_verilog(MEM),
        models: &[("Vwarp", false)],
    },
    Design {
        file: "redunit_async.v",
        what: "the async unit",
        verilog: || hw::async_verilog(MEM),
        models: &[("Vasync", false)],
    },
    Design {
        file: "redunit_axi.v",
        what: "the AXI unit",
        verilog: || hw::axi_verilog(MEM),
        models: &[("Vaxi", false)],
    },
];

/// The traced model whose directory builds the Verilator runtime.
const RUNTIME_MODEL: &str = "Valut";

/// A shim, `csrc/<name>.cpp`, the models it drives and the symbols it is compiled with.
struct Shim {
    name: &'static str,
    models: &'static [&'static str],
    defines: &'static [&'static str],
}

const SHIMS: &[Shim] = &[
    Shim { name: "alu_shim", models: &["Valu", "Valut"], defines: &[] },
    Shim { name: "redux_shim", models: &["Vredux"], defines: &[] },
    // The unit here is the default configuration, the registered pipeline.
    Shim { name: "unit_shim", models: &["Vunit", "Vunitt"], defines: &["REDUNIT_UNIT_REGISTERED_OUTPUTS"] },
    Shim { name: "warp_shim", models: &["Vwarp"], defines: &[] },
    Shim { name: "async_shim", models: &["Vasync"], defines: &[] },
    Shim { name: "axi_shim", models: &["Vaxi"], defines: &[] },
];

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    rerun_if_changed(&manifest);
    let (verilator, version, include) = find_verilator();
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
    // 1, 2. Each design's Verilog and its models, each in `obj_<prefix>`.
    let mut dirs = std::collections::HashMap::new();
    for d in DESIGNS {
        let vfile = out.join(d.file);
        std::fs::write(&vfile, (d.verilog)())
            .unwrap_or_else(|e| fail(format!("cannot write {}: {e}", vfile.display())));
        for &(prefix, trace) in d.models {
            let dir = model_with(prefix, trace, &vfile, d.what, &[]);
            copy_archive(&dir, prefix, &out);
            dirs.insert(prefix, dir);
        }
    }
    println!("cargo:rustc-env=REDUNIT_UNIT_MEM_BYTES={MEM}");
    // `OUT_DIR` is `<target>/<profile>/build/testbench-<hash>/out`: run-time builds of other
    // memory sizes are cached under `<target>/redunit-unit/`.
    if let Some(target) = out.ancestors().nth(4) {
        println!("cargo:rustc-env=REDUNIT_TARGET_DIR={}", target.display());
    }

    // 3. The split ALU: Verilator's C++ of the whole ALU without building it (the split reads
    // it to find what is live), then the pieces.
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

    // 4. The runtime, once.
    build_runtime(&out, &dirs[RUNTIME_MODEL], RUNTIME_MODEL, &jobs);

    // 5. The shims, then the link line: shims, models, runtime (static libraries resolve left
    // to right).
    for s in SHIMS {
        let model_dirs: Vec<&Path> = s.models.iter().map(|m| dirs[m].as_path()).collect();
        compile_shim(&manifest, &include, s.name, &model_dirs, s.defines);
    }
    split::shim_and_link(&manifest, &include, &out, &split_dirs);
    println!("cargo:rustc-link-search=native={}", out.display());
    for (prefix, _) in DESIGNS.iter().flat_map(|d| d.models) {
        println!("cargo:rustc-link-lib=static={prefix}");
    }
    println!("cargo:rustc-link-lib=static=redunit_verilated_rt");
    println!("cargo:rustc-link-lib=dylib=stdc++");
    println!("cargo:rustc-link-lib=dylib=pthread");
    println!("cargo:rustc-env=REDUNIT_VERILATOR_VERSION={version}");
}
