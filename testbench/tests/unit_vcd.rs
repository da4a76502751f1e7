//! Waveforms of the Verilated L2-slice unit (`redunit run --engine rtl --vcd`), read back
//! with the `vcd` crate: the handshakes in the waveform are the requests of the trace.

use std::collections::BTreeMap;
use std::path::PathBuf;

mod common;
use sim::Request;
use testbench::unit::RtlUnit;

/// time -> values of `names` after the changes at that time.
fn read(path: &std::path::Path, names: &[&str]) -> BTreeMap<u64, Vec<u128>> {
    common::read_vcd(path, names).1
}

#[test]
fn the_waveform_shows_every_request_and_response_handshake() {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("unit_vcd_run.vcd");
    let reqs: Vec<Request> = (0..40u64)
        .map(|i| Request { access: "atom.global.add.u32".parse().unwrap(), addr: (i % 5) * 16, value: i as u128 })
        .collect();
    let mut unit = RtlUnit::with_vcd(65536, &path, 0).unwrap();
    unit.set_policy(3, 60, 80);
    let b = unit.run(&reqs, 0x100, None, true).unwrap();
    unit.idle(2);
    let cycles = unit.cycle();
    drop(unit);
    let w = read(&path, &["clock", "req_valid", "req_ready", "req_id", "req_op", "rsp_valid", "rsp_ready", "rsp_id"]);
    // The low half of cycle c is dumped at 10c ns: the values the rising edge samples.
    let mut accepted = Vec::new();
    let mut answered = Vec::new();
    for c in 0..cycles {
        let v = &w[&(10 * c)];
        assert_eq!(v[0], 0, "clock low at {} ns", 10 * c);
        assert_eq!(w[&(10 * c + 5)][0], 1, "clock high at {} ns", 10 * c + 5);
        if v[1] == 1 && v[2] == 1 {
            accepted.push((c, v[3], v[4]));
        }
        if v[5] == 1 && v[6] == 1 {
            answered.push((c, v[7]));
        }
    }
    assert_eq!(accepted.len(), reqs.len());
    for (i, (c, id, op)) in accepted.iter().enumerate() {
        assert_eq!(*id, 0x100 + i as u128, "request {i}'s id");
        assert_eq!(*op, reqs[i].access.code() as u128);
        assert_eq!(*c, b.responses[i].unwrap().accept, "request {i}'s acceptance cycle");
    }
    assert_eq!(answered.len(), reqs.len());
    for (i, r) in b.responses.iter().enumerate() {
        let r = r.unwrap();
        assert!(answered.contains(&(r.cycle, 0x100 + i as u128)), "response {i} in cycle {}", r.cycle);
    }
}

#[test]
fn run_vcd_writes_a_waveform() {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("unit_vcd_cli.vcd");
    let _ = std::fs::remove_file(&path);
    std::fs::write(
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("unit_vcd_cli.csv"),
        "op,addr,value\nst.b32,0,5\nld.b32,0,\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_redunit"))
        .args(["run", "--engine", "rtl", "--vcd"])
        .arg(&path)
        .arg(PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("unit_vcd_cli.csv"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let w = read(&path, &["req_valid", "req_ready", "rsp_valid", "rsp_ready"]);
    let handshakes = w.iter().filter(|(t, v)| *t % 10 == 0 && v[0] == 1 && v[1] == 1).count();
    assert_eq!(handshakes, 2);
}

/// The GTKWave save file and the Surfer command file beside a unit's VCD: every group of
/// `testbench::gtkw::unit_groups` is found in the waveform (a renamed signal fails here),
/// and every signal the files name is a variable of the VCD, in pipeline order.
#[test]
fn viewer_files_name_the_pipeline_signals_of_the_waveform() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join("unit_vcd_viewer.vcd");
    let reqs: Vec<Request> = (0..12u64)
        .map(|i| Request { access: "red.global.add.f32".parse().unwrap(), addr: (i % 3) * 16, value: 0x3f80_0000 })
        .collect();
    let mut unit = RtlUnit::with_vcd(65536, &path, 0).unwrap();
    unit.run(&reqs, 0, None, true).unwrap();
    drop(unit);
    let sh = hw::slice_unit::shape(&hw::Config::unit_default());
    let groups = testbench::gtkw::unit_groups(&sh);
    let (found, missing) = testbench::gtkw::unit_signals(&path, &groups).unwrap();
    assert!(missing.is_empty(), "signals of the viewer groups not in the waveform: {missing:?}");
    assert!(found.iter().all(|(_, f)| !f.is_empty()));
    // Every variable name in the VCD's header, as GTKWave and Surfer write them.
    let names = vcd_names(&path);
    let gtkw = std::fs::read_to_string(path.with_extension("gtkw")).unwrap();
    let sucl = std::fs::read_to_string(path.with_extension("sucl")).unwrap();
    let listed: Vec<&str> = gtkw.lines().filter(|l| !l.starts_with(['@', '-', '[', '*'])).collect();
    assert_eq!(listed.len(), groups.iter().map(|g| g.signals.len()).sum::<usize>());
    for l in &listed {
        let bare = l.split('[').next().unwrap();
        assert!(names.contains(bare), "{l}: not a variable of {}", path.display());
        assert!(sucl.contains(&format!("variable_add {bare}\n")), "{bare} missing from the Surfer command file");
    }
    // Pipeline order: the ports first, the accept register before the queue before s1.
    let at = |s: &str| listed.iter().position(|l| l.ends_with(s)).unwrap_or_else(|| panic!("{s} not listed"));
    assert!(at(".req_valid") < at(".ac_valid$q") && at(".ac_valid$q") < at(".queue$issue_valid"));
    assert!(at(".queue$issue_valid") < at(".s1_valid$q") && at(".s1_valid$q") < at(".sp_valid$0$q"));
    assert!(gtkw.contains(&format!("[dumpfile] \"{}\"", std::fs::canonicalize(&path).unwrap().display())));
}

/// The dotted names of every variable in the VCD's header.
fn vcd_names(path: &std::path::Path) -> std::collections::HashSet<String> {
    fn walk(items: &[vcd::ScopeItem], prefix: &str, out: &mut std::collections::HashSet<String>) {
        for it in items {
            match it {
                vcd::ScopeItem::Scope(s) => walk(&s.items, &format!("{prefix}{}.", s.identifier), out),
                vcd::ScopeItem::Var(v) => {
                    out.insert(format!("{prefix}{}", v.reference));
                }
                _ => {}
            }
        }
    }
    let h = vcd::Parser::new(std::io::BufReader::new(std::fs::File::open(path).unwrap())).parse_header().unwrap();
    let mut out = std::collections::HashSet::new();
    walk(&h.items, "", &mut out);
    out
}
