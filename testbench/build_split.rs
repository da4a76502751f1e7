//! The *split* model of the reduction ALU in the build script: the ALU's Verilog taken apart
//! into models that the shim (`csrc/alu_split_shim.cpp`) clocks only when they have work.
//!
//! A Verilated model evaluates all of its logic on every clock edge: the ALU as one model
//! evaluates all 23 lanes of its units each cycle, though an operation uses 2.6 of them on
//! average (BENCHMARKS.md, "Cosimulation"). Here the Verilog of
//! `hw::alu_verilog()` is cut, as text, at the unit instances of module `top` (the instances
//! with a `hold` port, named after an [`hw::alu::AluUnit`]):
//! - `front.v` (`Vsplit_front`): `top` without its units and without its outputs; the inputs
//!   of every unit instance become outputs (`u_<instance>_<port>`), plus `u_holds`, the
//!   instances' `hold` bits packed (bit i: instance i). Verilator drops what only fed
//!   its outputs: the decode and operand distribution are left.
//! - `back.v` (`Vsplit_back`): `top` without its units, the units' outputs as inputs: the
//!   delay lines and the result select, with the registers it reads cut out
//!   ([`cut_registers`], [`live_registers`]): combinational, evaluated once a cycle, its
//!   registers copied `d` to `q` by the shim (`split_back_clock`).
//! - per unit kind of n lanes, models of its lanes 0..N-1 side by side for N = 1, 2, 4, ...
//!   and n (`Vsplit_<unit>_x<N>`, [`group`]): the Verilog of its first instance as module
//!   `lane`, N times; the build checks that every instance of a kind is the same Verilog.
//!   The shim clocks the narrowest one that holds the lanes the form uses (lanes 0..k-1,
//!   [`hw::alu::unit_lanes`]): a scalar f16 add clocks one add16 lane, not eight.
//!
//! No line of the design's logic is rewritten: the modules are the generator's text, cut at
//! instance boundaries and at the back's registers. `split_lanes.h` tells the shim the models
//! (lanes, ports, latency from [`hw::alu::AluUnit::latency`]), each form code's kind and lane
//! count, which models take the loads of a cycle (`split_load`, staged for the models' pass),
//! and the back's registers.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use hw::alu::AluUnit;

/// The model prefixes of the front and the back (the unit models': [`Model::prefix`]).
pub const FRONT: &str = "Vsplit_front";
pub const BACK: &str = "Vsplit_back";

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

/// An instance line of a generated module (`    top$add16$0 add16$0(`): the module's and
/// the instance's names.
fn instance(line: &str) -> Option<(&str, &str)> {
    if !line.starts_with("    ") || line.starts_with("     ") {
        return None;
    }
    let (module, inst) = line.trim().split_once(' ')?;
    Some((module, inst.strip_suffix('(')?))
}

/// Module `top` of a kind's model: `n` instances of the unit's module (renamed `lane`) side by
/// side, lane j's ports as `l<j>_<port>`, with one clock and one `hold`.
fn group(ports: &[Port], n: usize) -> String {
    let mut plist = vec!["clock".to_string(), "hold".to_string()];
    let mut decl = String::from("    input wire  clock;\n    input wire  hold;\n");
    let mut insts = String::new();
    for j in 0..n {
        let mut conns = vec![".clock(clock)".to_string(), ".hold(hold)".to_string()];
        for p in ports.iter().filter(|p| p.name != "clock" && p.name != "hold") {
            let name = format!("l{j}_{}", p.name);
            let range = if p.width > 1 { format!("[{}:0] ", p.width - 1) } else { String::new() };
            let _ = writeln!(decl, "    {} wire  {range}{name};", if p.input { "input" } else { "output" });
            conns.push(format!(".{}({name})", p.name));
            plist.push(name);
        }
        let _ = writeln!(insts, "    lane l{j}({});", conns.join(","));
    }
    format!("module top({});\n{decl}{insts}endmodule // top\n\n", plist.join(","))
}

/// A register cut out of the back ([`cut_registers`]): its `q` is the back's input
/// `<name>_q`, its `d` the back's output `<name>_d`; the shim copies `d` into `q` once a cycle.
pub struct Reg {
    /// `rcut<k>`: the k-th register module of the file.
    pub name: String,
    k: usize,
    width: u32,
    /// The power-up value, in hex, from the register's `initial` block.
    init: String,
}

/// The register modules of a generated design: `module X(d,q,clock)` whose only sequential
/// logic is `always @(posedge clock) q <= d;` (rust-hdl's `DFF`). Any other edge-triggered
/// logic is an error: the cut would leave it clocked by nothing.
fn registers(mods: &[(String, String)]) -> Result<Vec<(usize, u32, String)>, String> {
    let mut out = Vec::new();
    for (i, (name, text)) in mods.iter().enumerate() {
        let edges = text.matches("posedge").count() + text.matches("negedge").count();
        if edges == 0 {
            continue;
        }
        let simple = edges == 1
            && text.starts_with(&format!("module {name}(d,q,clock);"))
            && text.contains("always @(posedge clock) begin")
            && text.lines().filter(|l| l.contains("<=")).map(str::trim).eq(["q <= d;"]);
        if !simple {
            return Err(format!(
                "module {name} has edge-triggered logic other than a plain register (q <= d): the split model's back cannot be cut"
            ));
        }
        let width = ports(text).iter().find(|p| p.name == "q").map_or(0, |p| p.width);
        // `       q = 64'h0;` in the `initial` block.
        let init = text
            .lines()
            .map(str::trim)
            .find_map(|l| {
                l.strip_prefix("q = ")
                    .and_then(|r| r.split_once("'h"))
                    .map(|(_, v)| v.trim_end_matches(';').replace('_', ""))
            })
            .unwrap_or_else(|| "0".into());
        let digits = init.trim_start_matches('0').len() as u32;
        if init.is_empty() || !init.bytes().all(|c| c.is_ascii_hexdigit()) || digits > width.div_ceil(4) {
            return Err(format!("register module {name}: cannot read its initial value `{init}` as hex"));
        }
        out.push((i, width, init));
    }
    Ok(out)
}

/// `text` (generated Verilog, module `top` at its root, each module instantiated once, as
/// rust-hdl writes it) with the registers that `cut(k)` selects (k: their order in the file)
/// taken out: register k's `q` becomes an input of `top`, `rcut<k>_q`, and its `d` an output,
/// `rcut<k>_d`, threaded as ports through the modules above it. What is left of the design is
/// combinational; the registers not cut stay as they are.
fn cut_registers(text: &str, cut: &dyn Fn(usize) -> bool) -> Result<(String, Vec<Reg>), String> {
    if text.contains("rcut") {
        return Err("the Verilog already has identifiers starting with `rcut`".into());
    }
    let mods = modules(text);
    let index: HashMap<&str, usize> = mods.iter().enumerate().map(|(i, (n, _))| (n.as_str(), i)).collect();
    // Each module's parent and instance name (`    <module> <inst>(`).
    let mut parent: Vec<Option<(usize, String)>> = vec![None; mods.len()];
    for (p, (_, t)) in mods.iter().enumerate() {
        for (m, inst) in t.lines().filter_map(instance) {
            if let Some(&c) = index.get(m) {
                if parent[c].replace((p, inst.to_string())).is_some() {
                    return Err(format!("module {m} is instantiated more than once"));
                }
            }
        }
    }
    let top = *index.get("top").ok_or("no module `top`")?;
    let mut regs = Vec::new();
    // Per module: ports to add (name, declaration) and connections to add per instance line.
    let mut add_ports: Vec<Vec<(String, String)>> = vec![Vec::new(); mods.len()];
    let mut add_conns: Vec<Vec<String>> = vec![Vec::new(); mods.len()];
    let mut replace: HashMap<usize, String> = HashMap::new();
    for (k, (i, width, init)) in registers(&mods)?.into_iter().enumerate() {
        if !cut(k) {
            continue;
        }
        // Only registers instantiated under `top`.
        let mut path = vec![i];
        while let Some((p, _)) = &parent[*path.last().unwrap()] {
            path.push(*p);
        }
        if *path.last().unwrap() != top || i == top {
            continue;
        }
        let name = format!("rcut{k}");
        let range = format!("[{}:0] ", width - 1);
        let m = &mods[i].0;
        replace.insert(
            i,
            format!(
                "module {m}(d,q,clock,rq,rd);\n    input wire  {range}d;\n    output wire  {range}q;\n    input wire  clock;\n    \
                 input wire  {range}rq;\n    output wire  {range}rd;\n    // Cut for the split model: the shim holds this register.\n    \
                 assign q = rq;\n    assign rd = d;\nendmodule // {m}\n\n\n"
            ),
        );
        add_conns[i].push(format!(".rq({name}_q),\n        .rd({name}_d),"));
        for &up in &path[1..] {
            add_ports[up].push((format!("{name}_q"), format!("input wire  {range}{name}_q;")));
            add_ports[up].push((format!("{name}_d"), format!("output wire  {range}{name}_d;")));
            if up != top {
                add_conns[up].push(format!(".{name}_q({name}_q),\n        .{name}_d({name}_d),"));
            }
        }
        regs.push(Reg { name, k, width, init });
    }
    let mut out = String::with_capacity(text.len() + regs.len() * 256);
    for (i, (name, t)) in mods.iter().enumerate() {
        if let Some(r) = replace.get(&i) {
            out.push_str(r);
            continue;
        }
        for line in t.split_inclusive('\n') {
            if line.starts_with(&format!("module {name}(")) && !add_ports[i].is_empty() {
                let names: Vec<&str> = add_ports[i].iter().map(|(n, _)| n.as_str()).collect();
                out.push_str(&line.replacen(");", &format!(",{});", names.join(",")), 1));
                for (_, decl) in &add_ports[i] {
                    let _ = writeln!(out, "    {decl}");
                }
                continue;
            }
            out.push_str(line);
            // An instance line of a module with cut registers below it.
            if let Some(&c) = instance(line).and_then(|(m, _)| index.get(m)) {
                for conn in &add_conns[c] {
                    let _ = writeln!(out, "        {conn}");
                }
            }
        }
    }
    Ok((out, regs))
}

/// A model of the first `lanes.len()` lanes of a unit kind.
pub struct Model {
    /// `Vsplit_<kind>_x<lanes>`
    pub prefix: String,
    /// The kind's index among the kinds present.
    kind: usize,
    /// Its lanes' unit instances (bits of `u_holds`), lane 0 first.
    lanes: Vec<usize>,
    /// Module `top` of [`group`], then the lane's modules.
    pub verilog: String,
}

/// The Verilog files and the header of the split model, from the ALU's Verilog.
pub struct Split {
    pub front: String,
    pub back: String,
    /// The unit models, each kind's by width.
    pub models: Vec<Model>,
    pub header: String,
}

/// Module `n` is instance `inst` of `top`'s module or one of its submodules.
fn in_subtree(n: &str, inst: &str) -> bool {
    n.strip_prefix("top$").and_then(|r| r.strip_prefix(inst)).is_some_and(|r| r.is_empty() || r.starts_with('$'))
}

/// The ALU's Verilog `v` cut into the front, the back, the unit models and the shim's header.
pub fn split(v: &str, cfg: &hw::Config) -> Result<Split, String> {
    let mods = modules(v);
    let top = mods.iter().find(|(n, _)| n == "top").map(|(_, t)| t.clone()).ok_or("no module `top`")?;
    let (units, keep) = find_units(&mods, &top)?;
    let (kinds, models) = lane_models(&mods, &units)?;
    // The rest of the design: every module outside the units' subtrees.
    let in_unit = |n: &str| units.iter().any(|u| in_subtree(n, &u.inst));
    let others: String = mods.iter().filter(|(n, _)| n != "top" && !in_unit(n)).map(|(_, t)| t.as_str()).collect();
    let front = front_or_back(&top, &keep, &units, &others, true);
    let back = front_or_back(&top, &keep, &units, &others, false);
    let header = header(&units, &kinds, &models, cfg)?;
    Ok(Split { front, back, models, header })
}

/// The unit instances of module `top` (text `top`), in order, and `top`'s text without their
/// instance blocks.
fn find_units(mods: &[(String, String)], top: &str) -> Result<(Vec<Unit>, String), String> {
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
        if let Some((module, inst)) = instance(line).filter(|(m, _)| m.starts_with("top$")) {
            let kind = AluUnit::ALL.into_iter().find(|u| {
                let n = u.name();
                inst == n || inst.strip_prefix(n).is_some_and(|r| r.starts_with('$') || r.starts_with('_'))
            });
            let text = mods.iter().find(|(n, _)| n == module).map(|(_, t)| t.as_str()).unwrap_or("");
            let ps = ports(text);
            if let Some(kind) = kind.filter(|_| ps.iter().any(|p| p.name == "hold")) {
                if let Some(p) = ps.iter().find(|p| p.width > 64) {
                    return Err(format!(
                        "unit port {inst}.{} is {} bits wide; the split model passes at most 64",
                        p.name, p.width
                    ));
                }
                let outs = ps.iter().filter(|p| !p.input).count();
                if outs != 1 {
                    return Err(format!("unit {inst} has {outs} outputs; the split model passes exactly one"));
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
    Ok((units, keep))
}

/// The unit kinds present (each with its instances) and the models of their lanes.
fn lane_models(mods: &[(String, String)], units: &[Unit]) -> Result<(Vec<(AluUnit, Vec<usize>)>, Vec<Model>), String> {
    let subtree =
        |inst: &str| -> String { mods.iter().filter(|(n, _)| in_subtree(n, inst)).map(|(_, t)| t.as_str()).collect() };
    // Per kind: every instance of a kind must be the same Verilog. A kind of n lanes has models
    // of 1, 2, 4, ... and n of its lanes side by side (lanes 0..N-1, one clock for all).
    let mut kinds: Vec<(AluUnit, Vec<usize>)> = Vec::new();
    let mut models: Vec<Model> = Vec::new();
    for kind in AluUnit::ALL {
        let insts: Vec<usize> = (0..units.len()).filter(|&x| units[x].kind == kind).collect();
        let Some(&first) = insts.first() else { continue };
        let first = &units[first];
        let norm = |u: &Unit| subtree(&u.inst).replace(&format!("top${}", u.inst), "lane");
        let text = norm(first);
        for &x in &insts[1..] {
            if norm(&units[x]) != text {
                return Err(format!(
                    "instances {} and {} of unit {} are not the same Verilog: the split model needs one lane module per kind",
                    first.inst,
                    units[x].inst,
                    kind.name()
                ));
            }
        }
        let n = insts.len();
        let mut sizes: Vec<usize> = (0..).map(|i| 1usize << i).take_while(|&w| w < n).collect();
        sizes.push(n);
        for w in sizes {
            models.push(Model {
                prefix: format!("Vsplit_{}_x{w}", kind.name()),
                kind: kinds.len(),
                lanes: insts[..w].to_vec(),
                verilog: group(&first.ports, w) + &text,
            });
        }
        kinds.push((kind, insts));
    }
    Ok((kinds, models))
}

/// `top` without its units: the front (`front`: the units' inputs as outputs, no outputs of
/// its own) or the back (the units' outputs as inputs), then the modules outside the units.
fn front_or_back(top: &str, keep: &str, units: &[Unit], others: &str, front: bool) -> String {
    let mut map = HashMap::new();
    for u in units {
        for p in u.ports.iter().filter(|p| p.name != "clock") {
            map.insert(format!("{}${}", u.inst, p.name), mangle(&u.inst, &p.name));
        }
    }
    let top_ports = ports(top);
    // `top`'s own ports (the front has no outputs), then the units' side.
    let mut plist: Vec<String> = top_ports.iter().filter(|p| !front || p.input).map(|p| p.name.clone()).collect();
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
        let is_decl =
            line.starts_with("    ") && !line.starts_with("     ") && (t.starts_with("reg ") || t.starts_with("wire "));
        let decl = t.trim_end_matches(';');
        let name = if is_decl { decl.rsplit(' ').next().unwrap_or("") } else { "" };
        if let Some(u) =
            units.iter().filter(|_| is_decl).find(|u| name.strip_prefix(&u.inst).is_some_and(|r| r.starts_with('$')))
        {
            let port = &name[u.inst.len() + 1..];
            if let Some(p) = u.ports.iter().find(|p| p.name == port && p.name != "clock") {
                if p.input == front {
                    // The front drives the units' inputs, the back reads their outputs.
                    body.push_str(&line.replacen(
                        if front { "reg " } else { "wire " },
                        if front { "output reg " } else { "input wire " },
                        1,
                    ));
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
            body.push_str(&format!(
                "    output wire  [{}:0] u_holds;\n    assign u_holds = {{{}}};\n",
                w - 1,
                holds.join(",")
            ));
            plist.push("u_holds".into());
        }
        body.push_str(line);
    }
    let text = format!("module top({});\n{}", plist.join(","), body);
    rename(&text, &map) + others
}

/// The shim's header `split_lanes.h`: the models, their ports, each form's lanes, the loads.
fn header(
    units: &[Unit],
    kinds: &[(AluUnit, Vec<usize>)],
    models: &[Model],
    cfg: &hw::Config,
) -> Result<String, String> {
    let mut h = String::new();
    let _ = writeln!(h, "// Generated by testbench/build_split.rs from hw::alu_verilog(): do not edit.");
    let _ = writeln!(
        h,
        "#include \"{FRONT}.h\"\n#include \"{FRONT}___024root.h\"\n#include \"{BACK}.h\"\n#include \"{BACK}___024root.h\""
    );
    for m in models {
        let _ = writeln!(h, "#include \"{0}.h\"\n#include \"{0}___024root.h\"", m.prefix);
    }
    let _ = writeln!(h, "#define SPLIT_N_UNITS {}", units.len());
    // Per model: its inputs from the front (staged as 64-bit words in the front's pass, put on
    // the model's ports when its loads run), its outputs, and the back's ports that they
    // drive. (Through `rootp`: the model class's ports are references to its root's fields,
    // one load more per access; about 4% of the split model's time.)
    let mut list = String::new();
    for (i, m) in models.iter().enumerate() {
        let (kind, _) = kinds[m.kind];
        // (Each unit has exactly one output: checked where the units are found.)
        let out = &units[m.lanes[0]].ports.iter().find(|p| !p.input).expect("one output").name;
        let _ = write!(list, " X({i}, {}, {}, {})", m.prefix, kind.latency(cfg), m.lanes.len());
        let (mut stage, mut unstage, mut outv, mut drive) =
            (String::new(), String::new(), String::new(), String::new());
        let mut words = 0;
        for (j, &x) in m.lanes.iter().enumerate() {
            let u = &units[x];
            for p in u.ports.iter().filter(|p| p.input && p.name != "clock" && p.name != "hold") {
                let _ = write!(stage, " s[{words}] = f.rootp->{};", mangle(&u.inst, &p.name));
                let _ = write!(unstage, " m.rootp->l{j}_{} = s[{words}];", p.name);
                words += 1;
            }
            let _ = write!(outv, " v[{j}] = m.rootp->l{j}_{out};");
            let _ = write!(drive, " if (mask >> {x} & 1) b.rootp->{} = v[{j}];", mangle(&u.inst, out));
        }
        let p = &m.prefix;
        let _ = writeln!(h, "constexpr int split_words(const {p}*) {{ return {words}; }}");
        let _ = writeln!(h, "static inline void split_stage(const {p}*, uint64_t* s, const {FRONT}& f) {{{stage} }}");
        let _ = writeln!(h, "static inline void split_unstage({p}& m, const uint64_t* s) {{{unstage} }}");
        let _ = writeln!(h, "static inline void split_out(const {p}& m, uint64_t* v) {{{outv} }}");
        let _ = writeln!(
            h,
            "static inline void split_drive({BACK}& b, const {p}*, uint64_t mask, const uint64_t* v) {{{drive} }}"
        );
    }
    let _ = writeln!(h, "// X(index, model class, lane latency, lanes)\n#define SPLIT_MODELS(X){list}");
    // Per form code: its unit's kind (high nibble) and how many of its lanes it uses
    // (hw::alu::unit_lanes: lanes 0..k-1); 0xff for codes that are no form.
    let mut table = vec![0xffu8; 1 << sim::form::encoding::CODE_WIDTH];
    for form in sim::Form::all() {
        let (unit, mask) = hw::alu::unit_lanes(form);
        let Some(k) = kinds.iter().position(|(u, _)| *u == unit) else { continue };
        let used = mask.count_ones() as usize;
        // (A nibble each; kind 15 is kept free, so that 0xff reads as no form.)
        if mask as usize != (1usize << used) - 1 || used > kinds[k].1.len() || k >= 15 || used > 15 {
            return Err(format!(
                "form {form}: lanes {mask:#b} of unit {} are not lanes 0..k-1 of its {} lanes",
                unit.name(),
                kinds[k].1.len()
            ));
        }
        table[form.code() as usize] = (k << 4 | used) as u8;
    }
    let rows: Vec<String> =
        table.chunks(32).map(|c| c.iter().map(|v| format!("{v:#x}")).collect::<Vec<_>>().join(",")).collect();
    let _ = writeln!(h, "static const uint8_t split_form_lanes[{}] = {{\n{}}};", table.len(), rows.join(",\n"));
    // The loads of one cycle: for each kind with lanes that load (hold low), its narrowest
    // model that holds the lanes the form uses (all of them for another kind's form).
    let _ = writeln!(
        h,
        "template <class E> static inline void split_load(E& e, const {FRONT}& f, uint64_t use, unsigned form, uint64_t cycle) {{"
    );
    let _ = writeln!(h, "    const unsigned fl = form < {} ? split_form_lanes[form] : 0xff;", table.len());
    let bits = |insts: &[usize]| -> u64 { insts.iter().map(|x| 1u64 << x).sum() };
    for (k, (_, insts)) in kinds.iter().enumerate() {
        let all = bits(insts);
        let mine: Vec<(usize, &Model)> = models.iter().enumerate().filter(|(_, m)| m.kind == k).collect();
        let _ = writeln!(h, "    if (use & {all:#x}ull) {{");
        if mine.len() > 1 {
            let _ = writeln!(h, "        const unsigned k = fl >> 4 == {k} ? (fl & 15) : {};", insts.len());
        }
        for (n, (i, m)) in mine.iter().enumerate() {
            let load = format!("e.k{i}.stage(f, cycle, use & {:#x}ull);", bits(&m.lanes));
            if n + 1 == mine.len() {
                let _ = writeln!(h, "        {}{load}", if n == 0 { "" } else { "else " });
            } else {
                let _ = writeln!(h, "        {}if (k <= {}) {load}", if n == 0 { "" } else { "else " }, m.lanes.len());
            }
        }
        let _ = writeln!(h, "    }}");
    }
    let _ = writeln!(h, "}}");
    let _ = writeln!(h, "#define SPLIT_ALU_LATENCY {}", cfg.alu_latency());
    Ok(h)
}

fn live_registers(cut_all: &[Reg], dir: &Path) -> Result<Option<Vec<usize>>, String> {
    let mut code = String::new();
    let files = std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for f in files.flatten() {
        let n = f.file_name().to_string_lossy().into_owned();
        // The root's evaluation code: not the model class (which binds every port), not the
        // constructors and resets (`__Slow`).
        if n.contains("___024root__DepSet") && n.ends_with(".cpp") && !n.ends_with("__Slow.cpp") {
            let t = std::fs::read_to_string(f.path()).map_err(|e| format!("cannot read {n}: {e}"))?;
            // (Without the debug build's port-width assertions, which read every input.)
            let mut debug = false;
            for line in t.lines() {
                match line.trim() {
                    "#ifdef VL_DEBUG" => debug = true,
                    l if l.starts_with("#endif") && debug => debug = false,
                    _ if !debug => {
                        code.push_str(line);
                        code.push('\n');
                    }
                    _ => {}
                }
            }
        }
    }
    let read = |r: &Reg| {
        let name = format!("{}_q", r.name);
        code.match_indices(&name)
            .any(|(at, _)| !code[at + name.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
    };
    let live: Vec<usize> = cut_all.iter().filter(|r| read(r)).map(|r| r.k).collect();
    Ok((!live.is_empty() || cut_all.is_empty()).then_some(live))
}

/// Writes the split model's files into `out/split` and verilates them with
/// `model(prefix, trace, vfile)` (`codegen(prefix, vfile)`: Verilator's C++ without building
/// it, for [`live_registers`]); returns the object directories (front, back, kinds).
pub fn verilate(
    out: &Path,
    model: &dyn Fn(&str, bool, &Path) -> PathBuf,
    codegen: &dyn Fn(&str, &Path) -> PathBuf,
) -> Vec<(String, PathBuf)> {
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
    // The back without its registers: combinational, evaluated once a cycle, its registers
    // held by the shim (`split_back_clock`). Only those its logic reads are cut; Verilator
    // drops the others.
    let cut = |which: &dyn Fn(usize) -> bool| {
        cut_registers(&s.back, which)
            .unwrap_or_else(|e| super::fail(format!("cannot cut the registers out of the split model's back: {e}")))
    };
    let (all_text, all) = cut(&|_| true);
    let live = live_registers(&all, &codegen(&format!("{BACK}_cut_all"), &write("back_cut_all.v", &all_text)))
        .unwrap_or_else(|e| super::fail(format!("split model: {e}")));
    let (back, regs) = match live {
        Some(live) => cut(&|k| live.contains(&k)),
        None => {
            println!(
                "cargo:warning=split model: no register reads found in Verilator's C++ of the cut back; cutting all {} registers (slower)",
                all.len()
            );
            (all_text, all)
        }
    };
    let mut dirs = vec![
        (FRONT.to_string(), model(FRONT, false, &write("front.v", &s.front))),
        (BACK.to_string(), model(BACK, false, &write("back.v", &back))),
    ];
    for m in &s.models {
        dirs.push((m.prefix.clone(), model(&m.prefix, false, &write(&format!("{}.v", m.prefix), &m.verilog))));
    }
    let mut h = s.header;
    // The back's registers: their power-up values, and the clock edge (every `d` into its `q`).
    let (mut init, mut clock) = (String::new(), String::new());
    for r in &regs {
        if r.width <= 64 {
            let _ = write!(
                init,
                " b.rootp->{}_q = {:#x}ull;",
                r.name,
                u64::from_str_radix(&r.init, 16).expect("checked in registers()")
            );
        } else {
            let hex = format!("{:0>width$}", r.init, width = r.width.div_ceil(32) as usize * 8);
            for (w, chunk) in hex.as_bytes().rchunks(8).enumerate() {
                let _ = write!(
                    init,
                    " b.rootp->{}_q[{w}] = 0x{}u;",
                    r.name,
                    std::str::from_utf8(chunk).expect("hex digits")
                );
            }
        }
        let _ = write!(clock, " b.rootp->{0}_q = b.rootp->{0}_d;", r.name);
    }
    let _ = writeln!(h, "static inline void split_back_init({BACK}& b) {{{init} }}");
    let _ = writeln!(h, "static inline void split_back_clock({BACK}& b) {{{clock} }}");
    // `split_eval(m)`: the model's `eval()` without its per-call wrapper (`eval_step`: the
    // first call's initialisation, which the shim's first `eval()` does, and the message
    // queue of threaded models, which these are not), where this Verilator's generated
    // code has the function (5.006 declares `void <prefix>___024root___eval(<prefix>___024root*)`
    // in `<prefix>.cpp`); `eval()` otherwise.
    for (p, d) in &dirs {
        let decl = format!("void {p}___024root___eval({p}___024root* vlSelf);");
        let direct = std::fs::read_to_string(d.join(format!("{p}.cpp"))).is_ok_and(|t| t.contains(&decl));
        if direct {
            let _ = writeln!(h, "{decl}\nstatic inline void split_eval({p}& m) {{ {p}___024root___eval(m.rootp); }}");
        } else {
            let _ = writeln!(h, "static inline void split_eval({p}& m) {{ m.eval(); }}");
        }
    }
    write("split_lanes.h", &h);
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
        .opt_level(3);
    for (_, d) in dirs {
        b.include(d);
    }
    b.compile("redunit_alu_split_shim");
    for (prefix, d) in dirs {
        super::copy_archive(d, prefix, out);
        println!("cargo:rustc-link-lib=static={prefix}");
    }
}
