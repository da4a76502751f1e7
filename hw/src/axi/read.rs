//! [`AxiRead`]: the AR channel. One read transaction at a time: each beat is one unit load
//! of its whole 16-byte line (`ld.b128`), whose response is the R beat with every byte lane
//! driven, so beats of any `ARSIZE`, narrow or unaligned, need nothing more. INCR and FIXED
//! bursts; a WRAP (or reserved) burst sends a poison request per beat (`ld.b128` at the line +
//! 1: `SLVERR`). The next AR is taken in the cycle the last beat's request goes.

use crate::k;
use rust_hdl::prelude::*;
use sim::memory::req_encoding::REQ_OP_WIDTH;
use sim::{Access, Width};

#[derive(LogicBlock)]
pub struct AxiRead<const IDW: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub arvalid: Signal<In, Bit>,
    pub arready: Signal<Out, Bit>,
    pub arid: Signal<In, Bits<IDW>>,
    pub araddr: Signal<In, Bits<32>>,
    pub arlen: Signal<In, Bits<8>>,
    pub arsize: Signal<In, Bits<3>>,
    pub arburst: Signal<In, Bits<2>>,
    // The request to the arbiter; `go`: it enters the unit this cycle.
    pub q_valid: Signal<Out, Bit>,
    pub q_op: Signal<Out, Bits<REQ_OP_WIDTH>>,
    pub q_addr: Signal<Out, Bits<32>>,
    pub q_rlast: Signal<Out, Bit>,
    pub q_id: Signal<Out, Bits<IDW>>,
    pub go: Signal<In, Bit>,

    busy: DFF<Bit>,
    id: DFF<Bits<IDW>>,
    addr: DFF<Bits<32>>,
    /// Beats left after the current one, and whether it is the last (a register of its own,
    /// so that no compare stands between the grant and the next transaction's load).
    left: DFF<Bits<8>>,
    last: DFF<Bit>,
    inc: DFF<Bits<32>>,
    amask: DFF<Bits<32>>,
    bad: DFF<Bit>,
    step: Signal<Local, Bits<32>>,
    op_ld128: Constant<Bits<REQ_OP_WIDTH>>,
    line_mask: Constant<Bits<32>>,
    a1: Constant<Bits<32>>,
    one32: Constant<Bits<32>>,
    zero32: Constant<Bits<32>>,
    one8: Constant<Bits<8>>,
    zero8: Constant<Bits<8>>,
    burst_fixed: Constant<Bits<2>>,
    burst_incr: Constant<Bits<2>>,
}

impl<const IDW: usize> Default for AxiRead<IDW> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            arvalid: Default::default(),
            arready: Default::default(),
            arid: Default::default(),
            araddr: Default::default(),
            arlen: Default::default(),
            arsize: Default::default(),
            arburst: Default::default(),
            q_valid: Default::default(),
            q_op: Default::default(),
            q_addr: Default::default(),
            q_rlast: Default::default(),
            q_id: Default::default(),
            go: Default::default(),
            busy: Default::default(),
            id: Default::default(),
            addr: Default::default(),
            left: Default::default(),
            last: Default::default(),
            inc: Default::default(),
            amask: Default::default(),
            bad: Default::default(),
            step: Default::default(),
            op_ld128: k(Access::Ld(Width::B128).code() as u128),
            line_mask: k(!15u32 as u128),
            a1: k(1),
            one32: k(1),
            zero32: k(0),
            one8: k(1),
            zero8: k(0),
            burst_fixed: k(0),
            burst_incr: k(1),
        }
    }
}

impl<const IDW: usize> Logic for AxiRead<IDW> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, busy, id, addr, left, last, inc, amask, bad);
        self.q_valid.next = self.busy.q.val();
        self.q_op.next = self.op_ld128.val();
        if self.bad.q.val() {
            self.q_addr.next = (self.addr.q.val() & self.line_mask.val()) | self.a1.val();
        } else {
            self.q_addr.next = self.addr.q.val() & self.line_mask.val();
        }
        self.q_rlast.next = self.last.q.val();
        self.q_id.next = self.id.q.val();

        // The handshake side: reads `go`.
        self.arready.next = !self.busy.q.val() || (self.go.val() && self.last.q.val());
        if self.go.val() {
            self.left.d.next = self.left.q.val() - self.one8.val();
            self.last.d.next = self.left.q.val() == self.one8.val();
            self.addr.d.next = (self.addr.q.val() & self.amask.q.val()) + self.inc.q.val();
            if self.last.q.val() {
                self.busy.d.next = false;
            }
        }
        self.step.next = self.one32.val() << self.arsize.val();
        if self.arvalid.val() && (!self.busy.q.val() || (self.go.val() && self.last.q.val())) {
            self.busy.d.next = true;
            self.id.d.next = self.arid.val();
            self.addr.d.next = self.araddr.val();
            self.left.d.next = self.arlen.val();
            self.last.d.next = self.arlen.val() == self.zero8.val();
            self.inc.d.next = self.step.val();
            self.amask.d.next = self.zero32.val() - self.step.val();
            if self.arburst.val() == self.burst_fixed.val() {
                self.inc.d.next = self.zero32.val();
                self.amask.d.next = !self.zero32.val();
            }
            self.bad.d.next =
                !(self.arburst.val() == self.burst_incr.val()) && !(self.arburst.val() == self.burst_fixed.val());
        }
        if self.reset.val() {
            self.busy.d.next = false;
        }
    }
}
