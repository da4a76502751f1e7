//! The blocks of the design that the CLI names with `--top`: `redunit verilog` writes any of
//! them, `redunit synth` synthesises all but the redux, async and warp tops. Also the pipeline
//! depths each block takes (`hw::Config`'s fields, with their flags).

use clap::ValueEnum;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

/// A block of the design, as `--top` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Top {
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
    /// An AXI4 subordinate with AXI5 atomics in front of the L2-slice unit (`hw::AxiUnit`,
    /// 4-bit IDs; docs/axi.md).
    Axi,
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

/// A pipeline-depth field of `hw::Config`, with its command-line flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    /// `fp_stages`: the f32/f64 adders.
    Fp,
    /// `fp16_stages`: the f16/bf16 add lane.
    Fp16,
    /// `int_stages`: the integer ALU.
    Int,
}

impl Depth {
    /// Every depth field, in the order `hw::Config::validate` checks them.
    pub const ALL: [Depth; 3] = [Depth::Fp, Depth::Fp16, Depth::Int];

    /// The flag of `redunit verilog` and `redunit synth`.
    pub fn flag(self) -> &'static str {
        match self {
            Depth::Fp => "--fp-stages",
            Depth::Fp16 => "--fp16-stages",
            Depth::Int => "--int-stages",
        }
    }

    /// Whose depth it is and which tops take it (for messages).
    pub fn whose(self) -> &'static str {
        match self {
            Depth::Fp => "the f32/f64 adders' depth: --top fp-add-f32, fp-add-f64 or alu",
            Depth::Fp16 => "the f16/bf16 add lane's depth: --top fp-add16 or alu",
            Depth::Int => "the integer ALU's depth: --top int-alu or alu",
        }
    }

    /// The field's range.
    pub fn range(self) -> std::ops::RangeInclusive<usize> {
        use hw::config::*;
        match self {
            Depth::Fp => FP_STAGES_MIN..=FP_STAGES_MAX,
            Depth::Fp16 => FP16_STAGES_MIN..=FP16_STAGES_MAX,
            Depth::Int => INT_STAGES_MIN..=INT_STAGES_MAX,
        }
    }

    pub fn get(self, c: &hw::Config) -> usize {
        match self {
            Depth::Fp => c.fp_stages,
            Depth::Fp16 => c.fp16_stages,
            Depth::Int => c.int_stages,
        }
    }

    pub fn set(self, c: &mut hw::Config, n: usize) {
        match self {
            Depth::Fp => c.fp_stages = n,
            Depth::Fp16 => c.fp16_stages = n,
            Depth::Int => c.int_stages = n,
        }
    }
}

impl Top {
    /// The `--top` value.
    pub fn name(self) -> &'static str {
        match self {
            Top::Unit => "unit",
            Top::Alu => "alu",
            Top::Redux => "redux",
            Top::Async => "async",
            Top::Warp => "warp",
            Top::Axi => "axi",
            Top::IntAlu => "int-alu",
            Top::FpAdd16 => "fp-add16",
            Top::FpAddF32 => "fp-add-f32",
            Top::FpAddF64 => "fp-add-f64",
            Top::FpMinmax16 => "fp-minmax16",
            Top::OrderingQueue => "ordering-queue",
            Top::LineMemory => "line-memory",
            Top::ResponseFifo => "response-fifo",
        }
    }

    /// The block in words (`redunit verilog`'s message).
    pub fn describe(self, mem_bytes: usize) -> String {
        match self {
            Top::Unit => format!("the L2-slice unit with {mem_bytes} bytes of memory"),
            Top::Alu => "the reduction ALU".into(),
            Top::Redux => "the redux.sync block".into(),
            Top::Async => format!("the async unit (L2-slice unit + mbarriers) with {mem_bytes} bytes of memory"),
            Top::Warp => format!("the warp coalescer and the L2-slice unit with {mem_bytes} bytes of memory"),
            Top::Axi => format!("the AXI front end and the L2-slice unit with {mem_bytes} bytes of memory"),
            t => format!("the block {}", t.name()),
        }
    }

    /// Whether `redunit synth` takes the block: all but the redux block and the async and
    /// warp tops (built for Verilator, not for the ECP5 flow).
    pub fn synthesisable(self) -> bool {
        !matches!(self, Top::Redux | Top::Async | Top::Warp)
    }

    /// The value help of `redunit synth --top` where it says more than `redunit verilog`'s.
    fn synth_help(self) -> Option<&'static str> {
        match self {
            Top::Unit => Some("The L2-slice unit (`hw::SliceUnit`, default configuration)"),
            Top::Alu => Some("The reduction ALU (`hw::ReductionAlu`)"),
            Top::LineMemory => Some("The backing RAM (`hw::line_memory::LineMemory`, the unit's size)"),
            _ => None,
        }
    }

    /// The parser of `redunit synth --top`: the synthesisable blocks only, so that clap refuses
    /// the others as values it does not know (listing the ones it takes).
    pub fn synth_parser() -> impl TypedValueParser<Value = Top> {
        let values = Top::value_variants().iter().filter(|t| t.synthesisable()).filter_map(|t| {
            let v: PossibleValue = t.to_possible_value()?;
            Some(match t.synth_help() {
                Some(h) => v.help(h),
                None => v,
            })
        });
        PossibleValuesParser::new(values).map(|s| Top::from_str(&s, false).expect("a value of Top"))
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
            Top::FpAddF32 | Top::FpAddF64 => &[Depth::Fp],
            Top::FpAdd16 => &[Depth::Fp16],
            Top::IntAlu => &[Depth::Int],
            Top::Alu => &[Depth::Fp, Depth::Fp16, Depth::Int],
            // The unit, and its queue and response FIFO as the unit builds them (their hazard
            // windows, push and depth follow the unit's pipeline).
            _ if self.is_unit_part() => &[Depth::Fp, Depth::Fp16, Depth::Int],
            _ => &[],
        }
    }

    /// Whether the block is the unit or a part of it as the unit builds it (`--unit-regs 1`,
    /// the unit's one pipeline, is accepted there).
    pub fn is_unit_part(self) -> bool {
        matches!(self, Top::Unit | Top::Axi | Top::OrderingQueue | Top::ResponseFifo)
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

    /// The block's default configuration (what `--preset default` stands for): for the unit
    /// `hw::Config::unit_default` (the fastest clock), for every other block each depth at its
    /// shallowest (`hw::Config::default`).
    pub fn default_config(self) -> hw::Config {
        if matches!(self, Top::Unit | Top::Axi) { hw::Config::unit_default() } else { hw::Config::default() }
    }

    /// The block's Verilog (module `top`) in its default configuration.
    pub fn verilog(self, mem_bytes: usize) -> String {
        self.verilog_with(mem_bytes, &self.default_config())
    }

    /// The block's Verilog (module `top`) at the depths of `cfg` (blocks without a depth
    /// ignore it; check [`Top::takes_config`] first).
    pub fn verilog_with(self, mem_bytes: usize, cfg: &hw::Config) -> String {
        use hw::verilog::verilog;
        match self {
            Top::Unit => hw::unit_verilog_with(mem_bytes, cfg),
            Top::Alu => hw::alu_verilog_with(cfg),
            Top::Redux => hw::redux_verilog(),
            Top::Async => hw::async_verilog(mem_bytes),
            Top::Warp => hw::warp_verilog(mem_bytes),
            Top::Axi => hw::axi_verilog_with(mem_bytes, cfg),
            Top::IntAlu => verilog(&mut hw::int_alu::IntAlu::new(cfg)),
            Top::FpAdd16 => verilog(&mut hw::fp_add16::FpAdd16::new(cfg)),
            Top::FpAddF32 => verilog(&mut hw::fp_add::FpAddF32::new(cfg)),
            Top::FpAddF64 => verilog(&mut hw::fp_add::FpAddF64::new(cfg)),
            Top::FpMinmax16 => verilog(&mut hw::fp_minmax16::FpMinMax16::default()),
            Top::OrderingQueue => {
                let sh = hw::slice_unit::shape(cfg);
                verilog(&mut hw::ordering_queue::OrderingQueue::with_registered_push(sh.win_fp.max(1), true))
            }
            Top::LineMemory => verilog(&mut hw::line_memory::LineMemory::new(mem_bytes / 16)),
            Top::ResponseFifo => {
                verilog(&mut hw::response_fifo::ResponseFifo::new(hw::slice_unit::shape(cfg).rsp_depth))
            }
        }
    }
}
