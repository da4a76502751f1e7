//! One pipelined 16-bit floating-point add lane for both f16 and bf16 (`bf16` selects), with
//! round-to-nearest-even, subnormals kept and every NaN result `7fff`.
//!
//! Both formats are unpacked into one internal format that holds either exactly: an 8-bit
//! exponent and an 11-bit significand (a bf16 significand fills its top 8 bits). Between
//! unpack and round the datapath is the one of [`crate::fp_add`]; the format shows up in three
//! places only:
//! - the minimum exponent at which normalisation stops;
//! - the rounding position (significand bit 0 for f16, bit 3 for bf16: bf16 gets six guard
//!   bits instead of three, which rounds the same);
//! - the pack (fraction width, infinity).
//!
//! Pipeline depth ([`Config::fp16_stages`], [`FP16_STAGES_MIN`]..=[`FP16_STAGES_MAX`]; the
//! latency is the depth). Two datapaths stand behind [`FpAdd16`]:
//!
//! - **3 stages** (the default, the lane the ALU and the unit are built for): the original
//!   lane, unchanged, so that the default Verilog of the ALU and the unit stays byte for byte
//!   what it was. Input registers `s0_`, stage 1 (unpack, specials, compare and swap, align),
//!   `s1_`, stage 2 (add, leading-zero count, normalise), `s2_`, stage 3 (round, pack) driving
//!   `sum`; f16 exponents are rebased to the bf16 bias (+112).
//! - **4 stages and more**: the same stages written as segments for short paths, with a
//!   candidate cut ([`Cut`], `c<cut>_<signal>`) between them; depth N keeps the first N - 3
//!   cuts of this priority order:
//!
//! | priority | cut | between |
//! | --- | --- | --- |
//! | 0 | `csum` | the add (D) and the leading-zero count (F) |
//! | 1 | `ccmp` | classify, unpack, split magnitude compare (A) and swap, exponent differences, specials (B) |
//! | 2 | `cnrm` | the count's first two decisions with the coarse shift (F) and its last two with the fine shift (H) |
//! | 3 | `csh` | swap (B) and the alignment shift with sticky (C) |
//! | 4 | `crnd` | round increment (I) and pack (J) |
//! | 5 | `cout` | pack (J) and `sum`: the output registered |
//!
//!   The order is greedy on the ECP5 flow (`redunit synth --top fp-add16`): each cut is the
//!   one that raised fmax most given the cuts before it, measured on the segments before the
//!   last two refinements of B and F (same cuts; figures per depth in BENCHMARKS.md). 8
//!   stages are above 150 MHz; the 9th registers the output. The segments: each
//!   operand classified and unpacked in its own format in parallel with the compare
//!   (exponents in field units, subnormals at 1, so f16 needs no rebase); exponent
//!   differences both ways beside the swap decision (4 bits of shift and a flag for 16 or more); one carry chain for
//!   the add with the carry-in as an extra low bit; the normalisation limit (exponent - 1) as
//!   a marker bit ORed into the leading-zero count's input, so that the count itself stops at
//!   the limit (no compare after it); the count's four decisions interleaved with the shift
//!   (by 8/4 from three parallel nibble tests, then by 2/1) and the exponent selected from
//!   precomputed differences; a pack that selects among three precomputed exponent fields
//!   with their overflow flags by the rounded significand's top bits. Side-band signals
//!   travel packed (`sb`: bf16, special, sign, sub/zero, special value).

use crate::config::{Config, Cut, FP16_STAGES_MIN, HoldReg};
#[cfg(doc)]
use crate::config::FP16_STAGES_MAX;
use crate::fp_add::bits_u128;
use crate::ecp5::replica_reg::ReplicaReg;
use rust_hdl::prelude::*;

/// The f16/bf16 add lane at the depth of a [`Config`] (`fp16_stages`): `sum = a + b`,
/// [`FpAdd16::latency`] cycles after the inputs. [`Default`] is the default configuration
/// (3 stages).
///
/// The lane is a thin shell around one of two datapaths (see the module doc): its ports are
/// passed through in simulation, and in the Verilog the module at the lane's path *is* the
/// chosen datapath (same ports), so the shell itself adds no logic and no module.
pub struct FpAdd16 {
    pub clock: Signal<In, Clock>,
    /// Old memory value `M`.
    pub a: Signal<In, Bits<16>>,
    /// Operand.
    pub b: Signal<In, Bits<16>>,
    /// Format: bf16 when high, f16 when low.
    pub bf16: Signal<In, Bit>,
    /// Operand isolation: the input registers keep their operands (this lane's result is
    /// not wanted; lanes fed the same operands then keep registers of their own).
    pub hold: Signal<In, Bit>,
    /// `a + b`, [`FpAdd16::latency`] cycles after the inputs.
    pub sum: Signal<Out, Bits<16>>,
    core: Core,
    latency: usize,
}

enum Core {
    Base(Box<Base16>),
    Deep(Box<Deep16>),
}

impl Default for FpAdd16 {
    /// The default configuration (3 stages, the original lane).
    fn default() -> Self {
        Self::new(&Config::default())
    }
}

impl FpAdd16 {
    /// The lane at the depth `cfg.fp16_stages` ([`Config::fp16_add_latency`] cycles).
    pub fn new(cfg: &Config) -> Self {
        assert!(cfg.validate().is_ok(), "{}", cfg.validate().unwrap_err());
        if cfg.fp16_stages == FP16_STAGES_MIN {
            return Self::with_core(Core::Base(Box::default()), FP16_STAGES_MIN);
        }
        let mask = (0..CUTS)
            .filter(|&k| Config::cut_on(cfg.fp16_stages, FP16_STAGES_MIN, k as usize))
            .fold(0, |m, k| m | 1 << k);
        Self::with_cuts(mask)
    }

    /// The segmented datapath with exactly the candidate cuts whose priority index is set in
    /// `mask` (bit k = priority k of the module doc's table), the others wires: for tests
    /// that check each cut on its own. `new` uses the masks `2^(N-3) - 1`; mask 0 is the
    /// segmented datapath at 3 stages (not a configuration: 3 stages is the original lane).
    pub fn with_cuts(mask: u32) -> Self {
        assert!(mask < 1 << CUTS, "fp16 cut mask {mask:#x}: the lane has {CUTS} candidate cuts");
        Self::with_core(Core::Deep(Box::new(Deep16::new(mask))), FP16_STAGES_MIN + mask.count_ones() as usize)
    }

    fn with_core(core: Core, latency: usize) -> Self {
        FpAdd16 {
            clock: Default::default(),
            a: Default::default(),
            b: Default::default(),
            bf16: Default::default(),
            hold: Default::default(),
            sum: Default::default(),
            core,
            latency,
        }
    }

    /// Cycles from inputs to `sum`.
    pub fn latency(&self) -> usize {
        self.latency
    }
}

/// Passes the shell's ports to and from the datapath (`$c` has the same port names).
macro_rules! shell_ports {
    ($s:ident, $c:ident) => {{
        $c.clock.next = $s.clock.val();
        $c.a.next = $s.a.val();
        $c.b.next = $s.b.val();
        $c.bf16.next = $s.bf16.val();
        $c.hold.next = $s.hold.val();
        $s.sum.next = $c.sum.val();
    }};
}

impl Logic for FpAdd16 {
    fn update(&mut self) {
        match &mut self.core {
            Core::Base(c) => shell_ports!(self, c),
            Core::Deep(c) => shell_ports!(self, c),
        }
    }

    fn connect(&mut self) {
        self.sum.connect();
        match &mut self.core {
            Core::Base(c) => {
                c.clock.connect();
                c.a.connect();
                c.b.connect();
                c.bf16.connect();
                c.hold.connect();
            }
            Core::Deep(c) => {
                c.clock.connect();
                c.a.connect();
                c.b.connect();
                c.bf16.connect();
                c.hold.connect();
            }
        }
    }
}

impl Block for FpAdd16 {
    fn connect_all(&mut self) {
        self.connect();
        match &mut self.core {
            Core::Base(c) => c.connect_all(),
            Core::Deep(c) => c.connect_all(),
        }
    }

    fn update_all(&mut self) {
        self.update();
        self.clock.update_all();
        self.a.update_all();
        self.b.update_all();
        self.bf16.update_all();
        self.hold.update_all();
        self.sum.update_all();
        match &mut self.core {
            Core::Base(c) => c.update_all(),
            Core::Deep(c) => c.update_all(),
        }
    }

    fn has_changed(&self) -> bool {
        self.clock.has_changed()
            || self.a.has_changed()
            || self.b.has_changed()
            || self.bf16.has_changed()
            || self.hold.has_changed()
            || self.sum.has_changed()
            || match &self.core {
                Core::Base(c) => c.has_changed(),
                Core::Deep(c) => c.has_changed(),
            }
    }

    /// The datapath under the lane's own name: the Verilog module at this path is the
    /// datapath's, with the same ports.
    fn accept(&self, name: &str, probe: &mut dyn Probe) {
        match &self.core {
            Core::Base(c) => c.accept(name, probe),
            Core::Deep(c) => c.accept(name, probe),
        }
    }
}

/// Number of candidate cuts of the segmented datapath (`FP16_STAGES_MAX - FP16_STAGES_MIN`).
const CUTS: u32 = 6;
const _: () = assert!(crate::config::FP16_STAGES_MAX - FP16_STAGES_MIN == CUTS as usize);

/// The cut groups of the segmented datapath, by priority (the module doc's table).
#[derive(Clone, Copy)]
enum Group {
    Csum = 0,
    Ccmp = 1,
    Cnrm = 2,
    Csh = 3,
    Crnd = 4,
    Cout = 5,
}

// ==================================================================================
// The original lane (3 stages): unchanged, so the default Verilog stays byte-identical.
// ==================================================================================

#[derive(LogicBlock)]
struct Base16 {
    pub clock: Signal<In, Clock>,
    /// Old memory value `M`.
    pub a: Signal<In, Bits<16>>,
    /// Operand.
    pub b: Signal<In, Bits<16>>,
    /// Format: bf16 when high, f16 when low.
    pub bf16: Signal<In, Bit>,
    /// Operand isolation: the input registers keep their operands (this lane's result is
    /// not wanted; lanes fed the same operands then keep registers of their own).
    pub hold: Signal<In, Bit>,
    /// `a + b`, [`FP16_STAGES_MIN`] cycles after the inputs.
    pub sum: Signal<Out, Bits<16>>,

    // Constants.
    nan16: Constant<Bits<16>>,
    sign16: Constant<Bits<16>>,
    zero16: Constant<Bits<16>>,
    one16: Constant<Bits<16>>,
    f16_inf: Constant<Bits<16>>,
    bf16_inf: Constant<Bits<16>>,
    f16_rebase: Constant<Bits<8>>,
    f16_emin: Constant<Bits<8>>,
    one8: Constant<Bits<8>>,
    zero8: Constant<Bits<8>>,
    hidden11: Constant<Bits<11>>,
    ones14: Constant<Bits<14>>,
    one14: Constant<Bits<14>>,
    lz_pad: Constant<Bits<16>>,
    lz8: Constant<Bits<8>>,
    lz4: Constant<Bits<8>>,
    lz2: Constant<Bits<8>>,

    // Stage 1 locals.
    in_inf: Signal<Local, Bits<16>>,
    a_nan: Signal<Local, Bit>,
    b_nan: Signal<Local, Bit>,
    a_inf: Signal<Local, Bit>,
    b_inf: Signal<Local, Bit>,
    swap: Signal<Local, Bit>,
    big_mag: Signal<Local, Bits<15>>,
    small_mag: Signal<Local, Bits<15>>,
    big_sign: Signal<Local, Bit>,
    small_sign: Signal<Local, Bit>,
    big_exp: Signal<Local, Bits<8>>,
    small_exp: Signal<Local, Bits<8>>,
    big_sig: Signal<Local, Bits<11>>,
    small_sig: Signal<Local, Bits<11>>,
    exp_diff: Signal<Local, Bits<8>>,
    small_ext: Signal<Local, Bits<14>>,
    small_shifted: Signal<Local, Bits<14>>,
    small_lost: Signal<Local, Bit>,
    // Stage 2 locals.
    sum15: Signal<Local, Bits<15>>,
    low14: Signal<Local, Bits<14>>,
    lz_t: Signal<Local, Bits<16>>,
    lzc: Signal<Local, Bits<8>>,
    emin: Signal<Local, Bits<8>>,
    norm_limit: Signal<Local, Bits<8>>,
    norm_shift: Signal<Local, Bits<8>>,
    norm_sig: Signal<Local, Bits<14>>,
    norm_exp: Signal<Local, Bits<8>>,
    // Stage 3 locals.
    round_up: Signal<Local, Bit>,
    sig16: Signal<Local, Bits<16>>,
    exp_rebased: Signal<Local, Bits<8>>,
    exp16: Signal<Local, Bits<16>>,
    inf: Signal<Local, Bits<16>>,
    mag: Signal<Local, Bits<16>>,
    result: Signal<Local, Bits<16>>,

    // Pipeline registers: s0_ holds the inputs, s1_/s2_ the results of stages 1/2.
    s0_a: HoldReg<Bits<16>>,
    s0_b: HoldReg<Bits<16>>,
    /// The format, a register of this lane's own (`ReplicaReg`): the lanes' format registers
    /// have one input, and merged they would be one register driving all 8 lanes.
    s0_bf16: ReplicaReg<Bit>,
    s1_sign: DFF<Bit>,
    s1_exp: DFF<Bits<8>>,
    s1_big: DFF<Bits<14>>,
    s1_small: DFF<Bits<14>>,
    s1_sub: DFF<Bit>,
    s1_special: DFF<Bit>,
    s1_special_val: DFF<Bits<16>>,
    s1_bf16: DFF<Bit>,
    s2_sign: DFF<Bit>,
    s2_exp: DFF<Bits<8>>,
    s2_norm: DFF<Bits<14>>,
    s2_zero: DFF<Bit>,
    s2_special: DFF<Bit>,
    s2_special_val: DFF<Bits<16>>,
    s2_bf16: DFF<Bit>,
}

impl Default for Base16 {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            a: Default::default(),
            b: Default::default(),
            bf16: Default::default(),
            hold: Default::default(),
            sum: Default::default(),
            nan16: Constant::new(bits_u128(sim::fp::H_NAN as u128)),
            sign16: Constant::new(bits_u128(0x8000)),
            zero16: Constant::new(bits_u128(0)),
            one16: Constant::new(bits_u128(1)),
            f16_inf: Constant::new(bits_u128(0x7c00)),
            bf16_inf: Constant::new(bits_u128(0x7f80)),
            // f16 exponent field + 112 = bf16-biased exponent (127 - 15).
            f16_rebase: Constant::new(bits_u128(112)),
            // Smallest f16 exponent (field 1, also that of subnormals) in the internal bias.
            f16_emin: Constant::new(bits_u128(113)),
            one8: Constant::new(bits_u128(1)),
            zero8: Constant::new(bits_u128(0)),
            hidden11: Constant::new(bits_u128(1 << 10)),
            ones14: Constant::new(bits_u128((1 << 14) - 1)),
            one14: Constant::new(bits_u128(1)),
            lz_pad: Constant::new(bits_u128(0b11)),
            lz8: Constant::new(bits_u128(8)),
            lz4: Constant::new(bits_u128(4)),
            lz2: Constant::new(bits_u128(2)),
            in_inf: Default::default(),
            a_nan: Default::default(),
            b_nan: Default::default(),
            a_inf: Default::default(),
            b_inf: Default::default(),
            swap: Default::default(),
            big_mag: Default::default(),
            small_mag: Default::default(),
            big_sign: Default::default(),
            small_sign: Default::default(),
            big_exp: Default::default(),
            small_exp: Default::default(),
            big_sig: Default::default(),
            small_sig: Default::default(),
            exp_diff: Default::default(),
            small_ext: Default::default(),
            small_shifted: Default::default(),
            small_lost: Default::default(),
            sum15: Default::default(),
            low14: Default::default(),
            lz_t: Default::default(),
            lzc: Default::default(),
            emin: Default::default(),
            norm_limit: Default::default(),
            norm_shift: Default::default(),
            norm_sig: Default::default(),
            norm_exp: Default::default(),
            round_up: Default::default(),
            sig16: Default::default(),
            exp_rebased: Default::default(),
            exp16: Default::default(),
            inf: Default::default(),
            mag: Default::default(),
            result: Default::default(),
            s0_a: Default::default(),
            s0_b: Default::default(),
            s0_bf16: Default::default(),
            s1_sign: Default::default(),
            s1_exp: Default::default(),
            s1_big: Default::default(),
            s1_small: Default::default(),
            s1_sub: Default::default(),
            s1_special: Default::default(),
            s1_special_val: Default::default(),
            s1_bf16: Default::default(),
            s2_sign: Default::default(),
            s2_exp: Default::default(),
            s2_norm: Default::default(),
            s2_zero: Default::default(),
            s2_special: Default::default(),
            s2_special_val: Default::default(),
            s2_bf16: Default::default(),
        }
    }
}

impl Logic for Base16 {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, s0_a, s0_b);
        dff_setup!(
            self, clock, s1_sign, s1_exp, s1_big, s1_small, s1_sub, s1_special, s1_special_val,
            s1_bf16, s2_sign, s2_exp, s2_norm, s2_zero, s2_special, s2_special_val, s2_bf16
        );

        // ==========================================================================
        // Input registers (s0_): the operands enter the pipeline unchanged, so no logic
        // sits between the ports and the first registers.
        // ==========================================================================
        // (Operand isolation: `hold` keeps the last operands.)
        self.s0_a.d.next = self.a.val();
        self.s0_b.d.next = self.b.val();
        self.s0_a.hold.next = self.hold.val();
        self.s0_b.hold.next = self.hold.val();
        self.s0_bf16.clock.next = self.clock.val();
        self.s0_bf16.d.next = self.bf16.val();

        // ==========================================================================
        // Stage 1 (from the s0_ registers): unpack to the internal format, specials, compare and swap, align.
        // ==========================================================================
        // Specials: compare the magnitude with the format's infinity.
        self.in_inf.next = self.f16_inf.val();
        if self.s0_bf16.q.val() {
            self.in_inf.next = self.bf16_inf.val();
        }
        self.a_nan.next = bit_cast::<16, 15>(self.s0_a.q.val().get_bits::<15>(0)) > self.in_inf.val();
        self.b_nan.next = bit_cast::<16, 15>(self.s0_b.q.val().get_bits::<15>(0)) > self.in_inf.val();
        self.a_inf.next = bit_cast::<16, 15>(self.s0_a.q.val().get_bits::<15>(0)) == self.in_inf.val();
        self.b_inf.next = bit_cast::<16, 15>(self.s0_b.q.val().get_bits::<15>(0)) == self.in_inf.val();
        // Sign-magnitude bits order like the magnitudes in both formats.
        self.swap.next = self.s0_a.q.val().get_bits::<15>(0) < self.s0_b.q.val().get_bits::<15>(0);
        self.big_mag.next = self.s0_a.q.val().get_bits::<15>(0);
        self.small_mag.next = self.s0_b.q.val().get_bits::<15>(0);
        self.big_sign.next = self.s0_a.q.val().get_bit(15);
        self.small_sign.next = self.s0_b.q.val().get_bit(15);
        if self.swap.val() {
            self.big_mag.next = self.s0_b.q.val().get_bits::<15>(0);
            self.small_mag.next = self.s0_a.q.val().get_bits::<15>(0);
            self.big_sign.next = self.s0_b.q.val().get_bit(15);
            self.small_sign.next = self.s0_a.q.val().get_bit(15);
        }
        // Internal exponent (bf16 bias; subnormals at the format's minimum) and 11-bit
        // significand with the hidden bit.
        if self.s0_bf16.q.val() {
            self.big_exp.next = self.big_mag.val().get_bits::<8>(7);
            self.big_sig.next = bit_cast::<11, 7>(self.big_mag.val().get_bits::<7>(0)) << 3;
            if self.big_exp.val().any() {
                self.big_sig.next = self.big_sig.val() | self.hidden11.val();
            } else {
                self.big_exp.next = self.one8.val();
            }
            self.small_exp.next = self.small_mag.val().get_bits::<8>(7);
            self.small_sig.next = bit_cast::<11, 7>(self.small_mag.val().get_bits::<7>(0)) << 3;
            if self.small_exp.val().any() {
                self.small_sig.next = self.small_sig.val() | self.hidden11.val();
            } else {
                self.small_exp.next = self.one8.val();
            }
        } else {
            self.big_exp.next = bit_cast::<8, 5>(self.big_mag.val().get_bits::<5>(10));
            self.big_sig.next = bit_cast::<11, 10>(self.big_mag.val().get_bits::<10>(0));
            if self.big_exp.val().any() {
                self.big_sig.next = self.big_sig.val() | self.hidden11.val();
                self.big_exp.next = self.big_exp.val() + self.f16_rebase.val();
            } else {
                self.big_exp.next = self.f16_emin.val();
            }
            self.small_exp.next = bit_cast::<8, 5>(self.small_mag.val().get_bits::<5>(10));
            self.small_sig.next = bit_cast::<11, 10>(self.small_mag.val().get_bits::<10>(0));
            if self.small_exp.val().any() {
                self.small_sig.next = self.small_sig.val() | self.hidden11.val();
                self.small_exp.next = self.small_exp.val() + self.f16_rebase.val();
            } else {
                self.small_exp.next = self.f16_emin.val();
            }
        }
        // Alignment with guard, round and sticky (bit 0).
        self.exp_diff.next = self.big_exp.val() - self.small_exp.val();
        self.small_ext.next = bit_cast::<14, 11>(self.small_sig.val()) << 3;
        self.small_shifted.next = self.small_ext.val() >> self.exp_diff.val();
        self.small_lost.next =
            (self.small_ext.val() & !(self.ones14.val() << self.exp_diff.val())).any();
        self.s1_small.d.next = self.small_shifted.val();
        if self.small_lost.val() {
            self.s1_small.d.next = self.small_shifted.val() | self.one14.val();
        }
        self.s1_big.d.next = bit_cast::<14, 11>(self.big_sig.val()) << 3;
        self.s1_exp.d.next = self.big_exp.val();
        self.s1_sign.d.next = self.big_sign.val();
        self.s1_sub.d.next = self.big_sign.val() ^ self.small_sign.val();
        self.s1_bf16.d.next = self.s0_bf16.q.val();
        // Special results: any NaN (or inf + -inf) is 7fff; else an infinity passes.
        self.s1_special.d.next =
            self.a_nan.val() || self.b_nan.val() || self.a_inf.val() || self.b_inf.val();
        self.s1_special_val.d.next = self.nan16.val();
        if !self.a_nan.val() && !self.b_nan.val() {
            if self.a_inf.val() && self.b_inf.val() {
                if self.s0_a.q.val().get_bit(15) == self.s0_b.q.val().get_bit(15) {
                    self.s1_special_val.d.next = self.s0_a.q.val();
                }
            } else if self.a_inf.val() {
                self.s1_special_val.d.next = self.s0_a.q.val();
            } else if self.b_inf.val() {
                self.s1_special_val.d.next = self.s0_b.q.val();
            }
        }

        // ==========================================================================
        // Stage 2: add/subtract, leading-zero count, normalise.
        // ==========================================================================
        if self.s1_sub.q.val() {
            self.sum15.next =
                bit_cast::<15, 14>(self.s1_big.q.val()) - bit_cast::<15, 14>(self.s1_small.q.val());
        } else {
            self.sum15.next =
                bit_cast::<15, 14>(self.s1_big.q.val()) + bit_cast::<15, 14>(self.s1_small.q.val());
        }
        self.low14.next = self.sum15.val().get_bits::<14>(0);
        // Leading zeros of low14 (14 when zero) by binary search on low14 . 11: the two pad
        // ones stop the count at 14.
        self.lz_t.next = (bit_cast::<16, 14>(self.low14.val()) << 2) | self.lz_pad.val();
        self.lzc.next = self.zero8.val();
        if !self.lz_t.val().get_bits::<8>(8).any() {
            self.lzc.next = self.lzc.val() | self.lz8.val();
            self.lz_t.next = self.lz_t.val() << 8;
        }
        if !self.lz_t.val().get_bits::<4>(12).any() {
            self.lzc.next = self.lzc.val() | self.lz4.val();
            self.lz_t.next = self.lz_t.val() << 4;
        }
        if !self.lz_t.val().get_bits::<2>(14).any() {
            self.lzc.next = self.lzc.val() | self.lz2.val();
            self.lz_t.next = self.lz_t.val() << 2;
        }
        if !self.lz_t.val().get_bit(15) {
            self.lzc.next = self.lzc.val() | self.one8.val();
        }
        // Normalisation stops at the format's minimum exponent.
        self.emin.next = self.f16_emin.val();
        if self.s1_bf16.q.val() {
            self.emin.next = self.one8.val();
        }
        self.norm_limit.next = self.s1_exp.q.val() - self.emin.val();
        self.norm_shift.next = self.lzc.val();
        if self.norm_limit.val() < self.lzc.val() {
            self.norm_shift.next = self.norm_limit.val();
        }
        self.norm_sig.next = self.low14.val() << self.norm_shift.val();
        self.norm_exp.next = self.s1_exp.q.val() - self.norm_shift.val();
        if self.sum15.val().get_bit(14) {
            self.norm_sig.next = self.sum15.val().get_bits::<14>(1);
            if self.sum15.val().get_bit(0) {
                self.norm_sig.next = self.sum15.val().get_bits::<14>(1) | self.one14.val();
            }
            self.norm_exp.next = self.s1_exp.q.val() + self.one8.val();
        }
        self.s2_norm.d.next = self.norm_sig.val();
        self.s2_exp.d.next = self.norm_exp.val();
        self.s2_zero.d.next = !self.sum15.val().any();
        self.s2_sign.d.next = self.s1_sign.q.val();
        if self.s1_sub.q.val() && !self.sum15.val().any() {
            self.s2_sign.d.next = false;
        }
        self.s2_special.d.next = self.s1_special.q.val();
        self.s2_special_val.d.next = self.s1_special_val.q.val();
        self.s2_bf16.d.next = self.s1_bf16.q.val();

        // ==========================================================================
        // Stage 3 (from the s2_ registers, drives `sum`): round to nearest even at the
        // format's position, pack, overflow.
        // ==========================================================================
        // f16: significand bits 13..3, guard 2, sticky 1..0.
        self.round_up.next = self.s2_norm.q.val().get_bit(2)
            && (self.s2_norm.q.val().get_bit(1)
                || self.s2_norm.q.val().get_bit(0)
                || self.s2_norm.q.val().get_bit(3));
        self.sig16.next = bit_cast::<16, 11>(self.s2_norm.q.val().get_bits::<11>(3));
        self.exp_rebased.next = self.s2_exp.q.val() - self.f16_emin.val();
        self.exp16.next = bit_cast::<16, 8>(self.exp_rebased.val()) << 10;
        self.inf.next = self.f16_inf.val();
        if self.s2_bf16.q.val() {
            // bf16: significand bits 13..6, guard 5, sticky 4..0.
            self.round_up.next = self.s2_norm.q.val().get_bit(5)
                && (self.s2_norm.q.val().get_bits::<5>(0).any() || self.s2_norm.q.val().get_bit(6));
            self.sig16.next = bit_cast::<16, 8>(self.s2_norm.q.val().get_bits::<8>(6));
            self.exp_rebased.next = self.s2_exp.q.val() - self.one8.val();
            self.exp16.next = bit_cast::<16, 8>(self.exp_rebased.val()) << 7;
            self.inf.next = self.bf16_inf.val();
        }
        if self.round_up.val() {
            self.sig16.next = self.sig16.val() + self.one16.val();
        }
        // (exponent - emin) << fraction width + significand with hidden bit: see fp_add.
        self.mag.next = self.exp16.val() + self.sig16.val();
        if self.mag.val() >= self.inf.val() {
            self.mag.next = self.inf.val();
        }
        if self.s2_zero.q.val() {
            self.mag.next = self.zero16.val();
        }
        self.result.next = self.mag.val();
        if self.s2_sign.q.val() {
            self.result.next = self.mag.val() | self.sign16.val();
        }
        if self.s2_special.q.val() {
            self.result.next = self.s2_special_val.q.val();
        }
        self.sum.next = self.result.val();
    }
}


// ==================================================================================
// The segmented lane (4 stages and more): see the module doc.
// ==================================================================================

#[derive(LogicBlock)]
struct Deep16 {
    clock: Signal<In, Clock>,
    a: Signal<In, Bits<16>>,
    b: Signal<In, Bits<16>>,
    bf16: Signal<In, Bit>,
    hold: Signal<In, Bit>,
    sum: Signal<Out, Bits<16>>,
    nan16: Constant<Bits<16>>,
    sign16: Constant<Bits<16>>,
    zero16: Constant<Bits<16>>,
    f16_inf: Constant<Bits<16>>,
    bf16_inf: Constant<Bits<16>>,
    hidden11: Constant<Bits<11>>,
    one8: Constant<Bits<8>>,
    two8: Constant<Bits<8>>,
    three8: Constant<Bits<8>>,
    zero14: Constant<Bits<14>>,
    zero7: Constant<Bits<7>>,
    fl_bf16: Constant<Bits<7>>,
    fl_a_nan: Constant<Bits<7>>,
    fl_b_nan: Constant<Bits<7>>,
    fl_a_inf: Constant<Bits<7>>,
    fl_b_inf: Constant<Bits<7>>,
    fl_a_sign: Constant<Bits<7>>,
    fl_b_sign: Constant<Bits<7>>,
    sb_bf16: Constant<Bits<20>>,
    sb_special: Constant<Bits<20>>,
    sb_sign: Constant<Bits<20>>,
    sb_sub: Constant<Bits<20>>,
    ones14: Constant<Bits<14>>,
    one14: Constant<Bits<14>>,
    mark_top: Constant<Bits<15>>,
    ones15: Constant<Bits<15>>,
    one16: Constant<Bits<16>>,
    lz_pad: Constant<Bits<15>>,
    lz4: Constant<Bits<8>>,
    lz8: Constant<Bits<8>>,
    lz12: Constant<Bits<8>>,
    t3_carry: Constant<Bits<3>>,
    one12: Constant<Bits<12>>,
    eight12: Constant<Bits<12>>,
    zero3: Constant<Bits<3>>,
    ov_0: Constant<Bits<3>>,
    ov_1: Constant<Bits<3>>,
    ov_2: Constant<Bits<3>>,
    e30: Constant<Bits<8>>,
    e31: Constant<Bits<8>>,
    e32: Constant<Bits<8>>,
    e254: Constant<Bits<8>>,
    e255: Constant<Bits<8>>,
    a_e8: Signal<Local, Bits<8>>,
    b_e8: Signal<Local, Bits<8>>,
    a_e5: Signal<Local, Bits<5>>,
    b_e5: Signal<Local, Bits<5>>,
    a_nan: Signal<Local, Bit>,
    a_inf: Signal<Local, Bit>,
    b_nan: Signal<Local, Bit>,
    b_inf: Signal<Local, Bit>,
    a_sig: Signal<Local, Bits<11>>,
    b_sig: Signal<Local, Bits<11>>,
    a_exp: Signal<Local, Bits<8>>,
    b_exp: Signal<Local, Bits<8>>,
    dab: Signal<Local, Bits<8>>,
    dba: Signal<Local, Bits<8>>,
    fl: Signal<Local, Bits<7>>,
    swap: Signal<Local, Bit>,
    big_sign: Signal<Local, Bit>,
    inf_mag: Signal<Local, Bits<16>>,
    special_val: Signal<Local, Bits<16>>,
    sb_b: Signal<Local, Bits<20>>,
    small_ext: Signal<Local, Bits<14>>,
    small_shifted: Signal<Local, Bits<14>>,
    small_lost: Signal<Local, Bit>,
    small_inv: Signal<Local, Bits<15>>,
    lo_a: Signal<Local, Bits<16>>,
    lo_b: Signal<Local, Bits<16>>,
    lo_t: Signal<Local, Bits<16>>,
    lz_t: Signal<Local, Bits<15>>,
    h3: Signal<Local, Bit>,
    h2: Signal<Local, Bit>,
    h1: Signal<Local, Bit>,
    low_c: Signal<Local, Bits<14>>,
    t3: Signal<Local, Bits<3>>,
    e_c: Signal<Local, Bits<8>>,
    sb_f: Signal<Local, Bits<20>>,
    d2: Signal<Local, Bit>,
    d1: Signal<Local, Bit>,
    round_up: Signal<Local, Bit>,
    /// bf16's round-up and rounded significand (`round_up`, `sig12`: f16's).
    ru_bf: Signal<Local, Bit>,
    sig_bf: Signal<Local, Bits<12>>,
    sig12: Signal<Local, Bits<12>>,
    ov: Signal<Local, Bits<3>>,
    ef: Signal<Local, Bits<8>>,
    ovf: Signal<Local, Bit>,
    mag: Signal<Local, Bits<16>>,
    inf_out: Signal<Local, Bits<16>>,
    result: Signal<Local, Bits<16>>,
    s0_a: HoldReg<Bits<16>>,
    s0_b: HoldReg<Bits<16>>,
    /// The format, a register of this lane's own (`ReplicaReg`): the lanes' format registers
    /// have one input, and merged they would be one register driving all 8 lanes.
    s0_bf16: ReplicaReg<Bit>,
    s1_big: DFF<Bits<14>>,
    s1_small: DFF<Bits<14>>,
    s1_exp: DFF<Bits<8>>,
    s1_mark: DFF<Bits<15>>,
    s1_sb: DFF<Bits<20>>,
    s2_norm: DFF<Bits<14>>,
    s2_exp: DFF<Bits<8>>,
    s2_sb: DFF<Bits<20>>,
    ccmp_lt_hi: Cut<Bit>,
    ccmp_eq_hi: Cut<Bit>,
    ccmp_lt_lo: Cut<Bit>,
    ccmp_a_sig: Cut<Bits<11>>,
    ccmp_b_sig: Cut<Bits<11>>,
    ccmp_a_exp: Cut<Bits<8>>,
    ccmp_b_exp: Cut<Bits<8>>,
    ccmp_fl: Cut<Bits<7>>,
    csh_big_sig: Cut<Bits<11>>,
    csh_small_sig: Cut<Bits<11>>,
    csh_big_exp: Cut<Bits<8>>,
    csh_sh: Cut<Bits<4>>,
    csh_far: Cut<Bit>,
    csh_sb: Cut<Bits<20>>,
    csum_sum: Cut<Bits<15>>,
    csum_exp: Cut<Bits<8>>,
    csum_e_p1: Cut<Bits<8>>,
    csum_e_m4: Cut<Bits<8>>,
    csum_e_m8: Cut<Bits<8>>,
    csum_e_m12: Cut<Bits<8>>,
    csum_mark: Cut<Bits<15>>,
    csum_sb: Cut<Bits<20>>,
    cnrm_low: Cut<Bits<14>>,
    cnrm_t3: Cut<Bits<3>>,
    cnrm_exp: Cut<Bits<8>>,
    cnrm_sb: Cut<Bits<20>>,
    crnd_sig: Cut<Bits<12>>,
    crnd_ef0: Cut<Bits<8>>,
    crnd_ef1: Cut<Bits<8>>,
    crnd_ef2: Cut<Bits<8>>,
    crnd_ov: Cut<Bits<3>>,
    crnd_sb: Cut<Bits<20>>,
    cout_result: Cut<Bits<16>>,
}

impl Deep16 {
    /// The cuts whose priority index is set in `mask` are registers.
    fn new(mask: u32) -> Self {
        let on = |g: Group| mask >> (g as u32) & 1 == 1;
        Self {
            clock: Default::default(),
            a: Default::default(),
            b: Default::default(),
            bf16: Default::default(),
            hold: Default::default(),
            sum: Default::default(),
            nan16: Constant::new(bits_u128(sim::fp::H_NAN as u128)),
            sign16: Constant::new(bits_u128(0x8000)),
            zero16: Constant::new(bits_u128(0)),
            f16_inf: Constant::new(bits_u128(0x7c00)),
            bf16_inf: Constant::new(bits_u128(0x7f80)),
            hidden11: Constant::new(bits_u128(1 << 10)),
            one8: Constant::new(bits_u128(1)),
            two8: Constant::new(bits_u128(2)),
            three8: Constant::new(bits_u128(3)),
            zero14: Constant::new(bits_u128(0)),
            zero7: Constant::new(bits_u128(0)),
            fl_bf16: Constant::new(bits_u128(1)),
            fl_a_nan: Constant::new(bits_u128(2)),
            fl_b_nan: Constant::new(bits_u128(4)),
            fl_a_inf: Constant::new(bits_u128(8)),
            fl_b_inf: Constant::new(bits_u128(16)),
            fl_a_sign: Constant::new(bits_u128(32)),
            fl_b_sign: Constant::new(bits_u128(64)),
            sb_bf16: Constant::new(bits_u128(1)),
            sb_special: Constant::new(bits_u128(2)),
            sb_sign: Constant::new(bits_u128(4)),
            sb_sub: Constant::new(bits_u128(8)),
            ones14: Constant::new(bits_u128((1 << 14) - 1)),
            one14: Constant::new(bits_u128(1)),
            mark_top: Constant::new(bits_u128(0x4000)),
            ones15: Constant::new(bits_u128((1 << 15) - 1)),
            one16: Constant::new(bits_u128(1)),
            lz_pad: Constant::new(bits_u128(1)),
            lz4: Constant::new(bits_u128(4)),
            lz8: Constant::new(bits_u128(8)),
            lz12: Constant::new(bits_u128(12)),
            t3_carry: Constant::new(bits_u128(0b110)),
            one12: Constant::new(bits_u128(1)),
            eight12: Constant::new(bits_u128(8)),
            zero3: Constant::new(bits_u128(0)),
            ov_0: Constant::new(bits_u128(1)),
            ov_1: Constant::new(bits_u128(2)),
            ov_2: Constant::new(bits_u128(4)),
            e30: Constant::new(bits_u128(30)),
            e31: Constant::new(bits_u128(31)),
            e32: Constant::new(bits_u128(32)),
            e254: Constant::new(bits_u128(254)),
            e255: Constant::new(bits_u128(255)),
            a_e8: Default::default(),
            b_e8: Default::default(),
            a_e5: Default::default(),
            b_e5: Default::default(),
            a_nan: Default::default(),
            a_inf: Default::default(),
            b_nan: Default::default(),
            b_inf: Default::default(),
            a_sig: Default::default(),
            b_sig: Default::default(),
            a_exp: Default::default(),
            b_exp: Default::default(),
            dab: Default::default(),
            dba: Default::default(),
            fl: Default::default(),
            swap: Default::default(),
            big_sign: Default::default(),
            inf_mag: Default::default(),
            special_val: Default::default(),
            sb_b: Default::default(),
            small_ext: Default::default(),
            small_shifted: Default::default(),
            small_lost: Default::default(),
            small_inv: Default::default(),
            lo_a: Default::default(),
            lo_b: Default::default(),
            lo_t: Default::default(),
            lz_t: Default::default(),
            h3: Default::default(),
            h2: Default::default(),
            h1: Default::default(),
            low_c: Default::default(),
            t3: Default::default(),
            e_c: Default::default(),
            sb_f: Default::default(),
            d2: Default::default(),
            d1: Default::default(),
            round_up: Default::default(),
            ru_bf: Default::default(),
            sig_bf: Default::default(),
            sig12: Default::default(),
            ov: Default::default(),
            ef: Default::default(),
            ovf: Default::default(),
            mag: Default::default(),
            inf_out: Default::default(),
            result: Default::default(),
            s0_a: Default::default(),
            s0_b: Default::default(),
            s0_bf16: Default::default(),
            s1_big: Default::default(),
            s1_small: Default::default(),
            s1_exp: Default::default(),
            s1_mark: Default::default(),
            s1_sb: Default::default(),
            s2_norm: Default::default(),
            s2_exp: Default::default(),
            s2_sb: Default::default(),
            ccmp_lt_hi: Cut::new(on(Group::Ccmp)),
            ccmp_eq_hi: Cut::new(on(Group::Ccmp)),
            ccmp_lt_lo: Cut::new(on(Group::Ccmp)),
            ccmp_a_sig: Cut::new(on(Group::Ccmp)),
            ccmp_b_sig: Cut::new(on(Group::Ccmp)),
            ccmp_a_exp: Cut::new(on(Group::Ccmp)),
            ccmp_b_exp: Cut::new(on(Group::Ccmp)),
            ccmp_fl: Cut::new(on(Group::Ccmp)),
            csh_big_sig: Cut::new(on(Group::Csh)),
            csh_small_sig: Cut::new(on(Group::Csh)),
            csh_big_exp: Cut::new(on(Group::Csh)),
            csh_sh: Cut::new(on(Group::Csh)),
            csh_far: Cut::new(on(Group::Csh)),
            csh_sb: Cut::new(on(Group::Csh)),
            csum_sum: Cut::new(on(Group::Csum)),
            csum_exp: Cut::new(on(Group::Csum)),
            csum_e_p1: Cut::new(on(Group::Csum)),
            csum_e_m4: Cut::new(on(Group::Csum)),
            csum_e_m8: Cut::new(on(Group::Csum)),
            csum_e_m12: Cut::new(on(Group::Csum)),
            csum_mark: Cut::new(on(Group::Csum)),
            csum_sb: Cut::new(on(Group::Csum)),
            cnrm_low: Cut::new(on(Group::Cnrm)),
            cnrm_t3: Cut::new(on(Group::Cnrm)),
            cnrm_exp: Cut::new(on(Group::Cnrm)),
            cnrm_sb: Cut::new(on(Group::Cnrm)),
            crnd_sig: Cut::new(on(Group::Crnd)),
            crnd_ef0: Cut::new(on(Group::Crnd)),
            crnd_ef1: Cut::new(on(Group::Crnd)),
            crnd_ef2: Cut::new(on(Group::Crnd)),
            crnd_ov: Cut::new(on(Group::Crnd)),
            crnd_sb: Cut::new(on(Group::Crnd)),
            cout_result: Cut::new(on(Group::Cout)),
        }
    }
}

impl Logic for Deep16 {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, s0_a, s0_b);
        dff_setup!(self, clock, s1_big, s1_small, s1_exp, s1_mark, s1_sb, s2_norm, s2_exp, s2_sb);
        self.ccmp_lt_hi.clock.next = self.clock.val();
        self.ccmp_eq_hi.clock.next = self.clock.val();
        self.ccmp_lt_lo.clock.next = self.clock.val();
        self.ccmp_a_sig.clock.next = self.clock.val();
        self.ccmp_b_sig.clock.next = self.clock.val();
        self.ccmp_a_exp.clock.next = self.clock.val();
        self.ccmp_b_exp.clock.next = self.clock.val();
        self.ccmp_fl.clock.next = self.clock.val();
        self.csh_big_sig.clock.next = self.clock.val();
        self.csh_small_sig.clock.next = self.clock.val();
        self.csh_big_exp.clock.next = self.clock.val();
        self.csh_sh.clock.next = self.clock.val();
        self.csh_far.clock.next = self.clock.val();
        self.csh_sb.clock.next = self.clock.val();
        self.csum_sum.clock.next = self.clock.val();
        self.csum_exp.clock.next = self.clock.val();
        self.csum_e_p1.clock.next = self.clock.val();
        self.csum_e_m4.clock.next = self.clock.val();
        self.csum_e_m8.clock.next = self.clock.val();
        self.csum_e_m12.clock.next = self.clock.val();
        self.csum_mark.clock.next = self.clock.val();
        self.csum_sb.clock.next = self.clock.val();
        self.cnrm_low.clock.next = self.clock.val();
        self.cnrm_t3.clock.next = self.clock.val();
        self.cnrm_exp.clock.next = self.clock.val();
        self.cnrm_sb.clock.next = self.clock.val();
        self.crnd_sig.clock.next = self.clock.val();
        self.crnd_ef0.clock.next = self.clock.val();
        self.crnd_ef1.clock.next = self.clock.val();
        self.crnd_ef2.clock.next = self.clock.val();
        self.crnd_ov.clock.next = self.clock.val();
        self.crnd_sb.clock.next = self.clock.val();
        self.cout_result.clock.next = self.clock.val();

        // ==========================================================================
        // Input registers (s0_).
        // ==========================================================================
        // (Operand isolation: `hold` keeps the last operands.)
        self.s0_a.d.next = self.a.val();
        self.s0_b.d.next = self.b.val();
        self.s0_a.hold.next = self.hold.val();
        self.s0_b.hold.next = self.hold.val();
        self.s0_bf16.clock.next = self.clock.val();
        self.s0_bf16.d.next = self.bf16.val();

        // ==========================================================================
        // Stage 1, segment A (from s0_): classify and unpack each operand in its format
        // (exponent in field units, subnormals at 1; 11-bit significand with the hidden bit,
        // a bf16 one in the top 8 bits), magnitude compare in two halves.
        // ==========================================================================
        self.a_e8.next = self.s0_a.q.val().get_bits::<8>(7);
        self.b_e8.next = self.s0_b.q.val().get_bits::<8>(7);
        self.a_e5.next = self.s0_a.q.val().get_bits::<5>(10);
        self.b_e5.next = self.s0_b.q.val().get_bits::<5>(10);
        if self.s0_bf16.q.val() {
            self.a_nan.next = self.a_e8.val().all() && self.s0_a.q.val().get_bits::<7>(0).any();
            self.a_inf.next = self.a_e8.val().all() && !self.s0_a.q.val().get_bits::<7>(0).any();
            self.b_nan.next = self.b_e8.val().all() && self.s0_b.q.val().get_bits::<7>(0).any();
            self.b_inf.next = self.b_e8.val().all() && !self.s0_b.q.val().get_bits::<7>(0).any();
            self.a_sig.next = bit_cast::<11, 7>(self.s0_a.q.val().get_bits::<7>(0)) << 3;
            self.b_sig.next = bit_cast::<11, 7>(self.s0_b.q.val().get_bits::<7>(0)) << 3;
            self.a_exp.next = self.a_e8.val();
            self.b_exp.next = self.b_e8.val();
            if self.a_e8.val().any() {
                self.a_sig.next = self.a_sig.val() | self.hidden11.val();
            } else {
                self.a_exp.next = self.one8.val();
            }
            if self.b_e8.val().any() {
                self.b_sig.next = self.b_sig.val() | self.hidden11.val();
            } else {
                self.b_exp.next = self.one8.val();
            }
        } else {
            self.a_nan.next = self.a_e5.val().all() && self.s0_a.q.val().get_bits::<10>(0).any();
            self.a_inf.next = self.a_e5.val().all() && !self.s0_a.q.val().get_bits::<10>(0).any();
            self.b_nan.next = self.b_e5.val().all() && self.s0_b.q.val().get_bits::<10>(0).any();
            self.b_inf.next = self.b_e5.val().all() && !self.s0_b.q.val().get_bits::<10>(0).any();
            self.a_sig.next = bit_cast::<11, 10>(self.s0_a.q.val().get_bits::<10>(0));
            self.b_sig.next = bit_cast::<11, 10>(self.s0_b.q.val().get_bits::<10>(0));
            self.a_exp.next = bit_cast::<8, 5>(self.a_e5.val());
            self.b_exp.next = bit_cast::<8, 5>(self.b_e5.val());
            if self.a_e5.val().any() {
                self.a_sig.next = self.a_sig.val() | self.hidden11.val();
            } else {
                self.a_exp.next = self.one8.val();
            }
            if self.b_e5.val().any() {
                self.b_sig.next = self.b_sig.val() | self.hidden11.val();
            } else {
                self.b_exp.next = self.one8.val();
            }
        }
        // Sign-magnitude bits order like the magnitudes in both formats.
        self.ccmp_lt_hi.d.next = self.s0_a.q.val().get_bits::<7>(8) < self.s0_b.q.val().get_bits::<7>(8);
        self.ccmp_eq_hi.d.next = self.s0_a.q.val().get_bits::<7>(8) == self.s0_b.q.val().get_bits::<7>(8);
        self.ccmp_lt_lo.d.next = self.s0_a.q.val().get_bits::<8>(0) < self.s0_b.q.val().get_bits::<8>(0);
        self.ccmp_a_sig.d.next = self.a_sig.val();
        self.ccmp_b_sig.d.next = self.b_sig.val();
        self.ccmp_a_exp.d.next = self.a_exp.val();
        self.ccmp_b_exp.d.next = self.b_exp.val();
        // Flags: 0 bf16, 1 a NaN, 2 b NaN, 3 a inf, 4 b inf, 5 a sign, 6 b sign.
        self.fl.next = self.zero7.val();
        if self.s0_bf16.q.val() {
            self.fl.next = self.fl.val() | self.fl_bf16.val();
        }
        if self.a_nan.val() {
            self.fl.next = self.fl.val() | self.fl_a_nan.val();
        }
        if self.b_nan.val() {
            self.fl.next = self.fl.val() | self.fl_b_nan.val();
        }
        if self.a_inf.val() {
            self.fl.next = self.fl.val() | self.fl_a_inf.val();
        }
        if self.b_inf.val() {
            self.fl.next = self.fl.val() | self.fl_b_inf.val();
        }
        if self.s0_a.q.val().get_bit(15) {
            self.fl.next = self.fl.val() | self.fl_a_sign.val();
        }
        if self.s0_b.q.val().get_bit(15) {
            self.fl.next = self.fl.val() | self.fl_b_sign.val();
        }
        self.ccmp_fl.d.next = self.fl.val();

        // ==========================================================================
        // Stage 1, segment B: swap (the larger magnitude first; on a tie `a` stays first),
        // exponent difference, special result, side band `sb`: 0 bf16, 1 special, 2 sign,
        // 3 sub (from segment F on: zero result), 4.. the special result.
        // ==========================================================================
        self.swap.next = self.ccmp_lt_hi.q.val() || (self.ccmp_eq_hi.q.val() && self.ccmp_lt_lo.q.val());
        // Exponent differences both ways (beside the swap decision): the low 4 bits are the
        // alignment shift, and a difference of 16 or more (`csh_far`) shifts everything out.
        self.dab.next = self.ccmp_a_exp.q.val() - self.ccmp_b_exp.q.val();
        self.dba.next = self.ccmp_b_exp.q.val() - self.ccmp_a_exp.q.val();
        self.csh_big_sig.d.next = self.ccmp_a_sig.q.val();
        self.csh_small_sig.d.next = self.ccmp_b_sig.q.val();
        self.csh_big_exp.d.next = self.ccmp_a_exp.q.val();
        self.csh_sh.d.next = self.dab.val().get_bits::<4>(0);
        self.csh_far.d.next = self.dab.val().get_bits::<4>(4).any();
        self.big_sign.next = self.ccmp_fl.q.val().get_bit(5);
        if self.swap.val() {
            self.csh_big_sig.d.next = self.ccmp_b_sig.q.val();
            self.csh_small_sig.d.next = self.ccmp_a_sig.q.val();
            self.csh_big_exp.d.next = self.ccmp_b_exp.q.val();
            self.csh_sh.d.next = self.dba.val().get_bits::<4>(0);
            self.csh_far.d.next = self.dba.val().get_bits::<4>(4).any();
            self.big_sign.next = self.ccmp_fl.q.val().get_bit(6);
        }
        // Special results: a NaN input or inf + -inf gives 7fff; else an infinity passes.
        self.inf_mag.next = self.f16_inf.val();
        if self.ccmp_fl.q.val().get_bit(0) {
            self.inf_mag.next = self.bf16_inf.val();
        }
        self.special_val.next = self.inf_mag.val();
        if (self.ccmp_fl.q.val().get_bit(3) && self.ccmp_fl.q.val().get_bit(5))
            || (!self.ccmp_fl.q.val().get_bit(3) && self.ccmp_fl.q.val().get_bit(6))
        {
            self.special_val.next = self.inf_mag.val() | self.sign16.val();
        }
        if self.ccmp_fl.q.val().get_bit(1)
            || self.ccmp_fl.q.val().get_bit(2)
            || (self.ccmp_fl.q.val().get_bit(3)
                && self.ccmp_fl.q.val().get_bit(4)
                && (self.ccmp_fl.q.val().get_bit(5) != self.ccmp_fl.q.val().get_bit(6)))
        {
            self.special_val.next = self.nan16.val();
        }
        self.sb_b.next = bit_cast::<20, 16>(self.special_val.val()) << 4;
        if self.ccmp_fl.q.val().get_bit(0) {
            self.sb_b.next = self.sb_b.val() | self.sb_bf16.val();
        }
        if self.ccmp_fl.q.val().get_bits::<4>(1).any() {
            self.sb_b.next = self.sb_b.val() | self.sb_special.val();
        }
        if self.big_sign.val() {
            self.sb_b.next = self.sb_b.val() | self.sb_sign.val();
        }
        if self.ccmp_fl.q.val().get_bit(5) != self.ccmp_fl.q.val().get_bit(6) {
            self.sb_b.next = self.sb_b.val() | self.sb_sub.val();
        }
        self.csh_sb.d.next = self.sb_b.val();

        // ==========================================================================
        // Stage 1, segment C (ends in s1_): alignment with guard, round and sticky (bit 0);
        // the normalisation limit as a marker bit for the leading-zero count.
        // ==========================================================================
        self.small_ext.next = bit_cast::<14, 11>(self.csh_small_sig.q.val()) << 3;
        self.small_shifted.next = self.small_ext.val() >> self.csh_sh.q.val();
        self.small_lost.next = (self.small_ext.val() & !(self.ones14.val() << self.csh_sh.q.val())).any();
        if self.csh_far.q.val() {
            self.small_shifted.next = self.zero14.val();
            self.small_lost.next = self.small_ext.val().any();
        }
        self.s1_small.d.next = self.small_shifted.val();
        if self.small_lost.val() {
            self.s1_small.d.next = self.small_shifted.val() | self.one14.val();
        }
        self.s1_big.d.next = bit_cast::<14, 11>(self.csh_big_sig.q.val()) << 3;
        self.s1_exp.d.next = self.csh_big_exp.q.val();
        // The left shift of normalisation stops at exponent 1 (a subnormal result): at most
        // exp - 1 places. Bit 15 - exp of the count's input (bit 13 - (exp - 1) of the
        // significand, bit 0 being the count's pad) makes the count stop there.
        self.s1_mark.d.next = (self.mark_top.val() >> self.csh_big_exp.q.val()) << 1;
        self.s1_sb.d.next = self.csh_sb.q.val();

        // ==========================================================================
        // Stage 2, segment D (from s1_): add or subtract (big + ~small + 1) in one carry
        // chain with the carry-in as an extra low bit.
        // ==========================================================================
        self.small_inv.next = bit_cast::<15, 14>(self.s1_small.q.val());
        if self.s1_sb.q.val().get_bit(3) {
            self.small_inv.next = bit_cast::<15, 14>(self.s1_small.q.val()) ^ self.ones15.val();
        }
        self.lo_a.next = (bit_cast::<16, 14>(self.s1_big.q.val()) << 1) | self.one16.val();
        self.lo_b.next = bit_cast::<16, 15>(self.small_inv.val()) << 1;
        if self.s1_sb.q.val().get_bit(3) {
            self.lo_b.next = self.lo_b.val() | self.one16.val();
        }
        self.lo_t.next = self.lo_a.val() + self.lo_b.val();
        self.csum_sum.d.next = self.lo_t.val().get_bits::<15>(1);
        // The exponent after a carry (+1) or the coarse normalising shifts (-4, -8, -12).
        self.csum_exp.d.next = self.s1_exp.q.val();
        self.csum_e_p1.d.next = self.s1_exp.q.val() + self.one8.val();
        self.csum_e_m4.d.next = self.s1_exp.q.val() - self.lz4.val();
        self.csum_e_m8.d.next = self.s1_exp.q.val() - self.lz8.val();
        self.csum_e_m12.d.next = self.s1_exp.q.val() - self.lz12.val();
        self.csum_mark.d.next = self.s1_mark.q.val();
        self.csum_sb.d.next = self.s1_sb.q.val();

        // ==========================================================================
        // Stage 2, segment F: zero result; the first two decisions of the leading-zero count
        // of the low 14 bits (with the limit marker and a pad one, which stops the count at
        // 14) and the coarse normalising shift by 8 and 4; a carry out instead takes one
        // right shift (keeping the sticky) and exponent + 1.
        // ==========================================================================
        self.lz_t.next = (bit_cast::<15, 14>(self.csum_sum.q.val().get_bits::<14>(0)) << 1)
            | self.lz_pad.val()
            | self.csum_mark.q.val();
        // The decisions from the unshifted bits in parallel (h_k: nibble k of the input is
        // zero), then one 4:1 selection of the shifted significand, the count's next three
        // bits (the last one is not needed: the pad stops the count) and the exponent
        // (precomputed in segment D).
        self.h3.next = !self.lz_t.val().get_bits::<4>(11).any();
        self.h2.next = !self.lz_t.val().get_bits::<4>(7).any();
        self.h1.next = !self.lz_t.val().get_bits::<4>(3).any();
        if self.csum_sum.q.val().get_bit(14) {
            self.low_c.next = self.csum_sum.q.val().get_bits::<14>(1);
            if self.csum_sum.q.val().get_bit(0) {
                self.low_c.next = self.csum_sum.q.val().get_bits::<14>(1) | self.one14.val();
            }
            self.t3.next = self.t3_carry.val();
            self.e_c.next = self.csum_e_p1.q.val();
        } else {
            self.low_c.next = self.csum_sum.q.val().get_bits::<14>(0);
            self.t3.next = self.lz_t.val().get_bits::<3>(12);
            self.e_c.next = self.csum_exp.q.val();
            if self.h3.val() {
                self.low_c.next = self.csum_sum.q.val().get_bits::<14>(0) << 4;
                self.t3.next = self.lz_t.val().get_bits::<3>(8);
                self.e_c.next = self.csum_e_m4.q.val();
                if self.h2.val() {
                    self.low_c.next = self.csum_sum.q.val().get_bits::<14>(0) << 8;
                    self.t3.next = self.lz_t.val().get_bits::<3>(4);
                    self.e_c.next = self.csum_e_m8.q.val();
                    if self.h1.val() {
                        self.low_c.next = self.csum_sum.q.val().get_bits::<14>(0) << 12;
                        self.t3.next = self.lz_t.val().get_bits::<3>(0);
                        self.e_c.next = self.csum_e_m12.q.val();
                    }
                }
            }
        }
        // An exact zero of a subtraction is +0 (round to nearest); of an addition it keeps
        // the common sign. Bit 3 turns from `sub` into `zero`.
        self.sb_f.next = self.csum_sb.q.val() & !self.sb_sub.val();
        if !self.csum_sum.q.val().any() {
            self.sb_f.next = self.sb_f.val() | self.sb_sub.val();
            if self.csum_sb.q.val().get_bit(3) {
                self.sb_f.next = self.sb_f.val() & !self.sb_sign.val();
            }
        }
        self.cnrm_low.d.next = self.low_c.val();
        self.cnrm_t3.d.next = self.t3.val();
        self.cnrm_exp.d.next = self.e_c.val();
        self.cnrm_sb.d.next = self.sb_f.val();

        // ==========================================================================
        // Stage 2, segment H (ends in s2_): the last two decisions of the count from the
        // coarse-shifted top bits and the fine shift by 2 and 1, exponent - count.
        // ==========================================================================
        self.d2.next = !self.cnrm_t3.q.val().get_bits::<2>(1).any();
        self.d1.next = !self.cnrm_t3.q.val().get_bit(2);
        if self.d2.val() {
            self.d1.next = !self.cnrm_t3.q.val().get_bit(0);
        }
        self.s2_norm.d.next = self.cnrm_low.q.val();
        self.s2_exp.d.next = self.cnrm_exp.q.val();
        if self.d2.val() && self.d1.val() {
            self.s2_norm.d.next = self.cnrm_low.q.val() << 3;
            self.s2_exp.d.next = self.cnrm_exp.q.val() - self.three8.val();
        }
        if self.d2.val() && !self.d1.val() {
            self.s2_norm.d.next = self.cnrm_low.q.val() << 2;
            self.s2_exp.d.next = self.cnrm_exp.q.val() - self.two8.val();
        }
        if !self.d2.val() && self.d1.val() {
            self.s2_norm.d.next = self.cnrm_low.q.val() << 1;
            self.s2_exp.d.next = self.cnrm_exp.q.val() - self.one8.val();
        }
        self.s2_sb.d.next = self.cnrm_sb.q.val();

        // ==========================================================================
        // Stage 3, segment I (from s2_): round to nearest even at the format's position
        // (f16: significand bits 13..3, guard 2, sticky 1..0; bf16: bits 13..6, guard 5,
        // sticky 4..0); the exponent field for the three values the significand's bits
        // above the fraction can take (subnormal, normal, rounding carry) with their
        // overflow flags, so that the pack only selects.
        // ==========================================================================
        // (Both formats' roundings, then the select: the format bit, one register shared by
        // every lane, drives one LUT level per bit here, not the increment's carry chain.)
        self.round_up.next = self.s2_norm.q.val().get_bit(2)
            && (self.s2_norm.q.val().get_bit(1) || self.s2_norm.q.val().get_bit(0) || self.s2_norm.q.val().get_bit(3));
        self.ru_bf.next = self.s2_norm.q.val().get_bit(5)
            && (self.s2_norm.q.val().get_bits::<5>(0).any() || self.s2_norm.q.val().get_bit(6));
        self.sig12.next = bit_cast::<12, 11>(self.s2_norm.q.val().get_bits::<11>(3));
        self.sig_bf.next = self.sig12.val();
        if self.round_up.val() {
            self.sig12.next = self.sig12.val() + self.one12.val();
        }
        if self.ru_bf.val() {
            self.sig_bf.next = self.sig_bf.val() + self.eight12.val();
        }
        self.crnd_sig.d.next = self.sig12.val();
        if self.s2_sb.q.val().get_bit(0) {
            self.crnd_sig.d.next = self.sig_bf.val();
        }
        self.crnd_ef0.d.next = self.s2_exp.q.val() - self.one8.val();
        self.crnd_ef1.d.next = self.s2_exp.q.val();
        self.crnd_ef2.d.next = self.s2_exp.q.val() + self.one8.val();
        // Overflow: field >= 31 (f16) or 255 (bf16).
        self.ov.next = self.zero3.val();
        if self.s2_sb.q.val().get_bit(0) {
            if self.s2_exp.q.val() >= self.e254.val() {
                self.ov.next = self.ov.val() | self.ov_2.val();
            }
            if self.s2_exp.q.val() >= self.e255.val() {
                self.ov.next = self.ov.val() | self.ov_1.val();
            }
        } else {
            if self.s2_exp.q.val() >= self.e30.val() {
                self.ov.next = self.ov.val() | self.ov_2.val();
            }
            if self.s2_exp.q.val() >= self.e31.val() {
                self.ov.next = self.ov.val() | self.ov_1.val();
            }
            if self.s2_exp.q.val() >= self.e32.val() {
                self.ov.next = self.ov.val() | self.ov_0.val();
            }
        }
        self.crnd_ov.d.next = self.ov.val();
        self.crnd_sb.d.next = self.s2_sb.q.val();

        // ==========================================================================
        // Stage 3, segment J (drives `sum`, or the output cut): pack, overflow, zero, sign,
        // specials.
        // ==========================================================================
        self.ef.next = self.crnd_ef0.q.val();
        self.ovf.next = self.crnd_ov.q.val().get_bit(0);
        if self.crnd_sig.q.val().get_bit(10) {
            self.ef.next = self.crnd_ef1.q.val();
            self.ovf.next = self.crnd_ov.q.val().get_bit(1);
        }
        if self.crnd_sig.q.val().get_bit(11) {
            self.ef.next = self.crnd_ef2.q.val();
            self.ovf.next = self.crnd_ov.q.val().get_bit(2);
        }
        self.mag.next = (bit_cast::<16, 8>(self.ef.val()) << 10) | bit_cast::<16, 10>(self.crnd_sig.q.val().get_bits::<10>(0));
        self.inf_out.next = self.f16_inf.val();
        if self.crnd_sb.q.val().get_bit(0) {
            self.mag.next = (bit_cast::<16, 8>(self.ef.val()) << 7) | bit_cast::<16, 7>(self.crnd_sig.q.val().get_bits::<7>(3));
            self.inf_out.next = self.bf16_inf.val();
        }
        if self.ovf.val() {
            self.mag.next = self.inf_out.val();
        }
        if self.crnd_sb.q.val().get_bit(3) {
            self.mag.next = self.zero16.val();
        }
        self.result.next = self.mag.val();
        if self.crnd_sb.q.val().get_bit(2) {
            self.result.next = self.mag.val() | self.sign16.val();
        }
        if self.crnd_sb.q.val().get_bit(1) {
            self.result.next = self.crnd_sb.q.val().get_bits::<16>(4);
        }
        self.cout_result.d.next = self.result.val();
        self.sum.next = self.cout_result.q.val();
    }
}
