//! `redunit`: the command-line front of the golden model, the testbench and the RTL (the
//! Verilated blocks of `hw`). Every command's contract is in `docs/cli.md`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use testbench::InputError;
use testbench::conformance;
use testbench::engine::EngineKind;
use testbench::stimulus;
use testbench::top::Top;

mod cli;

use cli::depth::DepthArgs;
use cli::{DEFAULT_VERILOG, merge, regress};

#[derive(Parser)]
#[command(
    name = "redunit",
    version,
    about = "An RTL model of the near-memory atomic unit of a GPU L2 slice, \
with a golden model bit-exact to NVIDIA H100 silicon"
)]
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
        /// After the trace, write the memory's non-zero 16-byte lines to FILE as CSV
        /// `space,addr,data` (request and warp traces; docs/cli.md).
        #[arg(long, value_name = "FILE")]
        dump_mem: Option<PathBuf>,
        /// red.async traces, model engine: each red.async completes after a random 0..=N
        /// later rows (--lag-rows), drawn from this seed, instead of right after its own row.
        #[arg(long, value_name = "S", value_parser = testbench::stimulus::parse_seed)]
        lag_seed: Option<u64>,
        /// The most rows a completion lags behind its red.async (with --lag-seed).
        #[arg(long, value_name = "N", default_value_t = 8, requires = "lag_seed")]
        lag_rows: usize,
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
        /// `unit`: the unit's request port; `axi`: each unit pattern on the bare unit and
        /// through the AXI front end (hw::AxiUnit, atomics with the form in AWUSER), side by
        /// side (ops per cycle only).
        #[arg(long, value_enum, default_value = "unit")]
        top: Top,
        /// The unit's pipeline depths (default: fastest-clock; the warp patterns run on
        /// hw::WarpUnit, the unit's default configuration behind the coalescer).
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
        /// Rows of random request traces that mix global, shared and generic addresses with
        /// .sem/.scope and cache hints, through two L2-slice units (one per space).
        #[arg(long, default_value_t = 100_000)]
        space_rows: usize,
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
        #[arg(long, default_value = "unit", value_parser = Top::synth_parser())]
        top: Top,
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
        /// Every PTX `red` spelling that eval and run rows accept (the seed grammar with each
        /// .sem, .scope, state space and .L2::cache_hint), as CSV `spelling,space,form`.
        #[arg(long)]
        all: bool,
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
        Cmd::Eval { engine, vcd } => cli::eval::eval_cmd(engine, vcd),
        Cmd::Run { engine, mem_bytes, coverage, vcd, dump_mem, lag_seed, lag_rows, trace } => {
            cli::run::run_cmd(engine, mem_bytes, coverage, vcd, dump_mem, lag_seed.map(|s| (s, lag_rows)), trace)
        }
        Cmd::Bench { requests, latency_requests, mem_bytes, warp_insts, json, top, depths } => {
            if top == Top::Axi {
                cli::bench::bench_axi(requests, mem_bytes, json, &depths)
            } else if top != Top::Unit {
                Err(anyhow::anyhow!("bench --top {}: the benchmark takes --top unit or axi", top.name()))
            } else {
                cli::bench::bench_cmd(requests, latency_requests, mem_bytes, warp_insts, json, &depths)
            }
        }
        Cmd::Conformance { engine, exhaustive16, threads, data } => cli::conformance::conformance_cmd(
            engine,
            exhaustive16,
            threads,
            data.unwrap_or_else(conformance::default_data_dir),
        ),
        Cmd::Verilog { output, top, module, mem_bytes, depths } => {
            cli::verilog::verilog_cmd(output, top, module, mem_bytes, &depths)
        }
        Cmd::Regress {
            ops,
            unit_requests,
            reset_every,
            drought_every,
            redux_insts,
            warp_insts,
            async_traces,
            space_rows,
            seed,
            data,
            shard,
            json,
            vcd,
            only,
        } => {
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
                space_rows: space_rows as u64,
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
        Cmd::Merge { json, files } => merge::merge(&files, json.as_deref()),
        Cmd::BenchAlu { ops, hdl_ops } => cli::bench_alu::bench_alu(ops, hdl_ops),
        Cmd::Forms { csv, all } => cli::forms::forms_cmd(csv, all),
        Cmd::BenchRedux { insts, seed } => cli::bench::bench_redux(insts, seed),
        Cmd::BenchAsync { phases, per_phase, stream } => cli::bench::bench_async(phases, per_phase, stream),
        Cmd::Synth {
            top,
            mem_bytes,
            depths,
            freq,
            seed,
            seeds,
            jobs,
            placer,
            no_tmg_ripup,
            no_pnr,
            no_breakdown,
            no_save,
            json,
        } => {
            let pnr = (placer, !no_tmg_ripup);
            cli::synth::synth_cmd(
                top,
                mem_bytes,
                &depths,
                freq,
                (seed, seeds, jobs),
                pnr,
                no_pnr,
                no_breakdown,
                no_save,
                json,
            )
        }
    }
}
