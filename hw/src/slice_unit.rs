//! The L2-slice unit: request and response ports, memory, ordering queue, ALUs.
//!
//! The ports, the constants and [`unit_verilog`] are the contract with the testbench.
//!
//! # Microarchitecture
//!
//! ```text
//!  req ─► s0 accept ─► OrderingQueue (8) ─► issue ─► s1 ─► s2 ─► s3 ─► s4 ─► ResponseFifo (8) ─► rsp
//!         decode,        order per line,    RAM read  old    int    (ALU)  ALU out,
//!         check          overtake           address   value  result        write back,
//!                                                      ALUs   merged        response
//!                                                      in                   s5: written line
//! ```
//!
//! - **s0 accept** (combinational from the request port into the queue registers): decodes
//!   the operation ([`sim::memory::req_encoding`], [`sim::form::encoding`]), its size (the
//!   whole vector for vector forms), alignment and range. Error requests enter the queue
//!   unordered: they never read or write memory and only carry their status to the response.
//! - **[`OrderingQueue`]**: issues the oldest *eligible* entry each cycle: no older entry to
//!   the same 16-byte line waits, and the line is not a *hazard line* (an f16/bf16/f32/f64
//!   operation in s1 or s2, whose result does not exist yet). Requests to other lines
//!   overtake waiting ones. The issued line goes straight to the RAM read address. The
//!   unit marks FP requests `push_late` at the push, and the queue itself holds their line
//!   for [`QUEUE_HAZARD_CYCLES`] = 2 cycles after their issue (exactly the cycles the op is
//!   in s1 and s2), so no line compare against the pipeline stages sits in the issue path.
//! - **s1**: the RAM line arrives; the *old line* is the youngest in-flight version of the
//!   line (forwarding, below) or the RAM data. The old value (`old line >> 8*offset`) feeds
//!   both ALUs; a store merges its data here; the response data (old value masked to the
//!   access size, for `ld`/`atom`) is fixed here.
//! - **s2**: the integer result ([`IntAlu`], latency 1) is merged into the line.
//!   A merge has no shifter: the result is replicated across the line by its access size (a
//!   4-byte result in each 4-byte slot, ..: `sp_rep`) and the request's byte mask (`s*_wmask`)
//!   keeps the accessed bytes, which the alignment rule puts in the right slot.
//! - **s3**: carries the line.
//! - **s4**: the FP result ([`ReductionAlu`], latency [`ALU_LATENCY`] = 3) is merged; the
//!   new line is written to the RAM (not for `ld` and errors) and the response enters the
//!   [`ResponseFifo`].
//! - **s5**: the line written in the previous cycle (the RAM reads the old content when a
//!   read and a write of one line meet, so a request issued in the write cycle forwards it).
//!
//! # Forwarding (like SiFive's inclusive-cache `SourceD` for its L2 atomics)
//! The request in s1 takes its old line from the youngest older request to the same line
//! still in the pipeline: s2 (the integer result, straight from `IntAlu`'s register), s3,
//! s4 (straight from `ReductionAlu`'s output: FP result into the next FP op's ALU input),
//! s5; otherwise from the RAM. Integer/bitwise ops, `ld` and `st` have their new line from
//! s2 on, so dependent ones issue back to back (1 per cycle). FP ops have it only at s4, so
//! the queue holds a dependent request while an FP op to its line is in s1 or s2: dependent
//! FP ops issue every [`ALU_LATENCY`] cycles.
//!
//! # Why two integer ALUs
//! [`ReductionAlu`] contains an [`IntAlu`] too, but delays its result to the common latency
//! of 3 and exposes only the delayed result. A dependent integer op one cycle behind needs
//! the result after one cycle, so the unit instantiates its own [`IntAlu`] for the integer
//! and bitwise forms (result in s2, forwarded to s1) and uses [`ReductionAlu`]'s output only
//! for the FP forms (in s4). The copy inside [`ReductionAlu`] stays in the netlist (the
//! ALU's output select cannot know that the unit ignores integer results there): the cost
//! is one 64-bit integer ALU and its two delay registers. Removing it would need a port on
//! [`ReductionAlu`] for its stage-1 integer result.
//!
//! # Pipelines ([`Config`], [`shape`])
//! The description above is the shallow pipeline (`Config::default()`, the most operations
//! per cycle; the unit's default configuration is the registered one below,
//! `Config::unit_default()`). The stages after s1 follow the ALU's depth: with ALU latency `L`
//! and integer latency `Li`, the integer result merges in s(1+Li) and the FP result in
//! s(1+L), the write stage. The queue's hazard windows are `Li - 1` cycles for integer/bitwise
//! forms and `L - 1` for FP forms (the shallow pipeline: 0 and 2), so a dependent request
//! reaches s1 exactly when its producer's result is being merged, and takes the merged line
//! straight from the merge logic. That forwarding path (adder output → merge → forwarding
//! select → operand extract → ALU input) is a whole cycle of logic after the adder's own last
//! stage.
//!
//! The *registered pipeline* (`Config::unit_regs`, part of `Config::fastest_clock`) cuts it:
//! ```text
//!  ac ─► queue ─► sc ─► si ─► sr ─► s1 ─────► s1b ─► s2 .. ─► result reg ─► merge ─► write ─► FIFO (32)
//!  (req.  (reg.    fwd.  RAM   RAM   RAM data,  old value,      (ALU, L)       (int/FP)  RAM write,
//!  reg.)   push)   cmp.  addr  read  forward    ALU inputs,                              response,
//!                                    (AND-OR    store merge                              forwarded
//!                                    of regs)
//! ```
//! - **ac**: the accepted request, decoded, is registered before the queue's push (`ac_*`;
//!   it takes the port's request while empty or moving into the queue, so `req_ready` is
//!   `!ac_valid || push_ready`): the queue's line compares start from registers, not from
//!   the port's address and the decode behind it.
//! - **Queue**: a registered push ([`OrderingQueue::with_registered_push`]): the pushed entry
//!   keeps its raw line matches and applies the issue of its push cycle one cycle later, so the
//!   request's decode and the queue's pick never meet in one cycle (a request waits at least
//!   one cycle in the queue). Its issue outputs leave a cycle after the pick, from the
//!   issued entry's slot (which no push takes for two cycles), so the pick drives registers
//!   only; the request credit count then lags by up to one issue and allows one place
//!   less.
//! - **sc** registers the issued request and compares its line with the ops that will be
//!   three stages further when it reaches s1, into a one-hot forwarding select (`fsel_cq`, one per word).
//! - **si** registers sc's request; the RAM address comes from there (the pick does not
//!   drive the block RAMs' address pins). The forwarding select is copied, with no logic
//!   between, into one register per 32-bit quarter of sr's select (`fsel_q`, replicas that
//!   placement puts by their quarter) and one per word for s1 (`fsel_rq`, copied in sr into
//!   per-quarter replicas `fsel_s`), and the op's own word's (`fsel_r`, for the integer
//!   loop): the select's fan-out to 128 bits and its compares are in different cycles.
//! - **sr**: the RAM is read through an output register (two cycles, [`LineMemory`] with
//!   `with_output_register`; in the ECP5 flow the block RAMs' own output register, so the
//!   RAM's clock-to-output starts no path). Meanwhile sr selects the forwarding sources whose
//!   line in s1 is in a register now (a source's stage before it, when nothing merges between:
//!   all but s2 and the stages right after the integer and FP merges) into two registers
//!   (`fpre`), so no select spans all the in-flight lines.
//! - **s1** only selects among registers (the RAM output, `fpre`, the three other sources) and
//!   registers the old line; the RAM's data joins last, in one LUT per bit after the other
//!   sources' select ([`RamForwardMux`]); **s1b** extracts the old value, feeds the ALUs and
//!   merges a store.
//!   The FP ALU learns s1b's operation a cycle ahead, from s1 (`pre_valid`, `pre_form`:
//!   [`ReductionAlu::with_early_hold`]), so its units' operand isolation and output select
//!   come from registers (`pre_form`: s1's ALU form, a register decoded from sr's payload,
//!   `pre_form_r`; s1b's is that register a cycle later, `pre_form_rr`).
//! - The integer and FP results are registered (`y_r`, `out_r`) before they merge into the
//!   line, and the merged line is registered before anything reads it: forwarding and the
//!   write both start from registers.
//! - Hazard windows `Li + 2` and `L + 2` cycles (1 for `ld`/`st`), so dependent FP ops issue
//!   every `L + 3` cycles and a request behind an integer op to other bytes of its word
//!   every `Li + 3`; an integer op behind one to the same bytes chains (below) and issues
//!   `Li + 1` cycles after it ([`dependent_issue_interval_with`]); requests to other lines still
//!   issue one per cycle.
//!
//! # The integer loop (registered pipeline)
//! A dependent integer operation takes its operand from its producer's result where the
//! result is made, not from the merged line (SiFive's `SourceD` forwards its ALU's output
//! to its own input the same way). An integer `red`/`atom` on a plain access carries a
//! *chain key* (offset and size) into the queue; one that waits on an older entry with the
//! same key (the same bytes, any integer form: add/and/or/xor/min/max/inc/dec, `red` or
//! `atom`) waits a window of `Li` after that entry's issue instead of `Li + 2`
//! ([`OrderingQueue`], "Chains"). It reaches s1b `Li + 1` to `Li + 2` cycles behind its
//! producer, whose result is then in the integer ALU's result register `y_r` or the one after
//! it, `y_rr`: s1 sees that its forwarding source is an integer `red`/`atom` that close (the
//! queue lets no other so close) and registers a one-hot source select (`ch_d`), and s1b
//! puts that result on the ALU's `a` input and, for `atom`, in the response. The line it
//! forwarded is right but for its own bytes (a producer's line carries its bytes cleared
//! until its merge), which its own result replaces. Dependent integer ops issue every
//! `Li + 1` cycles (3); the loop is the ALU's two segments, `y_r` and a 2:1 select into the
//! ALU's input registers: taking `y` itself (every 2 cycles) put the ALU's last segment and
//! the select in one cycle, 7.6 ns on the ECP5. Masked sector requests, FP forms and
//! accesses to other bytes take the line.
//! - The coverage bus `cov` is registered: its events appear a cycle after they happen.
//! - Latency `L + 12` ([`unit_latency`]); the response FIFO has 32 places so that the
//!   requests between issue and response never run out of reserved places at one request
//!   per cycle.
//!
//! # Latency (cycles from the request handshake to `rsp_valid`, no stalls, no hazard)
//! Every kind, errors included: [`UNIT_MIN_LATENCY`] = 6 (accept 1, issue→s1..s4 4, FIFO 1) in
//! the default pipeline, [`unit_latency`] in general.
//! A request waits longer behind older ones to its line (one cycle per dependent integer op,
//! three per dependent FP op), when the response FIFO is full (`rsp_ready` low), and when
//! responses fill all [`RSP_FIFO_DEPTH`] reserved places.
//!
//! # Flow control
//! `req_ready` is low only when the ordering queue is full (and during reset; in the
//! registered pipeline, when the queue is full and `ac` holds a request too, so the unit
//! takes one request more before `req_ready` falls). A request
//! issues only when the response FIFO has a place reserved for it (a count of requests
//! between issue and response handshake, at most [`RSP_FIFO_DEPTH`]), so the pipeline never
//! stalls and `rsp_ready` may fall on any cycle: responses wait in the FIFO, requests wait in
//! the queue.
//!
//! # Reset
//! Synchronous `reset` high for one cycle or more returns the unit to idle: the queue, the
//! pipeline, the response FIFO and the count are emptied; requests accepted before the reset
//! and not yet answered are dropped and get no response (not even the ones whose response
//! was already in the FIFO). Memory keeps what was written; of the requests in flight, only
//! the one in the write stage (s4; the last stage when registered) in the first reset cycle
//! is still written (the write enable is registered a cycle ahead, so the reset port drives
//! no block-RAM enable), without a response. While `reset` is high, `req_ready` and
//! `rsp_valid` are low. Register power-up values need a reset before the first request (the
//! RAM starts at zero).
//! The [`ResponseFifo`] empties itself one cycle after the reset cycle (its pointers take a
//! registered copy of `reset`, for 150 MHz) and keeps `rsp_valid` low in that cycle too; the
//! unit cannot notice: nothing it accepts at or after the reset can be answered before
//! [`UNIT_MIN_LATENCY`] cycles, and the FIFO is empty by then.
//!
//! # Synthesis
//! The RAM is [`LineMemory`] (custom Verilog, sized by the constructor): Yosys infers one
//! `$mem_v2` of `mem_bytes/16` x 128 bits with a synchronous read port and one write port
//! (`tests/slice_unit_synth.rs`). Yosys' generic `synth` has no block RAM and would turn it
//! into flip-flops, so the full-synthesis check runs `synth` up to `fine` and the rest of its
//! script without `memory_map`.
//!
//! Verilator sees no combinational loop between this module and the queue only because the
//! statements that drive the queue's inputs read registers and the request port, not values
//! computed from the queue's outputs (it orders an `always` block's statements in separate
//! groups only when they share no variable): keep them so.
//!
//! # Masked sector requests (`req_mask`, for the warp coalescer)
//! `req_mask` zero (what every plain request sends) leaves the unit exactly as described
//! above. A `red`/`atom` with a non-zero mask is a *masked sector request*, the golden model's
//! [`sim::Memory::execute_masked`]: `req_addr` is a 16-byte line (else `misaligned`, checked
//! as a 16-byte access), `req_data` holds the operands at their byte offsets, and bit i of
//! the mask enables element i of the form's element size (2, 4 or 8 bytes; bits at or above
//! 16/size are ignored; `ld`/`st` ignore the mask). In one pass through the same pipeline the
//! form's operation runs on every enabled element: the ALU gets the form code with its vector
//! field set to the full sector of its type (v8 16-bit, v4 32-bit, v2 64-bit: the last is the
//! second f64 lane of [`ReductionAlu`]), the integer fast path has four 32-bit lanes
//! (`int_alu` and `int_lane`, two 64-bit ones for 64-bit types), and the merge writes only the
//! enabled elements' bytes (`s*_wmask`). An `atom` returns the old sector with the disabled
//! elements zero. Latency, hazards, forwarding and throughput are those of any request to
//! the line (the mask rides in the queue payload).
//!
//! # Illegal operation codes
//! Codes that [`sim::Access::from_code`] rejects are not checked (the port contract is that
//! only legal codes are sent); such a request is answered, and may write memory.

use crate::alu::{ALU_LATENCY, ReductionAlu};
use crate::config::{Config, Cut, Delay};
use crate::int_alu::IntAlu;
use crate::line_memory::{LINE_BITS, LineMemory};
use crate::old_extract::OldExtract;
use crate::ecp5::ram_forward_mux::RamForwardMux;
use crate::ecp5::replica_reg::ReplicaReg;
use crate::ordering_queue::{OrderingQueue, QUEUE_HAZARD_CYCLES, QUEUE_KEY_BITS, QUEUE_PAYLOAD_BITS, QUEUE_WAIT_BITS};
use crate::response_fifo::{RSP_ENTRY_BITS, ResponseFifo};
use crate::k;
use rust_hdl::prelude::*;
use sim::form::encoding::{CODE_WIDTH, OP_LSB, OP_WIDTH, TYPE_LSB, TYPE_WIDTH, VEC_LSB, VEC_WIDTH};
use sim::memory::req_encoding::{
    KIND_ATOM, KIND_LD, KIND_LSB, KIND_RED, KIND_ST, KIND_WIDTH, REQ_OP_WIDTH, STATUS_MISALIGNED, STATUS_OK,
    STATUS_OUT_OF_RANGE, STATUS_WIDTH,
};

/// Width of the request id tag.
pub const ID_WIDTH: usize = 16;
/// Width of the coverage-event bus.
pub const COV_WIDTH: usize = 16;

/// Cycles from a request's handshake to its response on `rsp_valid`, when nothing waits
/// (default configuration; [`unit_latency`] for others).
pub const UNIT_MIN_LATENCY: usize = 6;

/// Cycles from a request's handshake to its response on `rsp_valid`, when nothing waits, for
/// the unit built with `cfg`: accept 1, issue to the merge stage `1 + alu_latency`, FIFO 1
/// (registered pipeline: 9 more, for `ac`, the queue's registered push and its late issue
/// outputs, sc, si, sr, s1b, the result and the merged-line registers).
pub fn unit_latency(cfg: &Config) -> usize {
    if cfg.unit_regs { cfg.alu_latency() + 12 } else { cfg.alu_latency() + 3 }
}

/// The unit's pipeline shape for `cfg` (see "Pipelines" in the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Stages after s1 (`sp_*`: s2, s3, ..).
    pub stages: usize,
    /// Index into `sp_*` of the stage where the integer result merges into the line.
    pub int_at: usize,
    /// Index into `sp_*` of the stage where the FP result merges.
    pub fp_at: usize,
    /// Index into `sp_*` of the stage that writes the RAM and pushes the response.
    pub write_at: usize,
    /// Cycles from the RAM read address to its data (the written-line stages kept after the
    /// write: `sw_*`).
    pub ram_latency: usize,
    /// The queue's hazard windows: cycles after an FP / integer op's issue in which requests
    /// to its line may not issue.
    pub win_fp: usize,
    pub win_int: usize,
    /// The window of `ld`/`st` (their line is final after s1).
    pub win_mem: usize,
    /// The window of a chained integer op: an integer `red`/`atom` behind one to the same
    /// bytes takes its operand from the integer ALU's loop (registered pipeline: the ALU's
    /// latency `Li`, so dependent integer ops issue every `Li + 1` cycles, 3 by default; the
    /// shallow pipeline forwards the merged line in the cycle the result is made, `win_int`).
    pub win_chain: usize,
    /// Bit j of entry d: a chain consumer in s1 whose producer is in `sp_*[j]` takes the
    /// producer's result `d + 1` cycles after the integer ALU made it (0: `y_r`, 1: `y_rr`).
    /// Zero in the shallow pipeline.
    pub chain_map: [u128; 2],
    /// Places of the response FIFO (at least the requests in flight from issue to response).
    pub rsp_depth: usize,
}

/// The pipeline shape of the unit built with `cfg`.
pub fn shape(cfg: &Config) -> Shape {
    let lat = cfg.alu_latency();
    let int_lat = cfg.int_alu_latency();
    if cfg.unit_regs {
        // Results registered before the merge (one stage), merged lines registered before
        // forwarding and writing (one more): nothing is forwarded from logic.
        let (int_at, fp_at) = (int_lat, lat);
        let stages = fp_at + 2;
        // The old line is forwarded in s1 and registered; the op computes in s1b, one cycle
        // later: every window is one cycle longer than the merge stage alone needs (si, before
        // the forwarding point, delays producer and dependent alike).
        // The chain: a consumer `d` cycles behind its producer (from `int_lat + 1`: the loop
        // takes the ALU's registered result `y_r`, so that no cycle holds the ALU's last
        // segment and the operand select together; up to the integer window) is in s1 when
        // the producer is in sp[d - 2], and finds its result `d - int_lat` cycles after the
        // ALU made it (1: `y_r`, 2: `y_rr`).
        let win_int = int_at + 2;
        let mut chain_map = [0u128; 2];
        for d in (int_lat + 1).max(2)..=win_int {
            chain_map[d - int_lat - 1] |= 1 << (d - 2);
        }
        Shape {
            stages,
            int_at,
            fp_at,
            write_at: stages - 1,
            ram_latency: 2,
            win_fp: fp_at + 2,
            win_int,
            win_mem: 1,
            win_chain: int_lat.max(1),
            chain_map,
            rsp_depth: 32,
        }
    } else {
        // The results merge in the cycle they appear and are forwarded from there.
        let (int_at, fp_at) = (int_lat - 1, lat - 1);
        Shape {
            stages: lat,
            int_at,
            fp_at,
            write_at: fp_at,
            ram_latency: 1,
            win_fp: fp_at,
            win_int: int_at,
            win_mem: 0,
            win_chain: int_at,
            chain_map: [0; 2],
            rsp_depth: RSP_FIFO_DEPTH,
        }
    }
}

/// Cycles between dependent requests to one element (the same bytes, the same form) for the
/// unit built with `cfg`: the FP window for the FP forms, the integer chain's for the
/// integer/bitwise forms (other integer accesses to the line wait [`Shape::win_int`]), the
/// `ld`/`st` window for those.
pub fn dependent_issue_interval_with(access: sim::Access, cfg: &Config) -> usize {
    match access {
        sim::Access::Red(f) | sim::Access::Atom(f) => {
            let sh = shape(cfg);
            if is_int_type(f.ty()) { sh.win_chain + 1 } else { sh.win_fp + 1 }
        }
        _ => shape(cfg).win_mem + 1,
    }
}

/// The 32-bit words of its 16-byte line (bit w: bytes 4w..4w+3) a plain request of `access`
/// at `addr` touches in the unit built with `cfg`: the grain of its ordering. Requests to one
/// line run in arrival order only where these meet; the shallow pipeline orders whole lines
/// (0xf). The RTL's decode at the accept (`a_words`) computes the same.
pub fn hazard_words(access: sim::Access, addr: u32, cfg: &Config) -> u8 {
    let first = (addr as usize % 16) / 4;
    match (cfg.unit_regs, access.bytes()) {
        (false, _) | (_, 16) => 0xf,
        (true, 8) => 0x3 << (first & 2),
        (true, _) => 1 << first,
    }
}

fn is_int_type(t: sim::Type) -> bool {
    matches!(t, sim::Type::B32 | sim::Type::B64 | sim::Type::U32 | sim::Type::S32 | sim::Type::U64 | sim::Type::S64)
}
/// Requests the unit accepts before `req_ready` falls when nothing issues.
pub use crate::ordering_queue::QUEUE_DEPTH;
/// Responses the unit buffers (and requests it has in flight at most, from issue to response).
pub use crate::response_fifo::RSP_FIFO_DEPTH;

/// Cycles from the request handshake of `access` to its response on `rsp_valid` when no
/// older request to its line waits and `rsp_ready` is high: the same for every kind
/// ([`UNIT_MIN_LATENCY`]), error responses included.
pub fn latency(_access: sim::Access) -> usize {
    UNIT_MIN_LATENCY
}

/// Cycles between dependent requests to one line: 1 for integer/bitwise forms, `ld` and `st`;
/// [`ALU_LATENCY`] for the FP forms (f32, f64, f16, bf16 and their vector forms).
pub fn dependent_issue_interval(access: sim::Access) -> usize {
    dependent_issue_interval_with(access, &Config::default())
}

// Coverage bits.
pub const COV_FWD_S2: usize = 0;
pub const COV_FWD_S3: usize = 1;
pub const COV_FWD_S4: usize = 2;
pub const COV_FWD_S5: usize = 3;
pub const COV_QUEUE_FULL: usize = 4;
pub const COV_OVERTAKE: usize = 5;
pub const COV_BACK_TO_BACK_LINE: usize = 6;
pub const COV_LINE_WAIT: usize = 7;
pub const COV_FP_HAZARD_WAIT: usize = 8;
pub const COV_FP_CHAIN: usize = 9;
pub const COV_RSP_MISALIGNED: usize = 10;
pub const COV_RSP_OUT_OF_RANGE: usize = 11;
pub const COV_RSP_STALL: usize = 12;
pub const COV_CREDIT_STALL: usize = 13;
pub const COV_RESET_IN_FLIGHT: usize = 14;
pub const COV_INT_CHAIN: usize = 15;

/// The coverage points: name and bit of `cov`. A bit is high in each cycle its event happens.
pub const COVERAGE_POINTS: &[(&str, usize)] = &[
    // s1 takes its old line from the request in s2 (integer result, ld, st).
    ("forward_s2", COV_FWD_S2),
    // ... from s3.
    ("forward_s3", COV_FWD_S3),
    // ... from s4 (the ALU output, or a line carried there).
    ("forward_s4", COV_FWD_S4),
    // ... from s5 (the line written in the previous cycle).
    ("forward_s5", COV_FWD_S5),
    // All ordering-queue entries valid (req_ready low).
    ("queue_full", COV_QUEUE_FULL),
    // A younger request issues before an older one that waits.
    ("overtake", COV_OVERTAKE),
    // Two requests to one line accepted in consecutive cycles.
    ("back_to_back_same_line", COV_BACK_TO_BACK_LINE),
    // Hazard: a request waits behind an older one to its line in the queue.
    ("line_order_wait", COV_LINE_WAIT),
    // Hazard: a request waits for an FP result to its line (FP op in s1 or s2).
    ("fp_result_wait", COV_FP_HAZARD_WAIT),
    // An FP result forwarded from the ALU output into the next FP op's ALU input.
    ("fp_chain_forward", COV_FP_CHAIN),
    // Responses with each error status.
    ("status_misaligned", COV_RSP_MISALIGNED),
    ("status_out_of_range", COV_RSP_OUT_OF_RANGE),
    // rsp_valid high and rsp_ready low.
    ("response_stall", COV_RSP_STALL),
    // Every reserved response place in use: nothing may issue.
    ("response_credit_stall", COV_CREDIT_STALL),
    // Reset while requests are in flight.
    ("reset_in_flight", COV_RESET_IN_FLIGHT),
    // An integer result taken as the next integer op's operand in the cycle it is made
    // (registered pipeline: the ALU's loop, a chain; the shallow one: through the merged line).
    ("int_chain_forward", COV_INT_CHAIN),
];

// `update` assembles `cov` with these bit numbers written out (hdl code cannot name a
// const); this pins them.
const _: () = assert!(
    COV_FWD_S2 == 0
        && COV_FWD_S3 == 1
        && COV_FWD_S4 == 2
        && COV_FWD_S5 == 3
        && COV_QUEUE_FULL == 4
        && COV_OVERTAKE == 5
        && COV_BACK_TO_BACK_LINE == 6
        && COV_LINE_WAIT == 7
        && COV_FP_HAZARD_WAIT == 8
        && COV_FP_CHAIN == 9
        && COV_RSP_MISALIGNED == 10
        && COV_RSP_OUT_OF_RANGE == 11
        && COV_RSP_STALL == 12
        && COV_CREDIT_STALL == 13
        && COV_RESET_IN_FLIGHT == 14
        && COV_INT_CHAIN == 15
        && COV_INT_CHAIN < COV_WIDTH
);
const _: () = assert!(UNIT_MIN_LATENCY == ALU_LATENCY + 3, "the default unit's latency");
const _: () = assert!(
    QUEUE_HAZARD_CYCLES == ALU_LATENCY - 1,
    "the default queue holds a line for the cycles an FP op spends in s1 and s2"
);
const _: () = assert!(OP_LSB + OP_WIDTH <= CODE_WIDTH && KIND_LSB + KIND_WIDTH == REQ_OP_WIDTH);
const _: () = assert!(RSP_ENTRY_BITS == ID_WIDTH + 128 + STATUS_WIDTH);

// Payload of a queue entry (bit offsets).
const P_OP: usize = 0;
const P_OFF: usize = P_OP + REQ_OP_WIDTH;
const P_SIZE: usize = P_OFF + 4;
const P_FP: usize = P_SIZE + 3;
const P_STATUS: usize = P_FP + 1;
const P_ID: usize = P_STATUS + STATUS_WIDTH;
const P_DATA: usize = P_ID + ID_WIDTH;
const P_MASK: usize = P_DATA + 128;
const _: () = assert!(P_MASK + 8 == QUEUE_PAYLOAD_BITS);
// Response entry (bit offsets).
const R_DATA: usize = ID_WIDTH;
const R_STATUS: usize = ID_WIDTH + 128;

/// The element-size table of the type codes: bits `2t+1..2t` hold log2 of the element bytes
/// of type code `t` (the unit's and the coalescer's decode shift it by `2 * type`).
pub(crate) fn elem_log2_table() -> u128 {
    let mut tbl = 0u128;
    for t in sim::form::TYPES {
        tbl |= ((t.bits() / 8).trailing_zeros() as u128) << (2 * t as u128);
    }
    tbl
}

#[derive(LogicBlock)]
pub struct SliceUnit {
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: the unit returns to idle (see the module doc).
    pub reset: Signal<In, Bit>,
    // Request port (valid/ready: a request moves when both are high at a rising edge).
    pub req_valid: Signal<In, Bit>,
    pub req_ready: Signal<Out, Bit>,
    /// [`sim::Access::code`].
    pub req_op: Signal<In, Bits<REQ_OP_WIDTH>>,
    /// Byte address of the least significant byte.
    pub req_addr: Signal<In, Bits<32>>,
    /// Store data or operand in the low bits (element 0 lowest).
    pub req_data: Signal<In, Bits<128>>,
    pub req_id: Signal<In, Bits<ID_WIDTH>>,
    /// Element enable mask: zero for a plain request; non-zero makes a `red`/`atom` a
    /// *masked sector request* (see "Masked sector requests" in the module doc). Ignored by
    /// `ld` and `st`.
    pub req_mask: Signal<In, Bits<8>>,
    // Response port (valid/ready): exactly one per request.
    pub rsp_valid: Signal<Out, Bit>,
    pub rsp_ready: Signal<In, Bit>,
    pub rsp_id: Signal<Out, Bits<ID_WIDTH>>,
    /// The old value for `ld` and `atom` in the low bits; zero otherwise.
    pub rsp_data: Signal<Out, Bits<128>>,
    /// [`sim::status_code`].
    pub rsp_status: Signal<Out, Bits<STATUS_WIDTH>>,
    /// Coverage events this cycle (see [`COVERAGE_POINTS`]); in the registered pipeline the
    /// events of the cycle before (the bus is registered: it leaves the queue's pick off the
    /// port).
    pub cov: Signal<Out, Bits<COV_WIDTH>>,

    // Blocks.
    queue: OrderingQueue,
    mem: LineMemory,
    int_alu: IntAlu,
    /// Integer lanes 1..3 of a masked sector request (lane k at bits 32k..): with `int_alu`
    /// (lane 0) four 32-bit or two 64-bit elements (lanes 0 and 2) per pass.
    int_lane: [IntAlu; 3],
    alu: ReductionAlu,
    rsp_fifo: ResponseFifo,

    // Constants: encodings (from sim), tables, masks.
    mem_bytes: Constant<Bits<32>>,
    kind_lsb: Constant<Bits<4>>,
    op_lsb: Constant<Bits<4>>,
    ty_lsb: Constant<Bits<4>>,
    vec_lsb: Constant<Bits<4>>,
    kind_red: Constant<Bits<KIND_WIDTH>>,
    kind_atom: Constant<Bits<KIND_WIDTH>>,
    kind_ld: Constant<Bits<KIND_WIDTH>>,
    kind_st: Constant<Bits<KIND_WIDTH>>,
    status_ok: Constant<Bits<STATUS_WIDTH>>,
    status_mis: Constant<Bits<STATUS_WIDTH>>,
    status_oor: Constant<Bits<STATUS_WIDTH>>,
    /// log2 of the element bytes of each type code, 2 bits per type.
    elem_log2_tbl: Constant<Bits<32>>,
    /// Bit t: type code t goes to the FP ALU.
    fp_tbl: Constant<Bits<16>>,
    two3: Constant<Bits<3>>,
    size1: Constant<Bits<3>>,
    size2: Constant<Bits<3>>,
    size3: Constant<Bits<3>>,
    align1: Constant<Bits<4>>,
    align3: Constant<Bits<4>>,
    align7: Constant<Bits<4>>,
    align15: Constant<Bits<4>>,
    mask16: Constant<Bits<128>>,
    mask32: Constant<Bits<128>>,
    mask64: Constant<Bits<128>>,
    mask128: Constant<Bits<128>>,
    zero128: Constant<Bits<128>>,
    zero_cov: Constant<Bits<COV_WIDTH>>,
    zero_key: Constant<Bits<QUEUE_KEY_BITS>>,
    zero64: Constant<Bits<64>>,
    ones4: Constant<Bits<4>>,
    one4: Constant<Bits<4>>,
    two4: Constant<Bits<4>>,
    three4: Constant<Bits<4>>,
    three2: Constant<Bits<2>>,
    key_chain: Constant<Bits<QUEUE_KEY_BITS>>,
    p_off: Constant<Bits<8>>,
    p_size: Constant<Bits<8>>,
    p_fp: Constant<Bits<8>>,
    p_status: Constant<Bits<8>>,
    p_id: Constant<Bits<8>>,
    p_data: Constant<Bits<8>>,
    p_mask: Constant<Bits<8>>,
    size4: Constant<Bits<3>>,
    zero8: Constant<Bits<8>>,
    zero2: Constant<Bits<2>>,
    elog1: Constant<Bits<2>>,
    elog2: Constant<Bits<2>>,
    elog3: Constant<Bits<2>>,
    vec_clear: Constant<Bits<CODE_WIDTH>>,
    r_data: Constant<Bits<8>>,
    r_status: Constant<Bits<8>>,
    credit_max: Constant<Bits<6>>,
    /// `credit_max - 1` and `credit_max + 1`.
    credit_max_m1: Constant<Bits<6>>,
    credit_max_p1: Constant<Bits<6>>,
    one6: Constant<Bits<6>>,
    zero6: Constant<Bits<6>>,
    zero_line: Constant<Bits<LINE_BITS>>,
    /// The line-address bits the memory uses.
    line_mask: Constant<Bits<LINE_BITS>>,
    one8: Constant<Bits<8>>,
    three7: Constant<Bits<7>>,

    // s0 (accept) decode.
    a_kind: Signal<Local, Bits<KIND_WIDTH>>,
    a_form: Signal<Local, Bits<CODE_WIDTH>>,
    a_ty: Signal<Local, Bits<TYPE_WIDTH>>,
    a_ty2: Signal<Local, Bits<8>>,
    a_elog: Signal<Local, Bits<32>>,
    a_memop: Signal<Local, Bit>,
    a_size: Signal<Local, Bits<3>>,
    a_fp: Signal<Local, Bit>,
    a_align: Signal<Local, Bits<4>>,
    a_status: Signal<Local, Bits<STATUS_WIDTH>>,
    a_sector: Signal<Local, Bit>,
    a_mask: Signal<Local, Bits<8>>,
    // The queue's push as decoded (straight into the queue, or into `ac_*` first).
    a_line: Signal<Local, Bits<LINE_BITS>>,
    a_ordered: Signal<Local, Bit>,
    a_wait: Signal<Local, Bits<QUEUE_WAIT_BITS>>,
    a_payload: Signal<Local, Bits<QUEUE_PAYLOAD_BITS>>,
    /// Registered pipeline: the accepted request, registered before the queue's push.
    ac_valid: DFF<Bit>,
    ac_line: DFF<Bits<LINE_BITS>>,
    ac_ordered: DFF<Bit>,
    ac_wait: DFF<Bits<QUEUE_WAIT_BITS>>,
    ac_payload: DFF<Bits<QUEUE_PAYLOAD_BITS>>,
    /// The request's chain key for the queue (registered pipeline): an integer `red`/`atom`
    /// on a plain access may chain behind one with the same offset and size (bit 7; size in
    /// bits 6..4, offset in 3..0). See "The integer loop" in the module doc.
    a_key: Signal<Local, Bits<QUEUE_KEY_BITS>>,
    ac_key: DFF<Bits<QUEUE_KEY_BITS>>,
    /// The 32-bit words of its line the request touches (registered pipeline; the whole line
    /// in the shallow one): the queue orders requests per word, forwarding selects per word.
    a_words: Signal<Local, Bits<4>>,
    ac_words: DFF<Bits<4>>,
    /// `ac_*` takes the port's request (it is empty or moves into the queue).
    ac_load: Signal<Local, Bit>,
    ac_ld: DFF<Bit>,
    /// `ac_ld` again (a replica), for the queue's `push_nx_keep` alone: it selects the held
    /// matches in the last LUT of each slot's and history place's match, apart from `ac_ld`'s
    /// 200-odd clock enables.
    ac_ld_q: ReplicaReg<Bit>,
    ac_v_nx: Signal<Local, Bit>,
    /// `ac_line`'s next value (the queue compares it with its slots a cycle ahead).
    ac_line_nx: Signal<Local, Bits<LINE_BITS>>,
    unused_decode: Signal<Local, Bit>,
    unused_alu: Signal<Local, Bit>,

    // Issue.
    issue: Signal<Local, Bit>,
    credits: DFF<Bits<6>>,
    /// `credits` has reached `credit_max` (registered beside it, from its next value, so the
    /// issue enable is a flip-flop: the compare is off the queue's pick path).
    cr_full: DFF<Bit>,
    credits_nx: Signal<Local, Bits<6>>,
    /// The count at or above the limit after one more, no change, one less.
    cr_ge_p1: Signal<Local, Bit>,
    cr_ge_0: Signal<Local, Bit>,
    cr_ge_m1: Signal<Local, Bit>,
    rsp_fire: Signal<Local, Bit>,

    // ==== sc, si, sr: the issued request, its forwarding compares, the RAM read (registered
    // pipeline only) ====
    /// sc: the issued request registered; its line is compared with the ops in flight here,
    /// two cycles before sr's select needs the result (`fsel_cq`), so that the select's
    /// registers (`fsel_q`) are copies loaded across the chip with no logic before them.
    sc_valid: DFF<Bit>,
    sc_ordered: DFF<Bit>,
    sc_line: DFF<Bits<LINE_BITS>>,
    /// `sc_line` again, for sc's compares alone (a replica): `sc_line` is the register that
    /// Yosys merges with the queue's newest history line, whose compares with the push
    /// line pulled it to the queue, which made the forwarding compares from it critical
    /// paths.
    sc_cl: ReplicaReg<Bits<LINE_BITS>>,
    /// sc holds a valid ordered op: one register for its forwarding compares, which each
    /// take it into their line compare (no gating after the select, and not `sc_valid`'s
    /// fan-out).
    sc_vo: DFF<Bit>,
    sc_ra: DFF<Bits<LINE_BITS>>,
    si_valid: DFF<Bit>,
    si_ordered: DFF<Bit>,
    si_line: DFF<Bits<LINE_BITS>>,
    /// The RAM read address (`si_line`, or line 0 for an unordered request) as a register
    /// of its own: no LUT between a register and the 32 block RAMs' address pins, which sit
    /// in rows across the chip (`si_line` feeds sr; `sc_ra` before it is `sc_line`'s
    /// twin, which Yosys merges with the queue's newest history line).
    si_ra: DFF<Bits<LINE_BITS>>,
    /// The issued request's RAM read address (its line, or line 0 if unordered).
    issue_ra: Signal<Local, Bits<LINE_BITS>>,
    si_payload: DFF<Bits<QUEUE_PAYLOAD_BITS>>,
    sr_valid: DFF<Bit>,
    sr_ordered: DFF<Bit>,
    sr_line: DFF<Bits<LINE_BITS>>,
    sr_payload: DFF<Bits<QUEUE_PAYLOAD_BITS>>,
    /// The words of its line each op in flight writes (its access's words; an `ld`'s line is
    /// a source of its words too), zero for an unordered one: each word's forwarding source
    /// is the youngest op that writes it.
    sc_ww: DFF<Bits<4>>,
    si_ww: DFF<Bits<4>>,
    sr_ww: DFF<Bits<4>>,
    s1_ww: DFF<Bits<4>>,
    s1b_ww: DFF<Bits<4>>,
    sp_ww: Vec<DFF<Bits<4>>>,
    /// Per word of the line, its forwarding source (one-hot as `fsel`), found in sc and copied
    /// in si; `fsel_r`/`fsel` are the source of the op's own (lowest) word.
    fsel_cq: [DFF<Bits<32>>; 4],
    fsel_rq: [DFF<Bits<32>>; 4],
    fs_v: [Signal<Local, Bits<32>>; 4],
    /// The compared stage is a source, per word.
    fs_hq: Signal<Local, Bits<4>>,
    fs_b: Signal<Local, Bit>,
    /// The forwarding source of the op in s1 (registered pipeline), one-hot: bit j `sp_*[j]`,
    /// bit `stages + k` `sw_*[k]`, none: the RAM. Found in sc per word (`fsel_cq`), copied in si
    /// (`fsel_r`, and `fsel_q`: one replica per 32-bit quarter of sr's select), delayed to
    /// s1 (`fsel`).
    fsel: DFF<Bits<32>>,
    fsel_r: DFF<Bits<32>>,
    fsel_q: [ReplicaReg<Bits<32>>; 4],
    /// The 32-bit quarters of a line, for `fsel_q` and `fsel_s`.
    qmask: [Constant<Bits<128>>; 4],
    /// s1's select again, one replica per quarter of its 128-bit select (`fsel` drives the
    /// coverage events only).
    fsel_s: [ReplicaReg<Bits<32>>; 4],
    /// Per quarter, `fsel_rq[q] != 0` (from `fsel_cq` in si), and its replicas for s1.
    fs_any_r: DFF<Bits<4>>,
    fs_any_s: [ReplicaReg<Bits<1>>; 4],
    /// The sources whose line in s1 is, a cycle before, a register's (the stage before, when
    /// nothing merges between): selected in sr, in two halves (`fpre[0]`, `fpre[1]`).
    fs_pre_a: Constant<Bits<32>>,
    fs_pre_b: Constant<Bits<32>>,
    /// The others (s2, the stages after the integer and the FP merges): selected in s1.
    fs_now: Constant<Bits<32>>,
    fpre: [DFF<Bits<128>>; 2],
    /// s1's forwarded line (`fpre` and the sources selected in s1), and per quarter whether
    /// it is taken (`fs_any_s`), into the mux with the RAM's read data (`rfm`: the RAM bit
    /// in its last LUT only).
    s1_fwd_x: Signal<Local, Bits<128>>,
    s1_take: Signal<Local, Bits<4>>,
    take_top: Constant<Bits<4>>,
    zero4: Constant<Bits<4>>,
    rfm: RamForwardMux,
    fp_a: Signal<Local, Bits<128>>,
    fp_b: Signal<Local, Bits<128>>,
    fsel_r_sw: Signal<Local, Bits<32>>,
    /// The op in sc has the line of the op compared (masked to the memory's line bits).
    fs_eq: Signal<Local, Bit>,
    /// The op in s1 / s1b / `sp_*[j]` is *superseded*: a younger ordered op to its line entered
    /// behind it (set by that op's compares in sc), so no later op forwards from it. The
    /// youngest matching op is then the only matching op that is not superseded: the
    /// forwarding select needs no priority chain.
    /// (Per word: superseded for the words a younger op writes.)
    sup_s1: DFF<Bits<4>>,
    sup_s1b: DFF<Bits<4>>,
    sup_sp: Vec<DFF<Bits<4>>>,
    zero32: Constant<Bits<32>>,
    top31: Constant<Bits<5>>,
    /// `fsel` from the written-line sources on (`fsel >> stages`).
    fsel_sw: Signal<Local, Bits<32>>,
    fsw_sh: Constant<Bits<6>>,
    /// 32 - (forwarding sources): moves the built vector down to bit 0.
    fs_sh: Constant<Bits<6>>,
    /// The unit's registered pipeline ([`Config::unit_regs`]).
    regs: Constant<Bit>,
    /// The integer lanes' and the ALU's results, registered in the registered pipeline.
    y_r: [Cut<Bits<64>>; 4],
    out_r: Cut<Bits<128>>,
    /// The integer loop: lane 0's result one cycle after `y_r` (a chain source).
    y_rr: Cut<Bits<64>>,
    /// Bit j: a chain consumer whose producer is in `sp_*[j]` when it is in s1 takes the
    /// producer's result from `y_r` (`ch_m[0]`) or `y_rr` (`ch_m[1]`).
    ch_m: [Constant<Bits<32>>; 2],
    /// s1b's chain source (one-hot over `y_r[0]`, `y_rr`; zero: the line).
    ch_d: [DFF<Bit>; 2],
    ch_nx: [Signal<Local, Bit>; 2],
    /// s1's op may chain (an integer `red`/`atom`, plain access); the stage's op is a producer.
    ch_me: Signal<Local, Bit>,
    ch_p: Signal<Local, Bit>,
    s1r_op: Signal<Local, Bits<REQ_OP_WIDTH>>,
    s1r_kind: Signal<Local, Bits<KIND_WIDTH>>,
    /// s1b's chained operand, and whether it has one.
    ch_val: Signal<Local, Bits<64>>,
    ch_any: Signal<Local, Bit>,

    // ==== s1b: the registered pipeline's compute stage (s1 forwards, s1b computes) ====
    s1b_valid: DFF<Bit>,
    s1b_ordered: DFF<Bit>,
    s1b_line: DFF<Bits<LINE_BITS>>,
    s1b_payload: DFF<Bits<QUEUE_PAYLOAD_BITS>>,
    s1b_old: DFF<Bits<128>>,
    /// The op that computes this cycle (s1, or s1b in the registered pipeline).
    c_valid: Signal<Local, Bit>,
    c_ordered: Signal<Local, Bit>,
    c_line: Signal<Local, Bits<LINE_BITS>>,
    c_payload: Signal<Local, Bits<QUEUE_PAYLOAD_BITS>>,
    c_old_line: Signal<Local, Bits<128>>,
    /// The op in s1 is an FP op (coverage of the registered pipeline's forwarding).
    s1r_fp: Signal<Local, Bit>,
    win_mem: Constant<Bits<QUEUE_WAIT_BITS>>,

    // ==== s1: RAM data, forwarding, ALU inputs ====
    s1_valid: DFF<Bit>,
    s1_ordered: DFF<Bit>,
    s1_line: DFF<Bits<LINE_BITS>>,
    s1_payload: DFF<Bits<QUEUE_PAYLOAD_BITS>>,
    s1_op: Signal<Local, Bits<REQ_OP_WIDTH>>,
    s1_form: Signal<Local, Bits<CODE_WIDTH>>,
    s1_kind: Signal<Local, Bits<KIND_WIDTH>>,
    s1_fp: Signal<Local, Bit>,
    s1_status: Signal<Local, Bits<STATUS_WIDTH>>,
    s1_id: Signal<Local, Bits<ID_WIDTH>>,
    s1_data: Signal<Local, Bits<128>>,
    s1_rep: Signal<Local, Bits<2>>,
    s1_mask: Signal<Local, Bits<128>>,
    s1_old_line: Signal<Local, Bits<128>>,
    s1_old: Signal<Local, Bits<128>>,
    /// The old value for the integer ALUs, the min/max lanes, the f32/f64 adders, the
    /// response (`ox`).
    s1_old_int: Signal<Local, Bits<128>>,
    s1_old_mm: Signal<Local, Bits<128>>,
    s1_old_wide: Signal<Local, Bits<128>>,
    s1_old_rsp: Signal<Local, Bits<128>>,
    /// `atom.cas` in the compute stage, and whether its old value equals its compare value
    /// (the operand's second half: bits 63..32 for b32, 127..64 for b64).
    s1_cas: Signal<Local, Bit>,
    s1_cas_eq: Signal<Local, Bit>,
    /// The old value's extract (see `OldExtract`), one per group of consumers: the f16/bf16
    /// adders (0), the min/max lanes (1), the f32/f64 adders (2), the integer ALUs (3), the
    /// response (4), each from replicas of s1b's line and shift of its own. (A sixth for the
    /// f64 adders apart from the f32 ones puts its replicas on the RAM's critical path.)
    /// Registered pipeline only.
    ox: [OldExtract; 5],
    /// The default pipeline's extract (`OldExtract`'s, in the cycle of the forwarding): the
    /// shift's bits that select bytes 2-3 and 4-7.
    xs_4: Constant<Bits<7>>,
    xs_8: Constant<Bits<7>>,
    s1_fwd_fp: Signal<Local, Bit>,
    dw_mask8: Signal<Local, Bits<8>>,
    s1_sector: Signal<Local, Bit>,
    dw_ty2: Signal<Local, Bits<8>>,
    dw_elogw: Signal<Local, Bits<32>>,
    dw_exp: Signal<Local, Bits<128>>,
    s1_wmask: Signal<Local, Bits<128>>,
    dw_payload: Signal<Local, Bits<QUEUE_PAYLOAD_BITS>>,
    unused_dw: Signal<Local, Bit>,
    dw_form: Signal<Local, Bits<CODE_WIDTH>>,
    dw_off: Signal<Local, Bits<4>>,
    off_even: Constant<Bits<4>>,
    dw_size: Signal<Local, Bits<3>>,
    dw_data: Signal<Local, Bits<128>>,
    dw_sh: Signal<Local, Bits<7>>,
    /// The computing stage's shift (the default pipeline's: s1's, `rw_sh` a wire).
    s1_sh: Signal<Local, Bits<7>>,
    rw_sh: Cut<Bits<7>>,
    dw_mask: Signal<Local, Bits<128>>,
    dw_sector: Signal<Local, Bit>,
    dw_elog: Signal<Local, Bits<2>>,
    dw_wmask: Signal<Local, Bits<128>>,
    dw_stm: Signal<Local, Bits<128>>,
    dw_std: Signal<Local, Bits<128>>,
    dw_rep: Signal<Local, Bits<2>>,
    rw_rep: Cut<Bits<2>>,
    rw_mask: Cut<Bits<128>>,
    rw_wmask: Cut<Bits<128>>,
    rw_sector: Cut<Bit>,
    rw_elog: Cut<Bits<2>>,
    rw_stm: Cut<Bits<128>>,
    rw_std: Cut<Bits<128>>,
    s1_stm: Signal<Local, Bits<128>>,
    s1_std: Signal<Local, Bits<128>>,
    s1_alu_form: Signal<Local, Bits<CODE_WIDTH>>,
    s1_vecf: Signal<Local, Bits<2>>,
    zero_form: Constant<Bits<CODE_WIDTH>>,
    s1_elog: Signal<Local, Bits<2>>,
    /// The registered pipeline's `pre_form` as a register: s1's ALU form decoded a cycle
    /// early from sr's payload (`sr_*`), so that the ALU's form decode starts from a
    /// register (decoded from s1's payload, the two decodes in series and the logic Yosys
    /// shared with s1's make the worst critical paths).
    pre_form_r: DFF<Bits<CODE_WIDTH>>,
    /// s1b's ALU form in the registered pipeline: `pre_form_r` a cycle later (s1 moves to
    /// s1b unstalled), instead of a second decode of the same form from the `rw_*` cuts.
    pre_form_rr: DFF<Bits<CODE_WIDTH>>,
    sr_form: Signal<Local, Bits<CODE_WIDTH>>,
    sr_ty2: Signal<Local, Bits<8>>,
    sr_elogw: Signal<Local, Bits<32>>,
    sr_vecf: Signal<Local, Bits<2>>,
    sr_alu_form: Signal<Local, Bits<CODE_WIDTH>>,
    unused_sector: Signal<Local, Bit>,
    /// sM's own write mask (the merges read registered masks loaded beside it) and the write
    /// stage's kind (the write enable `w_we` is loaded beside it).
    unused_wm: Signal<Local, Bit>,

    // ==== s2 .. sM: the stages after s1, `sp_*[j]` is stage s(j+2) ====
    // M = 1 + alu_latency (s4 by default) is the FP merge stage, the last of them; the
    // integer result merges in s(1 + int_alu_latency) (s2 by default).
    sp_valid: Vec<DFF<Bit>>,
    sp_ordered: Vec<DFF<Bit>>,
    sp_line: Vec<DFF<Bits<LINE_BITS>>>,
    sp_kind: Vec<DFF<Bits<KIND_WIDTH>>>,
    sp_fp: Vec<DFF<Bit>>,
    /// The access's size as a replication code (`rep16` .. `rep128`): the merges replicate the
    /// result across the line and keep its bytes with the write mask (no shifter).
    sp_rep: Vec<DFF<Bits<2>>>,
    /// The line: without the accessed bytes until the op's merge stage, the new line after.
    sp_data: Vec<DFF<Bits<128>>>,
    sp_rsp: Vec<DFF<Bits<128>>>,
    sp_status: Vec<DFF<Bits<STATUS_WIDTH>>>,
    sp_id: Vec<DFF<Bits<ID_WIDTH>>>,
    sp_sector: Vec<DFF<Bit>>,
    sp_wmask: Vec<DFF<Bits<128>>>,
    /// Bit j: `sp_*[j]` is the integer merge stage / the FP merge stage.
    int_at: Constant<Bits<32>>,
    fp_at: Constant<Bits<32>>,
    /// Bit j: `sp_*[j]` writes the RAM and pushes the response.
    wr_at: Constant<Bits<32>>,
    /// A sector request's integer lanes are 64-bit (delayed from s1 to the integer merge).
    dly_int64: Delay<Bit>,
    st_nd: Signal<Local, Bits<128>>,
    fw_found: Signal<Local, Bit>,
    fw_hit: Signal<Local, Bit>,

    // The integer merge stage (`int_at`), as seen by the merge.
    i_rep: Signal<Local, Bits<2>>,
    i_x32: Signal<Local, Bits<64>>,
    i_x: Signal<Local, Bits<128>>,
    i_base: Signal<Local, Bits<128>>,
    i_sector: Signal<Local, Bit>,
    /// The integer merge's write mask: the merge stage's write mask where its op is an
    /// integer `red`/`atom`, else zero. Registered like `m_fwm` (the decode on one register
    /// fanned out to the merge's 128 bits is a critical path).
    i_iwm: DFF<Bits<128>>,
    /// The words the write stage writes (registered a cycle ahead, like `w_we`).
    w_ww: DFF<Bits<4>>,
    /// The stage being loaded is a `red`/`atom` (for the write masks).
    ra_nx: Signal<Local, Bit>,
    i_intvec: Signal<Local, Bits<128>>,
    i_new: Signal<Local, Bits<128>>,

    // ==== sM: FP result, write back, response (the last `sp_*` stage) ====
    m_fp: Signal<Local, Bit>,
    m_rep: Signal<Local, Bits<2>>,
    m_x16: Signal<Local, Bits<128>>,
    m_x32: Signal<Local, Bits<128>>,
    m_x: Signal<Local, Bits<128>>,
    m_data: Signal<Local, Bits<128>>,
    /// The FP merge's write mask: sM's write mask where its op is an FP `red`/`atom`, else
    /// zero. Registered beside `sp_*[fp_at]`, from what they load, so that the merge's 128
    /// bits, beside the block RAMs' write data, read no form decode of one register.
    m_fwm: DFF<Bits<128>>,
    m_new: Signal<Local, Bits<128>>,
    zero_kind: Constant<Bits<KIND_WIDTH>>,
    rep16: Constant<Bits<2>>,
    rep32: Constant<Bits<2>>,
    rep64: Constant<Bits<2>>,
    rep128: Constant<Bits<2>>,
    zero_status: Constant<Bits<STATUS_WIDTH>>,
    zero_id: Constant<Bits<ID_WIDTH>>,

    // ==== the write stage, as seen by the write (sM, or the last stage when registered) ====
    w_valid: Signal<Local, Bit>,
    w_ordered: Signal<Local, Bit>,
    w_line: Signal<Local, Bits<LINE_BITS>>,
    /// The RAM's write enable: the write stage holds an ordered request that is not a `ld`.
    /// Registered beside the write stage's registers, from what they load (`sp_*[write_at].d`,
    /// whose valid bit already drops in a reset cycle), so that the 32 block RAMs' write
    /// enables leave one flip-flop and the port's `reset` reaches none of them (reset →
    /// write enable would be a critical path). The request in the write stage
    /// in the first cycle of a reset is therefore still written (see "Reset").
    w_we: DFF<Bit>,
    w_new: Signal<Local, Bits<128>>,
    w_rsp: Signal<Local, Bits<128>>,
    w_status: Signal<Local, Bits<STATUS_WIDTH>>,
    w_id: Signal<Local, Bits<ID_WIDTH>>,
    w_fp: Signal<Local, Bit>,

    // ==== sw: the lines written 1 (.. ram_latency) cycles ago ====
    sw_valid: Vec<DFF<Bit>>,
    sw_line: Vec<DFF<Bits<LINE_BITS>>>,
    sw_data: Vec<DFF<Bits<128>>>,
    sw_fp: Vec<DFF<Bit>>,
    unused_sw: Signal<Local, Bit>,

    /// The queue's hazard windows: FP forms, integer/bitwise forms.
    win_fp: Constant<Bits<QUEUE_WAIT_BITS>>,
    win_int: Constant<Bits<QUEUE_WAIT_BITS>>,
    zero_wait: Constant<Bits<QUEUE_WAIT_BITS>>,

    cov_bits: Signal<Local, Bits<COV_WIDTH>>,
    cov_r: DFF<Bits<COV_WIDTH>>,
    ev_fwd_s2: Signal<Local, Bit>,
    ev_fwd_s3: Signal<Local, Bit>,
    ev_fwd_s4: Signal<Local, Bit>,
    ev_fwd_s5: Signal<Local, Bit>,
    ev_queue_full: Signal<Local, Bit>,
    ev_overtake: Signal<Local, Bit>,
    ev_back_to_back_line: Signal<Local, Bit>,
    ev_line_wait: Signal<Local, Bit>,
    ev_fp_hazard_wait: Signal<Local, Bit>,
    ev_fp_chain: Signal<Local, Bit>,
    ev_rsp_misaligned: Signal<Local, Bit>,
    ev_rsp_out_of_range: Signal<Local, Bit>,
    ev_rsp_stall: Signal<Local, Bit>,
    ev_credit_stall: Signal<Local, Bit>,
    ev_reset_in_flight: Signal<Local, Bit>,
    ev_int_chain: Signal<Local, Bit>,
}


impl SliceUnit {
    /// A unit with `mem_bytes` of memory (a multiple of 16), every block at its shallowest
    /// depth (`Config::default()`, the most operations per cycle; the unit's default
    /// configuration, which [`unit_verilog`] writes, is [`Config::unit_default`]).
    pub fn new(mem_bytes: usize) -> Self {
        Self::with_config(mem_bytes, &Config::default())
    }

    /// A unit with `mem_bytes` of memory and the pipeline depths of `cfg`
    /// (latency [`unit_latency`]).
    pub fn with_config(mem_bytes: usize, cfg: &Config) -> Self {
        cfg.validate().unwrap_or_else(|e| panic!("SliceUnit: {e}"));
        // FP results merge in sM, M = 1 + lat (`sp_*[lat - 1]`); integer results in
        // s(1 + int_lat). The queue holds a line for the cycles its op spends before the merge.
        let lat = cfg.alu_latency();
        let int_lat = cfg.int_alu_latency();
        assert!(int_lat >= 1 && int_lat < lat, "SliceUnit: merge stages out of order");
        let sh = shape(cfg);
        assert!(sh.stages + sh.ram_latency <= 32 && sh.win_fp <= crate::ordering_queue::QUEUE_WAIT_MAX);
        let (win_fp, win_int) = (sh.win_fp, sh.win_int);
        assert!(mem_bytes > 0 && mem_bytes % 16 == 0, "memory size must be a positive multiple of 16");
        assert!(mem_bytes >= 32 && (mem_bytes as u64) < 1u64 << 32, "memory size must be in 32..2^32");
        let elem_log2 = elem_log2_table();
        // The written-line stages (`sw_*`) cover the RAM's read latency.
        let mem = LineMemory::with_output_register(mem_bytes / 16, cfg.unit_regs);
        assert_eq!(mem.read_latency(), sh.ram_latency, "SliceUnit: the RAM's read latency and the pipeline shape disagree");
        // The registered pipeline's forwarding sources (bit j: `sp_*[j]`, bit stages + k:
        // `sw_*[k]`): those whose line in s1 is the line a register holds in sr (the stage
        // before it, with no merge between: every source but s2 and the stages right after the
        // integer and the FP merges) are selected a cycle early, split in two halves.
        let fs_pre = {
            let n = sh.stages + sh.ram_latency;
            let now = |s: usize| s == 0 || s == sh.int_at + 1 || s == sh.fp_at + 1;
            let pre: Vec<usize> = (0..n).filter(|&s| !now(s)).collect();
            let (a, b) = pre.split_at(pre.len() / 2);
            let m = |v: &[usize]| v.iter().fold(0u128, |m, &s| m | 1 << s);
            (m(a), m(b), (0..n).filter(|&s| now(s)).fold(0u128, |m, s| m | 1 << s))
        };
        let mut fp = 0u128;
        for t in sim::form::TYPES {
            let code = t as u128;
            if !is_int_type(t) {
                fp |= 1 << code;
            }
        }
        Self {
            clock: Default::default(),
            reset: Default::default(),
            req_valid: Default::default(),
            req_ready: Default::default(),
            req_op: Default::default(),
            req_addr: Default::default(),
            req_data: Default::default(),
            req_id: Default::default(),
            req_mask: Default::default(),
            rsp_valid: Default::default(),
            rsp_ready: Default::default(),
            rsp_id: Default::default(),
            rsp_data: Default::default(),
            rsp_status: Default::default(),
            cov: Default::default(),
            queue: OrderingQueue::with_registered_push(win_fp.max(1), cfg.unit_regs).with_chain_wait(sh.win_chain.max(1)),
            mem,
            int_alu: IntAlu::new(cfg),
            int_lane: std::array::from_fn(|_| IntAlu::new(cfg)),
            alu: if cfg.unit_regs {
                ReductionAlu::with_early_hold(cfg, true).with_old_replicas().fp_only()
            } else {
                ReductionAlu::with_early_hold(cfg, false).fp_only()
            },
            rsp_fifo: ResponseFifo::new(sh.rsp_depth),
            mem_bytes: k(mem_bytes as u128),
            kind_lsb: k(KIND_LSB as u128),
            op_lsb: k(OP_LSB as u128),
            ty_lsb: k(TYPE_LSB as u128),
            vec_lsb: k(VEC_LSB as u128),
            kind_red: k(KIND_RED as u128),
            kind_atom: k(KIND_ATOM as u128),
            kind_ld: k(KIND_LD as u128),
            kind_st: k(KIND_ST as u128),
            status_ok: k(STATUS_OK as u128),
            status_mis: k(STATUS_MISALIGNED as u128),
            status_oor: k(STATUS_OUT_OF_RANGE as u128),
            elem_log2_tbl: k(elem_log2),
            fp_tbl: k(fp),
            two3: k(2),
            size1: k(1),
            size2: k(2),
            size3: k(3),
            align1: k(1),
            align3: k(3),
            align7: k(7),
            align15: k(15),
            mask16: k(u16::MAX as u128),
            mask32: k(u32::MAX as u128),
            mask64: k(u64::MAX as u128),
            mask128: k(u128::MAX),
            zero128: k(0),
            zero_cov: k(0),
            zero_key: k(0),
            zero64: k(0),
            ones4: k(15),
            one4: k(1),
            two4: k(2),
            three4: k(3),
            three2: k(3),
            key_chain: k(1 << (QUEUE_KEY_BITS - 1)),
            p_off: k(P_OFF as u128),
            p_size: k(P_SIZE as u128),
            p_fp: k(P_FP as u128),
            p_status: k(P_STATUS as u128),
            p_id: k(P_ID as u128),
            p_data: k(P_DATA as u128),
            p_mask: k(P_MASK as u128),
            size4: k(4),
            zero8: k(0),
            zero2: k(0),
            elog1: k(1),
            elog2: k(2),
            elog3: k(3),
            vec_clear: k(((1u128 << CODE_WIDTH) - 1) & !(((1u128 << VEC_WIDTH) - 1) << VEC_LSB)),
            r_data: k(R_DATA as u128),
            r_status: k(R_STATUS as u128),
            // (The registered pipeline's queue shows an issue a cycle after its pick, so the
            // count lags by up to one issue: one place less keeps the FIFO from overflowing.)
            credit_max: k((sh.rsp_depth - cfg.unit_regs as usize) as u128),
            credit_max_m1: k((sh.rsp_depth - cfg.unit_regs as usize - 1) as u128),
            credit_max_p1: k((sh.rsp_depth - cfg.unit_regs as usize + 1) as u128),
            one6: k(1),
            zero6: k(0),
            zero_line: k(0),
            line_mask: k(((mem_bytes / 16).next_power_of_two() - 1) as u128),
            one8: k(1),
            three7: k(3),
            ox: Default::default(),
            xs_4: k(0b110_0000),
            xs_8: k(0b100_0000),
            a_kind: Default::default(),
            a_form: Default::default(),
            a_ty: Default::default(),
            a_ty2: Default::default(),
            a_elog: Default::default(),
            a_memop: Default::default(),
            a_size: Default::default(),
            a_fp: Default::default(),
            a_align: Default::default(),
            a_status: Default::default(),
            a_sector: Default::default(),
            a_mask: Default::default(),
            a_line: Default::default(),
            a_ordered: Default::default(),
            a_wait: Default::default(),
            a_payload: Default::default(),
            ac_valid: Default::default(),
            ac_line: Default::default(),
            ac_ordered: Default::default(),
            ac_wait: Default::default(),
            ac_payload: Default::default(),
            a_key: Default::default(),
            ac_key: Default::default(),
            a_words: Default::default(),
            ac_words: Default::default(),
            sc_ww: Default::default(),
            si_ww: Default::default(),
            sr_ww: Default::default(),
            s1_ww: Default::default(),
            s1b_ww: Default::default(),
            sp_ww: (0..sh.stages).map(|_| Default::default()).collect(),
            fsel_cq: Default::default(),
            fsel_rq: Default::default(),
            fs_v: Default::default(),
            fs_hq: Default::default(),
            fs_b: Default::default(),
            w_ww: Default::default(),
            ac_load: Default::default(),
            ac_ld: Default::default(),
            ac_ld_q: Default::default(),
            ac_v_nx: Default::default(),
            ac_line_nx: Default::default(),
            unused_decode: Default::default(),
            unused_alu: Default::default(),
            issue: Default::default(),
            credits: Default::default(),
            cr_full: Default::default(),
            credits_nx: Default::default(),
            cr_ge_p1: Default::default(),
            cr_ge_0: Default::default(),
            cr_ge_m1: Default::default(),
            rsp_fire: Default::default(),
            sc_valid: Default::default(),
            sc_ordered: Default::default(),
            sc_line: Default::default(),
            sc_cl: Default::default(),
            sc_vo: Default::default(),
            sc_ra: Default::default(),
            si_valid: Default::default(),
            si_ordered: Default::default(),
            si_line: Default::default(),
            si_ra: Default::default(),
            issue_ra: Default::default(),
            si_payload: Default::default(),
            sr_valid: Default::default(),
            sr_ordered: Default::default(),
            sr_line: Default::default(),
            sr_payload: Default::default(),
            fsel: Default::default(),
            fsel_r: Default::default(),
            fsel_q: Default::default(),
            qmask: std::array::from_fn(|q| k((u32::MAX as u128) << (32 * q))),
            fsel_s: Default::default(),
            fs_any_r: Default::default(),
            fs_any_s: Default::default(),
            fs_pre_a: k(fs_pre.0),
            fs_pre_b: k(fs_pre.1),
            fs_now: k(fs_pre.2),
            fpre: Default::default(),
            fp_a: Default::default(),
            fp_b: Default::default(),
            fsel_r_sw: Default::default(),
            fs_eq: Default::default(),
            sup_s1: Default::default(),
            sup_s1b: Default::default(),
            sup_sp: (0..sh.stages - 1).map(|_| Default::default()).collect(),
            zero32: k(0),
            top31: k(31),
            take_top: k(8),
            zero4: k(0),
            s1_fwd_x: Default::default(),
            s1_take: Default::default(),
            rfm: Default::default(),
            fsel_sw: Default::default(),
            fsw_sh: k(sh.stages as u128),
            fs_sh: k((32 - sh.stages - sh.ram_latency) as u128),
            regs: Constant::new(cfg.unit_regs),
            y_r: std::array::from_fn(|_| Cut::new(cfg.unit_regs)),
            y_rr: Cut::new(cfg.unit_regs),
            ch_m: std::array::from_fn(|d| k(sh.chain_map[d])),
            ch_d: Default::default(),
            ch_nx: Default::default(),
            ch_me: Default::default(),
            ch_p: Default::default(),
            s1r_op: Default::default(),
            s1r_kind: Default::default(),
            ch_val: Default::default(),
            ch_any: Default::default(),
            out_r: Cut::new(cfg.unit_regs),
            s1b_valid: Default::default(),
            s1b_ordered: Default::default(),
            s1b_line: Default::default(),
            s1b_payload: Default::default(),
            s1b_old: Default::default(),
            c_valid: Default::default(),
            c_ordered: Default::default(),
            c_line: Default::default(),
            c_payload: Default::default(),
            c_old_line: Default::default(),
            s1r_fp: Default::default(),
            win_mem: k(sh.win_mem as u128),
            s1_valid: Default::default(),
            s1_ordered: Default::default(),
            s1_line: Default::default(),
            s1_payload: Default::default(),
            s1_op: Default::default(),
            s1_form: Default::default(),
            s1_kind: Default::default(),
            s1_fp: Default::default(),
            s1_status: Default::default(),
            s1_id: Default::default(),
            s1_data: Default::default(),
            s1_rep: Default::default(),
            s1_mask: Default::default(),
            s1_old_line: Default::default(),
            s1_old: Default::default(),
            s1_old_int: Default::default(),
            s1_old_mm: Default::default(),
            s1_old_wide: Default::default(),
            s1_old_rsp: Default::default(),
            s1_cas: Default::default(),
            s1_cas_eq: Default::default(),
            s1_fwd_fp: Default::default(),
            dw_mask8: Default::default(),
            s1_sector: Default::default(),
            dw_ty2: Default::default(),
            dw_elogw: Default::default(),
            dw_exp: Default::default(),
            s1_wmask: Default::default(),
            dw_payload: Default::default(),
            unused_dw: Default::default(),
            dw_form: Default::default(),
            dw_off: Default::default(),
            off_even: k(0b1110),
            dw_size: Default::default(),
            dw_data: Default::default(),
            dw_sh: Default::default(),
            s1_sh: Default::default(),
            rw_sh: Cut::new(cfg.unit_regs),
            dw_mask: Default::default(),
            dw_sector: Default::default(),
            dw_elog: Default::default(),
            dw_wmask: Default::default(),
            dw_stm: Default::default(),
            dw_std: Default::default(),
            dw_rep: Default::default(),
            rw_rep: Cut::new(cfg.unit_regs),
            rw_mask: Cut::new(cfg.unit_regs),
            rw_wmask: Cut::new(cfg.unit_regs),
            rw_sector: Cut::new(cfg.unit_regs),
            rw_elog: Cut::new(cfg.unit_regs),
            rw_stm: Cut::new(cfg.unit_regs),
            rw_std: Cut::new(cfg.unit_regs),
            s1_stm: Default::default(),
            s1_std: Default::default(),
            s1_alu_form: Default::default(),
            s1_vecf: Default::default(),
            zero_form: Constant::new(Bits::default()),
            s1_elog: Default::default(),
            pre_form_r: Default::default(),
            pre_form_rr: Default::default(),
            sr_form: Default::default(),
            sr_ty2: Default::default(),
            sr_elogw: Default::default(),
            sr_vecf: Default::default(),
            sr_alu_form: Default::default(),
            unused_sector: Default::default(),
            unused_wm: Default::default(),
            sp_valid: (0..sh.stages).map(|_| Default::default()).collect(),
            sp_ordered: (0..sh.stages).map(|_| Default::default()).collect(),
            sp_line: (0..sh.stages).map(|_| Default::default()).collect(),
            sp_kind: (0..sh.stages).map(|_| Default::default()).collect(),
            sp_fp: (0..sh.stages).map(|_| Default::default()).collect(),
            sp_rep: (0..sh.stages).map(|_| Default::default()).collect(),
            sp_data: (0..sh.stages).map(|_| Default::default()).collect(),
            sp_rsp: (0..sh.stages).map(|_| Default::default()).collect(),
            sp_status: (0..sh.stages).map(|_| Default::default()).collect(),
            sp_id: (0..sh.stages).map(|_| Default::default()).collect(),
            sp_sector: (0..sh.stages).map(|_| Default::default()).collect(),
            sp_wmask: (0..sh.stages).map(|_| Default::default()).collect(),
            int_at: k(1 << sh.int_at),
            fp_at: k(1 << sh.fp_at),
            wr_at: k(1 << sh.write_at),
            dly_int64: Delay::new(sh.int_at + 1),
            st_nd: Default::default(),
            fw_found: Default::default(),
            fw_hit: Default::default(),
            i_rep: Default::default(),
            i_x32: Default::default(),
            i_x: Default::default(),
            i_base: Default::default(),
            i_sector: Default::default(),
            i_iwm: Default::default(),
            ra_nx: Default::default(),
            i_intvec: Default::default(),
            i_new: Default::default(),
            m_fp: Default::default(),
            m_rep: Default::default(),
            m_x16: Default::default(),
            m_x32: Default::default(),
            m_x: Default::default(),
            m_data: Default::default(),
            m_fwm: Default::default(),
            m_new: Default::default(),
            zero_kind: k(0),
            rep16: k(0),
            rep32: k(1),
            rep64: k(2),
            rep128: k(3),
            zero_status: k(0),
            zero_id: k(0),
            w_valid: Default::default(),
            w_ordered: Default::default(),
            w_line: Default::default(),
            w_we: Default::default(),
            w_new: Default::default(),
            w_rsp: Default::default(),
            w_status: Default::default(),
            w_id: Default::default(),
            w_fp: Default::default(),
            sw_valid: (0..sh.ram_latency).map(|_| Default::default()).collect(),
            sw_line: (0..sh.ram_latency).map(|_| Default::default()).collect(),
            sw_data: (0..sh.ram_latency).map(|_| Default::default()).collect(),
            sw_fp: (0..sh.ram_latency).map(|_| Default::default()).collect(),
            unused_sw: Default::default(),
            win_fp: k(win_fp as u128),
            win_int: k(win_int as u128),
            zero_wait: k(0),
            cov_bits: Default::default(),
            cov_r: Default::default(),
            ev_fwd_s2: Default::default(),
            ev_fwd_s3: Default::default(),
            ev_fwd_s4: Default::default(),
            ev_fwd_s5: Default::default(),
            ev_queue_full: Default::default(),
            ev_overtake: Default::default(),
            ev_back_to_back_line: Default::default(),
            ev_line_wait: Default::default(),
            ev_fp_hazard_wait: Default::default(),
            ev_fp_chain: Default::default(),
            ev_rsp_misaligned: Default::default(),
            ev_rsp_out_of_range: Default::default(),
            ev_rsp_stall: Default::default(),
            ev_credit_stall: Default::default(),
            ev_reset_in_flight: Default::default(),
            ev_int_chain: Default::default(),
        }
    }
}

impl Logic for SliceUnit {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, cov_r, ac_valid, ac_ld, ac_line, ac_ordered, ac_wait, ac_payload, ac_key, ac_words, sc_ww, si_ww, sr_ww, s1_ww, s1b_ww, w_ww, credits, cr_full, s1_valid, s1_ordered, s1_line, s1_payload, sc_valid, sc_ordered, sc_vo, sc_line, sc_ra, si_valid, si_ordered, si_line, si_ra, si_payload, sr_valid, sr_ordered, sr_line, sr_payload, fsel, fsel_r, fs_any_r, pre_form_r, pre_form_rr, sup_s1, sup_s1b, m_fwm, i_iwm, w_we, s1b_valid, s1b_ordered, s1b_line, s1b_payload, s1b_old);
        clock!(self, clock, dly_int64, out_r, rw_sh, rw_rep, rw_mask, rw_wmask, rw_sector, rw_elog, rw_stm, rw_std);
        for i in 0..4 {
            self.y_r[i].clock.next = self.clock.val();
        }
        for h in 0..2 {
            self.fpre[h].clock.next = self.clock.val();
        }
        self.y_rr.clock.next = self.clock.val();
        for d in 0..2 {
            self.ch_d[d].clock.next = self.clock.val();
        }
        for q in 0..4 {
            self.fsel_cq[q].clock.next = self.clock.val();
            self.fsel_rq[q].clock.next = self.clock.val();
        }
        self.sc_cl.clock.next = self.clock.val();
        self.ac_ld_q.clock.next = self.clock.val();
        for q in 0..4 {
            self.fsel_q[q].clock.next = self.clock.val();
            self.fsel_s[q].clock.next = self.clock.val();
            self.fs_any_s[q].clock.next = self.clock.val();
        }
        for j in 0..self.sup_sp.len() {
            self.sup_sp[j].clock.next = self.clock.val();
        }
        for k in 0..self.sw_valid.len() {
            self.sw_valid[k].clock.next = self.clock.val();
            self.sw_line[k].clock.next = self.clock.val();
            self.sw_data[k].clock.next = self.clock.val();
            self.sw_fp[k].clock.next = self.clock.val();
        }
        for j in 0..self.sp_valid.len() {
            self.sp_valid[j].clock.next = self.clock.val();
            self.sp_ordered[j].clock.next = self.clock.val();
            self.sp_line[j].clock.next = self.clock.val();
            self.sp_kind[j].clock.next = self.clock.val();
            self.sp_fp[j].clock.next = self.clock.val();
            self.sp_rep[j].clock.next = self.clock.val();
            self.sp_data[j].clock.next = self.clock.val();
            self.sp_rsp[j].clock.next = self.clock.val();
            self.sp_status[j].clock.next = self.clock.val();
            self.sp_id[j].clock.next = self.clock.val();
            self.sp_sector[j].clock.next = self.clock.val();
            self.sp_wmask[j].clock.next = self.clock.val();
            self.sp_ww[j].clock.next = self.clock.val();
            // Each stage carries the one before it (stage 0, s2, takes s1 below).
            self.sp_valid[j].d.next = false;
            self.sp_ordered[j].d.next = false;
            self.sp_line[j].d.next = self.zero_line.val();
            self.sp_kind[j].d.next = self.zero_kind.val();
            self.sp_fp[j].d.next = false;
            self.sp_rep[j].d.next = self.rep128.val();
            self.sp_data[j].d.next = self.zero128.val();
            self.sp_rsp[j].d.next = self.zero128.val();
            self.sp_status[j].d.next = self.zero_status.val();
            self.sp_id[j].d.next = self.zero_id.val();
            self.sp_sector[j].d.next = false;
            self.sp_wmask[j].d.next = self.zero128.val();
            self.sp_ww[j].d.next = self.zero4.val();
        }
        self.queue.clock.next = self.clock.val();
        self.queue.reset.next = self.reset.val();
        self.mem.clock.next = self.clock.val();
        self.int_alu.clock.next = self.clock.val();
        for i in 0..3 {
            self.int_lane[i].clock.next = self.clock.val();
        }
        self.alu.clock.next = self.clock.val();
        self.rsp_fifo.clock.next = self.clock.val();
        self.rsp_fifo.reset.next = self.reset.val();
        self.ev_fwd_s2.next = false;
        self.ev_fwd_s3.next = false;
        self.ev_fwd_s4.next = false;
        self.ev_fwd_s5.next = false;
        self.ev_queue_full.next = false;
        self.ev_overtake.next = false;
        self.ev_back_to_back_line.next = false;
        self.ev_line_wait.next = false;
        self.ev_fp_hazard_wait.next = false;
        self.ev_fp_chain.next = false;
        self.ev_rsp_misaligned.next = false;
        self.ev_rsp_out_of_range.next = false;
        self.ev_rsp_stall.next = false;
        self.ev_credit_stall.next = false;
        self.ev_reset_in_flight.next = false;
        self.ev_int_chain.next = false;

        // ==========================================================================
        // s0 accept: decode the operation, size, alignment, range; push into the queue.
        // ==========================================================================
        self.a_kind.next = self.req_op.val().get_bits::<KIND_WIDTH>(self.kind_lsb.val().index());
        self.a_form.next = self.req_op.val().get_bits::<CODE_WIDTH>(0);
        self.a_ty.next = self.a_form.val().get_bits::<TYPE_WIDTH>(self.ty_lsb.val().index());
        self.a_memop.next = (self.a_kind.val() == self.kind_ld.val()) || (self.a_kind.val() == self.kind_st.val());
        self.a_ty2.next = bit_cast::<8, TYPE_WIDTH>(self.a_ty.val()) << self.one8.val();
        self.a_elog.next = self.elem_log2_tbl.val() >> self.a_ty2.val();
        // log2 of the access bytes: ld/st 2 + width code; forms log2(element bytes) + log2(vec).
        if self.a_memop.val() {
            self.a_size.next = self.two3.val() + bit_cast::<3, 2>(self.a_form.val().get_bits::<2>(0));
            self.a_fp.next = false;
        } else {
            self.a_size.next = bit_cast::<3, 2>(self.a_elog.val().get_bits::<2>(0))
                + bit_cast::<3, VEC_WIDTH>(self.a_form.val().get_bits::<VEC_WIDTH>(self.vec_lsb.val().index()));
            self.a_fp.next = self.fp_tbl.val().get_bit(self.a_ty.val().index());
        }
        // A masked sector request (red/atom with a non-zero mask) spans its whole 16-byte line.
        self.a_sector.next = self.req_mask.val().any()
            && ((self.a_kind.val() == self.kind_red.val()) || (self.a_kind.val() == self.kind_atom.val()));
        self.a_mask.next = self.zero8.val();
        if self.a_sector.val() {
            self.a_size.next = self.size4.val();
            self.a_mask.next = self.req_mask.val();
        }
        self.a_align.next = self.align15.val();
        if self.a_size.val() == self.size1.val() {
            self.a_align.next = self.align1.val();
        } else if self.a_size.val() == self.size2.val() {
            self.a_align.next = self.align3.val();
        } else if self.a_size.val() == self.size3.val() {
            self.a_align.next = self.align7.val();
        }
        // Misaligned first, then out of range (an aligned access of at most 16 bytes in a
        // memory of whole lines is in range exactly when its first byte is).
        if (self.req_addr.val().get_bits::<4>(0) & self.a_align.val()).any() {
            self.a_status.next = self.status_mis.val();
        } else if self.req_addr.val() >= self.mem_bytes.val() {
            self.a_status.next = self.status_oor.val();
        } else {
            self.a_status.next = self.status_ok.val();
        }
        // Only the line bits the memory has: an ordered request is in range, so its upper bits
        // are zero; the bits above are constant and synthesis drops them from every line
        // register and compare (the queue's, the pipeline's, forwarding).
        self.a_line.next = self.req_addr.val().get_bits::<LINE_BITS>(4) & self.line_mask.val();
        self.a_ordered.next = self.a_status.val() == self.status_ok.val();
        // The queue holds ordered requests to the line of an op for the cycles its result
        // does not exist yet (the op in s1 .. before its merge stage): FP forms alu_latency - 1
        // cycles after their issue, integer/bitwise forms int_alu_latency - 1, ld/st none.
        self.a_wait.next = self.zero_wait.val();
        if self.a_fp.val() {
            self.a_wait.next = self.win_fp.val();
        } else if (self.a_kind.val() == self.kind_red.val()) || (self.a_kind.val() == self.kind_atom.val()) {
            self.a_wait.next = self.win_int.val();
        } else {
            self.a_wait.next = self.win_mem.val();
        }
        self.a_payload.next = bit_cast::<QUEUE_PAYLOAD_BITS, REQ_OP_WIDTH>(self.req_op.val())
            | (bit_cast::<QUEUE_PAYLOAD_BITS, 4>(self.req_addr.val().get_bits::<4>(0)) << self.p_off.val())
            | (bit_cast::<QUEUE_PAYLOAD_BITS, 3>(self.a_size.val()) << self.p_size.val())
            | (bit_cast::<QUEUE_PAYLOAD_BITS, 1>(self.a_fp.val().into()) << self.p_fp.val())
            | (bit_cast::<QUEUE_PAYLOAD_BITS, STATUS_WIDTH>(self.a_status.val()) << self.p_status.val())
            | (bit_cast::<QUEUE_PAYLOAD_BITS, ID_WIDTH>(self.req_id.val()) << self.p_id.val())
            | (bit_cast::<QUEUE_PAYLOAD_BITS, 128>(self.req_data.val()) << self.p_data.val())
            | (bit_cast::<QUEUE_PAYLOAD_BITS, 8>(self.a_mask.val()) << self.p_mask.val());
        // The words the access touches: its aligned size from its first word (a masked sector
        // request, and every request of the shallow pipeline, the whole line).
        self.a_words.next = self.ones4.val();
        if self.regs.val() && !self.a_sector.val() {
            if self.a_size.val() == self.size3.val() {
                self.a_words.next = self.three4.val() << (self.req_addr.val().get_bits::<4>(0) >> self.two4.val());
            } else if self.a_size.val() < self.size3.val() {
                self.a_words.next = self.one4.val() << (self.req_addr.val().get_bits::<4>(0) >> self.two4.val());
            }
        }
        // The chain key: the bytes (offset, size) of a plain integer red/atom in range.
        self.a_key.next = bit_cast::<QUEUE_KEY_BITS, 4>(self.req_addr.val().get_bits::<4>(0))
            | (bit_cast::<QUEUE_KEY_BITS, 3>(self.a_size.val()) << 4);
        if self.regs.val()
            && self.a_ordered.val()
            && !self.a_fp.val()
            && !self.a_sector.val()
            && ((self.a_kind.val() == self.kind_red.val()) || (self.a_kind.val() == self.kind_atom.val()))
        {
            self.a_key.next = self.a_key.val() | self.key_chain.val();
        } else {
            self.a_key.next = self.zero_key.val();
        }
        // The push: the decoded request, or in the registered pipeline that of the cycle
        // before (`ac_*`, filled while empty or moving into the queue), so that the queue's
        // line compares start from registers.
        // (Only in the registered pipeline: a read of `push_ready` beside the writes of the
        // queue's inputs makes Verilator see a loop through the queue.)
        // (`ac_ld`: `!ac_valid || push_ready` as a register of its own, from both registers'
        // next values, so the 200-odd clock enables hang off a register, not a LUT.)
        self.ac_load.next = self.regs.val() && self.ac_ld.q.val();
        self.ac_v_nx.next = self.ac_valid.q.val();
        self.ac_line_nx.next = self.ac_line.q.val();
        if self.ac_load.val() {
            self.ac_v_nx.next = self.req_valid.val();
            self.ac_line_nx.next = self.a_line.val();
            self.ac_ordered.d.next = self.a_ordered.val();
            self.ac_wait.d.next = self.a_wait.val();
            self.ac_payload.d.next = self.a_payload.val();
            self.ac_key.d.next = self.a_key.val();
            self.ac_words.d.next = self.a_words.val();
        }
        if self.reset.val() {
            self.ac_v_nx.next = false;
        }
        self.ac_valid.d.next = self.ac_v_nx.val();
        self.ac_line.d.next = self.ac_line_nx.val();
        // (Separate statements for `req_ready` and the queue's inputs: Verilator orders this
        // block's statements in groups, and one that reads `push_ready` and writes
        // `push_valid` would be a loop through the queue.)
        self.req_ready.next = self.queue.push_ready.val();
        if self.regs.val() {
            self.req_ready.next = self.ac_load.val() && !self.reset.val();
        }
        self.queue.push_valid.next = self.req_valid.val();
        self.queue.push_line.next = self.a_line.val();
        self.queue.push_line_nx.next = self.a_line.val();
        self.queue.push_nx_keep.next = false;
        self.queue.push_ordered.next = self.a_ordered.val();
        self.queue.push_wait.next = self.a_wait.val();
        self.queue.push_payload.next = self.a_payload.val();
        self.queue.push_key.next = self.zero_key.val();
        self.queue.push_words.next = self.a_words.val();
        if self.regs.val() {
            self.queue.push_valid.next = self.ac_valid.q.val();
            self.queue.push_line.next = self.ac_line.q.val();
            // (The next push line: `a_line` (above) when the register loads, else its own;
            // whether it loads from `ac_ld`'s replica.)
            self.queue.push_nx_keep.next = !self.ac_ld_q.q.val();
            self.queue.push_ordered.next = self.ac_ordered.q.val();
            self.queue.push_wait.next = self.ac_wait.q.val();
            self.queue.push_payload.next = self.ac_payload.q.val();
            self.queue.push_key.next = self.ac_key.q.val();
            self.queue.push_words.next = self.ac_words.q.val();
        }
        // (Its own statement, like `req_ready`.)
        self.ac_ld.d.next = !self.ac_v_nx.val() || self.queue.push_ready_nx.val();
        self.ac_ld_q.d.next = !self.ac_v_nx.val() || self.queue.push_ready_nx.val();
        if self.queue.cov_back_to_back.val() {
            self.ev_back_to_back_line.next = true;
        }
        // Unused decode bits (the space bit, op bits of ld/st) and table bits.
        self.unused_decode.next = self.a_form.val().any() ^ self.a_elog.val().any();

        // ==========================================================================
        // Decode of the registers of s1, and the new lines of s2 (integer result) and s4
        // (FP result): read by the issue and forwarding logic below.
        // ==========================================================================
        self.c_valid.next = self.s1_valid.q.val();
        self.c_ordered.next = self.s1_ordered.q.val();
        self.c_line.next = self.s1_line.q.val();
        self.c_payload.next = self.s1_payload.q.val();
        if self.regs.val() {
            self.c_valid.next = self.s1b_valid.q.val();
            self.c_ordered.next = self.s1b_ordered.q.val();
            self.c_line.next = self.s1b_line.q.val();
            self.c_payload.next = self.s1b_payload.q.val();
        }
        self.s1r_fp.next = self.s1_payload.q.val().get_bit(self.p_fp.val().index());
        self.s1_op.next = self.c_payload.val().get_bits::<REQ_OP_WIDTH>(0);
        self.s1_form.next = self.s1_op.val().get_bits::<CODE_WIDTH>(0);
        self.s1_kind.next = self.s1_op.val().get_bits::<KIND_WIDTH>(self.kind_lsb.val().index());
        self.s1_fp.next = self.c_payload.val().get_bit(self.p_fp.val().index());
        self.s1_status.next = self.c_payload.val().get_bits::<STATUS_WIDTH>(self.p_status.val().index());
        self.s1_id.next = self.c_payload.val().get_bits::<ID_WIDTH>(self.p_id.val().index());
        self.s1_data.next = self.c_payload.val().get_bits::<128>(self.p_data.val().index());
        // The access's shift and byte masks (`dw_*`), decoded from s1's payload: in the
        // registered pipeline registered (`rw_*`) for s1b, so the masks do not sit between
        // s1b's payload and the line merge.
        // (s1's payload in both pipelines: the default's s1 computes, the registered
        // pipeline's s1b a cycle later.)
        self.dw_payload.next = self.s1_payload.q.val();
        self.dw_form.next = self.dw_payload.val().get_bits::<CODE_WIDTH>(0);
        // (Its other fields are read from the computing stage's payload; all of it counts as
        // used here.)
        self.unused_dw.next = self.dw_payload.val().any() ^ self.dw_form.val().any();
        // (Bit 0 cleared: every access that reads or writes the line is 2-byte aligned or
        // more, a misaligned one is an unordered error; the shifts then have 8 places, not 16.)
        self.dw_off.next = self.dw_payload.val().get_bits::<4>(self.p_off.val().index()) & self.off_even.val();
        self.dw_size.next = self.dw_payload.val().get_bits::<3>(self.p_size.val().index());
        self.dw_data.next = self.dw_payload.val().get_bits::<128>(self.p_data.val().index());
        self.dw_sh.next = bit_cast::<7, 4>(self.dw_off.val()) << self.three7.val();
        self.dw_mask.next = self.mask128.val();
        self.dw_rep.next = self.rep128.val();
        if self.dw_size.val() == self.size1.val() {
            self.dw_mask.next = self.mask16.val();
            self.dw_rep.next = self.rep16.val();
        } else if self.dw_size.val() == self.size2.val() {
            self.dw_mask.next = self.mask32.val();
            self.dw_rep.next = self.rep32.val();
        } else if self.dw_size.val() == self.size3.val() {
            self.dw_mask.next = self.mask64.val();
            self.dw_rep.next = self.rep64.val();
        }
        // The bytes the request writes in its line (`dw_wmask`): the access (plain), or the
        // enabled elements of the form's element size (masked sector request; offset 0).
        self.dw_mask8.next = self.dw_payload.val().get_bits::<8>(self.p_mask.val().index());
        self.dw_sector.next = self.dw_mask8.val().any();
        self.dw_ty2.next =
            bit_cast::<8, TYPE_WIDTH>(self.dw_form.val().get_bits::<TYPE_WIDTH>(self.ty_lsb.val().index())) << self.one8.val();
        self.dw_elogw.next = self.elem_log2_tbl.val() >> self.dw_ty2.val();
        self.dw_elog.next = self.dw_elogw.val().get_bits::<2>(0);
        self.dw_exp.next = self.zero128.val();
        if self.dw_elog.val() == self.elog1.val() {
            for i in 0..8 {
                self.dw_exp.next = self.dw_exp.val() << 16;
                if self.dw_mask8.val().get_bit(7 - i) {
                    self.dw_exp.next = self.dw_exp.val() | self.mask16.val();
                }
            }
        } else if self.dw_elog.val() == self.elog2.val() {
            for i in 0..4 {
                self.dw_exp.next = self.dw_exp.val() << 32;
                if self.dw_mask8.val().get_bit(3 - i) {
                    self.dw_exp.next = self.dw_exp.val() | self.mask32.val();
                }
            }
        } else {
            for i in 0..2 {
                self.dw_exp.next = self.dw_exp.val() << 64;
                if self.dw_mask8.val().get_bit(1 - i) {
                    self.dw_exp.next = self.dw_exp.val() | self.mask64.val();
                }
            }
        }
        // The access's bytes in its line (a store's, whatever its mask).
        self.dw_stm.next = self.dw_mask.val() << self.dw_sh.val();
        self.dw_wmask.next = self.dw_stm.val();
        if self.dw_sector.val() {
            self.dw_wmask.next = self.dw_exp.val();
            self.dw_rep.next = self.rep128.val();
        }
        // A store's data in its line: the data shifted; the merge masks it with the shifted
        // mask (`s1_stm`), so the shift does not wait for the size decode. (Masked here, the
        // mask decode and the shift in series are a critical path of the registered
        // pipeline; in the merge the mask is an input it reads anyway.)
        self.dw_std.next = self.dw_data.val() << self.dw_sh.val();
        self.rw_sh.d.next = self.dw_sh.val();
        self.rw_rep.d.next = self.dw_rep.val();
        self.rw_mask.d.next = self.dw_mask.val();
        self.rw_wmask.d.next = self.dw_wmask.val();
        self.rw_sector.d.next = self.dw_sector.val();
        // The ALU's next form in the registered pipeline (`pre_form`): s1's, decoded as
        // `s1_alu_form` below decodes it for the default pipeline's computing stage, from
        // sr's payload into a register (`pre_form_r`; s1's payload is sr's of the cycle
        // before; s1b's form is `pre_form_rr`, the same a cycle later). (Not from the
        // `dw_*` decode through a cut: the `rw_*` cuts are wires in the default pipeline, and
        // a cut there made Verilator see a loop (UNOPTFLAT) through them.)
        self.sr_form.next = self.sr_payload.q.val().get_bits::<CODE_WIDTH>(0);
        self.sr_ty2.next =
            bit_cast::<8, TYPE_WIDTH>(self.sr_form.val().get_bits::<TYPE_WIDTH>(self.ty_lsb.val().index())) << self.one8.val();
        self.sr_elogw.next = self.elem_log2_tbl.val() >> self.sr_ty2.val();
        self.sr_vecf.next = self.zero2.val() - self.sr_elogw.val().get_bits::<2>(0);
        self.sr_alu_form.next = self.sr_form.val();
        if self.sr_payload.q.val().get_bits::<8>(self.p_mask.val().index()).any() {
            self.sr_alu_form.next = (self.sr_form.val() & self.vec_clear.val())
                | (bit_cast::<CODE_WIDTH, 2>(self.sr_vecf.val()) << self.vec_lsb.val());
        }
        self.pre_form_r.d.next = self.sr_alu_form.val();
        self.pre_form_rr.d.next = self.pre_form_r.q.val();
        self.rw_elog.d.next = self.dw_elog.val();
        self.rw_stm.d.next = self.dw_stm.val();
        self.rw_std.d.next = self.dw_std.val();
        self.s1_sh.next = self.rw_sh.q.val();
        self.s1_rep.next = self.rw_rep.q.val();
        self.s1_mask.next = self.rw_mask.q.val();
        self.s1_wmask.next = self.rw_wmask.q.val();
        self.s1_sector.next = self.rw_sector.q.val();
        self.s1_stm.next = self.rw_stm.q.val();
        self.s1_std.next = self.rw_std.q.val();
        // The ALU computes a sector request as the full-sector vector of its type (vec field
        // 4 - log2 element bytes: v8 16-bit, v4 32-bit, v2 64-bit) and the merge keeps only
        // the enabled elements.
        self.s1_elog.next = self.rw_elog.q.val();
        self.s1_vecf.next = self.zero2.val() - self.s1_elog.val();
        self.s1_alu_form.next = self.s1_form.val();
        if self.s1_sector.val() {
            self.s1_alu_form.next = (self.s1_form.val() & self.vec_clear.val())
                | (bit_cast::<CODE_WIDTH, 2>(self.s1_vecf.val()) << self.vec_lsb.val());
        }
        // Unused: the high halves of the 32-bit-only lanes 1 and 3, the rest of the table.
        self.unused_sector.next = self.y_r[1].q.val().get_bits::<32>(32).any()
            ^ self.y_r[3].q.val().get_bits::<32>(32).any()
            ^ self.dw_elogw.val().any()
            ^ self.sr_elogw.val().any();

        // The integer merge stage s(1 + int_alu_latency) and the FP merge stage sM, as views
        // of their `sp_*` registers (a constant selects the stage).
        self.i_rep.next = self.rep128.val();
        self.i_base.next = self.zero128.val();
        self.i_sector.next = false;
        self.m_fp.next = false;
        self.m_rep.next = self.rep128.val();
        self.m_data.next = self.zero128.val();
        self.unused_wm.next = false;
        for j in 0..self.sp_valid.len() {
            if self.int_at.val().get_bit(j) {
                self.i_rep.next = self.sp_rep[j].q.val();
                self.i_base.next = self.sp_data[j].q.val();
                self.i_sector.next = self.sp_sector[j].q.val();
            }
            if self.fp_at.val().get_bit(j) {
                self.m_fp.next = self.sp_fp[j].q.val();
                self.m_rep.next = self.sp_rep[j].q.val();
                self.m_data.next = self.sp_data[j].q.val();
                self.unused_wm.next = self.sp_wmask[j].q.val().any();
            }
        }
        // The integer results (registered once more in the registered pipeline: `y_r`), and
        // the lanes' results of a sector request as a line.
        self.y_r[0].d.next = self.int_alu.y.val();
        for i in 0..3 {
            self.y_r[i + 1].d.next = self.int_lane[i].y.val();
        }
        self.out_r.d.next = self.alu.out_data.val();
        self.i_intvec.next =
            bit_cast::<128, 64>(self.y_r[0].q.val()) | (bit_cast::<128, 64>(self.y_r[2].q.val()) << 64);
        if !self.dly_int64.q.val() {
            self.i_intvec.next = bit_cast::<128, 32>(self.y_r[0].q.val().get_bits::<32>(0))
                | (bit_cast::<128, 32>(self.y_r[1].q.val().get_bits::<32>(0)) << 32)
                | (bit_cast::<128, 32>(self.y_r[2].q.val().get_bits::<32>(0)) << 64)
                | (bit_cast::<128, 32>(self.y_r[3].q.val().get_bits::<32>(0)) << 96);
        }
        // The merges place a result without a shifter: the result is replicated across the
        // line by its access size (a 4-byte result in every 4-byte slot of the line, ..) and
        // the write mask keeps the accessed bytes (the access is aligned to its size). A
        // sector request's lanes are already in place (`rep128`: as is).
        self.i_x32.next = self.y_r[0].q.val();
        if self.i_rep.val() == self.rep32.val() {
            self.i_x32.next = bit_cast::<64, 32>(self.y_r[0].q.val().get_bits::<32>(0))
                | (bit_cast::<64, 32>(self.y_r[0].q.val().get_bits::<32>(0)) << 32);
        }
        self.i_x.next = bit_cast::<128, 64>(self.i_x32.val()) | (bit_cast::<128, 64>(self.i_x32.val()) << 64);
        if self.i_sector.val() {
            self.i_x.next = self.i_intvec.val();
        }
        self.i_new.next = self.i_base.val() | (self.i_x.val() & self.i_iwm.q.val());
        self.m_x16.next = self.out_r.q.val();
        if self.m_rep.val() == self.rep16.val() {
            self.m_x16.next = (self.out_r.q.val() & self.mask16.val()) | ((self.out_r.q.val() & self.mask16.val()) << 16);
        }
        self.m_x32.next = self.m_x16.val();
        if !self.m_rep.val().get_bit(1) {
            self.m_x32.next = (self.m_x16.val() & self.mask32.val()) | ((self.m_x16.val() & self.mask32.val()) << 32);
        }
        self.m_x.next = self.m_x32.val();
        if self.m_rep.val() != self.rep128.val() {
            self.m_x.next = (self.m_x32.val() & self.mask64.val()) | ((self.m_x32.val() & self.mask64.val()) << 64);
        }
        self.m_new.next = self.m_data.val() | (self.m_x.val() & self.m_fwm.q.val());

        // ==========================================================================
        // Issue: the queue picks the oldest eligible entry; the queue itself holds requests to
        // the line of an FP op in s1 or s2 (its result is not there yet when a dependent
        // request reaches s1). A request issues only with a response place reserved for it.
        // ==========================================================================
        self.queue.issue_enable.next = !self.cr_full.q.val();
        self.issue.next = self.queue.issue_valid.val();
        // The RAM read of the issued line (unordered requests read line 0, unused); the
        // registered pipeline reads it from `si_ra` two cycles later.
        self.issue_ra.next = self.queue.issue_line.val();
        if !self.queue.issue_ordered.val() {
            self.issue_ra.next = self.zero_line.val();
        }
        self.mem.read_addr.next = self.issue_ra.val();
        self.s1_valid.d.next = self.issue.val() && !self.reset.val();
        self.s1_ordered.d.next = self.queue.issue_ordered.val();
        self.s1_line.d.next = self.queue.issue_line.val();
        self.s1_payload.d.next = self.queue.issue_payload.val();
        // The registered pipeline reads the RAM through its output register: the op waits a
        // cycle in sr (its forwarding source found in sc, two cycles before, below).
        // (sc: the issued request registered, for the forwarding compares; its RAM read
        // address too, so that si's is a register's copy.)
        self.sc_valid.d.next = self.issue.val() && !self.reset.val();
        self.sc_ordered.d.next = self.queue.issue_ordered.val();
        self.sc_vo.d.next = self.issue.val() && !self.reset.val() && self.queue.issue_ordered.val();
        self.sc_line.d.next = self.queue.issue_line.val();
        self.sc_cl.d.next = self.queue.issue_line.val();
        self.sc_ra.d.next = self.issue_ra.val();
        self.sc_ww.d.next = self.zero4.val();
        if self.queue.issue_ordered.val() {
            self.sc_ww.d.next = self.queue.issue_words.val();
        }
        self.si_ww.d.next = self.sc_ww.q.val();
        self.sr_ww.d.next = self.si_ww.q.val();
        self.s1_ww.d.next = self.sr_ww.q.val();
        self.s1b_ww.d.next = self.s1_ww.q.val();
        // (si: sc's request; the RAM address comes from there, so the pick does not drive the
        // 30 block RAMs' address pins. Its payload straight from the queue slot, which is
        // still intact: sc has none.)
        self.si_valid.d.next = self.sc_valid.q.val() && !self.reset.val();
        self.si_ordered.d.next = self.sc_ordered.q.val();
        self.si_line.d.next = self.sc_line.q.val();
        self.si_payload.d.next = self.queue.issue_payload_late.val();
        self.si_ra.d.next = self.sc_ra.q.val();
        if self.regs.val() {
            self.mem.read_addr.next = self.si_ra.q.val();
        }
        self.sr_valid.d.next = self.si_valid.q.val() && !self.reset.val();
        self.sr_ordered.d.next = self.si_ordered.q.val();
        self.sr_line.d.next = self.si_line.q.val();
        self.sr_payload.d.next = self.si_payload.q.val();
        // sc finds the forwarding source of each word of its op's line for s1 among the ops
        // that will be three stages further then (sr → sp[0], s1 → sp[1], s1b → sp[2],
        // sp[j] → sp[j+3], the last two stages → sw[0], sw[1]): the one op to the line that
        // writes the word and is not superseded for it (`sup_*`; the op in sr never is: the
        // op behind it, in si, writes none of its words, for the queue keeps ops to one word
        // two cycles apart). The compares also supersede the matching ops for the words this
        // one writes. Only the words the op touches need a source (its line is read, written
        // and forwarded there only). sr selects the sources whose line is already in a
        // register (`fpre`), s1 the rest.
        // (Each one-hot vector is built one source at a time, shifted in at bit 31, then moved
        // down to bit 0: shifts by a loop index give Verilog that -Wall rejects.)
        self.fs_eq.next = self.sc_vo.q.val() && !((self.sr_line.q.val() ^ self.sc_cl.q.val()) & self.line_mask.val()).any();
        self.fs_hq.next = self.zero4.val();
        if self.sr_valid.q.val() && self.sr_ordered.q.val() && self.fs_eq.val() {
            self.fs_hq.next = self.sr_ww.q.val();
        }
        for q in 0..4 {
            self.fs_b.next = self.fs_hq.val().get_bit(q);
            self.fs_v[q].next = bit_cast::<32, 1>(self.fs_b.val().into()) << self.top31.val();
        }
        self.sup_s1.d.next = self.zero4.val();
        if self.fs_eq.val() {
            self.sup_s1.d.next = self.sc_ww.q.val();
        }
        self.fs_eq.next = self.sc_vo.q.val() && !((self.s1_line.q.val() ^ self.sc_cl.q.val()) & self.line_mask.val()).any();
        self.fs_hq.next = self.zero4.val();
        if self.s1_valid.q.val() && self.s1_ordered.q.val() && self.fs_eq.val() {
            self.fs_hq.next = self.s1_ww.q.val() & !self.sup_s1.q.val();
        }
        for q in 0..4 {
            self.fs_b.next = self.fs_hq.val().get_bit(q);
            self.fs_v[q].next = (self.fs_v[q].val() >> 1) | (bit_cast::<32, 1>(self.fs_b.val().into()) << self.top31.val());
        }
        self.sup_s1b.d.next = self.sup_s1.q.val();
        if self.fs_eq.val() {
            self.sup_s1b.d.next = self.sup_s1.q.val() | self.sc_ww.q.val();
        }
        self.fs_eq.next = self.sc_vo.q.val() && !((self.s1b_line.q.val() ^ self.sc_cl.q.val()) & self.line_mask.val()).any();
        self.fs_hq.next = self.zero4.val();
        if self.s1b_valid.q.val() && self.s1b_ordered.q.val() && self.fs_eq.val() {
            self.fs_hq.next = self.s1b_ww.q.val() & !self.sup_s1b.q.val();
        }
        for q in 0..4 {
            self.fs_b.next = self.fs_hq.val().get_bit(q);
            self.fs_v[q].next = (self.fs_v[q].val() >> 1) | (bit_cast::<32, 1>(self.fs_b.val().into()) << self.top31.val());
        }
        self.sup_sp[0].d.next = self.sup_s1b.q.val();
        if self.fs_eq.val() {
            self.sup_sp[0].d.next = self.sup_s1b.q.val() | self.sc_ww.q.val();
        }
        for j in 1..self.sp_valid.len() {
            self.fs_eq.next = self.sc_vo.q.val() && !((self.sp_line[j - 1].q.val() ^ self.sc_cl.q.val()) & self.line_mask.val()).any();
            self.fs_hq.next = self.zero4.val();
            if self.sp_valid[j - 1].q.val() && self.sp_ordered[j - 1].q.val() && self.fs_eq.val() {
                self.fs_hq.next = self.sp_ww[j - 1].q.val() & !self.sup_sp[j - 1].q.val();
            }
            for q in 0..4 {
                self.fs_b.next = self.fs_hq.val().get_bit(q);
                self.fs_v[q].next = (self.fs_v[q].val() >> 1) | (bit_cast::<32, 1>(self.fs_b.val().into()) << self.top31.val());
            }
        }
        // (The same compares again, which synthesis shares; the last stage's op is no source.)
        for j in 1..self.sup_sp.len() {
            self.fs_eq.next = self.sc_vo.q.val() && !((self.sp_line[j - 1].q.val() ^ self.sc_cl.q.val()) & self.line_mask.val()).any();
            self.sup_sp[j].d.next = self.sup_sp[j - 1].q.val();
            if self.fs_eq.val() {
                self.sup_sp[j].d.next = self.sup_sp[j - 1].q.val() | self.sc_ww.q.val();
            }
        }
        for q in 0..4 {
            self.fsel_cq[q].d.next = self.fs_v[q].val() >> self.fs_sh.val();
        }
        // si: each word's select copied, with no logic between, into a register per quarter
        // of sr's select (replicas: each sits by its quarter); for s1 the select of the op's
        // own lowest word (the chain and the coverage read it), chosen here from registers.
        self.fsel_r.d.next = self.fsel_cq[3].q.val();
        if self.si_ww.q.val().get_bit(2) {
            self.fsel_r.d.next = self.fsel_cq[2].q.val();
        }
        if self.si_ww.q.val().get_bit(1) {
            self.fsel_r.d.next = self.fsel_cq[1].q.val();
        }
        if self.si_ww.q.val().get_bit(0) {
            self.fsel_r.d.next = self.fsel_cq[0].q.val();
        }
        self.fs_any_r.d.next = self.zero4.val();
        for q in 0..4 {
            self.fsel_rq[q].d.next = self.fsel_cq[q].q.val();
            self.fsel_q[q].d.next = self.fsel_cq[q].q.val();
            self.fs_b.next = self.fsel_cq[q].q.val().any();
            self.fs_any_r.d.next = (self.fs_any_r.d.val() >> 1) | (bit_cast::<4, 1>(self.fs_b.val().into()) << self.three2.val());
        }
        // sr: the same for s1.
        self.fsel.d.next = self.fsel_r.q.val();
        for q in 0..4 {
            self.fsel_s[q].d.next = self.fsel_rq[q].q.val();
            self.fs_b.next = self.fs_any_r.q.val().get_bit(q);
            self.fs_any_s[q].d.next = bit_cast::<1, 1>(self.fs_b.val().into());
        }
        // sr: the sources selected early take their line from the stage before them
        // (`sp[j - 1]` for `sp[j]` and for `sw[0]`, `sw[k - 1]` for `sw[k]`), each quarter
        // of the line by its own replica of the select.
        // (Registered pipeline only: in the default one nothing reads `fpre`, and its model
        // skips the loops.)
        self.fp_a.next = self.zero128.val();
        self.fp_b.next = self.zero128.val();
        self.fsel_r_sw.next = self.zero32.val();
        if self.regs.val() {
            for q in 0..4 {
                for j in 0..self.sp_valid.len() {
                    if self.fsel_q[q].q.val().get_bit(j + 1) {
                        if self.fs_pre_a.val().get_bit(j + 1) {
                            self.fp_a.next = self.fp_a.val() | (self.sp_data[j].q.val() & self.qmask[q].val());
                        }
                        if self.fs_pre_b.val().get_bit(j + 1) {
                            self.fp_b.next = self.fp_b.val() | (self.sp_data[j].q.val() & self.qmask[q].val());
                        }
                    }
                }
                self.fsel_r_sw.next = self.fsel_q[q].q.val() >> self.fsw_sh.val();
                for k in 1..self.sw_valid.len() {
                    if self.fsel_r_sw.val().get_bit(k) {
                        self.fp_b.next = self.fp_b.val() | (self.sw_data[k - 1].q.val() & self.qmask[q].val());
                    }
                }
            }
        }
        self.fpre[0].d.next = self.fp_a.val();
        self.fpre[1].d.next = self.fp_b.val();
        if self.regs.val() {
            self.s1_valid.d.next = self.sr_valid.q.val() && !self.reset.val();
            self.s1_ordered.d.next = self.sr_ordered.q.val();
            self.s1_line.d.next = self.sr_line.q.val();
            self.s1_payload.d.next = self.sr_payload.q.val();
        }
        // Reserved response places: + issue, - response handshake.
        self.rsp_fire.next = self.rsp_fifo.out_valid.val() && self.rsp_ready.val();
        self.credits_nx.next = self.credits.q.val();
        if self.issue.val() && !self.rsp_fire.val() {
            self.credits_nx.next = self.credits.q.val() + self.one6.val();
        }
        if self.rsp_fire.val() && !self.issue.val() {
            self.credits_nx.next = self.credits.q.val() - self.one6.val();
        }
        if self.reset.val() {
            self.credits_nx.next = self.zero6.val();
        }
        self.credits.d.next = self.credits_nx.val();
        // (Zero at power-up, as `credits`: the same value as comparing `credits` now.)
        // `credits_nx >= credit_max`, with the compares made on the register beside the
        // count's update and the handshakes only selecting one (no carry chain after them;
        // a response never leaves with no place reserved, so `credits - 1` does not wrap).
        self.cr_ge_p1.next = !(self.credits.q.val() < self.credit_max_m1.val());
        self.cr_ge_0.next = !(self.credits.q.val() < self.credit_max.val());
        self.cr_ge_m1.next = !(self.credits.q.val() < self.credit_max_p1.val());
        self.cr_full.d.next = self.cr_ge_0.val();
        if self.issue.val() && !self.rsp_fire.val() {
            self.cr_full.d.next = self.cr_ge_p1.val();
        }
        if self.rsp_fire.val() && !self.issue.val() {
            self.cr_full.d.next = self.cr_ge_m1.val();
        }
        if self.reset.val() {
            self.cr_full.d.next = false;
        }
        if self.queue.cov_hazard_wait.val() {
            self.ev_fp_hazard_wait.next = true;
        }
        if self.queue.cov_line_wait.val() {
            self.ev_line_wait.next = true;
        }
        if self.queue.cov_full.val() {
            self.ev_queue_full.next = true;
        }
        if self.queue.cov_overtake.val() {
            self.ev_overtake.next = true;
        }
        if self.cr_full.q.val() {
            self.ev_credit_stall.next = true;
        }

        // ==========================================================================
        // s1: RAM data arrives; forward the youngest in-flight version of the line; old
        // value to both ALUs; stores merge here; response data fixed here.
        // ==========================================================================
        self.s1_fwd_fp.next = false;
        self.fw_found.next = false;
        self.fw_hit.next = false;
        self.s1_old_line.next = self.mem.read_data.val();
        if self.s1_valid.q.val() && self.s1_ordered.q.val() {
            // Youngest first: s2, s3, .., sM (its new line), then the written line.
            for j in 0..self.sp_valid.len() {
                self.fw_hit.next = !self.fw_found.val()
                    && self.sp_valid[j].q.val()
                    && self.sp_ordered[j].q.val()
                    && (self.sp_line[j].q.val() == self.s1_line.q.val());
                if self.fw_hit.val() {
                    self.fw_found.next = true;
                    self.s1_old_line.next = self.sp_data[j].q.val();
                    if self.int_at.val().get_bit(j) {
                        self.s1_old_line.next = self.i_new.val();
                        if !self.sp_fp[j].q.val()
                            && !self.s1_fp.val()
                            && ((self.sp_kind[j].q.val() == self.kind_red.val()) || (self.sp_kind[j].q.val() == self.kind_atom.val()))
                            && ((self.s1_kind.val() == self.kind_red.val()) || (self.s1_kind.val() == self.kind_atom.val()))
                        {
                            self.ev_int_chain.next = true;
                        }
                    }
                    if self.fp_at.val().get_bit(j) {
                        self.s1_old_line.next = self.m_new.val();
                        self.ev_fwd_s4.next = true;
                        self.s1_fwd_fp.next = self.m_fp.val() && self.s1_fp.val();
                    } else if j == 0 {
                        self.ev_fwd_s2.next = true;
                    } else {
                        self.ev_fwd_s3.next = true;
                    }
                }
            }
            if !self.fw_found.val() && self.sw_valid[0].q.val() && (self.sw_line[0].q.val() == self.s1_line.q.val()) {
                self.s1_old_line.next = self.sw_data[0].q.val();
                self.ev_fwd_s5.next = true;
            }
        }
        // The registered pipeline's forwarded line: `fpre` (zero unless a source selected in
        // sr is taken) and the sources selected now, each quarter by its own replicas of the
        // select; `rfm` puts it over the RAM's data in the quarters where a source is taken.
        self.s1_fwd_x.next = self.fpre[0].q.val() | self.fpre[1].q.val();
        self.s1_take.next = self.zero4.val();
        for q in 0..4 {
            for j in 0..self.sp_valid.len() {
                if self.fsel_s[q].q.val().get_bit(j) && self.fs_now.val().get_bit(j) {
                    self.s1_fwd_x.next = self.s1_fwd_x.val() | (self.sp_data[j].q.val() & self.qmask[q].val());
                }
            }
            self.s1_take.next = self.s1_take.val() >> 1;
            if self.fs_any_s[q].q.val().any() {
                self.s1_take.next = self.s1_take.val() | self.take_top.val();
            }
        }
        self.rfm.ram.next = self.mem.read_data.val();
        self.rfm.fwd.next = self.s1_fwd_x.val();
        self.rfm.take.next = self.s1_take.val();
        // The registered pipeline: the source found in sc, part selected in sr: an AND-OR of
        // registers.
        if self.regs.val() {
            self.s1_fwd_fp.next = false;
            self.ev_fwd_s2.next = false;
            self.ev_fwd_s3.next = false;
            self.ev_fwd_s4.next = false;
            self.ev_fwd_s5.next = false;
            // (Each quarter of the line by its own replicas of the select; the RAM's data
            // joins in `rfm`, after the forwarded sources.)
            self.s1_old_line.next = self.rfm.out.val();
            for j in 0..self.sp_valid.len() {
                if self.fsel.q.val().get_bit(j) {
                    // Coverage: from s2, from the write stage (an FP chain when both are FP),
                    // from the stages between.
                    if j == 0 {
                        self.ev_fwd_s2.next = true;
                    } else if self.wr_at.val().get_bit(j) {
                        self.ev_fwd_s4.next = true;
                        self.s1_fwd_fp.next = self.sp_fp[j].q.val() && self.s1r_fp.val();
                    } else {
                        self.ev_fwd_s3.next = true;
                    }
                }
            }
            self.fsel_sw.next = self.fsel.q.val() >> self.fsw_sh.val();
            for k in 0..self.sw_valid.len() {
                if self.fsel_sw.val().get_bit(k) {
                    self.ev_fwd_s5.next = true;
                    self.s1_fwd_fp.next = self.sw_fp[k].q.val() && self.s1r_fp.val();
                }
            }
        }
        if self.s1_fwd_fp.val() {
            self.ev_fp_chain.next = true;
        }
        // The integer loop (registered pipeline): an integer red/atom whose forwarding source
        // is an integer red/atom within the chain distance is its chain producer (the queue
        // lets only those so close; see "The integer loop"), and takes that op's result from
        // the ALU's loop in s1b: the line from the source is right but for those bytes.
        self.s1r_op.next = self.s1_payload.q.val().get_bits::<REQ_OP_WIDTH>(0);
        self.s1r_kind.next = self.s1r_op.val().get_bits::<KIND_WIDTH>(self.kind_lsb.val().index());
        // (The op bits beside the kind count as read.)
        self.unused_decode.next = self.unused_decode.val() ^ self.s1r_op.val().any();
        self.ch_me.next = self.s1_valid.q.val()
            && self.s1_ordered.q.val()
            && !self.s1r_fp.val()
            && !self.s1_payload.q.val().get_bits::<8>(self.p_mask.val().index()).any()
            && ((self.s1r_kind.val() == self.kind_red.val()) || (self.s1r_kind.val() == self.kind_atom.val()));
        for d in 0..2 {
            self.ch_nx[d].next = false;
        }
        for j in 0..self.sp_valid.len() {
            self.ch_p.next = self.ch_me.val()
                && self.fsel.q.val().get_bit(j)
                && !self.sp_fp[j].q.val()
                && !self.sp_sector[j].q.val()
                && ((self.sp_kind[j].q.val() == self.kind_red.val()) || (self.sp_kind[j].q.val() == self.kind_atom.val()));
            for d in 0..2 {
                if self.ch_p.val() && self.ch_m[d].val().get_bit(j) {
                    self.ch_nx[d].next = true;
                }
            }
        }
        for d in 0..2 {
            self.ch_d[d].d.next = self.ch_nx[d].val() && !self.reset.val();
        }
        // The registered pipeline registers the forwarded line (s1b) before it computes.
        self.s1b_valid.d.next = self.s1_valid.q.val() && !self.reset.val();
        self.s1b_ordered.d.next = self.s1_ordered.q.val();
        self.s1b_line.d.next = self.s1_line.q.val();
        self.s1b_payload.d.next = self.s1_payload.q.val();
        self.s1b_old.d.next = self.s1_old_line.val();
        self.c_old_line.next = self.s1_old_line.val();
        if self.regs.val() {
            self.c_old_line.next = self.s1b_old.q.val();
        }

        // ==========================================================================
        // The compute stage (s1; s1b in the registered pipeline): old value to both ALUs;
        // stores merge here; response data fixed here.
        // ==========================================================================
        // The old value (`old line >> 8*offset`), shifted only where an access can put it
        // (`OldExtract`). The registered pipeline extracts once per group of consumers, each
        // from replicas of s1b's line and shift of its own (the fan-out of the shared ones to
        // the lanes' operand registers is the unit's worst critical path otherwise); the
        // default pipeline here, in the cycle of its forwarding.
        for g in 0..5 {
            self.ox[g].clock.next = self.clock.val();
            self.ox[g].line.next = self.s1_old_line.val();
            self.ox[g].sh.next = self.dw_sh.val();
        }
        self.s1_old.next = ((self.c_old_line.val() >> self.s1_sh.val()) & self.mask16.val())
            | ((self.c_old_line.val() >> (self.s1_sh.val() & self.xs_4.val())) & (self.mask32.val() & !self.mask16.val()))
            | ((self.c_old_line.val() >> (self.s1_sh.val() & self.xs_8.val())) & (self.mask64.val() & !self.mask32.val()))
            | (self.c_old_line.val() & !self.mask64.val());
        self.s1_old_int.next = self.s1_old.val();
        self.s1_old_rsp.next = self.s1_old.val();
        self.s1_old_mm.next = self.s1_old.val();
        self.s1_old_wide.next = self.s1_old.val();
        if self.regs.val() {
            self.s1_old.next = self.ox[0].old.val();
            self.s1_old_mm.next = self.ox[1].old.val();
            self.s1_old_wide.next = self.ox[2].old.val();
            self.s1_old_int.next = self.ox[3].old.val();
            self.s1_old_rsp.next = self.ox[4].old.val();
        }

        // Operand isolation (see `ReductionAlu`): the integer ALU loads for the integer
        // forms, its sector lanes for masked sector requests of them.
        self.int_alu.hold.next = !self.c_valid.val() || self.s1_fp.val();
        for i in 0..3 {
            self.int_lane[i].hold.next = !self.c_valid.val() || self.s1_fp.val() || !self.s1_sector.val();
        }
        self.int_alu.op.next = self.s1_form.val().get_bits::<OP_WIDTH>(self.op_lsb.val().index());
        self.int_alu.ty.next = self.s1_form.val().get_bits::<TYPE_WIDTH>(self.ty_lsb.val().index());
        // A chained op's operand is its producer's result, from the registers after the ALU
        // (`ch_d`, one-hot; the shallow pipeline has none).
        self.y_rr.d.next = self.y_r[0].q.val();
        self.ch_val.next = self.zero64.val();
        if self.ch_d[0].q.val() {
            self.ch_val.next = self.ch_val.val() | self.y_r[0].q.val();
        }
        if self.ch_d[1].q.val() {
            self.ch_val.next = self.ch_val.val() | self.y_rr.q.val();
        }
        self.ch_any.next = self.ch_d[0].q.val() || self.ch_d[1].q.val();
        if self.ch_any.val() && self.c_valid.val() {
            self.ev_int_chain.next = true;
        }
        self.int_alu.a.next = self.s1_old_int.val().get_bits::<64>(0);
        if self.ch_any.val() {
            self.int_alu.a.next = self.ch_val.val();
        }
        self.int_alu.b.next = self.s1_data.val().get_bits::<64>(0);
        for i in 0..3 {
            self.int_lane[i].op.next = self.s1_form.val().get_bits::<OP_WIDTH>(self.op_lsb.val().index());
            self.int_lane[i].ty.next = self.s1_form.val().get_bits::<TYPE_WIDTH>(self.ty_lsb.val().index());
        }
        self.int_lane[0].a.next = self.s1_old_int.val().get_bits::<64>(32);
        self.int_lane[0].b.next = self.s1_data.val().get_bits::<64>(32);
        self.int_lane[1].a.next = self.s1_old_int.val().get_bits::<64>(64);
        self.int_lane[1].b.next = self.s1_data.val().get_bits::<64>(64);
        self.int_lane[2].a.next = bit_cast::<64, 32>(self.s1_old_int.val().get_bits::<32>(96));
        self.int_lane[2].b.next = bit_cast::<64, 32>(self.s1_data.val().get_bits::<32>(96));
        self.alu.in_valid.next = self.c_valid.val() && self.c_ordered.val() && self.s1_fp.val();
        self.alu.in_form.next = self.s1_alu_form.val();
        if self.regs.val() {
            self.alu.in_form.next = self.pre_form_rr.q.val();
        }
        // (The registered pipeline's next ALU operation: s1's, which moves to s1b unstalled.
        // Constant in the default pipeline, whose ALU decodes in its cycle. Not cleared by
        // `reset`: it only lets the op's unit load its operands, and an op that the reset
        // drops has no valid result to merge; `reset`'s fan-out into the units' clock enables
        // would be a critical path.)
        self.alu.pre_valid.next = false;
        self.alu.pre_form.next = self.zero_form.val();
        if self.regs.val() {
            self.alu.pre_valid.next = self.s1_valid.q.val() && self.s1_ordered.q.val() && self.s1r_fp.val();
            self.alu.pre_form.next = self.pre_form_r.q.val();
        }
        self.alu.in_old.next = self.s1_old.val();
        self.alu.in_old_mm.next = self.s1_old_mm.val();
        self.alu.in_old_wide.next = self.s1_old_wide.val();
        self.alu.in_b.next = self.s1_data.val();

        self.sp_valid[0].d.next = self.c_valid.val() && !self.reset.val();
        self.sp_ordered[0].d.next = self.c_ordered.val();
        self.sp_line[0].d.next = self.c_line.val();
        self.sp_kind[0].d.next = self.s1_kind.val();
        self.sp_fp[0].d.next = self.s1_fp.val();
        self.sp_rep[0].d.next = self.s1_rep.val();
        self.sp_status[0].d.next = self.s1_status.val();
        self.sp_id[0].d.next = self.s1_id.val();
        // `atom.cas` is a store (its swap value in the operand's low half) that merges only
        // where the old value equals the compare value, and returns the old value. The compare
        // reads the response's old-value extract (`s1_old_rsp`: little fan-out).
        self.s1_cas.next = (self.s1_kind.val() == self.kind_st.val()) && self.s1_form.val().get_bit(2);
        self.s1_cas_eq.next = self.s1_old_rsp.val().get_bits::<32>(0) == self.s1_data.val().get_bits::<32>(32);
        if self.s1_form.val().get_bit(0) {
            self.s1_cas_eq.next = self.s1_old_rsp.val().get_bits::<64>(0) == self.s1_data.val().get_bits::<64>(64);
        }
        // The line without the accessed bytes; a store merges its data now; a load (and an
        // `atom.cas` whose compare fails) keeps the whole line.
        self.sp_data[0].d.next = self.c_old_line.val() & !self.s1_wmask.val();
        if self.s1_kind.val() == self.kind_st.val() {
            self.sp_data[0].d.next = (self.c_old_line.val() & !self.s1_stm.val()) | (self.s1_std.val() & self.s1_stm.val());
        }
        if (self.s1_kind.val() == self.kind_ld.val()) || (self.s1_cas.val() && !self.s1_cas_eq.val()) {
            self.sp_data[0].d.next = self.c_old_line.val();
        }
        self.sp_rsp[0].d.next = self.zero128.val();
        if self.c_ordered.val()
            && ((self.s1_kind.val() == self.kind_ld.val()) || (self.s1_kind.val() == self.kind_atom.val()) || self.s1_cas.val())
        {
            self.sp_rsp[0].d.next = self.s1_old_rsp.val() & self.s1_mask.val();
            if self.ch_any.val() {
                self.sp_rsp[0].d.next = bit_cast::<128, 64>(self.ch_val.val()) & self.s1_mask.val();
            }
            if self.s1_sector.val() {
                self.sp_rsp[0].d.next = self.c_old_line.val() & self.s1_wmask.val();
            }
        }
        self.sp_sector[0].d.next = self.s1_sector.val();
        self.dly_int64.d.next = self.s1_elog.val() == self.elog3.val();
        self.sp_wmask[0].d.next = self.s1_wmask.val();
        self.sp_ww[0].d.next = self.s1b_ww.q.val();

        // ==========================================================================
        // s2 .. sM: each stage takes the one before; the integer result merges in its stage
        // (`i_new`; s2 by default), the FP ALU works through them.
        // ==========================================================================
        for j in 1..self.sp_valid.len() {
            self.sp_valid[j].d.next = self.sp_valid[j - 1].q.val() && !self.reset.val();
            self.sp_ordered[j].d.next = self.sp_ordered[j - 1].q.val();
            self.sp_line[j].d.next = self.sp_line[j - 1].q.val();
            self.sp_kind[j].d.next = self.sp_kind[j - 1].q.val();
            self.sp_fp[j].d.next = self.sp_fp[j - 1].q.val();
            self.sp_rep[j].d.next = self.sp_rep[j - 1].q.val();
            self.st_nd.next = self.sp_data[j - 1].q.val();
            if self.int_at.val().get_bit(j - 1) {
                self.st_nd.next = self.i_new.val();
            }
            if self.fp_at.val().get_bit(j - 1) {
                self.st_nd.next = self.m_new.val();
            }
            self.sp_data[j].d.next = self.st_nd.val();
            self.sp_rsp[j].d.next = self.sp_rsp[j - 1].q.val();
            self.sp_status[j].d.next = self.sp_status[j - 1].q.val();
            self.sp_id[j].d.next = self.sp_id[j - 1].q.val();
            self.sp_sector[j].d.next = self.sp_sector[j - 1].q.val();
            self.sp_ww[j].d.next = self.sp_ww[j - 1].q.val();
            self.sp_wmask[j].d.next = self.sp_wmask[j - 1].q.val();
        }
        // The merges' write masks (the integer stage's, sM's FP), from what their stage
        // registers load (`sp_*[int_at].d`, `sp_*[fp_at].d`).
        self.i_iwm.d.next = self.zero128.val();
        self.m_fwm.d.next = self.zero128.val();
        for j in 0..self.sp_valid.len() {
            self.ra_nx.next =
                (self.sp_kind[j].d.val() == self.kind_red.val()) || (self.sp_kind[j].d.val() == self.kind_atom.val());
            if self.int_at.val().get_bit(j) && !self.sp_fp[j].d.val() && self.ra_nx.val() {
                self.i_iwm.d.next = self.sp_wmask[j].d.val();
            }
            if self.fp_at.val().get_bit(j) && self.sp_fp[j].d.val() && self.ra_nx.val() {
                self.m_fwm.d.next = self.sp_wmask[j].d.val();
            }
        }

        // ==========================================================================
        // sM: the FP result (ReductionAlu output) merges; write back; response.
        // ==========================================================================
        // The ALU's own valid and form outputs are not needed (sM carries both).
        self.unused_alu.next = self.alu.out_valid.val() ^ self.alu.out_form.val().any();
        // The write stage: sM itself (its new line from the merge), or in the registered
        // pipeline the stage after the FP merge (its new line a register).
        self.w_valid.next = false;
        self.w_ordered.next = false;
        self.w_line.next = self.zero_line.val();
        self.w_new.next = self.zero128.val();
        self.w_rsp.next = self.zero128.val();
        self.w_status.next = self.zero_status.val();
        self.w_id.next = self.zero_id.val();
        self.w_fp.next = false;
        self.w_we.d.next = false;
        self.w_ww.d.next = self.ones4.val();
        for j in 0..self.sp_valid.len() {
            if self.wr_at.val().get_bit(j) && self.regs.val() {
                self.w_ww.d.next = self.sp_ww[j].d.val();
            }
            if self.wr_at.val().get_bit(j) {
                self.w_we.d.next = self.sp_valid[j].d.val()
                    && self.sp_ordered[j].d.val()
                    && (self.sp_kind[j].d.val() != self.kind_ld.val());
                self.unused_wm.next = self.unused_wm.val() ^ self.sp_kind[j].q.val().any();
                self.w_valid.next = self.sp_valid[j].q.val();
                self.w_ordered.next = self.sp_ordered[j].q.val();
                self.w_line.next = self.sp_line[j].q.val();
                self.w_new.next = self.sp_data[j].q.val();
                self.w_rsp.next = self.sp_rsp[j].q.val();
                self.w_status.next = self.sp_status[j].q.val();
                self.w_id.next = self.sp_id[j].q.val();
                self.w_fp.next = self.sp_fp[j].q.val();
            }
        }
        if !self.regs.val() {
            self.w_new.next = self.m_new.val();
        }
        self.mem.write_enable.next = self.w_we.q.val();
        self.mem.write_words.next = self.w_ww.q.val();
        self.mem.write_addr.next = self.w_line.val();
        self.mem.write_data.next = self.w_new.val();
        // (No `reset` here: the FIFO loses a push in a reset cycle by itself.)
        self.rsp_fifo.push.next = self.w_valid.val();
        self.rsp_fifo.push_entry.next = bit_cast::<RSP_ENTRY_BITS, ID_WIDTH>(self.w_id.val())
            | (bit_cast::<RSP_ENTRY_BITS, 128>(self.w_rsp.val()) << self.r_data.val())
            | (bit_cast::<RSP_ENTRY_BITS, STATUS_WIDTH>(self.w_status.val()) << self.r_status.val());
        // sw: the lines written 1, 2, .. cycles ago.
        self.sw_valid[0].d.next = self.w_valid.val() && self.w_ordered.val() && !self.reset.val();
        self.sw_line[0].d.next = self.w_line.val();
        self.sw_data[0].d.next = self.w_new.val();
        self.sw_fp[0].d.next = self.w_fp.val();
        // (The registered pipeline finds its sources among the stages before the written lines
        // and reads `sw_data[k]` only for the next place: their valid bits, lines and the last
        // place's data are read by nothing else there; synthesis removes them.)
        self.unused_sw.next = false;
        for k in 0..self.sw_valid.len() {
            self.unused_sw.next =
                self.unused_sw.val() ^ self.sw_valid[k].q.val() ^ self.sw_line[k].q.val().any() ^ self.sw_data[k].q.val().any();
        }
        self.unused_sw.next = self.unused_sw.val() ^ self.fsel_sw.val().any();
        // (The last stage's words are read only through its `d` input, by the write.)
        for j in 0..self.sp_valid.len() {
            self.unused_sw.next = self.unused_sw.val() ^ self.sp_ww[j].q.val().any();
        }
        self.unused_sw.next = self.unused_sw.val() ^ self.fsel_r_sw.val().any();
        // (s1's select replicas are read for the sources before the written lines only.)
        for q in 0..4 {
            self.unused_sw.next = self.unused_sw.val() ^ self.fsel_s[q].q.val().any();
        }
        for k in 1..self.sw_valid.len() {
            self.sw_valid[k].d.next = self.sw_valid[k - 1].q.val() && !self.reset.val();
            self.sw_line[k].d.next = self.sw_line[k - 1].q.val();
            self.sw_data[k].d.next = self.sw_data[k - 1].q.val();
            self.sw_fp[k].d.next = self.sw_fp[k - 1].q.val();
        }

        // ==========================================================================
        // Response port.
        // ==========================================================================
        self.rsp_fifo.out_ready.next = self.rsp_ready.val();
        self.rsp_valid.next = self.rsp_fifo.out_valid.val();
        self.rsp_id.next = self.rsp_fifo.out_entry.val().get_bits::<ID_WIDTH>(0);
        self.rsp_data.next = self.rsp_fifo.out_entry.val().get_bits::<128>(self.r_data.val().index());
        self.rsp_status.next = self.rsp_fifo.out_entry.val().get_bits::<STATUS_WIDTH>(self.r_status.val().index());
        if self.rsp_fire.val() && (self.rsp_status.val() == self.status_mis.val()) {
            self.ev_rsp_misaligned.next = true;
        }
        if self.rsp_fire.val() && (self.rsp_status.val() == self.status_oor.val()) {
            self.ev_rsp_out_of_range.next = true;
        }
        if self.rsp_fifo.out_valid.val() && !self.rsp_ready.val() {
            self.ev_rsp_stall.next = true;
        }
        if self.reset.val() && self.credits.q.val().any() {
            self.ev_reset_in_flight.next = true;
        }
        // Coverage bus: bit n is event COVERAGE_POINTS[..] with bit n (see the COV_ constants).
        self.cov_bits.next = self.zero_cov.val()
            | (bit_cast::<COV_WIDTH, 1>(self.ev_fwd_s2.val().into()) << 0)
            | (bit_cast::<COV_WIDTH, 1>(self.ev_fwd_s3.val().into()) << 1)
            | (bit_cast::<COV_WIDTH, 1>(self.ev_fwd_s4.val().into()) << 2)
            | (bit_cast::<COV_WIDTH, 1>(self.ev_fwd_s5.val().into()) << 3)
            | (bit_cast::<COV_WIDTH, 1>(self.ev_queue_full.val().into()) << 4)
            | (bit_cast::<COV_WIDTH, 1>(self.ev_overtake.val().into()) << 5)
            | (bit_cast::<COV_WIDTH, 1>(self.ev_back_to_back_line.val().into()) << 6)
            | (bit_cast::<COV_WIDTH, 1>(self.ev_line_wait.val().into()) << 7)
            | (bit_cast::<COV_WIDTH, 1>(self.ev_fp_hazard_wait.val().into()) << 8)
            | (bit_cast::<COV_WIDTH, 1>(self.ev_fp_chain.val().into()) << 9)
            | (bit_cast::<COV_WIDTH, 1>(self.ev_rsp_misaligned.val().into()) << 10)
            | (bit_cast::<COV_WIDTH, 1>(self.ev_rsp_out_of_range.val().into()) << 11)
            | (bit_cast::<COV_WIDTH, 1>(self.ev_rsp_stall.val().into()) << 12)
            | (bit_cast::<COV_WIDTH, 1>(self.ev_credit_stall.val().into()) << 13)
            | (bit_cast::<COV_WIDTH, 1>(self.ev_reset_in_flight.val().into()) << 14)
            | (bit_cast::<COV_WIDTH, 1>(self.ev_int_chain.val().into()) << 15);
        self.cov_r.d.next = self.cov_bits.val();
        self.cov.next = self.cov_bits.val();
        if self.regs.val() {
            self.cov.next = self.cov_r.q.val();
        }
    }
}

/// The Verilog of the unit with `mem_bytes` of memory in its default configuration
/// ([`Config::unit_default`], the registered pipeline at the fastest clock), as a `top` module.
pub fn unit_verilog(mem_bytes: usize) -> String {
    unit_verilog_with(mem_bytes, &Config::unit_default())
}

/// The Verilog of the unit with `mem_bytes` of memory and the depths of `cfg`, as a `top` module.
pub fn unit_verilog_with(mem_bytes: usize, cfg: &Config) -> String {
    crate::verilog::verilog(&mut SliceUnit::with_config(mem_bytes, cfg))
}
