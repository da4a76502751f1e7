// Formal harness of the ordering queue (hw::ordering_queue::OrderingQueue, module `top`).
// Parameters (defines): DEPTH (slots), WMAX (largest push_wait), LBITS (line bits used),
// REGISTERED (the registered push, whose chain keys shorten a dependent's window to
// CHAIN_WAIT, default 1, or CHAIN_WAIT_LONG for a key with the long bit, and whose
// fast-equal keys let it issue in any cycle after its producer's),
// LIVE_BOUND (cycles within which a pushed entry issues while issue_enable stays high).
// The payload carries two ghost marks: bit 0 marks one pushed entry A (chosen by the
// solver), bit 1 one later ordered entry B to A's line and one of its words. Every entry could be A or B, so a
// property proven for them holds for all entries.
// With REGISTERED three properties more are checked: of the issue outputs, which follow the
// pick by a cycle (`issue_enable`, in its registered form), of the late payload (`late`) and
// of push_ready_nx (`ready_nx`).
// Mutations (each checked to fail): MUT_DROP_PUSH (the push marked A does not reach the
// queue: an entry is lost, so the queue takes a ninth), MUT_OTHER_LINE (B may be to another
// line, which may overtake A: the order check must see it), MUT_READY (push_ready seen low
// in arbitrary cycles: a queue that refuses pushes while not full), MUT_NO_FAST (the order
// check takes fast-equal keys as chain-equal ones: a fast chain's dependent issues sooner, and
// the check must see it). SKIP_OCC, SKIP_MARK and
// SKIP_LIVE leave out a group of assertions (the counted ones, the marked ones, the bounded
// response and its ranking), so that a mutation check fails on the group it aims at.
// Each property's assertions carry its name as `@name` on the assertion's line. INV adds the
// invariants the k-induction needs (queue_inv.svh, or queue_inv_reg.svh with REGISTERED),
// over the queue's registers read through probes the test connects.
`include "queue_key.svh"
module harness(
    input clock,
    input push_valid,
    input [27:0] line_nx,
    input keep,
    input push_ordered,
    input [4:0] push_wait,
    input [`KB-1:0] key_nx,
    input [3:0] words_nx,
    input issue_enable,
    input pick_a,
    input pick_b,
    input refuse
);
    reg reset = 1;
    always @(posedge clock) reset <= 0;

    // The pusher's line, key and words registers: `push_line_nx`, `push_key_nx` and
    // `push_words_nx` are next cycle's unless `keep` holds them (the contract of a registered
    // push; the plain queue reads the registers only). Lines range over 2^`LBITS values (the
    // queue compares lines only for equality).
    wire [27:0] nx = {{(28 - `LBITS){1'b0}}, line_nx[`LBITS-1:0]};
    reg [27:0] push_line = 0;
    reg [`KB-1:0] push_key = 0;
    reg [3:0] push_words = 0;
    always @(posedge clock) if (!keep) begin
        push_line <= nx;
        push_key <= key_nx;
        push_words <= words_nx;
    end

    wire dut_ready, push_ready_nx, issue_valid, issue_ordered;
    wire [27:0] issue_line;
    wire [173:0] issue_payload, issue_payload_late;
    wire c0, c1, c2, c3, c4;

    // Ghost state: entries in the queue (pushes less visible issues), A's and B's progress
    // (0: not pushed, 1: in the queue, 2: issued), A's line and window, cycles since A's
    // issue and since its push, whether issue_enable stayed high since its push.
    reg [5:0] occ = 0;
    reg [1:0] sa = 0, sb = 0;
    reg [27:0] la = 0;
    reg [4:0] wa = 0;
    reg [`KB-1:0] ka = 0;
    reg [3:0] wda = 0;
    reg oa = 0;
    reg [7:0] since_a = 0, age_a = 0;
    reg en_all = 0;

`ifdef MUT_READY
    wire push_ready = dut_ready && !refuse;
`else
    wire push_ready = dut_ready;
`endif
    wire push_fire = push_valid && push_ready;
    wire mark_a = push_fire && sa == 0 && pick_a;
`ifdef MUT_OTHER_LINE
    wire same_line = 1'b1;
`else
    wire same_line = push_line == la && (push_words & wda) != 0;
`endif
    wire mark_b = push_fire && sa == 1 && sb == 0 && pick_b && push_ordered && oa && same_line;
    reg chain_b = 0, fast_b = 0;
`ifdef MUT_NO_FAST
    wire fast_ok = 1'b0;
`else
    wire fast_ok = fast_b;
`endif
`ifdef REGISTERED
    wire key_eq = push_key[`KCH] && (push_key & `KMASK) == (ka & `KMASK);
    wire key_fast = push_key[`KCH] && push_key[`KFA] && push_key == ka;
`else
    wire key_eq = 1'b0;
    wire key_fast = 1'b0;
`endif
// A window or count: a thermometer code (bits from 0 up) below WMAX; and its bits set.
function therm_ok(input [15:0] t);
    therm_ok = ((t & (t + 16'd1)) == 0) && (t >> (`WMAX - 1)) == 0;
endfunction
function [5:0] ones(input [15:0] t);
    integer q;
    begin
        ones = 0;
        for (q = 0; q < 16; q = q + 1) ones = ones + t[q];
    end
endfunction
`ifdef MUT_DROP_PUSH
    wire dut_push = push_valid && !mark_a;
`else
    wire dut_push = push_valid;
`endif

    top dut(.clock(clock), .reset(reset), .push_valid(dut_push), .push_ready(dut_ready),
        .push_ready_nx(push_ready_nx), .push_line(push_line), .push_line_nx(nx),
        .push_nx_keep(keep), .push_ordered(push_ordered), .push_wait(push_wait),
        .push_key(push_key), .push_key_nx(key_nx), .push_words(push_words),
        .push_words_nx(words_nx),
        .push_payload({172'd0, mark_b, mark_a}), .issue_enable(issue_enable),
        .issue_valid(issue_valid), .issue_line(issue_line), .issue_ordered(issue_ordered),
        .issue_payload(issue_payload), .issue_payload_late(issue_payload_late),
        .cov_full(c0), .cov_overtake(c1), .cov_line_wait(c2), .cov_hazard_wait(c3),
        .cov_back_to_back(c4));

    // The enable, issue, payload and push_ready_nx of the cycle before (the registered
    // queue's issue outputs follow its pick by a cycle, its late payload by two).
    reg last_en = 0, last_iss = 0, last_ready_nx = 0;
    reg [173:0] last_pay = 0;
    always @(posedge clock) begin
        last_ready_nx <= push_ready_nx;
        last_en <= issue_enable && !reset;
        last_iss <= issue_valid && !reset;
        last_pay <= issue_payload;
    end

    wire iss_a = issue_valid && issue_payload[0];
    wire iss_b = issue_valid && issue_payload[1];

    always @(*) begin
        // issue_enable: an issue only while issue_enable is high, never in reset; the
        // registered queue's issue outputs show a cycle after its pick, so there: only a
        // cycle after one with issue_enable high, out of reset (the unit's flow-control
        // proofs assume this of the queue they cut).
`ifndef REGISTERED
        assert(!issue_valid || (issue_enable && !reset)); // @issue_enable
`else
        assert(!issue_valid || last_en); // @issue_enable
        // late: a cycle after an issue, the late payload is the issued entry's (its slot is
        // still intact; the unit's si stage takes the payload from there).
        assert(!last_iss || issue_payload_late == last_pay); // @late
        // ready_nx: push_ready is low in reset and after it the push_ready_nx of the cycle
        // before (the unit's accept stage loads its push register a cycle ahead from it).
        assert(reset ? !dut_ready : dut_ready == last_ready_nx); // @ready_nx
`endif
        assume(push_wait <= `WMAX);
        // The push contract of the key (queue_key.svh; the unit's accept stage proves it).
        assume(key_ok(push_key, push_wait, push_words));
        if (!reset) begin
`ifndef SKIP_OCC
            // issue_valid: only an entry that is in the queue issues.
            assert(!issue_valid || occ != 0); // @issue_valid
            // capacity: never more entries than slots.
            assert(occ <= `DEPTH); // @capacity
            // push_ready: low only when every slot holds an entry.
            assert(push_ready || occ == `DEPTH); // @push_ready
`endif
`ifndef SKIP_MARK
            // once: a marked entry issues only while it is in the queue (no duplicate, no
            // issue of an entry never pushed), with the line and flag it was pushed with.
            assert(!iss_a || (sa == 1 && issue_line == la && issue_ordered == oa)); // @once
            assert(!iss_b || sb == 1); // @once
            // order: B (ordered, same line, pushed after A) issues after A, and more than A's
            // window later (more than CHAIN_WAIT cycles when B chains behind A: chain-equal
            // keys; a cycle or more when the keys are fast-equal).
            assert(!iss_b || (sa == 2 && since_a > (fast_ok ? 5'd0 : chain_b ? cwait(ka) : wa))); // @order
            // no_loss: A issues within LIVE_BOUND cycles of its push while issue_enable is high.
`ifndef SKIP_LIVE
            assert(!(sa == 1 && en_all && age_a >= `LIVE_BOUND)); // @no_loss
`endif
`endif
        end
    end

`ifdef INV
`ifdef REGISTERED
`include "queue_inv_reg.svh"
`else
`include "queue_inv.svh"
`endif
`endif

    always @(posedge clock) begin
        if (!reset) begin
            occ <= occ + push_fire - issue_valid;
            if (mark_a) begin
                sa <= 1; la <= push_line; wa <= push_wait; oa <= push_ordered; ka <= push_key; wda <= push_words;
                age_a <= 1; en_all <= issue_enable;
            end else if (sa == 1) begin
                age_a <= age_a + 1; en_all <= en_all && issue_enable;
            end
            if (iss_a) begin sa <= 2; since_a <= 1; end
            else if (sa == 2 && since_a != 8'hff) since_a <= since_a + 1;
            if (mark_b) begin sb <= 1; chain_b <= key_eq; fast_b <= key_fast; end
            if (iss_b) sb <= 2;
        end
    end
endmodule
