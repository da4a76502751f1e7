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

fn trace(insts: &[WarpInst]) -> String {
    let mut s = testbench::warp::header() + "\n";
    for w in insts {
        s += &format!("{},{:x}", w.form, w.active);
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
    assert!(text(&o.stderr).contains("line 5: `atom.global.add.u32`: a warp row is a `red` form"), "{}", text(&o.stderr));
}
