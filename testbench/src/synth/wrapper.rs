//! The timing wrapper: module `top` of the block inside a new `top` that registers its ports.

use std::fmt::Write as _;

use anyhow::{Context, bail};

/// Port bits above which the timing wrapper serialises the ports (the CABGA381 package has
/// 365 I/O pins; the unit's 355 port bits still fit).
pub const MAX_PARALLEL_PORT_BITS: u64 = 360;

/// Wraps module `top` of `verilog` in a new `top` that registers every input and output
/// port (registers marked `keep`), so that the timing of the block's own port-to-register and
/// register-to-port logic is measured as register-to-register paths, as inside a larger
/// design. Returns the Verilog and the number of wrapper flip-flops.
pub fn register_ports(verilog: &str) -> anyhow::Result<(String, u64)> {
    let start = verilog.find("module top(").context("no module top")?;
    let body = &verilog[start..];
    let mut ports: Vec<(bool, String, u64)> = Vec::new(); // (input, name, width)
    for line in body.lines().skip(1) {
        let t = line.trim();
        if t.starts_with("//") || t.is_empty() {
            continue;
        }
        let (input, rest) = if let Some(r) = t.strip_prefix("input wire") {
            (true, r)
        } else if let Some(r) = t.strip_prefix("output reg").or_else(|| t.strip_prefix("output wire")) {
            (false, r)
        } else {
            break;
        };
        let rest = rest.trim().trim_end_matches(';').trim();
        let (width, name) = match rest.strip_prefix('[') {
            Some(r) => {
                let (range, name) = r.split_once(']').context("bad port range")?;
                let hi: u64 = range.split(':').next().unwrap_or("0").trim().parse()?;
                (hi + 1, name.trim())
            }
            None => (1, rest),
        };
        ports.push((input, name.to_string(), width));
    }
    if !ports.iter().any(|(i, n, _)| *i && n == "clock") {
        bail!("module top has no clock input");
    }
    let mut w = String::new();
    let range = |n: u64| if n == 1 { String::new() } else { format!("[{}:0] ", n - 1) };
    let bits: u64 = ports.iter().filter(|(_, n, _)| n != "clock").map(|(_, _, b)| b).sum();
    let conns: Vec<String> = ports
        .iter()
        .map(|(input, n, _)| match (n.as_str(), input) {
            ("clock", _) => ".clock(clock)".to_string(),
            (_, true) => format!(".{n}({n}_q)"),
            (_, false) => format!(".{n}({n}_d)"),
        })
        .collect();
    let mut wrapper_ff = bits;
    if bits > MAX_PARALLEL_PORT_BITS {
        // Too many pins for the package: inputs from a shift chain fed by one pin, outputs
        // captured into a shift register (parallel load) read out on one pin. Every input bit
        // is its chain bit's register; every output bit has a register of its own between the
        // block and the chain's load multiplexer (`{n}_r`), as with pins. (A copy of an input
        // chain bit, `x_q <= in_chain[i]`, loads what chain bit i + 1 loads, and Yosys merges
        // the two whether `keep` or not.)
        let in_bits: u64 = ports.iter().filter(|(i, n, _)| *i && n != "clock").map(|(_, _, b)| b).sum();
        let out_bits: u64 = ports.iter().filter(|(i, _, _)| !*i).map(|(_, _, b)| b).sum();
        w.push_str("module top(clock,scan_in,scan_load,scan_out);\n");
        w.push_str(
            "    input wire clock;\n    input wire scan_in;\n    input wire scan_load;\n    output wire scan_out;\n",
        );
        let _ = writeln!(w, "    (* keep *) reg {}in_chain;", range(in_bits));
        let _ = writeln!(w, "    (* keep *) reg {}out_chain;", range(out_bits));
        let mut ib = 0u64;
        let (mut loads, mut outs) = (Vec::new(), Vec::new());
        for (input, n, width) in &ports {
            if n == "clock" {
                continue;
            }
            if *input {
                let _ = writeln!(w, "    wire {}{n}_q = in_chain[{}:{}];", range(*width), ib + width - 1, ib);
                ib += width;
            } else {
                let _ = writeln!(w, "    wire {}{n}_d;", range(*width));
                let _ = writeln!(w, "    (* keep *) reg {}{n}_r;", range(*width));
                loads.push(format!("        {n}_r <= {n}_d;"));
                outs.push(format!("{n}_r"));
            }
        }
        w.push_str("    always @(posedge clock) begin\n");
        if in_bits > 1 {
            let _ = writeln!(w, "        in_chain <= {{in_chain[{}:0], scan_in}};", in_bits - 2);
        } else {
            w.push_str("        in_chain <= scan_in;\n");
        }
        for l in &loads {
            let _ = writeln!(w, "{l}");
        }
        outs.reverse();
        let _ = writeln!(
            w,
            "        if (scan_load) out_chain <= {{{}}}; else out_chain <= out_chain >> 1;",
            outs.join(", ")
        );
        w.push_str("    end\n    assign scan_out = out_chain[0];\n");
        let _ = writeln!(w, "    top_core core({});", conns.join(","));
        w.push_str("endmodule\n\n");
        wrapper_ff = bits + out_bits;
    } else {
        let names: Vec<&str> = ports.iter().map(|(_, n, _)| n.as_str()).collect();
        let _ = writeln!(w, "module top({});", names.join(","));
        for (input, n, width) in &ports {
            if n == "clock" {
                w.push_str("    input wire clock;\n");
                continue;
            }
            if *input {
                let _ = writeln!(w, "    input wire {}{n};", range(*width));
                let _ = writeln!(w, "    (* keep *) reg {}{n}_q;", range(*width));
            } else {
                let _ = writeln!(w, "    output reg {}{n};", range(*width));
                let _ = writeln!(w, "    wire {}{n}_d;", range(*width));
                let _ = writeln!(w, "    (* keep *) reg {}{n}_q;", range(*width));
                let _ = writeln!(w, "    always @(*) {n} = {n}_q;");
            }
        }
        w.push_str("    always @(posedge clock) begin\n");
        for (input, n, _) in &ports {
            if n == "clock" {
                continue;
            }
            if *input {
                let _ = writeln!(w, "        {n}_q <= {n};");
            } else {
                let _ = writeln!(w, "        {n}_q <= {n}_d;");
            }
        }
        w.push_str("    end\n");
        let _ = writeln!(w, "    top_core core({});", conns.join(","));
        w.push_str("endmodule\n\n");
    }
    let renamed = format!("{}module top_core({}", &verilog[..start], &verilog[start + "module top(".len()..]);
    Ok((w + &renamed, wrapper_ff))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapper_registers_every_port() {
        let v = "\n\nmodule top(clock,a,y);\n    \n    // Module arguments\n    input wire  clock;\n    input wire  [7:0] a;\n    output reg  y;\n    \n    // Constant declarations\nendmodule\n";
        let (w, bits) = register_ports(v).unwrap();
        assert_eq!(bits, 9);
        assert!(w.contains("module top_core(clock,a,y);"));
        assert!(w.contains("top_core core(.clock(clock),.a(a_q),.y(y_d));"));
        assert!(w.contains("(* keep *) reg [7:0] a_q;"));
        // A wide block: serial chains instead of pins.
        let wide = v.replace("[7:0] a", "[399:0] a");
        let (w, bits) = register_ports(&wide).unwrap();
        assert!(w.contains("module top(clock,scan_in,scan_load,scan_out);"));
        // (The chains and a register per output bit.)
        assert_eq!(bits, 402);
        assert!(w.contains("wire [399:0] a_q = in_chain[399:0];"));
        assert!(w.contains("in_chain <= {in_chain[398:0], scan_in};"));
        assert!(w.contains("y_r <= y_d;"));
        assert!(w.contains("if (scan_load) out_chain <= {y_r}; else out_chain <= out_chain >> 1;"));
    }
}
