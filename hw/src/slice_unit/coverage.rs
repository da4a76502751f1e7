//! The coverage bus `cov`: one bit per event, the names the testbench reports them by, and
//! the block that assembles the bus from the unit's events.

use super::COV_WIDTH;
use crate::config::Config;
use rust_hdl::prelude::*;

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
pub const COV_INT_LOOP: usize = 16;
pub const COV_INT_LOOP1: usize = 17;
pub const COV_FP_LOOP: usize = 18;
pub const COV_FP_LOOP_REG: usize = 19;

/// The coverage points: name and bit of `cov`. A bit is high in each cycle its event happens.
pub const COVERAGE_POINTS: &[(&str, usize)] = &[
    // s1 takes its old line from the request in s2 (`sp_*[0]`, the stage after the compute stage).
    ("forward_s2", COV_FWD_S2),
    // ... from a stage between s2 and the write stage.
    ("forward_s3", COV_FWD_S3),
    // ... from the write stage (its merged line).
    ("forward_s4", COV_FWD_S4),
    // ... from a line written in the last two cycles (`sw_*`).
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
    // An integer result taken as the next integer op's operand from the loop (a chain: the
    // ALU's own loops or the result registers after it).
    ("int_chain_forward", COV_INT_CHAIN),
    // A chained integer op took its operand from the integer ALU's own result in the cycle it
    // was made (the ALU's loop).
    ("int_chain_loop", COV_INT_LOOP),
    // A fast chain's op (add/and/or/xor) took its operand from the integer ALU's result one
    // cycle behind its producer (the low half from segment 1, the high half from segment 2).
    ("int_chain_loop1", COV_INT_LOOP1),
    // A chained FP op took its old value from its unit's own lanes in the cycle the producer's
    // result was made (the FP loop).
    ("fp_chain_loop", COV_FP_LOOP),
    // ... from the ALU's result registers, a cycle or two after it was made.
    ("fp_chain_reg", COV_FP_LOOP_REG),
];

/// The coverage points the unit built with `cfg` can hit: all of them, but `int_chain_loop`
/// with a one-stage integer ALU (there the only chain one cycle behind its producer is a fast
/// one, `loop_1`; the others issue two or three cycles behind and take `y_r` or `y_rr`).
pub fn coverage_points(cfg: &Config) -> impl Iterator<Item = &'static (&'static str, usize)> {
    let int_loop = cfg.int_alu_latency() >= 2;
    COVERAGE_POINTS.iter().filter(move |&&(_, b)| int_loop || b != COV_INT_LOOP)
}

// `CoverageBus` assembles `cov` with these bit numbers written out (hdl code cannot name a
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
        && COV_INT_LOOP == 16
        && COV_INT_LOOP1 == 17
        && COV_FP_LOOP == 18
        && COV_FP_LOOP_REG == 19
        && COV_FP_LOOP_REG < COV_WIDTH
);

/// The coverage bus: the unit's events, one input each, as `cov` a cycle later (registered, so
/// the bus leaves the queue's pick off the port).
#[derive(LogicBlock)]
pub(super) struct CoverageBus {
    pub clock: Signal<In, Clock>,
    pub fwd_s2: Signal<In, Bit>,
    pub fwd_s3: Signal<In, Bit>,
    pub fwd_s4: Signal<In, Bit>,
    pub fwd_s5: Signal<In, Bit>,
    pub queue_full: Signal<In, Bit>,
    pub overtake: Signal<In, Bit>,
    pub back_to_back_line: Signal<In, Bit>,
    pub line_wait: Signal<In, Bit>,
    pub fp_hazard_wait: Signal<In, Bit>,
    pub fp_chain: Signal<In, Bit>,
    pub rsp_misaligned: Signal<In, Bit>,
    pub rsp_out_of_range: Signal<In, Bit>,
    pub rsp_stall: Signal<In, Bit>,
    pub credit_stall: Signal<In, Bit>,
    pub reset_in_flight: Signal<In, Bit>,
    pub int_chain: Signal<In, Bit>,
    pub int_loop: Signal<In, Bit>,
    pub int_loop1: Signal<In, Bit>,
    pub fp_loop: Signal<In, Bit>,
    pub fp_loop_reg: Signal<In, Bit>,
    pub cov: Signal<Out, Bits<COV_WIDTH>>,
    cov_bits: Signal<Local, Bits<COV_WIDTH>>,
    cov_r: DFF<Bits<COV_WIDTH>>,
    zero_cov: Constant<Bits<COV_WIDTH>>,
}

impl CoverageBus {
    pub(super) fn new() -> Self {
        Self {
            clock: Default::default(),
            fwd_s2: Default::default(),
            fwd_s3: Default::default(),
            fwd_s4: Default::default(),
            fwd_s5: Default::default(),
            queue_full: Default::default(),
            overtake: Default::default(),
            back_to_back_line: Default::default(),
            line_wait: Default::default(),
            fp_hazard_wait: Default::default(),
            fp_chain: Default::default(),
            rsp_misaligned: Default::default(),
            rsp_out_of_range: Default::default(),
            rsp_stall: Default::default(),
            credit_stall: Default::default(),
            reset_in_flight: Default::default(),
            int_chain: Default::default(),
            int_loop: Default::default(),
            int_loop1: Default::default(),
            fp_loop: Default::default(),
            fp_loop_reg: Default::default(),
            cov: Default::default(),
            cov_bits: Default::default(),
            cov_r: Default::default(),
            zero_cov: crate::k::<COV_WIDTH>(0),
        }
    }
}

impl Logic for CoverageBus {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, cov_r);
        // Bit n is event COVERAGE_POINTS[..] with bit n (see the COV_ constants).
        self.cov_bits.next = self.zero_cov.val()
            | (bit_cast::<COV_WIDTH, 1>(self.fwd_s2.val().into()) << 0)
            | (bit_cast::<COV_WIDTH, 1>(self.fwd_s3.val().into()) << 1)
            | (bit_cast::<COV_WIDTH, 1>(self.fwd_s4.val().into()) << 2)
            | (bit_cast::<COV_WIDTH, 1>(self.fwd_s5.val().into()) << 3)
            | (bit_cast::<COV_WIDTH, 1>(self.queue_full.val().into()) << 4)
            | (bit_cast::<COV_WIDTH, 1>(self.overtake.val().into()) << 5)
            | (bit_cast::<COV_WIDTH, 1>(self.back_to_back_line.val().into()) << 6)
            | (bit_cast::<COV_WIDTH, 1>(self.line_wait.val().into()) << 7)
            | (bit_cast::<COV_WIDTH, 1>(self.fp_hazard_wait.val().into()) << 8)
            | (bit_cast::<COV_WIDTH, 1>(self.fp_chain.val().into()) << 9)
            | (bit_cast::<COV_WIDTH, 1>(self.rsp_misaligned.val().into()) << 10)
            | (bit_cast::<COV_WIDTH, 1>(self.rsp_out_of_range.val().into()) << 11)
            | (bit_cast::<COV_WIDTH, 1>(self.rsp_stall.val().into()) << 12)
            | (bit_cast::<COV_WIDTH, 1>(self.credit_stall.val().into()) << 13)
            | (bit_cast::<COV_WIDTH, 1>(self.reset_in_flight.val().into()) << 14)
            | (bit_cast::<COV_WIDTH, 1>(self.int_chain.val().into()) << 15)
            | (bit_cast::<COV_WIDTH, 1>(self.int_loop.val().into()) << 16)
            | (bit_cast::<COV_WIDTH, 1>(self.int_loop1.val().into()) << 17)
            | (bit_cast::<COV_WIDTH, 1>(self.fp_loop.val().into()) << 18)
            | (bit_cast::<COV_WIDTH, 1>(self.fp_loop_reg.val().into()) << 19);
        self.cov_r.d.next = self.cov_bits.val();
        self.cov.next = self.cov_r.q.val();
    }
}
