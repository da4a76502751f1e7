//! [`AxiWrite`]: the AW and W channels. One write transaction at a time: the AW handshake
//! latches the transaction (and decodes its ATOP, [`AtopDecode`]); each W beat then becomes
//! the unit requests [`WritePick`] chooses, one per cycle, each into the engine's one-entry
//! request register (`q_*`), which loads when it is empty or the front end's arbiter takes
//! its request this cycle (`go`). `WREADY` rises in the cycle the beat's last request loads;
//! the next AW is taken in the cycle the transaction's last request loads, so back-to-back
//! single-beat writes and atomics go one per cycle.
//!
//! The register is what the arbiter sees: its grant reaches the engine's state only through
//! the register's load enable, and the request logic (strobes, byte lanes, the ATOP) never
//! reaches the arbiter in the same cycle.
//!
//! The beat address follows `AWBURST`: INCR steps to the next `2^AWSIZE` boundary, FIXED
//! stays; WRAP (and the reserved burst type) are refused: every beat sends a poison request.
//! The beat's line (address without its low 4 bits) and the strobes say what is written, so
//! narrow and unaligned bursts need nothing more.

use super::AWUSER_BITS;
use super::decode::AtopDecode;
use super::write_pick::WritePick;
use crate::k;
use rust_hdl::prelude::*;
use sim::memory::req_encoding::REQ_OP_WIDTH;

#[derive(LogicBlock)]
pub struct AxiWrite<const IDW: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub awvalid: Signal<In, Bit>,
    pub awready: Signal<Out, Bit>,
    pub awid: Signal<In, Bits<IDW>>,
    pub awaddr: Signal<In, Bits<32>>,
    pub awlen: Signal<In, Bits<8>>,
    pub awsize: Signal<In, Bits<3>>,
    pub awburst: Signal<In, Bits<2>>,
    pub awatop: Signal<In, Bits<6>>,
    pub awuser: Signal<In, Bits<AWUSER_BITS>>,
    pub wvalid: Signal<In, Bit>,
    pub wready: Signal<Out, Bit>,
    pub wdata: Signal<In, Bits<128>>,
    pub wstrb: Signal<In, Bits<16>>,
    // The request to the arbiter (the request register); `go`: the arbiter takes it this cycle.
    pub q_valid: Signal<Out, Bit>,
    pub q_op: Signal<Out, Bits<REQ_OP_WIDTH>>,
    pub q_addr: Signal<Out, Bits<32>>,
    pub q_data: Signal<Out, Bits<128>>,
    pub q_shift: Signal<Out, Bits<3>>,
    pub q_r: Signal<Out, Bit>,
    pub q_b: Signal<Out, Bit>,
    pub q_id: Signal<Out, Bits<IDW>>,
    pub go: Signal<In, Bit>,

    dec: AtopDecode,
    pick: WritePick,
    busy: DFF<Bit>,
    id: DFF<Bits<IDW>>,
    addr: DFF<Bits<32>>,
    /// Beats left after the current one, and whether it is the last (a register of its own:
    /// the beat's pick reads it with the strobes).
    left: DFF<Bits<8>>,
    last: DFF<Bit>,
    inc: DFF<Bits<32>>,
    amask: DFF<Bits<32>>,
    atomic: DFF<Bit>,
    op: DFF<Bits<REQ_OP_WIDTH>>,
    inv: DFF<Bit>,
    bad: DFF<Bit>,
    ret: DFF<Bit>,
    done: DFF<Bits<4>>,
    pdone: DFF<Bit>,
    xchg: DFF<Bit>,
    cas: DFF<Bit>,
    n8: DFF<Bit>,
    xld: DFF<Bits<REQ_OP_WIDTH>>,
    xst: DFF<Bits<REQ_OP_WIDTH>>,
    ph: DFF<Bit>,
    // The request register.
    rv: DFF<Bit>,
    r_op: DFF<Bits<REQ_OP_WIDTH>>,
    r_addr: DFF<Bits<32>>,
    r_data: DFF<Bits<128>>,
    r_shift: DFF<Bits<3>>,
    r_r: DFF<Bit>,
    r_b: DFF<Bit>,
    r_id: DFF<Bits<IDW>>,
    /// The request register loads [`WritePick`]'s request.
    push: Signal<Local, Bit>,
    sw_addr: Signal<Local, Bits<3>>,
    unused: Signal<Local, Bit>,
    sh_cmp: Signal<Local, Bits<8>>,
    sh_swp: Signal<Local, Bits<8>>,
    cmpv: Signal<Local, Bits<128>>,
    swpv: Signal<Local, Bits<128>>,
    c4: Constant<Bits<4>>,
    c32: Constant<Bits<8>>,
    c64: Constant<Bits<8>>,
    h4: Constant<Bits<3>>,
    h8: Constant<Bits<3>>,
    finish: Signal<Local, Bit>,
    step: Signal<Local, Bits<32>>,
    one32: Constant<Bits<32>>,
    zero32: Constant<Bits<32>>,
    one8: Constant<Bits<8>>,
    zero8: Constant<Bits<8>>,
    zero4: Constant<Bits<4>>,
    burst_fixed: Constant<Bits<2>>,
    burst_incr: Constant<Bits<2>>,
}

impl<const IDW: usize> Default for AxiWrite<IDW> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            awvalid: Default::default(),
            awready: Default::default(),
            awid: Default::default(),
            awaddr: Default::default(),
            awlen: Default::default(),
            awsize: Default::default(),
            awburst: Default::default(),
            awatop: Default::default(),
            awuser: Default::default(),
            wvalid: Default::default(),
            wready: Default::default(),
            wdata: Default::default(),
            wstrb: Default::default(),
            q_valid: Default::default(),
            q_op: Default::default(),
            q_addr: Default::default(),
            q_data: Default::default(),
            q_shift: Default::default(),
            q_r: Default::default(),
            q_b: Default::default(),
            q_id: Default::default(),
            go: Default::default(),
            dec: Default::default(),
            pick: Default::default(),
            busy: Default::default(),
            id: Default::default(),
            addr: Default::default(),
            left: Default::default(),
            last: Default::default(),
            inc: Default::default(),
            amask: Default::default(),
            atomic: Default::default(),
            op: Default::default(),
            inv: Default::default(),
            bad: Default::default(),
            ret: Default::default(),
            done: Default::default(),
            pdone: Default::default(),
            xchg: Default::default(),
            cas: Default::default(),
            n8: Default::default(),
            xld: Default::default(),
            xst: Default::default(),
            ph: Default::default(),
            rv: Default::default(),
            r_op: Default::default(),
            r_addr: Default::default(),
            r_data: Default::default(),
            r_shift: Default::default(),
            r_r: Default::default(),
            r_b: Default::default(),
            r_id: Default::default(),
            push: Default::default(),
            sw_addr: Default::default(),
            unused: Default::default(),
            sh_cmp: Default::default(),
            sh_swp: Default::default(),
            cmpv: Default::default(),
            swpv: Default::default(),
            c4: k(4),
            c32: k(32),
            c64: k(64),
            h4: k(2),
            h8: k(4),
            finish: Default::default(),
            step: Default::default(),
            one32: k(1),
            zero32: k(0),
            one8: k(1),
            zero8: k(0),
            zero4: k(0),
            burst_fixed: k(0),
            burst_incr: k(1),
        }
    }
}

impl<const IDW: usize> Logic for AxiWrite<IDW> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, busy, id, addr, left, last, inc, amask, atomic, op, inv, bad, ret, done, pdone, xchg);
        dff_setup!(self, clock, cas, n8, xld, xst, ph, rv, r_op, r_addr, r_data, r_shift, r_r, r_b, r_id);
        self.dec.atop.next = self.awatop.val();
        self.dec.size.next = self.awsize.val();
        self.dec.user.next = self.awuser.val();
        self.dec.len.next = self.awlen.val();

        self.pick.busy.next = self.busy.q.val();
        self.pick.atomic.next = self.atomic.q.val();
        self.pick.bad.next = self.bad.q.val();
        self.pick.inv.next = self.inv.q.val();
        self.pick.ret.next = self.ret.q.val();
        self.pick.op.next = self.op.q.val();
        self.pick.addr.next = self.addr.q.val();
        self.pick.last_beat.next = self.last.q.val();
        self.pick.done.next = self.done.q.val();
        self.pick.pdone.next = self.pdone.q.val();
        self.pick.wvalid.next = self.wvalid.val();
        self.pick.wdata.next = self.wdata.val();
        self.pick.wstrb.next = self.wstrb.val();
        // AtomicSwap/Compare: the compare value on the operand's lanes, the swap value there
        // (Swap) or in the other half of the 2N-byte window (Compare). Compare's unit operand
        // is `compare << 8*N | swap` (`atom.cas`).
        // (In 2-byte steps: address bits 3..1.)
        self.sw_addr.next = self.addr.q.val().get_bits::<3>(1);
        if self.cas.q.val() {
            self.sw_addr.next = self.addr.q.val().get_bits::<3>(1) ^ self.h4.val();
            if self.n8.q.val() {
                self.sw_addr.next = self.addr.q.val().get_bits::<3>(1) ^ self.h8.val();
            }
        }
        self.sh_cmp.next = bit_cast::<8, 3>(self.addr.q.val().get_bits::<3>(1)) << self.c4.val();
        self.sh_swp.next = bit_cast::<8, 3>(self.sw_addr.val()) << self.c4.val();
        self.cmpv.next = self.wdata.val() >> self.sh_cmp.val();
        self.swpv.next = self.wdata.val() >> self.sh_swp.val();
        self.unused.next = self.cmpv.val().get_bits::<64>(64).any();
        self.pick.xchg.next = self.xchg.q.val();
        self.pick.cas.next = self.cas.q.val();
        self.pick.ph.next = self.ph.q.val();
        self.pick.xld.next = self.xld.q.val();
        self.pick.xst.next = self.xst.q.val();
        self.pick.sw_data.next = self.swpv.val();
        if self.cas.q.val() {
            self.pick.sw_data.next = (bit_cast::<128, 32>(self.cmpv.val().get_bits::<32>(0)) << self.c32.val())
                | bit_cast::<128, 32>(self.swpv.val().get_bits::<32>(0));
            if self.n8.q.val() {
                self.pick.sw_data.next = (bit_cast::<128, 64>(self.cmpv.val().get_bits::<64>(0)) << self.c64.val())
                    | bit_cast::<128, 64>(self.swpv.val().get_bits::<64>(0));
            }
        }

        self.q_valid.next = self.rv.q.val();
        self.q_op.next = self.r_op.q.val();
        self.q_addr.next = self.r_addr.q.val();
        self.q_data.next = self.r_data.q.val();
        self.q_shift.next = self.r_shift.q.val();
        self.q_r.next = self.r_r.q.val();
        self.q_b.next = self.r_b.q.val();
        self.q_id.next = self.r_id.q.val();

        // The handshake side: reads `go` (statements apart from the request's). The register
        // loads when it is empty or its request leaves this cycle (full rate).
        self.push.next = self.pick.q_valid.val() && (!self.rv.q.val() || self.go.val());
        self.rv.d.next = self.push.val() || (self.rv.q.val() && !self.go.val());
        if self.push.val() {
            self.r_op.d.next = self.pick.q_op.val();
            self.r_addr.d.next = self.pick.q_addr.val();
            self.r_data.d.next = self.pick.q_data.val();
            self.r_shift.d.next = self.pick.q_shift.val();
            self.r_r.d.next = self.pick.q_r.val();
            self.r_b.d.next = self.pick.q_b.val();
            self.r_id.d.next = self.id.q.val();
        }
        self.finish.next = self.push.val() && self.pick.q_b.val();
        self.awready.next = !self.busy.q.val() || self.finish.val();
        self.wready.next = self.pick.swallow.val() || (self.push.val() && self.pick.beat_end.val());
        if self.pick.swallow.val() || (self.push.val() && self.pick.beat_end.val()) {
            self.left.d.next = self.left.q.val() - self.one8.val();
            self.last.d.next = self.left.q.val() == self.one8.val();
            self.addr.d.next = (self.addr.q.val() & self.amask.q.val()) + self.inc.q.val();
            self.done.d.next = self.zero4.val();
            self.pdone.d.next = false;
        } else if self.push.val() {
            self.done.d.next = self.done.q.val() | self.pick.chunk.val();
            if self.pick.poison.val() {
                self.pdone.d.next = true;
            }
        }
        // AtomicSwap: the load went; the store is next.
        if self.push.val() && self.xchg.q.val() && !self.ph.q.val() {
            self.ph.d.next = true;
        }
        if self.finish.val() {
            self.busy.d.next = false;
            self.ph.d.next = false;
        }
        self.step.next = self.one32.val() << self.awsize.val();
        if self.awvalid.val() && (!self.busy.q.val() || self.finish.val()) {
            self.busy.d.next = true;
            self.id.d.next = self.awid.val();
            self.addr.d.next = self.awaddr.val();
            self.left.d.next = self.awlen.val();
            self.last.d.next = self.awlen.val() == self.zero8.val();
            self.inc.d.next = self.step.val();
            self.amask.d.next = self.zero32.val() - self.step.val();
            if self.awburst.val() == self.burst_fixed.val() {
                self.inc.d.next = self.zero32.val();
                self.amask.d.next = !self.zero32.val();
            }
            self.atomic.d.next = self.dec.atomic.val();
            self.op.d.next = self.dec.op.val();
            self.inv.d.next = self.dec.inv.val();
            self.ret.d.next = self.dec.returns.val();
            self.bad.d.next = self.dec.bad.val();
            if !self.dec.atomic.val() {
                self.bad.d.next =
                    !(self.awburst.val() == self.burst_incr.val()) && !(self.awburst.val() == self.burst_fixed.val());
                self.ret.d.next = false;
            }
            self.done.d.next = self.zero4.val();
            self.pdone.d.next = false;
            self.xchg.d.next = self.dec.xchg.val();
            self.cas.d.next = self.dec.cas.val();
            self.n8.d.next = self.dec.n8.val();
            self.xld.d.next = self.dec.xld.val();
            self.xst.d.next = self.dec.xst.val();
            self.ph.d.next = false;
        }
        if self.reset.val() {
            self.busy.d.next = false;
            self.ph.d.next = false;
            self.rv.d.next = false;
        }
    }
}
