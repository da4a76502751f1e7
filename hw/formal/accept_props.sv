// Formal harness of the unit's accept stage (hw::SliceUnit, module `top`), for k-induction:
// the port's request registered in `ad_*`, then decoded into `ac_*`, which pushes into the
// ordering queue. Everything but the accept block is cut (`cutpoint`: outputs free), the
// ordering queue among them, constrained only by what its own proof guarantees
// (queue_props.sv, `ready_nx`: push_ready low in reset and after it the push_ready_nx of the
// cycle before). Requests are
// tracked from the port to the queue's push; the queue's proof covers push to issue, the
// unit's flow proof issue to response.
// The requester keeps its request on the port while req_valid && !req_ready. Request id bit
// 15 marks one request A, bit 14 one request B presented after A (both chosen by the
// solver); the others have both clear.
// Parameters (defines): KB, CHAIN_WAIT, CHAIN_WAIT_LONG (the chain key, queue_key.svh), WMAX
// (the largest window the queue takes), LIVE_BOUND (cycles from A's acceptance by which it
// is pushed while push_ready stays high).
// Each property's assertions carry its name as `@name`; the `inv_*` ones are the induction's
// invariants over the accept block's registers, read through the `p_*` probes. NO_INV leaves
// them out (mutation checks). Mutation of the environment (checked to fail): MUT_B_FIRST (B
// may be presented before A, so it may be pushed first: the order check must see it).
`include "queue_key.svh"
module harness(
    input clock,
    input req_valid_in,
    input [11:0] op_in,
    input [31:0] addr_in,
    input [13:0] tag_in,
    input [7:0] mask_in,
    input pick_a,
    input pick_b
);
`include "reset.svh"

    // The accept block's registers: ad's and ac's valid bits and marks, their load enables
    // (ac_ld_q: ac_ld's replica).
    (* keep *) wire p_ad_v, p_ac_v, p_ad_ld, p_ac_ld, p_ac_ld_q;
    (* keep *) wire p_ad_a, p_ad_b, p_ac_a, p_ac_b;
    // The cut queue's push_ready and push_ready_nx, and the push (the block's outputs to
    // the queue).
    (* keep *) wire push_ready, push_ready_nx, push_valid, push_nx_keep;
    (* keep *) wire [27:0] push_line, push_line_nx;
    (* keep *) wire [`KB-1:0] push_key, push_key_nx;
    (* keep *) wire [3:0] push_words, push_words_nx;
    (* keep *) wire [4:0] push_wait;
    // ad's window, key and words (ac takes them).
    (* keep *) wire [4:0] p_ad_wait;
    (* keep *) wire [`KB-1:0] p_ad_key;
    (* keep *) wire [3:0] p_ad_words;
    (* keep *) wire [1:0] push_id; // the pushed id's bits 15 and 14

    // The requester's port registers: a new request only when the last one was taken.
    reg req_valid = 0;
    reg [11:0] req_op = 0;
    reg [31:0] req_addr = 0;
    reg [15:0] req_id = 0;
    reg [7:0] req_mask = 0;
    reg marked_a = 0, marked_b = 0;
    wire load = reset || !req_valid || req_ready;
    wire want_a = !marked_a && pick_a && req_valid_in && !reset;
`ifdef MUT_B_FIRST
    wire want_b = !want_a && !marked_b && pick_b && req_valid_in && !reset;
`else
    wire want_b = marked_a && !marked_b && pick_b && req_valid_in && !reset;
`endif
    always @(posedge clock) if (load) begin
        if (want_a) marked_a <= 1;
        if (want_b) marked_b <= 1;
        req_valid <= req_valid_in && !reset;
        req_op <= op_in;
        req_addr <= addr_in;
        req_id <= {want_a, want_b, tag_in};
        req_mask <= mask_in;
    end

    wire req_ready;
    top dut(.clock(clock), .reset(reset), .req_valid(req_valid), .req_ready(req_ready),
        .req_op(req_op), .req_addr(req_addr), .req_data(128'd0), .req_id(req_id),
        .req_mask(req_mask), .rsp_ready(1'b1));

    // Ghost state: requests accepted and not pushed; A's and B's progress (0: not accepted,
    // 1: accepted, 2: pushed); cycles since A's acceptance; whether push_ready stayed high
    // since; the push_ready_nx and push fields of the cycle before.
    reg [2:0] occ = 0;
    reg [1:0] sa = 0, sb = 0;
    reg [7:0] age_a = 0;
    reg rdy_all = 0;
    reg last_ready_nx = 0, last_keep = 0;
    reg [27:0] last_line = 0, last_line_nx = 0;
    reg [`KB-1:0] last_key = 0, last_key_nx = 0;
    reg [3:0] last_words = 0, last_words_nx = 0;

    wire accept = req_valid && req_ready;
    wire push = push_valid && push_ready;
    wire push_a = push && push_id[1];
    wire push_b = push && push_id[0];
    // The requests the stage holds at most; the accepted ones not yet pushed.
    localparam CAP = 2;
    wire [2:0] held = occ;
    // A and B among the held requests.
    wire [1:0] n_a = (p_ad_v && p_ad_a) + (p_ac_v && p_ac_a);
    wire [1:0] n_b = (p_ad_v && p_ad_b) + (p_ac_v && p_ac_b);

    always @(*) begin
        // The queue's guarantee.
        assume(reset ? !push_ready : push_ready == last_ready_nx);
        if (!reset) begin
            // acc_valid: a push only with an accepted request not yet pushed.
            assert(!push || held != 0); // @acc_valid
            // acc_ready: req_ready low exactly when the stage holds all it can (ad and ac
            // both a request) and the queue refuses the push: no request overwritten, none
            // refused with room.
            assert(req_ready == (occ < CAP || push_ready)); // @acc_ready
            // acc_once: A pushed once, not before its acceptance.
            assert(!push_a || sa == 1); // @acc_once
            // acc_order: B (accepted after A) pushed after A.
            assert(!push_b || (sb == 1 && sa == 2)); // @acc_order
            // acc_no_loss: A pushed within LIVE_BOUND cycles of its acceptance while
            // push_ready stays high.
            assert(!(sa == 1 && rdy_all && age_a >= `LIVE_BOUND)); // @acc_no_loss
        end
        // acc_key: the pushed window and key keep the queue's push contract (queue_key.svh;
        // queue_props.sv assumes it in every cycle).
        assert(push_wait <= `WMAX && key_ok(push_key, push_wait, push_words)); // @acc_key
        if (!reset && !after_reset) begin
            // acc_nx: the registered push's contract (queue_props.sv assumes it): the pushed
            // line, key and words are the last cycle's next ones unless keep held them.
            assert(push_line == (last_keep ? last_line : last_line_nx)); // @acc_nx
            assert(push_key == (last_keep ? last_key : last_key_nx)); // @acc_nx
            assert(push_words == (last_keep ? last_words : last_words_nx)); // @acc_nx
        end
`ifndef NO_INV
        // The port: the marked request waits there until accepted.
        assert(!(marked_a && sa == 0) || (req_valid && req_id[15])); // @inv_port
        assert(!req_id[15] || (marked_a && sa == 0)); // @inv_port
        assert(!(marked_b && sb == 0) || (req_valid && req_id[14])); // @inv_port
        assert(!req_id[14] || (marked_b && sb == 0)); // @inv_port
        assert(!marked_b || marked_a); // @inv_port
        assert(sa != 3 && sb != 3 && (sa == 0 || marked_a) && (sb == 0 || marked_b) && !(req_id[15] && req_id[14])); // @inv_port
        assert(p_ad_wait <= `WMAX && key_ok(p_ad_key, p_ad_wait, p_ad_words)); // @inv_key
        if (reset) assert(occ == 0 && sa == 0 && sb == 0 && !p_ad_v && !p_ac_v); // @inv_reset
        if (!reset) begin
            // ad and ac hold the accepted requests, A ahead of B; the load enables are
            // those of the registers' current state.
            assert(occ == p_ad_v + p_ac_v); // @inv_held
            assert(p_ad_ld == (!p_ad_v || !p_ac_v || push_ready) && p_ac_ld == (!p_ac_v || push_ready) && p_ac_ld_q == p_ac_ld); // @inv_held
            assert(n_a == (sa == 1) && n_b == (sb == 1)); // @inv_mark
            assert(!(p_ad_v && p_ad_a && p_ad_b) && !(p_ac_v && p_ac_a && p_ac_b)); // @inv_mark
            assert(!(sb == 1 && sa == 0) && !(p_ac_v && p_ac_b && p_ad_v && p_ad_a)); // @inv_mark
            // While push_ready stays high A is in ad for a cycle, then pushed from ac.
            if (sa == 1) assert(age_a != 0 && (!rdy_all || (age_a == 1 ? (p_ad_v && p_ad_a) : (age_a == 2 && p_ac_v && p_ac_a)))); // @inv_live
        end
`endif
    end

    always @(posedge clock) begin
        last_ready_nx <= push_ready_nx;
        last_keep <= push_nx_keep;
        last_line <= push_line;
        last_line_nx <= push_line_nx;
        last_key <= push_key;
        last_key_nx <= push_key_nx;
        last_words <= push_words;
        last_words_nx <= push_words_nx;
        if (!reset) begin
            occ <= occ + accept - push;
            if (accept && req_id[15]) begin sa <= 1; age_a <= 1; rdy_all <= 1; end
            else if (sa == 1) begin
                if (age_a != 8'hff) age_a <= age_a + 1;
                rdy_all <= rdy_all && push_ready;
            end
            if (push_a) sa <= 2;
            if (accept && req_id[14]) sb <= 1;
            if (push_b) sb <= 2;
        end
    end
endmodule
