//! The Verilated warp unit (`hw::WarpUnit`: coalescer + L2-slice unit) against the golden
//! model: random warp instructions (every form; heavy same-address conflicts, partial masks,
//! mixed lines, misaligned and out-of-range lanes) with per-instruction request counts and
//! failed lanes, and the whole memory read back; and `redunit run` on warp traces, with both
//! engines giving the same rows.

mod common;
use common::{redunit, text};
use sim::warp::{WarpInst, coalesce};
use sim::{Form, Memory, splitmix64_next};
use testbench::warp::{Item, ItemResult, RtlWarp, execute_model};

fn random_insts(seed: u64, n: usize, mem: u32) -> Vec<WarpInst> {
    let forms = Form::all();
    let mut s = seed;
    let mut r = move || splitmix64_next(&mut s);
    (0..n)
        .map(|k| {
            let form = forms[r() as usize % forms.len()];
            let size = form.bytes() as u32;
            // Few distinct addresses (conflicts) up to one line per lane; some lines in a
            // small hot region so that instructions depend on each other.
            let spread = [1u32, 2, 3, 8, 32, 256][k % 6];
            let base = if r() % 2 == 0 { 0 } else { (r() as u32 % (mem / 128)) * 128 };
            let addrs = std::array::from_fn(|_| {
                let x = r();
                let a = (base + size * (x as u32 % spread)) % mem;
                match x >> 58 {
                    0 => a + 1 + (x >> 20) as u32 % size.max(2).saturating_sub(1).max(1),
                    1 => 65536 + a,
                    _ => a,
                }
            });
            let operands = std::array::from_fn(|_| {
                let v = r() as u128 | (r() as u128) << 64;
                // Small float-ish operands now and then, so that FP sums stay interesting.
                if r() % 3 == 0 { v & 0x3fff_3fff_3fff_3fff_3fff_3fff_3fff_3fff } else { v }
            });
            let active = match r() % 4 {
                0 => u32::MAX,
                1 => r() as u32 & r() as u32,
                _ => r() as u32,
            };
            WarpInst { form, active, addrs, operands }
        })
        .collect()
}

#[test]
fn warp_unit_random_against_model() {
    let seed = testbench::stimulus::seed_from_env().unwrap();
    eprintln!("warp_unit_random_against_model: seed {seed:#x} (rerun with REDUNIT_SEED={seed:#x})");
    let mem = RtlWarp::MEM_BYTES;
    let insts = random_insts(seed, 3000, 4096);
    let mut model = Memory::new(mem);
    let exp = execute_model(&mut model, &insts);
    let mut rtl = RtlWarp::new();
    let items: Vec<Item> = insts.iter().map(|w| Item::Warp(*w)).collect();
    let (got, cycles) = rtl.run(&items).unwrap();
    let mut reqs = 0;
    for (i, (g, e)) in got.iter().zip(&exp).enumerate() {
        let ItemResult::Warp { requests, outcome } = g else { panic!("not a warp result") };
        assert_eq!((*requests, *outcome), (e.requests, e.outcome), "instruction {i}: {:?}", insts[i]);
        assert_eq!(*requests, coalesce(&insts[i]).len());
        reqs += requests;
    }
    let bytes = rtl.read_memory(8192).unwrap();
    assert!(bytes == model.bytes()[..8192], "memory differs from the model (lane order)");
    eprintln!("{} instructions, {reqs} unit requests, {cycles} cycles: all as the model", insts.len());
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
    let t = trace(&random_insts(0x3a7, 300, 4096));
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
