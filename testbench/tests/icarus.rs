//! The shipped Verilog (`hw::verilog::verilog`) in an event-driven 4-state simulator: each top
//! runs in Icarus Verilog (`iverilog` + `vvp`) on a seeded random stimulus, every result is
//! checked against the golden model, and no output may be X or Z after reset. A simulation
//! that hangs (a zero-delay loop never leaves its time step) fails on a wall-clock limit.
//!
//! The tests print their seed; rerun with
//! `REDUNIT_SEED=<seed> cargo test --release -p testbench --test icarus`. Each run's files
//! (Verilog, testbench, stimulus, output) stay in `target/tmp/icarus-<top>-<seed>/`.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use sim::Request;
use sim::memory::{Memory, req_encoding};
use sim::redux::{LANES, ReduxForm, reduce_lanes};
use testbench::engine::{AluOp, golden, result_mask};
use testbench::stimulus::{self, Stimulus};
use testbench::traffic::{Mix, Traffic};
use testbench::unit::Response;

/// Wall-clock limit of one `vvp` run: far above a healthy run, so only a hang reaches it.
const VVP_LIMIT: Duration = Duration::from_secs(180);
/// Requests through the unit, operations through the ALU and instructions through redux.
const UNIT_REQUESTS: usize = 300;
const ALU_OPS: usize = 400;
const REDUX_INSTS: usize = 200;
const MEM: usize = sim::memory::DEFAULT_MEM_BYTES;

/// What a run of `vvp` printed.
struct Run {
    dir: PathBuf,
    out: String,
}

/// Compiles `verilog` (module `top`) with the testbench `tb` (module `tb`) and runs it with the
/// stimulus file `stim.hex` (one line per entry) in a fresh folder; panics when Icarus is
/// missing, fails or does not finish within [`VVP_LIMIT`].
fn icarus(name: &str, seed: u64, verilog: &str, tb: &str, stim: &str) -> Run {
    for tool in ["iverilog", "vvp"] {
        let ok = Command::new(tool).arg("-V").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok();
        assert!(ok, "{tool} (Icarus Verilog) cannot be run: run scripts/setup.sh (or apt-get install -y iverilog)");
    }
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("icarus-{name}-{seed:#x}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("top.v"), verilog).unwrap();
    std::fs::write(dir.join("tb.v"), tb).unwrap();
    std::fs::write(dir.join("stim.hex"), stim).unwrap();
    let t = Instant::now();
    let c = Command::new("iverilog")
        .current_dir(&dir)
        .args(["-g2005", "-o", "sim.vvp", "-s", "tb", "tb.v", "top.v"])
        .output()
        .expect("iverilog runs");
    assert!(c.status.success(), "{name}: iverilog failed:\n{}", String::from_utf8_lossy(&c.stderr));
    let compiled = t.elapsed();
    let log = std::fs::File::create(dir.join("out.txt")).unwrap();
    let mut child = Command::new("vvp")
        .current_dir(&dir)
        .args(["-n", "sim.vvp"])
        .stdout(log)
        .stderr(Stdio::inherit())
        .spawn()
        .expect("vvp runs");
    let t = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if t.elapsed() > VVP_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            let out = std::fs::read_to_string(dir.join("out.txt")).unwrap_or_default();
            let last: Vec<&str> = out.lines().rev().take(3).collect();
            panic!(
                "{name}: Icarus did not finish within {} s: the simulation hangs (a zero-delay loop keeps \
                 re-triggering combinational blocks); last output lines {last:?}; files in {}",
                VVP_LIMIT.as_secs(),
                dir.display()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let out = std::fs::read_to_string(dir.join("out.txt")).unwrap();
    assert!(status.success(), "{name}: vvp failed ({status}):\n{out}");
    println!(
        "{name}: iverilog {:.1} s, vvp {:.1} s ({})",
        compiled.as_secs_f64(),
        t.elapsed().as_secs_f64(),
        dir.display()
    );
    Run { dir, out }
}

/// A stimulus word built field by field, most significant first, written as hex.
#[derive(Default)]
struct Word(Vec<bool>);

impl Word {
    fn push(&mut self, v: u128, bits: usize) -> &mut Self {
        self.0.extend((0..bits).rev().map(|i| i < 128 && v >> i & 1 == 1));
        self
    }
    fn hex(&self) -> String {
        let pad = (4 - self.0.len() % 4) % 4;
        let bits: Vec<bool> = std::iter::repeat_n(false, pad).chain(self.0.iter().copied()).collect();
        bits.chunks(4).map(|c| char::from_digit(c.iter().fold(0, |a, &b| a << 1 | b as u32), 16).unwrap()).collect()
    }
}

/// Lines of the output that start with `tag`, split into their fields.
fn lines<'a>(run: &'a Run, tag: &str) -> Vec<Vec<&'a str>> {
    run.out.lines().filter_map(|l| l.strip_prefix(tag)).map(|l| l.split_whitespace().collect()).collect()
}

/// Fails when the testbench saw an X or Z on an output after reset.
fn assert_no_unknowns(name: &str, run: &Run) {
    let x: Vec<&str> = run.out.lines().filter(|l| l.starts_with("X ")).take(5).collect();
    assert!(
        x.is_empty(),
        "{name}: outputs X or Z after reset (cycle, then the outputs): {x:#?}\nfiles in {}",
        run.dir.display()
    );
}

fn hex128(s: &str) -> u128 {
    u128::from_str_radix(s, 16).unwrap_or_else(|_| panic!("{s:?} is not a known hex value"))
}

/// Declarations, port list and the X check of a top's ports: `(name, bits, is_input)`.
struct Ports<'a>(&'a [(&'a str, usize, bool)]);

impl Ports<'_> {
    fn decls(&self) -> String {
        let mut s = String::new();
        for &(n, w, input) in self.0 {
            let kind = if input { "reg " } else { "wire" };
            let range = if w > 1 { format!("[{}:0] ", w - 1) } else { String::new() };
            let init = if input { " = 0" } else { "" };
            let _ = writeln!(s, "  {kind} {range}{n}{init};");
        }
        let conns: Vec<String> = self.0.iter().map(|(n, _, _)| format!(".{n}({n})")).collect();
        let _ = writeln!(s, "  top dut({});", conns.join(", "));
        s
    }
    /// A statement printing `X <cycle> <name>` for each output with an X or Z bit.
    fn x_check(&self) -> String {
        let mut s = String::new();
        for &(n, _, input) in self.0 {
            if !input {
                let _ = writeln!(s, "      if (^{n} === 1'bx) $display(\"X %0d {n} %h\", cycle, {n});");
            }
        }
        s
    }
}

/// The testbench of a pipelined block without handshakes: one stimulus line per cycle drives
/// `inputs` (concatenated, first most significant) in the low half of the cycle; just before
/// the rising edge, a cycle with `valid` high prints `O <cycle> <out>…` (hex, in `outs` order).
/// Outputs are checked for X and Z from cycle `settle` on.
fn pipeline_tb(ports: &Ports, inputs: &[&str], valid: &str, outs: &[&str], lines: usize, settle: usize) -> String {
    let width: usize = inputs.iter().map(|i| ports.0.iter().find(|p| p.0 == *i).unwrap().1).sum();
    let fmt = vec!["%h"; outs.len()].join(" ");
    format!(
        "`timescale 1ns/1ns
module tb;
{decls}  reg [{msb}:0] stim [0:{last}];
  integer cycle;
  initial begin
    $readmemh(\"stim.hex\", stim);
    for (cycle = 0; cycle < {lines}; cycle = cycle + 1) begin
      {{{ins}}} = stim[cycle];
      #4;
      if (cycle >= {settle}) begin
{x}      end
      if ({valid}) $display(\"O %0d {fmt}\", cycle, {outs});
      #1 clock = 1;
      #5 clock = 0;
    end
    $display(\"DONE %0d\", cycle);
    $finish;
  end
endmodule
",
        decls = ports.decls(),
        msb = width - 1,
        last = lines - 1,
        ins = inputs.join(", "),
        x = ports.x_check(),
        outs = outs.join(", "),
    )
}

/// The unit's testbench: reset, then the requests of `stim.hex` in order, each offered
/// (`req_valid`) in `valid_pct`% of the cycles, with `rsp_ready` high in `ready_pct`%; request
/// i has id i. A taken response prints `R <cycle> <id> <status> <data>`; no handshake for
/// 20,000 cycles prints `STUCK`.
fn unit_tb(n: usize, seed: u64, valid_pct: u32, ready_pct: u32) -> String {
    use req_encoding::{REQ_OP_WIDTH, STATUS_WIDTH};
    let ports = Ports(&[
        ("clock", 1, true),
        ("reset", 1, true),
        ("req_valid", 1, true),
        ("req_ready", 1, false),
        ("req_op", REQ_OP_WIDTH, true),
        ("req_addr", 32, true),
        ("req_data", 128, true),
        ("req_id", 16, true),
        ("req_mask", 8, true),
        ("rsp_valid", 1, false),
        ("rsp_ready", 1, true),
        ("rsp_id", 16, false),
        ("rsp_data", 128, false),
        ("rsp_status", STATUS_WIDTH, false),
        ("cov", 16, false),
    ]);
    format!(
        "`timescale 1ns/1ns
module tb;
{decls}  reg [{msb}:0] stim [0:{last}];
  integer cycle = 0, i = 0, got = 0, idle = 0, seed = {seed};
  initial begin
    $readmemh(\"stim.hex\", stim);
    reset = 1;
    repeat ({reset}) begin
      #5 clock = 1;
      #5 clock = 0;
      cycle = cycle + 1;
    end
    reset = 0;
    while (got < {n} && idle < 20000) begin
      {{req_op, req_addr, req_data}} = stim[i < {n} ? i : 0];
      req_id = i;
      req_valid = i < {n} && {{$random(seed)}} % 100 < {valid_pct};
      rsp_ready = {{$random(seed)}} % 100 < {ready_pct};
      #4;
{x}      idle = idle + 1;
      if (req_valid && req_ready) begin
        i = i + 1;
        idle = 0;
      end
      if (rsp_valid && rsp_ready) begin
        $display(\"R %0d %h %h %h\", cycle, rsp_id, rsp_status, rsp_data);
        got = got + 1;
        idle = 0;
      end
      #1 clock = 1;
      #5 clock = 0;
      cycle = cycle + 1;
    end
    if (got < {n}) $display(\"STUCK %0d: %0d requests accepted, %0d responses\", cycle, i, got);
    $display(\"DONE %0d\", cycle);
    $finish;
  end
endmodule
",
        decls = ports.decls(),
        msb = REQ_OP_WIDTH + 32 + 128 - 1,
        last = n.max(1) - 1,
        reset = testbench::unit::RESET_CYCLES,
        x = ports.x_check(),
    )
}

/// The unit built with `cfg` on a seeded random trace: every response against
/// `sim::Memory::execute` in request order.
fn unit_case(name: &str, cfg: &hw::Config) {
    let seed = stimulus::seed_from_env().expect("REDUNIT_SEED");
    println!("{name}: seed {seed:#x} (rerun with REDUNIT_SEED={seed:#x})");
    let reqs: Vec<Request> = Traffic::new(seed, MEM, Mix::default())
        .requests(UNIT_REQUESTS + UNIT_REQUESTS / 4)
        .into_iter()
        .filter(|r| r.addr <= u32::MAX as u64)
        .take(UNIT_REQUESTS)
        .collect();
    let n = reqs.len();
    let mut stim = String::new();
    for r in &reqs {
        let line = Word::default()
            .push(r.access.code() as u128, req_encoding::REQ_OP_WIDTH)
            .push(r.addr as u128, 32)
            .push(r.value, 128)
            .hex();
        let _ = writeln!(stim, "{line}");
    }
    let (valid_pct, ready_pct) = (85 + (seed % 16) as u32, 60 + (seed >> 8) as u32 % 41);
    let tb = unit_tb(n, seed & 0x7fff_ffff, valid_pct, ready_pct);
    let run = icarus(name, seed, &hw::unit_verilog_with(MEM, cfg), &tb, &stim);
    assert!(
        !run.out.contains("STUCK"),
        "{name}: the unit stopped (req_valid {valid_pct}%, rsp_ready {ready_pct}%):\n{}",
        run.out.lines().last().unwrap_or("")
    );
    assert_no_unknowns(name, &run);
    let mut got: Vec<Option<Response>> = vec![None; n];
    for f in lines(&run, "R ") {
        let id = usize::from_str_radix(f[1], 16).unwrap();
        assert!(id < n && got[id].is_none(), "{name}: a response with rsp_id {id:#x}, which is not in flight");
        let status =
            u8::from_str_radix(f[2], 16).unwrap_or_else(|_| panic!("{name}: rsp_status {} for request {id}", f[2]));
        got[id] = Some(Response { status, data: hex128(f[3]), accept: 0, cycle: f[0].parse().unwrap() });
    }
    let mut mem = Memory::new(MEM);
    let mut bad = Vec::new();
    for (i, (r, g)) in reqs.iter().zip(&got).enumerate() {
        let want = mem.execute(r);
        let g = g.unwrap_or_else(|| panic!("{name}: request {i} ({} at {:#x}) got no response", r.access, r.addr));
        let outcome = g.outcome(r.access).unwrap_or_else(|m| panic!("{name}: request {i}: {m}"));
        if outcome != want {
            bad.push(format!(
                "request {i} ({} at {:#x}, operand {:#x}): expected {want:x?}, got {outcome:x?}",
                r.access, r.addr, r.value
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{name}: {} of {n} responses differ from the golden model:\n{}",
        bad.len(),
        bad[..bad.len().min(10)].join("\n")
    );
    println!("{name}: {n} requests match the golden model (req_valid {valid_pct}%, rsp_ready {ready_pct}%)");
}

/// The unit in its default configuration (`Config::unit_default`: every block at its deepest).
#[test]
fn unit_default_in_icarus_matches_the_golden_model() {
    unit_case("unit-default", &hw::Config::unit_default());
}

/// The unit at its shallowest depths (`Config::most_ops_per_cycle`).
#[test]
fn unit_most_ops_per_cycle_in_icarus_matches_the_golden_model() {
    unit_case("unit-most-ops", &hw::Config::most_ops_per_cycle());
}

/// The reduction ALU (`hw::alu_verilog`) on random operations of every form, with idle cycles
/// between some: each result, its form and its latency against the golden model.
#[test]
fn alu_in_icarus_matches_the_golden_model() {
    use sim::form::encoding::CODE_WIDTH;
    let name = "alu";
    let seed = stimulus::seed_from_env().expect("REDUNIT_SEED");
    println!("{name}: seed {seed:#x} (rerun with REDUNIT_SEED={seed:#x})");
    let mut ops = Stimulus::new(seed);
    let mut state = seed;
    // A cycle's operation, or None for an idle cycle; a few idle cycles first and a drain.
    let mut slots: Vec<Option<AluOp>> = vec![None; 4];
    for _ in 0..ALU_OPS {
        if sim::splitmix64_next(&mut state) % 8 == 0 {
            slots.push(None);
        }
        slots.push(Some(ops.random_op()));
    }
    let lat = hw::ALU_LATENCY;
    slots.extend(std::iter::repeat_n(None, lat + 4));
    let mut stim = String::new();
    for (k, s) in slots.iter().enumerate() {
        let next = slots.get(k + 1).copied().flatten();
        let (v, form, old, b) = s.map_or((0, 0, 0, 0), |o| (1, o.form.code(), o.old, o.b));
        let mut w = Word::default();
        w.push(v, 1).push(form as u128, CODE_WIDTH).push(old, 128).push(b, 128).push(old, 128).push(old, 128);
        w.push(next.is_some() as u128, 1).push(next.map_or(0, |o| o.form.code()) as u128, CODE_WIDTH);
        let _ = writeln!(stim, "{}", w.hex());
    }
    let ports = Ports(&[
        ("clock", 1, true),
        ("in_valid", 1, true),
        ("in_form", CODE_WIDTH, true),
        ("in_old", 128, true),
        ("in_b", 128, true),
        ("in_old_mm", 128, true),
        ("in_old_wide", 128, true),
        ("pre_valid", 1, true),
        ("pre_form", CODE_WIDTH, true),
        ("loop_a", 1, true),
        ("out_valid", 1, false),
        ("out_form", CODE_WIDTH, false),
        ("out_data", 128, false),
    ]);
    let ins = ["in_valid", "in_form", "in_old", "in_b", "in_old_mm", "in_old_wide", "pre_valid", "pre_form"];
    let tb = pipeline_tb(&ports, &ins, "out_valid", &["out_form", "out_data"], slots.len(), lat + 1);
    let run = icarus(name, seed, &hw::alu_verilog(), &tb, &stim);
    assert_no_unknowns(name, &run);
    let want: Vec<(usize, &AluOp)> =
        slots.iter().enumerate().filter_map(|(k, s)| s.as_ref().map(|o| (k + lat, o))).collect();
    let got = lines(&run, "O ");
    assert_eq!(
        got.len(),
        want.len(),
        "{name}: {} operations went in, out_valid was high {} times",
        want.len(),
        got.len()
    );
    let mut bad = Vec::new();
    for ((cycle, op), g) in want.iter().zip(&got) {
        let m = result_mask(op.form);
        let (c, f, d) =
            (g[0].parse::<usize>().unwrap(), u16::from_str_radix(g[1], 16).ok(), u128::from_str_radix(g[2], 16).ok());
        let expect = golden(op) & m;
        if c != *cycle || f != Some(op.form.code()) || d.map(|d| d & m) != Some(expect) {
            bad.push(format!(
                "{} old {:#x} b {:#x}: expected {expect:#x} in cycle {cycle}, got form {} data {} in cycle {c}",
                op.form, op.old, op.b, g[1], g[2]
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{name}: {} of {} results differ:\n{}",
        bad.len(),
        want.len(),
        bad[..bad.len().min(10)].join("\n")
    );
    println!("{name}: {} operations match the golden model", want.len());
}

/// The redux.sync block (`hw::redux_verilog`) on random warp instructions of every form:
/// form, mask, result and every lane against the golden model, at `hw::REDUX_LATENCY`.
#[test]
fn redux_in_icarus_matches_the_golden_model() {
    use sim::redux::encoding::CODE_WIDTH;
    let name = "redux";
    let seed = stimulus::seed_from_env().expect("REDUNIT_SEED");
    println!("{name}: seed {seed:#x} (rerun with REDUNIT_SEED={seed:#x})");
    let forms = ReduxForm::all();
    let mut state = seed;
    let mut slots = vec![None; 4];
    for i in 0..REDUX_INSTS {
        slots.push(Some(testbench::redux::random_inst(&mut state, forms[i % forms.len()], true)));
    }
    let lat = hw::REDUX_LATENCY;
    slots.extend(std::iter::repeat_n(None, lat + 4));
    let mut stim = String::new();
    for s in &slots {
        let mut w = Word::default();
        match s {
            Some(i) => w.push(1, 1).push(i.form.code() as u128, CODE_WIDTH).push(i.mask as u128, 32),
            None => w.push(0, 1 + CODE_WIDTH + 32),
        };
        for lane in (0..LANES).rev() {
            w.push(s.map_or(0, |i| i.src[lane]) as u128, 32);
        }
        let _ = writeln!(stim, "{}", w.hex());
    }
    let ports = Ports(&[
        ("clock", 1, true),
        ("in_valid", 1, true),
        ("in_form", CODE_WIDTH, true),
        ("in_mask", 32, true),
        ("in_src", 32 * LANES, true),
        ("out_valid", 1, false),
        ("out_form", CODE_WIDTH, false),
        ("out_mask", 32, false),
        ("out_result", 32, false),
        ("out_lanes", 32 * LANES, false),
    ]);
    let outs = ["out_form", "out_mask", "out_result", "out_lanes"];
    let tb =
        pipeline_tb(&ports, &["in_valid", "in_form", "in_mask", "in_src"], "out_valid", &outs, slots.len(), lat + 1);
    let run = icarus(name, seed, &hw::redux_verilog(), &tb, &stim);
    assert_no_unknowns(name, &run);
    let want: Vec<(usize, _)> = slots.iter().enumerate().filter_map(|(k, s)| s.map(|i| (k + lat, i))).collect();
    let got = lines(&run, "O ");
    assert_eq!(
        got.len(),
        want.len(),
        "{name}: {} instructions went in, out_valid was high {} times",
        want.len(),
        got.len()
    );
    let mut bad = Vec::new();
    for ((cycle, i), g) in want.iter().zip(&got) {
        let lanes = reduce_lanes(i.form, i.mask, &i.src);
        let expect = [
            cycle.to_string(),
            format!("{:0w$x}", i.form.code(), w = CODE_WIDTH.div_ceil(4)),
            format!("{:08x}", i.mask),
            format!("{:08x}", sim::redux::reduce(i.form, i.mask, &i.src)),
            lanes.iter().rev().map(|l| format!("{l:08x}")).collect(),
        ];
        if g.iter().zip(&expect).any(|(a, b)| a != b) {
            bad.push(format!("{} mask {:08x}: expected {expect:?}, got {g:?}", i.form, i.mask));
        }
    }
    assert!(
        bad.is_empty(),
        "{name}: {} of {} results differ:\n{}",
        bad.len(),
        want.len(),
        bad[..bad.len().min(5)].join("\n")
    );
    println!("{name}: {} instructions match the golden model", want.len());
}

/// The integer ALU alone at two stages, whose `Cut` registers (`q = d; if (on) q = r$q;`) hung
/// Icarus at time 0 before the rewrite: it must run to the end.
#[test]
fn int_alu_two_stages_runs_in_icarus() {
    let cfg = hw::Config { int_stages: 2, ..hw::Config::default() };
    let v = hw::verilog::verilog(&mut hw::int_alu::IntAlu::new(&cfg));
    let ports = Ports(&[
        ("clock", 1, true),
        ("op", 3, true),
        ("ty", 4, true),
        ("a", 64, true),
        ("b", 64, true),
        ("hold", 1, true),
        ("y", 64, false),
    ]);
    let mut state = 1u64;
    let mut stim = String::new();
    for _ in 0..200 {
        let mut r = || sim::splitmix64_next(&mut state);
        let line = Word::default()
            .push((r() % 7) as u128, 3)
            .push((r() % 16) as u128, 4)
            .push(r() as u128, 64)
            .push(r() as u128, 64)
            .hex();
        let _ = writeln!(stim, "{line}");
    }
    let tb = pipeline_tb(&ports, &["op", "ty", "a", "b"], "1'b0", &["y"], 200, 3);
    let run = icarus("int-alu-2", 1, &v, &tb, &stim);
    assert!(run.out.contains("DONE 200"), "int ALU: the testbench did not finish:\n{}", run.out);
}

/// The AXI front end with the unit (`hw::axi_verilog`, default configuration): single-beat
/// transactions of the random AXI mix one at a time, `RREADY`/`BREADY` random, every response
/// against `testbench::axi::golden`. Handshake outputs may never be X or Z after reset, and a
/// response's payload not while it is valid (AXI leaves the payload of an idle channel free:
/// the reorder buffer's LUT RAM is not initialised).
#[test]
fn axi_in_icarus_matches_the_golden_model() {
    use testbench::axi::{Txn, golden};
    let seed = stimulus::seed_from_env().expect("REDUNIT_SEED");
    println!("axi: seed {seed:#x} (rerun with REDUNIT_SEED={seed:#x})");
    let txns: Vec<Txn> =
        testbench::axi_traffic::random_traffic(seed, 400, MEM).into_iter().filter(|t| t.len == 0).take(150).collect();
    let n = txns.len();
    let mut stim = String::new();
    for t in &txns {
        let (data, strb) = t.beats.first().copied().unwrap_or((0, 0));
        let w = Word::default()
            .push(t.write as u128, 1)
            .push(t.id as u128, 4)
            .push(t.addr as u128, 32)
            .push(t.size as u128, 3)
            .push(t.burst as u128, 2)
            .push(t.atop as u128, 6)
            .push(t.user as u128, 11)
            .push(strb as u128, 16)
            .push(data, 128)
            .hex();
        let _ = writeln!(stim, "{w}");
    }
    let tb = format!(
        "`timescale 1ns/1ns
module tb;
  reg clock = 0, reset = 1;
  reg awvalid = 0, wvalid = 0, wlast = 1, bready = 0, arvalid = 0, rready = 0;
  reg [3:0] awid = 0, arid = 0;
  reg [31:0] awaddr = 0, araddr = 0;
  reg [7:0] awlen = 0, arlen = 0;
  reg [2:0] awsize = 0, arsize = 0;
  reg [1:0] awburst = 0, arburst = 0;
  reg [5:0] awatop = 0;
  reg [10:0] awuser = 0;
  reg [127:0] wdata = 0;
  reg [15:0] wstrb = 0;
  wire awready, wready, bvalid, arready, rvalid, rlast, fire;
  wire [3:0] bid, rid;
  wire [1:0] bresp, rresp;
  wire [127:0] rdata;
  wire [15:0] cov;
  top dut(.clock(clock), .reset(reset), .awvalid(awvalid), .awready(awready), .awid(awid), .awaddr(awaddr),
    .awlen(awlen), .awsize(awsize), .awburst(awburst), .awatop(awatop), .awuser(awuser), .wvalid(wvalid),
    .wready(wready), .wdata(wdata), .wstrb(wstrb), .wlast(wlast), .bvalid(bvalid), .bready(bready), .bid(bid),
    .bresp(bresp), .arvalid(arvalid), .arready(arready), .arid(arid), .araddr(araddr), .arlen(arlen),
    .arsize(arsize), .arburst(arburst), .rvalid(rvalid), .rready(rready), .rid(rid), .rdata(rdata),
    .rresp(rresp), .rlast(rlast), .fire(fire), .cov(cov));
  reg [202:0] stim [0:{last}];
  reg [202:0] cur;
  integer cycle = 0, i = 0, idle = 0, seed = {tbseed}, aw_done = 0, w_done = 0, phase = 0, got_r = 0, got_b = 0;
  initial begin
    $readmemh(\"stim.hex\", stim);
    repeat (4) begin
      #5 clock = 1;
      #5 clock = 0;
      cycle = cycle + 1;
    end
    reset = 0;
    while (i < {n} && idle < 20000) begin
      cur = stim[i];
      awid = cur[201:198]; arid = cur[201:198];
      awaddr = cur[197:166]; araddr = cur[197:166];
      awsize = cur[165:163]; arsize = cur[165:163];
      awburst = cur[162:161]; arburst = cur[162:161];
      awatop = cur[160:155]; awuser = cur[154:144]; wstrb = cur[143:128]; wdata = cur[127:0];
      awvalid = phase == 0 && cur[202] && !aw_done;
      wvalid = phase == 0 && cur[202] && !w_done;
      arvalid = phase == 0 && !cur[202] && !aw_done;
      rready = {{$random(seed)}} % 100 < 70;
      bready = {{$random(seed)}} % 100 < 70;
      #4;
      if ((^{{awready, wready, arready, bvalid, rvalid}}) === 1'bx) $display(\"X %0d handshake %b\", cycle, {{awready, wready, arready, bvalid, rvalid}});
      if (rvalid && (^{{rid, rresp, rlast, rdata}}) === 1'bx) $display(\"X %0d R payload\", cycle);
      if (bvalid && (^{{bid, bresp}}) === 1'bx) $display(\"X %0d B payload\", cycle);
      idle = idle + 1;
      if ((awvalid && awready) || (arvalid && arready)) begin aw_done = 1; idle = 0; end
      if (wvalid && wready) begin w_done = 1; idle = 0; end
      if (rvalid && rready) begin $display(\"R %0d %h %h %h %h\", i, rid, rresp, rlast, rdata); got_r = got_r + 1; idle = 0; end
      if (bvalid && bready) begin $display(\"B %0d %h %h\", i, bid, bresp); got_b = got_b + 1; idle = 0; end
      if (phase == 0 && aw_done && (w_done || !cur[202])) phase = 1;
      if (phase == 1 && got_b == (cur[202] ? 1 : 0) && got_r == ((!cur[202] || cur[160]) ? 1 : 0)) begin
        i = i + 1; phase = 0; aw_done = 0; w_done = 0; got_r = 0; got_b = 0;
      end
      #1 clock = 1;
      #5 clock = 0;
      cycle = cycle + 1;
    end
    if (i < {n}) $display(\"STUCK %0d at transaction %0d\", cycle, i);
    $display(\"DONE %0d\", cycle);
    $finish;
  end
endmodule
",
        last = n.max(1) - 1,
        tbseed = seed & 0x7fff_ffff,
    );
    let run = icarus("axi", seed, &hw::axi_verilog(MEM), &tb, &stim);
    assert!(!run.out.contains("STUCK"), "axi: stuck: {}", run.out.lines().last().unwrap_or(""));
    assert_no_unknowns("axi", &run);
    let mut mem = Memory::new(MEM);
    let (rs, bs) = (lines(&run, "R "), lines(&run, "B "));
    for (i, t) in txns.iter().enumerate() {
        let e = golden(&mut mem, t);
        let key = format!("{i}");
        let r: Vec<&Vec<&str>> = rs.iter().filter(|f| f[0] == key).collect();
        let b: Vec<&Vec<&str>> = bs.iter().filter(|f| f[0] == key).collect();
        assert_eq!(r.len(), e.r.len(), "axi: transaction {i} {t:?}: R beats");
        assert_eq!(b.len(), e.b.is_some() as usize, "axi: transaction {i} {t:?}: B responses");
        for (f, (resp, data)) in r.iter().zip(&e.r) {
            assert_eq!(u8::from_str_radix(f[1], 16).unwrap(), t.id, "axi: transaction {i}: RID");
            assert_eq!(u8::from_str_radix(f[2], 16).unwrap(), *resp, "axi: transaction {i} {t:?}: RRESP");
            assert_eq!(f[3], "1", "axi: transaction {i}: RLAST");
            if let Some(d) = data {
                assert_eq!(hex128(f[4]), *d, "axi: transaction {i} {t:?}: RDATA");
            }
        }
        if let (Some(f), Some(resp)) = (b.first(), e.b) {
            assert_eq!(u8::from_str_radix(f[1], 16).unwrap(), t.id, "axi: transaction {i}: BID");
            assert_eq!(u8::from_str_radix(f[2], 16).unwrap(), resp, "axi: transaction {i} {t:?}: BRESP");
        }
    }
    println!("axi: {n} transactions match the golden model");
}
