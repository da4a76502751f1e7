//! What the stages read of the compute stage's registers and of the two merge stages: the
//! decoded op of s1 (s1b), the integer and FP merge stages' lines, the results merged into them.

use super::*;

/// The compute stage's decoded payload; the merge stages as views of their `sp_*` registers.
pub(super) enum StageViews {}

impl Section<StageViews> for SliceUnit {
    #[hdl_gen]
    fn update(&mut self) {
        // ==========================================================================
        // Decode of the compute stage's registers (s1b), and the new lines of the integer and
        // the FP merge stages: read by the issue and forwarding logic below.
        // ==========================================================================
        self.s1r_fp.next = self.s1_payload.q.val().get_bit(self.p_fp.val().index());
        self.s1_op.next = self.s1b_payload.q.val().get_bits::<REQ_OP_WIDTH>(0);
        self.s1_form.next = self.s1_op.val().get_bits::<CODE_WIDTH>(0);
        self.s1_kind.next = self.s1_op.val().get_bits::<KIND_WIDTH>(self.kind_lsb.val().index());
        self.s1_fp.next = self.s1b_payload.q.val().get_bit(self.p_fp.val().index());
        self.s1_status.next = self.s1b_payload.q.val().get_bits::<STATUS_WIDTH>(self.p_status.val().index());
        self.s1_id.next = self.s1b_payload.q.val().get_bits::<ID_WIDTH>(self.p_id.val().index());
        self.s1_data.next = self.s1b_payload.q.val().get_bits::<128>(self.p_data.val().index());
        // The access's shift and byte masks (`AccessDecode`), decoded from s1's payload and
        // registered for s1b, so the masks do not sit between s1b's payload and the line merge.
        self.access.payload.next = self.s1_payload.q.val();
        self.access.sr_payload.next = self.sr_payload.q.val();
        // The integer merge stage (`sp_*[Li]`) and the FP merge stage sM (`sp_*[L]`), as views
        // of their `sp_*` registers (a constant selects the stage).
        self.i_rep.next = self.rep128.val();
        self.i_base.next = self.zero128.val();
        self.i_sector.next = false;
        self.m_rep.next = self.rep128.val();
        self.m_data.next = self.zero128.val();
        // (s1b's form is read in parts: its op, type and flags.)
        self.unused_wm.next = self.s1_form.val().any();
        for j in 0..self.sp_valid.len() {
            if self.int_at.val().get_bit(j) {
                self.i_rep.next = self.sp_rep[j].q.val();
                self.i_base.next = self.sp_data[j].q.val();
                self.i_sector.next = self.sp_sector[j].q.val();
            }
            if self.fp_at.val().get_bit(j) {
                self.m_rep.next = self.sp_rep[j].q.val();
                self.m_data.next = self.sp_data[j].q.val();
                self.unused_wm.next = self.unused_wm.val() ^ self.sp_wmask[j].q.val().any();
            }
        }
        // The integer results (registered once more: `y_r`) and the FP result (`out_r`),
        // merged into their stages' lines (`ResultMerge`).
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
    }
}
