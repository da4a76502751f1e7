//! The async unit (`hw::AsyncUnit`: the L2-slice unit with `red.async` completion on
//! mbarriers) in the build script: `hw::async_verilog(DEFAULT_MEM_BYTES)` is verilated into
//! `Vasync` (untraced only, to keep the build short) and linked through
//! `csrc/async_shim.cpp` against the one Verilator runtime of `build.rs`.

use std::path::{Path, PathBuf};

pub const PREFIX: &str = "Vasync";

/// Writes the async unit's Verilog and verilates it with `model(prefix, trace, vfile)`.
pub fn verilate(out: &Path, model: &dyn Fn(&str, bool, &Path) -> PathBuf) -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    println!("cargo:rerun-if-changed={}", manifest.join("build_async.rs").display());
    let vfile = out.join("redunit_async.v");
    std::fs::write(&vfile, hw::async_verilog(sim::memory::DEFAULT_MEM_BYTES))
        .unwrap_or_else(|e| super::fail(format!("cannot write {}: {e}", vfile.display())));
    model(PREFIX, false, &vfile)
}

/// Compiles the shim, copies the model's archive, and prints the link line (after the other
/// shims', before the runtime's).
pub fn shim_and_link(manifest: &Path, include: &Path, dir: &Path, out: &Path) {
    cc::Build::new()
        .cpp(true)
        .std("c++17")
        .cpp_link_stdlib(None)
        .file(manifest.join("csrc/async_shim.cpp"))
        .include(include)
        .include(include.join("vltstd"))
        .include(dir)
        .flag_if_supported("-Wno-unused-parameter")
        .opt_level(2)
        .compile("redunit_async_shim");
    let from = dir.join(format!("{PREFIX}__ALL.a"));
    let to = out.join(format!("lib{PREFIX}.a"));
    std::fs::copy(&from, &to)
        .unwrap_or_else(|e| super::fail(format!("Verilator did not leave {}: {e}", from.display())));
    println!("cargo:rustc-link-lib=static={PREFIX}");
}
