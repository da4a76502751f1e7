//! `redunit verilog`: the Verilog of a block, with its Verilator waivers and FuseSoC core.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use testbench::top::Top;

use super::check_mem_bytes;
use super::depth::{DepthArgs, depth_config};

/// `redunit verilog`.
pub fn verilog_cmd(
    output: PathBuf,
    top: Top,
    module: Option<String>,
    mem_bytes: usize,
    depths: &DepthArgs,
) -> anyhow::Result<ExitCode> {
    check_mem_bytes(mem_bytes)?;
    let cfg = depth_config(depths, top).map_err(anyhow::Error::msg)?;
    let module = module.unwrap_or_else(|| testbench::verilog_out::default_module_name(top.name()));
    if !testbench::verilog_out::is_identifier(&module) {
        anyhow::bail!(
            "--module {module:?}: a module name is a Verilog identifier (a letter or _, then letters, digits or _)"
        );
    }
    let w = write_verilog_with(&output, top, mem_bytes, &cfg, &module)?;
    let depth = if cfg.is_default() && !matches!(top, Top::Unit | Top::Axi) {
        String::new()
    } else {
        format!(", depths {}", cfg.tag())
    };
    println!(
        "wrote the Verilog of {}{depth} (module {module}, {} lines) to {}, with Verilator waivers {} and the FuseSoC core {}",
        top.describe(mem_bytes),
        w.lines,
        output.display(),
        w.vlt.display(),
        w.core.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Writes the Verilog of `top` (module `redunit_<top>`) to `path` with its waivers and core
/// beside it, creating its folder; returns the line count.
pub fn write_verilog(path: &Path, top: Top, mem_bytes: usize) -> anyhow::Result<usize> {
    let name = testbench::verilog_out::default_module_name(top.name());
    Ok(write_verilog_with(path, top, mem_bytes, &top.default_config(), &name)?.lines)
}

/// [`write_verilog`] at the depths of `cfg` (checked by [`depth_config`] for the unit).
fn write_verilog_with(
    path: &Path,
    top: Top,
    mem_bytes: usize,
    cfg: &hw::Config,
    module: &str,
) -> anyhow::Result<testbench::verilog_out::Written> {
    let v = top.verilog_with(mem_bytes, cfg);
    testbench::verilog_out::write(path, &v, module, &top.describe(mem_bytes))
}
