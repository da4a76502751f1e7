//! Viewer set-ups written beside every waveform of the unit: a GTKWave save file (`.gtkw`) and
//! a Surfer command file (`.sucl`) that open on the signals that matter, grouped and in
//! pipeline order (the ports, each stage's valid and line, the queue's occupancy, the
//! forwarding selects, the responses and the coverage events), instead of the 20,000-odd
//! signals of the whole hierarchy.
//!
//! The signal names are checked against the VCD's own header (`vcd` crate), so a file never
//! names a signal the waveform lacks; [`unit_signals`] returns the names it could not find,
//! and a test holds that list empty for the unit's default configuration.

use std::fmt::Write as _;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use vcd::{ReferenceIndex, ScopeItem};

/// One group of signals: its title and the signals' names relative to the unit's module
/// (`queue.slots.e_valid$0$q` is `e_valid$0$q` in the instance `slots` of the instance `queue`).
pub struct Group {
    pub title: &'static str,
    pub signals: Vec<String>,
}

/// The unit's groups in pipeline order, for a unit of pipeline shape `sh`.
pub fn unit_groups(sh: &hw::slice_unit::Shape) -> Vec<Group> {
    let v = |names: &[&str]| names.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let ports = v(&[
        "clock",
        "reset",
        "req_valid",
        "req_ready",
        "req_op",
        "req_addr",
        "req_id",
        "req_mask",
        "req_data",
        "rsp_valid",
        "rsp_ready",
        "rsp_id",
        "rsp_status",
        "rsp_data",
        "cov",
    ]);
    let mut queue = v(&["queue$push_valid", "queue$push_ready", "queue$push_line"]);
    queue.extend((0..hw::slice_unit::QUEUE_DEPTH).map(|i| format!("queue.slots.e_valid${i}$q")));
    queue.extend(v(&["queue$issue_valid", "queue$issue_line", "issue", "credit.credits$q"]));
    let mut stages = Vec::new();
    for k in 0..sh.stages {
        stages.push(format!("sp_valid${k}$q"));
        stages.push(format!("sp_line${k}$q"));
    }
    let mut written = Vec::new();
    for k in 0..sh.ram_latency {
        written.push(format!("sw_valid${k}$q"));
        written.push(format!("sw_line${k}$q"));
    }
    vec![
        Group { title: "ports", signals: ports },
        Group { title: "accept (ac)", signals: v(&["accept.ac_valid$q", "accept.ac_line$q", "accept.ac_ordered$q"]) },
        Group { title: "ordering queue (occupancy: e_valid)", signals: queue },
        Group {
            title: "issue, forwarding compares, RAM read (sc, si, sr)",
            signals: v(&[
                "sc_valid$q",
                "sc_line$q",
                "fwd.eq_r$0$q",
                "si_valid$q",
                "si_line$q",
                "fwd.fsel_rq$0$q",
                "si_ra$q",
                "sr_valid$q",
                "sr_line$q",
            ]),
        },
        Group {
            title: "s1: forwarding select",
            signals: v(&["s1_valid$q", "s1_line$q", "fwd.fsel_d$q", "s1_take", "s1_old_line"]),
        },
        Group {
            title: "s1b: old value, ALU inputs",
            signals: v(&["s1b_valid$q", "s1b_line$q", "alu$in_valid", "alu$out_valid"]),
        },
        Group { title: "pipeline stages s2.. (merge, write)", signals: stages },
        Group { title: "written lines (forwarding sources)", signals: written },
        Group { title: "responses", signals: v(&["rsp_fifo$push", "rsp_fifo$out_valid"]) },
    ]
}

/// A signal found in the waveform: its full name, its bit range as the viewers write it
/// (`[27:0]`, or empty for one bit) and its width.
pub struct Found {
    pub full: String,
    pub range: String,
    pub bits: u32,
}

/// Every variable of the VCD's header: (full dotted name, width, range suffix).
fn vcd_vars(vcd_path: &Path) -> anyhow::Result<Vec<(String, u32, String)>> {
    let f = std::fs::File::open(vcd_path).map_err(|e| anyhow::anyhow!("{}: {e}", vcd_path.display()))?;
    let header = vcd::Parser::new(BufReader::new(f))
        .parse_header()
        .map_err(|e| anyhow::anyhow!("{}: not a readable VCD header: {e}", vcd_path.display()))?;
    let mut out = Vec::new();
    fn walk(items: &[ScopeItem], prefix: &str, out: &mut Vec<(String, u32, String)>) {
        for it in items {
            match it {
                ScopeItem::Scope(s) => walk(&s.items, &format!("{prefix}{}.", s.identifier), out),
                ScopeItem::Var(v) => {
                    let range = match v.index {
                        Some(ReferenceIndex::Range(a, b)) => format!("[{a}:{b}]"),
                        Some(ReferenceIndex::BitSelect(a)) => format!("[{a}]"),
                        None => String::new(),
                    };
                    out.push((format!("{prefix}{}", v.reference), v.size, range));
                }
                _ => {}
            }
        }
    }
    walk(&header.items, "", &mut out);
    Ok(out)
}

/// The groups' signals as found in the waveform at `vcd_path` (under the unit's module, the
/// scope holding `req_valid`), and the names not found.
pub fn unit_signals(
    vcd_path: &Path,
    groups: &[Group],
) -> anyhow::Result<(Vec<(&'static str, Vec<Found>)>, Vec<String>)> {
    let vars = vcd_vars(vcd_path)?;
    // The unit's module: of the scopes with a `req_valid` (the harness's top scope has the
    // ports too), the one where the most of the groups' signals are.
    let prefixes: Vec<&str> = vars.iter().filter_map(|(n, _, _)| n.strip_suffix("req_valid")).collect();
    if prefixes.is_empty() {
        anyhow::bail!("{}: no req_valid in the waveform: not a trace of the unit", vcd_path.display());
    }
    let resolve = |top: &str| {
        let mut missing = Vec::new();
        let mut out = Vec::new();
        for g in groups {
            let mut found = Vec::new();
            for s in &g.signals {
                let full = format!("{top}{s}");
                match vars.iter().find(|(n, _, _)| *n == full) {
                    Some((_, bits, range)) => found.push(Found { full, range: range.clone(), bits: *bits }),
                    None => missing.push(s.clone()),
                }
            }
            out.push((g.title, found));
        }
        (out, missing)
    };
    Ok(prefixes.iter().map(|p| resolve(p)).min_by_key(|(_, missing)| missing.len()).expect("at least one scope"))
}

/// Writes `<vcd>.gtkw` and `<vcd>.sucl` (the VCD's name with those extensions) for the unit
/// of shape `sh`; returns their paths. Signals the waveform lacks are left out.
pub fn write_unit_viewer_files(vcd_path: &Path, sh: &hw::slice_unit::Shape) -> anyhow::Result<(PathBuf, PathBuf)> {
    let (groups, _) = unit_signals(vcd_path, &unit_groups(sh))?;
    let gtkw_path = vcd_path.with_extension("gtkw");
    let sucl_path = vcd_path.with_extension("sucl");
    let dump = std::fs::canonicalize(vcd_path).unwrap_or_else(|_| vcd_path.to_path_buf());
    let mut g = String::new();
    let _ = writeln!(g, "[*] redunit: the L2-slice unit's signals in pipeline order");
    let _ = writeln!(g, "[dumpfile] \"{}\"", dump.display());
    let _ = writeln!(g, "[savefile] \"{}\"", gtkw_path.display());
    let _ = writeln!(g, "[timestart] 0");
    // The zoom (2^-8 of GTKWave's default): about 80 cycles of 10 ns across the window.
    let _ = writeln!(g, "*-8.000000 -1{}", " -1".repeat(25));
    let _ = writeln!(g, "[size] 1600 1000\n[signals_width] 320\n[sst_expanded] 1");
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# redunit: the L2-slice unit's signals in pipeline order (surfer {} --command-file {})",
        vcd_path.display(),
        sucl_path.display()
    );
    for (title, found) in &groups {
        if found.is_empty() {
            continue;
        }
        // A group opens with @800200 and its title, and closes with @1000200 and the title.
        let _ = writeln!(g, "@800200\n-{title}");
        let _ = writeln!(s, "divider_add {}", title.replace(' ', "_"));
        for f in found {
            // @28: one bit, binary; @22: a vector, hexadecimal.
            let _ = writeln!(g, "{}\n{}{}", if f.bits == 1 { "@28" } else { "@22" }, f.full, f.range);
            let _ = writeln!(s, "variable_add {}", f.full);
        }
        let _ = writeln!(g, "@1000200\n-{title}");
    }
    let _ = writeln!(s, "zoom_fit");
    std::fs::write(&gtkw_path, g).map_err(|e| anyhow::anyhow!("{}: {e}", gtkw_path.display()))?;
    std::fs::write(&sucl_path, s).map_err(|e| anyhow::anyhow!("{}: {e}", sucl_path.display()))?;
    Ok((gtkw_path, sucl_path))
}
