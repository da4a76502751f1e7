//! The accept's first step: what the request's operation is, from the port alone (its size,
//! whether the FP ALU computes it, a masked sector request, out of range, the queue's window
//! and its chain key).
//!
//! A block of its own: it reads only the port's operation, address and mask, so it can sit
//! before the accept's first register (`ad_*`) while the address-dependent checks come after.

use super::{Shape, elem_log2_table, is_int_type};
use crate::k;
use crate::ordering_queue::{QUEUE_KEY_BITS, QUEUE_KEY_LONG, QUEUE_WAIT_BITS};
use rust_hdl::prelude::*;
use sim::form::encoding::{CODE_WIDTH, OP_LSB, OP_WIDTH, TYPE_LSB, TYPE_WIDTH, VEC_LSB, VEC_WIDTH};
use sim::memory::req_encoding::{KIND_ATOM, KIND_LD, KIND_LSB, KIND_RED, KIND_ST, KIND_WIDTH, REQ_OP_WIDTH};

#[derive(LogicBlock)]
pub(super) struct FormDecode {
    pub op: Signal<In, Bits<REQ_OP_WIDTH>>,
    pub addr: Signal<In, Bits<32>>,
    pub mask: Signal<In, Bits<8>>,
    /// log2 of the access bytes (ld/st: 2 + width code; forms: log2(element bytes) +
    /// log2(vec); a masked sector request: 4).
    pub size: Signal<Out, Bits<3>>,
    /// The FP ALU computes it.
    pub fp: Signal<Out, Bit>,
    /// A masked sector request's mask (red/atom with a non-zero mask: its whole 16-byte line;
    /// zero otherwise).
    pub sector_mask: Signal<Out, Bits<8>>,
    /// Its first byte is beyond the memory (an aligned access is in range when its first
    /// byte is).
    pub oor: Signal<Out, Bit>,
    /// The queue's window behind it (`Shape`'s: FP forms, integer/bitwise forms, `atom.cas`,
    /// ld/st).
    pub window: Signal<Out, Bits<QUEUE_WAIT_BITS>>,
    /// The queue's chain key (zero when it takes no loop): the bytes it
    /// touches (offset, size) of a plain red/atom, whether its op is an integer add, and, or
    /// or xor (see "The integer loop" in the unit's doc), and whether the FP ALU computes it
    /// (the long bit: the FP loop, "The FP loop"). Decoded here, so that the queue's key
    /// compares a cycle ahead start from a register.
    pub key: Signal<Out, Bits<QUEUE_KEY_BITS>>,
    /// The 32-bit words of its line it touches (the whole line for a masked sector request):
    /// its aligned size from its first
    /// word. Decoded here, so that the queue's word compares a cycle ahead start from a
    /// register.
    pub words: Signal<Out, Bits<4>>,
    /// A masked sector request.
    sector: Signal<Local, Bit>,
    /// A plain red/atom: it may chain.
    chain: Signal<Local, Bit>,
    /// An integer chain whose op is add, and, or or xor: its result's low half exists a cycle
    /// before its high half, so a dependent one may follow it a cycle behind (the queue's fast
    /// chains).
    fast: Signal<Local, Bit>,
    kind: Signal<Local, Bits<KIND_WIDTH>>,
    form: Signal<Local, Bits<CODE_WIDTH>>,
    ty: Signal<Local, Bits<TYPE_WIDTH>>,
    ty2: Signal<Local, Bits<8>>,
    elog: Signal<Local, Bits<32>>,
    memop: Signal<Local, Bit>,
    redatom: Signal<Local, Bit>,
    unused_decode: Signal<Local, Bit>,
    mem_bytes: Constant<Bits<32>>,
    kind_lsb: Constant<Bits<4>>,
    ty_lsb: Constant<Bits<4>>,
    vec_lsb: Constant<Bits<4>>,
    kind_red: Constant<Bits<KIND_WIDTH>>,
    kind_atom: Constant<Bits<KIND_WIDTH>>,
    kind_ld: Constant<Bits<KIND_WIDTH>>,
    kind_st: Constant<Bits<KIND_WIDTH>>,
    elem_log2_tbl: Constant<Bits<32>>,
    fp_tbl: Constant<Bits<16>>,
    one8: Constant<Bits<8>>,
    zero8: Constant<Bits<8>>,
    two3: Constant<Bits<3>>,
    size3: Constant<Bits<3>>,
    size4: Constant<Bits<3>>,
    ones4: Constant<Bits<4>>,
    one4: Constant<Bits<4>>,
    three4: Constant<Bits<4>>,
    key_chain: Constant<Bits<QUEUE_KEY_BITS>>,
    key_fast: Constant<Bits<QUEUE_KEY_BITS>>,
    key_long: Constant<Bits<QUEUE_KEY_BITS>>,
    key_u0: Constant<Bits<QUEUE_KEY_BITS>>,
    key_u1: Constant<Bits<QUEUE_KEY_BITS>>,
    ty_f32: Constant<Bits<TYPE_WIDTH>>,
    ty_f64: Constant<Bits<TYPE_WIDTH>>,
    key_sum64: Constant<Bits<QUEUE_KEY_BITS>>,
    zero_key: Constant<Bits<QUEUE_KEY_BITS>>,
    op_lsb: Constant<Bits<4>>,
    op_add: Constant<Bits<OP_WIDTH>>,
    win_fp: Constant<Bits<QUEUE_WAIT_BITS>>,
    win_int: Constant<Bits<QUEUE_WAIT_BITS>>,
    win_cas: Constant<Bits<QUEUE_WAIT_BITS>>,
    win_mem: Constant<Bits<QUEUE_WAIT_BITS>>,
}

impl FormDecode {
    /// For a memory of `mem_bytes` and the queue windows of `sh`.
    pub(super) fn new(mem_bytes: usize, sh: &Shape) -> Self {
        Self {
            op: Default::default(),
            addr: Default::default(),
            mask: Default::default(),
            size: Default::default(),
            fp: Default::default(),
            sector: Default::default(),
            sector_mask: Default::default(),
            oor: Default::default(),
            window: Default::default(),
            key: Default::default(),
            words: Default::default(),
            chain: Default::default(),
            fast: Default::default(),
            kind: Default::default(),
            form: Default::default(),
            ty: Default::default(),
            ty2: Default::default(),
            elog: Default::default(),
            memop: Default::default(),
            redatom: Default::default(),
            unused_decode: Default::default(),
            mem_bytes: k(mem_bytes as u128),
            kind_lsb: k(KIND_LSB as u128),
            ty_lsb: k(TYPE_LSB as u128),
            vec_lsb: k(VEC_LSB as u128),
            kind_red: k(KIND_RED as u128),
            kind_atom: k(KIND_ATOM as u128),
            kind_ld: k(KIND_LD as u128),
            kind_st: k(KIND_ST as u128),
            elem_log2_tbl: k(elem_log2_table()),
            fp_tbl: k(fp_type_table()),
            one8: k(1),
            zero8: k(0),
            two3: k(2),
            size3: k(3),
            size4: k(4),
            ones4: k(15),
            one4: k(1),
            three4: k(3),
            key_chain: k(1 << (QUEUE_KEY_BITS - 1)),
            key_fast: k(1 << (QUEUE_KEY_BITS - 2)),
            key_long: k(1 << QUEUE_KEY_LONG),
            key_u0: k(1 << 7),
            key_u1: k(1 << 8),
            ty_f32: k(sim::Type::F32 as u128),
            ty_f64: k(sim::Type::F64 as u128),
            key_sum64: k(1),
            zero_key: k(0),
            op_lsb: k(OP_LSB as u128),
            op_add: k(sim::Op::Add as u128),
            win_fp: k(sh.win_fp as u128),
            win_int: k(sh.win_int as u128),
            win_cas: k(sh.win_cas as u128),
            win_mem: k(sh.win_mem as u128),
        }
    }
}

impl Logic for FormDecode {
    #[hdl_gen]
    fn update(&mut self) {
        self.kind.next = self.op.val().get_bits::<KIND_WIDTH>(self.kind_lsb.val().index());
        self.form.next = self.op.val().get_bits::<CODE_WIDTH>(0);
        self.ty.next = self.form.val().get_bits::<TYPE_WIDTH>(self.ty_lsb.val().index());
        self.memop.next = (self.kind.val() == self.kind_ld.val()) || (self.kind.val() == self.kind_st.val());
        self.redatom.next = (self.kind.val() == self.kind_red.val()) || (self.kind.val() == self.kind_atom.val());
        self.ty2.next = bit_cast::<8, TYPE_WIDTH>(self.ty.val()) << self.one8.val();
        self.elog.next = self.elem_log2_tbl.val() >> self.ty2.val();
        if self.memop.val() {
            self.size.next = self.two3.val() + bit_cast::<3, 2>(self.form.val().get_bits::<2>(0));
            self.fp.next = false;
        } else {
            self.size.next = bit_cast::<3, 2>(self.elog.val().get_bits::<2>(0))
                + bit_cast::<3, VEC_WIDTH>(self.form.val().get_bits::<VEC_WIDTH>(self.vec_lsb.val().index()));
            self.fp.next = self.fp_tbl.val().get_bit(self.ty.val().index());
        }
        self.sector.next = self.mask.val().any() && self.redatom.val();
        self.sector_mask.next = self.zero8.val();
        if self.sector.val() {
            self.size.next = self.size4.val();
            self.sector_mask.next = self.mask.val();
        }
        self.oor.next = self.addr.val() >= self.mem_bytes.val();
        if self.fp.val() {
            self.window.next = self.win_fp.val();
        } else if self.redatom.val() {
            self.window.next = self.win_int.val();
        } else if (self.kind.val() == self.kind_st.val()) && self.form.val().get_bit(2) {
            self.window.next = self.win_cas.val();
        } else {
            self.window.next = self.win_mem.val();
        }
        self.chain.next = !self.sector.val() && self.redatom.val();
        // (Op codes 0..3, the op field's bit 2 clear: add, and, or, xor.)
        self.fast.next = self.chain.val() && !self.fp.val() && !self.form.val().get_bit(2);
        // The key: offset in bits 3..0, size in 6..4, the FP unit in 8..7 (f16/bf16 add 0,
        // 16-bit min/max 1, f32 2, f64 3), FP (long) in 9, fast in 10, chain in 11. An FP
        // chain's consumer takes its operand from its unit's own lanes, which hold the new
        // value of the same bytes whichever form of that unit made it. A 64-bit add
        // sets the offset's bit 0 (never set in an aligned 8-byte offset): it chains only
        // behind 64-bit adds, as `IntAlu`'s loop carries its high sum to fast forms alone. (Not
        // gated by the status: the queue never makes an entry wait on an unordered one, and
        // never holds an unordered one, so an unordered entry's key is never read.)
        self.key.next = self.zero_key.val();
        if self.chain.val() {
            self.key.next = bit_cast::<QUEUE_KEY_BITS, 4>(self.addr.val().get_bits::<4>(0))
                | (bit_cast::<QUEUE_KEY_BITS, 3>(self.size.val()) << 4)
                | self.key_chain.val();
            if self.fast.val() {
                self.key.next = self.key.val() | self.key_fast.val();
            }
            if self.fp.val() {
                self.key.next = self.key.val() | self.key_long.val();
            }
            if self.fp.val() && ((self.ty.val() == self.ty_f64.val()) || self.form.val().get_bit(2)) {
                self.key.next = self.key.val() | self.key_u0.val();
            }
            if self.fp.val() && ((self.ty.val() == self.ty_f32.val()) || (self.ty.val() == self.ty_f64.val())) {
                self.key.next = self.key.val() | self.key_u1.val();
            }
            if self.fast.val()
                && (self.size.val() == self.size3.val())
                && (self.op.val().get_bits::<OP_WIDTH>(self.op_lsb.val().index()) == self.op_add.val())
            {
                self.key.next = self.key.val() | self.key_sum64.val();
            }
        }
        self.words.next = self.ones4.val();
        if !self.sector.val() {
            if self.size.val() == self.size3.val() {
                self.words.next = self.three4.val() << self.addr.val().get_bits::<2>(2);
            } else if self.size.val() < self.size3.val() {
                self.words.next = self.one4.val() << self.addr.val().get_bits::<2>(2);
            }
        }
        // Unused decode bits (the space bit, op bits of ld/st) and table bits.
        self.unused_decode.next = self.form.val().any() ^ self.elog.val().any();
    }
}

const _: () = assert!(
    sim::form::encoding::OP_LSB == 0 && sim::Op::Min as usize == 4 && sim::Op::Max as usize == 5,
    "`fast` and the FP unit read the op field's bit 2"
);
const _: () = assert!(QUEUE_KEY_LONG == 9, "the key's offset, size and FP unit take bits 8..0");

/// Bit t: type code t goes to the FP ALU.
fn fp_type_table() -> u128 {
    let mut fp = 0u128;
    for t in sim::form::TYPES {
        if !is_int_type(t) {
            fp |= 1 << t as u128;
        }
    }
    fp
}
