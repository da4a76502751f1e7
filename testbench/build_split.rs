//! The *split* model of the reduction ALU in the build script: the ALU's Verilog taken apart
//! into models that the shim (`csrc/alu_split_shim.cpp`) clocks only when they have work.
//!
//! A Verilated model evaluates all of its logic on every clock edge: the ALU as one model
//! evaluates all 23 lanes of its units each cycle, though an operation uses 2.6 of them on
//! average (BENCHMARKS.md, "Cosimulation of the reduction ALU"). Here the Verilog of
//! `hw::alu_verilog()` is cut, as text, at the unit instances of module `top` (the instances
//! with a `hold` port, named after an [`hw::alu::AluUnit`]):
//! - `front.v` (`Vsplit_front`): `top` without its units and without its outputs; the inputs
//!   of every unit instance become outputs (`u_<instance>_<port>`), plus `u_holds`, the
//!   instances' `hold` bits packed (bit i: instance i). Verilator drops what only fed
//!   its outputs: the decode and operand distribution are left.
//! - `back.v` (`Vsplit_back`): `top` without its units, the units' outputs as inputs: the
//!   delay lines and the result select.
//! - one model per unit kind (`Vsplit_<unit>`), the Verilog of its first instance as module
//!   `top`; the build checks that every instance of a kind is the same Verilog.
//!
//! No line of the design is rewritten: the modules are the generator's text, cut at instance
//! boundaries. `split_lanes.h` tells the shim the instances (kind, ports) and each kind's
//! latency ([`hw::alu::AluUnit::latency`]).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use hw::alu::AluUnit;

/// The model prefixes: the front, the back, then one per unit kind.
pub const FRONT: &str = "Vsplit_front";
pub const BACK: &str = "Vsplit_back";

fn kind_prefix(u: AluUnit) -> String {
    format!("Vsplit_{}", u.name())
}

struct Port {
    input: bool,
    width: u32,
    name: String,
}

struct Unit {
    inst: String,
    kind: AluUnit,
    ports: Vec<Port>,
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

/// `text` with every identifier found in `map` replaced (whole identifiers only).
fn rename(text: &str, map: &HashMap<String, String>) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    let mut i = 0;
    while i < b.len() {
        if is_ident(b[i]) {
            let j = (i..b.len()).find(|&j| !is_ident(b[j])).unwrap_or(b.len());
            let id = &text[i..j];
            out.push_str(map.get(id).map_or(id, |s| s.as_str()));
            i = j;
        } else {
            let j = (i..b.len()).find(|&j| is_ident(b[j])).unwrap_or(b.len());
            out.push_str(&text[i..j]);
            i = j;
        }
    }
    out
}

fn mangle(inst: &str, port: &str) -> String {
    format!("u_{}_{}", inst.replace('$', "_"), port)
}

/// The modules of a generated Verilog file, by name, in order.
fn modules(v: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut cur: Option<(String, String)> = None;
    for line in v.split_inclusive('\n') {
        if let Some(rest) = line.strip_prefix("module ") {
            if let Some(m) = cur.take() {
                out.push(m);
            }
            let name = rest.split('(').next().unwrap_or("").to_string();
            cur = Some((name, String::new()));
        }
        if let Some((_, text)) = cur.as_mut() {
            text.push_str(line);
        }
    }
    out.extend(cur);
    out
}

/// The ports of a generated module, from its declarations (`    input wire  [15:0] a;`).
fn ports(text: &str) -> Vec<Port> {
    let mut out = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        let input = t.starts_with("input ");
        if !input && !t.starts_with("output ") {
            continue;
        }
        let decl = t.trim_end_matches(';');
        let name = decl.rsplit(' ').next().unwrap_or("").to_string();
        let width = match (decl.find('['), decl.find(":0]")) {
            (Some(a), Some(z)) => decl[a + 1..z].parse::<u32>().map(|h| h + 1).unwrap_or(0),
            _ => 1,
        };
        out.push(Port { input, width, name });
    }
    out
}

/// The Verilog files and the header of the split model, from the ALU's Verilog.
pub struct Split {
    pub front: String,
    pub back: String,
    /// (kind, Verilog with the kind's module as `top`)
    pub lanes: Vec<(AluUnit, String)>,
    pub header: String,
}

pub fn split(v: &str, cfg: &hw::Config) -> Result<Split, String> {
    let mods = modules(v);
    let top = mods.iter().find(|(n, _)| n == "top").map(|(_, t)| t.clone()).ok_or("no module `top`")?;
    let subtree = |inst: &str| -> String {
        let root = format!("top${inst}");
        let sub = format!("{root}$");
        mods.iter().filter(|(n, _)| *n == root || n.starts_with(&sub)).map(|(_, t)| t.as_str()).collect()
    };
    // The unit instances of `top`, in order, and the line ranges of their instance blocks.
    let mut units: Vec<Unit> = Vec::new();
    let mut keep = String::new();
    let mut skipping = false;
    for line in top.split_inclusive('\n') {
        if skipping {
            if line.trim() == ");" {
                skipping = false;
            }
            continue;
        }
        let t = line.trim_end();
        if let Some(rest) = t.strip_prefix("    top$") {
            let mut it = rest.split(' ');
            let (module, inst) = (it.next().unwrap_or(""), it.next().unwrap_or("").trim_end_matches('('));
            let kind = AluUnit::ALL.into_iter().find(|u| {
                let n = u.name();
                inst == n || inst.strip_prefix(n).is_some_and(|r| r.starts_with('$') || r.starts_with('_'))
            });
            let text = mods.iter().find(|(n, _)| *n == format!("top${module}")).map(|(_, t)| t.as_str()).unwrap_or("");
            let ps = ports(text);
            if let Some(kind) = kind.filter(|_| ps.iter().any(|p| p.name == "hold")) {
                if let Some(p) = ps.iter().find(|p| p.width > 64) {
                    return Err(format!("unit port {inst}.{} is {} bits wide; the split model passes at most 64", p.name, p.width));
                }
                units.push(Unit { inst: inst.to_string(), kind, ports: ps });
                skipping = true;
                continue;
            }
        }
        keep.push_str(line);
    }
    if units.is_empty() {
        return Err("module `top` has no unit instances (instances with a `hold` port named after an AluUnit)".into());
    }
    // One model per kind: every instance of a kind must be the same Verilog.
    let mut lanes: Vec<(AluUnit, String)> = Vec::new();
    for kind in AluUnit::ALL {
        let insts: Vec<&Unit> = units.iter().filter(|u| u.kind == kind).collect();
        let Some(first) = insts.first() else { continue };
        let norm = |u: &Unit| subtree(&u.inst).replace(&format!("top${}", u.inst), "top");
        let text = norm(first);
        for u in &insts[1..] {
            if norm(u) != text {
                return Err(format!(
                    "instances {} and {} of unit {} are not the same Verilog: the split model needs one model per kind",
                    first.inst,
                    u.inst,
                    kind.name()
                ));
            }
        }
        lanes.push((kind, text));
    }
    // The rest of the design: every module outside the units' subtrees.
    let in_unit = |n: &str| units.iter().any(|u| n == format!("top${}", u.inst) || n.starts_with(&format!("top${}$", u.inst)));
    let others: String = mods.iter().filter(|(n, _)| n != "top" && !in_unit(n)).map(|(_, t)| t.as_str()).collect();

    let mut map = HashMap::new();
    for u in &units {
        for p in u.ports.iter().filter(|p| p.name != "clock") {
            map.insert(format!("{}${}", u.inst, p.name), mangle(&u.inst, &p.name));
        }
    }
    let top_ports = ports(&top);
    let make = |front: bool| -> String {
        // `top`'s own ports (the front has no outputs), then the units' side.
        let mut plist: Vec<String> =
            top_ports.iter().filter(|p| !front || p.input).map(|p| p.name.clone()).collect();
        let mut body = String::new();
        for line in keep.split_inclusive('\n') {
            let t = line.trim();
            if line.starts_with("module top(") {
                continue;
            }
            // The front has no outputs of its own: what only fed them is dropped.
            if front && t.starts_with("output ") {
                body.push_str(&line.replacen("output ", "", 1));
                continue;
            }
            // (Declarations only: `    reg  [15:0] add16$0$a;`, `    wire  [15:0] add16$0$sum;`.)
            let is_decl = line.starts_with("    ") && !line.starts_with("     ") && (t.starts_with("reg ") || t.starts_with("wire "));
            let decl = t.trim_end_matches(';');
            let name = if is_decl { decl.rsplit(' ').next().unwrap_or("") } else { "" };
            if let Some(u) = units.iter().filter(|_| is_decl).find(|u| name.strip_prefix(&u.inst).is_some_and(|r| r.starts_with('$'))) {
                let port = &name[u.inst.len() + 1..];
                if let Some(p) = u.ports.iter().find(|p| p.name == port && p.name != "clock") {
                    if p.input == front {
                        // The front drives the units' inputs, the back reads their outputs.
                        body.push_str(&line.replacen(if front { "reg " } else { "wire " }, if front { "output reg " } else { "input wire " }, 1));
                        plist.push(name.to_string());
                        continue;
                    }
                    if front && !p.input {
                        // (A unit output in the front feeds nothing that is kept: tie it off.)
                        body.push_str(&format!("{} = 0;\n", line.trim_end().trim_end_matches(';')));
                        continue;
                    }
                }
            }
            if front && t == "// Update code" {
                let w = units.len();
                let holds: Vec<String> = units.iter().rev().map(|u| format!("{}$hold", u.inst)).collect();
                body.push_str(&format!("    output wire  [{}:0] u_holds;\n    assign u_holds = {{{}}};\n", w - 1, holds.join(",")));
                plist.push("u_holds".into());
            }
            body.push_str(line);
        }
        let text = format!("module top({});\n{}", plist.join(","), body);
        rename(&text, &map) + &others
    };
    let front = make(true);
    let back = make(false);

    // The header for the shim.
    let mut h = String::new();
    let _ = writeln!(h, "// Generated by testbench/build_split.rs from hw::alu_verilog(): do not edit.");
    let _ = writeln!(h, "#include \"{FRONT}.h\"\n#include \"{FRONT}___024root.h\"\n#include \"{BACK}.h\"\n#include \"{BACK}___024root.h\"");
    for (k, _) in &lanes {
        let p = kind_prefix(*k);
        let _ = writeln!(h, "#include \"{p}.h\"\n#include \"{p}___024root.h\"");
    }
    let _ = writeln!(h, "#define SPLIT_N_UNITS {}", units.len());
    let _ = write!(h, "// X(index, model class, lane latency)\n#define SPLIT_KINDS(X)");
    let kind_index = |k: AluUnit| lanes.iter().position(|(l, _)| *l == k).unwrap();
    for (i, (k, _)) in lanes.iter().enumerate() {
        let _ = write!(h, " X({i}, {}, {})", kind_prefix(*k), k.latency(cfg));
    }
    let _ = writeln!(h);
    for (k, _) in &lanes {
        let u = units.iter().find(|u| u.kind == *k).unwrap();
        let out = u.ports.iter().find(|p| !p.input).ok_or(format!("unit {} has no output", u.inst))?;
        if u.ports.iter().filter(|p| !p.input).count() != 1 {
            return Err(format!("unit {} has more than one output; the split model passes one", u.inst));
        }
        let _ = writeln!(h, "static inline uint64_t split_out({}& m) {{ return m.{}; }}", kind_prefix(*k), out.name);
    }
    let _ = writeln!(h, "// Loads instance `unit`'s inputs from the front into its kind's model and clocks it.");
    let _ = writeln!(h, "template <class E> static inline void split_load(E& e, {FRONT}& f, int unit, uint64_t cycle) {{\n    switch (unit) {{");
    for (i, u) in units.iter().enumerate() {
        let k = kind_index(u.kind);
        let mut sets = String::new();
        for p in u.ports.iter().filter(|p| p.input && p.name != "clock" && p.name != "hold") {
            let _ = write!(sets, "m.{} = f.{}; ", p.name, mangle(&u.inst, &p.name));
        }
        let _ = writeln!(h, "    case {i}: {{ auto& m = *e.k{k}.m; {sets}e.k{k}.load(cycle, {i}); break; }}");
    }
    let _ = writeln!(h, "    }}\n}}");
    let _ = writeln!(h, "// Drives instance `unit`'s output into the back.");
    let _ = writeln!(h, "static inline void split_back_set({BACK}& b, int unit, uint64_t v) {{\n    switch (unit) {{");
    for (i, u) in units.iter().enumerate() {
        let out = u.ports.iter().find(|p| !p.input).unwrap();
        let _ = writeln!(h, "    case {i}: b.{} = v; break;", mangle(&u.inst, &out.name));
    }
    let _ = writeln!(h, "    }}\n}}");
    let _ = writeln!(h, "#define SPLIT_ALU_LATENCY {}", cfg.alu_latency());
    Ok(Split { front, back, lanes, header: h })
}

/// Writes the split model's files into `out/split` and verilates them with
/// `model(prefix, trace, vfile)`; returns the object directories (front, back, kinds).
pub fn verilate(out: &Path, model: &dyn Fn(&str, bool, &Path) -> PathBuf) -> Vec<(String, PathBuf)> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    println!("cargo:rerun-if-changed={}", manifest.join("build_split.rs").display());
    let dir = out.join("split");
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| super::fail(format!("cannot create {}: {e}", dir.display())));
    let cfg = hw::Config::default();
    let s = split(&hw::alu_verilog(), &cfg)
        .unwrap_or_else(|e| super::fail(format!("cannot split the ALU's Verilog into the split model: {e}")));
    let write = |name: &str, text: &str| -> PathBuf {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap_or_else(|e| super::fail(format!("cannot write {}: {e}", p.display())));
        p
    };
    write("split_lanes.h", &s.header);
    let mut dirs = vec![
        (FRONT.to_string(), model(FRONT, false, &write("front.v", &s.front))),
        (BACK.to_string(), model(BACK, false, &write("back.v", &s.back))),
    ];
    for (k, text) in &s.lanes {
        let p = kind_prefix(*k);
        dirs.push((p.clone(), model(&p, false, &write(&format!("{}.v", k.name()), text))));
    }
    dirs
}

/// Compiles the shim against the models and copies their archives for the link line.
pub fn shim_and_link(manifest: &Path, include: &Path, out: &Path, dirs: &[(String, PathBuf)]) {
    let mut b = cc::Build::new();
    b.cpp(true)
        .std("c++17")
        .cpp_link_stdlib(None)
        .file(manifest.join("csrc/alu_split_shim.cpp"))
        .include(include)
        .include(include.join("vltstd"))
        .include(out.join("split"))
        .flag_if_supported("-Wno-unused-parameter")
        .opt_level(2);
    for (_, d) in dirs {
        b.include(d);
    }
    b.compile("redunit_alu_split_shim");
    for (prefix, d) in dirs {
        let from = d.join(format!("{prefix}__ALL.a"));
        let to = out.join(format!("lib{prefix}.a"));
        std::fs::copy(&from, &to).unwrap_or_else(|e| super::fail(format!("Verilator did not leave {}: {e}", from.display())));
        println!("cargo:rustc-link-lib=static={prefix}");
    }
}
