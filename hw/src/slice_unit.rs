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
//!   in s1 and s2); until the 150 MHz work (issue 5) the unit fed the s1/s2 FP lines back as
//!   hazard inputs (`hz_a`/`hz_b`), which put a line compare per entry in the issue path.
//!   The issue order, and so every response and throughput, is cycle for cycle the same.
//! - **s1**: the RAM line arrives; the *old line* is the youngest in-flight version of the
//!   line (forwarding, below) or the RAM data. The old value (`old line >> 8*offset`) feeds
//!   both ALUs; a store merges its data here; the response data (old value masked to the
//!   access size, for `ld`/`atom`) is fixed here.
//! - **s2**: the integer result ([`IntAlu`], latency 1) is merged into the line.
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
//! # Latency (cycles from the request handshake to `rsp_valid`, no stalls, no hazard)
//! Every kind, errors included: [`UNIT_MIN_LATENCY`] = 6 (accept 1, issue→s1..s4 4, FIFO 1).
//! A request waits longer behind older ones to its line (one cycle per dependent integer op,
//! three per dependent FP op), when the response FIFO is full (`rsp_ready` low), and when
//! responses fill all [`RSP_FIFO_DEPTH`] reserved places.
//!
//! # Flow control
//! `req_ready` is low only when the ordering queue is full (and during reset). A request
//! issues only when the response FIFO has a place reserved for it (a count of requests
//! between issue and response handshake, at most [`RSP_FIFO_DEPTH`]), so the pipeline never
//! stalls and `rsp_ready` may fall on any cycle: responses wait in the FIFO, requests wait in
//! the queue.
//!
//! # Reset
//! Synchronous `reset` high for one cycle or more returns the unit to idle: the queue, the
//! pipeline, the response FIFO and the count are emptied; requests accepted before the reset
//! and not yet answered are dropped and get no response (not even the ones whose response
//! was already in the FIFO). Memory keeps what was written; a request in s4 in a reset cycle
//! is not written. While `reset` is high, `req_ready` and `rsp_valid` are low. Register
//! power-up values need a reset before the first request (the RAM starts at zero).
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
use crate::config::Config;
use crate::int_alu::{INT_ALU_LATENCY, IntAlu};
use crate::line_memory::{LINE_BITS, LineMemory};
use crate::ordering_queue::{OrderingQueue, QUEUE_HAZARD_CYCLES, QUEUE_PAYLOAD_BITS};
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
/// the unit built with `cfg`: accept 1, issue to the merge stage `1 + alu_latency`, FIFO 1.
pub fn unit_latency(cfg: &Config) -> usize {
    cfg.alu_latency() + 3
}

/// Cycles between dependent requests to one line for the unit built with `cfg`: the ALU
/// latency for the FP forms, the integer ALU's for the integer/bitwise forms, 1 for `ld`/`st`.
pub fn dependent_issue_interval_with(access: sim::Access, cfg: &Config) -> usize {
    match access {
        sim::Access::Red(f) | sim::Access::Atom(f) => {
            if is_int_type(f.ty()) {
                cfg.int_alu_latency()
            } else {
                cfg.alu_latency()
            }
        }
        _ => 1,
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
    match access {
        sim::Access::Red(f) | sim::Access::Atom(f)
            if !matches!(
                f.ty(),
                sim::Type::B32 | sim::Type::B64 | sim::Type::U32 | sim::Type::S32 | sim::Type::U64 | sim::Type::S64
            ) =>
        {
            ALU_LATENCY
        }
        _ => 1,
    }
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
        && COV_RESET_IN_FLIGHT < COV_WIDTH
);
const _: () = assert!(ALU_LATENCY == 3, "the pipeline merges the ReductionAlu result in s4");
const _: () = assert!(
    QUEUE_HAZARD_CYCLES == ALU_LATENCY - 1,
    "the queue holds a line for the cycles an FP op spends in s1 and s2"
);
const _: () = assert!(INT_ALU_LATENCY == 1, "the pipeline merges the IntAlu result in s2");
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
    /// Coverage events this cycle (see [`COVERAGE_POINTS`]).
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
    credit_max: Constant<Bits<4>>,
    one4: Constant<Bits<4>>,
    zero4: Constant<Bits<4>>,
    zero_line: Constant<Bits<LINE_BITS>>,
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
    unused_decode: Signal<Local, Bit>,
    unused_alu: Signal<Local, Bit>,

    // Issue.
    issue: Signal<Local, Bit>,
    credits: DFF<Bits<4>>,
    rsp_fire: Signal<Local, Bit>,

    // ==== s1: RAM data, forwarding, ALU inputs ====
    s1_valid: DFF<Bit>,
    s1_ordered: DFF<Bit>,
    s1_line: DFF<Bits<LINE_BITS>>,
    s1_payload: DFF<Bits<QUEUE_PAYLOAD_BITS>>,
    s1_op: Signal<Local, Bits<REQ_OP_WIDTH>>,
    s1_form: Signal<Local, Bits<CODE_WIDTH>>,
    s1_kind: Signal<Local, Bits<KIND_WIDTH>>,
    s1_off: Signal<Local, Bits<4>>,
    s1_size: Signal<Local, Bits<3>>,
    s1_fp: Signal<Local, Bit>,
    s1_status: Signal<Local, Bits<STATUS_WIDTH>>,
    s1_id: Signal<Local, Bits<ID_WIDTH>>,
    s1_data: Signal<Local, Bits<128>>,
    s1_sh: Signal<Local, Bits<7>>,
    s1_mask: Signal<Local, Bits<128>>,
    s1_old_line: Signal<Local, Bits<128>>,
    s1_old: Signal<Local, Bits<128>>,
    s1_fwd_fp: Signal<Local, Bit>,
    s1_mask8: Signal<Local, Bits<8>>,
    s1_sector: Signal<Local, Bit>,
    s1_ty2: Signal<Local, Bits<8>>,
    s1_elogw: Signal<Local, Bits<32>>,
    s1_elog: Signal<Local, Bits<2>>,
    s1_exp: Signal<Local, Bits<128>>,
    s1_wmask: Signal<Local, Bits<128>>,
    s1_alu_form: Signal<Local, Bits<CODE_WIDTH>>,
    s1_vecf: Signal<Local, Bits<2>>,
    unused_sector: Signal<Local, Bit>,

    // ==== s2: integer result ====
    s2_valid: DFF<Bit>,
    s2_ordered: DFF<Bit>,
    s2_line: DFF<Bits<LINE_BITS>>,
    s2_kind: DFF<Bits<KIND_WIDTH>>,
    s2_fp: DFF<Bit>,
    s2_sh: DFF<Bits<7>>,
    s2_base: DFF<Bits<128>>,
    s2_rsp: DFF<Bits<128>>,
    s2_status: DFF<Bits<STATUS_WIDTH>>,
    s2_id: DFF<Bits<ID_WIDTH>>,
    s2_new: Signal<Local, Bits<128>>,
    s2_sector: DFF<Bit>,
    s2_int64: DFF<Bit>,
    s2_wmask: DFF<Bits<128>>,
    s2_intvec: Signal<Local, Bits<128>>,

    // ==== s3: carry ====
    s3_valid: DFF<Bit>,
    s3_ordered: DFF<Bit>,
    s3_line: DFF<Bits<LINE_BITS>>,
    s3_kind: DFF<Bits<KIND_WIDTH>>,
    s3_fp: DFF<Bit>,
    s3_sh: DFF<Bits<7>>,
    s3_data: DFF<Bits<128>>,
    s3_rsp: DFF<Bits<128>>,
    s3_status: DFF<Bits<STATUS_WIDTH>>,
    s3_id: DFF<Bits<ID_WIDTH>>,
    s3_sector: DFF<Bit>,
    s3_wmask: DFF<Bits<128>>,

    // ==== s4: FP result, write back, response ====
    s4_valid: DFF<Bit>,
    s4_ordered: DFF<Bit>,
    s4_line: DFF<Bits<LINE_BITS>>,
    s4_kind: DFF<Bits<KIND_WIDTH>>,
    s4_fp: DFF<Bit>,
    s4_sh: DFF<Bits<7>>,
    s4_data: DFF<Bits<128>>,
    s4_rsp: DFF<Bits<128>>,
    s4_status: DFF<Bits<STATUS_WIDTH>>,
    s4_id: DFF<Bits<ID_WIDTH>>,
    s4_new: Signal<Local, Bits<128>>,
    s4_sector: DFF<Bit>,
    s4_wmask: DFF<Bits<128>>,

    // ==== s5: the line written in the previous cycle ====
    s5_valid: DFF<Bit>,
    s5_line: DFF<Bits<LINE_BITS>>,
    s5_data: DFF<Bits<128>>,

    cov_bits: Signal<Local, Bits<COV_WIDTH>>,
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
}


impl SliceUnit {
    /// A unit with `mem_bytes` of memory (a multiple of 16), default pipeline depths.
    pub fn new(mem_bytes: usize) -> Self {
        Self::with_config(mem_bytes, &Config::default())
    }

    /// A unit with `mem_bytes` of memory and the pipeline depths of `cfg`
    /// (latency [`unit_latency`]).
    pub fn with_config(mem_bytes: usize, cfg: &Config) -> Self {
        let _ = cfg; // STUB: phase 2 in progress
        assert!(mem_bytes > 0 && mem_bytes % 16 == 0, "memory size must be a positive multiple of 16");
        assert!(mem_bytes >= 32 && (mem_bytes as u64) < 1u64 << 32, "memory size must be in 32..2^32");
        let elem_log2 = elem_log2_table();
        let mut fp = 0u128;
        for t in sim::form::TYPES {
            let code = t as u128;
            let is_int = matches!(
                t,
                sim::Type::B32 | sim::Type::B64 | sim::Type::U32 | sim::Type::S32 | sim::Type::U64 | sim::Type::S64
            );
            if !is_int {
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
            queue: Default::default(),
            mem: LineMemory::new(mem_bytes / 16),
            int_alu: Default::default(),
            int_lane: Default::default(),
            alu: Default::default(),
            rsp_fifo: Default::default(),
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
            credit_max: k(RSP_FIFO_DEPTH as u128),
            one4: k(1),
            zero4: k(0),
            zero_line: k(0),
            one8: k(1),
            three7: k(3),
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
            unused_decode: Default::default(),
            unused_alu: Default::default(),
            issue: Default::default(),
            credits: Default::default(),
            rsp_fire: Default::default(),
            s1_valid: Default::default(),
            s1_ordered: Default::default(),
            s1_line: Default::default(),
            s1_payload: Default::default(),
            s1_op: Default::default(),
            s1_form: Default::default(),
            s1_kind: Default::default(),
            s1_off: Default::default(),
            s1_size: Default::default(),
            s1_fp: Default::default(),
            s1_status: Default::default(),
            s1_id: Default::default(),
            s1_data: Default::default(),
            s1_sh: Default::default(),
            s1_mask: Default::default(),
            s1_old_line: Default::default(),
            s1_old: Default::default(),
            s1_fwd_fp: Default::default(),
            s1_mask8: Default::default(),
            s1_sector: Default::default(),
            s1_ty2: Default::default(),
            s1_elogw: Default::default(),
            s1_elog: Default::default(),
            s1_exp: Default::default(),
            s1_wmask: Default::default(),
            s1_alu_form: Default::default(),
            s1_vecf: Default::default(),
            unused_sector: Default::default(),
            s2_valid: Default::default(),
            s2_ordered: Default::default(),
            s2_line: Default::default(),
            s2_kind: Default::default(),
            s2_fp: Default::default(),
            s2_sh: Default::default(),
            s2_base: Default::default(),
            s2_rsp: Default::default(),
            s2_status: Default::default(),
            s2_id: Default::default(),
            s2_new: Default::default(),
            s2_sector: Default::default(),
            s2_int64: Default::default(),
            s2_wmask: Default::default(),
            s2_intvec: Default::default(),
            s3_valid: Default::default(),
            s3_ordered: Default::default(),
            s3_line: Default::default(),
            s3_kind: Default::default(),
            s3_fp: Default::default(),
            s3_sh: Default::default(),
            s3_data: Default::default(),
            s3_rsp: Default::default(),
            s3_status: Default::default(),
            s3_id: Default::default(),
            s3_sector: Default::default(),
            s3_wmask: Default::default(),
            s4_valid: Default::default(),
            s4_ordered: Default::default(),
            s4_line: Default::default(),
            s4_kind: Default::default(),
            s4_fp: Default::default(),
            s4_sh: Default::default(),
            s4_data: Default::default(),
            s4_rsp: Default::default(),
            s4_status: Default::default(),
            s4_id: Default::default(),
            s4_new: Default::default(),
            s4_sector: Default::default(),
            s4_wmask: Default::default(),
            s5_valid: Default::default(),
            s5_line: Default::default(),
            s5_data: Default::default(),
            cov_bits: Default::default(),
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
        }
    }
}

impl Logic for SliceUnit {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, credits, s1_valid, s1_ordered, s1_line, s1_payload, s2_valid,
            s2_ordered, s2_line, s2_kind, s2_fp, s2_sh, s2_base, s2_rsp, s2_status, s2_id, s3_valid, s3_ordered,
            s3_line, s3_kind, s3_fp, s3_sh, s3_data, s3_rsp, s3_status, s3_id, s4_valid, s4_ordered, s4_line,
            s4_kind, s4_fp, s4_sh, s4_data, s4_rsp, s4_status, s4_id, s5_valid, s5_line, s5_data, s2_sector,
            s2_int64, s2_wmask, s3_sector, s3_wmask, s4_sector, s4_wmask
        );
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
        self.req_ready.next = self.queue.push_ready.val();
        self.queue.push_valid.next = self.req_valid.val();
        self.queue.push_line.next = self.req_addr.val().get_bits::<LINE_BITS>(4);
        self.queue.push_ordered.next = self.a_status.val() == self.status_ok.val();
        // FP forms are late: the queue holds ordered requests to their line for
        // QUEUE_HAZARD_CYCLES = ALU_LATENCY - 1 cycles after their issue (while in s1 and s2).
        self.queue.push_late.next = self.a_fp.val();
        self.queue.push_payload.next = bit_cast::<QUEUE_PAYLOAD_BITS, REQ_OP_WIDTH>(self.req_op.val())
            | (bit_cast::<QUEUE_PAYLOAD_BITS, 4>(self.req_addr.val().get_bits::<4>(0)) << self.p_off.val())
            | (bit_cast::<QUEUE_PAYLOAD_BITS, 3>(self.a_size.val()) << self.p_size.val())
            | (bit_cast::<QUEUE_PAYLOAD_BITS, 1>(self.a_fp.val().into()) << self.p_fp.val())
            | (bit_cast::<QUEUE_PAYLOAD_BITS, STATUS_WIDTH>(self.a_status.val()) << self.p_status.val())
            | (bit_cast::<QUEUE_PAYLOAD_BITS, ID_WIDTH>(self.req_id.val()) << self.p_id.val())
            | (bit_cast::<QUEUE_PAYLOAD_BITS, 128>(self.req_data.val()) << self.p_data.val())
            | (bit_cast::<QUEUE_PAYLOAD_BITS, 8>(self.a_mask.val()) << self.p_mask.val());
        if self.queue.cov_back_to_back.val() {
            self.ev_back_to_back_line.next = true;
        }
        // Unused decode bits (the space bit, op bits of ld/st) and table bits.
        self.unused_decode.next = self.a_form.val().any() ^ self.a_elog.val().any();

        // ==========================================================================
        // Decode of the registers of s1, and the new lines of s2 (integer result) and s4
        // (FP result): read by the issue and forwarding logic below.
        // ==========================================================================
        self.s1_op.next = self.s1_payload.q.val().get_bits::<REQ_OP_WIDTH>(0);
        self.s1_form.next = self.s1_op.val().get_bits::<CODE_WIDTH>(0);
        self.s1_kind.next = self.s1_op.val().get_bits::<KIND_WIDTH>(self.kind_lsb.val().index());
        self.s1_off.next = self.s1_payload.q.val().get_bits::<4>(self.p_off.val().index());
        self.s1_size.next = self.s1_payload.q.val().get_bits::<3>(self.p_size.val().index());
        self.s1_fp.next = self.s1_payload.q.val().get_bit(self.p_fp.val().index());
        self.s1_status.next = self.s1_payload.q.val().get_bits::<STATUS_WIDTH>(self.p_status.val().index());
        self.s1_id.next = self.s1_payload.q.val().get_bits::<ID_WIDTH>(self.p_id.val().index());
        self.s1_data.next = self.s1_payload.q.val().get_bits::<128>(self.p_data.val().index());
        self.s1_sh.next = bit_cast::<7, 4>(self.s1_off.val()) << self.three7.val();
        self.s1_mask.next = self.mask128.val();
        if self.s1_size.val() == self.size1.val() {
            self.s1_mask.next = self.mask16.val();
        } else if self.s1_size.val() == self.size2.val() {
            self.s1_mask.next = self.mask32.val();
        } else if self.s1_size.val() == self.size3.val() {
            self.s1_mask.next = self.mask64.val();
        }
        // The bytes the request writes in its line (`s1_wmask`): the access (plain), or the
        // enabled elements of the form's element size (masked sector request; offset 0).
        self.s1_mask8.next = self.s1_payload.q.val().get_bits::<8>(self.p_mask.val().index());
        self.s1_sector.next = self.s1_mask8.val().any();
        self.s1_ty2.next =
            bit_cast::<8, TYPE_WIDTH>(self.s1_form.val().get_bits::<TYPE_WIDTH>(self.ty_lsb.val().index())) << self.one8.val();
        self.s1_elogw.next = self.elem_log2_tbl.val() >> self.s1_ty2.val();
        self.s1_elog.next = self.s1_elogw.val().get_bits::<2>(0);
        self.s1_exp.next = self.zero128.val();
        if self.s1_elog.val() == self.elog1.val() {
            for i in 0..8 {
                self.s1_exp.next = self.s1_exp.val() << 16;
                if self.s1_mask8.val().get_bit(7 - i) {
                    self.s1_exp.next = self.s1_exp.val() | self.mask16.val();
                }
            }
        } else if self.s1_elog.val() == self.elog2.val() {
            for i in 0..4 {
                self.s1_exp.next = self.s1_exp.val() << 32;
                if self.s1_mask8.val().get_bit(3 - i) {
                    self.s1_exp.next = self.s1_exp.val() | self.mask32.val();
                }
            }
        } else {
            for i in 0..2 {
                self.s1_exp.next = self.s1_exp.val() << 64;
                if self.s1_mask8.val().get_bit(1 - i) {
                    self.s1_exp.next = self.s1_exp.val() | self.mask64.val();
                }
            }
        }
        self.s1_wmask.next = self.s1_mask.val() << self.s1_sh.val();
        if self.s1_sector.val() {
            self.s1_wmask.next = self.s1_exp.val();
        }
        // The ALU computes a sector request as the full-sector vector of its type (vec field
        // 4 - log2 element bytes: v8 16-bit, v4 32-bit, v2 64-bit) and the merge keeps only
        // the enabled elements.
        self.s1_vecf.next = self.zero2.val() - self.s1_elog.val();
        self.s1_alu_form.next = self.s1_form.val();
        if self.s1_sector.val() {
            self.s1_alu_form.next = (self.s1_form.val() & self.vec_clear.val())
                | (bit_cast::<CODE_WIDTH, 2>(self.s1_vecf.val()) << self.vec_lsb.val());
        }
        // Unused: the high halves of the 32-bit-only lanes 1 and 3, the rest of the table.
        self.unused_sector.next = self.int_lane[0].y.val().get_bits::<32>(32).any()
            ^ self.int_lane[2].y.val().get_bits::<32>(32).any()
            ^ self.s1_elogw.val().any();

        // The integer lanes' results of a sector request, as a line.
        self.s2_intvec.next =
            bit_cast::<128, 64>(self.int_alu.y.val()) | (bit_cast::<128, 64>(self.int_lane[1].y.val()) << 64);
        if !self.s2_int64.q.val() {
            self.s2_intvec.next = bit_cast::<128, 32>(self.int_alu.y.val().get_bits::<32>(0))
                | (bit_cast::<128, 32>(self.int_lane[0].y.val().get_bits::<32>(0)) << 32)
                | (bit_cast::<128, 32>(self.int_lane[1].y.val().get_bits::<32>(0)) << 64)
                | (bit_cast::<128, 32>(self.int_lane[2].y.val().get_bits::<32>(0)) << 96);
        }
        self.s2_new.next = self.s2_base.q.val();
        if !self.s2_fp.q.val()
            && ((self.s2_kind.q.val() == self.kind_red.val()) || (self.s2_kind.q.val() == self.kind_atom.val()))
        {
            self.s2_new.next =
                self.s2_base.q.val() | (bit_cast::<128, 64>(self.int_alu.y.val()) << self.s2_sh.q.val());
            if self.s2_sector.q.val() {
                self.s2_new.next = self.s2_base.q.val() | (self.s2_intvec.val() & self.s2_wmask.q.val());
            }
        }
        self.s4_new.next = self.s4_data.q.val();
        if self.s4_fp.q.val()
            && ((self.s4_kind.q.val() == self.kind_red.val()) || (self.s4_kind.q.val() == self.kind_atom.val()))
        {
            self.s4_new.next = self.s4_data.q.val() | (self.alu.out_data.val() << self.s4_sh.q.val());
            if self.s4_sector.q.val() {
                self.s4_new.next = self.s4_data.q.val() | (self.alu.out_data.val() & self.s4_wmask.q.val());
            }
        }

        // ==========================================================================
        // Issue: the queue picks the oldest eligible entry; the queue itself holds requests to
        // the line of an FP op in s1 or s2 (its result is not there yet when a dependent
        // request reaches s1). A request issues only with a response place reserved for it.
        // ==========================================================================
        self.queue.issue_enable.next = self.credits.q.val() < self.credit_max.val();
        self.issue.next = self.queue.issue_valid.val();
        // The RAM read of the issued line (unordered requests read line 0, unused).
        self.mem.read_addr.next = self.queue.issue_line.val();
        if !self.queue.issue_ordered.val() {
            self.mem.read_addr.next = self.zero_line.val();
        }
        self.s1_valid.d.next = self.issue.val() && !self.reset.val();
        self.s1_ordered.d.next = self.queue.issue_ordered.val();
        self.s1_line.d.next = self.queue.issue_line.val();
        self.s1_payload.d.next = self.queue.issue_payload.val();
        // Reserved response places: + issue, - response handshake.
        self.rsp_fire.next = self.rsp_fifo.out_valid.val() && self.rsp_ready.val();
        if self.issue.val() && !self.rsp_fire.val() {
            self.credits.d.next = self.credits.q.val() + self.one4.val();
        }
        if self.rsp_fire.val() && !self.issue.val() {
            self.credits.d.next = self.credits.q.val() - self.one4.val();
        }
        if self.reset.val() {
            self.credits.d.next = self.zero4.val();
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
        if !(self.credits.q.val() < self.credit_max.val()) {
            self.ev_credit_stall.next = true;
        }

        // ==========================================================================
        // s1: RAM data arrives; forward the youngest in-flight version of the line; old
        // value to both ALUs; stores merge here; response data fixed here.
        // ==========================================================================
        self.s1_fwd_fp.next = false;
        self.s1_old_line.next = self.mem.read_data.val();
        if self.s1_valid.q.val() && self.s1_ordered.q.val() {
            if self.s2_valid.q.val() && self.s2_ordered.q.val() && (self.s2_line.q.val() == self.s1_line.q.val()) {
                self.s1_old_line.next = self.s2_new.val();
                self.ev_fwd_s2.next = true;
            } else if self.s3_valid.q.val()
                && self.s3_ordered.q.val()
                && (self.s3_line.q.val() == self.s1_line.q.val())
            {
                self.s1_old_line.next = self.s3_data.q.val();
                self.ev_fwd_s3.next = true;
            } else if self.s4_valid.q.val()
                && self.s4_ordered.q.val()
                && (self.s4_line.q.val() == self.s1_line.q.val())
            {
                self.s1_old_line.next = self.s4_new.val();
                self.ev_fwd_s4.next = true;
                self.s1_fwd_fp.next = self.s4_fp.q.val() && self.s1_fp.val();
            } else if self.s5_valid.q.val() && (self.s5_line.q.val() == self.s1_line.q.val()) {
                self.s1_old_line.next = self.s5_data.q.val();
                self.ev_fwd_s5.next = true;
            }
        }
        if self.s1_fwd_fp.val() {
            self.ev_fp_chain.next = true;
        }
        self.s1_old.next = self.s1_old_line.val() >> self.s1_sh.val();

        self.int_alu.op.next = self.s1_form.val().get_bits::<OP_WIDTH>(self.op_lsb.val().index());
        self.int_alu.ty.next = self.s1_form.val().get_bits::<TYPE_WIDTH>(self.ty_lsb.val().index());
        self.int_alu.a.next = self.s1_old.val().get_bits::<64>(0);
        self.int_alu.b.next = self.s1_data.val().get_bits::<64>(0);
        for i in 0..3 {
            self.int_lane[i].op.next = self.s1_form.val().get_bits::<OP_WIDTH>(self.op_lsb.val().index());
            self.int_lane[i].ty.next = self.s1_form.val().get_bits::<TYPE_WIDTH>(self.ty_lsb.val().index());
        }
        self.int_lane[0].a.next = self.s1_old.val().get_bits::<64>(32);
        self.int_lane[0].b.next = self.s1_data.val().get_bits::<64>(32);
        self.int_lane[1].a.next = self.s1_old.val().get_bits::<64>(64);
        self.int_lane[1].b.next = self.s1_data.val().get_bits::<64>(64);
        self.int_lane[2].a.next = bit_cast::<64, 32>(self.s1_old.val().get_bits::<32>(96));
        self.int_lane[2].b.next = bit_cast::<64, 32>(self.s1_data.val().get_bits::<32>(96));
        self.alu.in_valid.next = self.s1_valid.q.val() && self.s1_ordered.q.val() && self.s1_fp.val();
        self.alu.in_form.next = self.s1_alu_form.val();
        self.alu.in_old.next = self.s1_old.val();
        self.alu.in_b.next = self.s1_data.val();

        self.s2_valid.d.next = self.s1_valid.q.val() && !self.reset.val();
        self.s2_ordered.d.next = self.s1_ordered.q.val();
        self.s2_line.d.next = self.s1_line.q.val();
        self.s2_kind.d.next = self.s1_kind.val();
        self.s2_fp.d.next = self.s1_fp.val();
        self.s2_sh.d.next = self.s1_sh.val();
        self.s2_status.d.next = self.s1_status.val();
        self.s2_id.d.next = self.s1_id.val();
        // The line without the accessed bytes; a store merges its data now; a load keeps
        // the whole line.
        self.s2_base.d.next = self.s1_old_line.val() & !self.s1_wmask.val();
        if self.s1_kind.val() == self.kind_st.val() {
            self.s2_base.d.next = (self.s1_old_line.val() & !(self.s1_mask.val() << self.s1_sh.val()))
                | ((self.s1_data.val() & self.s1_mask.val()) << self.s1_sh.val());
        }
        if self.s1_kind.val() == self.kind_ld.val() {
            self.s2_base.d.next = self.s1_old_line.val();
        }
        self.s2_rsp.d.next = self.zero128.val();
        if self.s1_ordered.q.val()
            && ((self.s1_kind.val() == self.kind_ld.val()) || (self.s1_kind.val() == self.kind_atom.val()))
        {
            self.s2_rsp.d.next = self.s1_old.val() & self.s1_mask.val();
            if self.s1_sector.val() {
                self.s2_rsp.d.next = self.s1_old_line.val() & self.s1_wmask.val();
            }
        }
        self.s2_sector.d.next = self.s1_sector.val();
        self.s2_int64.d.next = self.s1_elog.val() == self.elog3.val();
        self.s2_wmask.d.next = self.s1_wmask.val();

        // ==========================================================================
        // s2: the integer result (IntAlu, one cycle) merges into the line.
        // ==========================================================================
        self.s3_valid.d.next = self.s2_valid.q.val() && !self.reset.val();
        self.s3_ordered.d.next = self.s2_ordered.q.val();
        self.s3_line.d.next = self.s2_line.q.val();
        self.s3_kind.d.next = self.s2_kind.q.val();
        self.s3_fp.d.next = self.s2_fp.q.val();
        self.s3_sh.d.next = self.s2_sh.q.val();
        self.s3_data.d.next = self.s2_new.val();
        self.s3_rsp.d.next = self.s2_rsp.q.val();
        self.s3_status.d.next = self.s2_status.q.val();
        self.s3_id.d.next = self.s2_id.q.val();
        self.s3_sector.d.next = self.s2_sector.q.val();
        self.s3_wmask.d.next = self.s2_wmask.q.val();

        // ==========================================================================
        // s3: carry (the FP ALU is in its second stage).
        // ==========================================================================
        self.s4_valid.d.next = self.s3_valid.q.val() && !self.reset.val();
        self.s4_ordered.d.next = self.s3_ordered.q.val();
        self.s4_line.d.next = self.s3_line.q.val();
        self.s4_kind.d.next = self.s3_kind.q.val();
        self.s4_fp.d.next = self.s3_fp.q.val();
        self.s4_sh.d.next = self.s3_sh.q.val();
        self.s4_data.d.next = self.s3_data.q.val();
        self.s4_rsp.d.next = self.s3_rsp.q.val();
        self.s4_status.d.next = self.s3_status.q.val();
        self.s4_id.d.next = self.s3_id.q.val();
        self.s4_sector.d.next = self.s3_sector.q.val();
        self.s4_wmask.d.next = self.s3_wmask.q.val();

        // ==========================================================================
        // s4: the FP result (ReductionAlu output) merges; write back; response.
        // ==========================================================================
        // The ALU's own valid and form outputs are not needed (s4 carries both).
        self.unused_alu.next = self.alu.out_valid.val() ^ self.alu.out_form.val().any();
        self.mem.write_enable.next = self.s4_valid.q.val()
            && self.s4_ordered.q.val()
            && (self.s4_kind.q.val() != self.kind_ld.val())
            && !self.reset.val();
        self.mem.write_addr.next = self.s4_line.q.val();
        self.mem.write_data.next = self.s4_new.val();
        self.rsp_fifo.push.next = self.s4_valid.q.val() && !self.reset.val();
        self.rsp_fifo.push_entry.next = bit_cast::<RSP_ENTRY_BITS, ID_WIDTH>(self.s4_id.q.val())
            | (bit_cast::<RSP_ENTRY_BITS, 128>(self.s4_rsp.q.val()) << self.r_data.val())
            | (bit_cast::<RSP_ENTRY_BITS, STATUS_WIDTH>(self.s4_status.q.val()) << self.r_status.val());
        self.s5_valid.d.next = self.s4_valid.q.val() && self.s4_ordered.q.val() && !self.reset.val();
        self.s5_line.d.next = self.s4_line.q.val();
        self.s5_data.d.next = self.s4_new.val();

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
            | (bit_cast::<COV_WIDTH, 1>(self.ev_reset_in_flight.val().into()) << 14);
        self.cov.next = self.cov_bits.val();
    }
}

/// The Verilog of the unit with `mem_bytes` of memory, as a `top` module.
pub fn unit_verilog(mem_bytes: usize) -> String {
    unit_verilog_with(mem_bytes, &Config::default())
}

/// The Verilog of the unit with `mem_bytes` of memory and the depths of `cfg`, as a `top` module.
pub fn unit_verilog_with(mem_bytes: usize, cfg: &Config) -> String {
    crate::verilog::verilog(&mut SliceUnit::with_config(mem_bytes, cfg))
}
