//! The pipeline-depth flags of `redunit verilog`, `synth` and `bench` (`hw::Config`), and
//! the configuration they give for a block.

use testbench::top::{Depth, Top};

/// The generator parameters (`hw::Config`): pipeline depths of the datapath blocks.
#[derive(clap::Args, Debug, Clone)]
pub struct DepthArgs {
    /// A preset: `default` (the top's default configuration: for the unit `fastest-clock`, for
    /// a block alone its shallowest depths), `fastest-clock` (every block at its deepest) or
    /// `most-ops-per-cycle` (every block at its shallowest). The depth flags override it.
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
    /// The L2-slice unit's pipeline (`--top unit`, `axi`, `ordering-queue`, `response-fifo`):
    /// 1 names the unit's one pipeline and changes nothing; 0 is refused.
    #[arg(long)]
    unit_regs: Option<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Preset {
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
        }
    }

    /// The configuration (`default`: the preset `default` stands for, the top's own), or an
    /// error naming the flag and its range.
    pub fn config(&self, default: hw::Config) -> Result<hw::Config, String> {
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
        match self.unit_regs {
            None | Some(1) => {}
            Some(0) => {
                return Err("--unit-regs 0: the unit has one pipeline, registered at every depth, so 0 is \
                     not a configuration; drop --unit-regs, or use --preset most-ops-per-cycle for the fewest \
                     cycles per dependent operation"
                    .to_string());
            }
            Some(n) => return Err(format!("--unit-regs {n}: takes 1 only (the unit's one, registered pipeline)")),
        }
        c.validate().map_err(|e| {
            // validate() names the first field out of range.
            let flag =
                Depth::ALL.into_iter().find(|d| !d.range().contains(&d.get(&c))).map_or("--fp-stages", |d| d.flag());
            format!("{flag}: {e}")
        })?;
        Ok(c)
    }
}

/// The configuration of `depths` for `block` (`--preset default`: the block's own,
/// [`Top::default_config`]), with the depths the block does not take at their defaults, or
/// the message for people (exit status 2): a depth flag the block does not take is refused
/// rather than ignored, and so is any non-default depth (a preset included) on a block
/// without depths.
pub fn depth_config(depths: &DepthArgs, block: Top) -> Result<hw::Config, String> {
    let top = block.name();
    let cfg = depths.config(block.default_config())?;
    if depths.unit_regs.is_some() && !block.is_unit_part() {
        return Err(format!(
            "--unit-regs: --top {top} does not take it (the L2-slice unit's pipeline: --top unit). Drop --unit-regs."
        ));
    }
    let d = hw::Config::default();
    if !block.takes_config() {
        if !cfg.is_default() {
            return Err(format!(
                "--top {top} takes the default pipeline depths only ({}): the f32/f64 adders, the \
                 f16/bf16 add lane, the integer ALU, the reduction ALU and the L2-slice unit take depths. \
                 Use --top unit, alu, fp-add-f32, fp-add-f64, fp-add16 or int-alu, or drop the depth flags.",
                d.tag()
            ));
        }
        return Ok(cfg);
    }
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
