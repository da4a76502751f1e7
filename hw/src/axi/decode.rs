//! [`AtopDecode`]: the unit operation of an AXI write address (`AWATOP`, `AWSIZE`, `AWUSER`,
//! `AWLEN`), combinational. The table it implements is in `docs/axi.md`.

use super::{AWUSER_BITS, AWUSER_FORM_EN};
const _: () = assert!(AWUSER_FORM_EN == 10, "the decode names bit 10");
use crate::k;
use rust_hdl::prelude::*;
use sim::form::encoding::CODE_WIDTH;
use sim::memory::req_encoding::{KIND_ATOM, KIND_LSB, KIND_RED, REQ_OP_WIDTH};
use sim::{Access, Op, Type, Width};

/// Per ATOP operation (`AWATOP[2:0]`: ADD, CLR, EOR, SET, SMAX, SMIN, UMAX, UMIN): the unit's
/// op, its type for 4-byte and for 8-byte operands, and whether the operation is the same in
/// both byte orders (the bitwise ones).
pub const ATOP_OPS: [(Op, Type, Type, bool); 8] = [
    (Op::Add, Type::U32, Type::U64, false),
    (Op::And, Type::B32, Type::B64, true),
    (Op::Xor, Type::B32, Type::B64, true),
    (Op::Or, Type::B32, Type::B64, true),
    (Op::Max, Type::S32, Type::S64, false),
    (Op::Min, Type::S32, Type::S64, false),
    (Op::Max, Type::U32, Type::U64, false),
    (Op::Min, Type::U32, Type::U64, false),
];

#[derive(LogicBlock)]
pub struct AtopDecode {
    pub atop: Signal<In, Bits<6>>,
    pub size: Signal<In, Bits<3>>,
    pub user: Signal<In, Bits<AWUSER_BITS>>,
    pub len: Signal<In, Bits<8>>,
    /// `AWATOP[5:4]` is not zero: an atomic transaction.
    pub atomic: Signal<Out, Bit>,
    /// The atomic has a read response (AtomicLoad, AtomicSwap, AtomicCompare).
    pub returns: Signal<Out, Bit>,
    /// The unit's operation code ([`sim::Access::code`]).
    pub op: Signal<Out, Bits<REQ_OP_WIDTH>>,
    /// The operand is inverted (CLR: `mem & !data`).
    pub inv: Signal<Out, Bit>,
    /// The atomic is refused (`SLVERR`): see `docs/axi.md`.
    pub bad: Signal<Out, Bit>,
    /// AtomicSwap of a 4- or 8-byte operand: a load, then a store (`xld`, `xst`).
    /// `cas`: AtomicCompare of a 4- or 8-byte operand (8 or 16 bytes of data, one beat): the
    /// unit's `atom.cas` (`op`), its operand built from the compare and swap halves.
    /// `n8`: the Swap/Compare operand has 8 bytes.
    pub xchg: Signal<Out, Bit>,
    pub cas: Signal<Out, Bit>,
    pub n8: Signal<Out, Bit>,
    pub xld: Signal<Out, Bits<REQ_OP_WIDTH>>,
    pub xst: Signal<Out, Bits<REQ_OP_WIDTH>>,

    /// Bit f: form code f is a legal form ([`sim::Form::from_code`]).
    legal: Constant<Bits<1024>>,
    op_tbl: Constant<Bits<32>>,
    t32_tbl: Constant<Bits<32>>,
    t64_tbl: Constant<Bits<32>>,
    neutral: Constant<Bits<8>>,
    kind_red: Constant<Bits<REQ_OP_WIDTH>>,
    kind_atom: Constant<Bits<REQ_OP_WIDTH>>,
    c_store: Constant<Bits<2>>,
    c_two: Constant<Bits<3>>,
    c_clr: Constant<Bits<3>>,
    c_three: Constant<Bits<3>>,
    c_sh2: Constant<Bits<3>>,
    c_sh3: Constant<Bits<4>>,
    c_zero8: Constant<Bits<8>>,
    o: Signal<Local, Bits<3>>,
    o4: Signal<Local, Bits<5>>,
    ty: Signal<Local, Bits<4>>,
    tsh: Signal<Local, Bits<32>>,
    osh: Signal<Local, Bits<32>>,
    form: Signal<Local, Bits<CODE_WIDTH>>,
    kind: Signal<Local, Bits<REQ_OP_WIDTH>>,
    size_ok: Signal<Local, Bit>,
    k3: Signal<Local, Bit>,
    is_swap: Signal<Local, Bit>,
    is_cas: Signal<Local, Bit>,
    c_swap: Constant<Bits<6>>,
    c_cas: Constant<Bits<6>>,
    c_four: Constant<Bits<3>>,
    op_ld32: Constant<Bits<REQ_OP_WIDTH>>,
    op_ld64: Constant<Bits<REQ_OP_WIDTH>>,
    op_st32: Constant<Bits<REQ_OP_WIDTH>>,
    op_st64: Constant<Bits<REQ_OP_WIDTH>>,
    op_cas32: Constant<Bits<REQ_OP_WIDTH>>,
    op_cas64: Constant<Bits<REQ_OP_WIDTH>>,
    unused: Signal<Local, Bit>,
}

impl Default for AtopDecode {
    fn default() -> Self {
        let mut legal = [0u128; 8];
        for f in sim::Form::all() {
            let c = f.code() as usize;
            legal[c / 128] |= 1 << (c % 128);
        }
        let mut lb = Bits::<1024>::default();
        for (w, v) in legal.iter().enumerate() {
            for b in 0..128 {
                if v >> b & 1 == 1 {
                    lb = lb.replace_bit(128 * w + b, true);
                }
            }
        }
        let nib = |f: &dyn Fn(&(Op, Type, Type, bool)) -> u128| {
            ATOP_OPS.iter().enumerate().fold(0u128, |t, (i, e)| t | f(e) << (4 * i))
        };
        let neutral = ATOP_OPS.iter().enumerate().fold(0u128, |t, (i, e)| t | (e.3 as u128) << i);
        Self {
            atop: Default::default(),
            size: Default::default(),
            user: Default::default(),
            len: Default::default(),
            atomic: Default::default(),
            returns: Default::default(),
            op: Default::default(),
            inv: Default::default(),
            bad: Default::default(),
            legal: Constant::new(lb),
            op_tbl: k(nib(&|e| e.0 as u128)),
            t32_tbl: k(nib(&|e| e.1 as u128)),
            t64_tbl: k(nib(&|e| e.2 as u128)),
            neutral: k(neutral),
            kind_red: k((KIND_RED as u128) << KIND_LSB),
            kind_atom: k((KIND_ATOM as u128) << KIND_LSB),
            c_store: k(1),
            c_two: k(2),
            c_clr: k(1),
            c_three: k(3),
            c_sh2: k(2),
            c_sh3: k(3),
            c_zero8: k(0),
            o: Default::default(),
            o4: Default::default(),
            ty: Default::default(),
            tsh: Default::default(),
            osh: Default::default(),
            form: Default::default(),
            kind: Default::default(),
            size_ok: Default::default(),
            xchg: Default::default(),
            cas: Default::default(),
            n8: Default::default(),
            xld: Default::default(),
            xst: Default::default(),
            k3: Default::default(),
            is_swap: Default::default(),
            is_cas: Default::default(),
            c_swap: k(super::ATOP_SWAP as u128),
            c_cas: k(super::ATOP_COMPARE as u128),
            c_four: k(4),
            op_ld32: k(Access::Ld(Width::B32).code() as u128),
            op_ld64: k(Access::Ld(Width::B64).code() as u128),
            op_st32: k(Access::St(Width::B32).code() as u128),
            op_st64: k(Access::St(Width::B64).code() as u128),
            op_cas32: k(Access::Cas(Width::B32).code() as u128),
            op_cas64: k(Access::Cas(Width::B64).code() as u128),
            unused: Default::default(),
        }
    }
}

impl Logic for AtopDecode {
    #[hdl_gen]
    fn update(&mut self) {
        self.atomic.next = self.atop.val().get_bits::<2>(4).any();
        self.returns.next = self.atop.val().get_bit(5);
        self.kind.next = self.kind_atom.val();
        if self.atop.val().get_bits::<2>(4) == self.c_store.val() {
            self.kind.next = self.kind_red.val();
        }
        self.o.next = self.atop.val().get_bits::<3>(0);
        self.o4.next = bit_cast::<5, 3>(self.o.val()) << self.c_sh2.val();
        self.tsh.next = self.t32_tbl.val() >> self.o4.val();
        if self.size.val() == self.c_three.val() {
            self.tsh.next = self.t64_tbl.val() >> self.o4.val();
        }
        self.ty.next = self.tsh.val().get_bits::<4>(0);
        self.osh.next = self.op_tbl.val() >> self.o4.val();
        self.form.next = (bit_cast::<CODE_WIDTH, 4>(self.ty.val()) << self.c_sh3.val())
            | bit_cast::<CODE_WIDTH, 3>(self.osh.val().get_bits::<3>(0));
        self.size_ok.next = (self.size.val() == self.c_two.val()) || (self.size.val() == self.c_three.val());
        self.inv.next = false;
        // AtomicSwap: a 4- or 8-byte operand; AtomicCompare: 8 or 16 bytes of compare and swap
        // values (a 4- or 8-byte operand); the other AWATOP[5:4] = 11 codes are reserved.
        self.k3.next = self.atop.val().get_bits::<2>(4).all();
        self.is_swap.next = self.atop.val() == self.c_swap.val();
        self.is_cas.next = self.atop.val() == self.c_cas.val();
        self.n8.next = (self.is_swap.val() && (self.size.val() == self.c_three.val()))
            || (self.is_cas.val() && (self.size.val() == self.c_four.val()));
        self.xchg.next = (self.len.val() == self.c_zero8.val())
            && self.is_swap.val()
            && (self.size.val() == self.c_two.val() || self.size.val() == self.c_three.val());
        self.cas.next = (self.len.val() == self.c_zero8.val())
            && self.is_cas.val()
            && (self.size.val() == self.c_three.val() || self.size.val() == self.c_four.val());
        self.xld.next = self.op_ld32.val();
        self.xst.next = self.op_st32.val();
        if self.n8.val() {
            self.xld.next = self.op_ld64.val();
            self.xst.next = self.op_st64.val();
        }
        // Multi-beat atomics; the reserved codes and Swap/Compare of other sizes.
        self.bad.next =
            (self.k3.val() && !self.xchg.val() && !self.cas.val()) || (self.len.val() != self.c_zero8.val());
        if self.user.val().get_bit(10) && !self.k3.val() {
            self.form.next = self.user.val().get_bits::<CODE_WIDTH>(0);
            if !self.legal.val().get_bit(self.user.val().get_bits::<CODE_WIDTH>(0).index()) {
                self.bad.next = true;
            }
        } else if !self.k3.val() {
            self.inv.next = self.o.val() == self.c_clr.val();
            if !self.size_ok.val() {
                self.bad.next = true;
            }
            // Big-endian arithmetic (AWATOP[3]) is refused; the bitwise ops are order-free.
            if self.atop.val().get_bit(3) && !self.neutral.val().get_bit(self.o.val().index()) {
                self.bad.next = true;
            }
        }
        self.unused.next = self.tsh.val().get_bits::<28>(4).any() ^ self.osh.val().get_bits::<29>(3).any();
        self.op.next = self.kind.val() | bit_cast::<REQ_OP_WIDTH, CODE_WIDTH>(self.form.val());
        if self.cas.val() {
            self.op.next = self.op_cas32.val();
            if self.n8.val() {
                self.op.next = self.op_cas64.val();
            }
        }
    }
}
