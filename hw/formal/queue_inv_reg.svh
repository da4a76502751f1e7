// The invariants the k-induction of the registered queue needs (included in queue_props.sv
// with INV and REGISTERED; see queue_inv.svh for the default queue). The registered queue
// issues a cycle after the pick (`last_fs`, `last_fire`: the slot, invalid since the pick,
// stays intact), pushes into the slot `fr` chosen a cycle before, keeps a pushed entry's raw
// matches for its first cycle (not eligible then), and applies an issue to the entries
// behind it a cycle late (their dependence bit, and the issued entry's window or the
// chain's into their count). An entry pushed in the cycle after its producer's pick takes
// the producer's window from the history's newest place (`ph_w[0]`, `ph_wh[0]`). A
// dependence with a fast-equal key is a fast predecessor instead; entries to one line with
// fast-equal keys form a chain in age order, each waiting for the next older one (`e_lp`,
// the youngest at its push: `e_tl` marks each chain's youngest) while `e_fb` is set, which
// the pick never takes and which is set while that one is valid.
    (* keep *) wire [`DEPTH-1:0] p_valid, p_ordered, p_elig, p_hzc, p_pay0, p_pay1, p_fb, p_tl, p_hw, p_hc, p_lc;
    (* keep *) wire [`DEPTH-1:0] p_last_fs, p_fr, p_m_r, p_w_r, p_pc_r, p_pf_r, p_ph_we;
    (* keep *) wire p_last_fire, p_fr_any, p_ph_wh0;
    // The payload RAM's write and read addresses (`fr` and `last_fs` in binary).
    (* keep *) wire [4:0] p_fr_bin, p_last_bin;
    (* keep *) wire [15:0] p_ph_w0, p_iwr;
    (* keep *) wire [`DEPTH*`DEPTH-1:0] p_older, p_dep, p_dw, p_ch, p_lp;
    (* keep *) wire [16*`DEPTH-1:0] p_cnt, p_wt;
    (* keep *) wire [28*`DEPTH-1:0] p_line;
    (* keep *) wire [4*`DEPTH-1:0] p_words;
    (* keep *) wire [`KB*`DEPTH-1:0] p_key;

    // The slot pushed in the cycle before (its first cycle now).
    reg [`DEPTH-1:0] g_we = 0;
    always @(posedge clock) g_we <= (!reset && push_fire) ? p_fr : 0;

    // A's and B's window as the order check takes it.
    wire [4:0] eff = fast_b ? 5'd0 : chain_b ? cwait(ka) : wa;
    wire [`DEPTH-1:0] held = p_valid | p_last_fs;
    wire [`DEPTH-1:0] wt0;
    genvar g;
    generate for (g = 0; g < `DEPTH; g = g + 1) begin : w0
        assign wt0[g] = p_wt[16*g];
    end endgenerate
    // The count as it stands: the window of the issue an entry applied in the last cycle
    // (the issued entry's, `p_iwr`, or the chain's) joins the register a cycle late.
    wire [16*`DEPTH-1:0] cnt;
    generate for (g = 0; g < `DEPTH; g = g + 1) begin : ce
        wire [15:0] chain_wt = (16'd1 << (cwait(p_key[`KB*g +: `KB]) - 1)) - 16'd1;
        assign cnt[16*g +: 16] = p_cnt[16*g +: 16] | (((p_hw[g] ? p_iwr : 16'd0) | (p_hc[g] ? chain_wt : 16'd0)) >> 1);
    end endgenerate

    // Valid ordered entries i, j to one line with fast-equal keys (a chain).
`define CHAIN2(i, j) (p_valid[i] && p_valid[j] && p_ordered[i] && p_ordered[j] && p_key[`KB*(i) + `KCH] && p_key[`KB*(i) + `KFA] \
        && p_key[`KB*(i) +: `KB] == p_key[`KB*(j) +: `KB] && p_line[28*(i) +: 28] == p_line[28*(j) +: 28])

    integer i, j, l, k;
    reg younger;
    reg [5:0] n_valid;
    reg [3:0] n_a, n_b, n_lf, n_fr;
    reg [4:0] b_fr, b_lf;
    always @(*) begin
        if (reset) assert(occ == 0 && sa == 0 && sb == 0 && p_valid == 0 && p_elig == 0 && p_last_fs == 0 && !p_last_fire && g_we == 0); // @inv_reset
        assert(sa != 3 && sb != 3 && (sb == 0 || (sa != 0 && oa)) && (sa == 0 || wa <= `WMAX)); // @inv_mark
        assert(sa != 2 || since_a != 0); // @inv_mark
        assert(!oa || !ka[`KCH] || wa >= cwait(ka)); // @inv_mark
        assert(!fast_b || chain_b); // @inv_mark
        // Each slot's long-chain bit is its key's (both loaded by the push into the slot).
        for (i = 0; i < `DEPTH; i = i + 1) assert(p_lc[i] == p_key[`KB*i + `KLO]); // @inv_dep
        assert(sb == 0 || !fast_b || (ka[`KCH] && ka[`KFA])); // @inv_mark
        n_valid = 0; n_a = 0; n_b = 0; n_lf = 0; n_fr = 0; b_fr = 0; b_lf = 0;
        for (i = 0; i < `DEPTH; i = i + 1) begin
            if (p_fr[i]) b_fr = b_fr | i;
            if (p_last_fs[i]) b_lf = b_lf | i;
            n_valid = n_valid + p_valid[i];
            n_lf = n_lf + p_last_fs[i];
            n_fr = n_fr + p_fr[i];
            n_a = n_a + (held[i] && p_pay0[i]);
            n_b = n_b + (held[i] && p_pay1[i]);
            // Eligible: valid, past its first cycle, no dependence left, not waiting for a
            // result this cycle.
            assert(p_elig[i] == (p_valid[i] && !g_we[i] && p_dep[`DEPTH*i +: `DEPTH] == 0 && !p_hzc[i])); // @inv_elig
            // At most one last fast predecessor; while it is valid the entry waits for it.
            assert((p_lp[`DEPTH*i +: `DEPTH] & (p_lp[`DEPTH*i +: `DEPTH] - 1)) == 0); // @inv_dep
            if (p_valid[i] && (p_lp[`DEPTH*i +: `DEPTH] & p_valid) != 0) assert(p_fb[i]); // @inv_dep
            // A fast key's words are its key's (the push contract).
            if (p_valid[i] && p_ordered[i] && p_key[`KB*i + `KCH] && p_key[`KB*i + `KFA]) assert(p_words[4*i +: 4] == key_words(p_key[`KB*i +: `KB])); // @inv_dep
            if (p_valid[i]) begin
                // Dependences: on held slots only; the windows of 2 or more among them
                // (the chain producers' left out when the chain's window is 1); an unordered
                // entry has none past its first cycle, nor a count.
                assert((p_dep[`DEPTH*i +: `DEPTH] & ~(held & p_ordered)) == 0); // @inv_dep
                // The last fast predecessor: held (valid, or picked in the last cycle), ordered.
                assert((p_lp[`DEPTH*i +: `DEPTH] & ~(held & p_ordered)) == 0); // @inv_dep
                if (p_ordered[i]) assert(p_dw[`DEPTH*i +: `DEPTH] == (p_dep[`DEPTH*i +: `DEPTH] & wt0 & (cwait(p_key[`KB*i +: `KB]) >= 2 ? {`DEPTH{1'b1}} : ~p_ch[`DEPTH*i +: `DEPTH]))); // @inv_dep
                else assert(p_dw[`DEPTH*i +: `DEPTH] == 0 && cnt[16*i +: 16] == 0 && !p_hzc[i] && !p_hw[i] && !p_hc[i] && (g_we[i] || p_dep[`DEPTH*i +: `DEPTH] == 0) && p_lp[`DEPTH*i +: `DEPTH] == 0); // @inv_dep
                assert(p_ph_we[i] == (g_we[i] && p_ordered[i])); // @inv_dep
                // A pushed entry applied no issue in the last cycle.
                if (g_we[i]) assert(!p_hw[i] && !p_hc[i]); // @inv_dep
            end
            if (held[i]) begin
                // The pushed line's registered matches are exact for the held slots.
                assert(p_m_r[i] == (p_line[28*i +: 28] == push_line)); // @inv_match
                // So are the pushed words' and key's (chain-equal: all bits but the fast one).
                assert(p_w_r[i] == ((p_words[4*i +: 4] & push_words) != 0)); // @inv_match
                assert(p_pc_r[i] == (push_key[`KCH] && (p_key[`KB*i +: `KB] & `KMASK) == (push_key & `KMASK))); // @inv_match
                assert(p_pf_r[i] == (push_key[`KCH] && push_key[`KFA] && p_key[`KB*i +: `KB] == push_key)); // @inv_match
                // A chainable entry's window is at least the chain's.
                if (cwait(p_key[`KB*i +: `KB]) >= 2 && p_ordered[i] && p_key[`KB*i + `KCH]) assert(wt0[i]); // @inv_dep
            end
            if (held[i] && p_pay0[i]) begin
                // A: with the line, flag, words, key and window it was pushed with.
                assert(sa == 1 && p_line[28*i +: 28] == la && p_ordered[i] == oa && p_words[4*i +: 4] == wda && p_key[`KB*i +: `KB] == ka); // @inv_mark
                for (k = 0; k < 16; k = k + 1) if (oa && k + 1 < wa) assert(p_wt[16*i + k]); // @inv_mark
            end
            // B: not A, ordered, to A's line, with A's key when fast-equal.
            if (held[i] && p_pay1[i]) assert(sb == 1 && !p_pay0[i] && p_ordered[i] && p_line[28*i +: 28] == la && (!fast_b || p_key[`KB*i +: `KB] == ka)); // @inv_mark
            // (A chain-equal B's key: A's but perhaps the fast bit, so their chain windows agree.)
            if (held[i] && p_pay1[i] && chain_b) assert((p_key[`KB*i +: `KB] & `KMASK) == (ka & `KMASK)); // @inv_mark
            // A chain's youngest entry, and only it, is marked.
            if (p_valid[i] && p_ordered[i] && p_key[`KB*i + `KCH] && p_key[`KB*i + `KFA]) begin
                younger = 0;
                for (l = 0; l < `DEPTH; l = l + 1) if (`CHAIN2(i, l) && p_older[`DEPTH*i + l]) younger = 1;
                assert(p_tl[i] == !younger); // @inv_dep
            end
            for (j = 0; j < `DEPTH; j = j + 1) begin
                if (p_valid[i] && p_valid[j] && i != j) assert(p_older[`DEPTH*i + j] != p_older[`DEPTH*j + i]); // @inv_age
                // A chain producer among the dependences is chainable.
                if (p_valid[i] && p_dep[`DEPTH*i + j] && p_ch[`DEPTH*i + j]) assert(p_key[`KB*j + `KCH]); // @inv_dep
                // The last fast predecessor is older, to the line, with the key; while it is
                // valid no entry of the chain lies between them, and every older entry of the
                // chain leaves it valid.
                if (p_valid[i] && p_lp[`DEPTH*i + j]) assert(p_older[`DEPTH*j + i] && p_key[`KB*i + `KCH] && p_key[`KB*i + `KFA] && p_key[`KB*i +: `KB] == p_key[`KB*j +: `KB] && p_line[28*i +: 28] == p_line[28*j +: 28]); // @inv_dep
                if (p_valid[i] && p_lp[`DEPTH*i + j] && p_valid[j])
                    for (l = 0; l < `DEPTH; l = l + 1) if (`CHAIN2(i, l) && p_older[`DEPTH*j + l] && p_older[`DEPTH*l + i]) assert(0); // @inv_dep
                if (`CHAIN2(i, j) && p_older[`DEPTH*j + i]) assert((p_lp[`DEPTH*i +: `DEPTH] & p_valid) != 0); // @inv_dep
                // B waits on A while A is held: as a dependence with the harness's chain bit, or
                // with fast-equal keys as a fast predecessor until A's pick.
                if (held[i] && p_pay0[i] && p_valid[j] && p_pay1[j]) begin
                    assert(p_older[`DEPTH*i + j]); // @inv_order
                    if (fast_b) assert(!p_dep[`DEPTH*j + i]); // @inv_order
                    else assert(p_dep[`DEPTH*j + i] && p_ch[`DEPTH*j + i] == chain_b && !p_lp[`DEPTH*j + i]); // @inv_order
                end
                for (l = 0; l < `DEPTH; l = l + 1)
                    if (p_valid[i] && p_valid[j] && p_valid[l] && p_older[`DEPTH*i + j] && p_older[`DEPTH*j + l]) assert(p_older[`DEPTH*i + l]); // @inv_age
            end
            if (p_valid[i] && p_pay1[i] && sa == 2) begin
                // B pushed in the cycle of A's issue output: A's window in the history's
                // newest place, to B's line and words.
                if (since_a == 1 && g_we[i]) begin
                    assert(p_ph_wh0); // @inv_order
                    for (k = 0; k < 16; k = k + 1) if (k + 1 < wa) assert(p_ph_w0[k]); // @inv_order
                end
                // After A's issue B waits for its window: waiting this cycle, and its count
                // holds the cycles left.
                if (!g_we[i] && since_a + 1 <= eff) begin
                    assert(p_hzc[i]); // @inv_order
                    for (k = 0; k < 16; k = k + 1) if (k + since_a + 1 < eff) assert(cnt[16*i + k]); // @inv_order
                end
            end
            // B picked: A's window is over when its output shows.
            if (p_last_fs[i] && p_pay1[i]) assert(sa == 2 && since_a > eff); // @inv_order
        end
        assert(occ == n_valid + p_last_fire && p_last_fire == (p_last_fs != 0) && n_lf <= 1); // @inv_count
        if (!reset) assert((p_last_fs & p_valid) == 0 && n_fr <= 1 && (p_fr & held) == 0 && p_fr_any == (p_fr != 0)); // @inv_count
        if (!reset) assert(&held || p_fr != 0); // @inv_count
        assert((g_we & ~p_valid) == 0); // @inv_count
        // The payload RAM writes the slot `fr` and reads the slot `last_fs`.
        assert(p_fr_bin == b_fr && p_last_bin == b_lf); // @inv_count
        assert(n_a == (sa == 1) && n_b == (sb == 1)); // @inv_mark
    end

`ifndef SKIP_LIVE
    // The bounded response's ranking (no_loss). The pick takes the oldest eligible entry
    // that waits for no fast predecessor; the oldest valid entry X depends on none but the
    // entry picked in the last cycle, so it is picked within r cycles: its count as it stands
    // (plus one) while it waits for a result, WMAX while a dependence issues now (its window
    // joins a cycle late), one while it may wait for a fast predecessor, WMAX + 1 in its
    // first cycle. After X the next oldest starts at most at WMAX + 1. So while issue_enable
    // stays high, A's age plus WMAX + 2 per entry older than it, plus X's r, plus the cycle
    // from A's pick to its issue output stays below LIVE_BOUND. Windows in the history, the
    // entries and the issued window are thermometer codes below WMAX.
    (* keep *) wire [16*(`WMAX-1)-1:0] p_ht;
    (* keep *) wire [15:0] p_ph_w1, p_ph_hr0, p_ph_hr1;
    integer n_old, r_x, r_i, s_a;
    reg a_valid, older_v;
    always @(*) begin
        for (k = 0; k < `WMAX - 1; k = k + 1) assert(therm_ok(p_ht[16*k +: 16])); // @inv_live
        assert(therm_ok(p_ph_w0) && therm_ok(p_ph_w1) && therm_ok(p_ph_hr0) && therm_ok(p_ph_hr1) && therm_ok(p_iwr)); // @inv_live
        s_a = 0;
        a_valid = 0;
        for (i = 0; i < `DEPTH; i = i + 1) if (p_valid[i] && p_pay0[i]) begin s_a = i; a_valid = 1; end
        n_old = 0;
        r_x = 0;
        for (i = 0; i < `DEPTH; i = i + 1) begin
            if (p_valid[i]) begin
                assert(therm_ok(p_wt[16*i +: 16]) && therm_ok(p_cnt[16*i +: 16])); // @inv_live
                // Dependences only on older valid entries or the one picked in the last cycle.
                for (j = 0; j < `DEPTH; j = j + 1)
                    if (p_dep[`DEPTH*i + j]) begin
                        assert(p_last_fs[j] || (p_valid[j] && j != i && p_older[`DEPTH*j + i])); // @inv_live
                        // A chain producer's key is chain-equal to the entry's.
                        if (p_ch[`DEPTH*i + j]) assert((p_key[`KB*i +: `KB] & `KMASK) == (p_key[`KB*j +: `KB] & `KMASK)); // @inv_live
                    end
            end
            if (p_valid[i] && !g_we[i] && cnt[16*i +: 16] != 0) assert(p_hzc[i]); // @inv_live
            if (p_valid[i] && i != s_a && p_older[`DEPTH*i + s_a]) n_old = n_old + 1;
            older_v = 0;
            for (j = 0; j < `DEPTH; j = j + 1) if (p_valid[j] && j != i && p_older[`DEPTH*j + i]) older_v = 1;
            r_i = 0;
            if (p_hzc[i]) r_i = 1 + ones(cnt[16*i +: 16]);
            if ((p_dep[`DEPTH*i +: `DEPTH] & p_last_fs) != 0 && r_i < `WMAX) r_i = `WMAX;
            if (p_fb[i] && r_i < 1) r_i = 1;
            if (g_we[i]) r_i = `WMAX + 1;
            if (p_valid[i] && !older_v) r_x = r_i;
        end
        if (!reset && sa == 1 && en_all) begin
            if (a_valid) assert(age_a + (`WMAX + 2) * n_old + r_x + 1 < `LIVE_BOUND); // @inv_live
            else assert(age_a < `LIVE_BOUND); // @inv_live
        end
    end
`endif
