//! The compute stage (s1b): the old value to both ALUs, a chained op's operand from its loop,
//! and the result stage's registers (stores, `atom.cas`, the response's old value).

use super::*;

/// The old value extracted and the ALUs' operands.
pub(super) enum OperandStage {}

impl Section<OperandStage> for SliceUnit {
    #[hdl_gen]
    fn update(&mut self) {
        // ==========================================================================
        // The compute stage (s1b): old value to both ALUs; stores merge here; response data
        // fixed here.
        // ==========================================================================
        // The old value (`old line >> 8*offset`), shifted only where an access can put it
        // (`OldExtract`), once per group of consumers, each from replicas of s1b's line and
        // shift of its own (the fan-out of shared ones to the lanes' operand registers would be
        // the unit's worst critical path).
        for g in 0..5 {
            self.ox[g].clock.next = self.clock.val();
            self.ox[g].line.next = self.s1_old_line.val();
            self.ox[g].sh.next = self.access.dw_sh.val();
        }
        self.s1_old_mm.next = self.ox[1].old.val();
        self.s1_old_wide.next = self.ox[2].old.val();
        self.s1_old_int.next = self.ox[3].old.val();
        self.s1_old_rsp.next = self.ox[4].old.val();

        // Operand isolation (see `ReductionAlu`): the integer ALU loads for the integer
        // forms, its sector lanes for masked sector requests of them.
        self.int_alu.hold.next = !self.s1b_valid.q.val() || self.s1_fp.val();
        for i in 0..3 {
            self.int_lane[i].hold.next = !self.s1b_valid.q.val() || self.s1_fp.val() || !self.access.sector.val();
        }
        self.int_alu.op.next = self.s1_form.val().get_bits::<OP_WIDTH>(self.op_lsb.val().index());
        self.int_alu.ty.next = self.s1_form.val().get_bits::<TYPE_WIDTH>(self.ty_lsb.val().index());
        // A chained op's operand is its producer's result: from the ALU's own loop when the
        // producer is `Li` cycles ahead (`loop_a`), else from the registers after the ALU
        // (`ch_d`, one-hot).
        self.y_rr.d.next = self.y_r[0].q.val();
        self.ch_val.next = self.zero64.val();
        if self.ch_d[1].q.val() {
            self.ch_val.next = self.ch_val.val() | self.y_r[0].q.val();
        }
        if self.ch_d[2].q.val() {
            self.ch_val.next = self.ch_val.val() | self.y_rr.q.val();
        }
        self.ch_any.next = self.ch_d[1].q.val() || self.ch_d[2].q.val();
        if (self.ch_any.val() || self.ch_d[0].q.val() || self.l1_s1b.q.val()) && self.s1b_valid.q.val() {
            self.cov_bus.int_chain.next = true;
        }
        self.cov_bus.int_loop.next = self.ch_d[0].q.val() && !self.l1_s1b.q.val() && self.s1b_valid.q.val();
        self.cov_bus.int_loop1.next = self.l1_s1b.q.val() && self.s1b_valid.q.val();
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
        self.alu.in_valid.next = self.s1b_valid.q.val() && self.s1b_ordered.q.val() && self.s1_fp.val();
        self.alu.in_form.next = self.access.pre_form_c.val();
        // (The next ALU operation: s1's, which moves to s1b unstalled. Not cleared by `reset`:
        // it only lets the op's unit load its operands, and an op that the reset drops has no
        // valid result to merge; `reset`'s fan-out into the units' clock enables would be a
        // critical path.)
        self.alu.pre_valid.next = self.s1_valid.q.val() && self.s1_ordered.q.val() && self.s1r_fp.val();
        self.alu.pre_form.next = self.access.pre_form.val();
        // A chained FP op's old value: its lanes' own results (`loop_a`) or a result register
        // (`FpChain`'s `old_out`, else the old values from the line).
        self.fp_chain.old[0].next = self.ox[0].old.val();
        self.fp_chain.old[1].next = self.s1_old_mm.val();
        self.fp_chain.old[2].next = self.s1_old_wide.val();
        self.alu.in_old.next = self.fp_chain.old_out[0].val();
        self.alu.in_old_mm.next = self.fp_chain.old_out[1].val();
        self.alu.in_old_wide.next = self.fp_chain.old_out[2].val();
        self.alu.loop_a.next = self.fp_chain.loop_a.val();
        self.cov_bus.fp_loop.next = self.fp_chain.cov_loop.val();
        self.cov_bus.fp_loop_reg.next = self.fp_chain.cov_reg.val();
        self.alu.in_b.next = self.s1_data.val();
    }
}

/// The first result stage's registers (`sp_*[0]`): the line without the accessed bytes, a store's merge, the response data.
pub(super) enum ResultPlace {}

impl Section<ResultPlace> for SliceUnit {
    #[hdl_gen]
    fn update(&mut self) {
        self.sp_valid[0].d.next = self.s1b_valid.q.val() && !self.reset.val();
        self.sp_ordered[0].d.next = self.s1b_ordered.q.val();
        self.sp_line[0].d.next = self.s1b_line.q.val();
        self.sp_kind[0].d.next = self.s1_kind.val();
        self.sp_fp[0].d.next = self.s1_fp.val();
        self.sp_rep[0].d.next = self.access.rep.val();
        self.sp_status[0].d.next = self.s1_status.val();
        self.sp_id[0].d.next = self.s1_id.val();
        // `atom.cas` is a store (its swap value in the operand's low half) that merges as a
        // store does and returns the old value; the compare with the operand's upper half
        // comes a stage later, from registers (`CasCheck`), which puts the old bytes back
        // where it fails.
        self.s1_cas.next = (self.s1_kind.val() == self.kind_st.val()) && self.s1_form.val().get_bit(2);
        self.cas.load.next = self.s1b_valid.q.val() && self.s1b_ordered.q.val() && self.s1_cas.val();
        self.cas.b64.next = self.s1_form.val().get_bit(0);
        self.cas.data_hi.next = self.s1_data.val().get_bits::<96>(32);
        // The line without the accessed bytes; a store merges its data now; a load (and an
        // `atom.cas` whose compare fails) keeps the whole line.
        self.sp_data[0].d.next = self.s1b_old.q.val() & !self.access.wmask.val();
        if self.s1_kind.val() == self.kind_st.val() {
            self.sp_data[0].d.next = (self.s1b_old.q.val() & !self.access.st_mask.val())
                | (self.access.st_data.val() & self.access.st_mask.val());
        }
        if self.s1_kind.val() == self.kind_ld.val() {
            self.sp_data[0].d.next = self.s1b_old.q.val();
        }
        // A CAS in `sp_*[0]` whose old value differs from its compare value
        // (`CasCheck`) gets its old bytes back on the way from `sp_*[1]` to `sp_*[2]`: the old
        // value, still in `sp_rsp[1]`, replicated across the line and kept by the write mask.
        self.cas.old.next = self.sp_rsp[0].q.val().get_bits::<64>(0);
        self.cas.old_r.next = self.sp_rsp[1].q.val().get_bits::<64>(0);
        self.sp_rsp[0].d.next = self.zero128.val();
        if self.s1b_ordered.q.val()
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
                self.sp_rsp[0].d.next = self.s1b_old.q.val() & self.access.wmask.val();
            }
        }
        self.ch_rsp.d.next =
            self.ch_d[0].q.val() && !self.l1_s1b.q.val() && self.s1b_valid.q.val() && !self.reset.val();
        self.l1_rsp.d.next = self.l1_s1b.q.val() && self.s1b_valid.q.val() && !self.reset.val();
        self.l1_rsp2.d.next = self.l1_rsp.q.val() && !self.reset.val();
        self.sp_sector[0].d.next = self.access.sector.val();
        self.dly_int64.d.next = self.access.elog.val() == self.elog3.val();
        self.sp_wmask[0].d.next = self.access.wmask.val();
        self.sp_ww[0].d.next = self.s1b_ww.q.val();
    }
}
