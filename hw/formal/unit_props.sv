// Formal harness of the unit's flow control (hw::SliceUnit, module `top`). The ALUs and the
// line memory are cut (`cutpoint`: their outputs are free), which only adds behaviours: the
// properties here do not depend on data. Parameters (defines): LIVE_BOUND (cycles within
// which an accepted request is answered while rsp_ready stays high).
// The requester holds a request while req_valid && !req_ready, and addresses the first 32
// bytes. Request id bit 15 marks one accepted request A (chosen by the solver), the others
// have it clear. The unit's response FIFO carries its own assertion (`count$q <= DEPTH`,
// spliced into its module by the test).
// Mutation: MUT_IGNORE_READY (the unit sees rsp_ready always high while
// the harness's consumer may stall: a response leaves unanswered).
module harness(
    input clock,
    input req_valid_in,
    input [11:0] op_in,
    input [4:0] addr_in,
    input [3:0] tag_in,
    input [7:0] mask_in,
    input rsp_ready,
    input pick_a
);
    reg reset = 1;
    always @(posedge clock) reset <= 0;

    // The requester's port registers: a new request only when the last one was taken.
    reg req_valid = 0;
    reg [11:0] req_op = 0;
    reg [31:0] req_addr = 0;
    reg [15:0] req_id = 0;
    reg [7:0] req_mask = 0;
    wire req_ready, rsp_valid;
    wire [15:0] rsp_id;
    wire [127:0] rsp_data;
    wire [1:0] rsp_status;
    wire [19:0] cov;

    reg [5:0] occ = 0;
    reg [1:0] sa = 0;
    reg [7:0] age_a = 0;
    reg rdy_all = 0;
    reg last_stall = 0;
    reg [145:0] last_rsp = 0;

    wire accept = req_valid && req_ready;
    wire mark_a = accept && req_id[15];
    wire answer = rsp_valid && rsp_ready;
    wire answer_a = answer && rsp_id[15];
    // The port register holds the one marked request until it is taken.
    reg marked = 0;
    wire want_a = !marked && pick_a && req_valid_in;
    always @(posedge clock) begin
        if (reset || !req_valid || req_ready) begin
            if (want_a && !reset) marked <= 1;
            req_valid <= req_valid_in && !reset;
            req_op <= op_in;
            req_addr <= {27'd0, addr_in};
            req_id <= {want_a && !reset, 11'd0, tag_in};
            req_mask <= mask_in;
        end
    end

`ifdef MUT_IGNORE_READY
    wire dut_ready = 1'b1;
`else
    wire dut_ready = rsp_ready;
`endif
    top dut(.clock(clock), .reset(reset), .req_valid(req_valid), .req_ready(req_ready),
        .req_op(req_op), .req_addr(req_addr), .req_data(128'd0), .req_id(req_id),
        .req_mask(req_mask), .rsp_valid(rsp_valid), .rsp_ready(dut_ready), .rsp_id(rsp_id),
        .rsp_data(rsp_data), .rsp_status(rsp_status), .cov(cov));

    always @(*) begin
        if (!reset) begin
            // unit_answered: a response only for a request accepted and not yet answered.
            assert(!answer || occ != 0); // @unit_answered
            // unit_rsp_hold: a stalled response stays, unchanged, on the port.
            if (last_stall) assert(rsp_valid && {rsp_id, rsp_data, rsp_status} == last_rsp); // @unit_rsp_hold
            // unit_once: A is answered once, after its acceptance.
            assert(!answer_a || sa == 1); // @unit_once
            // unit_no_loss: A is answered within LIVE_BOUND cycles while rsp_ready is high.
            assert(!(sa == 1 && rdy_all && age_a >= `LIVE_BOUND)); // @unit_no_loss
        end
    end

    always @(posedge clock) begin
        last_stall <= !reset && rsp_valid && !rsp_ready;
        last_rsp <= {rsp_id, rsp_data, rsp_status};
        if (!reset) begin
            occ <= occ + accept - answer;
            if (mark_a) begin sa <= 1; age_a <= 1; rdy_all <= rsp_ready; end
            else if (sa == 1) begin age_a <= age_a + 1; rdy_all <= rdy_all && rsp_ready; end
            if (answer_a) sa <= 2;
        end
    end
endmodule
