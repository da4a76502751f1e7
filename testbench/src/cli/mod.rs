//! The commands of `redunit`, one module each (or a small group); what they share: the
//! pipeline-depth flags, the memory-size check, the progress bar and the project's folders.

pub mod bench;
pub mod bench_alu;
pub mod conformance;
pub mod depth;
pub mod eval;
pub mod forms;
pub mod merge;
pub mod regress;
pub mod run;
pub mod synth;
pub mod verilog;

use std::io::IsTerminal;
use std::path::PathBuf;

use indicatif::{ProgressBar, ProgressStyle};

/// Where `redunit verilog` and `redunit regress` write the unit's Verilog.
pub const DEFAULT_VERILOG: &str = "synth/out/redunit.v";
/// Where failure waveforms go.
pub const FAIL_VCD_DIR: &str = "target";

/// The project root: `REDUNIT_ROOT`, else the folder of the workspace this binary was built
/// from, else the current directory.
pub fn project_root() -> PathBuf {
    if let Some(r) = std::env::var_os("REDUNIT_ROOT") {
        return PathBuf::from(r);
    }
    let built = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    if built.join("synth").is_dir() { built.canonicalize().unwrap_or(built) } else { PathBuf::from(".") }
}

/// Refuses a memory size the unit cannot take.
pub fn check_mem_bytes(mem_bytes: usize) -> anyhow::Result<()> {
    if mem_bytes == 0 || !mem_bytes.is_multiple_of(16) || mem_bytes as u64 > 1 << 32 {
        anyhow::bail!(
            "--mem-bytes {mem_bytes}: the memory size must be a positive multiple of 16 bytes, at most 4 GiB"
        );
    }
    Ok(())
}

/// The failure waveform of a form's conformance vectors, or of a random run's seed.
pub fn fail_vcd_path(tag: &str) -> PathBuf {
    PathBuf::from(FAIL_VCD_DIR).join(format!("redunit-fail-{tag}.vcd"))
}

/// A progress bar on stderr when it is a terminal (else hidden).
pub fn bar(len: u64, what: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(len);
    pb.set_style(
        ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} {per_sec} eta {eta}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    pb.set_message(what.to_string());
    pb
}
