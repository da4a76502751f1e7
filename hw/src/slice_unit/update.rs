//! The unit's logic, stage by stage.

use super::*;

impl Logic for SliceUnit {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, sc_ww, si_ww, sr_ww, s1_ww, s1b_ww, w_ww, s1_valid, s1_ordered, s1_line, s1_payload);
        dff_setup!(self, clock, sc_valid, sc_ordered, sc_vo, sc_line, sc_ra, si_valid, si_ordered, si_line, si_ra);
        dff_setup!(self, clock, si_payload, sr_valid, sr_ordered, sr_line, sr_payload, m_fwm, i_iwm, w_we, s1b_valid);
        dff_setup!(self, clock, s1b_ordered, s1b_line, s1b_payload, s1b_old);
        clock!(self, clock, dly_int64, out_r, accept, access, credit, cas, fwd, cov_bus, fp_chain);
        self.accept.reset.next = self.reset.val();
        self.credit.reset.next = self.reset.val();
        self.cas.reset.next = self.reset.val();
        for i in 0..4 {
            self.y_r[i].clock.next = self.clock.val();
        }
        for h in 0..2 {
            self.fpre[h].clock.next = self.clock.val();
        }
        self.y_rr.clock.next = self.clock.val();
        self.ch_rsp.clock.next = self.clock.val();
        self.l1_sr.clock.next = self.clock.val();
        self.l1_s1.clock.next = self.clock.val();
        self.l1_s1b.clock.next = self.clock.val();
        self.l1_rsp.clock.next = self.clock.val();
        self.l1_rsp2.clock.next = self.clock.val();
        for d in 0..3 {
            self.ch_d[d].clock.next = self.clock.val();
        }
        self.sc_cl.clock.next = self.clock.val();
        for k in 0..self.sw_valid.len() {
            self.sw_valid[k].clock.next = self.clock.val();
            self.sw_line[k].clock.next = self.clock.val();
            self.sw_data[k].clock.next = self.clock.val();
            self.sw_fp[k].clock.next = self.clock.val();
        }
        for j in 0..self.sp_valid.len() {
            self.sp_valid[j].clock.next = self.clock.val();
            self.sp_ordered[j].clock.next = self.clock.val();
            self.sp_line[j].clock.next = self.clock.val();
            self.sp_kind[j].clock.next = self.clock.val();
            self.sp_fp[j].clock.next = self.clock.val();
            self.sp_rep[j].clock.next = self.clock.val();
            self.sp_data[j].clock.next = self.clock.val();
            self.sp_rsp[j].clock.next = self.clock.val();
            self.sp_status[j].clock.next = self.clock.val();
            self.sp_id[j].clock.next = self.clock.val();
            self.sp_sector[j].clock.next = self.clock.val();
            self.sp_wmask[j].clock.next = self.clock.val();
            self.sp_ww[j].clock.next = self.clock.val();
            // Each stage carries the one before it (stage 0, s2, takes s1 below).
            self.sp_valid[j].d.next = false;
            self.sp_ordered[j].d.next = false;
            self.sp_line[j].d.next = self.zero_line.val();
            self.sp_kind[j].d.next = self.zero_kind.val();
            self.sp_fp[j].d.next = false;
            self.sp_rep[j].d.next = self.rep128.val();
            self.sp_data[j].d.next = self.zero128.val();
            self.sp_rsp[j].d.next = self.zero128.val();
            self.sp_status[j].d.next = self.zero_status.val();
            self.sp_id[j].d.next = self.zero_id.val();
            self.sp_sector[j].d.next = false;
            self.sp_wmask[j].d.next = self.zero128.val();
            self.sp_ww[j].d.next = self.zero4.val();
        }
        self.queue.clock.next = self.clock.val();
        self.queue.reset.next = self.reset.val();
        self.mem.clock.next = self.clock.val();
        self.int_alu.clock.next = self.clock.val();
        for i in 0..3 {
            self.int_lane[i].clock.next = self.clock.val();
        }
        self.alu.clock.next = self.clock.val();
        self.rsp_fifo.clock.next = self.clock.val();
        self.rsp_fifo.reset.next = self.reset.val();
        // The coverage events set in more than one place below.
        self.cov_bus.fwd_s2.next = false;
        self.cov_bus.fwd_s3.next = false;
        self.cov_bus.fwd_s4.next = false;
        self.cov_bus.fwd_s5.next = false;
        self.cov_bus.int_chain.next = false;
        self.cov_bus.int_loop.next = false;
        self.cov_bus.int_loop1.next = false;

        // ==========================================================================
        // s0 accept (`Accept`): the request decoded into the queue's push.
        // ==========================================================================
        self.accept.req_valid.next = self.req_valid.val();
        self.accept.req_op.next = self.req_op.val();
        self.accept.req_addr.next = self.req_addr.val();
        self.accept.req_data.next = self.req_data.val();
        self.accept.req_id.next = self.req_id.val();
        self.accept.req_mask.next = self.req_mask.val();
        // (One statement per port: Verilator orders this block's statements in groups, and
        // one that reads `push_ready` and writes `push_valid` would be a loop through the queue.)
        self.req_ready.next = self.accept.req_ready.val();
        self.accept.push_ready.next = self.queue.push_ready.val();
        self.accept.push_ready_nx.next = self.queue.push_ready_nx.val();
        self.queue.push_valid.next = self.accept.push_valid.val();
        self.queue.push_line.next = self.accept.push_line.val();
        self.queue.push_line_nx.next = self.accept.push_line_nx.val();
        self.queue.push_nx_keep.next = self.accept.push_nx_keep.val();
        self.queue.push_ordered.next = self.accept.push_ordered.val();
        self.queue.push_wait.next = self.accept.push_wait.val();
        self.queue.push_payload.next = self.accept.push_payload.val();
        self.queue.push_key.next = self.accept.push_key.val();
        self.queue.push_key_nx.next = self.accept.push_key_nx.val();
        self.queue.push_words.next = self.accept.push_words.val();
        self.queue.push_words_nx.next = self.accept.push_words_nx.val();
        self.cov_bus.back_to_back_line.next = self.queue.cov_back_to_back.val();

        // ==========================================================================
        // Decode of the registers of s1, and the new lines of s2 (integer result) and s4
        // (FP result): read by the issue and forwarding logic below.
        // ==========================================================================
        self.c_valid.next = self.s1_valid.q.val();
        self.c_ordered.next = self.s1_ordered.q.val();
        self.c_line.next = self.s1_line.q.val();
        self.c_payload.next = self.s1_payload.q.val();
        if self.regs.val() {
            self.c_valid.next = self.s1b_valid.q.val();
            self.c_ordered.next = self.s1b_ordered.q.val();
            self.c_line.next = self.s1b_line.q.val();
            self.c_payload.next = self.s1b_payload.q.val();
        }
        self.s1r_fp.next = self.s1_payload.q.val().get_bit(self.p_fp.val().index());
        self.s1_op.next = self.c_payload.val().get_bits::<REQ_OP_WIDTH>(0);
        self.s1_form.next = self.s1_op.val().get_bits::<CODE_WIDTH>(0);
        self.s1_kind.next = self.s1_op.val().get_bits::<KIND_WIDTH>(self.kind_lsb.val().index());
        self.s1_fp.next = self.c_payload.val().get_bit(self.p_fp.val().index());
        self.s1_status.next = self.c_payload.val().get_bits::<STATUS_WIDTH>(self.p_status.val().index());
        self.s1_id.next = self.c_payload.val().get_bits::<ID_WIDTH>(self.p_id.val().index());
        self.s1_data.next = self.c_payload.val().get_bits::<128>(self.p_data.val().index());
        // The access's shift and byte masks (`AccessDecode`), decoded from s1's payload: in the
        // registered pipeline registered for s1b, so the masks do not sit between s1b's payload
        // and the line merge.
        self.access.payload.next = self.s1_payload.q.val();
        self.access.sr_payload.next = self.sr_payload.q.val();
        self.access.form.next = self.s1_form.val();
        // The integer merge stage s(1 + int_alu_latency) and the FP merge stage sM, as views
        // of their `sp_*` registers (a constant selects the stage).
        self.i_rep.next = self.rep128.val();
        self.i_base.next = self.zero128.val();
        self.i_sector.next = false;
        self.m_fp.next = false;
        self.m_rep.next = self.rep128.val();
        self.m_data.next = self.zero128.val();
        self.unused_wm.next = false;
        for j in 0..self.sp_valid.len() {
            if self.int_at.val().get_bit(j) {
                self.i_rep.next = self.sp_rep[j].q.val();
                self.i_base.next = self.sp_data[j].q.val();
                self.i_sector.next = self.sp_sector[j].q.val();
            }
            if self.fp_at.val().get_bit(j) {
                self.m_fp.next = self.sp_fp[j].q.val();
                self.m_rep.next = self.sp_rep[j].q.val();
                self.m_data.next = self.sp_data[j].q.val();
                self.unused_wm.next = self.sp_wmask[j].q.val().any();
            }
        }
        // The integer results (registered once more in the registered pipeline: `y_r`) and the
        // FP result (`out_r`), merged into their stages' lines (`ResultMerge`).
        self.y_r[0].d.next = self.int_alu.y.val();
        for i in 0..3 {
            self.y_r[i + 1].d.next = self.int_lane[i].y.val();
        }
        self.out_r.d.next = self.alu.out_data.val();
        for i in 0..4 {
            self.merge.y[i].next = self.y_r[i].q.val();
        }
        self.merge.int64.next = self.dly_int64.q.val();
        self.merge.i_rep.next = self.i_rep.val();
        self.merge.i_base.next = self.i_base.val();
        self.merge.i_sector.next = self.i_sector.val();
        self.merge.i_wm.next = self.i_iwm.q.val();
        self.i_new.next = self.merge.i_new.val();
        self.merge.out.next = self.out_r.q.val();
        self.merge.m_rep.next = self.m_rep.val();
        self.merge.m_data.next = self.m_data.val();
        self.merge.m_wm.next = self.m_fwm.q.val();
        self.m_new.next = self.merge.m_new.val();

        // ==========================================================================
        // Issue: the queue picks the oldest eligible entry; the queue itself holds requests to
        // the line of an FP op in s1 or s2 (its result is not there yet when a dependent
        // request reaches s1). A request issues only with a response place reserved for it.
        // ==========================================================================
        self.queue.issue_enable.next = !self.credit.full.val();
        self.issue.next = self.queue.issue_valid.val();
        // The RAM read of the issued line (unordered requests read line 0, unused); the
        // registered pipeline reads it from `si_ra` two cycles later.
        self.issue_ra.next = self.queue.issue_line.val();
        if !self.queue.issue_ordered.val() {
            self.issue_ra.next = self.zero_line.val();
        }
        self.mem.read_addr.next = self.issue_ra.val();
        self.s1_valid.d.next = self.issue.val() && !self.reset.val();
        self.s1_ordered.d.next = self.queue.issue_ordered.val();
        self.s1_line.d.next = self.queue.issue_line.val();
        self.s1_payload.d.next = self.queue.issue_payload.val();
        // The registered pipeline reads the RAM through its output register: the op waits a
        // cycle in sr (its forwarding source found in sc and si, below).
        // (sc: the issued request registered, for the forwarding compares; its RAM read
        // address too, so that si's is a register's copy.)
        self.sc_valid.d.next = self.issue.val() && !self.reset.val();
        self.sc_ordered.d.next = self.queue.issue_ordered.val();
        self.sc_vo.d.next = self.issue.val() && !self.reset.val() && self.queue.issue_ordered.val();
        self.sc_line.d.next = self.queue.issue_line.val();
        self.sc_cl.d.next = self.queue.issue_line.val();
        self.sc_ra.d.next = self.issue_ra.val();
        self.sc_ww.d.next = self.zero4.val();
        if self.queue.issue_ordered.val() {
            self.sc_ww.d.next = self.queue.issue_words.val();
        }
        self.si_ww.d.next = self.sc_ww.q.val();
        self.sr_ww.d.next = self.si_ww.q.val();
        self.s1_ww.d.next = self.sr_ww.q.val();
        self.s1b_ww.d.next = self.s1_ww.q.val();
        // (si: sc's request; the RAM address comes from there, so the pick does not drive the
        // 30 block RAMs' address pins. Its payload straight from the queue slot, which is
        // still intact: sc has none.)
        self.si_valid.d.next = self.sc_valid.q.val() && !self.reset.val();
        self.si_ordered.d.next = self.sc_ordered.q.val();
        self.si_line.d.next = self.sc_line.q.val();
        self.si_payload.d.next = self.queue.issue_payload_late.val();
        self.si_ra.d.next = self.sc_ra.q.val();
        if self.regs.val() {
            self.mem.read_addr.next = self.si_ra.q.val();
        }
        self.sr_valid.d.next = self.si_valid.q.val() && !self.reset.val();
        self.sr_ordered.d.next = self.si_ordered.q.val();
        self.sr_line.d.next = self.si_line.q.val();
        self.sr_payload.d.next = self.si_payload.q.val();
        // sc and si find the forwarding source of each word of sc's op's line for s1 (`fwd`)
        // among the ops that will be three stages further when it gets there (sr → sp[0],
        // s1 → sp[1], s1b → sp[2], sp[j] → sp[j+3], the last two stages → sw[0], sw[1]). Only the words the op touches
        // need a source (its line is read, written and forwarded there only). sr selects the
        // sources whose line is already in a register (`fpre`), s1 the rest.
        self.fwd.sc_vo.next = self.sc_vo.q.val();
        self.fwd.sc_cl.next = self.sc_cl.q.val();
        self.fwd.sc_ww.next = self.sc_ww.q.val();
        self.fwd.si_vo.next = self.si_valid.q.val() && self.si_ordered.q.val();
        self.fwd.si_line.next = self.si_line.q.val();
        self.fwd.line[0].next = self.sr_line.q.val();
        self.fwd.vo[0].next = self.sr_valid.q.val() && self.sr_ordered.q.val();
        self.fwd.ww[0].next = self.sr_ww.q.val();
        self.fwd.line[1].next = self.s1_line.q.val();
        self.fwd.vo[1].next = self.s1_valid.q.val() && self.s1_ordered.q.val();
        self.fwd.ww[1].next = self.s1_ww.q.val();
        self.fwd.line[2].next = self.s1b_line.q.val();
        self.fwd.vo[2].next = self.s1b_valid.q.val() && self.s1b_ordered.q.val();
        self.fwd.ww[2].next = self.s1b_ww.q.val();
        for j in 1..self.sp_valid.len() {
            self.fwd.line[j + 2].next = self.sp_line[j - 1].q.val();
            self.fwd.vo[j + 2].next = self.sp_valid[j - 1].q.val() && self.sp_ordered[j - 1].q.val();
            self.fwd.ww[j + 2].next = self.sp_ww[j - 1].q.val();
        }
        // sr copies the select towards s1 (`fwd`).
        self.fwd.si_ww.next = self.si_ww.q.val();
        self.fwd.sr_ww.next = self.sr_ww.q.val().get_bits::<3>(0);
        // sr: the sources selected early take their line from the stage before them
        // (`sp[j - 1]` for `sp[j]` and for `sw[0]`, `sw[k - 1]` for `sw[k]`), each quarter
        // of the line by its own replica of the select.
        // (Registered pipeline only: in the default one nothing reads `fpre`, and its model
        // skips the loops.)
        self.fp_a.next = self.zero128.val();
        self.fp_b.next = self.zero128.val();
        self.fsel_r_sw.next = self.zero32.val();
        if self.regs.val() {
            for q in 0..4 {
                for j in 0..self.sp_valid.len() {
                    if self.fwd.sel_q[q].val().get_bit(j + 1) {
                        if self.fs_pre_a.val().get_bit(j + 1) {
                            self.fp_a.next = self.fp_a.val() | (self.sp_data[j].q.val() & self.qmask[q].val());
                        }
                        if self.fs_pre_b.val().get_bit(j + 1) {
                            self.fp_b.next = self.fp_b.val() | (self.sp_data[j].q.val() & self.qmask[q].val());
                        }
                    }
                }
                self.fsel_r_sw.next = self.fwd.sel_q[q].val() >> self.fsw_sh.val();
                for k in 1..self.sw_valid.len() {
                    if self.fsel_r_sw.val().get_bit(k) {
                        self.fp_b.next = self.fp_b.val() | (self.sw_data[k - 1].q.val() & self.qmask[q].val());
                    }
                }
            }
        }
        self.fpre[0].d.next = self.fp_a.val();
        self.fpre[1].d.next = self.fp_b.val();
        if self.regs.val() {
            self.s1_valid.d.next = self.sr_valid.q.val() && !self.reset.val();
            self.s1_ordered.d.next = self.sr_ordered.q.val();
            self.s1_line.d.next = self.sr_line.q.val();
            self.s1_payload.d.next = self.sr_payload.q.val();
        }
        // Reserved response places (`Credits`): + issue, - response handshake.
        self.rsp_fire.next = self.rsp_fifo.out_valid.val() && self.rsp_ready.val();
        self.credit.issue.next = self.issue.val();
        self.credit.rsp_fire.next = self.rsp_fire.val();
        self.cov_bus.fp_hazard_wait.next = self.queue.cov_hazard_wait.val();
        self.cov_bus.line_wait.next = self.queue.cov_line_wait.val();
        self.cov_bus.queue_full.next = self.queue.cov_full.val();
        self.cov_bus.overtake.next = self.queue.cov_overtake.val();
        self.cov_bus.credit_stall.next = self.credit.full.val();

        // ==========================================================================
        // s1: RAM data arrives; forward the youngest in-flight version of the line; old
        // value to both ALUs; stores merge here; response data fixed here.
        // ==========================================================================
        self.s1_fwd_fp.next = false;
        self.fw_found.next = false;
        self.fw_hit.next = false;
        self.s1_old_line.next = self.mem.read_data.val();
        // The shallow pipeline's search (the registered one found its source in sc).
        if !self.regs.val() && self.s1_valid.q.val() && self.s1_ordered.q.val() {
            // Youngest first: s2, s3, .., sM (its new line), then the written line.
            for j in 0..self.sp_valid.len() {
                self.fw_hit.next = !self.fw_found.val()
                    && self.sp_valid[j].q.val()
                    && self.sp_ordered[j].q.val()
                    && (self.sp_line[j].q.val() == self.s1_line.q.val());
                if self.fw_hit.val() {
                    self.fw_found.next = true;
                    self.s1_old_line.next = self.sp_data[j].q.val();
                    if self.int_at.val().get_bit(j) {
                        self.s1_old_line.next = self.i_new.val();
                        if !self.sp_fp[j].q.val()
                            && !self.s1_fp.val()
                            && ((self.sp_kind[j].q.val() == self.kind_red.val())
                                || (self.sp_kind[j].q.val() == self.kind_atom.val()))
                            && ((self.s1_kind.val() == self.kind_red.val())
                                || (self.s1_kind.val() == self.kind_atom.val()))
                        {
                            self.cov_bus.int_chain.next = true;
                        }
                    }
                    if self.fp_at.val().get_bit(j) {
                        self.s1_old_line.next = self.m_new.val();
                        self.cov_bus.fwd_s4.next = true;
                        self.s1_fwd_fp.next = self.m_fp.val() && self.s1_fp.val();
                    } else if j == 0 {
                        self.cov_bus.fwd_s2.next = true;
                    } else {
                        self.cov_bus.fwd_s3.next = true;
                    }
                }
            }
            if !self.fw_found.val() && self.sw_valid[0].q.val() && (self.sw_line[0].q.val() == self.s1_line.q.val()) {
                self.s1_old_line.next = self.sw_data[0].q.val();
                self.cov_bus.fwd_s5.next = true;
            }
        }
        // The registered pipeline's forwarded line: `fpre` (zero unless a source selected in
        // sr is taken) and the sources selected now, each quarter by its own replicas of the
        // select; `rfm` puts it over the RAM's data in the quarters where a source is taken.
        self.s1_fwd_x.next = self.fpre[0].q.val() | self.fpre[1].q.val();
        self.s1_take.next = self.zero4.val();
        for q in 0..4 {
            for j in 0..self.sp_valid.len() {
                if self.fwd.sel_s[q].val().get_bit(j) && self.fs_now.val().get_bit(j) {
                    self.s1_fwd_x.next = self.s1_fwd_x.val() | (self.sp_data[j].q.val() & self.qmask[q].val());
                }
            }
            self.s1_take.next = self.s1_take.val() >> 1;
            if self.fwd.any_s[q].val().any() {
                self.s1_take.next = self.s1_take.val() | self.take_top.val();
            }
        }
        self.rfm.ram.next = self.mem.read_data.val();
        self.rfm.fwd.next = self.s1_fwd_x.val();
        self.rfm.take.next = self.s1_take.val();
        // The registered pipeline: the source found in sc and si, part selected in sr: an AND-OR of
        // registers.
        if self.regs.val() {
            // (Each quarter of the line by its own replicas of the select; the RAM's data
            // joins in `rfm`, after the forwarded sources.)
            self.s1_old_line.next = self.rfm.out.val();
            for j in 0..self.sp_valid.len() {
                if self.fwd.fsel.val().get_bit(j) {
                    // Coverage: from s2, from the write stage (an FP chain when both are FP),
                    // from the stages between.
                    if j == 0 {
                        self.cov_bus.fwd_s2.next = true;
                    } else if self.wr_at.val().get_bit(j) {
                        self.cov_bus.fwd_s4.next = true;
                        self.s1_fwd_fp.next = self.sp_fp[j].q.val() && self.s1r_fp.val();
                    } else {
                        self.cov_bus.fwd_s3.next = true;
                    }
                }
            }
            self.fsel_sw.next = self.fwd.fsel.val() >> self.fsw_sh.val();
            for k in 0..self.sw_valid.len() {
                if self.fsel_sw.val().get_bit(k) {
                    self.cov_bus.fwd_s5.next = true;
                    self.s1_fwd_fp.next = self.sw_fp[k].q.val() && self.s1r_fp.val();
                }
            }
        }
        self.cov_bus.fp_chain.next = self.s1_fwd_fp.val();
        // The integer loop (registered pipeline): an integer red/atom whose forwarding source
        // is an integer red/atom within the chain distance is its chain producer (the queue
        // lets only those so close; see "The integer loop"), and takes that op's result from
        // the ALU's loop in s1b: the line from the source is right but for those bytes.
        self.s1r_op.next = self.s1_payload.q.val().get_bits::<REQ_OP_WIDTH>(0);
        self.s1r_kind.next = self.s1r_op.val().get_bits::<KIND_WIDTH>(self.kind_lsb.val().index());
        // (The op bits beside the kind count as read.)
        self.unused_decode.next = self.s1r_op.val().any();
        self.ch_me.next = self.s1_valid.q.val()
            && self.s1_ordered.q.val()
            && !self.s1r_fp.val()
            && !self.s1_payload.q.val().get_bits::<8>(self.p_mask.val().index()).any()
            && ((self.s1r_kind.val() == self.kind_red.val()) || (self.s1r_kind.val() == self.kind_atom.val()));
        for d in 0..3 {
            self.ch_nx[d].next = false;
        }
        for j in 0..self.sp_valid.len() {
            self.ch_p.next = self.ch_me.val()
                && self.fwd.fsel.val().get_bit(j)
                && !self.sp_fp[j].q.val()
                && !self.sp_sector[j].q.val()
                && ((self.sp_kind[j].q.val() == self.kind_red.val())
                    || (self.sp_kind[j].q.val() == self.kind_atom.val()));
            for d in 0..3 {
                if self.ch_p.val() && self.ch_m[d].val().get_bit(j) {
                    self.ch_nx[d].next = true;
                }
            }
        }
        for d in 0..3 {
            self.ch_d[d].d.next = self.ch_nx[d].val() && !self.reset.val();
        }
        // The FP loop (registered pipeline): an FP red/atom whose forwarding source is a plain
        // FP op within the FP chain distance is its chain producer (`FpChain`).
        self.fch_pv.next = self.zero32.val();
        for j in 0..self.sp_valid.len() {
            self.fch_pb.next = self.sp_fp[j].q.val() && !self.sp_sector[j].q.val();
            self.fch_pv.next =
                (self.fch_pv.val() >> 1) | (bit_cast::<32, 1>(self.fch_pb.val().into()) << self.top31.val());
        }
        self.fp_chain.reset.next = self.reset.val();
        self.fp_chain.me.next = self.s1_valid.q.val()
            && self.s1_ordered.q.val()
            && self.s1r_fp.val()
            && !self.s1_payload.q.val().get_bits::<8>(self.p_mask.val().index()).any();
        self.fp_chain.prod.next = self.fch_pv.val() >> self.fch_sh.val();
        self.fp_chain.fsel.next = self.fwd.fsel.val();
        self.fp_chain.c_valid.next = self.c_valid.val();
        self.fp_chain.out_r.next = self.out_r.q.val();
        // A fast chain's consumer a cycle behind its producer (found in sc, `fwd.l1`; the
        // shallow pipeline lets any dependent op follow a cycle behind, through the line).
        self.l1_sr.d.next = self.fwd.l1.val() && self.regs.val();
        self.l1_s1.d.next = self.l1_sr.q.val();
        self.l1_s1b.d.next = self.l1_s1.q.val();
        // The registered pipeline registers the forwarded line (s1b) before it computes.
        self.s1b_valid.d.next = self.s1_valid.q.val() && !self.reset.val();
        self.s1b_ordered.d.next = self.s1_ordered.q.val();
        self.s1b_line.d.next = self.s1_line.q.val();
        self.s1b_payload.d.next = self.s1_payload.q.val();
        self.s1b_old.d.next = self.s1_old_line.val();
        self.c_old_line.next = self.s1_old_line.val();
        if self.regs.val() {
            self.c_old_line.next = self.s1b_old.q.val();
        }

        // ==========================================================================
        // The compute stage (s1; s1b in the registered pipeline): old value to both ALUs;
        // stores merge here; response data fixed here.
        // ==========================================================================
        // The old value (`old line >> 8*offset`), shifted only where an access can put it
        // (`OldExtract`). The registered pipeline extracts once per group of consumers, each
        // from replicas of s1b's line and shift of its own (the fan-out of the shared ones to
        // the lanes' operand registers is the unit's worst critical path otherwise); the
        // default pipeline here, in the cycle of its forwarding.
        for g in 0..5 {
            self.ox[g].clock.next = self.clock.val();
            self.ox[g].line.next = self.s1_old_line.val();
            self.ox[g].sh.next = self.access.dw_sh.val();
        }
        self.s1_old.next = ((self.c_old_line.val() >> self.access.sh.val()) & self.mask16.val())
            | ((self.c_old_line.val() >> (self.access.sh.val() & self.xs_4.val()))
                & (self.mask32.val() & !self.mask16.val()))
            | ((self.c_old_line.val() >> (self.access.sh.val() & self.xs_8.val()))
                & (self.mask64.val() & !self.mask32.val()))
            | (self.c_old_line.val() & !self.mask64.val());
        self.s1_old_int.next = self.s1_old.val();
        self.s1_old_rsp.next = self.s1_old.val();
        self.s1_old_mm.next = self.s1_old.val();
        self.s1_old_wide.next = self.s1_old.val();
        if self.regs.val() {
            self.s1_old.next = self.ox[0].old.val();
            self.s1_old_mm.next = self.ox[1].old.val();
            self.s1_old_wide.next = self.ox[2].old.val();
            self.s1_old_int.next = self.ox[3].old.val();
            self.s1_old_rsp.next = self.ox[4].old.val();
        }

        // Operand isolation (see `ReductionAlu`): the integer ALU loads for the integer
        // forms, its sector lanes for masked sector requests of them.
        self.int_alu.hold.next = !self.c_valid.val() || self.s1_fp.val();
        for i in 0..3 {
            self.int_lane[i].hold.next = !self.c_valid.val() || self.s1_fp.val() || !self.access.sector.val();
        }
        self.int_alu.op.next = self.s1_form.val().get_bits::<OP_WIDTH>(self.op_lsb.val().index());
        self.int_alu.ty.next = self.s1_form.val().get_bits::<TYPE_WIDTH>(self.ty_lsb.val().index());
        // A chained op's operand is its producer's result: from the ALU's own loop when the
        // producer is `Li` cycles ahead (`loop_a`), else from the registers after the ALU
        // (`ch_d`, one-hot; the shallow pipeline has none).
        self.y_rr.d.next = self.y_r[0].q.val();
        self.ch_val.next = self.zero64.val();
        if self.ch_d[1].q.val() {
            self.ch_val.next = self.ch_val.val() | self.y_r[0].q.val();
        }
        if self.ch_d[2].q.val() {
            self.ch_val.next = self.ch_val.val() | self.y_rr.q.val();
        }
        self.ch_any.next = self.ch_d[1].q.val() || self.ch_d[2].q.val();
        if (self.ch_any.val() || self.ch_d[0].q.val() || self.l1_s1b.q.val()) && self.c_valid.val() {
            self.cov_bus.int_chain.next = true;
        }
        self.cov_bus.int_loop.next = self.ch_d[0].q.val() && !self.l1_s1b.q.val() && self.c_valid.val();
        self.cov_bus.int_loop1.next = self.l1_s1b.q.val() && self.c_valid.val();
        self.int_alu.loop_a.next = self.ch_d[0].q.val();
        // (A fast chain's consumer a cycle behind: `loop_1` decides its operand, whatever the
        // line's source above.)
        self.int_alu.loop_1.next = self.l1_s1b.q.val();
        self.int_alu.a.next = self.s1_old_int.val().get_bits::<64>(0);
        if self.ch_any.val() {
            self.int_alu.a.next = self.ch_val.val();
        }
        self.int_alu.b.next = self.s1_data.val().get_bits::<64>(0);
        for i in 0..3 {
            self.int_lane[i].loop_a.next = false;
            self.int_lane[i].loop_1.next = false;
            self.int_lane[i].op.next = self.s1_form.val().get_bits::<OP_WIDTH>(self.op_lsb.val().index());
            self.int_lane[i].ty.next = self.s1_form.val().get_bits::<TYPE_WIDTH>(self.ty_lsb.val().index());
        }
        self.int_lane[0].a.next = self.s1_old_int.val().get_bits::<64>(32);
        self.int_lane[0].b.next = self.s1_data.val().get_bits::<64>(32);
        self.int_lane[1].a.next = self.s1_old_int.val().get_bits::<64>(64);
        self.int_lane[1].b.next = self.s1_data.val().get_bits::<64>(64);
        self.int_lane[2].a.next = bit_cast::<64, 32>(self.s1_old_int.val().get_bits::<32>(96));
        self.int_lane[2].b.next = bit_cast::<64, 32>(self.s1_data.val().get_bits::<32>(96));
        self.alu.in_valid.next = self.c_valid.val() && self.c_ordered.val() && self.s1_fp.val();
        self.alu.in_form.next = self.access.alu_form.val();
        if self.regs.val() {
            self.alu.in_form.next = self.access.pre_form_c.val();
        }
        // (The registered pipeline's next ALU operation: s1's, which moves to s1b unstalled.
        // Constant in the default pipeline, whose ALU decodes in its cycle. Not cleared by
        // `reset`: it only lets the op's unit load its operands, and an op that the reset
        // drops has no valid result to merge; `reset`'s fan-out into the units' clock enables
        // would be a critical path.)
        self.alu.pre_valid.next = false;
        self.alu.pre_form.next = self.zero_form.val();
        if self.regs.val() {
            self.alu.pre_valid.next = self.s1_valid.q.val() && self.s1_ordered.q.val() && self.s1r_fp.val();
            self.alu.pre_form.next = self.access.pre_form.val();
        }
        self.alu.in_old.next = self.s1_old.val();
        self.alu.in_old_mm.next = self.s1_old_mm.val();
        self.alu.in_old_wide.next = self.s1_old_wide.val();
        // A chained FP op's old value: its lanes' own results (`loop_a`) or a result register.
        if self.fp_chain.take.val() {
            self.alu.in_old.next = self.fp_chain.val.val();
            self.alu.in_old_mm.next = self.fp_chain.val.val();
            self.alu.in_old_wide.next = self.fp_chain.val.val();
        }
        self.alu.loop_a.next = self.fp_chain.loop_a.val();
        self.cov_bus.fp_loop.next = self.fp_chain.cov_loop.val();
        self.cov_bus.fp_loop_reg.next = self.fp_chain.cov_reg.val();
        self.alu.in_b.next = self.s1_data.val();

        self.sp_valid[0].d.next = self.c_valid.val() && !self.reset.val();
        self.sp_ordered[0].d.next = self.c_ordered.val();
        self.sp_line[0].d.next = self.c_line.val();
        self.sp_kind[0].d.next = self.s1_kind.val();
        self.sp_fp[0].d.next = self.s1_fp.val();
        self.sp_rep[0].d.next = self.access.rep.val();
        self.sp_status[0].d.next = self.s1_status.val();
        self.sp_id[0].d.next = self.s1_id.val();
        // `atom.cas` is a store (its swap value in the operand's low half) that merges only
        // where the old value equals the compare value, and returns the old value. The shallow
        // pipeline compares here, the response's old-value extract (`s1_old_rsp`: little
        // fan-out) against the operand's upper half; the registered one a stage later, from
        // registers (`CasCheck`).
        self.s1_cas.next = (self.s1_kind.val() == self.kind_st.val()) && self.s1_form.val().get_bit(2);
        self.s1_cas_eq.next = self.s1_old_rsp.val().get_bits::<32>(0) == self.s1_data.val().get_bits::<32>(32);
        if self.s1_form.val().get_bit(0) {
            self.s1_cas_eq.next = self.s1_old_rsp.val().get_bits::<64>(0) == self.s1_data.val().get_bits::<64>(64);
        }
        if self.regs.val() {
            self.s1_cas_eq.next = true;
        }
        self.cas.load.next = self.c_valid.val() && self.c_ordered.val() && self.s1_cas.val();
        self.cas.b64.next = self.s1_form.val().get_bit(0);
        self.cas.data_hi.next = self.s1_data.val().get_bits::<96>(32);
        // The line without the accessed bytes; a store merges its data now; a load (and an
        // `atom.cas` whose compare fails) keeps the whole line.
        self.sp_data[0].d.next = self.c_old_line.val() & !self.access.wmask.val();
        if self.s1_kind.val() == self.kind_st.val() {
            self.sp_data[0].d.next = (self.c_old_line.val() & !self.access.st_mask.val())
                | (self.access.st_data.val() & self.access.st_mask.val());
        }
        if (self.s1_kind.val() == self.kind_ld.val()) || (self.s1_cas.val() && !self.s1_cas_eq.val()) {
            self.sp_data[0].d.next = self.c_old_line.val();
        }
        // Registered pipeline: a CAS in `sp_*[0]` whose old value differs from its compare value
        // (`CasCheck`) gets its old bytes back on the way from `sp_*[1]` to `sp_*[2]`: the old
        // value, still in `sp_rsp[1]`, replicated across the line and kept by the write mask.
        self.cas.old.next = self.sp_rsp[0].q.val().get_bits::<64>(0);
        self.cas.old_r.next = self.sp_rsp[1].q.val().get_bits::<64>(0);
        self.sp_rsp[0].d.next = self.zero128.val();
        if self.c_ordered.val()
            && ((self.s1_kind.val() == self.kind_ld.val())
                || (self.s1_kind.val() == self.kind_atom.val())
                || self.s1_cas.val())
        {
            self.sp_rsp[0].d.next = self.s1_old_rsp.val() & self.access.mask.val();
            if self.ch_any.val() {
                self.sp_rsp[0].d.next = bit_cast::<128, 64>(self.ch_val.val()) & self.access.mask.val();
            }
            if self.ch_d[0].q.val() || self.l1_s1b.q.val() || self.fp_chain.rsp_mask.val() {
                self.sp_rsp[0].d.next = self.access.mask.val();
            }
            if self.access.sector.val() {
                self.sp_rsp[0].d.next = self.c_old_line.val() & self.access.wmask.val();
            }
        }
        self.ch_rsp.d.next = self.ch_d[0].q.val() && !self.l1_s1b.q.val() && self.c_valid.val() && !self.reset.val();
        self.l1_rsp.d.next = self.l1_s1b.q.val() && self.c_valid.val() && !self.reset.val();
        self.l1_rsp2.d.next = self.l1_rsp.q.val() && !self.reset.val();
        self.sp_sector[0].d.next = self.access.sector.val();
        self.dly_int64.d.next = self.access.elog.val() == self.elog3.val();
        self.sp_wmask[0].d.next = self.access.wmask.val();
        self.sp_ww[0].d.next = self.s1b_ww.q.val();

        // ==========================================================================
        // s2 .. sM: each stage takes the one before; the integer result merges in its stage
        // (`i_new`; s2 by default), the FP ALU works through them.
        // ==========================================================================
        for j in 1..self.sp_valid.len() {
            self.sp_valid[j].d.next = self.sp_valid[j - 1].q.val() && !self.reset.val();
            self.sp_ordered[j].d.next = self.sp_ordered[j - 1].q.val();
            self.sp_line[j].d.next = self.sp_line[j - 1].q.val();
            self.sp_kind[j].d.next = self.sp_kind[j - 1].q.val();
            self.sp_fp[j].d.next = self.sp_fp[j - 1].q.val();
            self.sp_rep[j].d.next = self.sp_rep[j - 1].q.val();
            self.st_nd.next = self.sp_data[j - 1].q.val();
            if self.int_at.val().get_bit(j - 1) {
                self.st_nd.next = self.i_new.val();
            }
            if self.fp_at.val().get_bit(j - 1) {
                self.st_nd.next = self.m_new.val();
            }
            // (After the merges: a CAS's line passes an integer merge stage unchanged.)
            if (j == 2) && self.cas.fail.val() {
                self.st_nd.next =
                    (self.st_nd.val() & !self.sp_wmask[1].q.val()) | (self.cas.rep.val() & self.sp_wmask[1].q.val());
            }
            self.sp_data[j].d.next = self.st_nd.val();
            self.sp_rsp[j].d.next = self.sp_rsp[j - 1].q.val();
            if (j == 1) && self.ch_rsp.q.val() {
                self.sp_rsp[j].d.next = self.sp_rsp[0].q.val() & bit_cast::<128, 64>(self.y_r[0].q.val());
            }
            if (j == 2) && self.l1_rsp2.q.val() {
                self.sp_rsp[j].d.next = self.sp_rsp[1].q.val() & bit_cast::<128, 64>(self.y_r[0].q.val());
            }
            if (j == 1) && self.fp_chain.rsp_apply.val() {
                self.sp_rsp[j].d.next = self.sp_rsp[0].q.val() & self.fp_chain.rsp_val.val();
            }
            self.sp_status[j].d.next = self.sp_status[j - 1].q.val();
            self.sp_id[j].d.next = self.sp_id[j - 1].q.val();
            self.sp_sector[j].d.next = self.sp_sector[j - 1].q.val();
            self.sp_ww[j].d.next = self.sp_ww[j - 1].q.val();
            self.sp_wmask[j].d.next = self.sp_wmask[j - 1].q.val();
        }
        // The merges' write masks (the integer stage's, sM's FP), from what their stage
        // registers load (`sp_*[int_at].d`, `sp_*[fp_at].d`).
        self.i_iwm.d.next = self.zero128.val();
        self.m_fwm.d.next = self.zero128.val();
        for j in 0..self.sp_valid.len() {
            self.ra_nx.next =
                (self.sp_kind[j].d.val() == self.kind_red.val()) || (self.sp_kind[j].d.val() == self.kind_atom.val());
            if self.int_at.val().get_bit(j) && !self.sp_fp[j].d.val() && self.ra_nx.val() {
                self.i_iwm.d.next = self.sp_wmask[j].d.val();
            }
            if self.fp_at.val().get_bit(j) && self.sp_fp[j].d.val() && self.ra_nx.val() {
                self.m_fwm.d.next = self.sp_wmask[j].d.val();
            }
        }

        // ==========================================================================
        // sM: the FP result (ReductionAlu output) merges; write back; response.
        // ==========================================================================
        // The ALU's own valid and form outputs are not needed (sM carries both).
        self.unused_alu.next = self.alu.out_valid.val() ^ self.alu.out_form.val().any();
        // The write stage: sM itself (its new line from the merge), or in the registered
        // pipeline the stage after the FP merge (its new line a register).
        self.w_valid.next = false;
        self.w_ordered.next = false;
        self.w_line.next = self.zero_line.val();
        self.w_new.next = self.zero128.val();
        self.w_rsp.next = self.zero128.val();
        self.w_status.next = self.zero_status.val();
        self.w_id.next = self.zero_id.val();
        self.w_fp.next = false;
        self.w_we.d.next = false;
        self.w_ww.d.next = self.ones4.val();
        for j in 0..self.sp_valid.len() {
            if self.wr_at.val().get_bit(j) && self.regs.val() {
                self.w_ww.d.next = self.sp_ww[j].d.val();
            }
            if self.wr_at.val().get_bit(j) {
                self.w_we.d.next = self.sp_valid[j].d.val()
                    && self.sp_ordered[j].d.val()
                    && (self.sp_kind[j].d.val() != self.kind_ld.val());
                self.unused_wm.next = self.unused_wm.val() ^ self.sp_kind[j].q.val().any();
                self.w_valid.next = self.sp_valid[j].q.val();
                self.w_ordered.next = self.sp_ordered[j].q.val();
                self.w_line.next = self.sp_line[j].q.val();
                self.w_new.next = self.sp_data[j].q.val();
                self.w_rsp.next = self.sp_rsp[j].q.val();
                self.w_status.next = self.sp_status[j].q.val();
                self.w_id.next = self.sp_id[j].q.val();
                self.w_fp.next = self.sp_fp[j].q.val();
            }
        }
        if !self.regs.val() {
            self.w_new.next = self.m_new.val();
        }
        self.mem.write_enable.next = self.w_we.q.val();
        self.mem.write_words.next = self.w_ww.q.val();
        self.mem.write_addr.next = self.w_line.val();
        self.mem.write_data.next = self.w_new.val();
        // (No `reset` here: the FIFO loses a push in a reset cycle by itself.)
        self.rsp_fifo.push.next = self.w_valid.val();
        self.rsp_fifo.push_entry.next = bit_cast::<RSP_ENTRY_BITS, ID_WIDTH>(self.w_id.val())
            | (bit_cast::<RSP_ENTRY_BITS, 128>(self.w_rsp.val()) << self.r_data.val())
            | (bit_cast::<RSP_ENTRY_BITS, STATUS_WIDTH>(self.w_status.val()) << self.r_status.val());
        // sw: the lines written 1, 2, .. cycles ago.
        self.sw_valid[0].d.next = self.w_valid.val() && self.w_ordered.val() && !self.reset.val();
        self.sw_line[0].d.next = self.w_line.val();
        self.sw_data[0].d.next = self.w_new.val();
        self.sw_fp[0].d.next = self.w_fp.val();
        // (The registered pipeline finds its sources among the stages before the written lines
        // and reads `sw_data[k]` only for the next place: their valid bits, lines and the last
        // place's data are read by nothing else there; synthesis removes them.)
        self.unused_sw.next = false;
        for k in 0..self.sw_valid.len() {
            self.unused_sw.next = self.unused_sw.val()
                ^ self.sw_valid[k].q.val()
                ^ self.sw_line[k].q.val().any()
                ^ self.sw_data[k].q.val().any();
        }
        self.unused_sw.next = self.unused_sw.val() ^ self.fsel_sw.val().any();
        // (The last stage's words are read only through its `d` input, by the write.)
        for j in 0..self.sp_valid.len() {
            self.unused_sw.next = self.unused_sw.val() ^ self.sp_ww[j].q.val().any();
        }
        self.unused_sw.next = self.unused_sw.val() ^ self.fsel_r_sw.val().any();
        // (s1's select replicas are read for the sources before the written lines only.)
        for q in 0..4 {
            self.unused_sw.next = self.unused_sw.val() ^ self.fwd.sel_s[q].val().any();
        }
        for k in 1..self.sw_valid.len() {
            self.sw_valid[k].d.next = self.sw_valid[k - 1].q.val() && !self.reset.val();
            self.sw_line[k].d.next = self.sw_line[k - 1].q.val();
            self.sw_data[k].d.next = self.sw_data[k - 1].q.val();
            self.sw_fp[k].d.next = self.sw_fp[k - 1].q.val();
        }

        // ==========================================================================
        // Response port.
        // ==========================================================================
        self.rsp_fifo.out_ready.next = self.rsp_ready.val();
        self.rsp_valid.next = self.rsp_fifo.out_valid.val();
        self.rsp_id.next = self.rsp_fifo.out_entry.val().get_bits::<ID_WIDTH>(0);
        self.rsp_data.next = self.rsp_fifo.out_entry.val().get_bits::<128>(self.r_data.val().index());
        self.rsp_status.next = self.rsp_fifo.out_entry.val().get_bits::<STATUS_WIDTH>(self.r_status.val().index());
        self.cov_bus.rsp_misaligned.next = self.rsp_fire.val() && (self.rsp_status.val() == self.status_mis.val());
        self.cov_bus.rsp_out_of_range.next = self.rsp_fire.val() && (self.rsp_status.val() == self.status_oor.val());
        self.cov_bus.rsp_stall.next = self.rsp_fifo.out_valid.val() && !self.rsp_ready.val();
        self.cov_bus.reset_in_flight.next = self.reset.val() && self.credit.busy.val();
        self.cov.next = self.cov_bus.cov.val();
    }
}
