//! The unit's backing memory: `lines` lines of 16 bytes, one synchronous read port and one
//! write port on one clock, written so that synthesis infers a block RAM.
//!
//! A write writes the 32-bit words of the line that `write_words` enables.
//! A read presents `read_addr` in cycle t and sees the line in `read_data` in cycle t+1 (the
//! output register is the RAM's own), or in cycle t+2 with an output register behind the
//! RAM ([`LineMemory::with_output_register`]: the DP16KD's clock-to-output, about 4 ns on the
//! ECP5, then starts no path of the unit's). A read and a write of the same line in one cycle read
//! the old content (read-first); the unit forwards around this (see `slice_unit`). The
//! contents start at zero (an `initial` loop, which synthesis turns into the RAM's
//! initialisation) and are not touched by the unit's reset.
//!
//! The number of lines is a constructor parameter, so the block has custom Verilog (as
//! rust-hdl's own `RAM` widget does) and a Rust model for the rust-hdl simulation. The line
//! address ports are [`LINE_BITS`] wide; the bits above those the memory needs are ignored
//! (the unit never sends an address beyond the memory: it checks the range first).

use crate::ecp5::bram::{ECP5_BRAM_ABITS, line_brams};
use rust_hdl::prelude::*;

/// Width of a line address (a 32-bit byte address without its 4 offset bits).
pub const LINE_BITS: usize = 28;

#[derive(LogicBlock)]
pub struct LineMemory {
    pub clock: Signal<In, Clock>,
    pub read_addr: Signal<In, Bits<LINE_BITS>>,
    /// The line addressed by `read_addr` in the previous cycle.
    pub read_data: Signal<Out, Bits<128>>,
    pub write_enable: Signal<In, Bit>,
    /// The 32-bit words of the line a write writes (bit w: bits 32w..32w+31; the others keep
    /// their content): the unit writes only the words of its access.
    pub write_words: Signal<In, Bits<4>>,
    pub write_addr: Signal<In, Bits<LINE_BITS>>,
    pub write_data: Signal<In, Bits<128>>,
    _lines: usize,
    _mem: Vec<Bits<128>>,
    _outreg: bool,
    _rd_q: Bits<128>,
}

impl LineMemory {
    /// A memory of `lines` lines (at least 2, at most 2^LINE_BITS).
    pub fn new(lines: usize) -> Self {
        Self::with_output_register(lines, false)
    }

    /// A memory of `lines` lines whose reads take two cycles when `outreg` (a register behind
    /// the RAM's own).
    pub fn with_output_register(lines: usize, outreg: bool) -> Self {
        assert!((2..=1usize << LINE_BITS).contains(&lines), "line count out of range");
        Self {
            clock: Default::default(),
            read_addr: Default::default(),
            read_data: Default::default(),
            write_enable: Default::default(),
            write_words: Default::default(),
            write_addr: Default::default(),
            write_data: Default::default(),
            _lines: lines,
            _mem: vec![Bits::default(); lines],
            _outreg: outreg,
            _rd_q: Bits::default(),
        }
    }

    /// Cycles from `read_addr` to `read_data`.
    pub fn read_latency(&self) -> usize {
        1 + self._outreg as usize
    }

    /// Address bits the memory uses.
    fn abits(&self) -> usize {
        (usize::BITS - (self._lines - 1).leading_zeros()) as usize
    }
}

impl Logic for LineMemory {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            let ra = self.read_addr.val().index();
            let rd = self._mem.get(ra).copied().unwrap_or_default();
            if self._outreg {
                self.read_data.next = self._rd_q;
                self._rd_q = rd;
            } else {
                self.read_data.next = rd;
            }
            if self.write_enable.val() {
                let wa = self.write_addr.val().index();
                if wa < self._lines {
                    let mut line = self._mem[wa];
                    for w in 0..4 {
                        if self.write_words.val().get_bit(w) {
                            let m = crate::fp_add::bits_u128(0xffff_ffffu128 << (32 * w));
                            line = (line & !m) | (self.write_data.val() & m);
                        }
                    }
                    self._mem[wa] = line;
                }
            }
        }
    }

    fn connect(&mut self) {
        self.read_data.connect();
    }

    fn hdl(&self) -> Verilog {
        let a = self.abits();
        let unused = crate::verilog::unused_addr_hi(LINE_BITS, a);
        let (decl, read) = if self._outreg {
            ("reg [127:0] rd_q;\n", "    rd_q <= ram[ra];\n    read_data <= rd_q;\n")
        } else {
            ("", "    read_data <= ram[ra];\n")
        };
        let behavioural = format!(
            "\
reg [127:0] ram [0:{last}];
integer line_i;
initial begin
    for (line_i = 0; line_i < {lines}; line_i = line_i + 1) ram[line_i] = 128'h0;
end
{decl}always @(posedge clock) begin
    if (write_enable) begin
        if (write_words[0]) ram[wa][31:0] <= write_data[31:0];
        if (write_words[1]) ram[wa][63:32] <= write_data[63:32];
        if (write_words[2]) ram[wa][95:64] <= write_data[95:64];
        if (write_words[3]) ram[wa][127:96] <= write_data[127:96];
    end
{read}end
",
            last = self._lines - 1,
            lines = self._lines,
        );
        let body = if self._outreg && a <= ECP5_BRAM_ABITS {
            format!("`ifdef REDUNIT_ECP5\n{}`else\n{behavioural}`endif\n", line_brams(a))
        } else {
            behavioural
        };
        Verilog::Custom(format!(
            "\
wire [{am}:0] ra = read_addr[{am}:0];
wire [{am}:0] wa = write_addr[{am}:0];
{unused}
{body}",
            am = a - 1,
        ))
    }
}
