//! `redunit eval`: CSV rows of `red` operations (or `redux.sync` instructions) from stdin
//! through an engine.

use std::io::BufWriter;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use testbench::engine::{AluEngine, EngineKind};
use testbench::eval;
use testbench::rtl::RtlAlu;

/// `redunit eval`.
pub fn eval_cmd(engine: EngineKind, vcd: Option<PathBuf>) -> anyhow::Result<ExitCode> {
    // The header line picks the format: `form,init,b` (red) or `form,mask,src0,...` (redux).
    let mut stdin = std::io::stdin().lock();
    // Lines up to the header (the first that is not blank), read whole and handed on;
    // each line is looked at once.
    let mut head = Vec::new();
    loop {
        let start = head.len();
        let n = std::io::BufRead::read_until(&mut stdin, b'\n', &mut head).context("reading the header from stdin")?;
        if n == 0 || testbench::input_error::first_row(&head[start..]).is_some() {
            break;
        }
    }
    let header = testbench::input_error::first_row(&head).unwrap_or_default();
    let format = eval::Format::of_header(&String::from_utf8_lossy(header));
    let input = std::io::Read::chain(std::io::Cursor::new(head), stdin);
    if format == eval::Format::Redux {
        if vcd.is_some() {
            anyhow::bail!("--vcd is not available for redux.sync rows (the redux block is built without tracing)");
        }
        let mut engine = engine.redux();
        let stdout = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
        eval::eval_redux(input, stdout, &mut *engine)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut alu: Box<dyn AluEngine> = match (engine, &vcd) {
        (EngineKind::Rtl, Some(path)) => Box::new(RtlAlu::with_vcd(path, 0)?),
        (EngineKind::Model, Some(_)) => {
            anyhow::bail!("--vcd needs --engine rtl: the golden model has no waveform")
        }
        (e, None) => e.alu(),
    };
    let stdout = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let r = eval::eval(input, stdout, &mut *alu);
    drop(alu); // closes the waveform
    if let Some(path) = &vcd {
        eprintln!("redunit: waveform written to {}", path.display());
    }
    r?;
    Ok(ExitCode::SUCCESS)
}
