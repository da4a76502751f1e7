//! The Verilated reduction ALU (`hw::ReductionAlu`) as an [`AluEngine`].
//!
//! `build.rs` verilates the Verilog of `hw::alu_verilog()` into two models, one plain and one
//! with VCD tracing, and links them through the C++ shim in `csrc/alu_shim.cpp`. A batch of
//! operations crosses the FFI boundary in one call; the shim drives one operation per clock
//! cycle and drains the pipeline at the end of the batch.

use std::ffi::{CString, c_char, c_void};
use std::fmt;
use std::path::{Path, PathBuf};
use std::ptr::NonNull;

use anyhow::Context;

use crate::engine::{AluEngine, AluOp};

unsafe extern "C" {
    fn redunit_alu_new(latency: u32, vcd_path: *const c_char, first_cycle: u64) -> *mut c_void;
    fn redunit_alu_free(h: *mut c_void);
    fn redunit_alu_cycle(h: *mut c_void) -> u64;
    fn redunit_alu_idle(h: *mut c_void, cycles: u64);
    fn redunit_alu_run(
        h: *mut c_void,
        n: u64,
        forms: *const u16,
        old: *const u32,
        b: *const u32,
        out: *mut u32,
        out_forms: *mut u16,
        bad_index: *mut i64,
        bad_latency: *mut i64,
    ) -> i64;
    /// The split model (`csrc/alu_split_shim.cpp`): the other functions serve it too.
    fn redunit_alu_split_new(latency: u32, first_cycle: u64) -> *mut c_void;
}

/// The Verilator that built the linked model.
pub const VERILATOR_VERSION: &str = env!("REDUNIT_VERILATOR_VERSION");

/// Idle cycles clocked into a new model before the first operation, so that the pipeline
/// holds no leftover state.
pub const FLUSH_CYCLES: u64 = hw::ALU_LATENCY as u64 + 4;

/// Clock period in the waveforms, in ns (the VCD timescale is 1 ns).
pub const CLOCK_PERIOD_NS: u64 = 10;

/// The RTL broke the pipeline contract (a result missing, late, early or of the wrong form),
/// as opposed to computing a wrong value. `index` is the operation within the batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProtocolError {
    pub index: usize,
    pub msg: String,
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the RTL broke the pipeline contract at operation {} of the batch: {}", self.index, self.msg)
    }
}
impl std::error::Error for ProtocolError {}

/// One Verilated ALU with its own simulation context (so each thread can own one).
///
/// Two builds of the same Verilog: the ALU as one model ([`RtlAlu::new`], optionally traced),
/// and the *split* model ([`RtlAlu::split`], `build_split.rs`): the ALU's own logic and the
/// lanes of each unit kind as separate models, clocked only for the lanes an operation uses.
/// Same contract, same results (`tests/rtl_split.rs` compares them cycle by cycle); the split
/// model runs about 4.2 times faster and has no waveforms.
pub struct RtlAlu {
    h: NonNull<c_void>,
    split: bool,
    vcd: Option<PathBuf>,
    last_start: u64,
    forms: Vec<u16>,
    old: Vec<u32>,
    b: Vec<u32>,
    out: Vec<u32>,
    out_forms: Vec<u16>,
}

// The handle is only touched through `&mut self`; the model has its own VerilatedContext.
unsafe impl Send for RtlAlu {}

impl RtlAlu {
    /// The plain (untraced, fast) model, flushed.
    pub fn new() -> Self {
        let h = unsafe { redunit_alu_new(hw::ALU_LATENCY as u32, std::ptr::null(), 0) };
        let mut alu = Self::from_handle(NonNull::new(h).expect("creating the Verilated ALU"), None);
        alu.idle(FLUSH_CYCLES);
        alu
    }

    /// The split model (untraced), flushed.
    pub fn split() -> Self {
        let h = unsafe { redunit_alu_split_new(hw::ALU_LATENCY as u32, 0) };
        let mut alu = Self::from_handle(NonNull::new(h).expect("creating the split Verilated ALU"), None);
        alu.split = true;
        alu.idle(FLUSH_CYCLES);
        alu
    }

    /// Whether this is the split model.
    pub fn is_split(&self) -> bool {
        self.split
    }

    /// The traced model writing a VCD of everything it runs to `path` (parent folders are
    /// created). The flush cycles start at `first_cycle`, so the first operation is driven in
    /// cycle `first_cycle + FLUSH_CYCLES`, at `10 * that` ns in the waveform.
    pub fn with_vcd(path: &Path, first_cycle: u64) -> anyhow::Result<Self> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).with_context(|| format!("cannot create the folder {}", dir.display()))?;
        }
        let c = CString::new(path.as_os_str().as_encoded_bytes())
            .with_context(|| format!("the VCD path {} contains a NUL byte", path.display()))?;
        let h = unsafe { redunit_alu_new(hw::ALU_LATENCY as u32, c.as_ptr(), first_cycle) };
        let h = NonNull::new(h).with_context(|| format!("cannot open the VCD file {} for writing", path.display()))?;
        let mut alu = Self::from_handle(h, Some(path.to_path_buf()));
        alu.idle(FLUSH_CYCLES);
        Ok(alu)
    }

    fn from_handle(h: NonNull<c_void>, vcd: Option<PathBuf>) -> Self {
        Self {
            h,
            split: false,
            vcd,
            last_start: 0,
            forms: Vec::new(),
            old: Vec::new(),
            b: Vec::new(),
            out: Vec::new(),
            out_forms: Vec::new(),
        }
    }

    /// Where the waveform goes, for a traced model.
    pub fn vcd_path(&self) -> Option<&Path> {
        self.vcd.as_deref()
    }

    /// The current clock cycle (the next operation is driven in this cycle).
    pub fn cycle(&self) -> u64 {
        unsafe { redunit_alu_cycle(self.h.as_ptr()) }
    }

    /// The cycle in which the first operation of the last batch was driven; operation `i` of
    /// that batch was driven in `last_batch_start() + i`.
    pub fn last_batch_start(&self) -> u64 {
        self.last_start
    }

    /// Clocks `cycles` cycles with no operation.
    pub fn idle(&mut self, cycles: u64) {
        unsafe { redunit_alu_idle(self.h.as_ptr(), cycles) }
    }

    /// Runs `ops` one per cycle and appends their results to `out`. A broken pipeline contract
    /// is an error that downcasts to [`ProtocolError`].
    pub fn run(&mut self, ops: &[AluOp], out: &mut Vec<u128>) -> anyhow::Result<()> {
        let n = ops.len();
        if n == 0 {
            return Ok(());
        }
        // (Sized first and written by index, and the forms compared as slices below: together
        // 169 → 166 ns an operation for the split model, dev-2c.)
        self.forms.resize(n, 0);
        self.old.resize(4 * n, 0);
        self.b.resize(4 * n, 0);
        for (i, op) in ops.iter().enumerate() {
            self.forms[i] = op.form.code();
            self.old[4 * i..4 * i + 4].copy_from_slice(&words(op.old));
            self.b[4 * i..4 * i + 4].copy_from_slice(&words(op.b));
        }
        self.out.resize(4 * n, 0);
        self.out_forms.resize(n, 0);
        self.last_start = self.cycle();
        let (mut bad_index, mut bad_latency) = (-1i64, 0i64);
        let got = unsafe {
            redunit_alu_run(
                self.h.as_ptr(),
                n as u64,
                self.forms.as_ptr(),
                self.old.as_ptr(),
                self.b.as_ptr(),
                self.out.as_mut_ptr(),
                self.out_forms.as_mut_ptr(),
                &mut bad_index,
                &mut bad_latency,
            )
        } as usize;
        let lat = hw::ALU_LATENCY;
        if got < n {
            return Err(ProtocolError {
                index: got,
                msg: format!(
                    "{n} operations went in but only {got} results came out within {} cycles of the last one \
                     (hw::ALU_LATENCY = {lat}; is out_valid driven?)",
                    lat + 64
                ),
            }
            .into());
        }
        if bad_index >= 0 {
            return Err(ProtocolError {
                index: bad_index as usize,
                msg: format!("its result came out after {bad_latency} cycles, but hw::ALU_LATENCY = {lat}"),
            }
            .into());
        }
        if got > n {
            return Err(ProtocolError {
                index: n - 1,
                msg: format!("{n} operations went in but out_valid was high {got} times"),
            }
            .into());
        }
        // (The codes that went in, compared as slices: the first difference is looked for only
        // when there is one.)
        if self.out_forms != self.forms {
            let (i, (op, &f)) = ops
                .iter()
                .zip(&self.out_forms)
                .enumerate()
                .find(|(_, (op, f))| **f != op.form.code())
                .expect("a difference");
            return Err(ProtocolError {
                index: i,
                msg: format!(
                    "out_form is {f:#05x} ({}), but the operation was {} ({:#05x})",
                    sim::Form::from_code(f).map_or("not a legal form".to_string(), |f| f.to_string()),
                    op.form,
                    op.form.code()
                ),
            }
            .into());
        }
        out.extend(
            self.out
                .chunks_exact(4)
                .map(|w| w[0] as u128 | (w[1] as u128) << 32 | (w[2] as u128) << 64 | (w[3] as u128) << 96),
        );
        Ok(())
    }
}

impl Default for RtlAlu {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for RtlAlu {
    fn drop(&mut self) {
        unsafe { redunit_alu_free(self.h.as_ptr()) }
    }
}

impl AluEngine for RtlAlu {
    fn execute(&mut self, ops: &[AluOp], out: &mut Vec<u128>) -> anyhow::Result<()> {
        self.run(ops, out)
    }
}

#[inline(always)]
fn words(v: u128) -> [u32; 4] {
    [v as u32, (v >> 32) as u32, (v >> 64) as u32, (v >> 96) as u32]
}

/// Writes a VCD of `ops` run through a traced model, timed so that `ops[0]` is driven in
/// cycle `first_op_cycle` (when that is at least [`FLUSH_CYCLES`]). Returns the cycle of
/// `ops[0]` in the waveform. Mismatches and protocol errors in the window are not reported:
/// the caller already knows them.
pub fn trace_window(path: &Path, ops: &[AluOp], first_op_cycle: u64) -> anyhow::Result<u64> {
    let mut alu = RtlAlu::with_vcd(path, first_op_cycle.saturating_sub(FLUSH_CYCLES))?;
    let start = alu.cycle();
    let mut out = Vec::with_capacity(ops.len());
    let _ = alu.run(ops, &mut out);
    alu.idle(2);
    drop(alu);
    Ok(start)
}
