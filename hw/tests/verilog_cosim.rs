//! The generated Verilog of the whole ALU, compiled by Verilator, against `sim::apply`: the
//! same kind of stream as `tests/alu.rs` (all 82 forms, special and random operands, one per
//! cycle). This checks that the Verilog means what the rust-hdl simulation means.
//! Verilator builds the model with -O1 in about 10 s.

mod common;
use common::*;
use hw::ALU_LATENCY;
use sim::Form;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;

fn words(x: u128) -> String {
    (0..4).rev().map(|i| format!("{:x}", (x >> (32 * i)) as u32)).collect::<Vec<_>>().join(" ")
}

#[test]
fn verilated_alu_matches_golden_model() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cosim");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("top.v"), hw::alu_verilog()).unwrap();
    let main = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/cosim/main.cpp");
    let st = Command::new("verilator")
        .current_dir(&dir)
        .args(["--cc", "--exe", "--build", "-j", "2", "-O1", "--top-module", "top", "-Wno-fatal", "-Wno-lint", "-Wno-style"])
        .args(["-CFLAGS", "-O1", "-o", "vtop", "top.v"])
        .arg(&main)
        .output()
        .unwrap();
    assert!(st.status.success(), "verilator build: {}", String::from_utf8_lossy(&st.stderr));

    let forms = Form::all();
    let mut rng = Rng(seed("verilog_cosim"));
    let mut cases: Vec<(bool, Form, u128, u128)> = Vec::new();
    for _ in 0..400 {
        for &form in &forms {
            let (m, b) = alu_operands(&mut rng, form);
            cases.push((rng.below(8) != 0, form, m, b));
        }
    }
    let mut text = String::new();
    for &(v, f, m, b) in &cases {
        writeln!(text, "{:x} {:x} {} {}", v as u8, f.code(), words(m), words(b)).unwrap();
    }
    for _ in 0..ALU_LATENCY {
        writeln!(text, "0 0 0 0 0 0 0 0 0 0").unwrap();
    }
    std::fs::write(dir.join("in.txt"), text).unwrap();
    let run = Command::new(dir.join("obj_dir/vtop")).current_dir(&dir).args(["in.txt", "out.txt"]).status().unwrap();
    assert!(run.success());
    let out = std::fs::read_to_string(dir.join("out.txt")).unwrap();
    let lines: Vec<&str> = out.lines().skip(ALU_LATENCY).collect();
    assert_eq!(lines.len(), cases.len());
    let mut bad = 0;
    for (&(v, form, m, b), line) in cases.iter().zip(lines) {
        let f: Vec<u128> = line.split(' ').map(|w| u128::from_str_radix(w, 16).unwrap()).collect();
        assert_eq!(f[0] != 0, v, "out_valid");
        assert_eq!(f[1] as u16, form.code(), "out_form");
        let got = (f[2] << 96) | (f[3] << 64) | (f[4] << 32) | f[5];
        let want = sim::apply(form, m, b);
        if v && got != want {
            bad += 1;
            if bad <= 10 {
                eprintln!("{form}: old={m:032x} b={b:032x}\n  got  {got:032x}\n  want {want:032x}");
            }
        }
    }
    assert_eq!(bad, 0, "{bad} of {} Verilated results wrong", cases.len());
}
