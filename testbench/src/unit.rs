//! The Verilated L2-slice unit (`hw::SliceUnit`) as a [`MemEngine`], and the driver that the
//! cosimulation, the atomic-counter test and `redunit bench` use.
//!
//! # Models and memory sizes
//!
//! The memory size is a constant inside the RTL (its range check), so one Verilated model
//! serves one size. `build.rs` verilates `hw::unit_verilog(65536)` ([`BUILT_MEM_BYTES`], the
//! unit's default configuration `hw::Config::unit_default`) into the binary. Any other size,
//! and any other configuration, is verilated on first use at run time: the Verilog, the shim
//! (`csrc/unit_shim.cpp` and the `csrc/harness.h` it includes, embedded in the binary) and the
//! Verilator runtime become a shared library cached under `target/redunit-unit/mem<N>-<hash>/`
//! (the hash covers the Verilog, the shim and its header, the flags and the Verilator version;
//! `REDUNIT_UNIT_CACHE` moves the cache). That needs Verilator and g++ at run time, takes tens
//! of seconds once ([`crate::unit_library`]), and is then loaded with `dlopen`.
//!
//! # Ports the testbench covers itself
//!
//! `req_addr` has 32 bits. A trace address at or above 2^32 never reaches the RTL: the engine
//! answers it as the memory contract does (misaligned if it is not a multiple of the access
//! size, else out-of-range; every supported memory is at most 4 GiB).

use std::collections::HashMap;
use std::ffi::{CStr, CString, c_char, c_int, c_void};
use std::fmt;
use std::path::{Path, PathBuf};
use std::ptr::NonNull;
use std::sync::{Mutex, OnceLock};

use anyhow::{Context, bail};
use sim::{Access, MemError, Request};

use crate::trace::{MemEngine, Outcome};
use crate::unit_library::build_library_from_verilog;

/// The memory size of the model linked into the binary.
pub const BUILT_MEM_BYTES: usize = parse_usize(env!("REDUNIT_UNIT_MEM_BYTES"));
/// Cycles of reset given to a new model.
pub const RESET_CYCLES: u64 = 4;
/// Cycles without any handshake, while requests are outstanding, after which the RTL is
/// declared stuck.
pub const TIMEOUT_CYCLES: u64 = 100_000;
/// A request's unloaded latency is measured from the cycle it is accepted to the cycle its
/// response is valid (taken at once: rsp_ready high).
pub const NO_CYCLE: u64 = u64::MAX;
/// `rsp_cycle` of a request dropped by a fault reset (`csrc/unit_shim.cpp`).
const DROPPED: u64 = u64::MAX - 1;

const fn parse_usize(s: &str) -> usize {
    let b = s.as_bytes();
    let mut i = 0;
    let mut v = 0usize;
    while i < b.len() {
        v = v * 10 + (b[i] - b'0') as usize;
        i += 1;
    }
    v
}

/// Mirrors `UnitRun` in `csrc/unit_shim.cpp`.
#[repr(C)]
struct UnitRun {
    n: u64,
    ops: *const u16,
    addrs: *const u32,
    data: *const u32,
    ids: *const u16,
    id_base: u64,
    drain: u64,
    timeout: u64,
    rsp_data: *mut u32,
    rsp_status: *mut u8,
    accept_cycle: *mut u64,
    rsp_cycle: *mut u64,
    issued: u64,
    responses: u64,
    err_code: u64,
    err_cycle: u64,
    err_id: u64,
}

/// Mirrors `UnitFaults` in `csrc/unit_shim.cpp` (see [`Faults`]).
#[repr(C)]
struct UnitFaults {
    n_droughts: u64,
    drought_at: *const u64,
    drought_len: *const u64,
    reset_mode: u64,
    reset_at: u64,
    reset_delay: u64,
    reset_len: u64,
    settle: u64,
    credit_stall_bit: u64,
    reset_cycle: u64,
    reset_flags: u64,
    dropped: u64,
    droughts: u64,
    drought_cycles: u64,
}

/// The shim's functions, from the linked model or from a run-time built library.
struct Api {
    new: unsafe extern "C" fn(*const c_char, u64) -> *mut c_void,
    free: unsafe extern "C" fn(*mut c_void),
    cycle: unsafe extern "C" fn(*mut c_void) -> u64,
    evals: unsafe extern "C" fn(*mut c_void) -> u64,
    idle: unsafe extern "C" fn(*mut c_void, u64),
    reset: unsafe extern "C" fn(*mut c_void, u64) -> u64,
    set_policy: unsafe extern "C" fn(*mut c_void, u64, u32, u32),
    set_dump_window: unsafe extern "C" fn(*mut c_void, u64, u64),
    cov: unsafe extern "C" fn(*mut c_void, *mut u64),
    run: unsafe extern "C" fn(*mut c_void, *mut UnitRun),
    run_faults: unsafe extern "C" fn(*mut c_void, *mut UnitRun, *mut UnitFaults),
}

mod linked {
    use super::*;
    unsafe extern "C" {
        pub fn redunit_unit_new(vcd: *const c_char, first_cycle: u64) -> *mut c_void;
        pub fn redunit_unit_free(h: *mut c_void);
        pub fn redunit_unit_cycle(h: *mut c_void) -> u64;
        pub fn redunit_unit_evals(h: *mut c_void) -> u64;
        pub fn redunit_unit_idle(h: *mut c_void, cycles: u64);
        pub fn redunit_unit_reset(h: *mut c_void, cycles: u64) -> u64;
        pub fn redunit_unit_set_policy(h: *mut c_void, seed: u64, rsp_ready_pct: u32, req_valid_pct: u32);
        pub fn redunit_unit_set_dump_window(h: *mut c_void, from: u64, to: u64);
        pub fn redunit_unit_cov(h: *mut c_void, out: *mut u64);
        pub fn redunit_unit_run(h: *mut c_void, r: *mut UnitRun);
        pub fn redunit_unit_run_faults(h: *mut c_void, r: *mut UnitRun, f: *mut UnitFaults);
    }
}

static LINKED: Api = Api {
    new: linked::redunit_unit_new,
    free: linked::redunit_unit_free,
    cycle: linked::redunit_unit_cycle,
    evals: linked::redunit_unit_evals,
    idle: linked::redunit_unit_idle,
    reset: linked::redunit_unit_reset,
    set_policy: linked::redunit_unit_set_policy,
    set_dump_window: linked::redunit_unit_set_dump_window,
    cov: linked::redunit_unit_cov,
    run: linked::redunit_unit_run,
    run_faults: linked::redunit_unit_run_faults,
};

unsafe extern "C" {
    fn dlopen(file: *const c_char, mode: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, name: *const c_char) -> *mut c_void;
    fn dlerror() -> *mut c_char;
}
const RTLD_NOW: c_int = 2;

fn dl_error() -> String {
    let e = unsafe { dlerror() };
    if e.is_null() { "unknown error".into() } else { unsafe { CStr::from_ptr(e) }.to_string_lossy().into_owned() }
}

#[allow(clippy::missing_transmute_annotations)] // each target type is the field's
fn load_library(path: &Path) -> anyhow::Result<&'static Api> {
    let c = CString::new(path.as_os_str().as_encoded_bytes())?;
    let h = unsafe { dlopen(c.as_ptr(), RTLD_NOW) };
    if h.is_null() {
        bail!("cannot load the unit model {}: {}", path.display(), dl_error());
    }
    let sym = |name: &str| -> anyhow::Result<*mut c_void> {
        let n = CString::new(name).unwrap();
        let p = unsafe { dlsym(h, n.as_ptr()) };
        if p.is_null() {
            bail!("{} has no symbol {name}: {}", path.display(), dl_error());
        }
        Ok(p)
    };
    // SAFETY: the library is built from the same shim source as the linked model.
    let api = unsafe {
        Api {
            new: std::mem::transmute::<*mut c_void, _>(sym("redunit_unit_new")?),
            free: std::mem::transmute::<*mut c_void, _>(sym("redunit_unit_free")?),
            cycle: std::mem::transmute::<*mut c_void, _>(sym("redunit_unit_cycle")?),
            evals: std::mem::transmute::<*mut c_void, _>(sym("redunit_unit_evals")?),
            idle: std::mem::transmute::<*mut c_void, _>(sym("redunit_unit_idle")?),
            reset: std::mem::transmute::<*mut c_void, _>(sym("redunit_unit_reset")?),
            set_policy: std::mem::transmute::<*mut c_void, _>(sym("redunit_unit_set_policy")?),
            set_dump_window: std::mem::transmute::<*mut c_void, _>(sym("redunit_unit_set_dump_window")?),
            cov: std::mem::transmute::<*mut c_void, _>(sym("redunit_unit_cov")?),
            run: std::mem::transmute::<*mut c_void, _>(sym("redunit_unit_run")?),
            run_faults: std::mem::transmute::<*mut c_void, _>(sym("redunit_unit_run_faults")?),
        }
    };
    // The library stays loaded for the life of the process.
    Ok(Box::leak(Box::new(api)))
}

fn api_for(mem_bytes: usize, cfg: &hw::Config) -> anyhow::Result<&'static Api> {
    if mem_bytes == BUILT_MEM_BYTES && *cfg == hw::Config::unit_default() {
        return Ok(&LINKED);
    }
    static LOADED: OnceLock<Mutex<HashMap<(usize, hw::Config), &'static Api>>> = OnceLock::new();
    let mut map = LOADED.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(a) = map.get(&(mem_bytes, *cfg)) {
        return Ok(a);
    }
    let lib = build_library_from_verilog(&hw::unit_verilog_with(mem_bytes, cfg), mem_bytes)?;
    let api = load_library(&lib)?;
    map.insert((mem_bytes, *cfg), api);
    Ok(api)
}

/// The RTL broke the request/response contract (as opposed to answering a wrong value).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitProtocolError {
    pub cycle: u64,
    pub msg: String,
}

impl fmt::Display for UnitProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the unit broke the request/response contract in cycle {}: {}", self.cycle, self.msg)
    }
}
impl std::error::Error for UnitProtocolError {}

/// One response, as taken from the port.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Response {
    pub status: u8,
    /// All 128 bits of `rsp_data`.
    pub data: u128,
    /// The cycle the request was accepted in.
    pub accept: u64,
    /// The cycle the response was taken in.
    pub cycle: u64,
}

impl Response {
    /// What the response means for `req`: the outcome, or why it is not one.
    pub fn outcome(&self, access: Access) -> Result<Outcome, String> {
        match self.status {
            0 => Ok(Ok(access.returns().then(|| self.data & mask(access.bytes())))),
            1 => Ok(Err(MemError::Misaligned)),
            2 => Ok(Err(MemError::OutOfRange)),
            s => Err(format!("rsp_status {s} is not a status")),
        }
    }
}

/// The low `bytes` bytes.
pub fn mask(bytes: usize) -> u128 {
    if bytes >= 16 { u128::MAX } else { (1u128 << (8 * bytes)) - 1 }
}

/// The outcome of a request that the 32-bit address port cannot carry (see the module doc).
pub fn wide_address_outcome(req: &Request) -> Outcome {
    if !req.addr.is_multiple_of(req.access.bytes() as u64) {
        Err(MemError::Misaligned)
    } else {
        Err(MemError::OutOfRange)
    }
}

/// The results of a batch: one entry per request; `None` for a request that was dropped by a
/// reset (or never issued).
#[derive(Clone, Debug, Default)]
pub struct Batch {
    pub responses: Vec<Option<Response>>,
    /// Requests issued (all, unless the RTL broke the contract).
    pub issued: usize,
}

/// How the reset that ends a faulted batch is triggered ([`RtlUnit::run_faults`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResetWhen {
    /// No reset: the batch drains.
    Never,
    /// `delay` cycles after request `at` is reached (every earlier one accepted).
    After { at: u64, delay: u64 },
    /// From request `at` on, rsp_ready low until the ordering queue is full (req_ready low),
    /// or `limit` cycles.
    QueueFull { at: u64, limit: u64 },
    /// From request `at` on, rsp_ready low until the response FIFO is full, or `limit` cycles.
    FifoFull { at: u64, limit: u64 },
}

/// The faults of one batch: rsp_ready droughts (`(request index, cycles)`, sorted by index:
/// rsp_ready low for that many cycles once that request is reached) and the reset that ends
/// the batch.
#[derive(Clone, Debug)]
pub struct Faults {
    pub droughts: Vec<(u64, u64)>,
    pub reset: ResetWhen,
    /// Cycles of reset.
    pub reset_len: u64,
    /// The FIFO counts as full at the reset once every response credit has been in use, with
    /// rsp_ready low, for this many cycles (more than the pipeline's latency: every issued
    /// request's response is in the FIFO then).
    pub settle: u64,
}

/// What the faults did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FaultOutcome {
    /// The first reset cycle, when the batch ended in a reset.
    pub reset_cycle: Option<u64>,
    /// The ordering queue was full (req_ready low) in the cycle before the reset.
    pub queue_full: bool,
    /// The response FIFO was full at the reset.
    pub fifo_full: bool,
    /// Indices (in the batch) of the requests in flight at the reset: dropped, unanswered.
    pub dropped: Vec<usize>,
    /// Droughts started, and the cycles they held rsp_ready low.
    pub droughts: u64,
    pub drought_cycles: u64,
}

/// One Verilated unit with its own simulation context.
pub struct RtlUnit {
    api: &'static Api,
    h: NonNull<c_void>,
    mem_bytes: usize,
    vcd: Option<PathBuf>,
    /// The pipeline shape (the stages the viewer set-ups beside a VCD list).
    shape: hw::slice_unit::Shape,
    ops: Vec<u16>,
    addrs: Vec<u32>,
    data: Vec<u32>,
    ids: Vec<u16>,
    rsp_data: Vec<u32>,
    rsp_status: Vec<u8>,
    accept: Vec<u64>,
    rsp_cycle: Vec<u64>,
    /// Requests handed to the RTL so far (the default id base).
    sent: u64,
}

// The handle is only touched through `&mut self`; the model has its own VerilatedContext.
unsafe impl Send for RtlUnit {}

impl RtlUnit {
    /// The plain (untraced) model with `mem_bytes` of memory, reset.
    pub fn new(mem_bytes: usize) -> anyhow::Result<Self> {
        Self::open(mem_bytes, None, 0)
    }

    /// The traced model writing a VCD to `path` (parent folders are created), reset; its
    /// first cycle is `first_cycle`.
    pub fn with_vcd(mem_bytes: usize, path: &Path, first_cycle: u64) -> anyhow::Result<Self> {
        Self::open(mem_bytes, Some(path), first_cycle)
    }

    /// The plain model of a library from [`build_library_from_verilog`] (whose unit has
    /// `mem_bytes` of memory), reset.
    pub fn from_library(lib: &Path, mem_bytes: usize) -> anyhow::Result<Self> {
        Self::open_api(load_library(lib)?, mem_bytes, None, 0, &hw::Config::unit_default())
    }

    /// The unit built with the pipeline depths of `cfg` (other than the default ones: verilated
    /// at run time, once, like other memory sizes), with a VCD when `vcd` names one, reset.
    pub fn with_config(mem_bytes: usize, cfg: &hw::Config, vcd: Option<&Path>) -> anyhow::Result<Self> {
        if let Err(e) = cfg.validate() {
            bail!("{e}");
        }
        Self::open_cfg(mem_bytes, cfg, vcd, 0)
    }

    fn open(mem_bytes: usize, vcd: Option<&Path>, first_cycle: u64) -> anyhow::Result<Self> {
        Self::open_cfg(mem_bytes, &hw::Config::unit_default(), vcd, first_cycle)
    }

    fn open_cfg(mem_bytes: usize, cfg: &hw::Config, vcd: Option<&Path>, first_cycle: u64) -> anyhow::Result<Self> {
        if mem_bytes == 0 || !mem_bytes.is_multiple_of(16) || mem_bytes as u64 > 1 << 32 {
            bail!("memory size {mem_bytes}: the unit's memory is a positive multiple of 16 bytes, at most 4 GiB");
        }
        Self::open_api(api_for(mem_bytes, cfg)?, mem_bytes, vcd, first_cycle, cfg)
    }

    fn open_api(
        api: &'static Api,
        mem_bytes: usize,
        vcd: Option<&Path>,
        first_cycle: u64,
        cfg: &hw::Config,
    ) -> anyhow::Result<Self> {
        let h = match vcd {
            None => unsafe { (api.new)(std::ptr::null(), first_cycle) },
            Some(path) => {
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    std::fs::create_dir_all(dir)
                        .with_context(|| format!("cannot create the folder {}", dir.display()))?;
                }
                let c = CString::new(path.as_os_str().as_encoded_bytes())
                    .with_context(|| format!("the VCD path {} contains a NUL byte", path.display()))?;
                unsafe { (api.new)(c.as_ptr(), first_cycle) }
            }
        };
        let h = match (NonNull::new(h), vcd) {
            (Some(h), _) => h,
            (None, Some(p)) => bail!("cannot open the VCD file {} for writing", p.display()),
            (None, None) => bail!("cannot create the Verilated unit"),
        };
        let mut u = Self {
            api,
            h,
            mem_bytes,
            vcd: vcd.map(Path::to_path_buf),
            shape: hw::slice_unit::shape(cfg),
            ops: Vec::new(),
            addrs: Vec::new(),
            data: Vec::new(),
            ids: Vec::new(),
            rsp_data: Vec::new(),
            rsp_status: Vec::new(),
            accept: Vec::new(),
            rsp_cycle: Vec::new(),
            sent: 0,
        };
        u.reset(RESET_CYCLES);
        Ok(u)
    }

    pub fn mem_bytes(&self) -> usize {
        self.mem_bytes
    }

    pub fn vcd_path(&self) -> Option<&Path> {
        self.vcd.as_deref()
    }

    /// The current cycle.
    pub fn cycle(&self) -> u64 {
        unsafe { (self.api.cycle)(self.h.as_ptr()) }
    }

    /// The model's evaluations so far: two per cycle, or one where the shim clocks a cycle
    /// with its rising edge alone.
    pub fn evaluations(&self) -> u64 {
        unsafe { (self.api.evals)(self.h.as_ptr()) }
    }

    /// Clocks `cycles` cycles with no request and rsp_ready low.
    pub fn idle(&mut self, cycles: u64) {
        unsafe { (self.api.idle)(self.h.as_ptr(), cycles) }
    }

    /// Holds reset for `cycles` cycles (req_valid and rsp_ready low); returns the number of
    /// requests that were in flight and are dropped.
    pub fn reset(&mut self, cycles: u64) -> u64 {
        unsafe { (self.api.reset)(self.h.as_ptr(), cycles) }
    }

    /// From now on rsp_ready is high in `rsp_ready_pct`% of the cycles and a pending request
    /// is offered (req_valid) in `req_valid_pct`%, drawn from `seed`; 100 and 100 (the
    /// default) is full speed.
    pub fn set_policy(&mut self, seed: u64, rsp_ready_pct: u32, req_valid_pct: u32) {
        unsafe { (self.api.set_policy)(self.h.as_ptr(), seed, rsp_ready_pct.min(100), req_valid_pct.min(100)) }
    }

    /// Dumps only cycles `from..=to` to the VCD (traced model).
    pub fn set_dump_window(&mut self, from: u64, to: u64) {
        unsafe { (self.api.set_dump_window)(self.h.as_ptr(), from, to) }
    }

    /// How many cycles each `cov` bit was high, since the model was made.
    pub fn cov_counts(&self) -> [u64; hw::slice_unit::COV_WIDTH] {
        const { assert!(hw::slice_unit::COV_WIDTH <= 32, "the shim counts the 32 bits a cov port can have") };
        let mut all = [0u64; 32];
        unsafe { (self.api.cov)(self.h.as_ptr(), all.as_mut_ptr()) };
        std::array::from_fn(|b| all[b])
    }

    /// Drives `reqs` in order (each must have an address below 2^32) with ids
    /// `(id_base + i) mod 2^16`, or `ids` when given. With `drain`, clocks until every
    /// response is in; without, returns once all are issued (then [`reset`](Self::reset)
    /// drops what is in flight). A broken contract is an error that downcasts to
    /// [`UnitProtocolError`].
    pub fn run(&mut self, reqs: &[Request], id_base: u64, ids: Option<&[u16]>, drain: bool) -> anyhow::Result<Batch> {
        self.run_inner(reqs, id_base, ids, drain, None)
    }

    /// Drives `reqs` with ids `(id_base + i) mod 2^16` under `faults`: the batch drains, or
    /// ends with the reset (then [`Batch::issued`] says how far it got). The dropped requests
    /// have no response in the batch and are listed in the outcome.
    pub fn run_faults(
        &mut self,
        reqs: &[Request],
        id_base: u64,
        faults: &Faults,
    ) -> anyhow::Result<(Batch, FaultOutcome)> {
        let (at, len): (Vec<u64>, Vec<u64>) = faults.droughts.iter().copied().unzip();
        let (mode, reset_at, reset_delay) = match faults.reset {
            ResetWhen::Never => (0, 0, 0),
            ResetWhen::After { at, delay } => (1, at, delay),
            ResetWhen::QueueFull { at, limit } => (2, at, limit),
            ResetWhen::FifoFull { at, limit } => (3, at, limit),
        };
        let mut f = UnitFaults {
            n_droughts: at.len() as u64,
            drought_at: at.as_ptr(),
            drought_len: len.as_ptr(),
            reset_mode: mode,
            reset_at,
            reset_delay,
            reset_len: faults.reset_len,
            settle: faults.settle.max(1),
            credit_stall_bit: hw::slice_unit::COV_CREDIT_STALL as u64,
            reset_cycle: 0,
            reset_flags: 0,
            dropped: 0,
            droughts: 0,
            drought_cycles: 0,
        };
        let batch = self.run_inner(reqs, id_base, None, true, Some(&mut f))?;
        let dropped: Vec<usize> = (0..batch.issued).filter(|&i| self.rsp_cycle[i] == DROPPED).collect();
        debug_assert_eq!(dropped.len() as u64, f.dropped);
        let out = FaultOutcome {
            reset_cycle: (f.reset_cycle != NO_CYCLE).then_some(f.reset_cycle),
            queue_full: f.reset_flags & 1 != 0,
            fifo_full: f.reset_flags & 2 != 0,
            dropped,
            droughts: f.droughts,
            drought_cycles: f.drought_cycles,
        };
        Ok((batch, out))
    }

    fn run_inner(
        &mut self,
        reqs: &[Request],
        id_base: u64,
        ids: Option<&[u16]>,
        drain: bool,
        faults: Option<&mut UnitFaults>,
    ) -> anyhow::Result<Batch> {
        let n = reqs.len();
        self.ops.clear();
        self.addrs.clear();
        self.data.clear();
        for r in reqs {
            let addr =
                u32::try_from(r.addr).map_err(|_| anyhow::anyhow!("address {:#x} does not fit req_addr", r.addr))?;
            self.ops.push(r.access.code());
            self.addrs.push(addr);
            let v = r.value;
            self.data.extend_from_slice(&[v as u32, (v >> 32) as u32, (v >> 64) as u32, (v >> 96) as u32]);
        }
        self.ids.clear();
        if let Some(ids) = ids {
            assert_eq!(ids.len(), n);
            self.ids.extend_from_slice(ids);
        }
        self.rsp_data.clear();
        self.rsp_data.resize(4 * n, 0);
        self.rsp_status.clear();
        self.rsp_status.resize(n, 0);
        self.accept.clear();
        self.accept.resize(n, NO_CYCLE);
        self.rsp_cycle.clear();
        self.rsp_cycle.resize(n, NO_CYCLE);
        let mut r = UnitRun {
            n: n as u64,
            ops: self.ops.as_ptr(),
            addrs: self.addrs.as_ptr(),
            data: self.data.as_ptr(),
            ids: if ids.is_some() { self.ids.as_ptr() } else { std::ptr::null() },
            id_base,
            drain: drain as u64,
            timeout: TIMEOUT_CYCLES,
            rsp_data: self.rsp_data.as_mut_ptr(),
            rsp_status: self.rsp_status.as_mut_ptr(),
            accept_cycle: self.accept.as_mut_ptr(),
            rsp_cycle: self.rsp_cycle.as_mut_ptr(),
            issued: 0,
            responses: 0,
            err_code: 0,
            err_cycle: 0,
            err_id: 0,
        };
        match faults {
            None => unsafe { (self.api.run)(self.h.as_ptr(), &mut r) },
            Some(f) => unsafe { (self.api.run_faults)(self.h.as_ptr(), &mut r, f) },
        }
        self.sent += r.issued;
        match r.err_code {
            0 => {}
            1 => {
                return Err(UnitProtocolError {
                    cycle: r.err_cycle,
                    msg: format!(
                        "no request accepted and no response for {TIMEOUT_CYCLES} cycles with {} of {n} requests \
                         issued and {} answered",
                        r.issued, r.responses
                    ),
                }
                .into());
            }
            _ => {
                return Err(UnitProtocolError {
                    cycle: r.err_cycle,
                    msg: format!("a response with rsp_id {:#06x}, which is not in flight", r.err_id),
                }
                .into());
            }
        }
        let responses = (0..n)
            .map(|i| {
                (self.rsp_cycle[i] < DROPPED).then(|| {
                    let w = &self.rsp_data[4 * i..4 * i + 4];
                    Response {
                        status: self.rsp_status[i],
                        data: w[0] as u128 | (w[1] as u128) << 32 | (w[2] as u128) << 64 | (w[3] as u128) << 96,
                        accept: self.accept[i],
                        cycle: self.rsp_cycle[i],
                    }
                })
            })
            .collect();
        Ok(Batch { responses, issued: r.issued as usize })
    }

    /// Requests handed to the RTL so far.
    pub fn sent(&self) -> u64 {
        self.sent
    }
}

impl Drop for RtlUnit {
    /// Frees the model (closing its VCD), then writes the viewer set-ups beside the VCD
    /// ([`crate::gtkw`]); a failure there is reported and leaves the waveform as it is.
    fn drop(&mut self) {
        unsafe { (self.api.free)(self.h.as_ptr()) }
        if let Some(p) = &self.vcd {
            if let Err(e) = crate::gtkw::write_unit_viewer_files(p, &self.shape) {
                eprintln!("redunit: no GTKWave/Surfer set-up beside the waveform: {e}");
            }
        }
    }
}

/// Executes a whole trace through `unit` (full speed unless a policy was set): requests with
/// an address beyond the port are answered by the testbench (module doc), the others are
/// driven in trace order with id = trace index mod 2^16, and the responses are mapped back to
/// trace order.
pub fn execute_trace(unit: &mut RtlUnit, reqs: &[Request]) -> anyhow::Result<(Vec<Outcome>, Vec<Option<Response>>)> {
    let mut outcomes: Vec<Outcome> = vec![Ok(None); reqs.len()];
    let mut rsps = vec![None; reqs.len()];
    let mut sent = Vec::with_capacity(reqs.len());
    let mut ids = Vec::with_capacity(reqs.len());
    let mut index = Vec::with_capacity(reqs.len());
    for (i, r) in reqs.iter().enumerate() {
        if r.addr > u32::MAX as u64 {
            outcomes[i] = wide_address_outcome(r);
        } else {
            sent.push(*r);
            ids.push(i as u16);
            index.push(i);
        }
    }
    let batch = unit.run(&sent, 0, Some(&ids), true)?;
    for (k, rsp) in batch.responses.into_iter().enumerate() {
        let i = index[k];
        let rsp = rsp.ok_or_else(|| UnitProtocolError {
            cycle: unit.cycle(),
            msg: format!("request {i} ({} at {:#x}) got no response", reqs[i].access, reqs[i].addr),
        })?;
        outcomes[i] = rsp.outcome(reqs[i].access).map_err(|m| UnitProtocolError {
            cycle: rsp.cycle,
            msg: format!("request {i} ({}): {m}", reqs[i].access),
        })?;
        rsps[i] = Some(rsp);
    }
    Ok((outcomes, rsps))
}

impl MemEngine for RtlUnit {
    fn execute(&mut self, reqs: &[Request]) -> anyhow::Result<Vec<Outcome>> {
        Ok(execute_trace(self, reqs)?.0)
    }
}
