//! `redunit forms`: the encoding table of the legal `red` forms.

use std::io::Write;
use std::process::ExitCode;

/// `redunit forms`: the encoding table.
pub fn forms_cmd(csv: bool) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    if csv {
        writeln!(out, "code,form,bytes,latency,unit,lanes")?;
    } else {
        writeln!(out, "{:>5} {:>6}  {:<30} {:>5} {:>7}  {:<9} lanes", "code", "hex", "form", "bytes", "latency", "ALU unit")?;
    }
    for f in sim::Form::all() {
        let (unit, lanes) = hw::unit_lanes(f);
        if csv {
            writeln!(out, "{},{f},{},{},{},{lanes}", f.code(), f.bytes(), hw::latency(f), unit.name())?;
        } else {
            let list: Vec<String> = (0..8).filter(|i| lanes >> i & 1 == 1).map(|i| i.to_string()).collect();
            writeln!(
                out,
                "{:>5} {:>#6x}  {:<30} {:>5} {:>7}  {:<9} {}",
                f.code(),
                f.code(),
                f.to_string(),
                f.bytes(),
                hw::latency(f),
                unit.name(),
                list.join(",")
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
