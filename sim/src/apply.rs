//! `apply(form, old, operand) -> new` for every legal form.

use crate::form::{Form, Op, Space, Type};
use crate::fp::{self, Half};

/// Applies one element of `form`: the whole scalar, or one element of a vector form
/// (a packed x2 element is both of its lanes). `m` is the old memory value, `b` the operand,
/// both in the low [`Form::elem_bits`] bits; higher bits are ignored.
#[inline]
pub fn apply_elem(form: Form, m: u64, b: u64) -> u64 {
    let (op, ty) = (form.op(), form.ty());
    let global = form.space() == Space::Global;
    let (m32, b32) = (m as u32, b as u32);
    match ty {
        Type::B32 | Type::U32 | Type::S32 => int32(op, ty == Type::S32, m32, b32) as u64,
        Type::B64 | Type::U64 | Type::S64 => int64(op, ty == Type::S64, m, b),
        Type::F32 => fp::add_f32(m32, b32, global) as u64,
        Type::F64 => fp::add_f64(m, b, !global),
        Type::F16 => half_op(op, Half::F16, m as u16, b as u16) as u64,
        Type::Bf16 => half_op(op, Half::Bf16, m as u16, b as u16) as u64,
        Type::F16x2 | Type::Bf16x2 => {
            let fmt = if ty == Type::F16x2 { Half::F16 } else { Half::Bf16 };
            let lo = half_op(op, fmt, m32 as u16, b32 as u16) as u64;
            let hi = half_op(op, fmt, (m32 >> 16) as u16, (b32 >> 16) as u16) as u64;
            lo | (hi << 16)
        }
    }
}

/// Applies a whole instruction: `m` and `b` hold all elements, element 0 in the low bits.
pub fn apply(form: Form, m: u128, b: u128) -> u128 {
    let w = form.elem_bits();
    let mask = elem_mask(w) as u128;
    let mut out = 0u128;
    for i in 0..form.vec() as u32 {
        let sh = i * w;
        let r = apply_elem(form, ((m >> sh) & mask) as u64, ((b >> sh) & mask) as u64);
        out |= (r as u128 & mask) << sh;
    }
    out
}

/// All-ones in the low `bits` bits.
pub fn elem_mask(bits: u32) -> u64 {
    if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 }
}

#[inline(always)]
fn half_op(op: Op, fmt: Half, m: u16, b: u16) -> u16 {
    match op {
        Op::Min => fp::minmax_half(fmt, m, b, false),
        Op::Max => fp::minmax_half(fmt, m, b, true),
        _ => fp::add_half(fmt, m, b),
    }
}

#[inline(always)]
fn int32(op: Op, signed: bool, m: u32, b: u32) -> u32 {
    match op {
        Op::Add => m.wrapping_add(b),
        Op::And => m & b,
        Op::Or => m | b,
        Op::Xor => m ^ b,
        Op::Min if signed => (m as i32).min(b as i32) as u32,
        Op::Max if signed => (m as i32).max(b as i32) as u32,
        Op::Min => m.min(b),
        Op::Max => m.max(b),
        Op::Inc => {
            if m >= b {
                0
            } else {
                m + 1
            }
        }
        Op::Dec => {
            if m == 0 || m > b {
                b
            } else {
                m - 1
            }
        }
    }
}

#[inline(always)]
fn int64(op: Op, signed: bool, m: u64, b: u64) -> u64 {
    match op {
        Op::Add => m.wrapping_add(b),
        Op::And => m & b,
        Op::Or => m | b,
        Op::Xor => m ^ b,
        Op::Min if signed => (m as i64).min(b as i64) as u64,
        Op::Max if signed => (m as i64).max(b as i64) as u64,
        Op::Min => m.min(b),
        Op::Max => m.max(b),
        // Not legal on 64 bits; Form never carries them.
        Op::Inc | Op::Dec => unreachable!("inc/dec are u32-only forms"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(name: &str) -> Form {
        name.parse().unwrap()
    }

    #[test]
    fn integer_rules_of_the_spec() {
        assert_eq!(apply_elem(f("global.add.u32"), 0xffff_ffff, 2), 1);
        assert_eq!(apply_elem(f("global.add.s32"), 0xffff_ffff, 2), 1);
        assert_eq!(apply_elem(f("global.inc.u32"), 5, 5), 0);
        assert_eq!(apply_elem(f("global.inc.u32"), 4, 5), 5);
        assert_eq!(apply_elem(f("global.dec.u32"), 0, 7), 7);
        assert_eq!(apply_elem(f("global.dec.u32"), 8, 7), 7);
        assert_eq!(apply_elem(f("global.dec.u32"), 7, 7), 6);
        assert_eq!(apply_elem(f("global.min.s32"), 0xffff_ffff, 1), 0xffff_ffff);
        assert_eq!(apply_elem(f("global.min.u32"), 0xffff_ffff, 1), 1);
        assert_eq!(apply_elem(f("shared.max.s64"), 1u64 << 63, 1), 1);
        assert_eq!(apply_elem(f("shared.max.u64"), 1u64 << 63, 1), 1u64 << 63);
    }

    #[test]
    fn vector_elements_are_independent() {
        let v = f("global.v8.f16.add.noftz");
        // eight lanes of 1.0 + lane index (as f16 integers 0..7)
        let ones = (0..8).fold(0u128, |acc, i| acc | (0x3c00u128 << (16 * i)));
        let r = apply(v, ones, ones);
        for i in 0..8 {
            assert_eq!((r >> (16 * i)) as u16, 0x4000, "lane {i}");
        }
        let p = f("global.add.noftz.f16x2");
        assert_eq!(apply_elem(p, 0x3c00_7c00, 0x3c00_fc00), 0x4000_7fff);
    }
}
