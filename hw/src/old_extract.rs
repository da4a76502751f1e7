//! The old value of an access from replicas of the registers that hold its line and shift:
//! `line >> shift` where an access can put it, a cycle after `line` and `sh`.
//!
//! An access of V bytes sits at a multiple of V, so the value's byte b (b < V) comes from
//! b plus a multiple of the smallest power of two above b. Bytes 0-1 select among 8 places,
//! 2-3 among 4, 4-7 between 2, and bytes 8-15 (only a 16-byte access has them) are the line's
//! own. Bytes beyond the access hold other bytes of the line, not zeros: every reader takes
//! only the access's bytes (the unit's ALU results are masked by its merge, its response by
//! the access mask). Narrower multiplexers with fewer select loads than a full shift: the
//! shift's fan-out to the ALU lanes' operand registers is otherwise the critical path of the
//! unit.
//!
//! The unit has one per group of consumers, each with its own replicas (`ReplicaReg`) of the
//! line and the shift, so that each group's multiplexers and the registers they read sit near
//! it (one shared set would be routed across the chip).

use crate::ecp5::replica_reg::ReplicaReg;
use crate::k;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct OldExtract {
    pub clock: Signal<In, Clock>,
    /// The line and the access's offset times 8 (a multiple of the access size). The unit's
    /// offsets are even, and the shift's low 4 bits are not kept: a replica hides a constant
    /// from synthesis, and with them the multiplexers were those of a full 128-way shift,
    /// 8 LUT levels instead of 3.
    pub line: Signal<In, Bits<128>>,
    pub sh: Signal<In, Bits<7>>,
    /// The old value, the accessed bytes from bit 0, of `line` and `sh` of the cycle before.
    pub old: Signal<Out, Bits<128>>,
    r_line: ReplicaReg<Bits<128>>,
    /// The shift, one replica per multiplexer group (bytes 0-1, 2-3, 4-7), and as a shift
    /// amount: its top bit selects in all three, and 64 multiplexers from one register was
    /// the critical path into the f16/bf16 lanes' operand registers.
    r_sh: [ReplicaReg<Bits<3>>; 3],
    x_sh: Signal<Local, Bits<7>>,
    x_sh32: Signal<Local, Bits<7>>,
    x_sh64: Signal<Local, Bits<7>>,
    four: Constant<Bits<7>>,
    unused_sh: Signal<Local, Bits<4>>,
    /// The value's bytes 0-1, 0-3, 0-7.
    m16: Constant<Bits<128>>,
    m32: Constant<Bits<128>>,
    m64: Constant<Bits<128>>,
    /// The shift's bits that select bytes 2-3 (offsets 0, 4, 8, 12) and 4-7 (0, 8).
    s4: Constant<Bits<7>>,
    s8: Constant<Bits<7>>,
}

impl Default for OldExtract {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            line: Default::default(),
            sh: Default::default(),
            old: Default::default(),
            r_line: Default::default(),
            r_sh: Default::default(),
            x_sh: Default::default(),
            x_sh32: Default::default(),
            x_sh64: Default::default(),
            four: k(4),
            unused_sh: Default::default(),
            m16: k(u16::MAX as u128),
            m32: k(u32::MAX as u128),
            m64: k(u64::MAX as u128),
            s4: k(0b110_0000),
            s8: k(0b100_0000),
        }
    }
}

impl Logic for OldExtract {
    #[hdl_gen]
    fn update(&mut self) {
        self.r_line.clock.next = self.clock.val();
        self.r_line.d.next = self.line.val();
        for g in 0..3 {
            self.r_sh[g].clock.next = self.clock.val();
            self.r_sh[g].d.next = self.sh.val().get_bits::<3>(4);
        }
        self.unused_sh.next = self.sh.val().get_bits::<4>(0);
        // (rust-hdl has no arrays of local signals: one per group.)
        self.x_sh.next = bit_cast::<7, 3>(self.r_sh[0].q.val()) << self.four.val();
        self.x_sh32.next = bit_cast::<7, 3>(self.r_sh[1].q.val()) << self.four.val();
        self.x_sh64.next = bit_cast::<7, 3>(self.r_sh[2].q.val()) << self.four.val();
        self.old.next = ((self.r_line.q.val() >> self.x_sh.val()) & self.m16.val())
            | ((self.r_line.q.val() >> (self.x_sh32.val() & self.s4.val())) & (self.m32.val() & !self.m16.val()))
            | ((self.r_line.q.val() >> (self.x_sh64.val() & self.s8.val())) & (self.m64.val() & !self.m32.val()))
            | (self.r_line.q.val() & !self.m64.val());
    }
}
