//! `redunit regress` (one shard of a regression, or all of it as shard 0/1) and `redunit
//! merge`. The split, the JSON result and the sum are `testbench::shard`; this module runs the
//! blocks, prints their lines and, for each failing block, the command that reruns it alone.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use indicatif::ProgressBar;
use sim::Form;
use testbench::conformance;
use testbench::cosim::{self, MAX_ERRORS, vcd_time};
use testbench::engine::{AluOp, EngineKind, golden};
use testbench::rtl::RtlAlu;
use testbench::shard::{self, Block, Failure, RegressResult, Shard, ShardSeed, Sizes};
use testbench::stimulus::Stimulus;

use testbench::top::Top;

use super::merge::{summary, write_json};
use super::verilog::write_verilog;
use super::{DEFAULT_VERILOG, bar, fail_vcd_path};

/// The test hook of the failure path: `REDUNIT_FLIP_GOLDEN=I` flips the lowest bit of the
/// golden result of random ALU operation I (of this run's stream) in the checker, so that a
/// correct RTL fails there. The design is not touched.
pub const FLIP_ENV: &str = "REDUNIT_FLIP_GOLDEN";
/// The test hook of the unit's failure path: `REDUNIT_SOAK_MUTATION=expect-dropped-response`
/// (or `nothing-lands`) runs the unit stream's checker with that deliberate bug
/// (`testbench::soak::Mutation`), so that a correct unit fails. The design is not touched.
pub const SOAK_MUTATION_ENV: &str = "REDUNIT_SOAK_MUTATION";

/// The parts of a regression, in run order (`--only` picks one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Part {
    /// The H100 `red` vectors through the ALU.
    Vectors,
    /// The random ALU stream.
    Alu,
    /// The random request stream through the L2-slice unit.
    Unit,
    /// The H100 `redux.sync` captures through the redux block.
    ReduxH100,
    /// The random redux.sync stream.
    Redux,
    /// Random warp instructions through the coalescer and the unit.
    Warp,
    /// Random red.async/mbarrier traces through the async unit.
    Async,
    /// Random request traces that mix state spaces, generic addresses and qualifiers, through
    /// a unit per space.
    Spaces,
}

impl Part {
    pub fn name(self) -> &'static str {
        match self {
            Part::Vectors => "vectors",
            Part::Alu => "alu",
            Part::Unit => "unit",
            Part::ReduxH100 => "redux-h100",
            Part::Redux => "redux",
            Part::Warp => "warp",
            Part::Async => "async",
            Part::Spaces => "spaces",
        }
    }

    /// The size flag of the part's rerun command (the whole regression's size).
    fn size_flag(self, s: &Sizes) -> String {
        match self {
            Part::Vectors | Part::ReduxH100 => String::new(),
            Part::Alu => format!(" --ops {}", s.ops),
            Part::Unit => format!(
                " --unit-requests {} --reset-every {} --drought-every {}",
                s.unit_requests, s.reset_every, s.drought_every
            ),
            Part::Redux => format!(" --redux-insts {}", s.redux_insts),
            Part::Warp => format!(" --warp-insts {}", s.warp_insts),
            Part::Async => format!(" --async-traces {}", s.async_traces),
            Part::Spaces => format!(" --space-rows {}", s.space_rows),
        }
    }

    /// Whether a failure of the part writes a waveform.
    fn has_vcd(self) -> bool {
        matches!(self, Part::Vectors | Part::Alu | Part::Unit)
    }
}

/// What `regress` was asked for.
pub struct Params {
    pub sizes: Sizes,
    /// The master seed.
    pub seed: u64,
    pub shard: Shard,
    pub data: PathBuf,
    /// Given with `--data` (the rerun command repeats it).
    pub data_given: bool,
    pub json: Option<PathBuf>,
    pub vcd: Option<PathBuf>,
    pub only: Option<Part>,
}

/// A run in progress: the parameters, the shard's seed, the result so far, stdout.
struct Run<'a> {
    p: &'a Params,
    seed: u64,
    flip: Option<u64>,
    mutation: Option<(String, testbench::soak::Mutation)>,
    res: RegressResult,
    out: std::io::StdoutLock<'static>,
}

impl Run<'_> {
    /// The command that reruns `part` of this shard alone, and the waveform path it writes.
    fn rerun(&self, part: Part) -> (String, Option<PathBuf>) {
        let p = self.p;
        let mut c = String::new();
        if let (Part::Alu, Some(i)) = (part, self.flip) {
            c += &format!("{FLIP_ENV}={i} ");
        }
        if let (Part::Unit, Some((m, _))) = (part, &self.mutation) {
            c += &format!("{SOAK_MUTATION_ENV}={m} ");
        }
        c += &format!("redunit regress --shard {} --seed {:#x}{}", p.shard, p.seed, part.size_flag(&p.sizes));
        if p.data_given {
            c += &format!(" --data {}", p.data.display());
        }
        c += &format!(" --only {}", part.name());
        let vcd = part.has_vcd().then(|| {
            let s = p.shard;
            PathBuf::from(super::FAIL_VCD_DIR).join(format!(
                "redunit-fail-shard-{}-of-{}-{}.vcd",
                s.index,
                s.count,
                part.name()
            ))
        });
        if let Some(v) = &vcd {
            c += &format!(" --vcd {}", v.display());
        }
        (c, vcd)
    }

    /// The failure waveform of `part`: `--vcd FILE` when given, else `default`.
    fn vcd_path(&self, default: PathBuf) -> PathBuf {
        self.p.vcd.clone().unwrap_or(default)
    }

    /// Records a block; a failing one gets its first failure and its rerun command, printed.
    fn record(&mut self, part: Part, block: Block, first: Option<String>, vcd: Option<PathBuf>) -> anyhow::Result<()> {
        if block.mismatches > 0 {
            let (rerun, _) = self.rerun(part);
            let first = first.unwrap_or_else(|| "(not described)".into());
            writeln!(self.out, "  {} shard {}: first failure: {first}", part.name(), self.p.shard)?;
            writeln!(self.out, "  rerun this failure alone: {rerun}")?;
            self.res.failures.push(Failure {
                shard: self.p.shard,
                block: part.name().into(),
                mismatches: block.mismatches,
                first,
                rerun,
                vcd: vcd.map(|v| v.display().to_string()),
            });
        }
        self.res.blocks.insert(part.name().into(), block);
        Ok(())
    }
}

fn block(unit: &str, count: u64, mismatches: u64, seconds: f64) -> Block {
    Block { unit: unit.into(), count, mismatches, seconds, ..Default::default() }
}

/// Reads the test hook [`SOAK_MUTATION_ENV`].
fn mutation_from_env() -> anyhow::Result<Option<(String, testbench::soak::Mutation)>> {
    use testbench::soak::Mutation;
    match std::env::var(SOAK_MUTATION_ENV) {
        Ok(v) => match v.trim() {
            "expect-dropped-response" => Ok(Some((v.trim().into(), Mutation::ExpectDroppedResponse))),
            "nothing-lands" => Ok(Some((v.trim().into(), Mutation::NothingLands))),
            _ => anyhow::bail!("{SOAK_MUTATION_ENV}={v}: expect-dropped-response or nothing-lands"),
        },
        Err(_) => Ok(None),
    }
}

/// Reads the test hook [`FLIP_ENV`].
fn flip_from_env() -> anyhow::Result<Option<u64>> {
    match std::env::var(FLIP_ENV) {
        Ok(v) => v.trim().parse().map(Some).map_err(|_| anyhow::anyhow!("{FLIP_ENV}={v}: an operation index")),
        Err(_) => Ok(None),
    }
}

/// Runs `redunit regress`: the blocks of this shard (or the one of `--only`), the summary,
/// the JSON result. Exit status 1 on a mismatch, or, for the whole regression, a coverage hole.
pub fn regress(p: &Params) -> anyhow::Result<ExitCode> {
    let t = Instant::now();
    let seed = p.shard.seed(p.seed);
    let mut run = Run {
        p,
        seed,
        flip: flip_from_env()?,
        mutation: mutation_from_env()?,
        res: RegressResult {
            schema: shard::SCHEMA.into(),
            seed: shard::hex_seed(p.seed),
            shards: vec![ShardSeed { shard: p.shard, seed: shard::hex_seed(seed) }],
            sizes: p.sizes,
            only: p.only.map(|o| o.name().to_string()),
            blocks: Default::default(),
            forms_covered: 0,
            coverage: None,
            mismatches: 0,
            failures: vec![],
            seconds: 0.0,
            longest_shard_seconds: 0.0,
            pass: false,
        },
        out: std::io::stdout().lock(),
    };
    let verilog = PathBuf::from(DEFAULT_VERILOG);
    write_verilog(&verilog, Top::Unit, sim::memory::DEFAULT_MEM_BYTES)?;
    if p.shard == Shard::WHOLE {
        writeln!(run.out, "redunit regress: seed {seed:#x} (rerun with --seed {seed:#x} or REDUNIT_SEED={seed:#x})")?;
    } else {
        writeln!(
            run.out,
            "redunit regress: shard {} of seed {:#x}: this shard's seed {seed:#x} (rerun with --shard {} --seed {:#x} and the same sizes)",
            p.shard, p.seed, p.shard, p.seed
        )?;
    }
    if let Some(i) = run.flip {
        writeln!(
            run.out,
            "test hook {FLIP_ENV}={i}: the golden result of random ALU op {i} is flipped in the checker"
        )?;
    }
    if let Some((m, _)) = &run.mutation {
        writeln!(run.out, "test hook {SOAK_MUTATION_ENV}={m}: the unit stream's checker has that deliberate bug")?;
    }
    writeln!(
        run.out,
        "RTL: hw::ReductionAlu, latency {} cycles, Verilated by {}",
        hw::ALU_LATENCY,
        testbench::rtl::VERILATOR_VERSION
    )?;
    run.out.flush()?;
    // The parts in the order they run (`--only` picks one).
    let parts: [(Part, fn(&mut Run) -> anyhow::Result<()>); 8] = [
        (Part::Vectors, vectors),
        (Part::Alu, alu),
        (Part::Unit, unit),
        (Part::ReduxH100, redux_h100),
        (Part::Redux, redux),
        (Part::Warp, warp),
        (Part::Async, async_traces),
        (Part::Spaces, spaces),
    ];
    for (part, run_part) in parts {
        if p.only.is_none_or(|o| o == part) {
            run_part(&mut run)?;
        }
    }
    run.res.seconds = t.elapsed().as_secs_f64();
    run.res.longest_shard_seconds = run.res.seconds;
    run.res.judge();
    let Run { res, mut out, .. } = run;
    summary(&mut out, &res)?;
    writeln!(out, "verilog:       {}", verilog.display())?;
    if let Some(path) = &p.json {
        write_json(path, &res)?;
        writeln!(out, "json:          {}", path.display())?;
    }
    writeln!(out, "{}", if res.pass { "PASS" } else { "FAIL" })?;
    Ok(if res.pass { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// The H100 vectors of this shard's forms.
fn vectors(run: &mut Run) -> anyhow::Result<()> {
    let t = Instant::now();
    let all = conformance::vector_forms(&run.p.data)?;
    let shard = run.p.shard;
    let pb = bar(all.iter().enumerate().filter(|(i, _)| shard.owns(*i)).count() as u64, "H100 vector forms");
    let mut rtl = RtlAlu::new();
    let vcd = run.p.vcd.clone();
    let v = rtl_vectors(&mut rtl, &run.p.data, &mut run.out, &pb, false, &|i| shard.owns(i), vcd.as_deref())?;
    pb.finish_and_clear();
    writeln!(
        run.out,
        "H100 vectors: {} forms, {} rows, {} mismatches{}",
        v.forms.len(),
        v.rows,
        v.bad,
        if v.bad >= MAX_ERRORS { " (stopped early)" } else { "" }
    )?;
    let mut b = block("H100 rows", v.rows as u64, v.bad as u64, t.elapsed().as_secs_f64());
    b.per_form = v.forms.iter().map(|(f, n)| (f.to_string(), *n as u64)).collect();
    run.record(Part::Vectors, b, v.first, v.vcd)
}

/// Operation `i` of the random ALU stream of `seed`.
fn nth_op(seed: u64, i: u64) -> AluOp {
    let mut ops = Vec::new();
    Stimulus::new(seed).fill(i as usize + 1, &mut ops);
    ops[i as usize]
}

/// This shard's part of the random ALU stream, through the split model.
fn alu(run: &mut Run) -> anyhow::Result<()> {
    let n = run.p.shard.part(run.p.sizes.ops);
    let pb = bar(n, "random ops");
    let vcd_path = run.vcd_path(fail_vcd_path(&format!("{:#x}", run.seed)));
    // The random operations go through the split model (the same Verilog as separate models,
    // each unit lane clocked only when used: about 4.2 times faster; `tests/rtl_split.rs` holds
    // it to the full model cycle by cycle). A failure's waveform comes from the full model.
    let mut split = RtlAlu::split();
    let progress = |d| pb.set_position(d);
    let r = match run.flip.filter(|&i| i < n) {
        None => cosim::random_regression(&mut split, run.seed, n, MAX_ERRORS, Some(&vcd_path), progress)?,
        Some(i) => {
            let target = nth_op(run.seed, i);
            let reference = move |op: &AluOp| golden(op) ^ u128::from(*op == target);
            cosim::random_regression_against(&mut split, run.seed, n, MAX_ERRORS, Some(&vcd_path), reference, progress)?
        }
    };
    pb.finish_and_clear();
    writeln!(
        run.out,
        "random: {} ops over {} forms, {} mismatches{} ({:.2} s, {:.2} M ops/s with the golden-model check; split model)",
        r.ops,
        r.forms.len(),
        r.mismatches,
        if r.stopped { " (stopped early)" } else { "" },
        r.seconds,
        r.ops_per_sec() / 1e6
    )?;
    for f in &r.failures {
        writeln!(run.out, "  {f}")?;
    }
    if let Some(v) = &r.vcd {
        writeln!(run.out, "  waveform: {} ({})", v.path.display(), vcd_time(v.cycle))?;
    }
    let mut b = block("random ops", r.ops, r.mismatches, r.seconds);
    b.per_form = r.per_form.iter().map(|(f, n)| (f.to_string(), *n)).collect();
    let first = r.failures.first().map(|f| f.to_string());
    run.record(Part::Alu, b, first, r.vcd.map(|v| v.path))
}

/// This shard's part of the unit's random request stream (stalls, resets and droughts,
/// read-back sweeps: `testbench::soak`).
fn unit(run: &mut Run) -> anyhow::Result<()> {
    use testbench::soak;
    let n = run.p.shard.part(run.p.sizes.unit_requests);
    let vcd = run.vcd_path(fail_vcd_path(&format!("unit-{:#x}", run.seed)));
    let mut cfg = soak::SoakConfig::new(sim::memory::DEFAULT_MEM_BYTES, n);
    cfg.reset_every = run.p.sizes.reset_every;
    cfg.drought_every = run.p.sizes.drought_every;
    cfg.mutation = run.mutation.as_ref().map(|(_, m)| *m);
    let s = soak::run(run.seed, &cfg, Some(&vcd))?;
    let (u, st, traffic) = (s.report, s.stats, s.traffic);
    writeln!(
        run.out,
        "unit ({}, the default configuration): {} requests ({} random, {} cycles), {} mismatches ({:.2} s, {:.2} M requests/s)",
        cfg.hw.tag(),
        u.requests,
        traffic,
        u.cycles,
        u.mismatches,
        u.seconds,
        u.requests as f64 / u.seconds / 1e6
    )?;
    writeln!(
        run.out,
        "unit faults (a reset per {} requests, a drought per {}): {} resets (queue full {}, FIFO full {}, chain in flight {}), {} dropped ({} reached memory), {} droughts ({} cycles)",
        cfg.reset_every,
        cfg.drought_every,
        st.resets,
        st.queue_full,
        st.fifo_full,
        st.chain,
        st.dropped,
        st.landed,
        st.droughts,
        st.drought_cycles
    )?;
    if st.resets >= 4 && !st.holes().is_empty() {
        writeln!(run.out, "unit fault moments never hit (this run): {}", st.holes().join(", "))?;
    }
    if !u.ok() {
        write!(run.out, "{}", u.describe())?;
    }
    let holes = u.coverage.holes();
    if !holes.is_empty() {
        writeln!(run.out, "unit coverage holes (this run): {}", holes.join(", "))?;
    }
    let cov = shard::Coverage::of(&u.coverage);
    let mut b = block("random requests", traffic, u.mismatches + u.protocol.is_some() as u64, u.seconds);
    b.per_form = cov.accesses.clone();
    b.extra.insert("cycles".into(), u.cycles);
    for (k, v) in st.named() {
        b.extra.insert(k.into(), v);
    }
    run.res.coverage = Some(cov);
    let first = u.protocol.as_ref().map(|p| p.to_string()).or_else(|| u.failures.first().map(|f| f.to_string()));
    run.record(Part::Unit, b, first, u.vcd.map(|(p, _)| p))
}

/// This shard's forms of the H100 `redux.sync` captures through the Verilated redux block.
fn redux_h100(run: &mut Run) -> anyhow::Result<()> {
    use testbench::redux;
    let t = Instant::now();
    let mut e = EngineKind::Rtl.redux();
    let mut b = block("H100 instructions", 0, 0, 0.0);
    let mut first = None;
    for (i, (form, path)) in redux::capture_files(&run.p.data)?.iter().enumerate() {
        if !run.p.shard.owns(i) {
            continue;
        }
        let r = redux::check_captures(*form, &redux::load_captures(path)?, &mut *e)?;
        b.count += r.rows as u64;
        b.mismatches += r.mismatches as u64;
        b.per_form.insert(form.to_string(), r.rows as u64);
        if let (Some((i, row, got)), None) = (r.first, &first) {
            first = Some(format!(
                "{form} row {i}: mask {:08x} src {:08x?} expected (H100) {:08x} got {got:08x}",
                row.mask, row.src, row.result
            ));
        }
    }
    b.seconds = t.elapsed().as_secs_f64();
    writeln!(
        run.out,
        "redux H100 captures: {} forms, {} instructions, {} mismatches",
        b.per_form.len(),
        b.count,
        b.mismatches
    )?;
    run.record(Part::ReduxH100, b, first, None)
}

/// This shard's part of the random redux.sync stream (its forms continue the whole stream's).
fn redux(run: &mut Run) -> anyhow::Result<()> {
    let (s, total) = (run.p.shard, run.p.sizes.redux_insts);
    let (first, n) = (s.start(total), s.part(total));
    let rx = testbench::redux::random_regression_from(run.seed, first as usize, n as usize)?;
    writeln!(
        run.out,
        "redux: {} random instructions over 17 forms, {} mismatches ({:.2} s, {:.2} M instructions/s)",
        rx.insts,
        rx.mismatches,
        rx.seconds,
        rx.insts as f64 / rx.seconds.max(1e-9) / 1e6
    )?;
    for f in &rx.failures {
        writeln!(run.out, "  {f}")?;
    }
    let mut b = block("random instructions", rx.insts as u64, rx.mismatches as u64, rx.seconds);
    // Instruction i of the whole stream has form i mod 17.
    let forms = sim::redux::ReduxForm::all();
    let below = |m: u64, f: u64| (m + forms.len() as u64 - 1 - f) / forms.len() as u64;
    for (f, form) in forms.iter().enumerate() {
        let k = below(first + n, f as u64) - below(first, f as u64);
        if k > 0 {
            b.per_form.insert(form.to_string(), k);
        }
    }
    run.record(Part::Redux, b, rx.failures.first().cloned(), None)
}

/// This shard's part of the random warp instructions.
fn warp(run: &mut Run) -> anyhow::Result<()> {
    let t = Instant::now();
    let n = run.p.shard.part(run.p.sizes.warp_insts);
    let wc = testbench::warp::random_check(run.seed, n as usize)?;
    // A third as many rows of SASS traces with .E and ImmS20 offsets, model against RTL.
    let sc = testbench::warp_trace::random_check(run.seed, n as usize / 3)?;
    for m in wc.mismatches.iter().chain(&sc.mismatches).take(3) {
        writeln!(run.out, "  warp: {m}")?;
    }
    let secs = t.elapsed().as_secs_f64();
    writeln!(
        run.out,
        "warp: {} random instructions, {} unit requests, {} cycles, {} mismatches ({secs:.2} s)",
        wc.insts,
        wc.requests,
        wc.cycles,
        wc.mismatches.len()
    )?;
    writeln!(
        run.out,
        "warp SASS rows: {} ({} with .E, {} of them with lanes past 2^32; {} with an ImmS20 offset), {} unit requests, {} mismatches",
        sc.rows,
        sc.extended,
        sc.wide_lanes,
        sc.offset,
        sc.unit_requests,
        sc.mismatches.len()
    )?;
    let bad = wc.mismatches.len() + sc.mismatches.len();
    let mut b = block("random instructions", wc.insts as u64, bad as u64, secs);
    b.extra.insert("unit_requests".into(), wc.requests as u64);
    b.extra.insert("cycles".into(), wc.cycles);
    b.extra.insert("sass_rows".into(), sc.rows as u64);
    b.extra.insert("sass_extended".into(), sc.extended as u64);
    b.extra.insert("sass_offset".into(), sc.offset as u64);
    let first = wc.mismatches.first().or(sc.mismatches.first()).map(|m| format!("{m}"));
    run.record(Part::Warp, b, first, None)
}

/// This shard's part of the random red.async/mbarrier traces (3,000 rows each), with the
/// cycle-level phase-flip check.
fn async_traces(run: &mut Run) -> anyhow::Result<()> {
    use testbench::async_run;
    let t = Instant::now();
    let traces = run.p.shard.part(run.p.sizes.async_traces);
    let mut rng = run.seed;
    let (mut rows, mut bad, mut flips) = (0u64, 0u64, 0u64);
    // test_waits that saw the phase incomplete, in flight (a red.async on their mbarrier in
    // the unit), complete; plain rows in global and shared memory.
    let (mut w_incomplete, mut w_flight, mut w_complete, mut global, mut shared) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut first = None;
    for k in 0..traces {
        let trace = async_run::random_trace(&mut rng, 3000);
        let mix = async_run::random_trace_mix(&trace);
        (global, shared) = (global + mix.global as u64, shared + mix.shared as u64);
        let r = async_run::rtl(&mut async_run::RtlAsync::new(), &trace)?;
        // The golden model follows the RTL's completion events.
        let model = async_run::model_events(&trace, &r.events, async_run::ASYNC_MEM_BYTES)
            .map_err(|e| anyhow::anyhow!("async trace {k}: the RTL's completion events: {e}"))?;
        let diff: Vec<usize> = (0..model.len().min(r.results.len())).filter(|&i| model[i] != r.results[i]).collect();
        for m in r.mismatches.iter().take(3) {
            writeln!(run.out, "  async: {m}")?;
        }
        if first.is_none() {
            first = r.mismatches.first().map(|m| format!("trace {k}: {m}")).or_else(|| {
                diff.first().map(|&i| {
                    format!("trace {k} row {i} ({:?}): model {:?}, RTL {:?}", trace[i], model[i], r.results[i])
                })
            });
        }
        bad += (diff.len() + r.mismatches.len()) as u64;
        rows += trace.len() as u64;
        flips += r.stats.flips_by_bytes;
        w_flight += r.stats.waits_in_flight;
        w_incomplete += r.results.iter().filter(|x| **x == async_run::RowResult::Wait(false)).count() as u64;
        w_complete += r.results.iter().filter(|x| **x == async_run::RowResult::Wait(true)).count() as u64;
    }
    let secs = t.elapsed().as_secs_f64();
    writeln!(
        run.out,
        "async: {rows} random rows (red.async, mbarrier ops, accesses: {global} global, {shared} shared) in {traces} traces, {flips} phase flips by a last byte; test_wait: {w_incomplete} incomplete, {w_flight} with a red.async in flight, {w_complete} complete; {bad} mismatches ({secs:.2} s)"
    )?;
    let mut b = block("random traces", traces, bad, secs);
    b.extra.insert("rows".into(), rows);
    b.extra.insert("phase_flips".into(), flips);
    for (k, v) in [
        ("waits_incomplete", w_incomplete),
        ("waits_in_flight", w_flight),
        ("waits_complete", w_complete),
        ("global_rows", global),
        ("shared_rows", shared),
    ] {
        b.extra.insert(k.into(), v);
    }
    run.record(Part::Async, b, first, None)
}

/// This shard's part of the random traces that mix state spaces (`testbench::space_trace`).
fn spaces(run: &mut Run) -> anyhow::Result<()> {
    let t = Instant::now();
    let n = run.p.shard.part(run.p.sizes.space_rows);
    let c = testbench::space_trace::random_check(run.seed, n as usize)?;
    let secs = t.elapsed().as_secs_f64();
    for m in c.mismatches.iter().take(3) {
        writeln!(run.out, "  spaces: {m}")?;
    }
    let m = c.mix;
    writeln!(
        run.out,
        "spaces: {} random rows ({} global, {} shared; generic {} global + {} in the shared window; {} .shared::cta, {} .shared::cluster; {} with .sem/.scope, {} with .L2::cache_hint), {} mismatches ({secs:.2} s)",
        c.rows,
        m.global,
        m.shared,
        m.generic_global,
        m.generic_shared,
        m.cta,
        m.cluster,
        m.qualified,
        m.hinted,
        c.mismatches.len()
    )?;
    let mut b = block("random rows", c.rows as u64, c.mismatches.len() as u64, secs);
    for (k, v) in [
        ("global_rows", m.global),
        ("shared_rows", m.shared),
        ("generic_rows", m.generic_global + m.generic_shared),
        ("qualified_rows", m.qualified),
    ] {
        b.extra.insert(k.into(), v as u64);
    }
    run.record(Part::Spaces, b, c.mismatches.first().cloned(), None)
}

/// The H100 vectors through the ALU as one model.
pub struct VectorRun {
    /// The forms run, with their rows.
    pub forms: Vec<(Form, usize)>,
    pub rows: usize,
    pub bad: usize,
    /// The first mismatch, described.
    pub first: Option<String>,
    pub vcd: Option<PathBuf>,
}

/// The H100 vectors of the forms `select` picks (by position in `conformance::vector_forms`)
/// through the RTL, stopping after MAX_ERRORS mismatching rows. Writes the waveform of the
/// first mismatching instruction (to `vcd`, else `target/redunit-fail-<form>.vcd`).
pub fn rtl_vectors(
    rtl: &mut RtlAlu,
    data: &Path,
    out: &mut dyn Write,
    pb: &ProgressBar,
    verbose: bool,
    select: &dyn Fn(usize) -> bool,
    vcd_to: Option<&Path>,
) -> anyhow::Result<VectorRun> {
    use testbench::hex::format as hex;
    let forms = conformance::vector_forms(data)?;
    let mut v = VectorRun { forms: vec![], rows: 0, bad: 0, first: None, vcd: None };
    for (_, (form, path)) in forms.iter().enumerate().filter(|(i, _)| select(*i)) {
        let vectors = conformance::load_vectors(path, *form)?;
        let r = conformance::check_vectors(*form, &vectors, rtl)?;
        pb.inc(1);
        v.forms.push((*form, r.rows));
        v.rows += r.rows;
        v.bad += r.mismatches;
        pb.suspend(|| -> anyhow::Result<()> {
            if verbose {
                writeln!(out, "{:<28} {:>8} {:>10}", form.to_string(), r.rows, r.mismatches)?;
            }
            if let (Some(m), None) = (r.first.first(), &v.vcd) {
                let n = form.vec();
                let ops = conformance::vector_ops(*form, &vectors);
                let idx = m.row / n;
                let cycle = rtl.last_batch_start() + idx as u64;
                let w = form.elem_bits();
                let p = vcd_to.map_or_else(|| fail_vcd_path(&form.to_string()), Path::to_path_buf);
                let fv = cosim::failure_vcd(&p, &ops, idx, cycle)?;
                let bits = form.bytes() as u32 * 8;
                let values = format!(
                    "init {} b {} expected (H100) {} got {}",
                    hex(m.vector.init as u128, w),
                    hex(m.vector.b as u128, w),
                    hex(m.vector.result as u128, w),
                    hex(m.got as u128, w)
                );
                writeln!(
                    out,
                    "first mismatch: {form} row {} (element {} of instruction {idx}, driven in cycle {cycle})",
                    m.row,
                    m.row % n
                )?;
                writeln!(out, "  {values}")?;
                if n > 1 {
                    let op = ops[idx];
                    writeln!(out, "  instruction old {} b {}", hex(op.old, bits), hex(op.b, bits))?;
                }
                writeln!(out, "  waveform: {} ({})", fv.path.display(), vcd_time(fv.cycle))?;
                v.first = Some(format!("{form} row {}: {values}", m.row));
                v.vcd = Some(fv.path);
            }
            Ok(())
        })?;
        if v.bad >= MAX_ERRORS {
            pb.suspend(|| writeln!(out, "stopped after {} mismatching rows (the limit is {MAX_ERRORS})", v.bad))?;
            break;
        }
    }
    Ok(v)
}
