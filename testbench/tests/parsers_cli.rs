//! Bad input through the built `redunit`: status 2, `line N: ...` on stderr, and on stdout
//! every row before the bad one, for `eval` (both formats) and `run` (all trace formats); and
//! bad options refused with status 2.

mod common;
use common::{redunit, redunit_bytes, text};

/// Runs `redunit args` on stdin `input` (bytes), returning (status, stdout, stderr).
fn go(args: &[&str], input: &[u8]) -> (Option<i32>, String, String) {
    let out = redunit_bytes(args, input);
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// `input` stops at `line` with `msg`, after writing `stdout`.
fn stops(args: &[&str], input: &[u8], stdout: &str, line: u64, msg: &str) {
    let (code, out, err) = go(args, input);
    assert_eq!(code, Some(2), "{args:?}: stderr {err}");
    assert_eq!(out, stdout, "{args:?}");
    let want = format!("line {line}: {msg}");
    assert!(err.contains(&want), "{args:?}: stderr `{err}` lacks `{want}`");
}

#[test]
fn eval_writes_the_rows_before_a_bad_one() {
    let input = "form,init,b\r\nglobal.add.u32,1,2\r\nglobal.add.u32,1,zz\r\nglobal.add.u32,1,2\r\n";
    stops(&["eval"], input.as_bytes(), "form,init,b,result\nglobal.add.u32,1,2,00000003\n", 3, "b: `zz` is not hex");
    let h = testbench::eval::redux_header();
    let row = |mask: &str| format!("redux.sync.add.u32,{mask}{}", ",1".repeat(32));
    let input = format!("\u{feff}{h}\n{}\n{}\n", row("3"), row("1\0"));
    let want = format!("{h},result\n{},00000002\n", row("3"));
    stops(&["eval"], input.as_bytes(), &want, 3, "mask: `1\0` is not hex");
}

#[test]
fn eval_names_line_1_for_a_header_that_is_not_text() {
    stops(&["eval"], b"\xff\xfe,form\n", "", 1, "expected the header `form,init,b`");
    stops(&["eval"], b"", "", 1, "empty input");
}

#[test]
fn run_writes_the_rows_before_a_bad_one_for_every_trace_format() {
    let plain = "op,addr,value\nst.b32,0,5\nld.b32,0,\nld.b32,0,1\nld.b32,0,\n";
    stops(&["run", "-"], plain.as_bytes(), "index,op,addr,result\n1,ld.b32,0,00000005\n", 4, "ld.b32 takes no value");
    stops(
        &["run", "--engine", "rtl", "-"],
        plain.as_bytes(),
        "index,op,addr,result\n1,ld.b32,0,00000005\n",
        4,
        "ld.b32 takes no value",
    );
    let asy = "\u{feff}op,addr,value,mbar\r\nmbarrier.init,0,1,\r\nmbarrier.test_wait.parity,0,0,\r\nmbarrier.arrive,0,,\r\nmbarrier.arrive,44,,\r\n";
    let want = "index,op,addr,result\n1,mbarrier.test_wait.parity,0,0\n";
    stops(&["run", "-"], asy.as_bytes(), want, 5, "addr: `44` is not an mbarrier address");
    let warp_row = |mask: &str| format!("global.add.u32,{mask}{}", ",0,1".repeat(32));
    let warp = format!("{}\n{}\n\n{}\n", testbench::warp::header(), warp_row("1"), warp_row("x"));
    let want =
        "index,op,mask,lines,requests,misaligned,out_of_range\n0,global.add.u32,00000001,1,1,00000000,00000000\n";
    stops(&["run", "-"], warp.as_bytes(), want, 4, "mask: `x` is not hex");
}

#[test]
fn run_names_the_file_and_line_of_a_bad_row() {
    let dir = std::env::temp_dir().join(format!("redunit-parsers-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.csv");
    std::fs::write(&path, "op,addr,value\nld.b32,4,\nst.b32,4,1\nglobal.add.u32,4,100000000\n").unwrap();
    let (code, out, err) = go(&["run", path.to_str().unwrap()], b"");
    assert_eq!(code, Some(2));
    assert_eq!(out, "index,op,addr,result\n0,ld.b32,4,00000000\n");
    assert!(err.contains("bad.csv: line 4: value: `100000000` is wider than 32 bits"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_options_exit_with_status_2() {
    for args in [
        &["run", "--mem-bytes", "17", "-"][..],
        &["run", "--mem-bytes", "0", "-"],
        &["run", "--mem-bytes", "99999999999999999999999", "-"],
        &["run", "--mem-bytes", "-16", "-"],
        &["run", "--engine", "gpu", "-"],
        &["eval", "--engine", ""],
        &["eval", "--vcd", "/dev/null"],
        &["regress", "--seed", "0x"],
        &["regress", "--seed", "-1"],
        &["bench-redux", "--insts", "0"],
    ] {
        let out = redunit(args, "op,addr,value\n");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out.stderr));
        assert!(!text(&out.stderr).contains("panicked"), "{args:?}: {}", text(&out.stderr));
    }
}

#[test]
fn a_header_after_blank_lines_picks_its_format() {
    let asy = "\n\r\nop,addr,value,mbar\nmbarrier.init,8,1,\nmbarrier.test_wait.parity,8,2,\n";
    stops(
        &["run", "-"],
        asy.as_bytes(),
        "index,op,addr,result\n",
        5,
        "value: the parity of mbarrier.test_wait.parity is 0 or 1",
    );
    let warp = format!("\n{}\nglobal.add.u32,0{}\n", testbench::warp::header(), ",,".repeat(32));
    let (code, out, err) = go(&["run", "-"], warp.as_bytes());
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        out,
        "index,op,mask,lines,requests,misaligned,out_of_range\n0,global.add.u32,00000000,0,0,00000000,00000000\n"
    );
    let redux = format!("\r\n{}\nredux.sync.or.b32,1{}\n", testbench::eval::redux_header(), ",10".repeat(32));
    let (code, out, err) = go(&["eval"], redux.as_bytes());
    assert_eq!(code, Some(0), "{err}");
    assert!(out.ends_with(&format!("redux.sync.or.b32,1{},00000010\n", ",10".repeat(32))), "{out}");
}

#[test]
fn a_bad_header_writes_nothing() {
    for (args, input) in
        [(&["eval"][..], "form,init\n"), (&["run", "-"], "op,addr\nld.b32,0,\n"), (&["run", "-"], "\u{feff}op,mask,\n")]
    {
        let (code, out, err) = go(args, input.as_bytes());
        assert_eq!((code, out.as_str()), (Some(2), ""), "{args:?} {input:?}");
        assert!(err.contains("line 1: expected the header"), "{err}");
    }
}

#[test]
fn many_blank_lines_before_the_header_take_no_time() {
    let blank = "\n".repeat(200_000);
    let t = std::time::Instant::now();
    let (code, out, err) = go(&["eval"], format!("{blank}form,init,b\nglobal.add.u32,1,2\n").as_bytes());
    assert_eq!((code, out.as_str()), (Some(0), "form,init,b,result\nglobal.add.u32,1,2,00000003\n"), "{err}");
    let (code, _, err) = go(&["run", "-"], format!("{blank}op,addr,value,mbar\nld.b32,0,,\nld.b32,0,,x\n").as_bytes());
    assert_eq!(code, Some(2));
    assert!(err.contains("line 200003: ld.b32 takes no mbar"), "{err}");
    assert!(t.elapsed().as_secs() < 10, "{:?}", t.elapsed());
}
