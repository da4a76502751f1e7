//! `redunit run --engine rtl` and `redunit bench` through the built binary: the same contract
//! as `--engine model`.

mod common;
use common::{redunit, text};
use testbench::traffic::{Mix, Traffic};

/// Requests as a CSV trace; with `far`, every 997th row's address lies beyond the 32-bit port.
fn trace_csv(reqs: &[sim::Request], far: bool) -> String {
    let mut s = String::from("op,addr,value\n");
    for (i, r) in reqs.iter().enumerate() {
        let addr = if far && i % 997 == 5 { r.addr | 1 << 40 } else { r.addr };
        let value = if r.access.has_operand() { format!("{:x}", r.value) } else { String::new() };
        s += &format!("{},{:x},{value}\n", r.access, addr);
    }
    s
}

/// A random trace as CSV (every form, hot addresses, errors, and addresses beyond the 32-bit
/// port).
fn random_trace(seed: u64, n: usize, mem: usize) -> String {
    trace_csv(&Traffic::new(seed, mem, Mix::default()).requests(n), true)
}

/// Runs `trace` on both engines (default memory) and fails on the first differing rows.
fn engines_agree(trace: &str) {
    let model = redunit(&["run", "-"], trace);
    assert!(model.status.success(), "{}", text(&model.stderr));
    let rtl = redunit(&["run", "--engine", "rtl", "-"], trace);
    assert!(rtl.status.success(), "{}", text(&rtl.stderr));
    same(&text(&model.stdout), &text(&rtl.stdout));
}

#[test]
fn run_engine_rtl_writes_what_the_model_writes() {
    engines_agree(&random_trace(0x7ace, 20_000, 65536));
}

/// `atom.cas` among loads, stores and atomics on a few hot words, back to back: the RTL's
/// compare settles a CAS's line two stages after a store's, and a dependent on its word must see
/// the outcome (succeeded or failed) as the model does. Seed from `REDUNIT_SEED`.
#[test]
fn run_engine_rtl_cas_on_hot_words_writes_what_the_model_writes() {
    let seed = std::env::var("REDUNIT_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0xca5);
    eprintln!("seed {seed} (rerun: REDUNIT_SEED={seed})");
    let mix = Mix { hot_pct: 70, near_pct: 20, ld_pct: 15, st_pct: 10, cas_pct: 35, hot: 2, ..Mix::default() };
    let reqs = Traffic::new(seed, 65536, mix).requests(20_000);
    let cas = reqs.iter().filter(|r| matches!(r.access, sim::Access::Cas(_))).count();
    assert!(cas > 5_000, "only {cas} atom.cas drawn");
    engines_agree(&trace_csv(&reqs, false));
}

/// Fails with the first differing rows.
fn same(model: &str, rtl: &str) {
    if model != rtl {
        let diff: Vec<String> = model
            .lines()
            .zip(rtl.lines())
            .filter(|(a, b)| a != b)
            .take(10)
            .map(|(a, b)| format!("  model {a}\n  rtl   {b}"))
            .collect();
        panic!(
            "run --engine rtl differs from --engine model ({} vs {} lines); first differences:\n{}",
            model.lines().count(),
            rtl.lines().count(),
            diff.join("\n")
        );
    }
}

/// `--mem-bytes` sizes the unit too: a size other than the built-in one is verilated at run
/// time (once, cached under target/redunit-unit/).
#[test]
#[ignore = "verilates the unit at run time (minutes); CI runs it: cargo test --release -p testbench --test unit_cli --test unit_regression -- --ignored"]
fn run_engine_rtl_honours_mem_bytes() {
    let trace = random_trace(0x5123, 3_000, 4096);
    let model = redunit(&["run", "--mem-bytes", "4096", "-"], &trace);
    let rtl = redunit(&["run", "--engine", "rtl", "--mem-bytes", "4096", "-"], &trace);
    assert!(rtl.status.success(), "{}", text(&rtl.stderr));
    same(&text(&model.stdout), &text(&rtl.stdout));
    let edge = "op,addr,value\nst.b32,ffc,1\nld.b32,ffc,\nld.b32,1000,\n";
    let rtl = redunit(&["run", "--engine", "rtl", "--mem-bytes", "4096", "-"], edge);
    same("index,op,addr,result\n1,ld.b32,ffc,00000001\n2,ld.b32,1000,error:out-of-range\n", &text(&rtl.stdout));
}

#[test]
fn run_engine_rtl_reports_errors_for_people() {
    // Each with the stdout it writes first: the result rows of the requests before a bad row
    // (none for a bad header).
    let h = "index,op,addr,result\n";
    for (args, input, msg, stdout) in [
        (
            &["run", "--engine", "rtl", "-"][..],
            "op,addr,value\nld.b32,0,\nfoo.b32,0,1\n",
            "line 3: unknown op `foo.b32`",
            "index,op,addr,result\n0,ld.b32,0,00000000\n",
        ),
        (&["run", "--engine", "rtl", "-"][..], "op,addr,value\nst.b32,0\n", "line 2: expected 3 columns", h),
        (&["run", "--engine", "rtl", "-"][..], "op,addr\n", "line 1:", ""),
        (&["run", "--vcd", "x.vcd", "-"][..], "op,addr,value\n", "--vcd needs --engine rtl", ""),
        (&["run", "--engine", "rtl", "--mem-bytes", "24", "-"][..], "op,addr,value\n", "positive multiple of 16", ""),
        (&["run", "--engine", "rtl", "/nonexistent/t.csv"][..], "", "cannot open the trace /nonexistent/t.csv", ""),
    ] {
        let out = redunit(args, input);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out.stderr));
        assert!(text(&out.stderr).contains(msg), "{args:?}: stderr {:?} lacks {msg:?}", text(&out.stderr));
        assert_eq!(text(&out.stdout), stdout, "{args:?}");
    }
}

#[test]
fn run_coverage_goes_to_stderr() {
    let out = redunit(&["run", "--engine", "rtl", "--coverage", "-"], "op,addr,value\nld.b32,0,\nst.b32,1,0\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains("coverage of 2 requests over"), "{err}");
    assert!(err.contains("coverage points (hw::slice_unit::COVERAGE_POINTS)"), "{err}");
    assert!(err.contains("requests: 2/172 accesses issued"), "{err}");
    assert!(text(&out.stdout).starts_with("index,op,addr,result\n"));
}

#[test]
fn bench_json_has_the_documented_keys() {
    let out = redunit(&["bench", "--json", "--requests", "2000", "--latency-requests", "20"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let j = text(&out.stdout);
    for key in [
        "\"distinct_ops_per_cycle\": ",
        "\"same_addr_int_ops_per_cycle\": ",
        "\"same_addr_f32_ops_per_cycle\": ",
        "\"same_addr_f64_ops_per_cycle\": ",
        "\"mixed_ops_per_cycle\": ",
        "\"latency_cycles\": {\"int\": ",
        "\"cosim_ops_per_second\": ",
    ] {
        assert!(j.contains(key), "{key} missing from {j}");
    }
    assert!(j.trim_start().starts_with('{') && j.trim_end().ends_with('}'));
    // The hot-address rows: one per same-address form, `atom` twins of the add rows, four hot
    // words of a line, K hot lines.
    let forms = ["add_u32", "add_u64", "xor_b32", "min_s32", "max_u64", "inc_u32", "dec_u32", "f16", "bf16", "f16x2"];
    let forms2 = ["bf16x2", "f32", "f64", "v4_f32", "v8_f16_max"];
    let adds = ["add_u32", "add_u64", "f16", "bf16", "f16x2", "bf16x2", "f32", "f64", "v4_f32"];
    let mut keys: Vec<String> = forms.iter().chain(&forms2).map(|f| format!("same_addr_{f}")).collect();
    keys.extend(adds.iter().map(|f| format!("same_addr_atom_{f}")));
    keys.push("hot_words_4_f32".into());
    for k in [2, 4, 8] {
        keys.push(format!("hot_lines_{k}_int"));
        keys.push(format!("hot_lines_{k}_f32"));
    }
    for key in keys {
        let key = format!("\"{key}_ops_per_cycle\": ");
        let at = j.find(&key).unwrap_or_else(|| panic!("{key} missing from {j}"));
        let v: f64 = j[at + key.len()..].split([',', '\n']).next().unwrap().trim().parse().unwrap();
        assert!(v > 0.0 && v <= 1.0, "{key}{v}");
    }
}

/// `atom.cas` rows (compare value above the swap value): a miss returns the old value and
/// writes nothing, a hit writes the swap value into its own bytes only, in both engines and
/// both spaces; a b128 compare-and-swap is a bad row.
#[test]
fn run_compare_and_swap_rows_in_both_engines() {
    let trace = "op,addr,value\n\
                 st.b64,40,1122334455667788\n\
                 atom.cas.b32,40,0000000555555555\n\
                 atom.cas.b32,40,55667788aaaaaaaa\n\
                 atom.cas.b64,40,11223344aaaaaaaa0000000000000077\n\
                 ld.b64,40,\n\
                 atom.shared.cas.b32,48,0000000000000003\n\
                 ld.b128,40,\n\
                 ld.shared.b32,48,\n";
    let want = "index,op,addr,result\n\
                1,atom.cas.b32,40,55667788\n\
                2,atom.cas.b32,40,55667788\n\
                3,atom.cas.b64,40,11223344aaaaaaaa\n\
                4,ld.b64,40,0000000000000077\n\
                5,atom.shared.cas.b32,48,00000000\n\
                6,ld.b128,40,00000000000000000000000000000077\n\
                7,ld.shared.b32,48,00000003\n";
    for engine in ["model", "rtl"] {
        let out = redunit(&["run", "--engine", engine, "-"], trace);
        assert!(out.status.success(), "{engine}: {}", text(&out.stderr));
        assert_eq!(text(&out.stdout), want, "{engine}");
        let bad = redunit(&["run", "--engine", engine, "-"], "op,addr,value\natom.cas.b128,0,1\n");
        assert_eq!(bad.status.code(), Some(2), "{engine}");
        assert!(
            text(&bad.stderr).contains("line 2") && text(&bad.stderr).contains("b32 or b64"),
            "{}",
            text(&bad.stderr)
        );
    }
}
