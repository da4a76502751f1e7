//! A 32-bit add whose first operand is a 2:1 select: `sum = (sel ? x : y) + b`, with the
//! carry out as bit 32.
//!
//! This is the shape of a dependency loop closed at an adder: the operand is the adder's own
//! last result (`x`) or a fresh one (`y`). Left to Yosys the select is a LUT in front of the
//! carry chain, and the loop pays that LUT and a route into the chain. The ECP5's carry cell
//! (`CCU2C`) has a LUT4 per bit, of which a plain add uses two inputs: under `REDUNIT_ECP5`
//! (the ECP5 flow, `redunit synth`) each bit's propagate `(D ? A : C) ^ B` takes the select
//! on `D` (the LUT's fastest input), `x` on `A`, `b` on `B` and `y` on `C` (INIT `663C`).
//! Its generate, a LUT2 of `A` and `B`, is `B`: it is read only when the propagate is low,
//! when the selected operand equals `b`. A 17th cell passes the carry out. Everywhere else
//! (Verilator, Icarus, the generic synthesis test) the same add in behavioural Verilog.

use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct MuxAdd {
    pub sel: Signal<In, Bit>,
    /// The operand when `sel` is high.
    pub x: Signal<In, Bits<32>>,
    /// The operand when `sel` is low.
    pub y: Signal<In, Bits<32>>,
    pub b: Signal<In, Bits<32>>,
    /// The sum, bit 32 the carry out.
    pub sum: Signal<Out, Bits<33>>,
}

impl Logic for MuxAdd {
    fn update(&mut self) {
        let m = if self.sel.val() { self.x.val() } else { self.y.val() };
        self.sum.next = bit_cast::<33, 32>(m) + bit_cast::<33, 32>(self.b.val());
    }

    fn connect(&mut self) {
        self.sum.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(
            "\
`ifdef REDUNIT_ECP5
wire [16:0] add_co;
wire [31:0] add_s;
wire add_c32, add_unused;
genvar add_g;
generate for (add_g = 0; add_g < 16; add_g = add_g + 1) begin : add
    CCU2C #(.INIT0(16'h663C), .INIT1(16'h663C), .INJECT1_0(\"NO\"), .INJECT1_1(\"NO\")) cell (
        .CIN(add_co[add_g]),
        .A0(x[2 * add_g]), .B0(b[2 * add_g]), .C0(y[2 * add_g]), .D0(sel),
        .A1(x[2 * add_g + 1]), .B1(b[2 * add_g + 1]), .C1(y[2 * add_g + 1]), .D1(sel),
        .S0(add_s[2 * add_g]), .S1(add_s[2 * add_g + 1]), .COUT(add_co[add_g + 1]));
end endgenerate
assign add_co[0] = 1'b0;
CCU2C #(.INIT0(16'h0000), .INIT1(16'h0000), .INJECT1_0(\"NO\"), .INJECT1_1(\"NO\")) carry_out (
    .CIN(add_co[16]), .A0(1'b0), .B0(1'b0), .C0(1'b0), .D0(1'b0), .A1(1'b0), .B1(1'b0), .C1(1'b0),
    .D1(1'b0), .S0(add_c32), .S1(add_unused), .COUT());
always @(*) sum = {add_c32, add_s};
`else
always @(*) sum = {1'b0, sel ? x : y} + {1'b0, b};
`endif
"
            .into(),
        )
    }
}
