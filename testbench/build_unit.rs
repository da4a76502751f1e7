//! The L2-slice unit in the build script: `hw::unit_verilog(DEFAULT_MEM_BYTES)` is verilated
//! into `Vunit` (plain) and `Vunitt` (`--trace`) with the same flags as the ALU's models and
//! linked, through `csrc/unit_shim.cpp`, against the one Verilator runtime of `build.rs`.
//! Other memory sizes are verilated at run time (`testbench/src/unit.rs`).

use std::path::{Path, PathBuf};

pub const PLAIN: &str = "Vunit";
pub const TRACED: &str = "Vunitt";
/// The warp unit (`hw::warp_verilog`: coalescer + unit), untraced, 64 KiB only.
pub const WARP: &str = "Vwarp";

/// Writes the warp unit's Verilog and verilates it (one untraced model).
pub fn verilate_warp(out: &Path, model: &dyn Fn(&str, bool, &Path) -> PathBuf) -> PathBuf {
    let vfile = out.join("redunit_warp.v");
    std::fs::write(&vfile, hw::warp_verilog(sim::memory::DEFAULT_MEM_BYTES))
        .unwrap_or_else(|e| super::fail(format!("cannot write {}: {e}", vfile.display())));
    model(WARP, false, &vfile)
}

/// Compiles the warp unit's shim.
pub fn warp_shim(manifest: &Path, include: &Path, warp: &Path) {
    super::compile_shim(manifest, include, "warp_shim", &[warp]);
}

/// Writes the unit's Verilog and verilates it twice with `model(prefix, trace, vfile)`.
pub fn verilate(out: &Path, model: &dyn Fn(&str, bool, &Path) -> PathBuf) -> (PathBuf, PathBuf) {
    println!("cargo:rerun-if-changed={}", Path::new(env!("CARGO_MANIFEST_DIR")).join("build_unit.rs").display());
    let mem = sim::memory::DEFAULT_MEM_BYTES;
    let verilog = hw::unit_verilog(mem);
    let vfile = out.join("redunit_unit.v");
    std::fs::write(&vfile, &verilog).unwrap_or_else(|e| super::fail(format!("cannot write {}: {e}", vfile.display())));
    println!("cargo:rustc-env=REDUNIT_UNIT_MEM_BYTES={mem}");
    println!("cargo:rustc-env=REDUNIT_UNIT_VERILOG_HASH={:016x}", super::verilator_flags::fnv1a(verilog.as_bytes()));
    // `OUT_DIR` is `<target>/<profile>/build/testbench-<hash>/out`: run-time builds of other
    // memory sizes are cached under `<target>/redunit-unit/`.
    if let Some(target) = out.ancestors().nth(4) {
        println!("cargo:rustc-env=REDUNIT_TARGET_DIR={}", target.display());
    }
    (model(PLAIN, false, &vfile), model(TRACED, true, &vfile))
}

/// Compiles the unit's shim against both models.
pub fn shim(manifest: &Path, include: &Path, plain: &Path, traced: &Path) {
    super::compile_shim(manifest, include, "unit_shim", &[plain, traced]);
}

/// The link lines of the unit (after the shim's, before the runtime's).
pub fn link(_out: &Path) {
    println!("cargo:rustc-link-lib=static={PLAIN}");
    println!("cargo:rustc-link-lib=static={TRACED}");
    println!("cargo:rustc-link-lib=static={WARP}");
}
