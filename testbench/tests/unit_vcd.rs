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
    std::fs::write(PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("unit_vcd_cli.csv"), "op,addr,value\nst.b32,0,5\nld.b32,0,\n").unwrap();
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
