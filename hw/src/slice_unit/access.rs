//! The access's shift and byte masks, decoded from s1's payload (`dw_*`) and registered for
//! s1b (`rw_*`), and the ALU's forms of s1 and s1b, decoded from sr's payload.
//!
//! A block of its own: the decode reads two payload registers and feeds the compute stage's
//! merge, response mask and ALU form, and nothing of the unit feeds back into it.

use super::{P_DATA, P_MASK, P_OFF, P_SIZE, elem_log2_table};
use crate::k;
use crate::ordering_queue::QUEUE_PAYLOAD_BITS;
use rust_hdl::prelude::*;
use sim::form::encoding::{CODE_WIDTH, TYPE_LSB, TYPE_WIDTH, VEC_LSB, VEC_WIDTH};

#[derive(LogicBlock)]
pub(super) struct AccessDecode {
    pub clock: Signal<In, Clock>,
    /// s1's payload (s1b's a cycle later).
    pub payload: Signal<In, Bits<QUEUE_PAYLOAD_BITS>>,
    /// sr's payload (s1's of the next cycle), for the ALU forms.
    pub sr_payload: Signal<In, Bits<QUEUE_PAYLOAD_BITS>>,
    /// s1's shift (8 * offset), for the old-value extracts.
    pub dw_sh: Signal<Out, Bits<7>>,
    /// The computing stage's (s1b's) replication code, access mask, write mask, sector flag,
    /// store mask and shifted store data, log2 of the element bytes (`rw_*`).
    pub rep: Signal<Out, Bits<2>>,
    pub mask: Signal<Out, Bits<128>>,
    pub wmask: Signal<Out, Bits<128>>,
    pub sector: Signal<Out, Bit>,
    pub st_mask: Signal<Out, Bits<128>>,
    pub st_data: Signal<Out, Bits<128>>,
    pub elog: Signal<Out, Bits<2>>,
    /// The ALU forms (a sector request's vector field set to its full sector): s1's
    /// (`pre_form_r`) and s1b's (`pre_form_rr`).
    pub pre_form: Signal<Out, Bits<CODE_WIDTH>>,
    pub pre_form_c: Signal<Out, Bits<CODE_WIDTH>>,

    dw_mask8: Signal<Local, Bits<8>>,
    dw_ty2: Signal<Local, Bits<8>>,
    dw_elogw: Signal<Local, Bits<32>>,
    dw_exp: Signal<Local, Bits<128>>,
    dw_payload: Signal<Local, Bits<QUEUE_PAYLOAD_BITS>>,
    unused_dw: Signal<Local, Bit>,
    dw_form: Signal<Local, Bits<CODE_WIDTH>>,
    dw_off: Signal<Local, Bits<4>>,
    dw_size: Signal<Local, Bits<3>>,
    dw_data: Signal<Local, Bits<128>>,
    dw_mask: Signal<Local, Bits<128>>,
    dw_sector: Signal<Local, Bit>,
    dw_elog: Signal<Local, Bits<2>>,
    dw_wmask: Signal<Local, Bits<128>>,
    dw_stm: Signal<Local, Bits<128>>,
    dw_std: Signal<Local, Bits<128>>,
    dw_rep: Signal<Local, Bits<2>>,
    rw_rep: DFF<Bits<2>>,
    rw_mask: DFF<Bits<128>>,
    rw_wmask: DFF<Bits<128>>,
    rw_sector: DFF<Bit>,
    rw_elog: DFF<Bits<2>>,
    rw_stm: DFF<Bits<128>>,
    rw_std: DFF<Bits<128>>,
    /// `pre_form` as a register: s1's ALU form decoded a cycle
    /// early from sr's payload (`sr_*`), so that the ALU's form decode starts from a
    /// register (decoded from s1's payload, the two decodes in series and the logic Yosys
    /// shared with s1's make the worst critical paths).
    pre_form_r: DFF<Bits<CODE_WIDTH>>,
    /// s1b's ALU form: `pre_form_r` a cycle later (s1 moves to
    /// s1b unstalled), instead of a second decode of the same form from the `rw_*` cuts.
    pre_form_rr: DFF<Bits<CODE_WIDTH>>,
    sr_form: Signal<Local, Bits<CODE_WIDTH>>,
    sr_ty2: Signal<Local, Bits<8>>,
    sr_elogw: Signal<Local, Bits<32>>,
    sr_vecf: Signal<Local, Bits<2>>,
    sr_alu_form: Signal<Local, Bits<CODE_WIDTH>>,
    unused_sr: Signal<Local, Bit>,

    p_off: Constant<Bits<8>>,
    p_size: Constant<Bits<8>>,
    p_data: Constant<Bits<8>>,
    p_mask: Constant<Bits<8>>,
    ty_lsb: Constant<Bits<4>>,
    vec_lsb: Constant<Bits<4>>,
    vec_clear: Constant<Bits<CODE_WIDTH>>,
    elem_log2_tbl: Constant<Bits<32>>,
    off_even: Constant<Bits<4>>,
    one8: Constant<Bits<8>>,
    three7: Constant<Bits<7>>,
    zero2: Constant<Bits<2>>,
    size1: Constant<Bits<3>>,
    size2: Constant<Bits<3>>,
    size3: Constant<Bits<3>>,
    elog1: Constant<Bits<2>>,
    elog2: Constant<Bits<2>>,
    mask16: Constant<Bits<128>>,
    mask32: Constant<Bits<128>>,
    mask64: Constant<Bits<128>>,
    mask128: Constant<Bits<128>>,
    zero128: Constant<Bits<128>>,
    rep16: Constant<Bits<2>>,
    rep32: Constant<Bits<2>>,
    rep64: Constant<Bits<2>>,
    rep128: Constant<Bits<2>>,
}

impl AccessDecode {
    pub(super) fn new() -> Self {
        Self {
            clock: Default::default(),
            payload: Default::default(),
            sr_payload: Default::default(),
            dw_sh: Default::default(),
            rep: Default::default(),
            mask: Default::default(),
            wmask: Default::default(),
            sector: Default::default(),
            st_mask: Default::default(),
            st_data: Default::default(),
            elog: Default::default(),
            pre_form: Default::default(),
            pre_form_c: Default::default(),
            dw_mask8: Default::default(),
            dw_ty2: Default::default(),
            dw_elogw: Default::default(),
            dw_exp: Default::default(),
            dw_payload: Default::default(),
            unused_dw: Default::default(),
            dw_form: Default::default(),
            dw_off: Default::default(),
            dw_size: Default::default(),
            dw_data: Default::default(),
            dw_mask: Default::default(),
            dw_sector: Default::default(),
            dw_elog: Default::default(),
            dw_wmask: Default::default(),
            dw_stm: Default::default(),
            dw_std: Default::default(),
            dw_rep: Default::default(),
            rw_rep: Default::default(),
            rw_mask: Default::default(),
            rw_wmask: Default::default(),
            rw_sector: Default::default(),
            rw_elog: Default::default(),
            rw_stm: Default::default(),
            rw_std: Default::default(),
            pre_form_r: Default::default(),
            pre_form_rr: Default::default(),
            sr_form: Default::default(),
            sr_ty2: Default::default(),
            sr_elogw: Default::default(),
            sr_vecf: Default::default(),
            sr_alu_form: Default::default(),
            unused_sr: Default::default(),
            p_off: k(P_OFF as u128),
            p_size: k(P_SIZE as u128),
            p_data: k(P_DATA as u128),
            p_mask: k(P_MASK as u128),
            ty_lsb: k(TYPE_LSB as u128),
            vec_lsb: k(VEC_LSB as u128),
            vec_clear: k(((1u128 << CODE_WIDTH) - 1) & !(((1u128 << VEC_WIDTH) - 1) << VEC_LSB)),
            elem_log2_tbl: k(elem_log2_table()),
            off_even: k(0b1110),
            one8: k(1),
            three7: k(3),
            zero2: k(0),
            size1: k(1),
            size2: k(2),
            size3: k(3),
            elog1: k(1),
            elog2: k(2),
            mask16: k(u16::MAX as u128),
            mask32: k(u32::MAX as u128),
            mask64: k(u64::MAX as u128),
            mask128: k(u128::MAX),
            zero128: k(0),
            rep16: k(0),
            rep32: k(1),
            rep64: k(2),
            rep128: k(3),
        }
    }
}

impl Logic for AccessDecode {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, pre_form_r, pre_form_rr);
        dff_setup!(self, clock, rw_rep, rw_mask, rw_wmask, rw_sector, rw_elog, rw_stm, rw_std);
        // (s1's payload: s1b computes a cycle later.)
        self.dw_payload.next = self.payload.val();
        self.dw_form.next = self.dw_payload.val().get_bits::<CODE_WIDTH>(0);
        // (Its other fields are read from the computing stage's payload; all of it counts as
        // used here.)
        self.unused_dw.next = self.dw_payload.val().any() ^ self.dw_form.val().any();
        // (Bit 0 cleared: every access that reads or writes the line is 2-byte aligned or
        // more, a misaligned one is an unordered error; the shifts then have 8 places, not 16.)
        self.dw_off.next = self.dw_payload.val().get_bits::<4>(self.p_off.val().index()) & self.off_even.val();
        self.dw_size.next = self.dw_payload.val().get_bits::<3>(self.p_size.val().index());
        self.dw_data.next = self.dw_payload.val().get_bits::<128>(self.p_data.val().index());
        self.dw_sh.next = bit_cast::<7, 4>(self.dw_off.val()) << self.three7.val();
        self.dw_mask.next = self.mask128.val();
        self.dw_rep.next = self.rep128.val();
        if self.dw_size.val() == self.size1.val() {
            self.dw_mask.next = self.mask16.val();
            self.dw_rep.next = self.rep16.val();
        } else if self.dw_size.val() == self.size2.val() {
            self.dw_mask.next = self.mask32.val();
            self.dw_rep.next = self.rep32.val();
        } else if self.dw_size.val() == self.size3.val() {
            self.dw_mask.next = self.mask64.val();
            self.dw_rep.next = self.rep64.val();
        }
        // The bytes the request writes in its line (`dw_wmask`): the access (plain), or the
        // enabled elements of the form's element size (masked sector request; offset 0).
        self.dw_mask8.next = self.dw_payload.val().get_bits::<8>(self.p_mask.val().index());
        self.dw_sector.next = self.dw_mask8.val().any();
        self.dw_ty2.next =
            bit_cast::<8, TYPE_WIDTH>(self.dw_form.val().get_bits::<TYPE_WIDTH>(self.ty_lsb.val().index()))
                << self.one8.val();
        self.dw_elogw.next = self.elem_log2_tbl.val() >> self.dw_ty2.val();
        self.dw_elog.next = self.dw_elogw.val().get_bits::<2>(0);
        self.dw_exp.next = self.zero128.val();
        if self.dw_elog.val() == self.elog1.val() {
            for i in 0..8 {
                self.dw_exp.next = self.dw_exp.val() << 16;
                if self.dw_mask8.val().get_bit(7 - i) {
                    self.dw_exp.next = self.dw_exp.val() | self.mask16.val();
                }
            }
        } else if self.dw_elog.val() == self.elog2.val() {
            for i in 0..4 {
                self.dw_exp.next = self.dw_exp.val() << 32;
                if self.dw_mask8.val().get_bit(3 - i) {
                    self.dw_exp.next = self.dw_exp.val() | self.mask32.val();
                }
            }
        } else {
            for i in 0..2 {
                self.dw_exp.next = self.dw_exp.val() << 64;
                if self.dw_mask8.val().get_bit(1 - i) {
                    self.dw_exp.next = self.dw_exp.val() | self.mask64.val();
                }
            }
        }
        // The access's bytes in its line (a store's, whatever its mask).
        self.dw_stm.next = self.dw_mask.val() << self.dw_sh.val();
        self.dw_wmask.next = self.dw_stm.val();
        if self.dw_sector.val() {
            self.dw_wmask.next = self.dw_exp.val();
            self.dw_rep.next = self.rep128.val();
        }
        // A store's data in its line: the data shifted; the merge masks it with the shifted
        // mask (`st_mask`), so the shift does not wait for the size decode. (Masked here, the
        // mask decode and the shift in series are a critical path; in the merge the mask is
        // an input it reads anyway.)
        self.dw_std.next = self.dw_data.val() << self.dw_sh.val();
        self.rw_rep.d.next = self.dw_rep.val();
        self.rw_mask.d.next = self.dw_mask.val();
        self.rw_wmask.d.next = self.dw_wmask.val();
        self.rw_sector.d.next = self.dw_sector.val();
        // The ALU's next form (`pre_form`): s1's, decoded from sr's payload into a register
        // (`pre_form_r`; s1's payload is sr's of the cycle before; s1b's form is
        // `pre_form_rr`, the same a cycle later). The ALU computes a sector request as the
        // full-sector vector of its type (vec field 4 - log2 element bytes: v8 16-bit, v4
        // 32-bit, v2 64-bit) and the merge keeps only the enabled elements.
        self.sr_form.next = self.sr_payload.val().get_bits::<CODE_WIDTH>(0);
        self.sr_ty2.next =
            bit_cast::<8, TYPE_WIDTH>(self.sr_form.val().get_bits::<TYPE_WIDTH>(self.ty_lsb.val().index()))
                << self.one8.val();
        self.sr_elogw.next = self.elem_log2_tbl.val() >> self.sr_ty2.val();
        self.sr_vecf.next = self.zero2.val() - self.sr_elogw.val().get_bits::<2>(0);
        self.sr_alu_form.next = self.sr_form.val();
        if self.sr_payload.val().get_bits::<8>(self.p_mask.val().index()).any() {
            self.sr_alu_form.next = (self.sr_form.val() & self.vec_clear.val())
                | (bit_cast::<CODE_WIDTH, 2>(self.sr_vecf.val()) << self.vec_lsb.val());
        }
        self.pre_form_r.d.next = self.sr_alu_form.val();
        self.pre_form_rr.d.next = self.pre_form_r.q.val();
        self.pre_form.next = self.pre_form_r.q.val();
        self.pre_form_c.next = self.pre_form_rr.q.val();
        self.rw_elog.d.next = self.dw_elog.val();
        self.rw_stm.d.next = self.dw_stm.val();
        self.rw_std.d.next = self.dw_std.val();
        self.rep.next = self.rw_rep.q.val();
        self.mask.next = self.rw_mask.q.val();
        self.wmask.next = self.rw_wmask.q.val();
        self.sector.next = self.rw_sector.q.val();
        self.st_mask.next = self.rw_stm.q.val();
        self.st_data.next = self.rw_std.q.val();
        self.elog.next = self.rw_elog.q.val();
        // Unused: the rest of the element-size table, sr's payload but its form and mask.
        self.unused_sr.next = self.dw_elogw.val().any() ^ self.sr_elogw.val().any() ^ self.sr_payload.val().any();
    }
}
