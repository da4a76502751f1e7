//! Verilog generation for every block: rust-hdl's generator plus two rewrites.
//!
//! rust-hdl connects each sub-block's clock with a blocking assignment (`s1_x$clock = clock;`)
//! inside the module's one `always @(*)` block. That makes the whole combinational block
//! sensitive to the clock, so a simulator re-evaluates all of the module's logic on both clock
//! edges; Verilator spent most of its time there. [`verilog`] turns those assignments into
//! continuous ones (`wire s1_x$clock = clock;`), which means the same hardware and leaves the
//! `always @(*)` block sensitive to data only. Synthesis and cosimulation use this same text.
//!
//! rust-hdl also writes a default and then overrides it (`q = d; if (on) q = r$q;`), so in an
//! event-driven simulator (Icarus) a variable can take a wrong value and then the right one
//! within one evaluation. Such glitches cross ports into the parent's `always @(*)`, whose own
//! glitches re-trigger the child, and the simulation never leaves the time step.
//! [`glitch_free`] computes every such variable that the rest of the module sees in a shadow
//! (`x$c`) and copies it to `x` once, at the end of the block: the same logic, and each
//! variable changes at most once per evaluation.

use std::collections::HashSet;

use rust_hdl::prelude::{Block, generate_verilog};

/// The Verilog of `block` (module `top`), connected, with the clock wiring hoisted and the
/// combinational blocks glitch-free.
pub fn verilog<B: Block>(block: &mut B) -> String {
    block.connect_all();
    glitch_free(&hoist_clock_wiring(&generate_verilog(block)))
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

/// Rewrites each module's combinational blocks (`always @(*) begin … end`) so that every
/// variable a block assigns more than once and that the rest of the module sees (a port, a
/// sub-module pin) is computed in a shadow reg (`x$c`, declared beside `x`; all reads and
/// writes in the block use it) and assigned to `x` once, at the block's end. Events of a block
/// on its own variables do not re-trigger it, and an assignment of an unchanged value makes no
/// event, so `x` changes at most once per evaluation. A block with no such variable, or one
/// whose declarations are not plain `reg`s (memories), is left as it is; clocked blocks and
/// continuous assignments are never touched.
pub fn glitch_free(v: &str) -> String {
    let mut out = String::with_capacity(v.len() + v.len() / 8);
    let mut module: Vec<String> = Vec::new();
    for line in v.lines() {
        if line.starts_with("module ") && !module.is_empty() {
            glitch_free_module(&mut module);
            module.drain(..).for_each(|l| {
                out.push_str(&l);
                out.push('\n');
            });
        }
        module.push(line.to_string());
    }
    glitch_free_module(&mut module);
    module.into_iter().for_each(|l| {
        out.push_str(&l);
        out.push('\n');
    });
    out
}

/// [`glitch_free`] on the lines of one module, in place.
fn glitch_free_module(lines: &mut Vec<String>) {
    let mut taken: HashSet<String> = HashSet::new();
    for l in lines.iter() {
        map_idents(l, |id| {
            taken.insert(id.to_string());
            None
        });
    }
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim() != "always @(*) begin" {
            i += 1;
            continue;
        }
        let Some(end) = block_end(lines, i) else { return };
        // Variables assigned more than once, in order of their first assignment.
        let mut counts: Vec<(String, usize)> = Vec::new();
        for l in &lines[i + 1..end] {
            if let Some(x) = assigned(l) {
                match counts.iter_mut().find(|(n, _)| n == x) {
                    Some(c) => c.1 += 1,
                    None => counts.push((x.to_string(), 1)),
                }
            }
        }
        let multi: Vec<String> = counts.into_iter().filter(|c| c.1 > 1).map(|c| c.0).collect();
        let decls: Option<Vec<(usize, String)>> = multi.iter().map(|x| reg_decl(&lines[..i], x)).collect();
        // Only variables seen outside the block (ports, sub-module pins, other blocks) can
        // carry a glitch anywhere; one that only the block reads keeps its name.
        let seen = seen_outside(lines, i, end, decls.as_deref().unwrap_or_default());
        let (multi, decls): (Vec<String>, Vec<(usize, String)>) =
            multi.into_iter().zip(decls.unwrap_or_default()).filter(|(x, _)| seen.contains(x)).unzip();
        if decls.is_empty() {
            i = end + 1;
            continue;
        }
        let shadow: Vec<(String, String)> = multi
            .iter()
            .map(|x| {
                let mut s = format!("{x}$c");
                while taken.contains(&s) {
                    s.push('c');
                }
                taken.insert(s.clone());
                (x.clone(), s)
            })
            .collect();
        for l in &mut lines[i + 1..end] {
            *l = map_idents(l, |id| shadow.iter().find(|(x, _)| x == id).map(|(_, s)| s.clone()));
        }
        let indent = format!("{}    ", &lines[end][..lines[end].len() - lines[end].trim_start().len()]);
        let copies: Vec<String> = shadow.iter().map(|(x, s)| format!("{indent}{x} = {s};")).collect();
        let added = copies.len();
        lines.splice(end..end, copies);
        // Declarations go in below each variable's (below the port list for a port, which
        // stays one run of `input`/`output` lines for the tools that read it), bottom-up so
        // that the indices hold.
        let is_port = |l: &String| l.trim_start().starts_with("input ") || l.trim_start().starts_with("output ");
        let past_ports = |mut at: usize| {
            while is_port(&lines[at]) && at + 1 < lines.len() && is_port(&lines[at + 1]) {
                at += 1;
            }
            at
        };
        let mut decls: Vec<(usize, String, &String)> =
            decls.into_iter().zip(&shadow).map(|((at, d), (_, s))| (past_ports(at), d, s)).collect();
        decls.sort_by_key(|d| std::cmp::Reverse(d.0));
        for (at, d, s) in &decls {
            lines.insert(at + 1, format!("{d}{s};"));
        }
        i = end + added + decls.len() + 1;
    }
}

/// The identifiers that lines outside `start..=end` use, the declaration lines `decls` left out.
fn seen_outside(lines: &[String], start: usize, end: usize, decls: &[(usize, String)]) -> HashSet<String> {
    let mut seen = HashSet::new();
    for (k, l) in lines.iter().enumerate() {
        if (start..=end).contains(&k) || decls.iter().any(|d| d.0 == k) {
            continue;
        }
        map_idents(&without_port_names(l), |id| {
            seen.insert(id.to_string());
            None
        });
    }
    seen
}

/// `line` without the port names of named connections (`.cpl_bytes(mbar$cpl_bytes)` keeps
/// `(mbar$cpl_bytes)`): a sub-module's port name is not a use of the parent's variable of
/// that name.
fn without_port_names(line: &str) -> String {
    let b = line.as_bytes();
    let mut out = String::with_capacity(line.len());
    let mut i = 0;
    while i < b.len() {
        let named = b[i] == b'.' && b.get(i + 1).is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_');
        if named {
            i += 1;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'$') {
                i += 1;
            }
            continue;
        }
        out.push(b[i] as char);
        i += 1;
    }
    out
}

/// The index of the `end` that closes the block opened on line `start`.
fn block_end(lines: &[String], start: usize) -> Option<usize> {
    let mut depth = 0i64;
    for (k, l) in lines.iter().enumerate().skip(start) {
        map_idents(l, |w| {
            match w {
                "begin" => depth += 1,
                "end" => depth -= 1,
                _ => {}
            }
            None
        });
        if depth == 0 {
            return Some(k);
        }
    }
    None
}

/// The variable a statement line assigns (`x = …;` or `x[(o)+:(w)] = …;`), if it is one.
fn assigned(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let n = t.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$')).unwrap_or(t.len());
    let (name, mut rest) = t.split_at(n);
    if name.is_empty() || !name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        return None;
    }
    if rest.starts_with('[') {
        let mut depth = 0;
        let close = rest.char_indices().find(|&(_, c)| {
            depth += (c == '[') as i32 - (c == ']') as i32;
            depth == 0
        })?;
        rest = &rest[close.0 + 1..];
    }
    rest.starts_with(" = ").then_some(name)
}

/// The line (of those above the block) declaring `x` as a plain `reg` (a port `output reg` too) and the declaration
/// prefix of a local reg of the same type and width (`reg signed [7:0] `).
fn reg_decl(lines: &[String], x: &str) -> Option<(usize, String)> {
    lines.iter().enumerate().find_map(|(k, l)| {
        let words: Vec<&str> = l.trim().strip_suffix(';')?.split_whitespace().collect();
        let (last, head) = words.split_last()?;
        let head = head.strip_prefix(&["output"]).unwrap_or(head);
        if *last != x || head.first() != Some(&"reg") {
            return None;
        }
        let indent = &l[..l.len() - l.trim_start().len()];
        Some((k, format!("{indent}{} ", head.join(" "))))
    })
}

/// `line` with each identifier `id` for which `f` gives a name replaced by it. Number literals
/// (`8'hde`), system names (`$signed`) and comments are kept as they are.
fn map_idents(line: &str, mut f: impl FnMut(&str) -> Option<String>) -> String {
    let b = line.as_bytes();
    let mut out = String::with_capacity(line.len());
    let mut i = 0;
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
    while i < b.len() {
        let c = b[i];
        let start = i;
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            out.push_str(&line[i..]);
            break;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && word(b[i]) {
                i += 1;
            }
            let id = &line[start..i];
            out.push_str(&f(id).unwrap_or_else(|| id.to_string()));
            continue;
        } else if c.is_ascii_digit() || c == b'\'' || c == b'$' {
            // A number with its base and digits, or a system name: one opaque token.
            i += 1;
            while i < b.len() && (word(b[i]) || b[i] == b'\'') {
                i += 1;
            }
        } else {
            i += 1;
        }
        out.push_str(&line[start..i]);
    }
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
    fn a_port_name_of_a_named_connection_is_not_a_use() {
        assert_eq!(without_port_names("    sub s(.x(p$x),.clock(clock));"), "    sub s((p$x),(clock));");
    }

    #[test]
    fn hoists_only_clock_wiring() {
        let v = "module top(clock,a);\n    reg  s1$clock;\n    reg  s1$d;\n    always @(*) begin\n        s1$clock = clock;\n        s1$d = a;\n    end\nendmodule\n";
        let h = hoist_clock_wiring(v);
        assert_eq!(
            h,
            "module top(clock,a);\n    wire s1$clock = clock;\n    reg  s1$d;\n    always @(*) begin\n        s1$d = a;\n    end\nendmodule\n"
        );
    }

    #[test]
    fn shadows_variables_assigned_twice_and_seen_outside() {
        let v = "module top(d,q);\n    input wire [7:0] d;\n    output reg [7:0] q;\n    reg  x;\n    always @(*) begin\n        q = d;\n        x = 1'b1;\n        if (d[0]) x = 1'b0;\n        if (x) begin\n            q[(0)+:(1)] = 8'hd;\n        end\n    end\nendmodule\n";
        assert_eq!(
            glitch_free(v),
            "module top(d,q);\n    input wire [7:0] d;\n    output reg [7:0] q;\n    reg [7:0] q$c;\n    reg  x;\n    always @(*) begin\n        q$c = d;\n        x = 1'b1;\n        if (d[0]) x = 1'b0;\n        if (x) begin\n            q$c[(0)+:(1)] = 8'hd;\n        end\n        q = q$c;\n    end\nendmodule\n"
        );
    }
}
