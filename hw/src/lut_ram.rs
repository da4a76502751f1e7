//! A small memory with an asynchronous read and a synchronous write, written so that
//! synthesis infers distributed (LUT) RAM: on the ECP5, `TRELLIS_DPR16X4` cells, 16 words of
//! 4 bits each, with the read multiplexer in the LUTs themselves instead of a tree of them
//! behind one flip-flop per bit.
//!
//! `read_data` is the word at `read_addr` now (no clock); a write of `write_data` at
//! `write_addr` with `write_enable` high takes effect at the rising edge, so a read of the
//! same word sees the new value from the next cycle on. The contents are not reset nor initialised
//! (the rust-hdl model starts at zero): a user reads only words it wrote. The address ports are [`LUT_RAM_ADDR_BITS`] wide, of which the
//! memory uses the low `log2(depth)`.
//!
//! The depth is a constructor parameter and the width is that of `D`, so the block has
//! custom Verilog (as rust-hdl's own `ROM` and `RAM` widgets do) and a Rust model for the
//! rust-hdl simulation.

use rust_hdl::prelude::*;

/// Width of the address ports: memories of up to 32 words.
pub const LUT_RAM_ADDR_BITS: usize = 5;

#[derive(LogicBlock)]
pub struct LutRam<D: Synth> {
    pub clock: Signal<In, Clock>,
    pub read_addr: Signal<In, Bits<LUT_RAM_ADDR_BITS>>,
    /// The word at `read_addr` (combinational).
    pub read_data: Signal<Out, D>,
    pub write_enable: Signal<In, Bit>,
    pub write_addr: Signal<In, Bits<LUT_RAM_ADDR_BITS>>,
    pub write_data: Signal<In, D>,
    _mem: Vec<D>,
}

impl<D: Synth> LutRam<D> {
    /// A memory of `depth` words: a power of two from 2 to 32.
    pub fn new(depth: usize) -> Self {
        assert!(
            depth.is_power_of_two() && (2..=1 << LUT_RAM_ADDR_BITS).contains(&depth),
            "LutRam: depth {depth} is not a power of two from 2 to {}",
            1 << LUT_RAM_ADDR_BITS
        );
        Self {
            clock: Default::default(),
            read_addr: Default::default(),
            read_data: Default::default(),
            write_enable: Default::default(),
            write_addr: Default::default(),
            write_data: Default::default(),
            _mem: vec![D::default(); depth],
        }
    }

    /// Address bits the memory uses.
    fn abits(&self) -> usize {
        self._mem.len().trailing_zeros() as usize
    }

    fn index(&self, a: Bits<LUT_RAM_ADDR_BITS>) -> usize {
        a.index() & (self._mem.len() - 1)
    }
}

impl<D: Synth> Logic for LutRam<D> {
    fn update(&mut self) {
        if self.clock.pos_edge() && self.write_enable.val() {
            let wa = self.index(self.write_addr.val());
            self._mem[wa] = self.write_data.val();
        }
        self.read_data.next = self._mem[self.index(self.read_addr.val())];
    }

    fn connect(&mut self) {
        self.read_data.connect();
    }

    fn hdl(&self) -> Verilog {
        let a = self.abits();
        let unused = crate::verilog::unused_addr_hi(LUT_RAM_ADDR_BITS, a);
        Verilog::Custom(format!(
            "\
reg [{msb}:0] mem [0:{last}];
{unused}
always @(posedge clock) begin
    if (write_enable) begin
        mem[write_addr[{am}:0]] <= write_data;
    end
end
always @(*) begin
    read_data = mem[read_addr[{am}:0]];
end
",
            msb = D::BITS - 1,
            last = self._mem.len() - 1,
            am = a - 1,
        ))
    }
}
