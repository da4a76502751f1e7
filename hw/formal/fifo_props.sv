// Formal harness of the response FIFO (hw::response_fifo::ResponseFifo, module `top`).
// Parameters (defines): DEPTH (places), LIVE_BOUND (cycles within which a pushed response
// leaves while out_ready stays high).
// The producer keeps the unit's count: it pushes only while fewer than DEPTH responses are
// in the FIFO, and not in the reset cycle or the one after it (cycle 0 is the reset).
// Entries carry 4 free data bits and two ghost marks: bit 0 marks one pushed entry A (chosen
// by the solver), bit 1 a later entry B; every entry could be A or B.
// Mutations (checked to fail): MUT_OVERFILL (the producer may push two more than DEPTH: the head holds one),
// MUT_NO_HOLD (the harness changes the entry it checks while the port stalls, standing for a
// payload that does not hold).
module harness(
    input clock,
    input push,
    input [3:0] data,
    input out_ready,
    input pick_a,
    input pick_b
);
    reg reset = 1;
    reg after_reset = 0;
    always @(posedge clock) begin
        reset <= 0;
        after_reset <= reset;
    end

    reg [6:0] occ = 0;
    reg [1:0] sa = 0, sb = 0;
    reg [7:0] age_a = 0;
    reg rdy_all = 0;
    reg last_stall = 0;
    reg [145:0] last_entry = 0;

    wire out_valid;
    wire [145:0] out_entry;
    wire mark_a = push && sa == 0 && pick_a;
    wire mark_b = push && sa == 1 && sb == 0 && pick_b;
    top dut(.clock(clock), .reset(reset), .push(push),
        .push_entry({140'd0, data, mark_b, mark_a}), .out_valid(out_valid),
        .out_ready(out_ready), .out_entry(out_entry));

    wire pop = out_valid && out_ready;
    wire pop_a = pop && out_entry[0];
    wire pop_b = pop && out_entry[1];
`ifdef MUT_NO_HOLD
    wire [145:0] seen = out_entry ^ 146'd4;
`else
    wire [145:0] seen = out_entry;
`endif

    always @(*) begin
        if (reset || after_reset) assume(!push);
`ifdef MUT_OVERFILL
        assume(!push || occ <= `DEPTH + 1);
`else
        assume(!push || occ < `DEPTH);
`endif
        if (!reset) begin
            // fifo_valid: out_valid only with a response in the FIFO.
            assert(!out_valid || occ != 0);
            // fifo_hold: a stalled response stays, unchanged, on the port.
            if (last_stall) assert(out_valid && seen == last_entry);
            // fifo_once: a marked response leaves once, and only after its push.
            assert(!pop_a || sa == 1);
            assert(!pop_b || sb == 1);
            // fifo_order: B (pushed after A) leaves after A.
            assert(!pop_b || sa == 2);
            // fifo_no_loss: A leaves within LIVE_BOUND cycles while out_ready stays high.
            assert(!(sa == 1 && rdy_all && age_a >= `LIVE_BOUND));
        end
    end

    always @(posedge clock) begin
        last_stall <= !reset && out_valid && !out_ready;
        last_entry <= out_entry;
        if (!reset) begin
            occ <= occ + push - pop;
            if (mark_a) begin sa <= 1; age_a <= 1; rdy_all <= out_ready; end
            else if (sa == 1) begin age_a <= age_a + 1; rdy_all <= rdy_all && out_ready; end
            if (pop_a) sa <= 2;
            if (mark_b) sb <= 1;
            if (pop_b) sb <= 2;
        end
    end
endmodule
