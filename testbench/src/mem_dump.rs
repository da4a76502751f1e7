//! `redunit run --dump-mem FILE`: the memory after a trace, as CSV.
//!
//! Header `space,addr,data`, then one row per 16-byte line that holds a non-zero byte (the
//! memory starts zero), global memory first, each space by address: `space` `global` or
//! `shared`, `addr` the line's address in that space (hex, lowercase, as the result rows write
//! addresses), `data` the line as `ld.b128` returns it (32 lowercase hex digits, the byte at
//! `addr` lowest). An all-zero memory writes the header alone.

use std::io::Write;

use sim::Space;

/// The header of a memory dump.
pub const HEADER: &str = "space,addr,data";

/// Writes the dump of each `(space, bytes)` in order.
pub fn write(out: &mut dyn Write, spaces: &[(Space, &[u8])]) -> anyhow::Result<()> {
    let mut buf = Vec::new();
    writeln!(buf, "{HEADER}")?;
    for (space, bytes) in spaces {
        for (k, line) in bytes.chunks(16).enumerate() {
            if line.iter().all(|&b| b == 0) {
                continue;
            }
            let mut le = [0u8; 16];
            le[..line.len()].copy_from_slice(line);
            writeln!(buf, "{},{:x},{:032x}", space.name(), 16 * k, u128::from_le_bytes(le))?;
        }
    }
    out.write_all(&buf)?;
    out.flush()?;
    Ok(())
}

/// Reads `bytes` of an engine's memory back through `ld.b128` requests, one per line.
pub fn read_back(engine: &mut dyn crate::trace::MemEngine, bytes: usize) -> anyhow::Result<Vec<u8>> {
    let ld: sim::Access = "ld.b128".parse().expect("a load");
    let reqs: Vec<sim::Request> =
        (0..bytes / 16).map(|l| sim::Request { access: ld, addr: 16 * l as u64, value: 0 }).collect();
    let mut out = Vec::with_capacity(bytes);
    for (r, o) in reqs.iter().zip(engine.execute(&reqs)?) {
        match o {
            Ok(Some(v)) => out.extend_from_slice(&v.to_le_bytes()),
            other => anyhow::bail!("read-back load at {:x} failed: {other:?}", r.addr),
        }
    }
    Ok(out)
}
