//! Seeded random stimulus for the RTL regressions (`cargo test`, `redunit regress`), biased
//! toward the values where reduction hardware goes wrong: zeros, subnormals, infinities, quiet
//! and signalling NaNs with payloads, exact rounding ties, near-cancellation, overflow,
//! carries through the whole word, the extreme integers and the inc/dec wrap points.

use sim::{Form, Op, Type};

use crate::engine::AluOp;

/// A seeded generator of [`AluOp`]s (splitmix64, so a seed reproduces the stream).
pub struct Stimulus {
    state: u64,
    forms: Vec<Form>,
}

/// The seed from `REDUNIT_SEED` (decimal or `0x` hex), else one from the clock.
pub fn seed_from_env() -> anyhow::Result<u64> {
    match std::env::var("REDUNIT_SEED") {
        Ok(s) => parse_seed(&s).map_err(|e| anyhow::anyhow!("REDUNIT_SEED={s}: {e}")),
        Err(_) => Ok(clock_seed()),
    }
}

/// Parses a seed written in decimal or as `0x` hex.
pub fn parse_seed(s: &str) -> Result<u64, String> {
    let s = s.trim();
    let r = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16),
        None => s.parse(),
    };
    r.map_err(|_| "a seed is a 64-bit number, decimal or 0x hex".to_string())
}

/// A seed from the clock, for runs that were not given one.
pub fn clock_seed() -> u64 {
    let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    sim::splitmix64(t ^ (std::process::id() as u64) << 40)
}

/// A binary floating-point format: `mant` fraction bits, `bits` in all.
#[derive(Clone, Copy)]
struct Fmt {
    bits: u32,
    mant: u32,
}

const F16: Fmt = Fmt { bits: 16, mant: 10 };
const BF16: Fmt = Fmt { bits: 16, mant: 7 };
const F32: Fmt = Fmt { bits: 32, mant: 23 };
const F64: Fmt = Fmt { bits: 64, mant: 52 };

impl Fmt {
    fn exp_max(self) -> u64 {
        (1u64 << (self.bits - 1 - self.mant)) - 1
    }
    fn mant_mask(self) -> u64 {
        (1u64 << self.mant) - 1
    }
    fn sign(self) -> u64 {
        1u64 << (self.bits - 1)
    }
    fn pack(self, sign: bool, exp: u64, mant: u64) -> u64 {
        (if sign { self.sign() } else { 0 }) | (exp.min(self.exp_max()) << self.mant) | (mant & self.mant_mask())
    }
    fn exp_of(self, v: u64) -> u64 {
        (v >> self.mant) & self.exp_max()
    }
    fn mask(self) -> u64 {
        sim::elem_mask(self.bits)
    }
}

impl Stimulus {
    pub fn new(seed: u64) -> Self {
        Self { state: seed, forms: Form::all() }
    }

    #[inline]
    fn next(&mut self) -> u64 {
        sim::splitmix64_next(&mut self.state)
    }

    #[inline]
    fn below(&mut self, n: u64) -> u64 {
        ((self.next() as u128 * n as u128) >> 64) as u64
    }

    fn coin(&mut self) -> bool {
        self.next() & 1 == 1
    }

    /// An operation of a form drawn uniformly from all 82.
    pub fn random_op(&mut self) -> AluOp {
        let i = self.below(self.forms.len() as u64) as usize;
        let f = self.forms[i];
        self.op(f)
    }

    /// Appends `n` random operations to `out`.
    pub fn fill(&mut self, n: usize, out: &mut Vec<AluOp>) {
        out.reserve(n);
        for _ in 0..n {
            let op = self.random_op();
            out.push(op);
        }
    }

    /// An operation of `form`, each element drawn independently.
    pub fn op(&mut self, form: Form) -> AluOp {
        let w = form.elem_bits();
        let (mut old, mut b) = (0u128, 0u128);
        for i in 0..form.vec() as u32 {
            let (m, v) = self.elem(form);
            old |= (m as u128) << (w * i);
            b |= (v as u128) << (w * i);
        }
        AluOp { form, old, b }
    }

    /// One element pair (old, operand) of `form`.
    fn elem(&mut self, form: Form) -> (u64, u64) {
        match form.ty() {
            Type::B32 | Type::U32 | Type::S32 => self.int_pair(form.op(), 32),
            Type::B64 | Type::U64 | Type::S64 => self.int_pair(form.op(), 64),
            Type::F32 => self.float_pair(F32),
            Type::F64 => self.float_pair(F64),
            Type::F16 => self.float_pair(F16),
            Type::Bf16 => self.float_pair(BF16),
            Type::F16x2 | Type::Bf16x2 => {
                let f = if form.ty() == Type::F16x2 { F16 } else { BF16 };
                let (m0, b0) = self.float_pair(f);
                let (m1, b1) = self.float_pair(f);
                (m0 | m1 << 16, b0 | b1 << 16)
            }
        }
    }

    fn int_special(&mut self, bits: u32) -> u64 {
        let mask = sim::elem_mask(bits);
        let top = 1u64 << (bits - 1);
        let v = match self.below(14) {
            0 => 0,
            1 => 1,
            2 => 2,
            3 => mask,
            4 => mask - 1,
            5 => top - 1,
            6 => top,
            7 => top + 1,
            8 => 0xffff,
            9 => 0x1_0000,
            10 => self.below(256),
            11 => mask - self.below(256),
            12 => (1u64 << self.below(bits as u64)).wrapping_sub(self.below(2)),
            _ => self.next(),
        };
        v & mask
    }

    fn int_any(&mut self, bits: u32) -> u64 {
        if self.coin() { self.int_special(bits) } else { self.next() & sim::elem_mask(bits) }
    }

    fn int_pair(&mut self, op: Op, bits: u32) -> (u64, u64) {
        let mask = sim::elem_mask(bits);
        match op {
            Op::Inc | Op::Dec => {
                // The wrap points: m == b, m == b ± 1, m == 0, m > b.
                let b = self.int_any(bits);
                let m = match self.below(7) {
                    0 => b,
                    1 => b.wrapping_add(1),
                    2 => b.wrapping_sub(1),
                    3 => 0,
                    4 => mask,
                    5 => self.int_special(bits),
                    _ => self.next(),
                } & mask;
                (m, b)
            }
            _ => match self.below(6) {
                0 => (self.int_special(bits), self.int_special(bits)),
                1 => (self.next() & mask, self.next() & mask),
                2 => {
                    // Carries through the whole word: b = -m + k.
                    let m = self.int_any(bits);
                    (m, (!m).wrapping_add(self.below(3)) & mask)
                }
                3 => {
                    // Neighbours (min/max ties and off-by-one), across the sign boundary too.
                    let m = self.int_any(bits);
                    (m, m.wrapping_add(self.below(3)).wrapping_sub(1) & mask)
                }
                4 => (self.int_any(bits), self.int_any(bits)),
                _ => {
                    let m = self.int_any(bits);
                    (m, m ^ (1u64 << (bits - 1)))
                }
            },
        }
    }

    fn float_special(&mut self, f: Fmt) -> u64 {
        let s = self.coin();
        let emax = f.exp_max();
        let mm = f.mant_mask();
        let quiet = 1u64 << (f.mant - 1);
        let payload = self.next() & mm;
        let bias = emax >> 1;
        match self.below(16) {
            0 | 1 => f.pack(s, 0, 0),                         // ±0
            2 => f.pack(s, 0, 1),                             // smallest subnormal
            3 => f.pack(s, 0, mm),                            // largest subnormal
            4 => f.pack(s, 0, payload.max(1)),                // a subnormal
            5 => f.pack(s, 1, 0),                             // smallest normal
            6 => f.pack(s, emax - 1, mm),                     // largest finite
            7 | 8 => f.pack(s, emax, 0),                      // ±inf
            9 => f.pack(s, emax, quiet),                      // canonical qNaN
            10 => f.pack(s, emax, quiet | payload),           // qNaN with payload
            11 => f.pack(s, emax, (payload & !quiet).max(1)), // sNaN with payload
            12 => f.pack(s, emax, 1),                         // sNaN, smallest payload
            13 => f.pack(s, bias, 0),                         // ±1
            14 => f.pack(s, bias, self.below(2)),             // 1 or 1 + ulp
            _ => f.pack(s, self.below(emax + 1), mm - self.below(2)),
        }
    }

    fn float_finite(&mut self, f: Fmt) -> u64 {
        let e = self.below(f.exp_max());
        f.pack(self.coin(), e, self.next())
    }

    fn float_pair(&mut self, f: Fmt) -> (u64, u64) {
        let emax = f.exp_max();
        let mask = f.mask();
        match self.below(9) {
            0 => (self.float_special(f), self.float_special(f)),
            1 => {
                let (a, b) = (self.float_special(f), self.next() & mask);
                if self.coin() { (a, b) } else { (b, a) }
            }
            2 => (self.next() & mask, self.next() & mask),
            3 => {
                // Close exponents: alignment shifts of a few bits.
                let a = self.float_finite(f);
                let d = self.below(7) as i64 - 3;
                let e = (f.exp_of(a) as i64 + d).clamp(0, emax as i64 - 1) as u64;
                (a, f.pack(self.coin(), e, self.next()))
            }
            4 => {
                // Near-cancellation: -a give or take a few ulps.
                let a = self.float_finite(f);
                let b = (a ^ f.sign()).wrapping_add(self.below(5)).wrapping_sub(2) & mask;
                (a, b)
            }
            5 => {
                // Exact rounding ties: b is half an ulp of a (or that plus a sticky bit).
                let ea = f.mant as u64 + 2 + self.below(emax - f.mant as u64 - 2);
                let a = f.pack(self.coin(), ea, self.next());
                let eb = ea - f.mant as u64 - 1;
                let mb = match self.below(3) {
                    0 => 0,
                    1 => 1,
                    _ => f.mant_mask(),
                };
                let b = f.pack(self.coin(), eb, mb);
                if self.coin() { (a, b) } else { (b, a) }
            }
            6 => {
                // Subnormal range, both operands.
                let e1 = self.below(2);
                let e2 = self.below(2);
                (f.pack(self.coin(), e1, self.next()), f.pack(self.coin(), e2, self.next()))
            }
            7 => {
                // Overflow range: same sign, the top exponents.
                let s = self.coin();
                let e1 = emax - 1 - self.below(2);
                let e2 = emax - 1 - self.below(2);
                (f.pack(s, e1, self.next()), f.pack(s, e2, self.next()))
            }
            _ => (self.float_finite(f), self.float_finite(f)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_and_values_fit_their_form() {
        let (mut a, mut b) = (Stimulus::new(7), Stimulus::new(7));
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..20_000 {
            let op = a.random_op();
            assert_eq!(op, b.random_op());
            let m = crate::engine::result_mask(op.form);
            assert_eq!(op.old & !m, 0, "{}", op.form);
            assert_eq!(op.b & !m, 0, "{}", op.form);
            seen.insert(op.form);
        }
        assert_eq!(seen.len(), 82);
        assert_eq!(parse_seed("0x10"), Ok(16));
        assert_eq!(parse_seed("16"), Ok(16));
        assert!(parse_seed("x").is_err());
    }
}
