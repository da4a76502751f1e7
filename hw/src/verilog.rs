//! Verilog generation for every block: rust-hdl's generator plus one rewrite.
//!
//! rust-hdl connects each sub-block's clock with a blocking assignment (`s1_x$clock = clock;`)
//! inside the module's one `always @(*)` block. That makes the whole combinational block
//! sensitive to the clock, so a simulator re-evaluates all of the module's logic on both clock
//! edges; Verilator spent most of its time there. [`verilog`] turns those assignments into
//! continuous ones (`wire s1_x$clock = clock;`), which means the same hardware and leaves the
//! `always @(*)` block sensitive to data only. Synthesis and cosimulation use this same text.

use rust_hdl::prelude::{Block, generate_verilog};

/// The Verilog of `block` (module `top`), connected and with the clock wiring hoisted.
pub fn verilog<B: Block>(block: &mut B) -> String {
    block.connect_all();
    hoist_clock_wiring(&generate_verilog(block))
}

/// Rewrites `reg N$clock;` + `N$clock = clock;` (inside `always @(*)`) into
/// `wire N$clock = clock;`, module by module.
pub fn hoist_clock_wiring(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    let mut module: Vec<&str> = Vec::new();
    let flush = |module: &mut Vec<&str>, out: &mut String| {
        let hoisted: Vec<&str> = module
            .iter()
            .filter_map(|l| l.trim().strip_suffix(" = clock;"))
            .filter(|n| n.ends_with("$clock") && !n.contains(char::is_whitespace))
            .collect();
        for line in module.iter() {
            let t = line.trim();
            if t.strip_suffix(" = clock;").is_some_and(|n| hoisted.contains(&n)) {
                continue;
            }
            match t.strip_prefix("reg").map(str::trim).and_then(|r| r.strip_suffix(';')) {
                Some(name) if hoisted.contains(&name) => {
                    let indent = &line[..line.len() - line.trim_start().len()];
                    out.push_str(&format!("{indent}wire {name} = clock;\n"));
                }
                _ => {
                    out.push_str(line);
                    out.push('\n');
                }
            }
        }
        module.clear();
    };
    for line in v.lines() {
        if line.starts_with("module ") {
            flush(&mut module, &mut out);
        }
        module.push(line);
    }
    flush(&mut module, &mut out);
    out
}

/// For a custom-Verilog memory with `read_addr`/`write_addr` ports `width` bits wide of which
/// it uses the low `used`: a wire that reads the bits above (so that lint sees them used), or
/// nothing when it uses them all.
pub(crate) fn unused_addr_hi(width: usize, used: usize) -> String {
    if used < width {
        format!(
            "// Address bits above those the memory needs.\n\
             wire unused_addr_hi = ^{{read_addr[{hi}:{used}], write_addr[{hi}:{used}]}};\n",
            hi = width - 1
        )
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hoists_only_clock_wiring() {
        let v = "module top(clock,a);\n    reg  s1$clock;\n    reg  s1$d;\n    always @(*) begin\n        s1$clock = clock;\n        s1$d = a;\n    end\nendmodule\n";
        let h = hoist_clock_wiring(v);
        assert_eq!(
            h,
            "module top(clock,a);\n    wire s1$clock = clock;\n    reg  s1$d;\n    always @(*) begin\n        s1$d = a;\n    end\nendmodule\n"
        );
    }
}
