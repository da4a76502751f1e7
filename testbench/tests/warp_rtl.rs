//! The Verilated warp unit (`hw::WarpUnit`: coalescer + L2-slice unit) against the golden
//! model: random warp instructions (every form; heavy same-address conflicts, partial masks,
//! mixed lines, misaligned and out-of-range lanes) with per-instruction request counts and
//! failed lanes, and the whole memory read back; and `redunit run` on warp traces, with both
//! engines giving the same rows.

mod common;
use common::{redunit, text};
use sim::warp::WarpInst;

#[test]
fn warp_unit_random_against_model() {
    let seed = testbench::stimulus::seed_from_env().unwrap();
    eprintln!("warp_unit_random_against_model: seed {seed:#x} (rerun with REDUNIT_SEED={seed:#x})");
    let r = testbench::warp::random_check(seed, 3000).unwrap();
    assert!(r.mismatches.is_empty(), "seed {seed:#x}: {:#?}", r.mismatches);
    eprintln!("{} instructions, {} unit requests, {} cycles: all as the model", r.insts, r.requests, r.cycles);
}

/// All 32 lanes of an integer add at one address reach the unit as plain requests, which its
/// integer loop chains at one per cycle: an instruction takes its 32 lanes' cycles and no
/// more (as masked sector requests, which take the line path, it took about 124).
#[test]
fn one_address_integer_lanes_run_one_per_cycle() {
    for f in ["global.add.u32", "global.xor.b32", "global.add.u64"] {
        let r = testbench::warp::bench_pattern("one_address", f.parse().unwrap(), 40).unwrap();
        assert_eq!(r.mismatches, 0, "{f}");
        assert_eq!(r.requests_per_inst, 32.0, "{f}");
        assert!(r.cycles_per_inst < 33.0, "{f}: {} cycles per instruction", r.cycles_per_inst);
    }
}

/// A warp trace of `insts`; shared forms are written as their global twins (a warp row is
/// global: RED addresses global memory).
fn trace(insts: &[WarpInst]) -> String {
    let mut s = testbench::warp::header() + "\n";
    for w in insts {
        s += &format!("{},{:x}", w.form.to_string().replacen("shared.", "global.", 1), w.active);
        for i in 0..32 {
            let m = if w.form.bytes() >= 16 { u128::MAX } else { (1u128 << (8 * w.form.bytes())) - 1 };
            s += &format!(",{:x},{:x}", w.addrs[i], w.operands[i] & m);
        }
        s += "\n";
    }
    s
}

#[test]
fn run_warp_trace_same_rows_with_both_engines() {
    let t = trace(&testbench::warp::random_insts(0x3a7, 300, 4096));
    let model = redunit(&["run", "-"], &t);
    assert!(model.status.success(), "{}", text(&model.stderr));
    let rtl = redunit(&["run", "--engine", "rtl", "-"], &t);
    assert!(rtl.status.success(), "{}", text(&rtl.stderr));
    assert_eq!(text(&model.stdout), text(&rtl.stdout));
    let out = text(&model.stdout);
    assert_eq!(out.lines().next(), Some("index,op,mask,lines,requests,misaligned,out_of_range"));
    assert_eq!(out.lines().count(), 301);
}

#[test]
fn run_warp_trace_rows_and_errors() {
    // Fully coalesced u32: 1 line access, 8 requests; one address: 32 and 32; lane 1
    // misaligned (no access, not counted), lane 2 out of range (its line access counts, and
    // fails).
    let w = |form: &str, active: u32, addr: &dyn Fn(usize) -> u32| WarpInst {
        form: form.parse().unwrap(),
        active,
        addrs: std::array::from_fn(addr),
        operands: [1; 32],
    };
    let t = trace(&[
        w("global.add.u32", u32::MAX, &|i| 0x100 + 4 * i as u32),
        w("global.add.u32", u32::MAX, &|_| 0x40),
        w("global.add.u32", 0b111, &|i| [0x80, 0x82, 0x10000][i % 3]),
    ]);
    for engine in ["model", "rtl"] {
        let o = redunit(&["run", "--engine", engine, "-"], &t);
        assert!(o.status.success(), "{}", text(&o.stderr));
        assert_eq!(
            text(&o.stdout),
            "index,op,mask,lines,requests,misaligned,out_of_range\n\
             0,global.add.u32,ffffffff,1,8,00000000,00000000\n\
             1,global.add.u32,ffffffff,32,32,00000000,00000000\n\
             2,global.add.u32,00000007,2,3,00000002,00000004\n",
            "{engine}"
        );
    }
    // A bad row: named, with exit status 2.
    let bad = t.clone() + &t.lines().nth(1).unwrap().replacen("global.add.u32", "atom.global.add.u32", 1) + "\n";
    let o = redunit(&["run", "-"], &bad);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("line 5: `atom.global.add.u32`: a warp row is a `red` form"),
        "{}",
        text(&o.stderr)
    );
}

/// Runs `trace` with `--dump-mem` on `engine`: the result rows and the dump.
fn run_dump(trace: &str, engine: &str, tag: &str) -> (String, String) {
    let path = std::env::temp_dir().join(format!("redunit-dump-{}-{tag}-{engine}.csv", std::process::id()));
    let o = redunit(&["run", "--engine", engine, "--dump-mem", path.to_str().unwrap(), "-"], trace);
    assert!(o.status.success(), "{engine}: {}", text(&o.stderr));
    let dump = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    (text(&o.stdout), dump)
}

/// Random warp traces with SASS opcodes, immediate offsets and `.E` lanes past 2^32: both
/// engines write the same rows and the same memory dump.
#[test]
fn random_sass_traces_dump_the_same_memory_on_both_engines() {
    let seed = testbench::stimulus::seed_from_env().unwrap();
    eprintln!(
        "random_sass_traces_dump_the_same_memory_on_both_engines: seed {seed:#x} (rerun with REDUNIT_SEED={seed:#x})"
    );
    for k in 0..3u64 {
        let t = testbench::warp_trace::random_trace(seed.wrapping_add(k), 200);
        assert!(t.contains("RED.E.") && t.contains(",-"), "seed {seed:#x}: the trace has .E rows and negative offsets");
        let (rows_m, dump_m) = run_dump(&t, "model", &format!("{seed:x}-{k}"));
        let (rows_r, dump_r) = run_dump(&t, "rtl", &format!("{seed:x}-{k}"));
        assert_eq!(rows_m, rows_r, "seed {seed:#x}+{k}: result rows differ");
        assert_eq!(dump_m, dump_r, "seed {seed:#x}+{k}: memory dumps differ");
        assert_eq!(rows_m.lines().count(), 201);
        assert!(dump_m.lines().count() > 10, "seed {seed:#x}+{k}: the trace wrote memory:\n{dump_m}");
    }
}

/// The seed's address computation through `redunit run`: `[Ra + ImmS20]` wraps at 32 bits
/// without `.E`; with `.E` a lane past 2^32 fails out of range on both engines (the memory is
/// 64 KiB), one in the shared window is a bad row; shared forms are refused; the dump holds
/// exactly the lines written.
#[test]
fn sass_addressing_and_memory_dump() {
    let row = |op: &str, mask: &str, lanes: &[(&str, &str)], imm: &str| {
        let mut r = format!("{op},{mask}");
        for i in 0..32 {
            let (a, v) = lanes.get(i).copied().unwrap_or(("", ""));
            r += &format!(",{a},{v}");
        }
        format!("{r},{imm}\n")
    };
    let h = testbench::warp_trace::header_imm() + "\n";
    let t = h.clone()
        + &row("RED.ADD.U32", "3", &[("1000", "1"), ("1004", "2")], "-190")
        + &row("RED.ADD", "1", &[("10", "5")], "-20")
        + &row("RED.E.MIN.U32", "7", &[("100000000000", "5"), ("fff0", "7"), ("ffffffe0", "1")], "10")
        + &row("RED.E.ADD.U64", "1", &[("20", "3")], "")
        + &row("RED.MAX.F16x2.RN", "1", &[("80", "3c004000")], "0");
    for engine in ["model", "rtl"] {
        let (rows, dump) = run_dump(&t, engine, "sass");
        assert_eq!(
            rows,
            "index,op,mask,lines,requests,misaligned,out_of_range\n\
             0,RED.ADD.U32,00000003,1,1,00000000,00000000\n\
             1,RED.ADD.U32,00000001,1,1,00000000,00000001\n\
             2,RED.E.MIN.U32,00000007,3,3,00000000,00000007\n\
             3,RED.E.ADD.U64,00000001,1,1,00000000,00000000\n\
             4,RED.MAX.F16x2.RN,00000001,1,1,00000000,00000000\n",
            "{engine}"
        );
        // 0x1000 - 0x190 = 0xe70; 0x10 - 0x20 wraps to fffffff0 (out of range).
        assert_eq!(
            dump,
            "space,addr,data\nglobal,20,00000000000000000000000000000003\n\
             global,80,0000000000000000000000003c004000\nglobal,e70,00000000000000000000000200000001\n",
            "{engine}"
        );
    }
    let bad = h.clone()
        + &row("RED.ADD.U32", "1", &[("0", "1")], "")
        + &row("RED.E.ADD.U32", "2", &[("", ""), ("100000040", "1")], "");
    let o = redunit(&["run", "-"], &bad);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("line 3: lane 1: address 100000040 is in the shared window"),
        "{}",
        text(&o.stderr)
    );
    assert_eq!(text(&o.stdout).lines().count(), 2, "the row before the bad one is written");
    for (op, msg) in [
        ("shared.add.u32", "line 2: `shared.add.u32`: RED addresses global memory"),
        ("RED.ADD.S64", "line 2: `RED.ADD.S64` is refused: ADD.S64: the operations table gives ADD the sizes"),
        ("RED.ADD.F16x2.FTZ.RN", "write .F16x2.RN"),
        ("RED.ADD.E.U32", "write RED.E.ADD"),
    ] {
        let o = redunit(&["run", "--engine", "rtl", "-"], &(h.clone() + &row(op, "1", &[("0", "1")], "")));
        assert_eq!(o.status.code(), Some(2), "{op}");
        assert!(text(&o.stderr).contains(msg), "{op}: {}", text(&o.stderr));
    }
    let o = redunit(&["run", "-"], &(h.clone() + &row("RED.ADD.U32", "1", &[("100000000", "1")], "")));
    assert!(text(&o.stderr).contains("lane addresses are 32-bit without .E"), "{}", text(&o.stderr));
    let o = redunit(&["run", "-"], &(h + &row("RED.ADD.U32", "1", &[("0", "1")], "80000")));
    assert!(
        text(&o.stderr).contains("line 2: imm: `80000` does not fit: ImmS20 is -80000 to 7ffff"),
        "{}",
        text(&o.stderr)
    );
}
