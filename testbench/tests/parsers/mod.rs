//! Shared by the parser property tests: valid rows of every input format as strategies, the
//! commands as functions of in-memory input, and the check that an input either runs or
//! stops at `line N:` with exactly the output of the rows before line N.
#![allow(dead_code)]

use std::sync::LazyLock;

use proptest::prelude::*;
use sim::Form;
use sim::mbarrier::{CTA_SHARED_BYTES, MBAR_MAX, MBARRIER_BYTES, MBARRIER_SLOTS};
use sim::red_async::RedAsync;
use sim::redux::ReduxForm;
use sim::spaces::SHARED_WINDOW_BASE;
use testbench::engine::EngineKind;
use testbench::{async_run, eval, trace, warp};

/// What a command did with an input: its output, and `Err(message)` when it stopped.
pub type Outcome = (Vec<u8>, Result<(), String>);

/// One input format and a command that reads it.
#[derive(Clone, Copy)]
pub struct Target {
    pub name: &'static str,
    /// The command, from input bytes to its outcome.
    pub run: fn(&[u8]) -> Outcome,
    /// The header of the input.
    pub header: fn() -> String,
    /// Whether each output row is its input row with `,result` appended (`eval`).
    pub echoes: bool,
    /// Valid data rows, up to n rows or instructions.
    pub rows: fn(usize) -> BoxedStrategy<Vec<String>>,
}

fn outcome<T>(out: Vec<u8>, r: anyhow::Result<T>) -> Outcome {
    (out, r.map(|_| ()).map_err(|e| format!("{e:#}")))
}

fn eval_with(i: &[u8], engine: EngineKind) -> Outcome {
    let mut out = Vec::new();
    let r = eval::eval(i, &mut out, &mut *engine.alu());
    outcome(out, r)
}

fn redux_with(i: &[u8], engine: EngineKind) -> Outcome {
    let mut out = Vec::new();
    let r = eval::eval_redux(i, &mut out, &mut *engine.redux());
    outcome(out, r)
}

fn run_model(i: &[u8]) -> Outcome {
    let mut out = Vec::new();
    let n = sim::memory::DEFAULT_MEM_BYTES;
    let r = trace::run(i, &mut out, &mut sim::Memory::new(n), &mut sim::Memory::new(n));
    outcome(out, r)
}

fn run_rtl(i: &[u8]) -> Outcome {
    let mut out = Vec::new();
    let n = sim::memory::DEFAULT_MEM_BYTES;
    let units = testbench::unit::RtlUnit::new(n).and_then(|g| Ok((g, testbench::unit::RtlUnit::new(n)?)));
    let r = units.and_then(|(mut g, mut s)| trace::run(i, &mut out, &mut g, &mut s));
    outcome(out, r)
}

fn warp_with(i: &[u8], rtl: bool) -> Outcome {
    let mut out = Vec::new();
    let r = warp::run_trace(i, &mut out, rtl, warp::RtlWarp::MEM_BYTES);
    outcome(out, r)
}

fn async_with(i: &[u8], rtl: bool) -> Outcome {
    let mut out = Vec::new();
    let r = async_run::run_cmd(i, rtl, async_run::ASYNC_MEM_BYTES, &mut out);
    // A test_wait's result depends on when the engine completes a red.async (the RTL's is
    // checked inside run_cmd against the model following the RTL's completions); every other
    // row must agree between the engines.
    let out: Vec<u8> = String::from_utf8_lossy(&out)
        .split_inclusive('\n')
        .filter(|l| !l.contains(",mbarrier.test_wait.parity,"))
        .collect::<String>()
        .into_bytes();
    // Status 1 is an RTL mismatch against the model: a failure here too.
    let r = r.and_then(|code| if code == 0 { Ok(()) } else { Err(anyhow::anyhow!("RTL mismatch (status {code})")) });
    outcome(out, r)
}

pub const EVAL: Target = Target {
    name: "eval",
    run: |i| eval_with(i, EngineKind::Model),
    header: || "form,init,b".into(),
    echoes: true,
    rows: |n| prop::collection::vec(red_inst(), 0..=n).prop_map(|v| v.concat()).boxed(),
};
pub const EVAL_RTL: Target = Target { run: |i| eval_with(i, EngineKind::Rtl), name: "eval rtl", ..EVAL };
pub const REDUX: Target = Target {
    name: "eval redux",
    run: |i| redux_with(i, EngineKind::Model),
    header: eval::redux_header,
    echoes: true,
    rows: |n| prop::collection::vec(redux_row(), 0..=n).boxed(),
};
pub const REDUX_RTL: Target = Target { run: |i| redux_with(i, EngineKind::Rtl), name: "eval redux rtl", ..REDUX };
pub const RUN: Target = Target {
    name: "run",
    run: run_model,
    header: || "op,addr,value".into(),
    echoes: false,
    rows: |n| prop::collection::vec(spaced_request_row(), 0..=n).boxed(),
};
pub const RUN_RTL: Target = Target { name: "run rtl", run: run_rtl, ..RUN };
pub const WARP: Target = Target {
    name: "run warp",
    run: |i| warp_with(i, false),
    header: warp::header,
    echoes: false,
    rows: |n| prop::collection::vec(warp_row(), 0..=n).boxed(),
};
pub const WARP_RTL: Target = Target { name: "run warp rtl", run: |i| warp_with(i, true), ..WARP };
pub const ASYNC: Target = Target {
    name: "run async",
    run: |i| async_with(i, false),
    header: || async_run::HEADER.into(),
    echoes: false,
    rows: |n| prop::collection::vec(async_row(), 0..=n).boxed(),
};
pub const ASYNC_RTL: Target = Target { name: "run async rtl", run: |i| async_with(i, true), ..ASYNC };

/// Every format on the golden model, and on the RTL.
pub const MODEL: [Target; 5] = [EVAL, REDUX, RUN, WARP, ASYNC];
pub const RTL: [Target; 5] = [EVAL_RTL, REDUX_RTL, RUN_RTL, WARP_RTL, ASYNC_RTL];
pub const ALL: [Target; 10] = [EVAL, REDUX, RUN, WARP, ASYNC, EVAL_RTL, REDUX_RTL, RUN_RTL, WARP_RTL, ASYNC_RTL];

impl std::fmt::Debug for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

static FORMS: LazyLock<Vec<Form>> = LazyLock::new(Form::all);
static REDUX_FORMS: LazyLock<Vec<ReduxForm>> = LazyLock::new(ReduxForm::all);
static ASYNC_FORMS: LazyLock<Vec<RedAsync>> = LazyLock::new(RedAsync::all);
/// The ops of warp rows with their operand bytes: the global forms (a warp row refuses shared
/// ones: RED addresses global memory) and every SASS `RED` opcode of seed 004's table.
static WARP_OPS: LazyLock<Vec<(String, usize)>> = LazyLock::new(|| {
    let mut ops: Vec<(String, usize)> =
        FORMS.iter().filter(|f| f.space() == sim::Space::Global).map(|f| (f.to_string(), f.bytes())).collect();
    for op in sim::sass::SASS_OPS {
        for &size in sim::sass::table_sizes(op) {
            for extended in [false, true] {
                let r = sim::sass::SassRed { extended, op, size };
                ops.push((r.to_string(), r.form().unwrap().bytes()));
            }
        }
    }
    ops
});

/// `v` (cut to `bits`) as hex in one of the spellings the formats allow: `style` picks
/// shortest lowercase, uppercase, zero-padded, or extra leading zeros.
pub fn hex(v: u128, bits: u32, style: u8) -> String {
    let v = if bits >= 128 { v } else { v & ((1u128 << bits) - 1) };
    let w = bits as usize / 4;
    match style % 4 {
        0 => format!("{v:x}"),
        1 => format!("{v:X}"),
        2 => format!("{v:0w$x}"),
        _ => format!("000{v:x}"),
    }
}

/// The rows of one `eval` instruction: a vector form takes one row per element.
pub fn red_inst() -> impl Strategy<Value = Vec<String>> {
    (0..FORMS.len(), prop::array::uniform8(any::<u128>()), prop::array::uniform8(any::<u128>()), any::<u16>()).prop_map(
        |(f, init, b, style)| {
            let form = FORMS[f];
            let w = form.elem_bits();
            (0..form.vec())
                .map(|k| {
                    format!("{form},{},{}", hex(init[k], w, (style >> (2 * k)) as u8), hex(b[k], w, (style >> k) as u8))
                })
                .collect()
        },
    )
}

/// One `redux.sync` row.
pub fn redux_row() -> impl Strategy<Value = String> {
    (0..REDUX_FORMS.len(), any::<u32>(), prop::array::uniform32(any::<u32>()), any::<u8>()).prop_map(
        |(f, mask, src, style)| {
            let mut r = format!("{},{}", REDUX_FORMS[f], hex(mask as u128, 32, style));
            for (i, s) in src.iter().enumerate() {
                r.push(',');
                r.push_str(&hex(*s as u128, 32, style.wrapping_add(i as u8)));
            }
            r
        },
    )
}

/// A byte address: mostly aligned inside the default memory, sometimes anything.
fn addr() -> impl Strategy<Value = u64> {
    prop_oneof![6 => (0u64..4096).prop_map(|s| s * 16), 1 => 0u64..0x10000, 1 => any::<u64>()]
}

/// One `op,addr,value` request row: `ld`, `st`, a `red` form or an `atom`.
pub fn request_row() -> impl Strategy<Value = String> {
    (0..6 + 2 * FORMS.len(), addr(), any::<u128>(), any::<u8>()).prop_map(|(op, a, v, style)| {
        let (name, bits) = match op {
            0..3 => (format!("ld.b{}", 32 << op), 0),
            3..6 => (format!("st.b{}", 32 << (op - 3)), 32 << (op - 3)),
            _ if op < 6 + FORMS.len() => (FORMS[op - 6].to_string(), FORMS[op - 6].bytes() as u32 * 8),
            _ => {
                let f = FORMS[op - 6 - FORMS.len()];
                (format!("atom.{f}"), f.bytes() as u32 * 8)
            }
        };
        let value = if bits == 0 { String::new() } else { hex(v, bits, style) };
        format!("{name},{},{value}", hex(a as u128, 64, style >> 2))
    })
}

/// One `op,addr,value` row of a `run` trace: as [`request_row`], or a `red`/`atom` written as a
/// PTX instruction with a `.sem`, a `.scope` and sometimes no state space (scalars only, so that
/// every address is legal for it), or an `ld`/`st` that names a space; addresses sometimes in
/// the generic shared window.
pub fn spaced_request_row() -> impl Strategy<Value = String> {
    let window = (0u64..4096).prop_map(|s| sim::spaces::SHARED_WINDOW_BASE + s * 16);
    let addr = prop_oneof![3 => addr(), 1 => window];
    let qualified =
        (0..2 * FORMS.len(), any::<u8>(), addr, any::<u128>(), any::<u8>()).prop_map(|(k, q, a, v, style)| {
            let form = FORMS[k % FORMS.len()];
            let sem = ["", "relaxed.", "release."][(q % 3) as usize];
            let scope = ["", "cta.", "cluster.", "gpu.", "sys."][(q / 3 % 5) as usize];
            let name = form.to_string();
            let body =
                if !form.is_vector() && q / 15 % 2 == 1 { name.split_once('.').unwrap().1.to_string() } else { name };
            let op =
                if k < FORMS.len() { format!("red.{sem}{scope}{body}") } else { format!("atom.{sem}{scope}{body}") };
            format!("{op},{},{}", hex(a as u128, 64, style), hex(v, form.bytes() as u32 * 8, style >> 2))
        });
    let spaces = ["", "global.", "shared.", "shared::cta.", "shared::cluster."];
    let plain = (0..6usize, 0..spaces.len(), (0u64..4096).prop_map(|s| s * 16), any::<u128>()).prop_map(
        move |(op, sp, a, v)| {
            let (kind, w) = if op < 3 { ("ld", 32 << op) } else { ("st", 32 << (op - 3)) };
            let value = if kind == "ld" { String::new() } else { hex(v, w, 0) };
            format!("{kind}.{}b{w},{a:x},{value}", spaces[sp])
        },
    );
    prop_oneof![2 => request_row(), 2 => qualified, 1 => plain]
}

/// One warp row: a global `red` form or a SASS `RED` opcode, a mask, and 32 lanes (inactive
/// lanes sometimes left empty).
pub fn warp_row() -> impl Strategy<Value = String> {
    let lane = (prop_oneof![3 => (0u32..512).prop_map(|s| s * 16), 1 => any::<u32>()], any::<u128>());
    (0..WARP_OPS.len(), any::<u32>(), prop::collection::vec(lane, 32), any::<bool>(), any::<u8>()).prop_map(
        |(f, mask, lanes, empty, style)| {
            let (op, bytes) = &WARP_OPS[f];
            let bits = *bytes as u32 * 8;
            let mut r = format!("{op},{}", hex(mask as u128, 32, style));
            for (i, (a, v)) in lanes.iter().enumerate() {
                if empty && mask >> i & 1 == 0 {
                    r.push_str(",,");
                } else {
                    r.push_str(&format!(",{},{}", hex(*a as u128, 32, style >> 1), hex(*v, bits, style >> 2)));
                }
            }
            r
        },
    )
}

/// One `op,addr,value,mbar` row: a request, a `red.async`, or an mbarrier operation.
pub fn async_row() -> impl Strategy<Value = String> {
    // Mbarriers and destinations in CTA 1 (a peer of the executing CTA 0), a few more mbarriers
    // than the table has entries.
    let slot = (0..MBARRIER_SLOTS as u64 + 2).prop_map(|s| format!("{:x}", CTA_SHARED_BYTES + s * MBARRIER_BYTES));
    let count = (0..=MBAR_MAX).prop_map(|c| format!("{c:x}"));
    let bar = (0..6usize, slot.clone(), count, any::<bool>()).prop_map(|(op, a, c, parity)| match op {
        0 => format!("mbarrier.init,{a},{c},"),
        5 => format!("mbarrier.inval,{a},,"),
        1 => format!("mbarrier.arrive,{a},,"),
        2 => format!("mbarrier.arrive.expect_tx,{a},{c},"),
        3 => format!("mbarrier.complete_tx,{a},{c},"),
        _ => format!("mbarrier.test_wait.parity,{a},{},", parity as u8),
    });
    let red_async = (0..ASYNC_FORMS.len(), addr(), any::<u128>(), slot, any::<u8>()).prop_map(|(f, a, v, s, style)| {
        let form = ASYNC_FORMS[f];
        let base = if form.explicit_space() { 0 } else { SHARED_WINDOW_BASE };
        let a = if form.has_mbarrier() { base + CTA_SHARED_BYTES + a % CTA_SHARED_BYTES } else { a };
        let mbar = match u64::from_str_radix(&s, 16) {
            Ok(m) if form.has_mbarrier() => format!("{:x}", base + m),
            _ => String::new(),
        };
        format!("{form},{},{},{mbar}", hex(a as u128, 64, style), hex(v, form.bytes() as u32 * 8, style >> 2))
    });
    prop_oneof![2 => request_row().prop_map(|r| r + ","), 2 => red_async, 3 => bar]
}

/// The input: the header, then `rows`, each ended by a newline.
pub fn input(target: Target, rows: &[String]) -> Vec<u8> {
    let mut s = (target.header)();
    s.push('\n');
    for r in rows {
        s.push_str(r);
        s.push('\n');
    }
    s.into_bytes()
}

/// N of a message `line N: ...` (after an optional `file: `).
pub fn line_of(msg: &str) -> Option<u64> {
    msg.strip_prefix("line ")?.split_once(':')?.0.parse().ok()
}

/// The bytes of `input` before its line `n` (1-based; lines end at `\n`).
pub fn before_line(input: &[u8], n: u64) -> &[u8] {
    let mut at = 0;
    for _ in 1..n {
        match input[at..].iter().position(|&b| b == b'\n') {
            Some(p) => at += p + 1,
            None => return input,
        }
    }
    &input[..at]
}

/// The contract on any input: the command either succeeds (with the output header, and for
/// `eval` each row echoed with a result), or stops with `line N: ...` where its output is
/// exactly what the lines before N give, and those lines alone run or stop no earlier than N.
/// Returns the outcome for further checks.
pub fn check(target: Target, input: &[u8]) -> Result<Outcome, TestCaseError> {
    let (out, r) = (target.run)(input);
    match &r {
        Ok(()) => {
            let text = String::from_utf8_lossy(&out);
            prop_assert!(text.ends_with('\n'), "{}: output `{text}`", target.name);
            let mut out_rows = text.lines();
            if target.echoes {
                prop_assert_eq!(out_rows.next(), Some(&*format!("{},result", (target.header)())));
                let rows: Vec<&[u8]> = data_rows(input);
                let out_rows: Vec<&str> = out_rows.collect();
                prop_assert_eq!(rows.len(), out_rows.len(), "{}: one output row per input row", target.name);
                for (i, o) in rows.iter().zip(&out_rows) {
                    let (echo, result) = o.rsplit_once(',').unwrap_or_default();
                    prop_assert_eq!(echo.as_bytes(), *i, "{}: the row is echoed", target.name);
                    prop_assert!(!result.is_empty() && result.bytes().all(|c| c.is_ascii_hexdigit()));
                }
            }
        }
        Err(msg) => {
            let n =
                line_of(msg).ok_or_else(|| TestCaseError::fail(format!("{}: `{msg}` names no line", target.name)))?;
            let lines = input.split(|&b| b == b'\n').count() as u64;
            prop_assert!(n >= 1 && n <= lines + 1, "{}: line {n} of {lines}: {msg}", target.name);
            prop_assert!(msg.len() < 4096, "{}: a {}-byte message", target.name, msg.len());
            let (before, r2) = (target.run)(before_line(input, n));
            prop_assert!(
                out == before,
                "{}: stopped at line {n} ({msg}) but wrote\n{}\nwhere the lines before it write\n{}",
                target.name,
                String::from_utf8_lossy(&out),
                String::from_utf8_lossy(&before)
            );
            if let Err(m2) = r2 {
                prop_assert!(
                    line_of(&m2).is_some_and(|n2| n2 >= n),
                    "{}: the lines before {n} stop earlier: {m2}",
                    target.name
                );
            }
        }
    }
    Ok((out, r))
}

/// The data rows of an input as the formats read them: lines without `\n`/`\r\n`, blank ones
/// and the header left out, a byte order mark ignored.
fn data_rows(input: &[u8]) -> Vec<&[u8]> {
    let input = input.strip_prefix(b"\xef\xbb\xbf").unwrap_or(input);
    let mut rows: Vec<&[u8]> =
        input.split(|&b| b == b'\n').map(|l| l.strip_suffix(b"\r").unwrap_or(l)).filter(|l| !l.is_empty()).collect();
    if !rows.is_empty() {
        rows.remove(0);
    }
    rows
}

/// Ways to make a valid row bad. Each gives an error on that row in every format: field 0 is
/// a name and field 1 is hex in all of them.
pub fn corrupt(row: &str, how: u8) -> String {
    let mut f: Vec<String> = row.split(',').map(String::from).collect();
    match how % 11 {
        0 => f.push("1".into()),
        1 => {
            f.pop();
        }
        2 => f[0].push_str(".zz"),
        3 => f[1].insert(0, 'g'),
        4 => f[1] = "1".repeat(33),
        5 => f[1] = format!("0x{}", f[1]),
        6 => f[1].clear(),
        7 => {
            let mid = f[0].len() / 2;
            f[0].insert(mid, '\0')
        }
        8 => f[1] = "f".repeat(1 << 20),
        9 => {
            let mid = f[0].len() / 2;
            f[0].insert(mid, '\r')
        }
        _ => f[1].push('\u{e9}'),
    }
    f.join(",")
}
