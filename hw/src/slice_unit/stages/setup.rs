//! The clocks and resets of the unit's registers and sub-blocks, and the defaults of the
//! pipeline stages' inputs and of the coverage events set in more than one stage.

use super::*;

/// Clocks, resets and the defaults later sections override.
pub(super) enum Clocking {}

impl Section<Clocking> for SliceUnit {
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
            self.ch_pre[d].clock.next = self.clock.val();
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
    }
}
