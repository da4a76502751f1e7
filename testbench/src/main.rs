//! `redunit`: the command-line front of the golden model, the testbench and the RTL (the
//! Verilated blocks of `hw`). Every command's contract is in `docs/cli.md`.

use std::io::{BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use sim::{Form, Memory};
use testbench::conformance::{self, EXHAUSTIVE16_FORMS};
use testbench::synth::Depth;
use testbench::cosim;
use testbench::engine::{AluEngine, AluOp, EngineKind, golden, result_mask};
use testbench::rtl::RtlAlu;
use testbench::unit::RtlUnit;
use testbench::stimulus::{self, Stimulus};
use testbench::{InputError, eval, trace};

mod regress;

#[derive(Parser)]
#[command(name = "redunit", version, about = "An RTL model of the near-memory atomic unit of a GPU L2 slice, \
with a golden model bit-exact to NVIDIA H100 silicon")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Evaluate `form,init,b` CSV rows from stdin; writes `form,init,b,result` to stdout.
    /// `redux.sync` rows: header `form,mask,src0,...,src31`, writes the same columns plus
    /// `result` (see docs/cli.md).
    Eval {
        #[arg(long, value_enum, default_value = "model")]
        engine: EngineKind,
        /// Write a waveform (VCD) of the whole run (needs --engine rtl; slow: about 1 M ops/s).
        #[arg(long, value_name = "FILE")]
        vcd: Option<PathBuf>,
    },
    /// Execute a request trace (`op,addr,value`) against the memory; writes
    /// `index,op,addr,result` for each ld, atom and failed request.
    Run {
        /// `model`: the golden memory; `rtl`: the Verilated L2-slice unit (hw::SliceUnit).
        #[arg(long, value_enum, default_value = "model")]
        engine: EngineKind,
        /// Memory size in bytes (also the unit's: sizes other than 65536 are verilated at run
        /// time, once, into target/redunit-unit/).
        #[arg(long, default_value_t = sim::memory::DEFAULT_MEM_BYTES)]
        mem_bytes: usize,
        /// Print coverage to stderr: the unit's coverage points (--engine rtl), the accesses
        /// issued and the statuses returned.
        #[arg(long)]
        coverage: bool,
        /// Write a waveform (VCD) of the whole run (needs --engine rtl).
        #[arg(long, value_name = "FILE")]
        vcd: Option<PathBuf>,
        /// The trace (CSV); `-` reads stdin.
        trace: PathBuf,
    },
    /// Throughput (operations per cycle) and latency (cycles) of the Verilated L2-slice unit on
    /// fixed patterns, and the cosimulation speed (release build; numbers for BENCHMARKS.md).
    Bench {
        /// Requests per pattern.
        #[arg(long, default_value_t = 100_000)]
        requests: usize,
        /// Isolated requests per family for the latency.
        #[arg(long, default_value_t = 2_000)]
        latency_requests: usize,
        /// Memory size of the unit.
        #[arg(long, default_value_t = sim::memory::DEFAULT_MEM_BYTES)]
        mem_bytes: usize,
        /// Warp instructions per warp pattern and form (coalesced, one address, one line per
        /// lane through hw::WarpUnit); 0 leaves the warp patterns out.
        #[arg(long, default_value_t = 1_000)]
        warp_insts: usize,
        /// Print one JSON object instead of the table.
        #[arg(long)]
        json: bool,
        /// The unit's pipeline (default: fastest-clock; the warp patterns run on hw::WarpUnit,
        /// the shallow unit behind the coalescer).
        #[command(flatten)]
        depths: DepthArgs,
    },
    /// Check every captured H100 vector (and, with --exhaustive16, the exhaustive 16-bit
    /// digests) against an engine; also every captured redux.sync instruction (`h100/redux/`).
    Conformance {
        #[arg(long, value_enum, default_value = "model")]
        engine: EngineKind,
        /// Also recompute all 65,536 row digests of the six exhaustively captured 16-bit forms.
        #[arg(long)]
        exhaustive16: bool,
        /// Worker threads for --exhaustive16 (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// The captured data (default: the copy in the source tree).
        #[arg(long)]
        data: Option<PathBuf>,
    },
    /// Write the Verilog of the L2-slice unit, or of another block with --top (module `top`).
    Verilog {
        /// Output file.
        #[arg(short, long, default_value = DEFAULT_VERILOG)]
        output: PathBuf,
        /// The block to write (its module is `redunit_<top>`, e.g. `redunit_unit`).
        #[arg(long, value_enum, default_value = "unit")]
        top: Top,
        /// The top module's name instead of `redunit_<top>` (submodules are `NAME$<path>`).
        #[arg(long)]
        module: Option<String>,
        /// Memory size of the unit in bytes (with --top unit).
        #[arg(long, default_value_t = sim::memory::DEFAULT_MEM_BYTES)]
        mem_bytes: usize,
        #[command(flatten)]
        depths: DepthArgs,
    },
    /// Regression of the RTL against the golden model: writes the Verilog of the unit, runs
    /// every H100 vector and a seeded random stream (biased to special values) through the
    /// Verilated ALU, a random request stream through the Verilated L2-slice unit, and the H100
    /// redux.sync captures and a random stream through the Verilated redux block, random warp
    /// instructions through the Verilated warp unit, and random red.async/mbarrier traces
    /// through the Verilated async unit (with the cycle-level phase-flip check).
    Regress {
        /// Random operations through the ALU.
        #[arg(long, default_value_t = 1_000_000)]
        ops: u64,
        /// Random requests through the L2-slice unit (stalls, resets, droughts, hot lines, errors).
        #[arg(long, default_value_t = 400_000)]
        unit_requests: usize,
        /// Resets in the unit stream: one per N requests on average, aimed in turn at a random
        /// cycle, a full ordering queue, a full response FIFO and a dependent chain in flight
        /// (0: one reset, at the end of the stream).
        #[arg(long, value_name = "N", default_value_t = testbench::soak::DEFAULT_RESET_EVERY)]
        reset_every: u64,
        /// rsp_ready droughts (200..4000 cycles low) in the unit stream: one per N requests on
        /// average (0: none).
        #[arg(long, value_name = "N", default_value_t = testbench::soak::DEFAULT_DROUGHT_EVERY)]
        drought_every: u64,
        /// Random warp instructions through the redux.sync block (after its H100 captures).
        #[arg(long, default_value_t = 1_000_000)]
        redux_insts: usize,
        /// Random warp instructions through the warp coalescer + unit (`hw::WarpUnit`).
        #[arg(long, default_value_t = 3000)]
        warp_insts: usize,
        /// Random red.async/mbarrier traces (3,000 rows each) through the async unit (`hw::AsyncUnit`).
        #[arg(long, default_value_t = 20)]
        async_traces: usize,
        /// Seed of the random stream, decimal or 0x hex (default: REDUNIT_SEED, else the clock).
        #[arg(long, value_parser = stimulus::parse_seed)]
        seed: Option<u64>,
        /// The captured data (default: the copy in the source tree).
        #[arg(long)]
        data: Option<PathBuf>,
        /// Run part K of N disjoint parts of the regression (sizes are the whole regression's;
        /// the shard draws its own seed from --seed and K).
        #[arg(long, value_name = "K/N", value_parser = testbench::shard::Shard::parse)]
        shard: Option<testbench::shard::Shard>,
        /// Write the result (seeds, counts per block and form, coverage, failures with their
        /// rerun commands, time) as JSON.
        #[arg(long, value_name = "FILE")]
        json: Option<PathBuf>,
        /// Write the waveform of the first failure here (instead of target/redunit-fail-*.vcd).
        #[arg(long, value_name = "FILE")]
        vcd: Option<PathBuf>,
        /// Run one part of the regression only (the rerun of a failure).
        #[arg(long, value_enum)]
        only: Option<regress::Part>,
    },
    /// Sum the JSON results of `regress --shard K/N --json` (all N shards), report the totals
    /// and the coverage over all shards; exit status 1 on a mismatch, 2 on a bad file.
    Merge {
        /// Write the sum as JSON (the schema of `regress --json`).
        #[arg(long, value_name = "FILE")]
        json: Option<PathBuf>,
        /// The shards' result files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Latency, throughput and cosimulation speed of the Verilated redux.sync block (release
    /// build; numbers for BENCHMARKS.md).
    BenchRedux {
        /// Random warp instructions (all 17 forms interleaved).
        #[arg(long, default_value_t = 2_000_000)]
        insts: usize,
        /// Seed of the random instructions.
        #[arg(long, value_parser = stimulus::parse_seed, default_value = "0x5eed")]
        seed: u64,
    },
    /// Latency of mbarrier completion and throughput of red.async through the Verilated async
    /// unit (hw::AsyncUnit), checked against the model (numbers for BENCHMARKS.md).
    BenchAsync {
        /// Barrier phases (expect_tx, red.async, test_wait), over the 8 mbarriers in turn.
        #[arg(long, default_value_t = 10_000)]
        phases: usize,
        /// red.async per phase.
        #[arg(long, default_value_t = 8)]
        per_phase: usize,
        /// red.async in the stream without waits.
        #[arg(long, default_value_t = 100_000)]
        stream: usize,
    },
    /// Synthesise for an ECP5 FPGA (Yosys synth_ecp5 + nextpnr-ecp5 --85k, from
    /// scripts/setup-synth.sh): LUT4, flip-flops, carry cells, block RAMs, DSPs, fmax after
    /// routing and the critical path, with a per-block breakdown; the report is saved in
    /// synth/reports/.
    Synth {
        /// The block to synthesise as module `top`.
        #[arg(long, value_enum, default_value = "unit")]
        top: testbench::synth::SynthTop,
        /// Memory size of the unit in bytes (with --top unit or line-memory).
        #[arg(long, default_value_t = sim::memory::DEFAULT_MEM_BYTES)]
        mem_bytes: usize,
        #[command(flatten)]
        depths: DepthArgs,
        /// Clock target of placement and routing, MHz.
        #[arg(long, default_value_t = testbench::synth::TARGET_MHZ)]
        freq: f64,
        /// nextpnr's placement seed (the first one, with --seeds).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Place and route the netlist with N seeds (--seed, --seed + 1, ...) and report the
        /// median fmax, the range, and each seed's fmax and critical path (fmax varies by
        /// seed, about ±8% on the unit).
        #[arg(long, default_value_t = 1, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1000))]
        seeds: u64,
        /// nextpnr runs at a time with --seeds (default: the machine's cores).
        #[arg(long, value_name = "J", value_parser = clap::value_parser!(u64).range(1..=256))]
        jobs: Option<u64>,
        /// nextpnr's placer.
        #[arg(long, value_enum, default_value = "static")]
        placer: testbench::synth::Placer,
        /// Route without nextpnr's timing-driven rip-up (`--tmg-ripup`, on by default: after
        /// the first routing, arcs below the slack threshold are ripped up and routed again,
        /// up to 50 rounds, until the target is met; on the unit a placement that routes at
        /// 140 MHz without it meets 150).
        #[arg(long)]
        no_tmg_ripup: bool,
        /// Area only: skip placement and routing.
        #[arg(long)]
        no_pnr: bool,
        /// Skip the per-block breakdown (a second Yosys run beside nextpnr).
        #[arg(long)]
        no_breakdown: bool,
        /// Do not write the report to synth/reports/.
        #[arg(long)]
        no_save: bool,
        /// Print one JSON object instead of the text report.
        #[arg(long)]
        json: bool,
    },
    /// List the 82 legal `red` forms with their binary code (the one encoding of hw, sim and
    /// testbench), size, ALU latency, and the ALU unit and lanes that execute them.
    Forms {
        /// CSV with the header `code,form,bytes,latency,unit,lanes` (lanes: a bit mask).
        #[arg(long)]
        csv: bool,
    },
    /// Measure the cosimulation speed (Verilated ALU + golden-model check) and rust-hdl's own
    /// simulator on the same block (release build; numbers for BENCHMARKS.md).
    BenchAlu {
        /// Operations through the Verilated ALU.
        #[arg(long, default_value_t = 4_000_000)]
        ops: u64,
        /// Operations through rust-hdl's simulator.
        #[arg(long, default_value_t = 20_000)]
        hdl_ops: u64,
    },
}

/// The generator parameters (`hw::Config`): pipeline depths of the datapath blocks.
#[derive(clap::Args, Debug, Clone)]
struct DepthArgs {
    /// A preset: `default` (the top's default configuration: for the unit `fastest-clock`, for
    /// a block alone its shallowest depths), `fastest-clock` (every block at its deepest, the
    /// registered unit pipeline) or `most-ops-per-cycle` (every block at its shallowest). The
    /// depth flags override it.
    #[arg(long, default_value = "default")]
    preset: Preset,
    /// Stages (cycles) of the f32 and f64 adders, 3 (a block's default) to 14
    /// (`hw::config::FP_STAGES_MAX`, the unit's default).
    #[arg(long)]
    fp_stages: Option<usize>,
    /// Stages (cycles) of the f16/bf16 add lane (`--top fp-add16`), 3 (a block's default) to 9
    /// (the unit's default).
    #[arg(long)]
    fp16_stages: Option<usize>,
    /// Stages (cycles) of the integer ALU, 1 (a block's default) or 2 (32-bit halves in two
    /// cycles, the unit's default).
    #[arg(long)]
    int_stages: Option<usize>,
    /// The L2-slice unit's registered pipeline (`--top unit`): 1 (the unit's default) forwards
    /// only from registers and reads the RAM through an output register (fastest-clock), 0
    /// (most-ops-per-cycle) forwards the ALU results in the cycle they appear.
    #[arg(long)]
    unit_regs: Option<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Preset {
    Default,
    FastestClock,
    MostOpsPerCycle,
}

impl DepthArgs {
    /// The value given for a depth flag, if any.
    fn given(&self, d: Depth) -> Option<usize> {
        match d {
            Depth::Fp => self.fp_stages,
            Depth::Fp16 => self.fp16_stages,
            Depth::Int => self.int_stages,
            Depth::Regs => self.unit_regs,
        }
    }

    /// The configuration (`default`: the preset `default` stands for, the top's own), or an
    /// error naming the flag and its range.
    fn config(&self, default: hw::Config) -> Result<hw::Config, String> {
        let mut c = match self.preset {
            Preset::Default => default,
            Preset::FastestClock => hw::Config::fastest_clock(),
            Preset::MostOpsPerCycle => hw::Config::most_ops_per_cycle(),
        };
        if let Some(n) = self.fp_stages {
            c.fp_stages = n;
        }
        if let Some(n) = self.fp16_stages {
            c.fp16_stages = n;
        }
        if let Some(n) = self.int_stages {
            c.int_stages = n;
        }
        if let Some(n) = self.unit_regs {
            if n > 1 {
                return Err(format!("--unit-regs {n}: takes 0 (results forwarded as they appear) or 1 (registered pipeline)"));
            }
            c.unit_regs = n == 1;
        }
        c.validate().map_err(|e| {
            // validate() names the first field out of range.
            let flag = Depth::ALL.into_iter().find(|d| !d.range().contains(&d.get(&c))).map_or("--fp-stages", |d| d.flag());
            format!("{flag}: {e}")
        })?;
        Ok(c)
    }
}

/// The configuration `--preset default` stands for: the block's own
/// (`SynthTop::default_config`: the fastest clock for the unit), else every block at its
/// shallowest depth.
fn top_default(block: Option<testbench::synth::SynthTop>) -> hw::Config {
    block.map_or_else(hw::Config::default, |b| b.default_config())
}

/// The configuration of `depths` for `block` (None: a top without depths), with the depths the
/// block does not take at their defaults, or the message for people (exit status 2): a depth
/// flag the block does not take is refused rather than ignored, and so is any non-default
/// depth (a preset included) on a block without depths.
fn depth_config(depths: &DepthArgs, block: Option<testbench::synth::SynthTop>, top: &str) -> Result<hw::Config, String> {
    let cfg = depths.config(top_default(block))?;
    let d = hw::Config::default();
    let Some(block) = block.filter(|b| b.takes_config()) else {
        if !cfg.is_default() {
            return Err(format!(
                "--top {top} takes the default pipeline depths only ({}): the f32/f64 adders, the \
                 f16/bf16 add lane, the integer ALU, the reduction ALU and the L2-slice unit take depths. \
                 Use --top unit, alu, fp-add-f32, fp-add-f64, fp-add16 or int-alu, or drop the depth flags.",
                d.tag()
            ));
        }
        return Ok(cfg);
    };
    for dep in Depth::ALL {
        let given = depths.given(dep).is_some_and(|n| n != dep.get(&d));
        if given && !block.takes(dep) {
            let own: Vec<&str> = block.depths().iter().map(|x| x.flag()).collect();
            return Err(format!(
                "{}: --top {top} does not take it ({}); this block's depth flags: {}. Drop {}.",
                dep.flag(),
                dep.whose(),
                own.join(", "),
                dep.flag()
            ));
        }
    }
    Ok(block.config_for(&cfg))
}

const DEFAULT_VERILOG: &str = "synth/out/redunit.v";
const FAIL_VCD_DIR: &str = "target";

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            if let Some(ie) = e.downcast_ref::<InputError>() {
                eprintln!("redunit: {ie}");
                return ExitCode::from(2);
            }
            eprintln!("redunit: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.cmd {
        Cmd::Eval { engine, vcd } => {
            // The header line picks the format: `form,init,b` (red) or `form,mask,src0,...` (redux).
            let mut stdin = std::io::stdin().lock();
            // Lines up to the header (the first that is not blank), read whole and handed on;
            // each line is looked at once.
            let mut head = Vec::new();
            loop {
                let start = head.len();
                let n = std::io::BufRead::read_until(&mut stdin, b'\n', &mut head).context("reading the header from stdin")?;
                if n == 0 || testbench::input_error::first_row(&head[start..]).is_some() {
                    break;
                }
            }
            let header = testbench::input_error::first_row(&head).unwrap_or_default();
            let format = eval::Format::of_header(&String::from_utf8_lossy(header));
            let input = std::io::Read::chain(std::io::Cursor::new(head), stdin);
            if format == eval::Format::Redux {
                if vcd.is_some() {
                    anyhow::bail!("--vcd is not available for redux.sync rows (the redux block is built without tracing)");
                }
                let mut engine = engine.redux();
                let stdout = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
                eval::eval_redux(input, stdout, &mut *engine)?;
                return Ok(ExitCode::SUCCESS);
            }
            let mut alu: Box<dyn AluEngine> = match (engine, &vcd) {
                (EngineKind::Rtl, Some(path)) => Box::new(RtlAlu::with_vcd(path, 0)?),
                (EngineKind::Model, Some(_)) => {
                    anyhow::bail!("--vcd needs --engine rtl: the golden model has no waveform")
                }
                (e, None) => e.alu(),
            };
            let stdout = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
            let r = eval::eval(input, stdout, &mut *alu);
            drop(alu); // closes the waveform
            if let Some(path) = &vcd {
                eprintln!("redunit: waveform written to {}", path.display());
            }
            r?;
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Run { engine, mem_bytes, coverage, vcd, trace } => run_cmd(engine, mem_bytes, coverage, vcd, trace),
        Cmd::Bench { requests, latency_requests, mem_bytes, warp_insts, json, depths } => {
            check_mem_bytes(mem_bytes)?;
            if requests == 0 {
                anyhow::bail!("--requests must be at least 1");
            }
            let cfg = depth_config(&depths, Some(testbench::synth::SynthTop::Unit), "unit").map_err(anyhow::Error::msg)?;
            if cfg != hw::Config::unit_default() {
                eprintln!("bench: the unit at depths {} (verilated at run time, once)", cfg.tag());
            }
            let r = testbench::bench::bench_with(requests, mem_bytes, latency_requests.max(1), &cfg)?;
            let warp = if warp_insts > 0 { testbench::warp::bench(warp_insts)? } else { vec![] };
            let mut out = std::io::stdout().lock();
            if json {
                let j = r.json();
                if warp.is_empty() {
                    writeln!(out, "{j}")?;
                } else {
                    let body = j.trim_end().trim_end_matches('}').trim_end();
                    writeln!(out, "{body},\n  \"warp\": {}\n}}", testbench::warp::bench_json(&warp))?;
                }
            } else {
                write!(out, "{}", r.text())?;
                if !warp.is_empty() {
                    write!(out, "{}", testbench::warp::bench_text(&warp))?;
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Conformance { engine, exhaustive16, threads, data } => {
            conformance_cmd(engine, exhaustive16, threads, data.unwrap_or_else(conformance::default_data_dir))
        }
        Cmd::Verilog { output, top, module, mem_bytes, depths } => {
            check_mem_bytes(mem_bytes)?;
            let cfg = depth_config(&depths, top.block(), top.name())
                .map_err(anyhow::Error::msg)?;
            let module = module.unwrap_or_else(|| testbench::verilog_out::default_module_name(top.name()));
            if !testbench::verilog_out::is_identifier(&module) {
                anyhow::bail!("--module {module:?}: a module name is a Verilog identifier (a letter or _, then letters, digits or _)");
            }
            let w = write_verilog_with(&output, top, mem_bytes, &cfg, &module)?;
            let depth = if cfg.is_default() && top != Top::Unit { String::new() } else { format!(", depths {}", cfg.tag()) };
            println!(
                "wrote the Verilog of {}{depth} (module {module}, {} lines) to {}, with Verilator waivers {} and the FuseSoC core {}",
                top.describe(mem_bytes),
                w.lines,
                output.display(),
                w.vlt.display(),
                w.core.display()
            );
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Regress { ops, unit_requests, reset_every, drought_every, redux_insts, warp_insts, async_traces, seed, data, shard, json, vcd, only } => {
            let seed = match seed {
                Some(s) => s,
                None => stimulus::seed_from_env()?,
            };
            let sizes = testbench::shard::Sizes {
                ops,
                unit_requests: unit_requests as u64,
                redux_insts: redux_insts as u64,
                warp_insts: warp_insts as u64,
                async_traces: async_traces as u64,
                reset_every,
                drought_every,
            };
            regress::regress(&regress::Params {
                sizes,
                seed,
                shard: shard.unwrap_or(testbench::shard::Shard::WHOLE),
                data_given: data.is_some(),
                data: data.unwrap_or_else(conformance::default_data_dir),
                json,
                vcd,
                only,
            })
        }
        Cmd::Merge { json, files } => regress::merge(&files, json.as_deref()),
        Cmd::BenchAlu { ops, hdl_ops } => bench_alu(ops, hdl_ops),
        Cmd::Forms { csv } => forms_cmd(csv),
        Cmd::BenchRedux { insts, seed } => {
            if insts == 0 {
                anyhow::bail!("--insts must be at least 1");
            }
            print!("{}", testbench::redux::bench(insts, seed)?);
            Ok(ExitCode::SUCCESS)
        }
        Cmd::BenchAsync { phases, per_phase, stream } => {
            if per_phase == 0 || per_phase > 1000 || stream > 1_000_000 {
                anyhow::bail!("--per-phase must be in 1..=1000 and --stream at most 1000000 (the tx-count limit 2^20-1 bytes per mbarrier)");
            }
            print!("{}", testbench::async_run::bench(phases, per_phase, stream)?);
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Synth { top, mem_bytes, depths, freq, seed, seeds, jobs, placer, no_tmg_ripup, no_pnr, no_breakdown, no_save, json } => {
            check_mem_bytes(mem_bytes)?;
            let cfg = depth_config(&depths, Some(top), top.name()).map_err(anyhow::Error::msg)?;
            let jobs = jobs.map_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()), |j| j as usize);
            synth_cmd(top, mem_bytes, &cfg, freq, (seed, seeds, jobs), (placer, !no_tmg_ripup), no_pnr, no_breakdown, no_save, json)
        }
    }
}

/// The project root: `REDUNIT_ROOT`, else the folder of the workspace this binary was built
/// from, else the current directory.
fn project_root() -> PathBuf {
    if let Some(r) = std::env::var_os("REDUNIT_ROOT") {
        return PathBuf::from(r);
    }
    let built = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    if built.join("synth").is_dir() { built.canonicalize().unwrap_or(built) } else { PathBuf::from(".") }
}

#[allow(clippy::too_many_arguments)]
fn synth_cmd(
    top: testbench::synth::SynthTop,
    mem_bytes: usize,
    cfg: &hw::Config,
    freq: f64,
    (seed, seeds, jobs): (u64, u64, usize),
    (placer, tmg_ripup): (testbench::synth::Placer, bool),
    no_pnr: bool,
    no_breakdown: bool,
    no_save: bool,
    json: bool,
) -> anyhow::Result<ExitCode> {
    use testbench::synth;
    let flow = synth::Flow::new(project_root());
    if let Err(e) = flow.check_installed() {
        eprintln!("redunit: {e}");
        return Ok(ExitCode::from(2));
    }
    if !(freq > 0.0) {
        anyhow::bail!("--freq {freq}: must be positive");
    }
    if seed.checked_add(seeds - 1).is_none() {
        anyhow::bail!("--seed {seed} --seeds {seeds}: the last seed would pass {}; choose a smaller --seed", u64::MAX);
    }
    if flow.cache_cold() {
        eprintln!(
            "redunit synth: first run: Yosys and nextpnr compile their WebAssembly once (about a minute each), \
             cached in {}",
            flow.cache().display()
        );
    }
    let command = std::env::args().map(|a| if a.contains(' ') { format!("'{a}'") } else { a }).collect::<Vec<_>>().join(" ");
    let command = command.replacen(&std::env::args().next().unwrap_or_default(), "redunit", 1);
    let opts = synth::SynthOptions {
        top,
        mem_bytes,
        config: if cfg.is_default() && top != testbench::synth::SynthTop::Unit { "default".into() } else { cfg.tag() },
        verilog: top.verilog_with(mem_bytes, cfg),
        breakdown: !no_breakdown,
        no_pnr,
        freq_mhz: freq,
        seed,
        seeds,
        jobs,
        placer,
        tmg_ripup,
    };
    let pb = if std::io::stderr().is_terminal() {
        let pb = ProgressBar::new_spinner();
        pb.set_style(ProgressStyle::with_template("{spinner} [{elapsed_precise}] synth {msg}").unwrap());
        pb.enable_steady_tick(std::time::Duration::from_millis(120));
        pb
    } else {
        ProgressBar::hidden()
    };
    let last = std::cell::RefCell::new(String::new());
    let t0 = Instant::now();
    let progress = |m: &str| {
        pb.set_message(m.to_string());
        if pb.is_hidden() {
            // Not a terminal: one line per stage.
            let stage: String = m.split(" (").next().unwrap_or(m).to_string();
            let mut l = last.borrow_mut();
            if *l != stage {
                eprintln!("redunit synth: [{:>4.0} s] {stage}", t0.elapsed().as_secs_f64());
                *l = stage;
            }
        }
    };
    let r = synth::run(&flow, &opts, &progress);
    pb.finish_and_clear();
    let r = r?;
    let mut out = std::io::stdout().lock();
    if json {
        writeln!(out, "{}", r.json())?;
    } else {
        write!(out, "{}", r.text())?;
    }
    if !no_save {
        let p = synth::save(&flow, &r, &command)?;
        eprintln!("redunit synth: report saved to {}", p.display());
    }
    Ok(ExitCode::SUCCESS)
}

fn check_mem_bytes(mem_bytes: usize) -> anyhow::Result<()> {
    if mem_bytes == 0 || !mem_bytes.is_multiple_of(16) || mem_bytes as u64 > 1 << 32 {
        anyhow::bail!("--mem-bytes {mem_bytes}: the memory size must be a positive multiple of 16 bytes, at most 4 GiB");
    }
    Ok(())
}

fn run_cmd(engine: EngineKind, mem_bytes: usize, coverage: bool, vcd: Option<PathBuf>, trace: PathBuf) -> anyhow::Result<ExitCode> {
    check_mem_bytes(mem_bytes)?;
    if vcd.is_some() && engine != EngineKind::Rtl {
        anyhow::bail!("--vcd needs --engine rtl: the golden model has no waveform");
    }
    let mut input = Vec::new();
    if trace.as_os_str() == "-" {
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut input).context("reading the trace from stdin")?;
    } else {
        input = std::fs::read(&trace).with_context(|| format!("cannot open the trace {}", trace.display()))?;
    }
    // The header picks the format; it is found as the parsers find it (after blank lines).
    let first = testbench::input_error::first_row(&input).unwrap_or_default();
    // The header `op,addr,value,mbar` selects red.async/mbarrier traces (testbench::async_run).
    if first.trim_ascii_end() == testbench::async_run::HEADER.as_bytes() {
        if coverage || vcd.is_some() {
            anyhow::bail!("--coverage and --vcd are not available for traces with the mbar column (red.async)");
        }
        let stdout = BufWriter::new(std::io::stdout().lock());
        let code = testbench::async_run::run_cmd(&input, engine == EngineKind::Rtl, mem_bytes, stdout)
            .map_err(|e| in_file(e, &trace))?;
        return Ok(ExitCode::from(code));
    }
    // The header `op,mask,addr0,...` selects warp traces (testbench::warp).
    if testbench::warp::is_warp_header(&String::from_utf8_lossy(first)) {
        if coverage || vcd.is_some() {
            anyhow::bail!("--coverage and --vcd are not available for warp traces (the warp unit is built without them)");
        }
        let stdout = BufWriter::new(std::io::stdout().lock());
        testbench::warp::run_trace(&input[..], stdout, engine == EngineKind::Rtl, mem_bytes)
            .map_err(|e| in_file(e, &trace))?;
        return Ok(ExitCode::SUCCESS);
    }
    // A bad row stops the trace there: the requests before it run and their rows are written.
    let parsed = trace::parse_prefix(&input[..]).map_err(|e| in_file(e, &trace))?;
    let reqs = &parsed.rows;
    let (outcomes, cov) = match engine {
        EngineKind::Model => (trace::MemEngine::execute(&mut Memory::new(mem_bytes), reqs)?, None),
        EngineKind::Rtl => {
            let mut unit = match &vcd {
                Some(path) => RtlUnit::with_vcd(mem_bytes, path, 0)?,
                None => RtlUnit::new(mem_bytes)?,
            };
            let (outcomes, _) = testbench::unit::execute_trace(&mut unit, reqs)?;
            unit.idle(2);
            let cycles = unit.cycle();
            let cov = unit.cov_counts();
            drop(unit); // closes the waveform and writes the viewer set-ups beside it
            if let Some(path) = &vcd {
                eprintln!(
                    "redunit: waveform written to {} ({cycles} cycles); open it with `gtkwave {}` or `surfer {} --command-file {}`",
                    path.display(),
                    path.with_extension("gtkw").display(),
                    path.display(),
                    path.with_extension("sucl").display()
                );
            }
            (outcomes, Some((cov, cycles)))
        }
    };
    let stdout = BufWriter::new(std::io::stdout().lock());
    trace::write_results(reqs, &outcomes, stdout)?;
    if coverage {
        let mut c = testbench::unit_cosim::Coverage::default();
        for (q, o) in reqs.iter().zip(&outcomes) {
            c.add_request(q.access);
            c.add_status(sim::status_code(o.map(|_| ())));
        }
        let mut err = std::io::stderr().lock();
        match cov {
            Some((bits, cycles)) => {
                c.cov = bits;
                writeln!(err, "coverage of {} requests over {cycles} cycles (engine rtl, {mem_bytes} bytes):", reqs.len())?;
            }
            None => writeln!(err, "coverage of {} requests (engine model: no coverage points):", reqs.len())?,
        }
        c.report(&mut err)?;
    }
    parsed.then(ExitCode::SUCCESS).map_err(|e| in_file(e, &trace))
}

/// An input error named with the trace file it is in.
fn in_file(e: anyhow::Error, trace: &std::path::Path) -> anyhow::Error {
    match e.downcast::<InputError>() {
        Ok(ie) => anyhow::Error::new(ie.in_file(trace.display().to_string())),
        Err(e) => e,
    }
}

/// The blocks `redunit verilog` can write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Top {
    /// The L2-slice unit (`hw::SliceUnit`): queue, memory, ALUs.
    Unit,
    /// The reduction ALU alone (`hw::ReductionAlu`).
    Alu,
    /// The redux.sync warp reduction block (`hw::ReduxSync`).
    Redux,
    /// The L2-slice unit with red.async completion on mbarriers (`hw::AsyncUnit`).
    Async,
    /// The warp coalescer in front of the L2-slice unit (`hw::WarpUnit`).
    Warp,
    /// The 64-bit integer ALU (`hw::int_alu::IntAlu`).
    IntAlu,
    /// One f16/bf16 adder lane (`hw::fp_add16::FpAdd16`).
    FpAdd16,
    /// One f32 adder (`hw::fp_add::FpAddF32`).
    FpAddF32,
    /// The f64 adder (`hw::fp_add::FpAddF64`).
    FpAddF64,
    /// One f16/bf16 min/max lane (`hw::fp_minmax16::FpMinMax16`).
    FpMinmax16,
    /// The ordering queue (`hw::ordering_queue::OrderingQueue`).
    OrderingQueue,
    /// The backing RAM (`hw::line_memory::LineMemory`).
    LineMemory,
    /// The response FIFO (`hw::response_fifo::ResponseFifo`).
    ResponseFifo,
}

impl Top {
    /// The same block in `redunit synth` (all but the redux block).
    fn block(self) -> Option<testbench::synth::SynthTop> {
        use testbench::synth::SynthTop as S;
        Some(match self {
            Top::Unit => S::Unit,
            Top::Alu => S::Alu,
            Top::Redux | Top::Async | Top::Warp => return None,
            Top::IntAlu => S::IntAlu,
            Top::FpAdd16 => S::FpAdd16,
            Top::FpAddF32 => S::FpAddF32,
            Top::FpAddF64 => S::FpAddF64,
            Top::FpMinmax16 => S::FpMinmax16,
            Top::OrderingQueue => S::OrderingQueue,
            Top::LineMemory => S::LineMemory,
            Top::ResponseFifo => S::ResponseFifo,
        })
    }

    fn name(self) -> &'static str {
        match self {
            Top::Redux => "redux",
            Top::Async => "async",
            Top::Warp => "warp",
            t => t.block().expect("a block").name(),
        }
    }

    fn describe(self, mem_bytes: usize) -> String {
        match self {
            Top::Unit => format!("the L2-slice unit with {mem_bytes} bytes of memory"),
            Top::Alu => "the reduction ALU".into(),
            Top::Redux => "the redux.sync block".into(),
            Top::Async => format!("the async unit (L2-slice unit + mbarriers) with {mem_bytes} bytes of memory"),
            Top::Warp => format!("the warp coalescer and the L2-slice unit with {mem_bytes} bytes of memory"),
            t => format!("the block {}", t.name()),
        }
    }
}

/// Writes the Verilog of `top` (module `redunit_<top>`) to `path` with its waivers and core
/// beside it, creating its folder; returns the line count.
fn write_verilog(path: &std::path::Path, top: Top, mem_bytes: usize) -> anyhow::Result<usize> {
    let name = testbench::verilog_out::default_module_name(top.name());
    Ok(write_verilog_with(path, top, mem_bytes, &top_default(top.block()), &name)?.lines)
}

/// [`write_verilog`] at the depths of `cfg` (checked by [`depth_config`] for the unit).
fn write_verilog_with(
    path: &std::path::Path,
    top: Top,
    mem_bytes: usize,
    cfg: &hw::Config,
    module: &str,
) -> anyhow::Result<testbench::verilog_out::Written> {
    let v = match top {
        Top::Unit => hw::unit_verilog_with(mem_bytes, cfg),
        Top::Redux => hw::redux_verilog(),
        Top::Async => hw::async_verilog(mem_bytes),
        Top::Warp => hw::warp_verilog(mem_bytes),
        t => t.block().expect("a block").verilog_with(mem_bytes, cfg),
    };
    testbench::verilog_out::write(path, &v, module, &top.describe(mem_bytes))
}

/// The failure waveform of a form's conformance vectors, or of a random run's seed.
fn fail_vcd_path(tag: &str) -> PathBuf {
    PathBuf::from(FAIL_VCD_DIR).join(format!("redunit-fail-{tag}.vcd"))
}

/// Drives `hw::ReductionAlu` through rust-hdl's `simulate` for `n` ops, one per cycle, with
/// the same golden-model check; returns (ops/s, mismatches).
fn rust_hdl_speed(n: u64) -> (f64, u64) {
    use rust_hdl::prelude::*;
    fn to_bits(v: u128) -> Bits<128> {
        let mut b = Bits::<128>::default();
        b.set_bits::<64>(0, (v as u64).into());
        b.set_bits::<64>(64, ((v >> 64) as u64).into());
        b
    }
    let mut uut = hw::ReductionAlu::default();
    uut.connect_all();
    let mut stim = Stimulus::new(1);
    let mut ops: Vec<AluOp> = Vec::new();
    stim.fill(n as usize, &mut ops);
    let lat = hw::ALU_LATENCY;
    let mut bad = 0u64;
    let t = Instant::now();
    for c in 0..n as usize + lat {
        uut.clock.next = Clock { clk: false };
        if let Some(op) = ops.get(c) {
            uut.in_valid.next = true;
            uut.in_form.next = (op.form.code() as u64).into();
            uut.in_old.next = to_bits(op.old);
            uut.in_b.next = to_bits(op.b);
        } else {
            uut.in_valid.next = false;
        }
        assert!(simulate(&mut uut, 100), "rust-hdl simulation did not settle");
        if c >= lat && uut.out_valid.val() {
            let op = &ops[c - lat];
            let m = result_mask(op.form);
            if uut.out_data.val().to_u128() & m != golden(op) & m {
                bad += 1;
            }
        }
        uut.clock.next = Clock { clk: true };
        assert!(simulate(&mut uut, 100), "rust-hdl simulation did not settle");
    }
    (n as f64 / t.elapsed().as_secs_f64(), bad)
}

/// `redunit forms`: the encoding table.
fn forms_cmd(csv: bool) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    if csv {
        writeln!(out, "code,form,bytes,latency,unit,lanes")?;
    } else {
        writeln!(out, "{:>5} {:>6}  {:<30} {:>5} {:>7}  {:<9} {}", "code", "hex", "form", "bytes", "latency", "ALU unit", "lanes")?;
    }
    for f in sim::Form::all() {
        let (unit, lanes) = hw::unit_lanes(f);
        if csv {
            writeln!(out, "{},{f},{},{},{},{lanes}", f.code(), f.bytes(), hw::latency(f), unit.name())?;
        } else {
            let list: Vec<String> = (0..8).filter(|i| lanes >> i & 1 == 1).map(|i| i.to_string()).collect();
            writeln!(
                out,
                "{:>5} {:>#6x}  {:<30} {:>5} {:>7}  {:<9} {}",
                f.code(),
                f.code(),
                f.to_string(),
                f.bytes(),
                hw::latency(f),
                unit.name(),
                list.join(",")
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn bench_alu(n: u64, hdl_n: u64) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "bench-alu: hw::ReductionAlu, latency {}, {}", hw::ALU_LATENCY, testbench::rtl::VERILATOR_VERSION)?;
    // 1. Cosimulation as `regress` runs it: stimulus, RTL, golden-model check.
    let mut rtl = RtlAlu::new();
    let mut res = Vec::with_capacity(cosim::BATCH);
    let r = cosim::random_regression(&mut rtl, 1, n, usize::MAX, None, |_| {})?;
    let cosim = r.ops_per_sec();
    writeln!(out, "regress stream (stimulus on a 2nd thread, RTL + check):    {:>12.0} ops/s  ({} ops, {:.2} s, {} mismatches)", cosim, r.ops, r.seconds, r.mismatches)?;
    // 2. The parts: stimulus generation, the RTL alone, the RTL with the check, on
    //    pre-generated ops.
    let mut ops = Vec::new();
    let t = Instant::now();
    Stimulus::new(2).fill(n as usize, &mut ops);
    writeln!(out, "stimulus generation alone:                               {:>12.0} ops/s", n as f64 / t.elapsed().as_secs_f64())?;
    let (cosim1, bad, rtl_only) = rtl_speed(&mut rtl, &ops, &mut res)?;
    std::hint::black_box(bad);
    writeln!(out, "verilator RTL + golden check, one core (pre-generated):  {:>12.0} ops/s", cosim1)?;
    writeln!(out, "verilator RTL alone (batches of {}):                    {:>12.0} ops/s", cosim::BATCH, rtl_only)?;
    // 2b. The same with the split model (the ALU's own logic and the units' lanes as separate
    //     models, a lane clocked only when an operation uses it).
    let mut split = RtlAlu::split();
    let r = cosim::random_regression(&mut split, 1, n, usize::MAX, None, |_| {})?;
    writeln!(out, "split model: regress stream (RTL + check):                {:>12.0} ops/s  ({} mismatches)", r.ops_per_sec(), r.mismatches)?;
    let (split1, bad, split_only) = rtl_speed(&mut split, &ops, &mut res)?;
    writeln!(out, "split model: RTL + golden check, one core (pre-generated): {:>12.0} ops/s  ({bad} mismatches)", split1)?;
    writeln!(out, "split model: RTL alone:                                   {:>12.0} ops/s", split_only)?;
    let stream = rtl_speed_stream_order(&mut split, &ops, &mut res)?;
    writeln!(out, "split model: RTL + check in stream order (not grouped):   {:>12.0} ops/s", stream)?;
    // 3. The golden model alone.
    let t = Instant::now();
    let mut acc = 0u128;
    for op in &ops {
        acc ^= golden(op);
    }
    std::hint::black_box(acc);
    writeln!(out, "golden model alone:                                      {:>12.0} ops/s", n as f64 / t.elapsed().as_secs_f64())?;
    // 3b. The golden check as `regress` runs it: the RTL's results compared form by form.
    let mut expected = Vec::with_capacity(ops.len());
    expected.extend(ops.iter().map(golden));
    let (mut check, mut seen) = (cosim::GroupedCheck::default(), vec![false; 1 << sim::form::encoding::CODE_WIDTH]);
    let t = Instant::now();
    let bad: usize = ops.chunks(cosim::BATCH).zip(expected.chunks(cosim::BATCH)).map(|(o, e)| check.mismatches(o, e, &golden, &mut seen).len()).sum();
    writeln!(out, "golden check alone, grouped by form (cosim::GroupedCheck): {:>10.0} ops/s  ({bad} mismatches)", n as f64 / t.elapsed().as_secs_f64())?;
    // 4. rust-hdl's own simulator.
    let (hdl, hdl_bad) = rust_hdl_speed(hdl_n);
    writeln!(out, "rust-hdl simulate() loop + golden check, one core:        {:>12.0} ops/s  ({hdl_n} ops, {hdl_bad} mismatches)", hdl)?;
    writeln!(out, "ratio, one core, RTL + golden check: verilator / rust-hdl = {:.1}x", cosim1 / hdl)?;
    writeln!(out, "ratio, regress stream / rust-hdl = {:.1}x", cosim / hdl)?;
    writeln!(out, "ratio, one core, RTL + golden check: split model / rust-hdl = {:.1}x, split / full model = {:.2}x", split1 / hdl, split1 / cosim1)?;
    Ok(ExitCode::SUCCESS)
}

/// `ops` through `rtl` in batches with the golden check, then without: (ops/s with the check,
/// mismatches, ops/s without).
fn rtl_speed(rtl: &mut RtlAlu, ops: &[AluOp], res: &mut Vec<u128>) -> anyhow::Result<(f64, u64, f64)> {
    // (The check as `regress` does it: grouped by form, cosim::GroupedCheck.)
    let mut check = cosim::GroupedCheck::default();
    let mut seen = vec![false; 1 << sim::form::encoding::CODE_WIDTH];
    let (checked, bad) = checked_speed(rtl, ops, res, |chunk, res| check.mismatches(chunk, res, &golden, &mut seen).len() as u64)?;
    let t = Instant::now();
    for chunk in ops.chunks(cosim::BATCH) {
        res.clear();
        rtl.run(chunk, res)?;
    }
    Ok((checked, bad, ops.len() as f64 / t.elapsed().as_secs_f64()))
}

/// [`rtl_speed`]'s check in stream order instead of grouped by form: ops/s.
fn rtl_speed_stream_order(rtl: &mut RtlAlu, ops: &[AluOp], res: &mut Vec<u128>) -> anyhow::Result<f64> {
    let check = |chunk: &[AluOp], res: &[u128]| -> u64 {
        chunk
            .iter()
            .zip(res)
            .map(|(op, r)| {
                let m = result_mask(op.form);
                (r & m != golden(op) & m) as u64
            })
            .sum()
    };
    Ok(checked_speed(rtl, ops, res, check)?.0)
}

/// `ops` through `rtl` in batches of [`cosim::BATCH`], each checked by `check` (which returns
/// its mismatches): (ops/s, mismatches).
fn checked_speed(
    rtl: &mut RtlAlu,
    ops: &[AluOp],
    res: &mut Vec<u128>,
    mut check: impl FnMut(&[AluOp], &[u128]) -> u64,
) -> anyhow::Result<(f64, u64)> {
    let t = Instant::now();
    let mut bad = 0u64;
    for chunk in ops.chunks(cosim::BATCH) {
        res.clear();
        rtl.run(chunk, res)?;
        bad += check(chunk, res);
    }
    Ok((ops.len() as f64 / t.elapsed().as_secs_f64(), bad))
}

fn bar(len: u64, what: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(len);
    pb.set_style(
        ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} {per_sec} eta {eta}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    pb.set_message(what.to_string());
    pb
}

fn conformance_cmd(engine: EngineKind, exhaustive16: bool, threads: Option<usize>, data: PathBuf) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    let t = Instant::now();
    let forms = conformance::vector_forms(&data)?;
    if engine == EngineKind::Rtl {
        return conformance_rtl(exhaustive16, threads, data, t);
    }
    let pb = bar(forms.len() as u64, "vectors");
    let mut alu = engine.alu();
    let (mut rows, mut bad, mut bad_forms) = (0usize, 0usize, 0usize);
    writeln!(out, "{:<28} {:>8} {:>10}", "form", "rows", "mismatches")?;
    for (form, path) in &forms {
        let vectors = conformance::load_vectors(path, *form)?;
        let r = conformance::check_vectors(*form, &vectors, &mut *alu)?;
        pb.inc(1);
        pb.suspend(|| -> std::io::Result<()> {
            writeln!(out, "{:<28} {:>8} {:>10}", form.to_string(), r.rows, r.mismatches)?;
            for m in &r.first {
                let w = form.elem_bits();
                writeln!(
                    out,
                    "  row {}: init {} b {} expected {} got {}",
                    m.row,
                    testbench::hex::format(m.vector.init as u128, w),
                    testbench::hex::format(m.vector.b as u128, w),
                    testbench::hex::format(m.vector.result as u128, w),
                    testbench::hex::format(m.got as u128, w)
                )?;
            }
            Ok(())
        })?;
        rows += r.rows;
        bad += r.mismatches;
        bad_forms += (r.mismatches > 0) as usize;
    }
    pb.finish_and_clear();
    writeln!(
        out,
        "vectors: {} forms, {rows} rows, {bad} mismatches in {bad_forms} forms ({:.1} s, engine {engine:?})",
        forms.len(),
        t.elapsed().as_secs_f64()
    )?;
    let mut ok = bad == 0;
    if exhaustive16 {
        let forms: Vec<Form> = EXHAUSTIVE16_FORMS.iter().map(|s| s.parse().expect("catalogue form")).collect();
        let rows: Vec<u16> = (0..=u16::MAX).collect();
        let threads = threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        let total = (forms.len() * rows.len()) as u64;
        writeln!(out, "exhaustive16: {} forms x 65,536 rows x 65,536 operands on {threads} threads", forms.len())?;
        out.flush()?;
        let pb = bar(total, "exhaustive16 rows");
        let t = Instant::now();
        let reports = conformance::exhaustive16(&data, &forms, &rows, threads, |d| pb.set_position(d))?;
        let secs = t.elapsed().as_secs_f64();
        pb.finish_and_clear();
        ok &= print_exhaustive(&mut out, &reports)?;
        let evals = total as f64 * 65536.0;
        writeln!(out, "exhaustive16: {evals:.3e} evaluations in {secs:.1} s ({:.0} M/s)", evals / secs / 1e6)?;
    }
    ok &= testbench::redux::conformance_report(&mut out, engine, &data)?;
    writeln!(out, "{}", if ok { "PASS" } else { "FAIL" })?;
    Ok(if ok { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// Prints one line per form of an exhaustive run (and its first mismatching rows); true when
/// every row of every form matched.
fn print_exhaustive(out: &mut impl Write, reports: &[conformance::ExhaustiveReport]) -> std::io::Result<bool> {
    let mut ok = true;
    for r in reports {
        writeln!(out, "{:<28} {:>6}/{} rows match  ({:.1} s)", r.form.to_string(), r.matched, r.rows, r.seconds)?;
        if !r.mismatched_rows.is_empty() {
            let list: Vec<String> = r.mismatched_rows.iter().map(|a| format!("{a:04x}")).collect();
            writeln!(out, "  first mismatching rows (a): {}", list.join(" "))?;
        }
        ok &= r.matched == r.rows;
    }
    Ok(ok)
}

fn conformance_rtl(exhaustive16: bool, threads: Option<usize>, data: PathBuf, t: Instant) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "engine rtl: hw::ReductionAlu, latency {} cycles, Verilated by {}",
        hw::ALU_LATENCY,
        testbench::rtl::VERILATOR_VERSION
    )?;
    writeln!(out, "{:<28} {:>8} {:>10}", "form", "rows", "mismatches")?;
    let n_forms = conformance::vector_forms(&data)?.len();
    let pb = bar(n_forms as u64, "vectors");
    let mut rtl = RtlAlu::new();
    let v = regress::rtl_vectors(&mut rtl, &data, &mut out, &pb, true, &|_| true, None)?;
    let (forms, rows, bad) = (v.forms, v.rows, v.bad);
    pb.finish_and_clear();
    writeln!(
        out,
        "vectors: {} of {n_forms} forms, {rows} rows, {bad} mismatches ({:.1} s, engine Rtl)",
        forms.len(),
        t.elapsed().as_secs_f64()
    )?;
    let mut ok = bad == 0;
    if exhaustive16 {
        let forms: Vec<Form> = EXHAUSTIVE16_FORMS.iter().map(|s| s.parse().expect("catalogue form")).collect();
        let rows: Vec<u16> = (0..=u16::MAX).collect();
        let threads = threads.unwrap_or(2);
        let total = (forms.len() * rows.len()) as u64;
        writeln!(
            out,
            "exhaustive16 (RTL): {} forms x 65,536 rows x 65,536 operands as v8 instructions, {threads} threads each owning a model",
            forms.len()
        )?;
        out.flush()?;
        let pb = bar(total, "exhaustive16 rows");
        let t = Instant::now();
        let reports = conformance::exhaustive16_rtl(&data, &forms, &rows, threads, |d| pb.set_position(d))?;
        let secs = t.elapsed().as_secs_f64();
        pb.finish_and_clear();
        ok &= print_exhaustive(&mut out, &reports)?;
        let evals = total as f64 * 65536.0;
        writeln!(
            out,
            "exhaustive16 (RTL): {evals:.3e} evaluations ({:.3e} cycles) in {secs:.1} s ({:.0} M evaluations/s)",
            evals / 8.0,
            evals / secs / 1e6
        )?;
    }
    ok &= testbench::redux::conformance_report(&mut out, EngineKind::Rtl, &data)?;
    writeln!(out, "{}", if ok { "PASS" } else { "FAIL" })?;
    Ok(if ok { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
