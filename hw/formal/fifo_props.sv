// Formal harness of the response FIFO (hw::response_fifo::ResponseFifo, module `top`).
// Parameters (defines): DEPTH (places), LIVE_BOUND (cycles within which a pushed response
// leaves while out_ready stays high).
// The producer keeps the unit's count: it pushes only while fewer than DEPTH responses are
// in the FIFO, and not in the reset cycle or the one after it (cycle 0 is the reset).
// Entries carry 4 free data bits and two ghost marks: bit 0 marks one pushed entry A (chosen
// by the solver), bit 1 a later entry B; every entry could be A or B.
// Each property's assertions carry its name as `@name` on the assertion's line (the test
// reads the names of the failing ones from the solver's log). The `inv_*` assertions are the
// invariants the k-induction needs: they tie the FIFO's own state (read through the `p_*`
// probes, which the test connects to the flattened design's registers) to the ghost state.
// NO_INV leaves the invariants out: the mutation checks (bounded, from reset) then fail on
// the properties alone; NO_ORDER leaves out fifo_order (for the stuck-response mutation, where a
// later response overtakes the stuck one before the bound runs out). Mutation of the environment (checked to fail): MUT_OVERFILL (the
// producer may push two more than DEPTH: the head holds one). The design's mutations are
// edits of its Verilog (in the test).
module harness(
    input clock,
    input push,
    input [3:0] data,
    input out_ready,
    input pick_a,
    input pick_b
);
    localparam W = 146;
    localparam PB = $clog2(`DEPTH);
`include "reset.svh"

    // Probes: the FIFO's registers (driven by the test's `connect` commands).
    (* keep *) wire [W-1:0] p_head;
    (* keep *) wire p_head_v, p_stored, p_reset_r;
    (* keep *) wire [4:0] p_wr, p_rd;
    (* keep *) wire [5:0] p_count;
    (* keep *) wire [W*`DEPTH-1:0] p_mem;

    // Ghost state: responses in the FIFO (head included), A's and B's progress (0: not
    // pushed, 1: in the FIFO, 2: out) and places from the head (0: the head), A's age
    // (cycles since its push) and whether out_ready stayed high since its push.
    reg [6:0] occ = 0;
    reg [1:0] sa = 0, sb = 0;
    reg [6:0] pos_a = 0, pos_b = 0;
    reg [7:0] age_a = 0;
    reg rdy_all = 0;
    reg last_stall = 0;
    reg [W-1:0] last_entry = 0;

    wire out_valid;
    wire [W-1:0] out_entry;
    wire mark_a = push && sa == 0 && pick_a;
    wire mark_b = push && sa == 1 && sb == 0 && pick_b;
    top dut(.clock(clock), .reset(reset), .push(push),
        .push_entry({140'd0, data, mark_b, mark_a}), .out_valid(out_valid),
        .out_ready(out_ready), .out_entry(out_entry));

    wire pop = out_valid && out_ready;
    wire pop_a = pop && out_entry[0];
    wire pop_b = pop && out_entry[1];
    wire normal = !reset && !after_reset;

    integer j;
    reg [PB-1:0] slot_rel;
    reg [6:0] slot_pos;
    always @(*) begin
        if (reset || after_reset) assume(!push);
`ifdef MUT_OVERFILL
        assume(!push || occ <= `DEPTH + 1);
`else
        assume(!push || occ < `DEPTH);
`endif
        if (!reset) begin
            assert(!out_valid || occ != 0); // @fifo_valid: out_valid only with a response in the FIFO.
            if (last_stall) assert(out_valid && out_entry == last_entry); // @fifo_hold: a stalled response stays, unchanged, on the port.
            // fifo_once: a marked response leaves once, and only after its push.
            assert(!pop_a || sa == 1); // @fifo_once
            assert(!pop_b || sb == 1); // @fifo_once
`ifndef NO_ORDER
            assert(!pop_b || sa == 2); // @fifo_order: B (pushed after A) leaves after A.
`endif
            // fifo_no_loss: A leaves within LIVE_BOUND cycles while out_ready stays high.
            assert(!(sa == 1 && rdy_all && age_a >= `LIVE_BOUND)); // @fifo_no_loss
        end
`ifndef NO_INV
        // Invariants. In the reset cycle and the one after it everything is empty.
        assert(p_reset_r == after_reset && sa != 3 && sb != 3); // @inv_reset
        if (!normal) assert(occ == 0 && sa == 0 && sb == 0 && !last_stall && !p_head_v && p_count == 0 && !p_stored && p_wr == 0 && p_rd == 0); // @inv_reset
        if (normal) begin
            // The counts: the head holds the oldest response, the RAM the others, between
            // the pointers.
            assert(occ == p_head_v + p_count && p_count < `DEPTH && p_stored == (p_count != 0)); // @inv_count
            assert(p_head_v == (occ != 0)); // @inv_count
            assert(p_wr < `DEPTH && p_rd < `DEPTH && ((p_wr - p_rd) & (`DEPTH - 1)) == p_count); // @inv_ptr
            // The marks: A is the one marked response in the FIFO while sa == 1, at place
            // pos_a; likewise B; A is ahead of B.
            assert(sa != 1 || pos_a < occ); // @inv_mark
            assert(sb != 1 || pos_b < occ); // @inv_mark
            assert(sb == 0 || sa != 0); // @inv_mark
            assert(!(sa == 1 && sb == 1) || pos_a < pos_b); // @inv_mark
            assert(!p_head_v || p_head[0] == (sa == 1 && pos_a == 0)); // @inv_mark
            assert(!p_head_v || p_head[1] == (sb == 1 && pos_b == 0)); // @inv_mark
            for (j = 0; j < `DEPTH; j = j + 1) begin
                slot_rel = j - p_rd;
                slot_pos = slot_rel + 1;
                if (slot_rel < p_count) begin
                    assert(p_mem[W*j] == (sa == 1 && pos_a == slot_pos)); // @inv_mark
                    assert(p_mem[W*j+1] == (sb == 1 && pos_b == slot_pos)); // @inv_mark
                end
            end
            // While out_ready stays high, A moves a place ahead in every cycle.
            assert(!(sa == 1 && rdy_all) || pos_a + age_a <= `DEPTH - 1); // @inv_live
        end
`endif
    end

    always @(posedge clock) begin
        last_stall <= !reset && out_valid && !out_ready;
        last_entry <= out_entry;
        if (!reset) begin
            occ <= occ + push - pop;
            if (mark_a) begin sa <= 1; age_a <= 1; rdy_all <= out_ready; end
            else if (sa == 1) begin age_a <= age_a + 1; rdy_all <= rdy_all && out_ready; end
            if (mark_a || sa == 1) pos_a <= (mark_a ? occ : pos_a) - pop;
            if (pop_a) sa <= 2;
            if (mark_b) sb <= 1;
            if (mark_b || sb == 1) pos_b <= (mark_b ? occ : pos_b) - pop;
            if (pop_b) sb <= 2;
        end
    end
endmodule
