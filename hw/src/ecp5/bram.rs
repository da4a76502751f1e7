//! The ECP5 block RAM of the unit's line memory: [`crate::line_memory::LineMemory`] with an
//! output register emits this under `REDUNIT_ECP5` and its behavioural memory otherwise.

/// Address bits of one ECP5 DP16KD in its 4K x 4 mode.
pub const ECP5_BRAM_ABITS: usize = 12;

/// The ECP5 flow's line memory with an output register (`REDUNIT_ECP5`, which `redunit synth`
/// defines): 32 DP16KD in 4K x 4 mode, port A writing, port B reading through the block
/// RAM's own output register (`REGMODE_B = "OUTREG"`). Yosys infers the DP16KD from the
/// behavioural memory but not its output register, so the RAM's clock-to-output (5.8 ns in
/// nextpnr's model) would start a path into the fabric; with `OUTREG` the read data leave
/// a register. Each DP16KD holds 4 bits of the line, so a word's 8 are written by its
/// `write_words` bit. Same read latency (2) and contents (zero at start: `INITVAL` defaults). A
/// read and a write of one line in one cycle read undefined data here (the unit forwards
/// the written line over it: see `slice_unit`, `sw_*`). In 4K x 4 mode the word address
/// is on `AD13..AD2` and the data on `DI3..DI0`/`DO3..DO0`.
pub fn line_brams(a: usize) -> String {
    use std::fmt::Write;
    let pad = ECP5_BRAM_ABITS - a;
    let addr = |v: &str| {
        if pad == 0 { format!("{{{v}, 2'b00}}") } else { format!("{{{pad}'b0, {v}, 2'b00}}") }
    };
    let mut s = String::new();
    let _ = writeln!(s, "wire [13:0] bram_wa = {};", addr("wa"));
    let _ = writeln!(s, "wire [13:0] bram_ra = {};", addr("ra"));
    let _ = writeln!(s, "wire [127:0] bram_rd;");
    let _ = writeln!(s, "genvar bram_g;");
    let _ = writeln!(s, "generate for (bram_g = 0; bram_g < 32; bram_g = bram_g + 1) begin : bram");
    let _ = writeln!(s, "    wire [17:0] dob;");
    let _ = writeln!(s, "    wire [17:0] dia = {{14'b0, write_data[4*bram_g +: 4]}};");
    let _ = writeln!(
        s,
        "    DP16KD #(.DATA_WIDTH_A(4), .DATA_WIDTH_B(4), .REGMODE_A(\"NOREG\"), .REGMODE_B(\"OUTREG\"),\n        \
         .RESETMODE(\"SYNC\"), .ASYNC_RESET_RELEASE(\"SYNC\"), .CSDECODE_A(\"0b000\"), .CSDECODE_B(\"0b000\"),\n        \
         .WRITEMODE_A(\"NORMAL\"), .WRITEMODE_B(\"NORMAL\"), .GSR(\"DISABLED\")) ram (\n        \
         .CLKA(clock), .CEA(1'b1), .OCEA(1'b1), .WEA(write_enable & write_words[bram_g / 8]), .RSTA(1'b0), .CSA0(1'b0), .CSA1(1'b0), .CSA2(1'b0),\n        \
         .CLKB(clock), .CEB(1'b1), .OCEB(1'b1), .WEB(1'b0), .RSTB(1'b0), .CSB0(1'b0), .CSB1(1'b0), .CSB2(1'b0),"
    );
    let mut pins = Vec::new();
    for i in 0..14 {
        pins.push(format!(".ADA{i}(bram_wa[{i}])"));
        pins.push(format!(".ADB{i}(bram_ra[{i}])"));
    }
    for i in 0..18 {
        pins.push(format!(".DIA{i}(dia[{i}])"));
        pins.push(format!(".DIB{i}(1'b0)"));
        pins.push(format!(".DOB{i}(dob[{i}])"));
    }
    let rows: Vec<String> = pins.chunks(6).map(|c| c.join(", ")).collect();
    let _ = writeln!(s, "        {}\n    );", rows.join(",\n        "));
    let _ = writeln!(s, "    assign bram_rd[4*bram_g +: 4] = dob[3:0];");
    let _ = writeln!(s, "end endgenerate");
    let _ = writeln!(s, "always @(*) read_data = bram_rd;");
    s
}
