//! `redunit forms`: the encoding table of the legal `red` forms.

use std::io::Write;
use std::process::ExitCode;

/// `redunit forms`: the encoding table; with `all`, every accepted instruction spelling.
pub fn forms_cmd(csv: bool, all: bool) -> anyhow::Result<ExitCode> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if all {
        write_spellings(&mut out)?;
        out.flush()?;
        return Ok(ExitCode::SUCCESS);
    }
    if csv {
        writeln!(out, "code,form,bytes,latency,unit,lanes")?;
    } else {
        writeln!(
            out,
            "{:>5} {:>6}  {:<30} {:>5} {:>7}  {:<9} lanes",
            "code", "hex", "form", "bytes", "latency", "ALU unit"
        )?;
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
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// `spelling,space,form`: every spelling of the PTX grammar for each op, type and vector
/// width (`sim::RedInstr::spellings`), its state space (`generic` when it names none) and the
/// form it performs (for a generic spelling, the form at a global address; at a shared-window
/// address a scalar performs the shared form of the same op and type).
pub fn write_spellings(out: &mut impl Write) -> anyhow::Result<()> {
    writeln!(out, "spelling,space,form")?;
    for f in sim::Form::all().into_iter().filter(|f| f.space() == sim::Space::Global) {
        for s in sim::RedInstr::spellings(f) {
            let i: sim::RedInstr = s.parse().map_err(|e| anyhow::anyhow!("{s}: {e}"))?;
            let space = if i.space == sim::AddrSpace::Generic { "generic" } else { i.space.name() };
            let form = i.explicit_form().unwrap_or(f);
            writeln!(out, "{s},{space},{form}")?;
        }
    }
    Ok(())
}
