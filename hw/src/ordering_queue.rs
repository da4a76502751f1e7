//! The per-address ordering queue: holds accepted requests until they may issue, keeps
//! requests to one line in arrival order, and lets requests to other lines overtake.
//!
//! [`QUEUE_DEPTH`] fixed slots; an entry stays in the slot it was pushed into until it
//! issues (nothing shifts). Each entry holds a line address, an `ordered` flag (the request
//! touches memory; error requests do not and are never ordered), a *hazard window* `W`
//! (`push_wait`: its new line exists only `W` cycles after its issue; the unit's default
//! pipeline gives the FP forms 2, everything else 0) and an opaque payload. An entry is
//! *eligible* when it is valid and either not ordered, or ordered and
//! - no older valid ordered entry has the same line and a word in common (`push_words`: the
//!   32-bit words of the line an entry touches; order per word, entries to other words of
//!   a line overtake each other), and
//! - no ordered entry to its line and words issued in the last `W` cycles, `W` that entry's window
//!   (its result is not there yet: the unit's pipeline holds it). The largest window is the
//!   constructor's `max_wait` ([`QUEUE_HAZARD_CYCLES`] = 2 for [`Default`]).
//!
//! In each cycle with `issue_enable` high the oldest eligible entry leaves on the `issue_*`
//! outputs (combinationally from the entry registers; the consumer must take it). A push
//! (`push_valid` and `push_ready`) takes the lowest free slot. `push_ready` is low only when
//! all slots are valid (it does not look at this cycle's issue, so there is no combinational
//! path from the issue side to it). Synchronous `reset` empties the queue.
//!
//! # Timing structure (150 MHz on the ECP5)
//! Everything the pick needs is registered, so the issue outputs are two short steps from
//! the registers: a one-hot oldest-eligible pick and a one-hot AND-OR of the slots.
//! - `e_elig[i]` (entry i is eligible) is a register, computed from the next state;
//! - `e_older[i]` bit j (entry i is older than entry j): the age matrix. A push into slot k
//!   clears row k and sets column k. The pick: `sel[i] = elig[i] & !OR_j(elig[j] & older[j][i])`;
//! - `e_dep[i]` bit j (entry i waits for the older ordered entry j to its line): set at the
//!   push (the pushed line compared with every slot's line, the only line compares), cleared
//!   when j issues;
//! - `e_cnt[i]`: the cycles entry i still waits for a result, as a thermometer code (bit k
//!   set while more than k cycles remain; shifting right counts down, and the larger of two
//!   waits is their OR). When a late entry j (window `W` > 0) issues, its dependents
//!   (`e_dep[i]` bit j) are blocked in the next cycle and get `e_cnt` = `W - 1` ones (`e_wt[j]`,
//!   decoded at the push): they move from waiting on the line to waiting on the result.
//! - The issue history `h_line[k]`, `h_t[k]`: the line of the late entry issued `k + 1` cycles
//!   ago and its remaining window (`W - k - 1` ones). A pushed entry ORs the windows of the
//!   history entries to its line (bit 0: it waits next cycle, the rest its `e_cnt`); one pushed
//!   in the cycle of such an issue takes the issuing entry's `e_wt` from its line compare.
//!   The history has `max_wait - 1` places (one with the default window of 2: the line of the
//!   last issue).
//!
//! # Registered push ([`OrderingQueue::with_registered_push`], the unit's registered pipeline)
//! The push keeps the pushed request's raw matches with the slots (`m_q`: line and words,
//! with no issue applied) and the history's
//! count, and is not eligible in its first cycle; every entry applies an issue one cycle late
//! (`last_fs`: its dependence bit on the issued entry is cleared, and that entry's window,
//! `i_wt` read from its slot, joins its count, a cycle after the issue). So neither the pushed request's
//! decode nor any state of the other entries waits for this cycle's pick; the price is a
//! cycle more from push to issue, and a window of at least 1 for every ordered entry.
//! Three more registers keep the pick and the line compares off each other's paths:
//! - the windows of the history places the pushed line matches (each place's match ANDed
//!   with its window) are registered, and join the entry's count a cycle later (the entry is
//!   not eligible then anyway) through one OR of three registers: the issue of the cycle
//!   before and the newest place (`ph_w`, the issue before it), both matched through their
//!   slots' line compares (a slot stays intact for two cycles after its issue; their word
//!   matches are registered apart, `ph_wh`, and ANDed in the OR), and the older
//!   places already ORed (`ph_hr`), whose matches are compared a cycle ahead like the
//!   slots' (`hm_r`: a place k > 0 is place k - 1 of the cycle before);
//! - a push takes the slot chosen a cycle before (`fr`, among the slots free then and not
//!   being pushed), so `push_ready` and the write enables wait for no search of the valid
//!   bits; a slot freed by an issue is offered two cycles later;
//! - hence an issued entry's slot stays intact for two cycles, and the issue outputs leave a
//!   cycle after the pick (`last_fs`, `last_fire`), read from that slot: the pick drives
//!   registers only. The issue of the cycle before is the history's newest place, read from
//!   its slot too (its line compare is the pushed line's slot compare).
//! - the pushed line's compares with the slots are made a cycle ahead (`m_r`), from the line
//!   the push will carry (`push_line_nx`) and each slot's line as it will be (the slot chosen
//!   by `fr` takes the pushed line): so the push's dependences start from a register. A
//!   pusher whose line register may keep its line says so (`push_nx_keep`) beside the line
//!   it would load; then the matches are already in `m_r` (its own next value, with the
//!   slot `fr` loads matching), and the bit selects between them and the compares in the
//!   last LUT (the history's place matches likewise shift along `hm_r`);
//! - `cov_line_wait` and `cov_hazard_wait` come from a register per slot, a cycle after the
//!   event (the coverage is counted, not acted on).
//!
//! # Chains (registered push)
//! Each entry carries a *chain key* (`push_key`: the bytes it touches and the loop its
//! operation takes; 0 when it takes none). At the push the key is compared with every slot's
//! (`e_ch`); when an entry's dependence with an equal key issues, the entry waits the chain's
//! window after it ([`OrderingQueue::with_chain_wait`], 1 by default) instead of that entry's
//! own: the unit forwards the producer's result into the
//! consumer's operand inside the ALU's loop, so the consumer does not need the merged line.
//! A dependence with another key (other bytes, another loop, a line-path access) gives its
//! full window, and the count keeps the largest. An entry pushed after its producer issued
//! takes the producer's full window from the history (chains form among waiting entries).
//!
//! Coverage outputs (high in the cycle the event happens; with a registered push,
//! `cov_line_wait` and `cov_hazard_wait` a cycle later): `cov_full` (all entries valid),
//! `cov_overtake` (an entry issues while an older one waits), `cov_line_wait` (an entry waits
//! behind an older one to its line), `cov_hazard_wait` (an entry free of older same-line
//! entries waits for the result of a late entry to its line), `cov_back_to_back` (two
//! ordered pushes to one line in consecutive cycles).

use crate::line_memory::LINE_BITS;
use crate::ecp5::replica_reg::ReplicaReg;
use rust_hdl::prelude::*;

/// Entries in the ordering queue: the queue's one size parameter (all its logic follows this
/// constant; the unit and the tests pass with other depths, e.g. 5).
pub const QUEUE_DEPTH: usize = 8;
/// Width of an entry's opaque payload.
pub const QUEUE_PAYLOAD_BITS: usize = 174;
/// The largest hazard window of the default queue: cycles after the issue of an ordered FP
/// entry in which ordered entries to its line may not issue (the unit's default pipeline
/// forwards an FP op's result from s4, so a dependent request may issue
/// [`crate::alu::ALU_LATENCY`] cycles after it, not while the FP op is in s1 or s2).
pub const QUEUE_HAZARD_CYCLES: usize = 2;
/// The largest hazard window any queue takes (`OrderingQueue::new`): the width of the
/// thermometer counts.
pub const QUEUE_WAIT_MAX: usize = 16;
/// Width of `push_wait`.
pub const QUEUE_WAIT_BITS: usize = 5;
/// Width of `push_key` (the top bit: the entry may chain).
pub const QUEUE_KEY_BITS: usize = 8;
const _: () = assert!(QUEUE_DEPTH >= 2 && QUEUE_DEPTH <= 16, "slot vectors shift by a 4-bit constant");

#[derive(LogicBlock)]
pub struct OrderingQueue {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // Push side.
    pub push_valid: Signal<In, Bit>,
    pub push_ready: Signal<Out, Bit>,
    /// Registered push only: the next cycle's `push_ready` before the reset (the D input of
    /// its register), for a consumer that registers its own copy of the handshake.
    pub push_ready_nx: Signal<Out, Bit>,
    pub push_line: Signal<In, Bits<LINE_BITS>>,
    /// Registered push only: the line `push_line` carries in the next cycle (the D input of
    /// the pusher's line register), so that the line compares start a cycle ahead.
    pub push_line_nx: Signal<In, Bits<LINE_BITS>>,
    /// Registered push only: the pusher keeps its line register next cycle (the next push
    /// line is `push_line` itself, whatever `push_line_nx` says). It selects, in the last
    /// LUT of each slot's match, the matches the queue already holds instead of the compares
    /// with `push_line_nx`: a register, or a register's copy. 0 when unused. The held
    /// matches rely on it in every cycle: with it the push line must stay, without it
    /// `push_line_nx` must be next cycle's push line.
    /// (From power-up, a slot's held match is exact from the first cycle `fr` loads the slot,
    /// before which nothing reads it; the history places' are exact within `hm_r.len()`
    /// cycles, before which their windows are zero.)
    pub push_nx_keep: Signal<In, Bit>,
    pub push_ordered: Signal<In, Bit>,
    /// The entry's hazard window: its new line exists only this many cycles after its issue
    /// (0..=`max_wait`; 0: at once).
    pub push_wait: Signal<In, Bits<QUEUE_WAIT_BITS>>,
    pub push_payload: Signal<In, Bits<QUEUE_PAYLOAD_BITS>>,
    /// Registered push only: the entry's *chain key* (bit [`QUEUE_KEY_BITS`] - 1 set: the
    /// entry may chain; the rest name the bytes and the loop it takes). An entry that waits on
    /// an older entry to its line with an equal chainable key waits only the chain's window
    /// after that one's issue, not that one's window: the consumer takes its operand from the
    /// producer's result in the ALU's loop, not from the line. 0: never chains. A chainable
    /// entry's own window (`push_wait`) must be at least the chain's (the unit's integer
    /// window is).
    pub push_key: Signal<In, Bits<QUEUE_KEY_BITS>>,
    /// The 32-bit words of its line the entry touches (bit w: bytes 4w..4w+3): it depends
    /// on the older entries to its line that touch one of them, and on no other. All ones:
    /// the whole line (hazards per line).
    pub push_words: Signal<In, Bits<4>>,
    // Issue side.
    pub issue_enable: Signal<In, Bit>,
    pub issue_valid: Signal<Out, Bit>,
    pub issue_line: Signal<Out, Bits<LINE_BITS>>,
    pub issue_ordered: Signal<Out, Bit>,
    pub issue_payload: Signal<Out, Bits<QUEUE_PAYLOAD_BITS>>,
    /// The issued entry's `push_words`.
    pub issue_words: Signal<Out, Bits<4>>,
    /// Registered push: the payload of the entry whose issue outputs were shown the cycle
    /// before (`issue_payload` a cycle later), read from its slot, which is still intact, by
    /// replicas of `last2_fs` (one per quarter of the payload): the select loads copies of a
    /// register, and no one register drives the 174-bit AND-OR (the pick → `last_fs` →
    /// payload → the unit's register would be a critical path). Otherwise zero.
    pub issue_payload_late: Signal<Out, Bits<QUEUE_PAYLOAD_BITS>>,
    // Coverage.
    pub cov_full: Signal<Out, Bit>,
    pub cov_overtake: Signal<Out, Bit>,
    pub cov_line_wait: Signal<Out, Bit>,
    pub cov_hazard_wait: Signal<Out, Bit>,
    pub cov_back_to_back: Signal<Out, Bit>,

    // Slots.
    e_valid: [DFF<Bit>; QUEUE_DEPTH],
    e_line: [DFF<Bits<LINE_BITS>>; QUEUE_DEPTH],
    e_ordered: [DFF<Bit>; QUEUE_DEPTH],
    /// Ordered with a window of 1 or more.
    e_late: [DFF<Bit>; QUEUE_DEPTH],
    /// The window less one, as a thermometer code (late entries only; zero for the others).
    e_wt: [DFF<Bits<QUEUE_WAIT_MAX>>; QUEUE_DEPTH],
    /// Registered push: the entries the entry waits on (`e_dep`) whose window is 2 or more
    /// (`e_wt` bit 0). When its last one issues, whether that one was among them says whether
    /// it waits in the next cycle: eligibility reads this, not the issued slot's window.
    e_dw: [DFF<Bits<QUEUE_DEPTH>>; QUEUE_DEPTH],
    /// Registered push: the entry's chain key, and the slots whose key equalled its own
    /// (chainable) at its push: among its dependences (`e_dep`), its chain producers, whose
    /// issue blocks it for a window of 1, not their own.
    e_key: [DFF<Bits<QUEUE_KEY_BITS>>; QUEUE_DEPTH],
    e_ch: [DFF<Bits<QUEUE_DEPTH>>; QUEUE_DEPTH],
    /// The entry's words of its line.
    e_words: [DFF<Bits<4>>; QUEUE_DEPTH],
    /// The pushed words intersect slot j's (bit j).
    p_wm: Signal<Local, Bits<QUEUE_DEPTH>>,
    /// A chain dependent's window less one (thermometer), and whether it is 2 or more.
    ch_wt: Constant<Bits<QUEUE_WAIT_MAX>>,
    ch_wt0: Constant<Bit>,
    mk_words: Signal<Local, Bits<4>>,
    e_payload: [DFF<Bits<QUEUE_PAYLOAD_BITS>>; QUEUE_DEPTH],
    e_elig: [DFF<Bit>; QUEUE_DEPTH],
    /// Remaining hazard cycles (thermometer). (`ReplicaReg`s for their instantiated
    /// flip-flops, whose set/reset input is tied off: the cases that clear the count stay in
    /// the D logic. As a synchronous reset Yosys made of them, the clear reached the
    /// flip-flops' LSR input, 2.7-3.3 ns of routing plus 0.42 ns of setup after three LUT
    /// levels: the unit's slowest path in some placements, 119-128 MHz.)
    e_cnt: [ReplicaReg<Bits<QUEUE_WAIT_MAX>>; QUEUE_DEPTH],
    /// Waiting for a result in this cycle (coverage).
    e_hzc: [DFF<Bit>; QUEUE_DEPTH],
    /// The last cycle's issue (one-hot), and the one before.
    last_fs: DFF<Bits<QUEUE_DEPTH>>,
    last2_fs: DFF<Bits<QUEUE_DEPTH>>,
    /// `last2_fs` again, one replica per quarter of `issue_payload_late`, and the quarters.
    l2_sel: [ReplicaReg<Bits<QUEUE_DEPTH>>; 4],
    pq_mask: [Constant<Bits<QUEUE_PAYLOAD_BITS>>; 4],
    /// Registered push: an entry issued in the last cycle (the late issue outputs).
    last_fire: DFF<Bit>,
    /// The slots the issue outputs read (`sel`, or `last_fs` with a registered push), and
    /// those whose window `i_wt` is (`fs` or `last_fs`); `i_late`: that entry is late.
    o_sel: Signal<Local, Bits<QUEUE_DEPTH>>,
    w_sel: Signal<Local, Bits<QUEUE_DEPTH>>,
    /// The late issue outputs' select masks, and the slots' `ordered` bits as a vector.
    mk_line: Signal<Local, Bits<LINE_BITS>>,
    mk_pay: Signal<Local, Bits<QUEUE_PAYLOAD_BITS>>,
    ord_vec: Signal<Local, Bits<QUEUE_DEPTH>>,
    /// The slots' `e_wt` bit 0 as a vector; an entry's next dependences; whether its last
    /// dependence issued in the last cycle; its count's bit 0 for eligibility.
    wt0_vec: Signal<Local, Bits<QUEUE_DEPTH>>,
    d_next: Signal<Local, Bits<QUEUE_DEPTH>>,
    k_hit: Signal<Local, Bit>,
    k_c0: Signal<Local, Bit>,
    ones_line: Constant<Bits<LINE_BITS>>,
    ones_payload: Constant<Bits<QUEUE_PAYLOAD_BITS>>,
    /// Registered push: the last push's slot (one-hot, zero when none).
    ph_we: DFF<Bits<QUEUE_DEPTH>>,
    /// Registered push: per source of a window the pushed line may wait on (0: the issue of
    /// the cycle before; 1: history place 0, the issue before it; both matched through their
    /// slots), that window as it was at the push if the line matched it, else zero.
    /// Registered already ANDed, so the entries' state a cycle later reads one OR (`ph_or`),
    /// not the matches and the windows.
    ph_w: [DFF<Bits<QUEUE_WAIT_MAX>>; 2],
    /// Registered push: whether the pushed words meet those of `ph_w`'s sources (the issued
    /// entry's words, `issue_words`, and history place 0's). Registered apart from the line
    /// match and ANDed in `ph_or`, so the pushed words reach a register through two LUTs.
    ph_wh: [DFF<Bit>; 2],
    /// Registered push: history places 1.. (whose lines shift in from the place before):
    /// their matches with the push line compared a cycle ahead (`hm_r[k - 1]`: place k), and
    /// the OR of the windows of those that match (`ph_hr`, from `ph_hn`): one register for
    /// them all, so the entries' state reads three registers, not one per place.
    hm_r: Vec<DFF<Bit>>,
    ph_hr: DFF<Bits<QUEUE_WAIT_MAX>>,
    ph_hn: Signal<Local, Bits<QUEUE_WAIT_MAX>>,
    /// The OR of `ph_w` and `ph_hr` (the windows are thermometer codes: their largest); bit
    /// 0: the push waited for a result in its push cycle; `>> 1`: the history's windows to
    /// its line a cycle on, whose bit 0 (`ph_or` bit 1) says it waits in the next cycle.
    ph_or: Signal<Local, Bits<QUEUE_WAIT_MAX>>,
    /// Registered push ([`OrderingQueue::with_registered_push`]).
    rp: Constant<Bit>,
    m_q: Signal<Local, Bits<QUEUE_DEPTH>>,
    /// Registered push: the pushed line's matches with the slots, compared a cycle ahead.
    m_r: DFF<Bits<QUEUE_DEPTH>>,
    m_nx: Signal<Local, Bits<QUEUE_DEPTH>>,
    /// Registered push: whether `push_line_nx` is `push_line` (the line of the slot `fr`
    /// chose).
    p_eq: Signal<Local, Bit>,
    vb_nx: Signal<Local, Bit>,
    /// Registered push: per slot, waits on its line (`c_lw`) or for a result (`c_hw`) this
    /// cycle (the coverage outputs a cycle later).
    c_lw: DFF<Bits<QUEUE_DEPTH>>,
    c_hw: DFF<Bits<QUEUE_DEPTH>>,
    lw_v: Signal<Local, Bits<QUEUE_DEPTH>>,
    hw_v: Signal<Local, Bits<QUEUE_DEPTH>>,
    k_dep: Signal<Local, Bits<QUEUE_DEPTH>>,
    /// The issue applied this cycle is one of the entry's chain producers; the pushed key's
    /// matches with the slots; the entry's next chain producers.
    k_chain: Signal<Local, Bit>,
    p_ch: Signal<Local, Bits<QUEUE_DEPTH>>,
    ch_next: Signal<Local, Bits<QUEUE_DEPTH>>,
    /// The chainable bit of a key.
    key_top: Constant<Bits<3>>,
    k_cnt: Signal<Local, Bits<QUEUE_WAIT_MAX>>,
    k_hz: Signal<Local, Bit>,
    e_dep: [DFF<Bits<QUEUE_DEPTH>>; QUEUE_DEPTH],
    e_older: [DFF<Bits<QUEUE_DEPTH>>; QUEUE_DEPTH],
    // The issue history: the late entries issued 1, 2, .. cycles ago (line, remaining window).
    h_line: Vec<DFF<Bits<LINE_BITS>>>,
    h_t: Vec<DFF<Bits<QUEUE_WAIT_MAX>>>,
    h_words: Vec<DFF<Bits<4>>>,
    // The last push (back-to-back coverage).
    last_ordered: DFF<Bit>,
    last_line: DFF<Bits<LINE_BITS>>,

    // Combinational working signals (bit i of a vector: slot i).
    full: Signal<Local, Bit>,
    en: Signal<Local, Bit>,
    found: Signal<Local, Bit>,
    fire: Signal<Local, Bit>,
    push_fire: Signal<Local, Bit>,
    seen_free: Signal<Local, Bit>,
    /// Registered push: the slot the next push takes (one-hot; zero: none free), chosen a
    /// cycle ahead among the slots free then and not taken by that cycle's push.
    fr: DFF<Bits<QUEUE_DEPTH>>,
    fr_next: Signal<Local, Bits<QUEUE_DEPTH>>,
    /// `fr` is not zero (a register of its own: no OR of its bits before the handshake).
    fr_any: DFF<Bit>,
    fr_any_nx: Signal<Local, Bit>,
    one_d: Constant<Bits<QUEUE_DEPTH>>,
    we: Signal<Local, Bits<QUEUE_DEPTH>>,
    /// The slots whose line and payload load the pushed ones (`we`, or `fr` with a
    /// registered push).
    ld_vec: Signal<Local, Bits<QUEUE_DEPTH>>,
    win: Signal<Local, Bit>,
    sel: Signal<Local, Bits<QUEUE_DEPTH>>,
    fs: Signal<Local, Bits<QUEUE_DEPTH>>,
    i_wt: Signal<Local, Bits<QUEUE_WAIT_MAX>>,
    p_wt: Signal<Local, Bits<QUEUE_WAIT_MAX>>,
    hist: Signal<Local, Bits<QUEUE_WAIT_MAX>>,
    n_wt: Signal<Local, Bits<QUEUE_WAIT_MAX>>,
    k_wt: Signal<Local, Bits<QUEUE_WAIT_MAX>>,
    m: Signal<Local, Bits<QUEUE_DEPTH>>,
    n_dep: Signal<Local, Bits<QUEUE_DEPTH>>,
    n_blk: Signal<Local, Bit>,
    n_hz1: Signal<Local, Bit>,
    k_blk: Signal<Local, Bit>,
    k_hz1: Signal<Local, Bit>,
    oldest: Signal<Local, Bit>,
    old_waits: Signal<Local, Bit>,
    zero_line: Constant<Bits<LINE_BITS>>,
    zero_payload: Constant<Bits<QUEUE_PAYLOAD_BITS>>,
    zero_d: Constant<Bits<QUEUE_DEPTH>>,
    zero_w: Constant<Bits<QUEUE_WAIT_MAX>>,
    zero_words: Constant<Bits<4>>,
    ones_words: Constant<Bits<4>>,
    ones_w: Constant<Bits<QUEUE_WAIT_MAX>>,
    one_w: Constant<Bits<QUEUE_WAIT_BITS>>,
    /// Vectors are built one bit per slot, shifted in at the top (`QUEUE_DEPTH - 1`), slot 0
    /// first (`replace_bit` and shifts by a loop index give Verilog that -Wall rejects).
    top_sh: Constant<Bits<4>>,
    vb: Signal<Local, Bit>,
}

impl Default for OrderingQueue {
    /// The queue of the default unit: windows of up to [`QUEUE_HAZARD_CYCLES`].
    fn default() -> Self {
        OrderingQueue::new(QUEUE_HAZARD_CYCLES)
    }
}

impl OrderingQueue {
    /// A queue whose entries take hazard windows of up to `max_wait` cycles
    /// (1..=[`QUEUE_WAIT_MAX`]).
    pub fn new(max_wait: usize) -> Self {
        Self::with_registered_push(max_wait, false)
    }

    /// A queue for windows of up to `max_wait` cycles whose push, when `registered`, takes
    /// nothing from the cycle's issue or from the pushed request beyond its line: the pushed
    /// entry keeps its raw line and word matches and the history's count, applies the issue of its
    /// push cycle one cycle later, and is never eligible in its first cycle (one more cycle
    /// from push to issue; the push no longer meets the pick in one cycle's logic). Every
    /// entry applies an issue one cycle late (its dependence bit and the issued entry's
    /// window), so no state but the issuing entry's own waits for the pick; for that, every
    /// ordered entry's window is at least 1 (a window of 0 counts as 1).
    pub fn with_registered_push(max_wait: usize, registered: bool) -> Self {
        assert!((1..=QUEUE_WAIT_MAX).contains(&max_wait), "OrderingQueue: max_wait {max_wait} is not in 1..={QUEUE_WAIT_MAX}");
        let hist = (max_wait - 1).max(1);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            push_valid: Default::default(),
            push_ready: Default::default(),
            push_ready_nx: Default::default(),
            push_line: Default::default(),
            push_line_nx: Default::default(),
            push_nx_keep: Default::default(),
            push_ordered: Default::default(),
            push_wait: Default::default(),
            push_payload: Default::default(),
            push_key: Default::default(),
            push_words: Default::default(),
            issue_enable: Default::default(),
            issue_valid: Default::default(),
            issue_line: Default::default(),
            issue_ordered: Default::default(),
            issue_payload: Default::default(),
            issue_words: Default::default(),
            issue_payload_late: Default::default(),
            cov_full: Default::default(),
            cov_overtake: Default::default(),
            cov_line_wait: Default::default(),
            cov_hazard_wait: Default::default(),
            cov_back_to_back: Default::default(),
            e_valid: Default::default(),
            e_line: Default::default(),
            e_ordered: Default::default(),
            e_late: Default::default(),
            e_wt: Default::default(),
            e_dw: Default::default(),
            e_key: Default::default(),
            e_ch: Default::default(),
            e_words: Default::default(),
            p_wm: Default::default(),
            ch_wt: Constant::new(Bits::default()),
            ch_wt0: Constant::new(false),
            mk_words: Default::default(),
            e_payload: Default::default(),
            e_elig: Default::default(),
            e_cnt: Default::default(),
            e_hzc: Default::default(),
            last_fs: Default::default(),
            last2_fs: Default::default(),
            l2_sel: Default::default(),
            pq_mask: std::array::from_fn(|q| {
                let (lo, hi) = (q * QUEUE_PAYLOAD_BITS / 4, (q + 1) * QUEUE_PAYLOAD_BITS / 4);
                Constant::new((Bits::<QUEUE_PAYLOAD_BITS>::mask() >> (QUEUE_PAYLOAD_BITS - (hi - lo)) as u64) << lo as u64)
            }),
            last_fire: Default::default(),
            o_sel: Default::default(),
            w_sel: Default::default(),
            mk_line: Default::default(),
            mk_pay: Default::default(),
            ord_vec: Default::default(),
            wt0_vec: Default::default(),
            d_next: Default::default(),
            k_hit: Default::default(),
            k_c0: Default::default(),
            ones_line: Constant::new(Bits::<LINE_BITS>::mask()),
            ones_payload: Constant::new(Bits::<QUEUE_PAYLOAD_BITS>::mask()),
            ph_we: Default::default(),
            ph_w: Default::default(),
            ph_wh: Default::default(),
            hm_r: (1..hist).map(|_| Default::default()).collect(),
            ph_hr: Default::default(),
            ph_hn: Default::default(),
            ph_or: Default::default(),
            rp: Constant::new(registered),
            m_q: Default::default(),
            m_r: Default::default(),
            m_nx: Default::default(),
            p_eq: Default::default(),
            vb_nx: Default::default(),
            c_lw: Default::default(),
            c_hw: Default::default(),
            lw_v: Default::default(),
            hw_v: Default::default(),
            k_dep: Default::default(),
            k_chain: Default::default(),
            p_ch: Default::default(),
            ch_next: Default::default(),
            key_top: Constant::new(((QUEUE_KEY_BITS - 1) as u64).to_bits()),
            k_cnt: Default::default(),
            k_hz: Default::default(),
            e_dep: Default::default(),
            e_older: Default::default(),
            h_line: (0..hist).map(|_| Default::default()).collect(),
            h_t: (0..hist).map(|_| Default::default()).collect(),
            h_words: (0..hist).map(|_| Default::default()).collect(),
            last_ordered: Default::default(),
            last_line: Default::default(),
            full: Default::default(),
            en: Default::default(),
            found: Default::default(),
            fire: Default::default(),
            push_fire: Default::default(),
            seen_free: Default::default(),
            fr: Default::default(),
            fr_next: Default::default(),
            fr_any: Default::default(),
            fr_any_nx: Default::default(),
            one_d: Constant::new(1u64.to_bits()),
            we: Default::default(),
            ld_vec: Default::default(),
            win: Default::default(),
            sel: Default::default(),
            fs: Default::default(),
            i_wt: Default::default(),
            p_wt: Default::default(),
            hist: Default::default(),
            n_wt: Default::default(),
            k_wt: Default::default(),
            m: Default::default(),
            n_dep: Default::default(),
            n_blk: Default::default(),
            n_hz1: Default::default(),
            k_blk: Default::default(),
            k_hz1: Default::default(),
            oldest: Default::default(),
            old_waits: Default::default(),
            zero_line: Constant::new(Bits::default()),
            zero_payload: Constant::new(Bits::default()),
            zero_d: Constant::new(Bits::default()),
            zero_w: Constant::new(Bits::default()),
            zero_words: Constant::new(Bits::default()),
            ones_words: Constant::new(15u64.to_bits()),
            ones_w: Constant::new(((1u128 << QUEUE_WAIT_MAX) - 1).to_bits()),
            one_w: Constant::new(1u64.to_bits()),
            top_sh: Constant::new(((QUEUE_DEPTH - 1) as u64).to_bits()),
            vb: Default::default(),
        }
    }
}

impl OrderingQueue {
    /// The window of a chain dependent (1..=`max_wait`; 1 when not set): it waits this many
    /// cycles after its chain producer's issue, whatever that one's own window.
    pub fn with_chain_wait(mut self, wait: usize) -> Self {
        assert!((1..=QUEUE_WAIT_MAX).contains(&wait), "OrderingQueue: chain wait {wait} is not in 1..={QUEUE_WAIT_MAX}");
        self.ch_wt = Constant::new(((1u128 << (wait - 1)) - 1).to_bits());
        self.ch_wt0 = Constant::new(wait >= 2);
        self
    }
}

impl Logic for OrderingQueue {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, fr, fr_any, last_ordered, last_line, last_fs, last2_fs, last_fire, ph_we, ph_hr, m_r, c_lw, c_hw);
        for q in 0..4 {
            self.l2_sel[q].clock.next = self.clock.val();
        }
        for k in 0..self.hm_r.len() {
            self.hm_r[k].clock.next = self.clock.val();
        }
        for k in 0..self.h_line.len() {
            self.h_line[k].clock.next = self.clock.val();
            self.h_t[k].clock.next = self.clock.val();
            self.h_words[k].clock.next = self.clock.val();
        }
        for k in 0..self.ph_w.len() {
            self.ph_w[k].clock.next = self.clock.val();
            self.ph_wh[k].clock.next = self.clock.val();
        }
        for i in 0..QUEUE_DEPTH {
            self.e_valid[i].clock.next = self.clock.val();
            self.e_line[i].clock.next = self.clock.val();
            self.e_ordered[i].clock.next = self.clock.val();
            self.e_late[i].clock.next = self.clock.val();
            self.e_payload[i].clock.next = self.clock.val();
            self.e_elig[i].clock.next = self.clock.val();
            self.e_wt[i].clock.next = self.clock.val();
            self.e_dw[i].clock.next = self.clock.val();
            self.e_key[i].clock.next = self.clock.val();
            self.e_ch[i].clock.next = self.clock.val();
            self.e_words[i].clock.next = self.clock.val();
            self.e_cnt[i].clock.next = self.clock.val();
            self.e_hzc[i].clock.next = self.clock.val();
            self.e_dep[i].clock.next = self.clock.val();
            self.e_older[i].clock.next = self.clock.val();
        }

        // ==========================================================================
        // Push side: full, the lowest free slot.
        // ==========================================================================
        self.full.next = true;
        self.seen_free.next = false;
        self.we.next = self.zero_d.val();
        for i in 0..QUEUE_DEPTH {
            if !self.e_valid[i].q.val() {
                self.full.next = false;
            }
        }
        self.push_ready.next = !self.full.val() && !self.reset.val();
        // (Not from `push_ready`: Verilator orders this block's statements in separate groups
        // only when they share no variable, and the unit reads `push_ready`.)
        self.push_fire.next = self.push_valid.val() && !self.full.val() && !self.reset.val();
        for i in 0..QUEUE_DEPTH {
            self.vb.next = !self.e_valid[i].q.val() && !self.seen_free.val() && self.push_fire.val();
            self.we.next = (self.we.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.vb.val().into()) << self.top_sh.val());
            if !self.e_valid[i].q.val() {
                self.seen_free.next = true;
            }
        }
        // Registered push: the push takes the slot chosen in the cycle before (`fr`), so no
        // search of the valid bits stands between them and the slots' write enables. A slot
        // freed by an issue is offered from the cycle after next: `push_ready` may be low for
        // a cycle with one slot free (the price of the registered pipeline).
        // (Its own statement: see `push_fire` above.)
        if self.rp.val() {
            self.push_ready.next = self.fr_any.q.val() && !self.reset.val();
        }
        if self.rp.val() {
            self.push_fire.next = self.push_valid.val() && self.fr_any.q.val() && !self.reset.val();
            self.we.next = self.zero_d.val();
            if self.push_fire.val() {
                self.we.next = self.fr.q.val();
            }
        }
        self.fr_next.next = self.zero_d.val();
        self.seen_free.next = false;
        for i in 0..QUEUE_DEPTH {
            self.vb.next = !self.e_valid[i].q.val() && !self.we.val().get_bit(i) && !self.seen_free.val();
            self.fr_next.next = (self.fr_next.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.vb.val().into()) << self.top_sh.val());
            if !self.e_valid[i].q.val() && !self.we.val().get_bit(i) {
                self.seen_free.next = true;
            }
        }
        self.fr.d.next = self.fr_next.val();
        self.fr_any_nx.next = self.fr_next.val().any();
        if self.reset.val() {
            self.fr.d.next = self.one_d.val();
            self.fr_any_nx.next = true;
        }
        self.fr_any.d.next = self.fr_any_nx.val();
        self.push_ready_nx.next = self.fr_any_nx.val();
        self.cov_back_to_back.next = self.push_fire.val()
            && self.push_ordered.val()
            && self.last_ordered.q.val()
            && (self.last_line.q.val() == self.push_line.val());
        self.last_ordered.d.next = self.push_fire.val() && self.push_ordered.val();
        self.last_line.d.next = self.push_line.val();

        // ==========================================================================
        // Pick: the oldest eligible entry (one-hot `sel`), from registers only.
        // ==========================================================================
        self.en.next = self.issue_enable.val() && !self.reset.val();
        self.found.next = false;
        self.sel.next = self.zero_d.val();
        for i in 0..QUEUE_DEPTH {
            if self.e_elig[i].q.val() {
                self.found.next = true;
            }
            self.win.next = self.e_elig[i].q.val();
            for j in 0..QUEUE_DEPTH {
                if (j != i) && self.e_elig[j].q.val() && self.e_older[j].q.val().get_bit(i) {
                    self.win.next = false;
                }
            }
            self.sel.next = (self.sel.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.win.val().into()) << self.top_sh.val());
        }
        self.fire.next = self.found.val() && self.en.val();
        self.fs.next = self.zero_d.val();
        if self.en.val() {
            self.fs.next = self.sel.val();
        }
        // The issue outputs and the issued entry's window: this cycle's pick (`sel`, `fs`),
        // or with a registered push the last cycle's (`last_fs`, `last_fire`), read from its
        // slot (intact for two cycles after its issue, `fr`), so the pick drives registers
        // only. A one-hot AND-OR of the slots with the select as a mask, not a chain of `if`s
        // (synthesis keeps a chain of multiplexers as one, 7 LUT levels for 8 slots); zero
        // when nothing issues.
        self.last_fire.d.next = self.fire.val();
        self.issue_valid.next = self.fire.val();
        self.o_sel.next = self.sel.val();
        self.w_sel.next = self.fs.val();
        if self.rp.val() {
            self.issue_valid.next = self.last_fire.q.val();
            self.o_sel.next = self.last_fs.q.val();
            self.w_sel.next = self.last_fs.q.val();
        }
        self.ord_vec.next = self.zero_d.val();
        self.wt0_vec.next = self.zero_d.val();
        self.issue_line.next = self.zero_line.val();
        self.issue_payload.next = self.zero_payload.val();
        self.issue_words.next = self.zero_words.val();
        self.i_wt.next = self.zero_w.val();
        for i in 0..QUEUE_DEPTH {
            self.vb.next = self.e_ordered[i].q.val();
            self.ord_vec.next = (self.ord_vec.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.vb.val().into()) << self.top_sh.val());
            self.vb.next = self.e_wt[i].q.val().get_bit(0);
            self.wt0_vec.next = (self.wt0_vec.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.vb.val().into()) << self.top_sh.val());
            self.mk_line.next = self.zero_line.val();
            self.mk_pay.next = self.zero_payload.val();
            self.mk_words.next = self.zero_words.val();
            if self.o_sel.val().get_bit(i) {
                self.mk_line.next = self.ones_line.val();
                self.mk_pay.next = self.ones_payload.val();
                self.mk_words.next = self.ones_words.val();
            }
            self.issue_words.next = self.issue_words.val() | (self.e_words[i].q.val() & self.mk_words.val());
            self.issue_line.next = self.issue_line.val() | (self.e_line[i].q.val() & self.mk_line.val());
            self.issue_payload.next = self.issue_payload.val() | (self.e_payload[i].q.val() & self.mk_pay.val());
            // (`e_wt` is zero unless the entry is late.)
            if self.w_sel.val().get_bit(i) {
                self.i_wt.next = self.i_wt.val() | self.e_wt[i].q.val();
            }
        }
        self.issue_ordered.next = (self.o_sel.val() & self.ord_vec.val()).any();
        // (The late payload: the slot of the issue two cycles back, each quarter by its own
        // replica of `last2_fs`.)
        // (Zero without a registered push.)
        self.issue_payload_late.next = self.zero_payload.val();
        for q in 0..4 {
            self.l2_sel[q].d.next = self.last_fs.q.val();
            if self.rp.val() {
                for i in 0..QUEUE_DEPTH {
                    if self.l2_sel[q].q.val().get_bit(i) {
                        self.issue_payload_late.next =
                            self.issue_payload_late.val() | (self.e_payload[i].q.val() & self.pq_mask[q].val());
                    }
                }
            }
        }
        // The history: this issue's line and window (W - 1 ones left after this cycle), then
        // each place one cycle older with one cycle less. (Registered push: the issue of the
        // cycle before, W - 2 ones; the push compares its line with that issue's slot.)
        self.h_line[0].d.next = self.issue_line.val();
        self.h_words[0].d.next = self.issue_words.val();
        self.h_t[0].d.next = self.i_wt.val();
        if self.rp.val() {
            self.h_t[0].d.next = self.i_wt.val() >> 1;
        }
        for k in 1..self.h_line.len() {
            self.h_line[k].d.next = self.h_line[k - 1].q.val();
            self.h_words[k].d.next = self.h_words[k - 1].q.val();
            self.h_t[k].d.next = self.h_t[k - 1].q.val() >> 1;
        }

        // ==========================================================================
        // The pushed entry's state: line compares with every slot (`m`), its older ordered
        // entries to the line (`n_dep`: not the one issuing now), whether it waits next
        // cycle (`n_blk`: an older entry to its line stays, or a late one issues now), and
        // its hazard bits.
        // ==========================================================================
        self.m.next = self.zero_d.val();
        self.n_dep.next = self.zero_d.val();
        self.n_blk.next = false;
        self.n_hz1.next = false;
        self.n_wt.next = self.zero_w.val();
        for j in 0..QUEUE_DEPTH {
            self.vb.next = self.e_line[j].q.val() == self.push_line.val();
            self.m.next = (self.m.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.vb.val().into()) << self.top_sh.val());
        }
        // (Registered push: the same compares made a cycle ahead, between the lines as they
        // will be. A slot's line changes only where `fr` loads the push line, so next cycle's
        // slot line is `push_line` there and its own line elsewhere. Next cycle's push line
        // is `push_line_nx`, or with `push_nx_keep` `push_line` itself: then nothing is
        // compared, for `m_r` already holds every slot's match with `push_line` (it is its
        // own next value, the slot `fr` loads matching). So the compares are with
        // `push_line_nx` only (`p_eq` for the slot `fr` loads), and `push_nx_keep` selects in
        // the last LUT. Selecting the line before the compares (`push_nx_keep` in a LUT per
        // compared bit, over 200 loads) makes the push compares a frequent critical path of
        // the unit, some from that select bit.)
        // (Their own temporaries: a statement group that reads `push_line_nx` must not share
        // one with the free-slot search, which makes `push_ready_nx`, or Verilator sees a
        // loop through the unit, whose `push_line_nx` and `push_ready_nx` meet in one block.)
        self.p_eq.next = self.push_line.val() == self.push_line_nx.val();
        self.m_nx.next = self.zero_d.val();
        for j in 0..QUEUE_DEPTH {
            self.vb_nx.next = self.e_line[j].q.val() == self.push_line_nx.val();
            if self.fr.q.val().get_bit(j) {
                self.vb_nx.next = self.p_eq.val();
            }
            self.m_nx.next = (self.m_nx.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.vb_nx.val().into()) << self.top_sh.val());
        }
        if self.push_nx_keep.val() {
            self.m_nx.next = self.m_r.q.val() | self.fr.q.val();
        }
        self.m_r.d.next = self.m_nx.val();
        if self.rp.val() {
            self.m.next = self.m_r.q.val();
        }
        // A dependence needs the words to meet too (the line matches above stay pure: the
        // registered push keeps them in `m_r`).
        self.p_wm.next = self.zero_d.val();
        for j in 0..QUEUE_DEPTH {
            self.vb.next = (self.e_words[j].q.val() & self.push_words.val()).any();
            self.p_wm.next = (self.p_wm.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.vb.val().into()) << self.top_sh.val());
        }
        // (Registered push: `m` keeps the raw line matches for the history's windows, whose
        // words are matched apart, `ph_wh`; the pushed entry's dependences take them at once.)
        if !self.rp.val() {
            self.m.next = self.m.val() & self.p_wm.val();
        }
        // The pushed key's matches with the slots' keys (a chainable key only; the line
        // match is the dependence itself).
        self.p_ch.next = self.zero_d.val();
        for j in 0..QUEUE_DEPTH {
            self.vb.next = self.push_key.val().get_bit(self.key_top.val().index()) && (self.e_key[j].q.val() == self.push_key.val());
            self.p_ch.next = (self.p_ch.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.vb.val().into()) << self.top_sh.val());
        }
        self.m_q.next = self.zero_d.val();
        for j in 0..QUEUE_DEPTH {
            self.vb.next = self.m.val().get_bit(j) && self.p_wm.val().get_bit(j) && self.e_valid[j].q.val() && self.e_ordered[j].q.val();
            self.m_q.next = (self.m_q.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.vb.val().into()) << self.top_sh.val());
        }
        for j in 0..QUEUE_DEPTH {
            self.vb.next = self.m.val().get_bit(j)
                && self.e_valid[j].q.val()
                && self.e_ordered[j].q.val()
                && !self.fs.val().get_bit(j);
            self.n_dep.next = (self.n_dep.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.vb.val().into()) << self.top_sh.val());
            if self.m.val().get_bit(j) && self.e_valid[j].q.val() && self.e_ordered[j].q.val() {
                if !self.fs.val().get_bit(j) {
                    self.n_blk.next = true;
                }
                if self.e_late[j].q.val() {
                    self.n_blk.next = true;
                }
                if self.fs.val().get_bit(j) && self.e_late[j].q.val() {
                    self.n_hz1.next = true;
                    self.n_wt.next = self.n_wt.val() | self.e_wt[j].q.val();
                }
            }
        }
        // The windows of the late entries issued in the last cycles to the pushed line.
        self.hist.next = self.zero_w.val();
        // (Registered push: `ph_w[0]` the issue of the cycle before and `ph_w[1]` history
        // place 0 (the issue before it), matched through their slots' compares (`m`: made a
        // cycle ahead; the slot of an issue stays intact for two cycles); `ph_hr` the places
        // after them, through their compares of the cycle before.)
        // (The issued slots are one-hot, so the word match is that of their words alone:
        // `issue_words` is slot `last_fs`'s, history place 0 slot `last2_fs`'s.)
        self.ph_w[0].d.next = self.zero_w.val();
        if (self.m.val() & self.last_fs.q.val()).any() {
            self.ph_w[0].d.next = self.i_wt.val();
        }
        self.ph_w[1].d.next = self.zero_w.val();
        if (self.m.val() & self.last2_fs.q.val()).any() {
            self.ph_w[1].d.next = self.h_t[0].q.val();
        }
        self.ph_wh[0].d.next = (self.issue_words.val() & self.push_words.val()).any();
        self.ph_wh[1].d.next = (self.h_words[0].q.val() & self.push_words.val()).any();
        for k in 0..self.h_line.len() {
            if (self.h_line[k].q.val() == self.push_line.val()) && (self.h_words[k].q.val() & self.push_words.val()).any() {
                self.hist.next = self.hist.val() | self.h_t[k].q.val();
            }
        }
        // Next cycle's place k (this cycle's place k - 1) against next cycle's push line: the
        // one the pusher would load, or with `push_nx_keep` its own, whose match with place
        // k - 1 is already in `hm_r[k - 2]` (place k - 1 was place k - 2 a cycle before),
        // only place 0's compared.
        self.ph_hn.next = self.zero_w.val();
        for k in 0..self.hm_r.len() {
            self.hm_r[k].d.next = self.h_line[k].q.val() == self.push_line_nx.val();
        }
        if self.push_nx_keep.val() {
            // (A loop of at most one: no places to match with a single history place.)
            for k in 0..self.hm_r.len().min(1) {
                self.hm_r[k].d.next = self.h_line[0].q.val() == self.push_line.val();
            }
            for k in 1..self.hm_r.len() {
                self.hm_r[k].d.next = self.hm_r[k - 1].q.val();
            }
        }
        for k in 1..self.h_line.len() {
            if self.hm_r[k - 1].q.val() && (self.h_words[k].q.val() & self.push_words.val()).any() {
                self.ph_hn.next = self.ph_hn.val() | self.h_t[k].q.val();
            }
        }
        self.ph_hr.d.next = self.ph_hn.val();
        // A registered push takes them a cycle later: a window that was at place k then sits
        // in history place k with one cycle less (`>> 1`: the place after the last one would
        // hold at most 1 >> 1 = 0, so nothing is lost).
        self.ph_or.next = self.ph_hr.q.val();
        for k in 0..self.ph_w.len() {
            if self.ph_wh[k].q.val() {
                self.ph_or.next = self.ph_or.val() | self.ph_w[k].q.val();
            }
        }
        self.ph_we.d.next = self.zero_d.val();
        if self.push_ordered.val() {
            self.ph_we.d.next = self.we.val();
        }
        // The pushed entry's own window less one, as a thermometer code.
        self.p_wt.next = self.zero_w.val();
        if self.push_wait.val().any() {
            self.p_wt.next = !(self.ones_w.val() << (self.push_wait.val() - self.one_w.val()));
        }

        // ==========================================================================
        // Next state of every slot (and the line- and hazard-wait coverage).
        // ==========================================================================
        self.lw_v.next = self.zero_d.val();
        self.hw_v.next = self.zero_d.val();
        self.last_fs.d.next = self.fs.val();
        self.last2_fs.d.next = self.last_fs.q.val();
        self.ld_vec.next = self.we.val();
        if self.rp.val() {
            self.ld_vec.next = self.fr.q.val();
        }
        for i in 0..QUEUE_DEPTH {
            // The entry's dependences and count this cycle. With a registered push, an entry in
            // its first cycle holds the raw matches of its push (`e_dep`) and the history's
            // count; the issue of that cycle (`last_fs`, `i_wt`) is applied now.
            self.k_dep.next = self.e_dep[i].q.val();
            self.k_cnt.next = self.e_cnt[i].q.val();
            self.k_hz.next = self.e_hzc[i].q.val();
            // (The entries it waits on are ordered, hence late with a registered push.)
            self.k_hit.next = (self.e_dep[i].q.val() & self.last_fs.q.val()).any();
            self.k_chain.next = (self.e_ch[i].q.val() & self.last_fs.q.val()).any();
            if self.rp.val() {
                self.k_dep.next = self.e_dep[i].q.val() & !self.last_fs.q.val();
                // (A chain producer's issue adds the chain's window, not its own.)
                if self.k_hit.val() {
                    self.k_cnt.next = self.e_cnt[i].q.val() | self.i_wt.val();
                    if self.k_chain.val() {
                        self.k_cnt.next = self.e_cnt[i].q.val() | self.ch_wt.val();
                    }
                    self.k_hz.next = true;
                }
                if self.ph_we.q.val().get_bit(i) {
                    self.k_cnt.next = self.k_cnt.val() | (self.ph_or.val() >> 1);
                    self.k_hz.next = self.k_hz.val() || self.ph_or.val().get_bit(0);
                }
            }
            if self.rp.val() && !self.e_ordered[i].q.val() {
                self.k_dep.next = self.zero_d.val();
                self.k_cnt.next = self.zero_w.val();
                self.k_hz.next = false;
            }
            self.vb.next = self.e_valid[i].q.val() && self.k_dep.val().any();
            self.lw_v.next = (self.lw_v.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.vb.val().into()) << self.top_sh.val());
            self.vb.next = self.e_valid[i].q.val() && !self.k_dep.val().any() && self.k_hz.val();
            self.hw_v.next = (self.hw_v.val() >> 1) | (bit_cast::<QUEUE_DEPTH, 1>(self.vb.val().into()) << self.top_sh.val());
            // An entry that stays: it waits on its line while an older entry to it stays, and
            // for the result while a late one of them has just issued (`k_hz1`).
            self.k_blk.next = false;
            self.k_hz1.next = false;
            self.k_wt.next = self.zero_w.val();
            for j in 0..QUEUE_DEPTH {
                if self.k_dep.val().get_bit(j) && (!self.fs.val().get_bit(j) || self.e_late[j].q.val()) {
                    self.k_blk.next = true;
                }
                if self.k_dep.val().get_bit(j) && self.fs.val().get_bit(j) && self.e_late[j].q.val() {
                    self.k_hz1.next = true;
                    self.k_wt.next = self.k_wt.val() | self.e_wt[j].q.val();
                }
            }
            // A registered push's queue applies an issue to the entries behind it a cycle
            // late (`last_fs` above), so nothing here waits for this cycle's pick: every
            // ordered entry is late (window at least 1), and an entry behind a valid one is
            // blocked whether or not it issues now.
            if self.rp.val() {
                self.k_blk.next = self.k_dep.val().any();
                self.k_hz1.next = false;
                self.k_wt.next = self.zero_w.val();
            }
            self.e_valid[i].d.next = self.e_valid[i].q.val() && !self.fs.val().get_bit(i);
            self.e_line[i].d.next = self.e_line[i].q.val();
            self.e_ordered[i].d.next = self.e_ordered[i].q.val();
            self.e_late[i].d.next = self.e_late[i].q.val();
            self.e_wt[i].d.next = self.e_wt[i].q.val();
            self.e_payload[i].d.next = self.e_payload[i].q.val();
            // The line and payload of a push. With a registered push, the slot chosen for the
            // next push (`fr`) takes them in every cycle, pushed or not: it is free (nothing
            // reads a free slot's line or payload), so their many flip-flops load on a
            // register bit, not on the push handshake.
            if self.ld_vec.val().get_bit(i) {
                self.e_line[i].d.next = self.push_line.val();
                self.e_payload[i].d.next = self.push_payload.val();
            }
            self.d_next.next = self.k_dep.val() & !self.fs.val();
            if self.rp.val() {
                self.d_next.next = self.k_dep.val();
            }
            self.e_cnt[i].d.next = (self.k_cnt.val() >> 1) | self.k_wt.val();
            self.e_hzc[i].d.next = self.k_hz1.val() || self.k_cnt.val().get_bit(0);
            // Whether the entry waits for a result in the next cycle (`k_cnt` bit 0), as
            // eligibility needs it. With a registered push, not from the issued slot's window
            // (`i_wt`, an AND-OR over the slots): an entry that stays blocked on its line is
            // not eligible anyway, and one whose last dependence issued (`k_hit`, none left)
            // waited on that entry alone, whose window bit 0 is in `e_dw`; the history's bit 0
            // comes from the push's registered matches.
            self.k_c0.next = self.k_cnt.val().get_bit(0);
            if self.rp.val() {
                self.k_c0.next = self.e_cnt[i].q.val().get_bit(0)
                    || (self.e_dw[i].q.val() & self.last_fs.q.val()).any()
                    || (self.ph_we.q.val().get_bit(i) && self.ph_or.val().get_bit(1));
            }
            self.e_elig[i].d.next = self.e_valid[i].q.val()
                && !self.fs.val().get_bit(i)
                && !self.k_c0.val()
                && !self.k_blk.val();
            // A push elsewhere makes that entry the youngest: column k of the age matrix.
            self.e_older[i].d.next = self.e_older[i].q.val() | self.we.val();
            if self.we.val().get_bit(i) {
                self.e_valid[i].d.next = true;
                self.e_older[i].d.next = self.zero_d.val();
            }
            // The rest of a pushed entry's state. With a registered push, like its line and
            // payload, loaded into the slot chosen for the next push (`fr`) in every cycle:
            // only the valid bit and the age matrix wait for the push handshake.
            if self.ld_vec.val().get_bit(i) {
                self.e_ordered[i].d.next = self.push_ordered.val();
                self.e_late[i].d.next = self.push_ordered.val() && (self.push_wait.val().any() || self.rp.val());
                self.e_wt[i].d.next = self.zero_w.val();
                if self.push_ordered.val() {
                    self.e_wt[i].d.next = self.p_wt.val();
                }
                self.d_next.next = self.zero_d.val();
                self.e_cnt[i].d.next = self.zero_w.val();
                self.e_hzc[i].d.next = false;
                self.e_elig[i].d.next = true;
                if self.push_ordered.val() {
                    self.d_next.next = self.n_dep.val();
                    self.e_cnt[i].d.next = self.n_wt.val() | (self.hist.val() >> 1);
                    self.e_hzc[i].d.next = self.n_hz1.val() || self.hist.val().get_bit(0);
                    self.e_elig[i].d.next = !self.n_blk.val() && !self.hist.val().get_bit(0);
                }
                // A registered push keeps the raw matches (nothing from this cycle's issue, nor
                // from the pushed request's own decode) and is not eligible in its first cycle.
                if self.rp.val() {
                    self.d_next.next = self.m_q.val();
                    self.e_cnt[i].d.next = self.zero_w.val();
                    self.e_hzc[i].d.next = false;
                    self.e_elig[i].d.next = false;
                }
            }
            self.e_dep[i].d.next = self.d_next.val();
            self.e_key[i].d.next = self.e_key[i].q.val();
            self.ch_next.next = self.e_ch[i].q.val();
            self.e_words[i].d.next = self.e_words[i].q.val();
            if self.ld_vec.val().get_bit(i) {
                self.e_words[i].d.next = self.push_words.val();
                self.e_key[i].d.next = self.push_key.val();
                self.ch_next.next = self.p_ch.val();
            }
            // (`k_chain` is read only when the issued slot is a dependence, `k_hit`, so the raw
            // key matches serve: a bit of a slot reloaded since is never among `e_dep`.)
            self.e_ch[i].d.next = self.ch_next.val();
            // (An unordered entry's raw matches in its first cycle are not dependences. With a
            // chain window of 1, chain producers are not among the windows of 2 or more.)
            self.e_dw[i].d.next = self.zero_d.val();
            if (self.e_ordered[i].q.val() && !self.ld_vec.val().get_bit(i))
                || (self.push_ordered.val() && self.ld_vec.val().get_bit(i))
            {
                self.e_dw[i].d.next = self.d_next.val() & self.wt0_vec.val();
                if !self.ch_wt0.val() {
                    self.e_dw[i].d.next = self.d_next.val() & self.wt0_vec.val() & !self.ch_next.val();
                }
            }
        }
        self.c_lw.d.next = self.lw_v.val();
        self.c_hw.d.next = self.hw_v.val();
        if self.reset.val() {
            for i in 0..QUEUE_DEPTH {
                self.e_valid[i].d.next = false;
                self.e_elig[i].d.next = false;
            }
            for k in 0..self.h_t.len() {
                self.h_t[k].d.next = self.zero_w.val();
            }
        }

        // ==========================================================================
        // Coverage. The oldest valid entry has no older entry to its line: it waits only for
        // a hazard, and an issue while it waits overtakes it.
        // ==========================================================================
        self.old_waits.next = false;
        for i in 0..QUEUE_DEPTH {
            self.oldest.next = self.e_valid[i].q.val();
            for j in 0..QUEUE_DEPTH {
                if (j != i) && self.e_valid[j].q.val() && self.e_older[j].q.val().get_bit(i) {
                    self.oldest.next = false;
                }
            }
            if self.oldest.val() && !self.e_elig[i].q.val() {
                self.old_waits.next = true;
            }
        }
        self.cov_full.next = self.full.val();
        self.cov_overtake.next = self.fire.val() && self.old_waits.val();
        self.cov_line_wait.next = self.lw_v.val().any();
        self.cov_hazard_wait.next = self.hw_v.val().any();
        if self.rp.val() {
            self.cov_line_wait.next = self.c_lw.q.val().any();
            self.cov_hazard_wait.next = self.c_hw.q.val().any();
        }
    }
}
