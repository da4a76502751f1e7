//! s2 .. sM: each stage takes the one before; the integer and FP results merge in their stages.

use super::*;

/// The stages after the compute stage, and the merges' write masks.
pub(super) enum CarryStages {}

impl Section<CarryStages> for SliceUnit {
    #[hdl_gen]
    fn update(&mut self) {
        // ==========================================================================
        // s2 .. sM: each stage takes the one before; the integer result merges in its stage
        // (`i_new`, into `sp_*[Li + 1]`), the FP ALU works through them.
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
            // (A fast chain's producer result is in `y_r[0]` the cycle its consumer is in
            // `sp_*[Li - 1]`: it joins on the way to `sp_*[Li]`.)
            if (j == 1) && self.int_one.val() && self.l1_rsp.q.val() {
                self.sp_rsp[j].d.next = self.sp_rsp[0].q.val() & bit_cast::<128, 64>(self.y_r[0].q.val());
            }
            if (j == 2) && !self.int_one.val() && self.l1_rsp2.q.val() {
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
    }
}
