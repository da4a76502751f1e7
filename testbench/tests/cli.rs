//! The `redunit` command-line contracts, run through the built binary.

mod common;
use common::{redunit, text};

#[test]
fn eval_is_a_filter_with_the_documented_columns() {
    let out = redunit(
        &["eval"],
        "form,init,b\nglobal.add.f32,00000001,3f800000\nshared.add.f32,1,0\nglobal.v2.bf16.max.noftz,FFFF,1\nglobal.v2.bf16.max.noftz,8000,0\nglobal.add.f64,7ff0000000000001,0\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "form,init,b,result\nglobal.add.f32,00000001,3f800000,3f800000\nshared.add.f32,1,0,00000001\n\
         global.v2.bf16.max.noftz,FFFF,1,0001\nglobal.v2.bf16.max.noftz,8000,0,0000\n\
         global.add.f64,7ff0000000000001,0,7ff0000000000001\n"
    );
}

#[test]
fn eval_stops_on_a_bad_row_with_its_line_and_status_2() {
    for (input, msg) in [
        (
            "form,init,b\nglobal.add.u32,1,1\nglobal.add.s64,1,1\n",
            "line 3: unknown form `global.add.s64`: red.add takes",
        ),
        ("form,init,b\nglobal.add.noftz.f16,12345,1\n", "line 2: init: `12345` is wider than 16 bits"),
        ("form,init,b\nglobal.add.u32,1,1,1\n", "line 2: expected 3 columns"),
        ("form,init,b\nglobal.v8.f16.add.noftz,1,1\n", "line 3: input ends inside a vector group"),
        ("init,b\n", "line 1: expected the header `form,init,b`"),
    ] {
        let out = redunit(&["eval"], input);
        assert_eq!(out.status.code(), Some(2), "{input}");
        assert!(text(&out.stderr).contains(msg), "{input}: stderr was {}", text(&out.stderr));
    }
}

#[test]
fn run_executes_a_trace_and_reports_errors_in_band() {
    let dir = std::env::temp_dir().join(format!("redunit-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let trace = dir.join("t.csv");
    std::fs::write(
        &trace,
        "op,addr,value\nst.b32,0,5\natom.global.inc.u32,0,5\nglobal.add.u32,0,1\nld.b32,0,\n\
         global.v2.f32.add,4,0\nld.b64,100,\n",
    )
    .unwrap();
    let out = redunit(&["run", "--mem-bytes", "256", trace.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "index,op,addr,result\n1,atom.global.inc.u32,0,00000005\n3,ld.b32,0,00000001\n\
         4,global.v2.f32.add,4,error:misaligned\n5,ld.b64,100,error:out-of-range\n"
    );
    std::fs::write(&trace, "op,addr,value\nld.b32,0,\nfoo.b32,0,1\n").unwrap();
    let out = redunit(&["run", trace.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("t.csv: line 3: unknown op `foo.b32`"), "{}", text(&out.stderr));
    let out = redunit(&["run", dir.join("missing.csv").to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cannot open the trace"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn conformance_reports_every_form() {
    let out = redunit(&["conformance"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("vectors: 82 forms, 950912 rows, 0 mismatches"), "{s}");
    assert!(s.contains("redux: 9 forms, 36864 instructions, 0 mismatches"), "{s}");
    assert!(s.contains("redux.sync.max.s32"), "{s}");
    assert!(s.contains("global.v8.bf16.min.noftz"));
    assert!(s.trim_end().ends_with("PASS"));
}

fn redux_input(rows: &[(&str, &str, &[&str])]) -> String {
    let mut s = testbench::eval::redux_header();
    s.push('\n');
    for (form, mask, src) in rows {
        s.push_str(&format!("{form},{mask}"));
        for i in 0..32 {
            s.push(',');
            s.push_str(src.get(i).copied().unwrap_or("0"));
        }
        s.push('\n');
    }
    s
}

#[test]
fn eval_takes_redux_rows_with_both_engines() {
    let input = redux_input(&[
        ("redux.sync.add.u32", "ffffffff", &["ffffffff", "2"]),
        ("redux.sync.max.s32", "00000006", &["7fffffff", "80000000", "ffffffff"]),
        ("redux.sync.min.abs.NaN.f32", "3", &["bf800000", "7fc00000"]),
        ("redux.sync.max.f32", "3", &["80000000", "00000000"]),
    ]);
    let mut want_lines = input.lines().map(String::from).collect::<Vec<_>>();
    want_lines[0].push_str(",result");
    for (l, r) in want_lines[1..].iter_mut().zip(["00000001", "ffffffff", "7fffffff", "00000000"]) {
        l.push(',');
        l.push_str(r);
    }
    let want = want_lines.join("\n") + "\n";
    for engine in ["model", "rtl"] {
        let out = redunit(&["eval", "--engine", engine], &input);
        assert!(out.status.success(), "{engine}: {}", text(&out.stderr));
        assert_eq!(text(&out.stdout), want, "{engine}");
    }
}

#[test]
fn eval_stops_on_a_bad_redux_row_with_its_line_and_status_2() {
    for (input, msg) in [
        (
            redux_input(&[("redux.sync.add.u32", "1", &[]), ("redux.sync.and.u32", "1", &[])]),
            "line 3: unknown redux form `redux.sync.and.u32`: redux.sync.and takes b32 only",
        ),
        (redux_input(&[("redux.sync.or.b32", "1", &["123456789"])]), "line 2: src0: `123456789` is wider than 32 bits"),
        (redux_input(&[]) + "redux.sync.or.b32,1\n", "line 2: expected 34 columns"),
        ("form,mask,src0\n".to_string(), "line 1: expected the header `form,mask,src0,src1,"),
    ] {
        for engine in ["model", "rtl"] {
            let out = redunit(&["eval", "--engine", engine], &input);
            assert_eq!(out.status.code(), Some(2), "{input}");
            assert!(text(&out.stderr).contains(msg), "{input}: stderr was {}", text(&out.stderr));
        }
    }
}

/// `run --dump-mem`: the non-zero lines of both spaces after a request trace, the same on both
/// engines; refused for red.async traces.
#[test]
fn run_dump_mem_writes_the_memory_of_both_spaces() {
    let trace = "op,addr,value\nglobal.add.u32,40,1\nshared.add.u32,40,2\nst.b64,1008,5\nld.b32,40,\n";
    for engine in ["model", "rtl"] {
        let path = std::env::temp_dir().join(format!("redunit-cli-dump-{}-{engine}.csv", std::process::id()));
        let o = redunit(&["run", "--engine", engine, "--dump-mem", path.to_str().unwrap(), "-"], trace);
        assert!(o.status.success(), "{engine}: {}", text(&o.stderr));
        assert_eq!(text(&o.stdout), "index,op,addr,result\n3,ld.b32,40,00000001\n", "{engine}");
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "space,addr,data\nglobal,40,00000000000000000000000000000001\n\
             global,1000,00000000000000050000000000000000\nshared,40,00000000000000000000000000000002\n",
            "{engine}"
        );
        let _ = std::fs::remove_file(&path);
    }
    let o = redunit(&["run", "--dump-mem", "x.csv", "-"], "op,addr,value,mbar\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("--dump-mem are not available for traces with the mbar column"));
}
