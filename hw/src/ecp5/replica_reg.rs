//! A register replica: a plain D flip-flop per bit (`q <= d` at the rising edge, zero at
//! start) that synthesis keeps as a copy of its own, for register duplication.
//!
//! A signal that fans out to many places far apart on the chip is loaded into one replica per
//! group of consumers, so that each replica sits near its group and no single register drives
//! long routes to all of them (on the ECP5, a route costs 0.6-1.5 ns per hop and a LUT
//! 0.24 ns, so a wide fan-out costs more than the logic it feeds). Yosys merges flip-flops with
//! the same input (`opt_merge`) and a `keep` attribute does not stop it, so under
//! `REDUNIT_ECP5` (the ECP5 flow, `redunit synth`) each bit is an instantiated `TRELLIS_FF`,
//! which no optimisation pass merges; everywhere else (Verilator, the generic synthesis
//! test) the same register in behavioural Verilog.

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct ReplicaReg<T: Synth> {
    pub clock: Signal<In, Clock>,
    pub d: Signal<In, T>,
    /// `d` of the cycle before.
    pub q: Signal<Out, T>,
}

impl<T: Synth> Default for ReplicaReg<T> {
    fn default() -> Self {
        Self { clock: Default::default(), d: Default::default(), q: Default::default() }
    }
}

impl<T: Synth> Logic for ReplicaReg<T> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self.q.next = self.d.val();
        }
    }

    fn connect(&mut self) {
        self.q.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(replica_verilog(&format!("{:x}", T::default().verilog()), T::BITS, false))
    }

    fn timing(&self) -> Vec<TimingInfo> {
        vec![TimingInfo {
            name: "replica_reg".into(),
            clock: "clock".into(),
            inputs: vec!["d".into()],
            outputs: vec!["q".into()],
        }]
    }
}

/// The Verilog body of a replica of `bits` bits starting at `init` (a Verilog literal), with a
/// load enable `hold` (high: keep) when `hold` is true ([`crate::hold_replica_reg`]).
/// Under `REDUNIT_ECP5` each bit is an instantiated `TRELLIS_FF` (`REGSET` "RESET" starts at
/// zero, like the behavioural register's `initial`; its set/reset input is tied off; its
/// clock enable always on, or `CEMUX` "INV" on `hold`); otherwise the behavioural register.
pub(crate) fn replica_verilog(init: &str, bits: usize, hold: bool) -> String {
    let (cemux, ce, load) = if hold { ("INV", "hold", "if (!hold) q <= d;") } else { ("1", "1'b1", "q <= d;") };
    format!(
        "\
`ifdef REDUNIT_ECP5
wire [{msb}:0] replica_q;
genvar replica_g;
generate for (replica_g = 0; replica_g < {bits}; replica_g = replica_g + 1) begin : replica
    TRELLIS_FF #(.GSR(\"DISABLED\"), .CEMUX(\"{cemux}\"), .CLKMUX(\"CLK\"), .LSRMUX(\"LSR\"), .REGSET(\"RESET\"),
        .SRMODE(\"LSR_OVER_CE\")) ff (.CLK(clock), .LSR(1'b0), .CE({ce}), .DI(d[replica_g]), .Q(replica_q[replica_g]));
end endgenerate
always @(*) q = replica_q;
`else
initial begin
    q = {init};
end
always @(posedge clock) begin
    {load}
end
`endif
",
        msb = bits - 1,
    )
}
