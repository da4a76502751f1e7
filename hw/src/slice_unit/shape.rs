//! The unit's pipeline shape and latencies for a configuration: what the constructor builds
//! and what the testbench's models and checks expect (no hardware here).

use crate::alu::ALU_LATENCY;
use crate::config::Config;
use crate::response_fifo::RSP_FIFO_DEPTH_MAX;

/// Cycles from a request's handshake to its response on `rsp_valid`, when nothing waits, for
/// the unit at its shallowest depths (`Config::default()`; [`unit_latency`] for others).
pub const UNIT_MIN_LATENCY: usize = ALU_LATENCY + 13;

/// Cycles from a request's handshake to its response on `rsp_valid`, when nothing waits, for
/// the unit built with `cfg`: the ALU's `L`, and 13 registers: `ad`, `ac`, the queue's
/// registered push and its late issue outputs, sc, si, sr, s1, s1b, the result and the
/// merged-line registers, the write stage and the response FIFO.
pub const fn unit_latency(cfg: &Config) -> usize {
    cfg.alu_latency() + 13
}

/// The unit's pipeline shape for `cfg` (see "Pipeline depths" in the module doc).
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
    /// The window of `atom.cas`: the unit settles its line two stages after a
    /// store's (`sp_*[2]`, see `cas_fail`) and forwards it from the register there.
    pub win_cas: usize,
    /// The window of a chained integer op: an integer `red`/`atom` behind one to the same
    /// bytes takes its operand from the integer ALU's loop: `Li - 1`, at least 1, so dependent
    /// integer ops issue every `Li` cycles, at least every 2 (add/logic: every cycle, the
    /// queue's fast chains).
    pub win_chain: usize,
    /// The window of a chained FP op: an FP `red`/`atom` behind one of the same FP unit to the
    /// same bytes takes its operand from the unit's own result: `L - 1`, so dependent FP ops
    /// issue every `L` cycles.
    pub win_fp_chain: usize,
    /// Bit j of entry d: an FP chain consumer in s1 whose producer is in `sp_*[j]` takes the
    /// producer's result `d` cycles after the ALU made it (0: the unit's own lanes, in the
    /// cycle it is made; 1: `out_r`; 2: `out_r` a cycle earlier).
    pub fp_chain_map: [u128; 3],
    /// Bit j of entry d: a chain consumer in s1 whose producer is in `sp_*[j]` takes the
    /// producer's result `d` cycles after the integer ALU made it (0: the ALU's own loop, in
    /// the cycle it is made; 1: `y_r`; 2: `y_rr`).
    pub chain_map: [u128; 3],
    /// Places of the response FIFO (at least the requests in flight from issue to response).
    pub rsp_depth: usize,
}

/// The pipeline shape of the unit built with `cfg`.
pub fn shape(cfg: &Config) -> Shape {
    let lat = cfg.alu_latency();
    let int_lat = cfg.int_alu_latency();
    // Results registered before the merge (one stage), merged lines registered before
    // forwarding and writing (one more): nothing is forwarded from logic.
    let (int_at, fp_at) = (int_lat, lat);
    let stages = fp_at + 2;
    // The old line is forwarded in s1 and registered; the op computes in s1b, one cycle
    // later: every window is one cycle longer than the merge stage alone needs (si, before
    // the forwarding point, delays producer and dependent alike).
    // The chain: a consumer `d` cycles behind its producer (from `int_lat`, the ALU's own
    // loop, and at least 2, the queue's shortest wait; up to the integer window) is in s1
    // when the producer is in sp[d - 2], and finds its result `d - int_lat` cycles after
    // the ALU made it (0: the loop, 1: `y_r`, 2: `y_rr`).
    let win_int = int_at + 2;
    let first = int_lat.max(2);
    let mut chain_map = [0u128; 3];
    for d in first..=win_int {
        chain_map[d - int_lat] |= 1 << (d - 2);
    }
    // The FP chain likewise: from the ALU's latency `lat` (its lanes' own results) to the
    // FP window (`out_r` and its value a cycle earlier).
    let win_fp = fp_at + 2;
    let mut fp_chain_map = [0u128; 3];
    for d in lat..=win_fp {
        fp_chain_map[d - lat] |= 1 << (d - 2);
    }
    Shape {
        stages,
        int_at,
        fp_at,
        write_at: stages - 1,
        ram_latency: 2,
        win_fp,
        win_int,
        win_mem: 1,
        win_cas: 4,
        win_chain: first - 1,
        win_fp_chain: lat - 1,
        fp_chain_map,
        chain_map,
        rsp_depth: RSP_FIFO_DEPTH_MAX,
    }
}

/// Cycles between dependent requests to one element (the same bytes, the same form) for the
/// unit built with `cfg`: the FP chain's for the FP forms; for the integer forms 1 for a fast
/// chain (add/and/or/xor: the integer ALU's `loop_1`), else the integer chain's (other
/// integer accesses to the line wait [`Shape::win_int`]); the `atom.cas` window for
/// `atom.cas` ([`Shape::win_cas`]: its line settles two stages after a store's); the
/// `ld`/`st` window for those.
pub fn dependent_issue_interval_with(access: sim::Access, cfg: &Config) -> usize {
    match access {
        sim::Access::Red(f) | sim::Access::Atom(f) => {
            let sh = shape(cfg);
            if !is_int_type(f.ty()) {
                sh.win_fp_chain + 1
            } else if is_fast_op(f.op()) {
                1
            } else {
                sh.win_chain + 1
            }
        }
        sim::Access::Cas(_) => shape(cfg).win_cas + 1,
        _ => shape(cfg).win_mem + 1,
    }
}

/// The 32-bit words of its 16-byte line (bit w: bytes 4w..4w+3) a plain request of `access`
/// at `addr` touches: the grain of its ordering. Requests to one line run in arrival order
/// only where these meet. The RTL's decode at the accept (`a_words`) computes the same.
pub fn hazard_words(access: sim::Access, addr: u32) -> u8 {
    let first = (addr as usize % 16) / 4;
    match access.bytes() {
        16 => 0xf,
        8 => 0x3 << (first & 2),
        _ => 1 << first,
    }
}

/// The ops of a fast chain: their result's low half exists a cycle before its high half
/// ([`crate::int_alu::IntAlu`]'s `loop_1`).
pub fn is_fast_op(op: sim::Op) -> bool {
    matches!(op, sim::Op::Add | sim::Op::And | sim::Op::Or | sim::Op::Xor)
}

pub(super) fn is_int_type(t: sim::Type) -> bool {
    matches!(t, sim::Type::B32 | sim::Type::B64 | sim::Type::U32 | sim::Type::S32 | sim::Type::U64 | sim::Type::S64)
}

/// Cycles from the request handshake of `access` to its response on `rsp_valid` when no
/// older request to its line waits and `rsp_ready` is high: the same for every kind
/// ([`UNIT_MIN_LATENCY`]), error responses included.
pub fn latency(_access: sim::Access) -> usize {
    UNIT_MIN_LATENCY
}

/// Cycles between dependent requests to one element in the unit at its shallowest depths
/// (`Config::default()`; [`dependent_issue_interval_with`] for others).
pub fn dependent_issue_interval(access: sim::Access) -> usize {
    dependent_issue_interval_with(access, &Config::default())
}
