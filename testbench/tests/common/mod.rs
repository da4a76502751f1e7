//! Helpers shared by the testbench's integration tests: running the built binary, and reading
//! waveforms back with the `vcd` crate. (Each test file uses a part of them.)
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs the built `redunit` with `args`, feeding `stdin`.
pub fn redunit(args: &[&str], stdin: &str) -> Output {
    redunit_bytes(args, stdin.as_bytes())
}

/// [`redunit`] with any bytes on stdin.
pub fn redunit_bytes(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_redunit"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("redunit runs");
    // redunit may exit before reading its input (a bad argument).
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().unwrap()
}

pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn bits(v: &vcd::Vector) -> u128 {
    v.iter().fold(0u128, |acc, b| acc << 1 | (b == vcd::Value::V1) as u128)
}

/// Reads the signals `names` of scope `top` from a VCD: its timescale, and for every dump time
/// the values after the changes at that time (in the order of `names`).
pub fn read_vcd(path: &std::path::Path, names: &[&str]) -> ((u32, vcd::TimescaleUnit), BTreeMap<u64, Vec<u128>>) {
    let f = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    let mut p = vcd::Parser::new(f);
    let h = p.parse_header().unwrap();
    let codes: Vec<_> =
        names.iter().map(|n| h.find_var(&["top", n]).unwrap_or_else(|| panic!("no top.{n} in the VCD")).code).collect();
    let mut cur = vec![0u128; names.len()];
    let mut at = BTreeMap::new();
    let mut t = None;
    for cmd in p {
        match cmd.unwrap() {
            vcd::Command::Timestamp(n) => {
                if let Some(t) = t {
                    at.insert(t, cur.clone());
                }
                t = Some(n);
            }
            vcd::Command::ChangeScalar(c, v) => {
                if let Some(i) = codes.iter().position(|x| *x == c) {
                    cur[i] = (v == vcd::Value::V1) as u128;
                }
            }
            vcd::Command::ChangeVector(c, v) => {
                if let Some(i) = codes.iter().position(|x| *x == c) {
                    cur[i] = bits(&v);
                }
            }
            _ => {}
        }
    }
    if let Some(t) = t {
        at.insert(t, cur);
    }
    (h.timescale.expect("a $timescale"), at)
}
