//! The last step of the unit's old line (s1): per 32-bit quarter, the
//! forwarded line (`fwd`, already selected among the in-flight sources) or the RAM's read
//! data (`ram`), by the quarter's `take` bit. A bit of the result is a mux of three inputs.
//!
//! The RAM's output arrives late (the block RAM's clock-to-out and a route across the chip,
//! 3 ns of the 6.7 ns at 150 MHz), so it must meet the forwarded sources in the last LUT
//! only. Yosys/ABC map the whole select as one function and put the RAM bit wherever the
//! LUT count is lowest: left to them it lands three LUT levels from the RAM, and RAM →
//! old-line replicas become critical paths. So under `REDUNIT_ECP5` (the ECP5
//! flow, `redunit synth`) each bit is an instantiated `LUT4` (`Z = C ? B : A`, INIT
//! `CACA`), which ABC leaves as it is: the forwarded sources' select is mapped before it,
//! and the RAM bit passes one LUT. Everywhere else (Verilator, the generic synthesis test)
//! the same mux in behavioural Verilog.

use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct RamForwardMux {
    /// The RAM's read data.
    pub ram: Signal<In, Bits<128>>,
    /// The forwarded line (zero in the quarters not taken, or anything).
    pub fwd: Signal<In, Bits<128>>,
    /// Bit q: quarter q (bits 32q..32q + 31) comes from `fwd`.
    pub take: Signal<In, Bits<4>>,
    pub out: Signal<Out, Bits<128>>,
}

impl Logic for RamForwardMux {
    fn update(&mut self) {
        let mut m = 0u128;
        for q in 0..4 {
            if self.take.val().get_bit(q) {
                m |= 0xffff_ffffu128 << (32 * q);
            }
        }
        let m: Bits<128> = crate::fp_add::bits_u128(m);
        self.out.next = (self.ram.val() & !m) | (self.fwd.val() & m);
    }

    fn connect(&mut self) {
        self.out.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(
            "\
`ifdef REDUNIT_ECP5
wire [127:0] mux_z;
genvar mux_g;
generate for (mux_g = 0; mux_g < 128; mux_g = mux_g + 1) begin : mux
    LUT4 #(.INIT(16'hCACA)) lut (.A(ram[mux_g]), .B(fwd[mux_g]), .C(take[mux_g / 32]), .D(1'b0), .Z(mux_z[mux_g]));
end endgenerate
always @(*) out = mux_z;
`else
always @(*) begin
    out = (ram & ~{{32{take[3]}}, {32{take[2]}}, {32{take[1]}}, {32{take[0]}}})
        | (fwd & {{32{take[3]}}, {32{take[2]}}, {32{take[1]}}, {32{take[0]}}});
end
`endif
"
            .into(),
        )
    }
}
