//! s1: the RAM's data meets the forwarded line, and a chained op finds its producer.

use super::*;

/// s1's old line: the youngest in-flight version of the line, or the RAM's data.
pub(super) enum ForwardStage {}

impl Section<ForwardStage> for SliceUnit {
    #[hdl_gen]
    fn update(&mut self) {
        // ==========================================================================
        // s1: the RAM's data arrives and meets the youngest in-flight version of the line,
        // selected among registers; the line is registered for s1b, which computes.
        // ==========================================================================
        self.s1_fwd_fp.next = false;
        // The forwarded line: `fpre` (zero unless a source selected in sr is taken) and the
        // sources selected now, each quarter by its own replicas of the select; `rfm` puts it
        // over the RAM's data in the quarters where a source is taken.
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
        // The source found in sc and si, part selected in sr: an AND-OR of registers (each
        // quarter of the line by its own replicas of the select; the RAM's data joins in
        // `rfm`, after the forwarded sources).
        self.s1_old_line.next = self.rfm.out.val();
        for j in 0..self.sp_valid.len() {
            if self.fwd.fsel.val().get_bit(j) {
                // Coverage: from s2, from the write stage (an FP chain when both are FP), from
                // the stages between.
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
        self.cov_bus.fp_chain.next = self.s1_fwd_fp.val();
    }
}

/// s1's chains: the sources decided in sr (`ChainPick`) registered for s1b; the line to s1b.
pub(super) enum ChainDetect {}

impl Section<ChainDetect> for SliceUnit {
    #[hdl_gen]
    fn update(&mut self) {
        // (No reset: a reset drops s1's op, and for an op not valid in s1b `ch_d` only chooses
        // operands; `ch_pre` is cleared.)
        for d in 0..3 {
            self.ch_d[d].d.next = self.ch_pre[d].q.val();
        }
        self.fp_chain.reset.next = self.reset.val();
        self.fp_chain.c_valid.next = self.s1b_valid.q.val();
        self.fp_chain.out_d.next = self.alu.out_data.val();
        self.fp_chain.out_r.next = self.out_r.q.val();
        // A fast chain's consumer a cycle behind its producer (found in sc, `fwd.l1`).
        self.l1_sr.d.next = self.fwd.l1.val();
        self.l1_s1.d.next = self.l1_sr.q.val();
        self.l1_s1b.d.next = self.l1_s1.q.val();
        // The forwarded line is registered (s1b) before the op computes.
        self.s1b_valid.d.next = self.s1_valid.q.val() && !self.reset.val();
        self.s1b_ordered.d.next = self.s1_ordered.q.val();
        self.s1b_line.d.next = self.s1_line.q.val();
        self.s1b_payload.d.next = self.s1_payload.q.val();
        self.s1b_old.d.next = self.s1_old_line.val();
    }
}

/// sr's chains: an integer or FP red/atom whose forwarding source in s1 will be its chain
/// producer takes its operand from the loop; decided a stage ahead, from sr's op, the select
/// s1 will have (`fsel_nx`) and what the stages load now (`sp_*[j].d`, what `sp_*[j]` holds
/// when the op is in s1), so that s1b's selects leave registers. Joined after `CarryStages`,
/// out of pipeline order: it reads the `sp_*[j].d` that the stages before it assign.
pub(super) enum ChainPick {}

impl Section<ChainPick> for SliceUnit {
    #[hdl_gen]
    fn update(&mut self) {
        // The integer loop: an integer red/atom whose forwarding source
        // is an integer red/atom within the chain distance is its chain producer (the queue
        // lets only those so close; see "The integer loop"), and takes that op's result from
        // the ALU's loop in s1b: the line from the source is right but for those bytes.
        self.sr_op.next = self.sr_payload.q.val().get_bits::<REQ_OP_WIDTH>(0);
        self.sr_kind.next = self.sr_op.val().get_bits::<KIND_WIDTH>(self.kind_lsb.val().index());
        self.sr_fp.next = self.sr_payload.q.val().get_bit(self.p_fp.val().index());
        self.sr_plain.next = self.sr_valid.q.val()
            && self.sr_ordered.q.val()
            && !self.sr_payload.q.val().get_bits::<8>(self.p_mask.val().index()).any();
        // (The op bits beside the kind count as read, the queue's issue payload of the pick's
        // cycle (si takes the late one) and its `push_ready` (the accept reads the next one).)
        self.unused_decode.next =
            self.sr_op.val().any() ^ self.queue.issue_payload.val().any() ^ self.queue.push_ready.val();
        self.ch_me.next = self.sr_plain.val()
            && !self.sr_fp.val()
            && ((self.sr_kind.val() == self.kind_red.val()) || (self.sr_kind.val() == self.kind_atom.val()));
        for d in 0..3 {
            self.ch_nx[d].next = false;
        }
        for j in 0..self.sp_valid.len() {
            self.ch_p.next = self.ch_me.val()
                && self.fwd.fsel_nx.val().get_bit(j)
                && !self.sp_fp[j].d.val()
                && !self.sp_sector[j].d.val()
                && ((self.sp_kind[j].d.val() == self.kind_red.val())
                    || (self.sp_kind[j].d.val() == self.kind_atom.val()));
            for d in 0..3 {
                if self.ch_p.val() && self.ch_m[d].val().get_bit(j) {
                    self.ch_nx[d].next = true;
                }
            }
        }
        for d in 0..3 {
            self.ch_pre[d].d.next = self.ch_nx[d].val() && !self.reset.val();
        }
        // The FP loop: an FP red/atom whose forwarding source is a plain
        // FP op within the FP chain distance is its chain producer (`FpChain`).
        self.fch_pv.next = self.zero32.val();
        for j in 0..self.sp_valid.len() {
            self.fch_pb.next = self.sp_fp[j].d.val() && !self.sp_sector[j].d.val();
            self.fch_pv.next =
                (self.fch_pv.val() >> 1) | (bit_cast::<32, 1>(self.fch_pb.val().into()) << self.top31.val());
        }
        self.fp_chain.me.next = self.sr_plain.val() && self.sr_fp.val();
        self.fp_chain.prod.next = self.fch_pv.val() >> self.fch_sh.val();
        self.fp_chain.fsel.next = self.fwd.fsel_nx.val();
    }
}
