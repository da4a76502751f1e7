//! What the build script (`build.rs`) and the run-time builds of other memory sizes
//! (`unit.rs`) share: the Verilator flags of every model and the hash that names a build.
//! The build script includes this file with `#[path]`, so it must stay free of crate imports.

/// Verilator flags of every Verilated model (the caller adds `-j`, `--prefix`, `-Mdir`,
/// `--trace` and the Verilog file).
pub const VERILATOR_FLAGS: &[&str] = &[
    "--cc",
    "--build",
    "--top-module",
    "top",
    "--x-assign",
    "fast",
    "--x-initial",
    "fast",
    "--timescale",
    "1ns/1ns",
    // The cosimulation build only: `hw/tests/lint.rs` holds the design to `-Wall`.
    "-Wno-fatal",
    "-Wno-WIDTH",
    "-Wno-UNUSED",
    "-Wno-DECLFILENAME",
    // Verilator's makefile compiles the model with OPT_FAST (-Os by default), placed after
    // -CFLAGS on the command line, so it wins: -O2 there is about 1.13-1.3x faster.
    "-MAKEFLAGS",
    "OPT_FAST=-O2",
    "-CFLAGS",
    "-fPIC -O2",
];

/// Added for the split model's small models (`build_split.rs`), the fast cosimulation engine:
/// -O3 instead of -O2 (the second OPT_FAST on make's command line wins) makes it about 6%
/// faster (measured with `redunit bench-alu`); the big models keep -O2 for build time.
pub const SPLIT_EXTRA_FLAGS: &[&str] = &["-MAKEFLAGS", "OPT_FAST=-O3"];

/// FNV-1a, 64 bits: names a build by the text that went into it.
pub fn fnv1a(b: &[u8]) -> u64 {
    b.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &x| (h ^ x as u64).wrapping_mul(0x100_0000_01b3))
}
