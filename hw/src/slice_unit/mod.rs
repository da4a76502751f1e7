//! The L2-slice unit: request and response ports, memory, ordering queue, ALUs.
//!
//! The ports, the constants and [`unit_verilog`] are the contract with the testbench.
//!
//! # Microarchitecture
//!
//! ```text
//!  ad ─► ac ─► queue ─► sc ─► si ─► sr ─► s1 ─────► s1b ─► s2 .. ─► result reg ─► merge ─► write ─► FIFO (32)
//!  (form  (acc.  (reg.    fwd.  fwd.  RAM   RAM data,  old value,      (ALU, L)       (int/FP)  RAM write,
//!  dec.)  dec.)  push)   cmp.  sel.  read  forward    ALU inputs,                              response,
//!                                          (AND-OR    store merge                              forwarded
//!                                          of regs)
//! ```
//! One pipeline at every depth: the depth parameters ([`Config`]) only insert the ALU's
//! registers, and the stages after s1 follow its latency (see "Pipeline depths").
//! - **ad** (s0 accept, `Accept`): the request is registered with its form's decode (size,
//!   FP, range, window, chain key, words: [`sim::memory::req_encoding`],
//!   [`sim::form::encoding`]; `ad_*` takes the port's request while empty or moving into
//!   `ac`, so `req_ready` is `!ad_valid || ac loads`, from a register): the port drives a few
//!   LUTs only.
//! - **ac**: the access's decode (alignment and range status, chain key, words) is registered
//!   before the queue's push (`ac_*`; it takes `ad`'s request while empty or moving into the
//!   queue): the queue's line compares start from registers, not from the decode. Error
//!   requests enter the queue unordered: they never read or write memory and only carry their
//!   status to the response.
//! - **[`OrderingQueue`]**: issues the oldest *eligible* entry each cycle: no older entry to
//!   the same 16-byte line and one of its 32-bit words waits, and no ordered entry to its line
//!   and words issued within that entry's hazard window (below). Requests to other words and
//!   lines overtake waiting ones. A registered push ([`OrderingQueue::with_registered_push`]):
//!   the pushed entry keeps its raw line matches and applies the issue of its push cycle one
//!   cycle later, so the request's decode and the queue's pick never meet in one cycle (a
//!   request waits at least one cycle in the queue). Its issue outputs leave a cycle after the
//!   pick, from the issued entry's slot (which no push takes for two cycles), so the pick
//!   drives registers only; the request credit count then lags by up to one issue and allows
//!   one place less.
//! - **sc** registers the issued request and compares its line with the ops that will be
//!   three stages further when it reaches s1, in 4-bit chunks, into registers (`eq_r`).
//! - **si** registers sc's request; the RAM address comes from there (the pick does not
//!   drive the block RAMs' address pins). One LUT per word and op joins sc's chunk matches,
//!   the op's words and the supersede bits into the one-hot forwarding select, registered
//!   once per 32-bit quarter of sr's select (`fsel_q`, replicas that placement puts by their
//!   quarter) and once per word for s1 (`fsel_rq`, copied in sr into per-quarter replicas
//!   `fsel_s`, and into the op's own word's, `fsel_d`, for the integer loop): the select's
//!   fan-out to 128 bits and its compares are in different cycles.
//! - **sr**: the RAM is read through an output register (two cycles, [`LineMemory`] with
//!   `with_output_register`; in the ECP5 flow the block RAMs' own output register, so the
//!   RAM's clock-to-output starts no path). Meanwhile sr selects the forwarding sources whose
//!   line in s1 is in a register now (a source's stage before it, when nothing merges between:
//!   all but s2 and the stages right after the integer and FP merges) into two registers
//!   (`fpre`), so no select spans all the in-flight lines.
//! - **s1** only selects among registers (the RAM output, `fpre`, the three other sources) and
//!   registers the old line; the RAM's data joins last, in one LUT per bit after the other
//!   sources' select ([`RamForwardMux`]).
//! - **s1b**, the compute stage, extracts the old value (`old line >> 8*offset`, [`OldExtract`]
//!   from register replicas, one per group of consumers), feeds both ALUs and merges a store;
//!   the response data (the old value masked to the access size, for `ld`/`atom`) is fixed
//!   here. The FP ALU learns s1b's operation a cycle ahead, from s1 (`pre_valid`, `pre_form`:
//!   [`ReductionAlu::with_early_hold`]), so its units' operand isolation and output select
//!   come from registers (`pre_form`: s1's ALU form, a register decoded from sr's payload,
//!   `pre_form_r`; s1b's is that register a cycle later, `pre_form_rr`).
//! - **s2 ..** (`sp_*`): the integer result ([`IntAlu`], latency `Li`) and the FP result
//!   ([`ReductionAlu`], latency `L`) are registered (`y_r`, `out_r`) before they merge into the
//!   line, and the merged line is registered before anything reads it: forwarding and the
//!   write both start from registers. A merge has no shifter: the result is replicated across
//!   the line by its access size (a 4-byte result in each 4-byte slot, ..: `sp_rep`) and the
//!   request's byte mask (`sp_wmask`) keeps the accessed bytes, which the alignment rule puts
//!   in the right slot.
//! - **write** (the last `sp_*` stage): the new line is written to the RAM (only the words the
//!   request touches; not for `ld` and errors) and the response enters the [`ResponseFifo`].
//!   The lines written in the last two cycles stay as forwarding sources (`sw_*`: the RAM
//!   reads the old content when a read and a write of one line meet).
//!
//! # Forwarding (like SiFive's inclusive-cache `SourceD` for its L2 atomics)
//! The request in s1 takes each 32-bit word of its old line from the youngest older request
//! in flight that writes the word (sr, s1, s1b, the `sp_*` stages, the written lines `sw_*`),
//! otherwise from the RAM: sc and si find the source (`ForwardCompare`), and s1 only selects
//! among registers. A source's line carries its op's accessed bytes cleared until its merge,
//! so a request to those bytes waits the op's hazard window and reaches s1 when the merged
//! line is in a register, unless it chains (the integer and the FP loop, below): then it
//! takes its operand from its producer's result where the result is made.
//!
//! # One integer ALU
//! [`ReductionAlu`] contains an [`IntAlu`] too, but delays its result to the ALU's common
//! latency. A dependent integer op needs the result sooner (and from the ALU's own loops), so
//! the unit drives an [`IntAlu`] of its own for the integer and bitwise forms and sends
//! [`ReductionAlu`] only FP forms ([`ReductionAlu::fp_only`]): the ALU's integer operands are
//! tied to zero and its integer result is never selected, so synthesis removes its copy.
//!
//! # Pipeline depths ([`Config`], [`shape`])
//! With ALU latency `L` (3 at the shallowest depths, `Config::default()`; 14 in the unit's
//! default configuration, `Config::unit_default()`) and integer latency `Li` (1 or 2), the
//! integer result merges in `sp_*[Li]` and the FP result in `sp_*[L]`, and the write stage is
//! `sp_*[L + 1]`; the stages before s2 are the same at every depth (the queue's windows follow
//! the depths).
//! - Hazard windows `Li + 2` and `L + 2` cycles (1 for `ld`/`st`, 4 for `atom.cas`, whose line
//!   settles two stages after a store's), so a request behind an FP op it does not chain with
//!   issues `L + 3` cycles after it, and one behind an integer op to other bytes of its word
//!   `Li + 3`; an integer op behind one to the same bytes chains (below) and issues every 2
//!   cycles (add/and/or/xor every cycle), an FP op behind one of the same FP unit to the same
//!   bytes `L` cycles after it ([`dependent_issue_interval_with`]); requests to other words
//!   and lines still issue one per cycle.
//! - The coverage bus `cov` is registered: its events appear a cycle after they happen.
//! - Latency `L + 13` ([`unit_latency`]); the response FIFO has 32 places
//!   ([`Shape::rsp_depth`]) so that the requests between issue and response never run out of
//!   reserved places at one request per cycle.
//!
//! # The integer loop
//! A dependent integer operation takes its operand from its producer's result where the result
//! is made, not from the merged line (SiFive's `SourceD` forwards its ALU's output to its own
//! input the same way). An integer `red`/`atom` on a plain access carries a *chain key* (offset
//! and size) into the queue; one that waits on an older entry with the same key (the same
//! bytes, any integer form: add/and/or/xor/min/max/inc/dec, `red` or `atom`; a 64-bit add's key
//! is marked, so it chains with 64-bit adds alone: the ALU's loop carries the high sum only to
//! fast forms) waits a window of `max(Li, 2) - 1` after that entry's issue instead of `Li + 2`
//! ([`OrderingQueue`], "Chains"). It reaches s1b 2 to `Li + 2` cycles behind its producer: sr
//! sees that its forwarding source in s1 will be an integer `red`/`atom` that close (the queue
//! lets no other so close) and registers a one-hot source select (`ch_pre`), which s1
//! registers again for s1b (`ch_d`: a select from registers). `Li` cycles behind (two
//! integer stages) the producer's result is being made: s1b sets the ALU's `loop_a`, which
//! loads its `a` register from its own `y` ([`IntAlu`]: the second segment is only an AND-OR
//! of candidates chosen in the first, so the loop's last cycle is three LUT levels); an
//! `atom`'s old value (that result) joins its response a stage later, from a register of the
//! ALU's result (`y_r[0]`). `Li + 1` and `Li + 2` cycles behind the result is in `y_r` or
//! `y_rr`, and s1b puts it on the ALU's `a` input and in the response. The line it forwarded
//! is right but for its own bytes (a producer's line carries its bytes cleared until its
//! merge), which its own result replaces. Dependent integer ops issue every 2 cycles. Masked
//! sector requests, FP forms and accesses to other bytes take the line.
//!
//! **Fast chains.** add/and/or/xor carry a *fast* bit in their key: one behind another to
//! the same bytes may issue the cycle after it (the queue's fast chains). sc compares its line
//! with si's (`ForwardCompare`): ops one cycle apart on a common word are such a chain (no
//! other is let so close), and si's op supersedes the one ahead for its words, so later ops
//! forward from the consumer only. The flag reaches s1b (`l1_s1b`) and sets the ALU's
//! `loop_1` ([`IntAlu`]: the low half's sum or bitwise result is made in its first segment and
//! fed back to the next op's first segment, the high half's in the second, with the carry
//! registered between at two integer stages): dependent add/logic ops issue every cycle. An
//! `atom`'s old value (the producer's result, `y_r[0]`) joins its response on the way to
//! `sp_*[Li]`.
//!
//! # The FP loop
//! An FP `red`/`atom` on a plain access carries a chain key too: its offset and size, the FP
//! unit that computes it (f16/bf16 add, 16-bit min/max, f32, f64) and the key's long bit. One
//! behind another with the same key (the same bytes and unit, any of its forms) waits `L - 1`
//! after that one's issue ([`Shape::win_fp_chain`]) instead of `L + 2`: it reaches s1b `L` to
//! `L + 2` cycles behind, and [`fp_chain::FpChain`] decides its source in sr and registers it
//! twice (the select of s1b a copy per quarter of each old-value input of the ALU). At `L` the
//! producer's result is on the unit's lanes: the ALU's `loop_a` loads each lane's `a` from
//! its own result (the lanes hold the new value of the bytes, whichever form of the unit made
//! it); at `L + 1` and `L + 2` the result is `out_r`'s value in s1b's cycle or s1's: s1
//! registers it (`cv`, from the ALU's output or `out_r`) and s1b puts it on the ALU's
//! old-value inputs. An
//! `atom`'s old value joins its response as the integer loop's does. Dependent FP ops issue
//! every `L` cycles (14 in the default configuration, 3 at the shallowest depths).
//!
//! # Latency (cycles from the request handshake to `rsp_valid`, no stalls, no hazard)
//! Every kind, errors included: [`unit_latency`] = `L + 13` (`ad`, `ac`, the queue's registered
//! push and its late issue outputs, sc, si, sr, s1, s1b, the ALU's `L`, the result and the
//! merged-line registers, the write stage and the FIFO): 27 in the default configuration,
//! [`UNIT_MIN_LATENCY`] = 16 at the shallowest depths.
//! A request waits longer behind older ones to its words (its hazard window or its chain's
//! interval), when the response FIFO is full (`rsp_ready` low), and when responses fill all
//! reserved places.
//!
//! # Flow control
//! `req_ready` is low only when the ordering queue is full and `ad` and `ac` hold a request
//! too (so the unit takes two requests more than the queue's places before `req_ready`
//! falls), and during reset. A request issues only when the response FIFO has a place
//! reserved for it (a count of requests between issue and response handshake, at most one
//! less than the FIFO's 32 places, as the queue's issue shows a cycle late), so the pipeline
//! never stalls and `rsp_ready` may fall on any cycle: responses wait in the FIFO, requests
//! wait in the queue.
//!
//! # Reset
//! Synchronous `reset` high for one cycle or more returns the unit to idle: the queue, the
//! pipeline, the response FIFO and the count are emptied; requests accepted before the reset
//! and not yet answered are dropped and get no response (not even the ones whose response
//! was already in the FIFO). Memory keeps what was written; of the requests in flight, only
//! the one in the write stage (the last `sp_*` stage) in the first reset cycle is still
//! written (the write enable is registered a cycle ahead, so the reset port drives no
//! block-RAM enable), without a response. While `reset` is high, `req_ready` and
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
//! # Source files
//! `stages/` holds the unit's own logic, a section per stage group in the file of its stage
//! (`setup.rs`, `port.rs`, `views.rs`, `issue.rs`, `read.rs`, `execute.rs`, `carry.rs`,
//! `write.rs`), joined in pipeline order into one combinational block ([`crate::sections`]).
//! The parts that stand alone are blocks of their own, one file each: `accept.rs` (s0: the
//! request's decode into the queue's push, `ad_*` and `ac_*`) with its two steps
//! `form_decode.rs` (the operation) and `push_decode.rs` (the address checks and queue
//! fields), `access.rs` (the access's shift, byte masks and ALU form from s1's payload),
//! `forward_compare.rs` (sc's forwarding compares and the select's copies towards s1),
//! `fp_chain.rs` (the FP loop's source select), `merge.rs` (the result merges), `cas.rs` (the
//! `atom.cas` check, a stage after the compute stage), `credits.rs` (the response places
//! reserved at issue) and `coverage.rs` (the coverage bus). `build.rs` constructs the unit,
//! `shape.rs` its stages.
//!
//! # Illegal operation codes
//! Codes that [`sim::Access::from_code`] rejects are not checked (the port contract is that
//! only legal codes are sent); such a request is answered, and may write memory.

use crate::alu::ReductionAlu;
use crate::config::{Config, Delay};
use crate::ecp5::ram_forward_mux::RamForwardMux;
use crate::ecp5::replica_reg::ReplicaReg;
use crate::int_alu::IntAlu;
use crate::k;
use crate::line_memory::{LINE_BITS, LineMemory};
use crate::old_extract::OldExtract;
use crate::ordering_queue::{OrderingQueue, QUEUE_PAYLOAD_BITS};
use crate::response_fifo::{RSP_ENTRY_BITS, ResponseFifo};
use rust_hdl::prelude::*;
use sim::form::encoding::{CODE_WIDTH, OP_LSB, OP_WIDTH, TYPE_LSB, TYPE_WIDTH};
use sim::memory::req_encoding::{
    KIND_ATOM, KIND_LD, KIND_LSB, KIND_RED, KIND_ST, KIND_WIDTH, REQ_OP_WIDTH, STATUS_MISALIGNED, STATUS_OUT_OF_RANGE,
    STATUS_WIDTH,
};

mod accept;
mod access;
mod build;
mod cas;
mod coverage;
mod credits;
mod form_decode;
mod forward_compare;
mod fp_chain;
mod merge;
mod push_decode;
mod shape;
mod stages;

use accept::Accept;
use access::AccessDecode;
use cas::CasCheck;
use credits::Credits;
use forward_compare::ForwardCompare;
use fp_chain::FpChain;
use merge::ResultMerge;

pub use build::{unit_verilog, unit_verilog_with};
pub use coverage::*;
pub use shape::*;

/// Width of the request id tag.
pub const ID_WIDTH: usize = 16;
/// Width of the coverage-event bus.
pub const COV_WIDTH: usize = 20;

/// Requests the unit accepts before `req_ready` falls when nothing issues.
pub use crate::ordering_queue::QUEUE_DEPTH;

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
    /// Coverage events (see [`COVERAGE_POINTS`]) of the cycle before (the bus is registered:
    /// it leaves the queue's pick off the port).
    pub cov: Signal<Out, Bits<COV_WIDTH>>,

    // Blocks.
    queue: OrderingQueue,
    mem: LineMemory,
    int_alu: IntAlu,
    /// Integer lanes 1..3 of a masked sector request (lane k at bits 32k..): with `int_alu`
    /// (lane 0) four 32-bit or two 64-bit elements (lanes 0 and 2) per pass. They never
    /// loop, so their high sums are carry selects ([`IntAlu::with_carry_select`]).
    int_lane: [IntAlu; 3],
    alu: ReductionAlu,
    rsp_fifo: ResponseFifo,
    /// s0 accept: the request's decode into the queue's push, through `ad_*` and `ac_*`.
    accept: Accept,
    /// s1's access shift and masks, registered for s1b, and the ALU's form.
    access: AccessDecode,
    /// The response places reserved for issued requests (the issue enable).
    credit: Credits,
    /// sc's forwarding compares into each word's select.
    fwd: ForwardCompare,
    /// The `atom.cas` compare and restore value, a stage after the compute stage.
    cas: CasCheck,
    merge: ResultMerge,
    /// The FP loop's source select.
    fp_chain: FpChain,
    /// Bit j of `fch_pv`: `sp_*[j]` holds a plain FP op (`fp_chain`'s producers), built by
    /// shifting in from the top (`fch_sh`: 32 less the stages).
    fch_pv: Signal<Local, Bits<32>>,
    fch_pb: Signal<Local, Bit>,
    fch_sh: Constant<Bits<6>>,
    top31: Constant<Bits<5>>,
    /// The coverage bus `cov` from the events below.
    cov_bus: CoverageBus,

    // Constants: encodings (from sim), tables, masks.
    kind_lsb: Constant<Bits<4>>,
    op_lsb: Constant<Bits<4>>,
    ty_lsb: Constant<Bits<4>>,
    kind_red: Constant<Bits<KIND_WIDTH>>,
    kind_atom: Constant<Bits<KIND_WIDTH>>,
    kind_ld: Constant<Bits<KIND_WIDTH>>,
    kind_st: Constant<Bits<KIND_WIDTH>>,
    status_mis: Constant<Bits<STATUS_WIDTH>>,
    status_oor: Constant<Bits<STATUS_WIDTH>>,
    zero128: Constant<Bits<128>>,
    zero64: Constant<Bits<64>>,
    ones4: Constant<Bits<4>>,
    p_fp: Constant<Bits<8>>,
    p_status: Constant<Bits<8>>,
    p_id: Constant<Bits<8>>,
    p_data: Constant<Bits<8>>,
    p_mask: Constant<Bits<8>>,
    elog3: Constant<Bits<2>>,
    r_data: Constant<Bits<8>>,
    r_status: Constant<Bits<8>>,
    zero_line: Constant<Bits<LINE_BITS>>,

    unused_decode: Signal<Local, Bit>,
    unused_alu: Signal<Local, Bit>,

    // Issue.
    issue: Signal<Local, Bit>,
    rsp_fire: Signal<Local, Bit>,

    // ==== sc, si, sr: the issued request, its forwarding compares, the RAM read ====
    /// sc: the issued request registered; its line is compared with the ops in flight here,
    /// per 4-bit chunk, and si combines the chunks into sr's select (`ForwardCompare`), so
    /// that no compare meets the select's gating in one cycle.
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
    /// The 32-bit quarters of a line, for the per-quarter selects of sr and s1.
    qmask: [Constant<Bits<128>>; 4],
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
    zero32: Constant<Bits<32>>,
    /// `fsel` from the written-line sources on (`fsel >> stages`).
    fsel_sw: Signal<Local, Bits<32>>,
    fsw_sh: Constant<Bits<6>>,
    /// The integer lanes' and the ALU's results, registered before they merge.
    y_r: [DFF<Bits<64>>; 4],
    out_r: DFF<Bits<128>>,
    /// The integer loop: lane 0's result one cycle after `y_r` (a chain source).
    y_rr: DFF<Bits<64>>,
    /// Bit j: a chain consumer whose producer is in `sp_*[j]` when it is in s1 takes the
    /// producer's result from the integer ALU's own loop (`ch_m[0]`), `y_r` (`ch_m[1]`) or
    /// `y_rr` (`ch_m[2]`).
    ch_m: [Constant<Bits<32>>; 3],
    /// s1b's chain source (one-hot over the loop, `y_r[0]`, `y_rr`; zero: the line).
    ch_d: [DFF<Bit>; 3],
    ch_nx: [Signal<Local, Bit>; 3],
    /// `sp_*[0]` holds an `atom` chained through the ALU's loop: its old value (the
    /// producer's result, the integer ALU's last result `y_r[0]`) joins its response on the
    /// way to `sp_*[1]` (`sp_rsp[0]` holds its mask).
    ch_rsp: DFF<Bit>,
    /// A fast chain's consumer one cycle behind its producer (`ForwardCompare`'s `l1`, in
    /// si), carried to s1b (`l1_s1b`), where it sets the integer ALU's `loop_1`; an `atom`'s old
    /// value (the producer's result, `y_r[0]` a cycle later than for `ch_rsp`) joins its
    /// response on the way from `sp_*[1]` to `sp_*[2]` (`l1_rsp`, `l1_rsp2`).
    l1_sr: DFF<Bit>,
    l1_s1: DFF<Bit>,
    l1_s1b: DFF<Bit>,
    l1_rsp: DFF<Bit>,
    l1_rsp2: DFF<Bit>,
    /// The integer ALU has one stage (`Li` = 1): a fast chain's old value joins a stage
    /// earlier.
    int_one: Constant<Bit>,
    /// s1's chain source as decided in sr (`ch_d`'s value a cycle early).
    ch_pre: [DFF<Bit>; 3],
    /// sr's op may chain (an integer `red`/`atom`, plain access); the stage's op is a producer.
    ch_me: Signal<Local, Bit>,
    ch_p: Signal<Local, Bit>,
    sr_op: Signal<Local, Bits<REQ_OP_WIDTH>>,
    sr_kind: Signal<Local, Bits<KIND_WIDTH>>,
    sr_fp: Signal<Local, Bit>,
    /// sr holds a valid, ordered op on a plain access (no sector mask).
    sr_plain: Signal<Local, Bit>,
    /// s1b's chained operand from the registers after the ALU, and whether it has one.
    ch_val: Signal<Local, Bits<64>>,
    ch_any: Signal<Local, Bit>,

    // ==== s1b: the compute stage (s1 forwards, s1b computes) ====
    s1b_valid: DFF<Bit>,
    s1b_ordered: DFF<Bit>,
    s1b_line: DFF<Bits<LINE_BITS>>,
    s1b_payload: DFF<Bits<QUEUE_PAYLOAD_BITS>>,
    s1b_old: DFF<Bits<128>>,
    /// The op in s1 is an FP op (coverage of the forwarding).
    s1r_fp: Signal<Local, Bit>,

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
    s1_old_line: Signal<Local, Bits<128>>,
    /// The old value for the integer ALUs, the min/max lanes, the f32/f64 adders, the
    /// response (`ox`).
    s1_old_int: Signal<Local, Bits<128>>,
    s1_old_mm: Signal<Local, Bits<128>>,
    s1_old_wide: Signal<Local, Bits<128>>,
    s1_old_rsp: Signal<Local, Bits<128>>,
    /// `atom.cas` in the compute stage.
    s1_cas: Signal<Local, Bit>,
    /// The old value's extract (see `OldExtract`), one per group of consumers: the f16/bf16
    /// adders (0), the min/max lanes (1), the f32/f64 adders (2), the integer ALUs (3), the
    /// response (4), each from replicas of s1b's line and shift of its own. (A sixth for the
    /// f64 adders apart from the f32 ones puts its replicas on the RAM's critical path.)
    ox: [OldExtract; 5],
    s1_fwd_fp: Signal<Local, Bit>,
    /// sM's own write mask (the merges read registered masks loaded beside it) and the write
    /// stage's kind (the write enable `w_we` is loaded beside it).
    unused_wm: Signal<Local, Bit>,

    // ==== s2 ..: the stages after s1b, `sp_*[j]` is stage s(j+2) ====
    // The integer result merges in `sp_*[Li]`, the FP result in sM = `sp_*[L]`, M = L + 2;
    // the write stage is the last, `sp_*[L + 1]`.
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

    // The integer merge stage (`int_at`), as seen by the merge.
    i_rep: Signal<Local, Bits<2>>,
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
    i_new: Signal<Local, Bits<128>>,

    // ==== sM: the FP result merged into the line ====
    m_rep: Signal<Local, Bits<2>>,
    m_data: Signal<Local, Bits<128>>,
    /// The FP merge's write mask: sM's write mask where its op is an FP `red`/`atom`, else
    /// zero. Registered beside `sp_*[fp_at]`, from what they load, so that the merge's 128
    /// bits, beside the block RAMs' write data, read no form decode of one register.
    m_fwm: DFF<Bits<128>>,
    m_new: Signal<Local, Bits<128>>,
    zero_kind: Constant<Bits<KIND_WIDTH>>,
    rep128: Constant<Bits<2>>,
    zero_status: Constant<Bits<STATUS_WIDTH>>,
    zero_id: Constant<Bits<ID_WIDTH>>,

    // ==== the write stage, as seen by the write (the last `sp_*` stage) ====
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
}
