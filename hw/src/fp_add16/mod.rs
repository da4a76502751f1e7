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
//!   lane (`base.rs`, its stages in `base_stages.rs`). Input registers `s0_`, stage 1 (unpack,
//!   specials, compare and swap, align), `s1_`, stage 2 (add, leading-zero count, normalise),
//!   `s2_`, stage 3 (round, pack) driving `sum`; f16 exponents are rebased to the bf16 bias
//!   (+112).
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
//!
//!   The segmented datapath's blocks (`deep.rs` wires them; each block starts with the cut or
//!   pipeline register in front of it):
//!
//! | block | file | segments |
//! | --- | --- | --- |
//! | `Classify` | `deep_unpack.rs` | A |
//! | `Swap` | `deep_unpack.rs` | `ccmp`, B |
//! | `Align` | `deep_add.rs` | `csh`, C |
//! | `Add` | `deep_add.rs` | `s1_`, D |
//! | `Normalise` | `deep_normalise.rs` | `csum`, F, `cnrm`, H |
//! | `Round` | `deep_round.rs` | `s2_`, I |
//! | `Pack` | `deep_round.rs` | `crnd`, J, `cout` |

#[cfg(doc)]
use crate::config::FP16_STAGES_MAX;
use crate::config::{Config, FP16_STAGES_MIN};
use base::Base16;
use deep::Deep16;
use rust_hdl::prelude::*;

mod base;
mod base_stages;
mod deep;
mod deep_add;
mod deep_normalise;
mod deep_round;
mod deep_unpack;

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

/// Whether the cuts of group `g` are registers in the segmented datapath with cut mask `mask`.
fn cut_on(mask: u32, g: Group) -> bool {
    mask >> (g as u32) & 1 == 1
}
