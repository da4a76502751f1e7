// The invariants the k-induction of the ordering queue needs (included in queue_props.sv
// with INV): the queue's registers, read through the `p_*` probes (the test connects them to
// the flattened design's registers), tied to the harness's ghost state. Without them the
// induction fails from unreachable states (a cycle in the age matrix, a second slot marked
// A, an eligible entry with a dependence left, ...).
// The default queue (push and issue in one cycle; REGISTERED not set).
    (* keep *) wire [`DEPTH-1:0] p_valid, p_ordered, p_late, p_elig, p_hzc, p_fb, p_pay0, p_pay1;
    (* keep *) wire [15:0] p_ht;
    (* keep *) wire [`DEPTH*`DEPTH-1:0] p_older, p_dep;
    (* keep *) wire [16*`DEPTH-1:0] p_cnt, p_wt;
    (* keep *) wire [28*`DEPTH-1:0] p_line;
    (* keep *) wire [4*`DEPTH-1:0] p_words;

    integer i, j, l, k;
    reg [5:0] n_valid;
    reg [3:0] n_a, n_b;
    always @(*) begin
        // In the reset cycle: the power-up state.
        if (reset) assert(occ == 0 && sa == 0 && sb == 0 && p_valid == 0 && p_elig == 0); // @inv_reset
        assert(sa != 3 && sb != 3 && (sb == 0 || (sa != 0 && oa)) && (sa == 0 || wa <= `WMAX)); // @inv_mark
        n_valid = 0;
        n_a = 0;
        n_b = 0;
        for (i = 0; i < `DEPTH; i = i + 1) begin
            n_valid = n_valid + p_valid[i];
            n_a = n_a + (p_valid[i] && p_pay0[i]);
            n_b = n_b + (p_valid[i] && p_pay1[i]);
            // Eligible: valid, no dependence left, not waiting for a result this cycle.
            assert(p_elig[i] == (p_valid[i] && p_dep[`DEPTH*i +: `DEPTH] == 0 && !p_hzc[i])); // @inv_elig
            if (p_valid[i] && p_pay0[i]) begin
                // A: in the queue, with the line, flag and window it was pushed with.
                assert(sa == 1 && p_line[28*i +: 28] == la && p_ordered[i] == oa && p_words[4*i +: 4] == wda); // @inv_mark
                assert(p_late[i] == (oa && wa != 0)); // @inv_mark
                for (k = 0; k < 16; k = k + 1) if (oa && k + 1 < wa) assert(p_wt[16*i + k]); // @inv_mark
            end
            if (p_valid[i] && p_pay1[i]) assert(sb == 1); // @inv_mark
            // The age matrix: a strict total order on the valid slots.
            for (j = 0; j < `DEPTH; j = j + 1) begin
                if (p_valid[i] && p_valid[j] && i != j) assert(p_older[`DEPTH*i + j] != p_older[`DEPTH*j + i]); // @inv_age
                // B waits on A while A is in the queue, and A is older.
                if (p_valid[i] && p_pay0[i] && p_valid[j] && p_pay1[j]) assert(p_dep[`DEPTH*j + i] && p_older[`DEPTH*i + j]); // @inv_order
                for (l = 0; l < `DEPTH; l = l + 1)
                    if (p_valid[i] && p_valid[j] && p_valid[l] && p_older[`DEPTH*i + j] && p_older[`DEPTH*j + l]) assert(p_older[`DEPTH*i + l]); // @inv_age
            end
            // After A's issue B waits for A's result: waiting this cycle, and its count holds
            // the cycles left.
            if (p_valid[i] && p_pay1[i] && sa == 2 && since_a <= wa) begin
                assert(p_hzc[i]); // @inv_order
                for (k = 0; k < 16; k = k + 1) if (k + since_a < wa) assert(p_cnt[16*i + k]); // @inv_order
            end
        end
        assert(occ == n_valid); // @inv_count
        assert(n_a == (sa == 1) && n_b == (sb == 1)); // @inv_mark
    end

`ifndef SKIP_LIVE
    // The bounded response's ranking (no_loss). The pick takes the oldest eligible entry,
    // and the oldest entry in the queue depends on none, so it issues once its count runs
    // out: in r cycles (its count's bits set, plus one; 0 when it does not wait). After
    // it the next oldest waits at most WMAX cycles. So while issue_enable stays high, A
    // issues within (WMAX + 1) cycles per entry older than it plus the oldest's r, and
    // age_a plus that stays below LIVE_BOUND.
    integer n_old, r_x, s_a;
    reg older_v;
    always @(*) begin
        s_a = 0;
        for (i = 0; i < `DEPTH; i = i + 1) if (p_valid[i] && p_pay0[i]) s_a = i;
        n_old = 0;
        r_x = 0;
        for (i = 0; i < `DEPTH; i = i + 1) begin
            if (p_valid[i] && i != s_a && p_older[`DEPTH*i + s_a]) n_old = n_old + 1;
            older_v = 0;
            for (j = 0; j < `DEPTH; j = j + 1) if (p_valid[j] && j != i && p_older[`DEPTH*j + i]) older_v = 1;
            if (p_valid[i] && !older_v && p_hzc[i]) r_x = 1 + ones(p_cnt[16*i +: 16]);
            // Dependences only on valid older entries; windows and counts thermometer codes
            // below the largest window.
            for (j = 0; j < `DEPTH; j = j + 1)
                if (p_valid[i] && p_dep[`DEPTH*i + j]) assert(p_valid[j] && p_older[`DEPTH*j + i]); // @inv_live
            if (p_valid[i]) assert(therm_ok(p_wt[16*i +: 16]) && therm_ok(p_cnt[16*i +: 16])); // @inv_live
            if (p_valid[i] && p_cnt[16*i]) assert(p_hzc[i]); // @inv_live
            // No entry waits on itself or for a fast predecessor (a registered push's).
            assert(!p_dep[`DEPTH*i + i] && !p_fb[i]); // @inv_live
        end
        // The issue history's window (the pushed entries' counts take it).
        assert(therm_ok(p_ht)); // @inv_live
        if (!reset && sa == 1 && en_all) assert(age_a + (`WMAX + 1) * n_old + r_x < `LIVE_BOUND); // @inv_live
    end
`endif
