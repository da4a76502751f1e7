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
    super::compile_shim(manifest, include, "async_shim", &[dir]);
    super::copy_archive(dir, PREFIX, out);
    println!("cargo:rustc-link-lib=static={PREFIX}");
}
