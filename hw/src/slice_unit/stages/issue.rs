//! Issue and read: the queue's pick into sc, si and sr (the RAM read through its output
//! register), the forwarding compares, the sources selected early, and the response credits.

use super::*;

/// The issue, sc, si and sr stages.
pub(super) enum IssueStage {}

impl Section<IssueStage> for SliceUnit {
    #[hdl_gen]
    fn update(&mut self) {
        // ==========================================================================
        // Issue: the queue picks the oldest eligible entry; the queue itself holds requests to
        // the line of an FP op in s1 or s2 (its result is not there yet when a dependent
        // request reaches s1). A request issues only with a response place reserved for it.
        // ==========================================================================
        self.queue.issue_enable.next = !self.credit.full.val();
        self.issue.next = self.queue.issue_valid.val();
        // The RAM read of the issued line (unordered requests read line 0, unused), from
        // `si_ra` two cycles later. The RAM is read through its output register: the op waits
        // a cycle in sr (its forwarding source found in sc and si, below).
        self.issue_ra.next = self.queue.issue_line.val();
        if !self.queue.issue_ordered.val() {
            self.issue_ra.next = self.zero_line.val();
        }
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
        self.mem.read_addr.next = self.si_ra.q.val();
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
        self.fp_a.next = self.zero128.val();
        self.fp_b.next = self.zero128.val();
        self.fsel_r_sw.next = self.zero32.val();
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
        self.fpre[0].d.next = self.fp_a.val();
        self.fpre[1].d.next = self.fp_b.val();
        self.s1_valid.d.next = self.sr_valid.q.val() && !self.reset.val();
        self.s1_ordered.d.next = self.sr_ordered.q.val();
        self.s1_line.d.next = self.sr_line.q.val();
        self.s1_payload.d.next = self.sr_payload.q.val();
        // Reserved response places (`Credits`): + issue, - response handshake.
        self.rsp_fire.next = self.rsp_fifo.out_valid.val() && self.rsp_ready.val();
        self.credit.issue.next = self.issue.val();
        self.credit.rsp_fire.next = self.rsp_fire.val();
        self.cov_bus.fp_hazard_wait.next = self.queue.cov_hazard_wait.val();
        self.cov_bus.line_wait.next = self.queue.cov_line_wait.val();
        self.cov_bus.queue_full.next = self.queue.cov_full.val();
        self.cov_bus.overtake.next = self.queue.cov_overtake.val();
        self.cov_bus.credit_stall.next = self.credit.full.val();
    }
}
