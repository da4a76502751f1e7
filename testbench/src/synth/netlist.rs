//! Reading the tools' output: Yosys's `stat -json` cell counts and nextpnr's `--report` JSON,
//! and the netlist's modules as blocks of the per-block breakdown.

use std::path::Path;

use anyhow::Context;
use serde_json::Value;

use super::{Area, CriticalPath, Utilization};

impl Area {
    /// The counts of a module's `num_cells_by_type`.
    pub(super) fn from_cells(cells: &serde_json::Map<String, Value>) -> Area {
        let n = |k: &str| cells.get(k).and_then(Value::as_u64).unwrap_or(0);
        Area {
            lut4: n("LUT4"),
            ff: n("TRELLIS_FF"),
            ccu2c: n("CCU2C"),
            dp16kd: n("DP16KD"),
            dsp: n("MULT18X18D") + n("ALU54B"),
            lutram: n("TRELLIS_DPR16X4"),
        }
    }
}

/// The block a module of the netlist belongs to in the breakdown (module names are rust-hdl's
/// instance paths: `top$alu$add16$3`, `top$queue`, …; with `alu_top` the ALU is `top`).
/// `None`: not a block of the breakdown.
pub fn block_of(module: &str, alu_top: bool) -> Option<&'static str> {
    let m = module.trim_start_matches('\\');
    let mut parts: Vec<&str> = m.split('$').collect();
    if parts.first() != Some(&"top") {
        return None;
    }
    if alu_top {
        parts.insert(1, "alu");
    }
    let (in_alu, p) = if parts.get(1) == Some(&"alu") { (true, &parts[2..]) } else { (false, &parts[1..]) };
    let arrays = ["add16", "add_f32", "minmax16", "int_lane"];
    let x = match p {
        [] => None,
        [x] => Some(*x),
        [x, n] if arrays.contains(x) && n.chars().all(|c| c.is_ascii_digit()) => Some(*x),
        _ => return None,
    };
    match (in_alu, x) {
        (false, None) => Some("unit: decode, pipeline, forwarding"),
        (true, None) => Some("ALU: decode, result select, delay registers"),
        (true, Some("int_alu")) if alu_top => Some("integer ALU"),
        (true, Some("int_alu")) => Some("integer ALU inside ReductionAlu (unused by the unit: removed when flattened)"),
        (false, Some("int_alu")) => Some("integer ALU (the unit's fast path)"),
        (true, Some("add16")) => Some("f16/bf16 adders (8 lanes, f16 and bf16 share each lane)"),
        (true, Some("add_f32")) => Some("f32 adders (4 lanes)"),
        (true, Some("add_f64")) => Some("f64 adder"),
        (true, Some("add_f64_hi")) => Some("f64 adder, second lane (masked sector requests)"),
        (false, Some("int_lane")) => Some("integer lanes 1-3 (masked sector requests)"),
        (true, Some("minmax16")) => Some("f16/bf16 min/max (8 lanes)"),
        (false, Some("queue")) => Some("ordering queue"),
        (false, Some("mem")) => Some("memory (line RAM)"),
        (false, Some("rsp_fifo")) => Some("response FIFO"),
        _ => None,
    }
}

/// The modules whose hierarchy the breakdown keeps: the instances of the main blocks.
pub(super) fn breakdown_modules(verilog: &str, alu_top: bool) -> Vec<String> {
    verilog
        .lines()
        .filter_map(|l| l.strip_prefix("module "))
        .map(|r| r.split('(').next().unwrap_or("").trim())
        .filter(|n| *n != "top" && block_of(n, alu_top).is_some())
        .map(str::to_string)
        .collect()
}

/// Reads Yosys's `stat -json` output (after any header Yosys prints).
pub(super) fn read_stat(path: &Path) -> anyhow::Result<Value> {
    let s = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    // Yosys may print a header before the JSON object.
    let start = s.find('{').context("no JSON in the stat output")?;
    Ok(serde_json::from_str(&s[start..])?)
}

pub(super) fn module_cells<'a>(stat: &'a Value, module: &str) -> Option<&'a serde_json::Map<String, Value>> {
    let mods = stat.get("modules")?.as_object()?;
    let m = mods.get(module).or_else(|| mods.get(&format!("\\{module}")))?;
    m.get("num_cells_by_type")?.as_object()
}

/// Parses nextpnr's `--report` JSON: fmax of the clock, the critical path, utilisation.
pub fn parse_pnr_report(v: &Value) -> (Option<f64>, Option<CriticalPath>, Utilization) {
    let fmax = v
        .get("fmax")
        .and_then(Value::as_object)
        .and_then(|m| m.values().filter_map(|c| c.get("achieved").and_then(Value::as_f64)).reduce(f64::min));
    let cp = v.get("critical_paths").and_then(Value::as_array).and_then(|paths| {
        // The slowest clock-to-clock path (port paths, `<async>`, only when there is none).
        let sync = |p: &&Value| ["from", "to"].iter().all(|k| p.get(*k).and_then(Value::as_str) != Some("<async>"));
        let chosen: Vec<&Value> =
            if paths.iter().any(|p| sync(&p)) { paths.iter().filter(sync).collect() } else { paths.iter().collect() };
        let mut best: Option<CriticalPath> = None;
        for p in chosen {
            let steps = p.get("path").and_then(Value::as_array)?;
            let delay: f64 = steps.iter().filter_map(|s| s.get("delay").and_then(Value::as_f64)).sum();
            let name = |s: Option<&Value>, k: &str| {
                s.and_then(|s| s.get(k))
                    .map(|e| {
                        format!(
                            "{}.{}",
                            e.get("cell").and_then(Value::as_str).unwrap_or("?"),
                            e.get("port").and_then(Value::as_str).unwrap_or("?")
                        )
                    })
                    .unwrap_or_default()
            };
            let cells = steps.iter().filter(|s| s.get("type").and_then(Value::as_str) == Some("logic")).count();
            let c = CriticalPath {
                from: name(steps.first(), "from"),
                to: name(steps.last(), "to"),
                cells,
                delay_ns: delay,
            };
            if best.as_ref().is_none_or(|b| c.delay_ns > b.delay_ns) {
                best = Some(c);
            }
        }
        best
    });
    let util = v
        .get("utilization")
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .map(|(k, u)| {
                    (
                        k.clone(),
                        u.get("used").and_then(Value::as_u64).unwrap_or(0),
                        u.get("available").and_then(Value::as_u64).unwrap_or(0),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    (fmax, cp, util)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_of_modules() {
        assert_eq!(block_of("top$alu$add16$3", false), Some("f16/bf16 adders (8 lanes, f16 and bf16 share each lane)"));
        assert_eq!(block_of("\\top$queue", false), Some("ordering queue"));
        assert_eq!(block_of("top$int_alu", false), Some("integer ALU (the unit's fast path)"));
        assert_eq!(block_of("top$int_alu", true), Some("integer ALU"));
        assert_eq!(block_of("top$alu$add16$3$s0_a", false), None);
        assert_eq!(block_of("top$credits", false), None);
        assert_eq!(block_of("top", false), Some("unit: decode, pipeline, forwarding"));
        assert_eq!(block_of("top", true), Some("ALU: decode, result select, delay registers"));
    }

    #[test]
    fn breakdown_keeps_the_main_blocks() {
        let v = "module top(a);\nmodule top$alu(a);\nmodule top$alu$add16$0(a);\nmodule top$alu$add16$0$s0_a(a);\n\
                 module top$alu$add_f64(a);\nmodule top$alu$s1_valid(a);\nmodule top$queue(a);\nmodule top$credits(a);\n";
        assert_eq!(breakdown_modules(v, false), ["top$alu", "top$alu$add16$0", "top$alu$add_f64", "top$queue"]);
    }

    #[test]
    fn pnr_report() {
        let v: Value = serde_json::from_str(
            r#"{"utilization": {"TRELLIS_SLICE": {"used": 10, "available": 41820}},
                "fmax": {"$glbnet$clock": {"achieved": 81.5, "constraint": 150.0}},
                "critical_paths": [{"from": "clock", "to": "clock", "path": [
                  {"type": "clk-to-q", "from": {"cell": "a", "port": "CLK"}, "to": {"cell": "a", "port": "Q0"}, "delay": 0.5},
                  {"type": "logic", "from": {"cell": "b", "port": "A"}, "to": {"cell": "b", "port": "F"}, "delay": 0.25},
                  {"type": "setup", "from": {"cell": "c", "port": "DI0"}, "to": {"cell": "c", "port": "DI0"}, "delay": 0.25}]}]}"#,
        )
        .unwrap();
        let (f, p, u) = parse_pnr_report(&v);
        assert_eq!(f, Some(81.5));
        let p = p.unwrap();
        assert_eq!((p.from.as_str(), p.to.as_str(), p.cells), ("a.CLK", "c.DI0", 1));
        assert_eq!(u, vec![("TRELLIS_SLICE".to_string(), 10, 41820)]);
    }
}
