//! The AXI front end in the build script: `hw::axi_verilog(DEFAULT_MEM_BYTES)` (the unit in its
//! default configuration behind `hw::AxiUnit`, 4-bit IDs) is verilated into `Vaxi` (untraced)
//! and linked, through `csrc/axi_shim.cpp`, against the one Verilator runtime of `build.rs`.

use std::path::{Path, PathBuf};

pub const PREFIX: &str = "Vaxi";

/// Writes the AXI top's Verilog and verilates it (one untraced model).
pub fn verilate(out: &Path, model: &dyn Fn(&str, bool, &Path) -> PathBuf) -> PathBuf {
    println!("cargo:rerun-if-changed={}", Path::new(env!("CARGO_MANIFEST_DIR")).join("build_axi.rs").display());
    let vfile = out.join("redunit_axi.v");
    std::fs::write(&vfile, hw::axi_verilog(sim::memory::DEFAULT_MEM_BYTES))
        .unwrap_or_else(|e| super::fail(format!("cannot write {}: {e}", vfile.display())));
    model(PREFIX, false, &vfile)
}

/// Compiles the shim and prints the link lines (after the shim's, before the runtime's).
pub fn shim_and_link(manifest: &Path, include: &Path, dir: &Path, out: &Path) {
    super::copy_archive(dir, PREFIX, out);
    super::compile_shim(manifest, include, "axi_shim", &[dir]);
    println!("cargo:rustc-link-lib=static={PREFIX}");
}
