//! The coverage bus `cov`: one bit per event, and the names the testbench reports them by.

use super::COV_WIDTH;

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
