//! Generator parameters: the pipeline depths of the datapath blocks.
//!
//! Clock rate and operations per cycle pull against each other: a deeper adder clocks faster
//! but makes dependent adds to one address wait longer. [`Config`] chooses the depths; every
//! block that has a depth takes a `&Config` in its `new` and its latency follows it
//! (`Config::fp_add_latency`, …). [`Config::default`] is every block at its shallowest depth
//! (the latency constants `FP_ADD_LATENCY` = 3, `INT_ALU_LATENCY` = 1, `ALU_LATENCY` = 3): the
//! blocks' own default, and the unit's most operations per cycle
//! ([`Config::most_ops_per_cycle`]); [`Config::fastest_clock`] is the deepest one, cut for
//! 150 MHz on the ECP5 85k part, and the L2-slice unit's default configuration
//! ([`Config::unit_default`]: what `redunit verilog` writes and the RTL engine simulates).
//!
//! The mechanism is [`Cut`]: a candidate pipeline register that a constant (a Verilog
//! `localparam`) either keeps or turns into a wire. Each block has a fixed list of candidate
//! cut points in a priority order (the one that shortens the longest stage first); a depth of
//! `N` keeps the block's fixed registers plus the first `N - min` candidates. The generated
//! Verilog is static: Yosys and Verilator fold the constant and drop the unused register.

use rust_hdl::prelude::*;

/// Pipeline depths (latencies in cycles, inputs to result) of the datapath blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    /// The f32 and f64 adders (`fp_add/`): [`FP_STAGES_MIN`]..=[`FP_STAGES_MAX`].
    pub fp_stages: usize,
    /// The f16/bf16 add lane (`fp_add16/`): [`FP16_STAGES_MIN`]..=[`FP16_STAGES_MAX`].
    pub fp16_stages: usize,
    /// The integer ALU (`int_alu.rs`): [`INT_STAGES_MIN`]..=[`INT_STAGES_MAX`] (2 splits its
    /// 64-bit add and compares into 32-bit halves with a register between them).
    pub int_stages: usize,
}

/// The shallowest integer ALU (input registers, the result combinational from them).
pub const INT_STAGES_MIN: usize = 1;
/// The deepest integer ALU (the two 32-bit halves in separate cycles).
pub const INT_STAGES_MAX: usize = 2;

/// The shallowest f32/f64 adder (input registers, align, add + normalise; round and pack drive
/// the output).
pub const FP_STAGES_MIN: usize = 3;
/// The deepest f32/f64 adder (every candidate cut kept, the output registered).
pub const FP_STAGES_MAX: usize = 14;

/// The shallowest f16/bf16 add lane (input registers, align, add + normalise; round and pack
/// drive the output): the lane the unit is built for.
pub const FP16_STAGES_MIN: usize = 3;
/// The deepest f16/bf16 add lane (every candidate cut of `fp_add16/` kept, the output
/// registered).
pub const FP16_STAGES_MAX: usize = 9;

impl Default for Config {
    /// Every block at its shallowest depth (the latency constants): the blocks' own default
    /// (`redunit verilog --top alu`, the adders alone, …) and the unit's
    /// [`Config::most_ops_per_cycle`]. The unit's default is [`Config::unit_default`].
    fn default() -> Self {
        Config { fp_stages: 3, fp16_stages: FP16_STAGES_MIN, int_stages: INT_STAGES_MIN }
    }
}

impl Config {
    /// Every block at its deepest pipeline: the fastest clock.
    pub const fn fastest_clock() -> Self {
        Config { fp_stages: FP_STAGES_MAX, fp16_stages: FP16_STAGES_MAX, int_stages: INT_STAGES_MAX }
    }

    /// The fewest cycles per dependent operation: every block at its shallowest depth (the
    /// unit's one pipeline with the shallowest ALU: dependent f32/f64 adds every 3 cycles,
    /// dependent add/logic every cycle, the other integer ops every 2), at a much slower clock.
    pub fn most_ops_per_cycle() -> Self {
        Config::default()
    }

    /// The L2-slice unit's default configuration: [`Config::fastest_clock`], the one that
    /// reaches 150 MHz on the ECP5 85k part. `hw::unit_verilog`, `redunit verilog`,
    /// `synth`, `bench`, `run --engine rtl` and `regress` use it unless told otherwise;
    /// `--preset most-ops-per-cycle` gives the unit at its shallowest depths.
    pub const fn unit_default() -> Self {
        Config::fastest_clock()
    }

    /// Checks every depth against its block's range; the error names the field and the range.
    pub fn validate(&self) -> Result<(), String> {
        if !(FP_STAGES_MIN..=FP_STAGES_MAX).contains(&self.fp_stages) {
            return Err(format!(
                "fp stages {} is out of range: the f32/f64 adders take {FP_STAGES_MIN} to {FP_STAGES_MAX} stages",
                self.fp_stages
            ));
        }
        if !(FP16_STAGES_MIN..=FP16_STAGES_MAX).contains(&self.fp16_stages) {
            return Err(format!(
                "fp16 stages {} is out of range: the f16/bf16 add lane takes {FP16_STAGES_MIN} to {FP16_STAGES_MAX} stages",
                self.fp16_stages
            ));
        }
        if !(INT_STAGES_MIN..=INT_STAGES_MAX).contains(&self.int_stages) {
            return Err(format!(
                "int stages {} is out of range: the integer ALU takes {INT_STAGES_MIN} to {INT_STAGES_MAX} stages",
                self.int_stages
            ));
        }
        Ok(())
    }

    /// Whether this is the blocks' default configuration (every block at its shallowest).
    pub fn is_default(&self) -> bool {
        *self == Config::default()
    }

    /// A short name for reports and file names: `fp3` (the default), `fp11` (the f32/f64
    /// adders' depth), `h9` (the f16/bf16 lane's), `int2` (the integer ALU's), joined with `-`
    /// when several differ from the default (`fp14-h9-int2`).
    pub fn tag(&self) -> String {
        let d = Config::default();
        let mut parts = Vec::new();
        if self.fp_stages != d.fp_stages {
            parts.push(format!("fp{}", self.fp_stages));
        }
        if self.fp16_stages != d.fp16_stages {
            parts.push(format!("h{}", self.fp16_stages));
        }
        if self.int_stages != d.int_stages {
            parts.push(format!("int{}", self.int_stages));
        }
        if parts.is_empty() {
            parts.push(format!("fp{}", self.fp_stages));
        }
        parts.join("-")
    }

    /// Cycles from inputs to `sum` of the f32/f64 adders.
    pub const fn fp_add_latency(&self) -> usize {
        self.fp_stages
    }

    /// Cycles from inputs to `sum` of the f16/bf16 add lane.
    pub const fn fp16_add_latency(&self) -> usize {
        self.fp16_stages
    }

    /// Cycles from inputs to `y` of the integer ALU.
    pub const fn int_alu_latency(&self) -> usize {
        self.int_stages
    }

    /// Cycles from inputs to `y` of the f16/bf16 min/max lane (`fp_minmax16.rs`): 1, or 2 (the
    /// compare and the select in separate cycles) in an ALU deeper than the default, where the
    /// lane is delayed to the ALU's latency anyway.
    pub fn minmax16_latency(&self) -> usize {
        if self.alu_latency() > Config::default().alu_latency() { 2 } else { 1 }
    }

    /// Cycles from request to result of the reduction ALU (`alu/`): its deepest lane; the
    /// others are delayed to it, so every form has this latency.
    pub const fn alu_latency(&self) -> usize {
        let (fp, h, i) = (self.fp_add_latency(), self.fp16_add_latency(), self.int_alu_latency());
        let fp = if fp > h { fp } else { h };
        if fp > i { fp } else { i }
    }

    /// Whether candidate cut `k` (0-based, in the block's priority order) of a block whose
    /// shallowest depth is `min` is a register at depth `stages`.
    pub fn cut_on(stages: usize, min: usize, k: usize) -> bool {
        stages > min + k
    }
}

/// A candidate pipeline register: `q` is `d` one cycle later when `on`, else `d` itself.
#[derive(LogicBlock)]
pub struct Cut<T: Synth> {
    pub clock: Signal<In, Clock>,
    pub d: Signal<In, T>,
    pub q: Signal<Out, T>,
    r: DFF<T>,
    on: Constant<Bit>,
}

impl<T: Synth> Cut<T> {
    /// A register when `on`, a wire otherwise.
    pub fn new(on: bool) -> Self {
        Cut {
            clock: Default::default(),
            d: Default::default(),
            q: Default::default(),
            r: Default::default(),
            on: Constant::new(on),
        }
    }
}

impl<T: Synth> Default for Cut<T> {
    fn default() -> Self {
        Cut::new(false)
    }
}

impl<T: Synth> Logic for Cut<T> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, r);
        self.r.d.next = self.d.val();
        self.q.next = self.d.val();
        if self.on.val() {
            self.q.next = self.r.q.val();
        }
    }
}

/// An input register with operand isolation: `q` takes `d` at each clock edge, or keeps its
/// value while `hold` is high (a lane whose result is not wanted keeps its last operands: it
/// does not switch, and lanes fed the same operand bits keep registers of their own, which
/// synthesis would otherwise merge into one register fanned out to all of them).
#[derive(LogicBlock, Default)]
pub struct HoldReg<T: Synth> {
    pub clock: Signal<In, Clock>,
    pub d: Signal<In, T>,
    pub hold: Signal<In, Bit>,
    pub q: Signal<Out, T>,
    r: DFF<T>,
}

impl<T: Synth> Logic for HoldReg<T> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, r);
        if !self.hold.val() {
            self.r.d.next = self.d.val();
        }
        self.q.next = self.r.q.val();
    }
}

/// The longest delay a [`Delay`] line can give: the deepest adder's latency (the ALU's form
/// code and valid bit travel that long).
pub const DELAY_MAX: usize = if FP_STAGES_MAX > FP16_STAGES_MAX { FP_STAGES_MAX } else { FP16_STAGES_MAX };

/// A delay line of `n` registers (0..=[`DELAY_MAX`], fixed by the constructor): `q` is `d`
/// `n` cycles later. Built from [`Cut`]s, so the unused places are wires that Yosys and
/// Verilator fold away.
#[derive(LogicBlock)]
pub struct Delay<T: Synth> {
    pub clock: Signal<In, Clock>,
    pub d: Signal<In, T>,
    pub q: Signal<Out, T>,
    stages: [Cut<T>; DELAY_MAX],
}

impl<T: Synth> Delay<T> {
    /// `n` cycles of delay.
    pub fn new(n: usize) -> Self {
        assert!(n <= DELAY_MAX, "a delay line of {n} registers is longer than DELAY_MAX = {DELAY_MAX}");
        Delay {
            clock: Default::default(),
            d: Default::default(),
            q: Default::default(),
            stages: std::array::from_fn(|i| Cut::new(i < n)),
        }
    }
}

impl<T: Synth> Logic for Delay<T> {
    #[hdl_gen]
    fn update(&mut self) {
        self.stages[0].clock.next = self.clock.val();
        self.stages[0].d.next = self.d.val();
        for i in 1..DELAY_MAX {
            self.stages[i].clock.next = self.clock.val();
            self.stages[i].d.next = self.stages[i - 1].q.val();
        }
        // (rust-hdl's array indices take loop variables only: the last place's q wins.)
        for i in 0..DELAY_MAX {
            self.q.next = self.stages[i].q.val();
        }
    }
}
