//! The write stage (the last `sp_*`, after the FP merge): the write back to the RAM, the
//! response FIFO's push, and the written lines (`sw`) kept for forwarding.

use super::*;

/// The write stage, the RAM write, the response push and the written lines.
pub(super) enum WriteBack {}

impl Section<WriteBack> for SliceUnit {
    #[hdl_gen]
    fn update(&mut self) {
        // ==========================================================================
        // The write stage: write back; response.
        // ==========================================================================
        // The ALU's own valid and form outputs are not needed (the stages carry both).
        self.unused_alu.next = self.alu.out_valid.val() ^ self.alu.out_form.val().any();
        // The write stage: the stage after the FP merge (its new line a register).
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
            if self.wr_at.val().get_bit(j) {
                self.w_ww.d.next = self.sp_ww[j].d.val();
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
        // (The forwarding finds its sources among the stages before the written lines and
        // reads `sw_data[k]` only for the next place: their valid bits, lines and the last
        // place's data are read by nothing else; synthesis removes them.)
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
    }
}
