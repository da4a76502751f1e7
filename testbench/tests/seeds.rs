//! Walks the table of `docs/seeds.md` (every form and qualifier of the seed texts `red` and
//! `redux.sync`, with what redunit does with it) through `redunit eval` and `redunit run`,
//! both engines, and checks each row's outcome, result or message against the table.

mod common;
use common::{redunit, text};

/// One table row: the seed, the spelling, its operands (`key=value` words), the result or the
/// quoted refusal, and the outcome column.
struct Row {
    seed: String,
    spelling: String,
    ops: Vec<(String, String)>,
    expect: String,
    outcome: String,
}

impl Row {
    fn get(&self, key: &str) -> Option<&str> {
        self.ops.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }
    fn list(&self, key: &str) -> Vec<String> {
        self.get(key).map_or(Vec::new(), |v| v.split(',').map(String::from).collect())
    }
    fn refused(&self) -> Option<&str> {
        self.outcome.starts_with("refused").then(|| self.expect.trim_matches('`'))
    }
}

fn table() -> Vec<Row> {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/seeds.md")).unwrap();
    let mut rows = Vec::new();
    for line in doc.lines().filter(|l| l.starts_with("| 00")) {
        let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
        assert_eq!(cells.len(), 5, "a table row has 5 cells: {line}");
        let ops = cells[2]
            .split_whitespace()
            .map(|w| {
                let (k, v) = w.split_once('=').unwrap_or_else(|| panic!("operand `{w}` is not key=value: {line}"));
                (k.to_string(), v.to_string())
            })
            .collect();
        let outcome = cells[4].to_string();
        assert!(
            outcome.starts_with("executes")
                || outcome.starts_with("parses, no effect here (")
                || outcome.starts_with("refused ("),
            "outcome `{outcome}` is one of the three: {line}"
        );
        rows.push(Row {
            seed: cells[0].to_string(),
            spelling: cells[1].trim_matches('`').to_string(),
            ops,
            expect: cells[3].to_string(),
            outcome,
        });
    }
    rows
}

/// Checks one command's output: success with `want` results, or status 2 naming the reason.
fn check(what: &str, row: &Row, args: &[&str], input: &str, results: impl Fn(&str) -> Vec<String>) {
    let out = redunit(args, input);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    match row.refused() {
        Some(msg) => {
            assert_eq!(out.status.code(), Some(2), "{what} {}: refused in the table, but ran:\n{stdout}", row.spelling);
            assert!(stderr.contains(msg), "{what} {}: the message should say `{msg}`, was: {stderr}", row.spelling);
        }
        None => {
            assert!(out.status.success(), "{what} {}: {stderr}", row.spelling);
            let want: Vec<String> = row.expect.split(',').map(String::from).collect();
            assert_eq!(results(&stdout), want, "{what} {}:\n{input}\n{stdout}", row.spelling);
        }
    }
}

fn eval_red(row: &Row, engine: &str) {
    let (init, b) = (row.list("init"), row.list("b"));
    let (addr, policy) = (row.get("addr").unwrap_or(""), row.get("policy").unwrap_or(""));
    let mut input = String::from("form,init,b,addr,cache_policy\n");
    for (i, b) in init.iter().zip(&b) {
        input.push_str(&format!("{},{i},{b},{addr},{policy}\n", row.spelling));
    }
    let results = |out: &str| out.lines().skip(1).map(|l| l.rsplit(',').next().unwrap().to_string()).collect();
    check(&format!("eval --engine {engine}"), row, &["eval", "--engine", engine], &input, results);
}

/// Stores `init` at the row's address in its space, applies the instruction, loads the line.
fn run_red(row: &Row, engine: &str) {
    let (init, b) = (row.list("init"), row.list("b"));
    let addr = u64::from_str_radix(row.get("addr").unwrap_or("40"), 16).unwrap();
    let policy = row.get("policy").unwrap_or("");
    // Element bytes: from the result's digits, or for a refused row from the operands'.
    let digits = match row.refused() {
        None => row.expect.split(',').next().unwrap().len(),
        Some(_) => b.iter().chain(&init).map(|v| v.len()).max().unwrap().div_ceil(2) * 2,
    };
    let eb = digits / 2;
    let space = ["shared", "global"]
        .into_iter()
        .find(|s| row.spelling.contains(&format!(".{s}")))
        .map_or(String::new(), |s| format!("{s}."));
    let (line, off) = (addr & !15, (addr & 15) as usize);
    let word = |vals: &[String], at: usize| -> u128 {
        vals.iter().enumerate().map(|(k, v)| u128::from_str_radix(v, 16).unwrap() << (8 * (at + k * eb))).sum()
    };
    let input = format!(
        "op,addr,value,cache_policy\nst.{space}b128,{line:x},{:x},\n{},{addr:x},{:x},{policy}\nld.{space}b128,{line:x},,\n",
        word(&init, off),
        row.spelling,
        word(&b, 0)
    );
    let results = |out: &str| -> Vec<String> {
        let Some(l) = out.lines().find(|l| l.starts_with("2,")) else { return vec![format!("no load row in {out}")] };
        let v = u128::from_str_radix(l.rsplit(',').next().unwrap(), 16).unwrap();
        (0..init.len())
            .map(|k| format!("{:0digits$x}", (v >> (8 * (off + k * eb))) & ((1u128 << (8 * eb)) - 1)))
            .collect()
    };
    check(&format!("run --engine {engine}"), row, &["run", "--engine", engine, "-"], &input, results);
}

/// A `red.async` row (docs/seeds.md, seed 001): from CTA 0 (or `cta`), CTA 1 inits the
/// mbarrier at 8008, store `init` at 8040 in the memory the row writes (shared for
/// `.relaxed`, global for `.release`), apply the row with `b`, load the word back.
fn run_async(row: &Row, engine: &str) {
    let f = &row.spelling;
    let relaxed = f.contains(".relaxed");
    let base = if relaxed && !f.contains(".shared::cluster") { 0x1_0000_0000u64 } else { 0 };
    let bits = if f.ends_with("64") { 64 } else { 32 };
    let mbar = if relaxed { format!("{:x}", base + 0x8008) } else { String::new() };
    let space = if relaxed { "shared::cluster." } else { "global." };
    let (header, tail, init_tail) = match row.get("cta") {
        Some(c) => ("op,addr,value,mbar,cta", format!(",{c}"), ",1".to_string()),
        None => ("op,addr,value,mbar", String::new(), String::new()),
    };
    let input = format!(
        "{header}\nmbarrier.init,8008,1,{init_tail}\nst.{space}b{bits},8040,{},{tail}\n{f},{:x},{},{mbar}{tail}\nld.{space}b{bits},8040,,{tail}\n",
        row.get("init").unwrap(),
        base + 0x8040,
        row.get("b").unwrap()
    );
    let results = |out: &str| {
        out.lines().filter(|l| l.starts_with("3,")).map(|l| l.rsplit(',').next().unwrap().to_string()).collect()
    };
    check(&format!("run --engine {engine}"), row, &["run", "--engine", engine, "-"], &input, results);
}

/// A warp row of one active lane: `init` put at the lane's address by `global.or`, the row's
/// instruction with `b`, the memory read back with `--dump-mem` (see docs/seeds.md).
fn warp_red(row: &Row, engine: &str) {
    let reg = u64::from_str_radix(row.get("reg").unwrap_or("40"), 16).unwrap();
    let imm = row.get("imm").unwrap_or("");
    let lane0 = |op: &str, reg: u64, v: &str, imm: &str| format!("{op},1,{reg:x},{v}{},{imm}\n", ",,".repeat(31));
    let mut input = testbench::warp_trace::header_imm() + "\n";
    let mut at = None;
    if row.refused().is_none() {
        let form: sim::Form = match row.spelling.parse::<sim::sass::SassRed>() {
            Ok(s) => s.form().unwrap(),
            Err(_) => row.spelling.parse().unwrap(),
        };
        let extended = row.spelling.starts_with("RED.E.");
        let addr = sim::sass::address(extended, reg, sim::sass::parse_imm(imm).unwrap());
        if let (Some(init), true) = (row.get("init"), addr < 1 << 16) {
            input += &lane0(&format!("global.or.b{}", 8 * form.bytes()), addr, init, "");
            at = Some((addr, form.bytes()));
        }
    }
    input += &lane0(&row.spelling, reg, row.get("b").unwrap(), imm);
    let path = std::env::temp_dir().join(format!("redunit-seeds-{}-{engine}.csv", std::process::id()));
    let args = ["run", "--engine", engine, "--dump-mem", path.to_str().unwrap(), "-"];
    let results = |out: &str| -> Vec<String> {
        let last = out.lines().last().unwrap_or_default();
        if last.ends_with(",00000000,00000001") {
            return vec!["error:out-of-range".into()];
        }
        if !last.ends_with(",00000000,00000000") {
            return vec![format!("a failed lane: {last}")];
        }
        let dump = std::fs::read_to_string(&path).unwrap();
        let Some((addr, bytes)) = at else { return vec![format!("no address in memory: {last}")] };
        let line = dump.lines().find(|l| l.starts_with(&format!("global,{:x},", addr & !15)));
        let v = line.map_or(0, |l| u128::from_str_radix(l.rsplit(',').next().unwrap(), 16).unwrap());
        let v = (v >> (8 * (addr & 15))) & ((1u128 << (8 * bytes)) - 1);
        vec![format!("{v:0w$x}", w = 2 * bytes)]
    };
    check(&format!("run (warp) --engine {engine}"), row, &args, &input, results);
    let _ = std::fs::remove_file(&path);
}

fn eval_redux(row: &Row, engine: &str) {
    let mut src = row.list("src");
    src.resize(32, "0".into());
    let lane = row.get("lane");
    let mut input = String::from("form,mask");
    for i in 0..32 {
        input.push_str(&format!(",src{i}"));
    }
    input.push_str(if lane.is_some() { ",lane\n" } else { "\n" });
    input.push_str(&format!("{},{},{}", row.spelling, row.get("mask").unwrap(), src.join(",")));
    if let Some(l) = lane {
        input.push_str(&format!(",{l}"));
    }
    input.push('\n');
    let results = |out: &str| out.lines().skip(1).map(|l| l.rsplit(',').next().unwrap().to_string()).collect();
    check(&format!("eval --engine {engine}"), row, &["eval", "--engine", engine], &input, results);
}

#[test]
fn every_row_of_the_seed_table_does_what_it_says() {
    let rows = table();
    let sass = rows.iter().filter(|r| r.seed == "004").count();
    let red_async = rows.iter().filter(|r| r.seed == "001").count();
    let red = rows.iter().filter(|r| r.seed != "004" && r.seed != "001" && r.spelling.starts_with("red.")).count();
    let redux = rows.iter().filter(|r| r.spelling.starts_with("redux.sync.")).count();
    assert_eq!(
        red + red_async + redux + sass,
        rows.len(),
        "every row is a red, a red.async, a redux.sync or a SASS RED"
    );
    // The 12 .relaxed op/types and the 4 .release types, at least.
    assert!(red_async >= 16 + 5, "{red_async} red.async rows");
    // The 25 scalar and 32 vector op/type forms of the seed, and all 17 redux.sync forms, at least.
    assert!(red >= 57 + 20 && redux >= 17 + 5, "{red} red rows, {redux} redux rows");
    // Every cell of seed 004's operations table (26), and the refusals around it.
    let cells = sim::sass::SASS_OPS.iter().map(|&op| sim::sass::table_sizes(op).len()).sum::<usize>();
    for op in sim::sass::SASS_OPS {
        for &size in sim::sass::table_sizes(op) {
            let r = sim::sass::SassRed { extended: false, op, size };
            assert!(
                rows.iter().any(|row| row.seed == "004" && row.spelling == r.to_string()),
                "seed 004 table has {r}"
            );
        }
    }
    assert!(sass >= cells + 20, "{sass} SASS RED rows");
    for row in &rows {
        for engine in ["model", "rtl"] {
            if row.seed == "004" {
                warp_red(row, engine);
            } else if row.seed == "001" {
                run_async(row, engine);
            } else if row.spelling.starts_with("redux.") {
                eval_redux(row, engine);
            } else {
                eval_red(row, engine);
                run_red(row, engine);
            }
        }
    }
}

#[test]
fn forms_all_lists_every_spelling_and_each_parses() {
    let out = redunit(&["forms", "--all"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    let mut lines = s.lines();
    assert_eq!(lines.next(), Some("spelling,space,form"));
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 25 * 15 * 7 + 32 * 15 * 4);
    for want in [
        "red.relaxed.gpu.global.add.u32,global,global.add.u32",
        "red.release.sys.shared::cluster.max.u32,shared::cluster,shared.max.u32",
        "red.add.noftz.bf16x2,generic,global.add.noftz.bf16x2",
        "red.cta.global.and.L2::cache_hint.b32,global,global.and.b32",
        "red.global.add.noftz.L2::cache_hint.v8.f16,global,global.v8.f16.add.noftz",
        "red.shared::cta.inc.u32,shared,shared.inc.u32",
    ] {
        assert!(rows.contains(&want), "{want} is listed");
    }
    // Every listed spelling runs as an eval row (generic ones at a global address).
    let mut input = String::from("form,init,b,addr,cache_policy\n");
    for r in &rows {
        let spelling = r.split(',').next().unwrap();
        let n = if let Some(v) = ["v2", "v4", "v8"].iter().find(|v| spelling.contains(&format!(".{v}."))) {
            v[1..].parse().unwrap()
        } else {
            1
        };
        for _ in 0..n {
            input.push_str(&format!("{spelling},1,1,40,\n"));
        }
    }
    let out = redunit(&["eval"], &input);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // The plain listing is unchanged.
    let plain = redunit(&["forms", "--csv"], "");
    assert_eq!(text(&plain.stdout).lines().count(), 83);
}
