// Formal harness of the unit's flow control from issue to response (hw::SliceUnit, module
// `top`), for k-induction. The ordering queue is cut (`cutpoint`: its outputs are free) and
// constrained only by what its own proof guarantees (queue_props.sv, `issue_enable`: an
// issue only a cycle after one with issue_enable high, out of reset, and `late`: a cycle
// after an issue, the late payload is the issued entry's, since the queue's push is
// registered and its issue leaves a cycle after its pick); the ALUs and the line
// memory are cut too. So every issue pattern the queue may produce is covered, and requests
// are tracked from their issue: the queue's proof covers push to issue.
// Parameters (defines): DEPTH (the response FIFO's places), CMAX (the credit limit: DEPTH - 1,
// for the count sees an issue a cycle after its pick), LAT
// (cycles from issue to the response's push into the FIFO: the pipeline's stages), ID_FROM
// (the first stage that carries the id; those before carry their valid bit only),
// LIVE_BOUND (cycles within which an issued request is answered while rsp_ready stays high),
// RSP_READY (rsp_ready always high: a shorter LIVE_BOUND holds, for a mutation check).
// The issue the solver picks (A) carries id bit 15, no other issue does.
// Each property's assertions carry its name as `@name`; the `inv_*` ones are the induction's
// invariants over the pipeline's valid bits and ids, the credit count and the FIFO's state,
// read through the `p_*` probes. NO_INV leaves them out (mutation checks), SKIP_ANSWERED
// leaves out unit_answered (for the duplicate-response mutation, which breaks it first),
// SKIP_ONCE unit_once (for the overflow mutation, whose check cuts the FIFO's data).
module harness(
    input clock,
    input rsp_ready,
    input pick_a
);
    localparam W = 146;
    localparam PB = $clog2(`DEPTH);
`include "reset.svh"

    // The cut queue's issue handshake and the issued id's bit 15 (in the late payload a cycle
    // after the issue).
    (* keep *) wire p_issue, p_issue_en, p_issue_id15;
    // The pipeline's valid bits and ids' bit 15: place j holds the request issued j + 1
    // cycles ago; the last one pushes the response. The id's bit of the places before
    // ID_FROM - 1 is unused.
    (* keep *) wire [`LAT-1:0] p_v, p_id;
    (* keep *) wire [5:0] p_credits;
    (* keep *) wire p_cr_full;
    // The response FIFO's registers.
    (* keep *) wire [W-1:0] p_head;
    (* keep *) wire p_head_v, p_stored, p_reset_r;
    (* keep *) wire [4:0] p_wr, p_rd;
    (* keep *) wire [5:0] p_count;
    (* keep *) wire [W*`DEPTH-1:0] p_mem;

    wire req_ready, rsp_valid;
    wire [15:0] rsp_id;
    wire [127:0] rsp_data;
    wire [1:0] rsp_status;
    wire [19:0] cov;
    top dut(.clock(clock), .reset(reset), .req_valid(1'b0), .req_ready(req_ready),
        .req_op(12'd0), .req_addr(32'd0), .req_data(128'd0), .req_id(16'd0),
        .req_mask(8'd0), .rsp_valid(rsp_valid), .rsp_ready(rsp_ready), .rsp_id(rsp_id),
        .rsp_data(rsp_data), .rsp_status(rsp_status), .cov(cov));

    // Ghost state: requests issued and not answered, A's progress (0: not issued, 1: issued,
    // 2: answered), cycles since its issue, its place in the FIFO (0: the head) once pushed,
    // whether rsp_ready stayed high since its issue.
    reg [6:0] occ = 0;
    reg [1:0] sa = 0;
    reg [7:0] age_a = 0;
    reg [6:0] pos_a = 0;
    reg rdy_all = 0;
    reg last_stall = 0;
    reg [W-1:0] last_rsp = 0;
    // The enable, issue and mark of the cycle before (the registered queue's guarantees).
    reg last_en = 0, last_iss = 0, last_mark = 0, last_cr_full = 0;

    wire mark_a = p_issue && sa == 0 && pick_a;
    wire answer = rsp_valid && rsp_ready;
    wire answer_a = answer && rsp_id[15];
    wire normal = !reset && !after_reset;
    wire fifo_pop = answer;
    wire fifo_push = p_v[`LAT-1];
    wire [6:0] fifo_occ = p_head_v + p_count;

    integer j;
    reg [PB-1:0] slot_rel;
    reg [6:0] slot_pos;
    reg [6:0] n_sp;
    always @(*) begin
        // The queue's guarantees, and the mark.
        assume(!p_issue || last_en);
        assume(!last_iss || p_issue_id15 == last_mark);
`ifdef RSP_READY
        // (A requester that never stalls the responses: the FIFO never backs up.)
        assume(rsp_ready);
`endif
        if (!reset) begin
            // unit_answered: a response only for an issued request not yet answered.
`ifndef SKIP_ANSWERED
            assert(!answer || occ != 0); // @unit_answered
`endif
            // unit_rsp_hold: a stalled response stays, unchanged, on the port.
            if (last_stall) assert(rsp_valid && {rsp_id, rsp_data, rsp_status} == last_rsp); // @unit_rsp_hold
            // unit_once: A is answered once, after its issue.
`ifndef SKIP_ONCE
            assert(!answer_a || sa == 1); // @unit_once
`endif
            // unit_no_loss: A is answered within LIVE_BOUND cycles of its issue while
            // rsp_ready stays high.
            assert(!(sa == 1 && rdy_all && age_a >= `LIVE_BOUND)); // @unit_no_loss
            // unit_fifo_no_overflow: the FIFO never holds more than its places.
            assert(fifo_occ <= `DEPTH && !(fifo_push && fifo_occ == `DEPTH && !(rsp_valid && rsp_ready))); // @unit_fifo_no_overflow
        end
`ifndef NO_INV
        n_sp = 0;
        for (j = 0; j < `LAT; j = j + 1) n_sp = n_sp + p_v[j];
        assert(p_reset_r == after_reset && sa != 3); // @inv_reset
        if (!normal) assert(occ == 0 && sa == 0 && !last_stall && !p_head_v && p_count == 0 && !p_stored && p_wr == 0 && p_rd == 0 && p_credits == 0 && !p_cr_full && p_v == 0 && !last_en); // @inv_reset
        if (normal) begin
            // Credits: one per request between issue and response handshake; one more may
            // issue after the count reached its limit (its pick saw it below).
            assert(occ == p_credits && p_cr_full == (p_credits >= `CMAX)); // @inv_credit
            assert(occ + last_en <= `DEPTH && last_en == !last_cr_full); // @inv_credit
            assert(occ == n_sp + fifo_occ); // @inv_credit
            // The FIFO (as in fifo_props.sv).
            assert(p_count < `DEPTH && p_stored == (p_count != 0) && p_head_v == (fifo_occ != 0)); // @inv_fifo
            assert(p_wr < `DEPTH && p_rd < `DEPTH && ((p_wr - p_rd) & (`DEPTH - 1)) == p_count); // @inv_fifo
            // A: in place age_a - 1 of the pipeline, then at place pos_a in the FIFO.
            for (j = 0; j < `LAT; j = j + 1) begin
                if (j + 1 >= `ID_FROM) assert((p_v[j] && p_id[j]) == (sa == 1 && age_a == j + 1)); // @inv_mark
                if (sa == 1 && age_a == j + 1) assert(p_v[j]); // @inv_mark
            end
            assert(sa != 1 || age_a != 0); // @inv_mark
            assert(sa != 1 || age_a <= `LAT || pos_a < fifo_occ); // @inv_mark
            assert(!p_head_v || p_head[15] == (sa == 1 && age_a > `LAT && pos_a == 0)); // @inv_mark
            for (j = 0; j < `DEPTH; j = j + 1) begin
                slot_rel = j - p_rd;
                slot_pos = slot_rel + 1;
                if (slot_rel < p_count) assert(p_mem[W*j + 15] == (sa == 1 && age_a > `LAT && pos_a == slot_pos)); // @inv_mark
            end
            // While rsp_ready stays high, A moves a place ahead in every cycle once pushed.
            assert(!(sa == 1 && rdy_all && age_a > `LAT) || pos_a + age_a <= `LAT + `DEPTH - 1); // @inv_live
        end
`endif
    end

    always @(posedge clock) begin
        last_stall <= !reset && rsp_valid && !rsp_ready;
        last_rsp <= {rsp_id, rsp_data, rsp_status};
        last_en <= p_issue_en && !reset;
        last_iss <= p_issue && !reset;
        last_mark <= mark_a;
        last_cr_full <= p_cr_full;
        if (!reset) begin
            occ <= occ + p_issue - answer;
            if (mark_a) begin sa <= 1; age_a <= 1; rdy_all <= rsp_ready; end
            else if (sa == 1) begin
                if (age_a != 8'hff) age_a <= age_a + 1;
                rdy_all <= rdy_all && rsp_ready;
            end
            // A's place in the FIFO: pushed behind the responses there, one ahead per pop.
            if (sa == 1) pos_a <= (age_a == `LAT ? fifo_occ : pos_a) - fifo_pop;
            if (answer_a) sa <= 2;
        end
    end
endmodule
