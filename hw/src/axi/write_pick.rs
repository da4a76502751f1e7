//! [`WritePick`]: the unit request of the write channel this cycle, combinational from the
//! write engine's registers and the W bus (a block of its own so that the statements that
//! read the request handshake are in another module: see [`super::write::AxiWrite`]).
//!
//! A plain write beat becomes unit stores of its *full* 4-byte groups (all four strobes set),
//! one per cycle, widest first: the whole line (`st.b128`), an aligned half (`st.b64`), else
//! the lowest group (`st.b32`). A beat with a *partial* group (one to three of its strobes
//! set), or any beat of a refused burst, first sends a *poison* request (`ld.b128` at the
//! line + 1, which the unit answers `misaligned`: the burst's `BRESP` becomes `SLVERR`); the
//! partial groups are not written. A beat with no strobe at all sends `ld.b128` of its line
//! (no effect on memory) so that every beat has a response to wait for. An atomic sends its
//! one request on its last W beat (earlier beats of a multi-beat atomic are taken and
//! dropped: such an atomic is refused); AtomicCompare sends the unit's `atom.cas`; AtomicSwap
//! sends two, a load and then the store, and takes the W beat with the second.

use crate::k;
use rust_hdl::prelude::*;
use sim::memory::req_encoding::REQ_OP_WIDTH;
use sim::{Access, Width};

#[derive(LogicBlock)]
pub struct WritePick {
    // Engine state.
    pub busy: Signal<In, Bit>,
    pub atomic: Signal<In, Bit>,
    pub bad: Signal<In, Bit>,
    pub inv: Signal<In, Bit>,
    /// The atomic has a read response.
    pub ret: Signal<In, Bit>,
    /// AtomicSwap ([`super::decode::AtopDecode`]): `ph` low sends the load `xld`, high the
    /// store `xst` of `sw_data`. AtomicCompare (`cas`): `sw_data` is the `atom.cas` operand.
    pub xchg: Signal<In, Bit>,
    pub cas: Signal<In, Bit>,
    pub ph: Signal<In, Bit>,
    pub xld: Signal<In, Bits<REQ_OP_WIDTH>>,
    pub xst: Signal<In, Bits<REQ_OP_WIDTH>>,
    pub sw_data: Signal<In, Bits<128>>,
    pub op: Signal<In, Bits<REQ_OP_WIDTH>>,
    pub addr: Signal<In, Bits<32>>,
    pub last_beat: Signal<In, Bit>,
    /// Groups of this beat already stored.
    pub done: Signal<In, Bits<4>>,
    /// This beat's poison request already sent.
    pub pdone: Signal<In, Bit>,
    // W bus.
    pub wvalid: Signal<In, Bit>,
    pub wdata: Signal<In, Bits<128>>,
    pub wstrb: Signal<In, Bits<16>>,
    // The request.
    pub q_valid: Signal<Out, Bit>,
    pub q_op: Signal<Out, Bits<REQ_OP_WIDTH>>,
    pub q_addr: Signal<Out, Bits<32>>,
    pub q_data: Signal<Out, Bits<128>>,
    /// Response shift (16-bit steps) that puts the old value on its byte lanes.
    pub q_shift: Signal<Out, Bits<3>>,
    pub q_r: Signal<Out, Bit>,
    pub q_b: Signal<Out, Bit>,
    /// Groups this request stores; it is a poison request; it is the beat's last request.
    pub chunk: Signal<Out, Bits<4>>,
    pub poison: Signal<Out, Bit>,
    pub beat_end: Signal<Out, Bit>,
    /// A W beat of an atomic before its last: taken without a request.
    pub swallow: Signal<Out, Bit>,

    // Full groups not yet stored; a partial group.
    r0: Signal<Local, Bit>,
    r1: Signal<Local, Bit>,
    r2: Signal<Local, Bit>,
    r3: Signal<Local, Bit>,
    part: Signal<Local, Bit>,
    perr: Signal<Local, Bit>,
    // Some full group is left; what is left fits one store (none, one group, a half, the line).
    any_r: Signal<Local, Bit>,
    fits: Signal<Local, Bit>,
    line: Signal<Local, Bits<32>>,
    sh: Signal<Local, Bits<8>>,
    op_ld128: Constant<Bits<REQ_OP_WIDTH>>,
    op_st128: Constant<Bits<REQ_OP_WIDTH>>,
    op_st64: Constant<Bits<REQ_OP_WIDTH>>,
    op_st32: Constant<Bits<REQ_OP_WIDTH>>,
    line_mask: Constant<Bits<32>>,
    a1: Constant<Bits<32>>,
    a4: Constant<Bits<32>>,
    a8: Constant<Bits<32>>,
    a12: Constant<Bits<32>>,
    c4: Constant<Bits<4>>,
    c32: Constant<Bits<8>>,
    c64: Constant<Bits<8>>,
    c96: Constant<Bits<8>>,
    g_all: Constant<Bits<4>>,
    g_lo: Constant<Bits<4>>,
    g_hi: Constant<Bits<4>>,
    g0: Constant<Bits<4>>,
    g1: Constant<Bits<4>>,
    g2: Constant<Bits<4>>,
    g3: Constant<Bits<4>>,
    ones: Constant<Bits<128>>,
    zeros: Constant<Bits<128>>,
}

impl Default for WritePick {
    fn default() -> Self {
        let code = |a: Access| k::<REQ_OP_WIDTH>(a.code() as u128);
        Self {
            busy: Default::default(),
            atomic: Default::default(),
            bad: Default::default(),
            inv: Default::default(),
            ret: Default::default(),
            xchg: Default::default(),
            cas: Default::default(),
            ph: Default::default(),
            xld: Default::default(),
            xst: Default::default(),
            sw_data: Default::default(),
            op: Default::default(),
            addr: Default::default(),
            last_beat: Default::default(),
            done: Default::default(),
            pdone: Default::default(),
            wvalid: Default::default(),
            wdata: Default::default(),
            wstrb: Default::default(),
            q_valid: Default::default(),
            q_op: Default::default(),
            q_addr: Default::default(),
            q_data: Default::default(),
            q_shift: Default::default(),
            q_r: Default::default(),
            q_b: Default::default(),
            chunk: Default::default(),
            poison: Default::default(),
            beat_end: Default::default(),
            swallow: Default::default(),
            r0: Default::default(),
            r1: Default::default(),
            r2: Default::default(),
            r3: Default::default(),
            part: Default::default(),
            perr: Default::default(),
            any_r: Default::default(),
            fits: Default::default(),
            line: Default::default(),
            sh: Default::default(),
            op_ld128: code(Access::Ld(Width::B128)),
            op_st128: code(Access::St(Width::B128)),
            op_st64: code(Access::St(Width::B64)),
            op_st32: code(Access::St(Width::B32)),
            line_mask: k(!15u32 as u128),
            a1: k(1),
            a4: k(4),
            a8: k(8),
            a12: k(12),
            c4: k(4),
            c32: k(32),
            c64: k(64),
            c96: k(96),
            g_all: k(0xf),
            g_lo: k(0x3),
            g_hi: k(0xc),
            g0: k(1),
            g1: k(2),
            g2: k(4),
            g3: k(8),
            ones: k(u128::MAX),
            zeros: k(0),
        }
    }
}

impl Logic for WritePick {
    #[hdl_gen]
    fn update(&mut self) {
        self.r0.next = self.wstrb.val().get_bits::<4>(0).all() && !self.done.val().get_bit(0);
        self.r1.next = self.wstrb.val().get_bits::<4>(4).all() && !self.done.val().get_bit(1);
        self.r2.next = self.wstrb.val().get_bits::<4>(8).all() && !self.done.val().get_bit(2);
        self.r3.next = self.wstrb.val().get_bits::<4>(12).all() && !self.done.val().get_bit(3);
        self.part.next = (self.wstrb.val().get_bits::<4>(0).any() && !self.wstrb.val().get_bits::<4>(0).all())
            || (self.wstrb.val().get_bits::<4>(4).any() && !self.wstrb.val().get_bits::<4>(4).all())
            || (self.wstrb.val().get_bits::<4>(8).any() && !self.wstrb.val().get_bits::<4>(8).all())
            || (self.wstrb.val().get_bits::<4>(12).any() && !self.wstrb.val().get_bits::<4>(12).all());
        self.perr.next = (self.part.val() || self.bad.val()) && !self.pdone.val();
        // (The beat's end as one flat function of the groups left, not through the store choice
        // below: it feeds `AWREADY` and the engine's next transaction in the same cycle.)
        self.any_r.next = self.r0.val() || self.r1.val() || self.r2.val() || self.r3.val();
        self.fits.next = !((self.r0.val() && (self.r1.val() || self.r2.val() || self.r3.val()))
            || (self.r1.val() && (self.r2.val() || self.r3.val()))
            || (self.r2.val() && self.r3.val()))
            || (self.r0.val() && self.r1.val() && !self.r2.val() && !self.r3.val())
            || (!self.r0.val() && !self.r1.val() && self.r2.val() && self.r3.val())
            || (self.r0.val() && self.r1.val() && self.r2.val() && self.r3.val());
        self.line.next = self.addr.val() & self.line_mask.val();
        self.sh.next = bit_cast::<8, 3>(self.addr.val().get_bits::<3>(1)) << self.c4.val();

        self.q_op.next = self.op_ld128.val();
        self.q_addr.next = self.line.val();
        self.q_data.next = self.wdata.val();
        self.q_shift.next = self.zeros.val().get_bits::<3>(0);
        self.q_r.next = false;
        self.chunk.next = self.zeros.val().get_bits::<4>(0);
        self.poison.next = false;
        self.swallow.next = false;
        if self.atomic.val() {
            self.swallow.next = self.busy.val() && self.wvalid.val() && !self.last_beat.val();
            self.q_valid.next = self.busy.val() && self.wvalid.val() && self.last_beat.val();
            self.q_op.next = self.op.val();
            self.q_addr.next = self.addr.val();
            if self.inv.val() {
                self.q_data.next = (self.wdata.val() >> self.sh.val()) ^ self.ones.val();
            } else {
                self.q_data.next = self.wdata.val() >> self.sh.val();
            }
            self.q_shift.next = self.addr.val().get_bits::<3>(1);
            self.q_r.next = self.ret.val();
            self.beat_end.next = true;
            self.q_b.next = true;
            if self.bad.val() {
                self.q_op.next = self.op_ld128.val();
                self.q_addr.next = self.line.val() | self.a1.val();
            }
            if self.xchg.val() && !self.ph.val() {
                // The load: its response is the R beat; the W beat stays on the bus.
                self.q_op.next = self.xld.val();
                self.q_b.next = false;
                self.beat_end.next = false;
            } else if self.xchg.val() {
                self.q_op.next = self.xst.val();
                self.q_data.next = self.sw_data.val();
                self.q_r.next = false;
            } else if self.cas.val() {
                self.q_data.next = self.sw_data.val();
            }
        } else {
            self.q_valid.next = self.busy.val() && self.wvalid.val();
            self.beat_end.next = self.fits.val();
            if self.perr.val() {
                self.q_addr.next = self.line.val() | self.a1.val();
                self.poison.next = true;
                self.beat_end.next = self.bad.val() || !self.any_r.val();
            } else if self.r0.val() && self.r1.val() && self.r2.val() && self.r3.val() {
                self.q_op.next = self.op_st128.val();
                self.chunk.next = self.g_all.val();
            } else if self.r0.val() && self.r1.val() {
                self.q_op.next = self.op_st64.val();
                self.chunk.next = self.g_lo.val();
            } else if self.r2.val() && self.r3.val() {
                self.q_op.next = self.op_st64.val();
                self.q_addr.next = self.line.val() | self.a8.val();
                self.q_data.next = self.wdata.val() >> self.c64.val();
                self.chunk.next = self.g_hi.val();
            } else if self.r0.val() {
                self.q_op.next = self.op_st32.val();
                self.chunk.next = self.g0.val();
            } else if self.r1.val() {
                self.q_op.next = self.op_st32.val();
                self.q_addr.next = self.line.val() | self.a4.val();
                self.q_data.next = self.wdata.val() >> self.c32.val();
                self.chunk.next = self.g1.val();
            } else if self.r2.val() {
                self.q_op.next = self.op_st32.val();
                self.q_addr.next = self.line.val() | self.a8.val();
                self.q_data.next = self.wdata.val() >> self.c64.val();
                self.chunk.next = self.g2.val();
            } else if self.r3.val() {
                self.q_op.next = self.op_st32.val();
                self.q_addr.next = self.line.val() | self.a12.val();
                self.q_data.next = self.wdata.val() >> self.c96.val();
                self.chunk.next = self.g3.val();
            }
            self.q_b.next = self.beat_end.val() && self.last_beat.val();
        }
    }
}
