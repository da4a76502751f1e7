//! The formal flow of `tests/formal.rs` and `tests/formal_unit.rs`: a SystemVerilog harness
//! (`hw/formal/*.sv`) around a block's generated Verilog (module `top`), lowered to an SMT2
//! model by Yosys and checked by `yosys-smtbmc` with z3, as a bounded model check from reset
//! or as a k-induction proof.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// The outcome of a check: a pass, or the names of the failing properties (the `@name` tag
/// on each failing assertion's line in the harness).
#[derive(Debug, PartialEq)]
pub enum Verdict {
    Pass,
    Fail(Vec<String>),
}

impl Verdict {
    /// Whether the check failed on the property `name` (among others perhaps).
    pub fn fails_on(&self, name: &str) -> bool {
        matches!(self, Verdict::Fail(names) if names.iter().any(|n| n == name))
    }
}

/// What is checked: `steps` cycles from reset (`Bmc`), or a proof by k-induction (`Prove`):
/// the model check of `k` cycles from reset and the induction step of length `k` (any `k`
/// consecutive cycles that satisfy every assertion, from any state, are followed by a cycle
/// that does too) both pass. `BmcLast(from, steps)`: the cycles from reset to `steps`, the
/// assertions checked in cycles `from..steps` only, solved incrementally (a deep mutation
/// check: each cycle's check from reset grows costly past 20 or so).
#[derive(Clone, Copy, Debug)]
pub enum Mode {
    Bmc(usize),
    BmcLast(usize, usize),
    Prove(usize),
}

/// A harness around a design.
pub struct Check<'a> {
    /// The check's directory under `target/tmp/formal`.
    pub name: &'a str,
    /// The harness file in `hw/formal`.
    pub file: &'a str,
    /// The design's Verilog (module `top`).
    pub dut: String,
    pub defines: Vec<String>,
    /// Yosys commands run on the elaborated design before `prep` (cut points).
    pub cut: String,
    /// Probes: the harness's wire (an undriven `(* keep *) wire`) and the flattened design's
    /// signal it reads (`dut.<name>`), connected after `flatten` and `memory_map`, before
    /// `prep` (whose `wreduce` narrows registers with constant bits).
    pub probes: Vec<(String, String)>,
    /// Mutations of the design: each `(from, to)` replaces the one occurrence of `from` in
    /// its Verilog.
    pub edits: Vec<(&'a str, &'a str)>,
}

impl<'a> Check<'a> {
    pub fn new(name: &'a str, file: &'a str, dut: String, defines: &[&str]) -> Self {
        let defines = defines.iter().map(|d| d.to_string()).collect();
        Check { name, file, dut, defines, cut: String::new(), probes: Vec::new(), edits: Vec::new() }
    }

    pub fn define(mut self, d: &str) -> Self {
        self.defines.push(d.to_string());
        self
    }

    pub fn cut(mut self, cut: impl Into<String>) -> Self {
        self.cut = cut.into();
        self
    }

    pub fn probe(mut self, wire: &str, signal: &str) -> Self {
        self.probes.push((wire.to_string(), signal.to_string()));
        self
    }

    pub fn edit(mut self, from: &'a str, to: &'a str) -> Self {
        self.edits.push((from, to));
        self
    }

    /// Runs the check. Panics when a tool is missing or errs, or an edit does not apply.
    pub fn run(&self, mode: Mode) -> Verdict {
        for tool in ["yosys", "yosys-smtbmc", "z3"] {
            let found = Command::new("sh").arg("-c").arg(format!("command -v {tool}")).output().unwrap();
            assert!(found.status.success(), "{tool} not found: run scripts/setup.sh (it installs yosys and z3)");
        }
        let name = self.name;
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("formal").join(name);
        std::fs::create_dir_all(&dir).unwrap();
        let mut dut = self.dut.clone();
        for (from, to) in &self.edits {
            assert_eq!(dut.matches(from).count(), 1, "{name}: the design's Verilog has not exactly one `{from}`");
            dut = dut.replacen(from, to, 1);
        }
        std::fs::write(dir.join("dut.v"), &dut).unwrap();
        let harness = Path::new(env!("CARGO_MANIFEST_DIR")).join("formal").join(self.file);
        let defs: String = self.defines.iter().map(|d| format!(" -D{d}")).collect();
        let connects: String =
            self.probes.iter().map(|(w, s)| format!("connect -nounset -set {w} dut.{s}\n")).collect();
        // `check -assert` after `prep` fails on a probe left undriven.
        let probes = if connects.is_empty() { String::new() } else { format!("cd harness\n{connects}cd ..\n") };
        let script = format!(
            "read_verilog -formal dut.v\n\
             read_verilog -formal -sv{defs} -I{dir} {h}\n\
             hierarchy -top harness\nproc\nmemory_collect\n{cut}\n\
             flatten\nmemory_map\n{probes}prep -top harness\ncheck -assert\nopt -full\ntechmap\nopt -fast\nabc -g AND\n\
             opt_clean\nasync2sync\ndffunmap\nopt_clean\nwrite_smt2 -wires model.smt2\n",
            h = harness.display(),
            dir = harness.parent().unwrap().display(),
            cut = &self.cut,
        );
        std::fs::write(dir.join("model.ys"), &script).unwrap();
        let y = Command::new("yosys").current_dir(&dir).args(["-q", "-l", "yosys.log", "model.ys"]).output().unwrap();
        assert!(y.status.success(), "{name}: yosys failed (log in {})", dir.display());
        let t = Instant::now();
        let verdict = match mode {
            Mode::Bmc(steps) => self.smtbmc(&dir, 0, steps, false),
            Mode::BmcLast(from, steps) => self.smtbmc(&dir, from, steps, false),
            Mode::Prove(k) => match self.smtbmc(&dir, 0, k, false) {
                Verdict::Pass => self.smtbmc(&dir, 0, k, true),
                fail => fail,
            },
        };
        eprintln!("{name}: {verdict:?} ({mode:?}) in {:.1} s", t.elapsed().as_secs_f64());
        verdict
    }

    /// One `yosys-smtbmc` run: `steps` cycles from reset (assertions checked from cycle
    /// `from`, incrementally when `from` is not 0), or the induction step of that length.
    /// Its log and trace: `bmc.log` and `bmc.vcd`, or `induction.*`.
    fn smtbmc(&self, dir: &Path, from: usize, steps: usize, induction: bool) -> Verdict {
        let base = if induction { "induction" } else { "bmc" };
        let vcd = format!("{base}.vcd");
        let mut args = vec!["-s", "z3", "--presat"];
        if from == 0 {
            args.push("--noincr");
        }
        if induction {
            args.push("-i");
        }
        let steps_s = if from == 0 { steps.to_string() } else { format!("{from}:{steps}") };
        args.extend(["-t", &steps_s, "--dump-vcd", &vcd, "model.smt2"]);
        let out = Command::new("yosys-smtbmc").current_dir(dir).args(&args).output().unwrap();
        let log = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        std::fs::write(dir.join(format!("{base}.log")), &log).unwrap();
        if log.contains("Status: PASSED") {
            Verdict::Pass
        } else if log.contains("Status: FAILED") {
            let names = failed_properties(&log, dir);
            assert!(
                !names.is_empty(),
                "{}: {base} failed with no failing assertion in its log ({})",
                self.name,
                dir.display()
            );
            eprintln!("{}: {base} of {steps} fails on {names:?}", self.name);
            Verdict::Fail(names)
        } else {
            panic!("{}: yosys-smtbmc gave no status (log in {})", self.name, dir.display())
        }
    }
}

/// The names (`@name` on the assertion's last line, in the harness or the design's
/// Verilog) of the assertions the log reports failing ("Assert failed in <module>:
/// <file>:<line>.<col>-..."); a relative file is in `dir`.
fn failed_properties(log: &str, dir: &Path) -> Vec<String> {
    let mut names = Vec::new();
    for l in log.lines().filter(|l| l.contains("Assert failed in")) {
        let Some(at) = l.find(": ") else { continue };
        let loc = l[at + 2..].split(' ').next().unwrap_or("");
        let Some(colon) = loc.rfind(':') else { continue };
        let (file, rest) = (&loc[..colon], &loc[colon + 1..]);
        // `<line>.<col>-<line>.<col>`: the assertion ends on the second line.
        let end = rest.split('-').nth(1).unwrap_or(rest);
        let line: usize = end.split('.').next().and_then(|n| n.parse().ok()).unwrap_or(0);
        let text = std::fs::read_to_string(dir.join(file)).unwrap_or_default();
        let tag = text.lines().nth(line.wrapping_sub(1)).and_then(|s| s.split('@').nth(1));
        let name = tag.map(|t| t.split(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap().to_string());
        let name = name.unwrap_or_else(|| format!("{file}:{line}"));
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// The largest window of the unit's queue (`Config::unit_default()`).
pub fn unit_queue_wmax() -> usize {
    hw::slice_unit::shape(&hw::Config::unit_default()).win_fp.max(1)
}

/// The defines of the unit's queue's chain key and windows (`queue_key.svh`: KB, WMAX,
/// CHAIN_WAIT, CHAIN_WAIT_LONG), shared by the harnesses of the queue and of the accept
/// stage that pushes into it.
pub fn unit_queue_key_defines() -> Vec<String> {
    let sh = hw::slice_unit::shape(&hw::Config::unit_default());
    vec![
        format!("KB={}", hw::ordering_queue::QUEUE_KEY_BITS),
        format!("WMAX={}", unit_queue_wmax()),
        format!("CHAIN_WAIT={}", sh.win_chain),
        format!("CHAIN_WAIT_LONG={}", sh.win_fp_chain),
    ]
}

/// The check depth: `var` or `default` cycles.
pub fn depth(var: &str, default: usize) -> usize {
    std::env::var(var).ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}
