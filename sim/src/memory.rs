//! A transaction-level memory: byte-addressed, little-endian, executing requests in order.

use std::fmt;
use std::str::FromStr;

use crate::apply::apply;
use crate::form::{Form, FormError};

/// Default memory size in bytes (64 KiB).
pub const DEFAULT_MEM_BYTES: usize = 65536;

/// The binary encoding of a request's operation and a response's status on the L2-slice
/// unit's ports. Like [`crate::form::encoding`], this is the one definition; the hardware and
/// the testbench use [`Access::code`], [`Access::from_code`] and [`status_code`].
///
/// | bits | field |
/// | --- | --- |
/// | `CODE_WIDTH-1..0` | red/atom: the form code; ld/st: the width (0 b32, 1 b64, 2 b128), plus [`req_encoding::CAS_FLAG`] on a store: compare-and-swap (b32, b64) |
/// | `KIND_LSB+1..KIND_LSB` | kind: 0 red, 1 atom, 2 ld, 3 st |
pub mod req_encoding {
    use crate::form::encoding::CODE_WIDTH;
    pub const KIND_LSB: usize = CODE_WIDTH;
    pub const KIND_WIDTH: usize = 2;
    pub const KIND_RED: u16 = 0;
    pub const KIND_ATOM: u16 = 1;
    pub const KIND_LD: u16 = 2;
    pub const KIND_ST: u16 = 3;
    /// On a store's code: `atom.cas` (the store only where the old value equals the compare
    /// value; the old value returned).
    pub const CAS_FLAG: u16 = 4;
    /// Width of a request operation code.
    pub const REQ_OP_WIDTH: usize = CODE_WIDTH + KIND_WIDTH;
    /// Width of the response status.
    pub const STATUS_WIDTH: usize = 2;
    pub const STATUS_OK: u8 = 0;
    pub const STATUS_MISALIGNED: u8 = 1;
    pub const STATUS_OUT_OF_RANGE: u8 = 2;
}

/// The status code of an outcome on the unit's response port.
pub fn status_code(outcome: Result<(), MemError>) -> u8 {
    use req_encoding::*;
    match outcome {
        Ok(()) => STATUS_OK,
        Err(MemError::Misaligned) => STATUS_MISALIGNED,
        Err(MemError::OutOfRange) => STATUS_OUT_OF_RANGE,
    }
}

/// The width of a plain load or store. The discriminant is its code in [`req_encoding`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u16)]
pub enum Width {
    B32 = 0,
    B64 = 1,
    B128 = 2,
}

impl Width {
    pub fn bytes(self) -> usize {
        match self {
            Width::B32 => 4,
            Width::B64 => 8,
            Width::B128 => 16,
        }
    }
    fn name(self) -> &'static str {
        match self {
            Width::B32 => "b32",
            Width::B64 => "b64",
            Width::B128 => "b128",
        }
    }
}

/// What a request does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Access {
    Ld(Width),
    St(Width),
    /// A reduction: memory = op(memory, value); nothing is returned.
    Red(Form),
    /// The returning form: the same update, and the old value comes back.
    Atom(Form),
    /// `atom.cas.b32|b64` (no b128): memory = swap where it equals compare; the old value
    /// comes back. `value` holds the swap value in its low bytes and the compare value in the
    /// next `bytes()` bytes (`compare << 8*bytes | swap`).
    Cas(Width),
}

impl Access {
    /// Bytes touched, which is also the required alignment.
    pub fn bytes(self) -> usize {
        match self {
            Access::Ld(w) | Access::St(w) | Access::Cas(w) => w.bytes(),
            Access::Red(f) | Access::Atom(f) => f.bytes(),
        }
    }
    /// Bytes of the operand in `value`: the access's, twice that for `atom.cas`.
    pub fn operand_bytes(self) -> usize {
        match self {
            Access::Cas(w) => 2 * w.bytes(),
            a => a.bytes(),
        }
    }
    /// Whether the request returns data (`ld`, `atom` and `atom.cas`).
    pub fn returns(self) -> bool {
        matches!(self, Access::Ld(_) | Access::Atom(_) | Access::Cas(_))
    }
    /// Whether the request carries an operand in `value`.
    pub fn has_operand(self) -> bool {
        !matches!(self, Access::Ld(_))
    }

    /// The request operation code, laid out as in [`req_encoding`].
    pub fn code(self) -> u16 {
        use req_encoding::*;
        let (kind, low) = match self {
            Access::Red(f) => (KIND_RED, f.code()),
            Access::Atom(f) => (KIND_ATOM, f.code()),
            Access::Ld(w) => (KIND_LD, w as u16),
            Access::St(w) => (KIND_ST, w as u16),
            Access::Cas(w) => (KIND_ST, CAS_FLAG | w as u16),
        };
        kind << KIND_LSB | low
    }

    /// Decodes a request operation code; `None` if it names no legal access.
    pub fn from_code(code: u16) -> Option<Access> {
        use req_encoding::*;
        if code >> REQ_OP_WIDTH != 0 {
            return None;
        }
        let low = code & ((1 << KIND_LSB) - 1);
        let width = || [Width::B32, Width::B64, Width::B128].get(low as usize).copied();
        match code >> KIND_LSB {
            KIND_RED => Form::from_code(low).map(Access::Red),
            KIND_ATOM => Form::from_code(low).map(Access::Atom),
            KIND_LD => width().map(Access::Ld),
            _ if low == CAS_FLAG | Width::B32 as u16 => Some(Access::Cas(Width::B32)),
            _ if low == CAS_FLAG | Width::B64 as u16 => Some(Access::Cas(Width::B64)),
            _ => width().map(Access::St),
        }
    }
}

impl fmt::Display for Access {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Access::Ld(w) => write!(f, "ld.{}", w.name()),
            Access::St(w) => write!(f, "st.{}", w.name()),
            Access::Red(form) => write!(f, "{form}"),
            Access::Atom(form) => write!(f, "atom.{form}"),
            Access::Cas(w) => write!(f, "atom.cas.{}", w.name()),
        }
    }
}

impl FromStr for Access {
    type Err = FormError;
    /// `st.b32|st.b64|st.b128|ld.b32|ld.b64|ld.b128`, `atom.cas.b32|b64`, a red form, or
    /// `atom.` + a red form.
    fn from_str(s: &str) -> Result<Access, FormError> {
        let width = |w: &str| match w {
            "b32" => Ok(Width::B32),
            "b64" => Ok(Width::B64),
            "b128" => Ok(Width::B128),
            _ => Err(FormError(format!("`{s}`: loads and stores are b32, b64 or b128"))),
        };
        if let Some(w) = s.strip_prefix("ld.") {
            Ok(Access::Ld(width(w)?))
        } else if let Some(w) = s.strip_prefix("st.") {
            Ok(Access::St(width(w)?))
        } else if let Some(w) = s.strip_prefix("atom.cas.") {
            match width(w)? {
                Width::B128 => Err(FormError(format!("`{s}`: atom.cas is b32 or b64"))),
                w => Ok(Access::Cas(w)),
            }
        } else if let Some(f) = s.strip_prefix("atom.") {
            Ok(Access::Atom(f.parse()?))
        } else {
            Ok(Access::Red(s.parse()?))
        }
    }
}

/// One request of a trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    pub access: Access,
    /// Byte address of the least significant byte.
    pub addr: u64,
    /// Store data or operand, in the low `access.operand_bytes()` bytes (element 0 lowest).
    pub value: u128,
}

/// Why a request did not touch memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemError {
    /// The address is not a multiple of the access size.
    Misaligned,
    /// Some byte of the access lies outside the memory.
    OutOfRange,
}

impl MemError {
    /// The name used in traces and responses.
    pub fn name(self) -> &'static str {
        match self {
            MemError::Misaligned => "misaligned",
            MemError::OutOfRange => "out-of-range",
        }
    }
}

impl fmt::Display for MemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Byte-addressed little-endian memory, initially zero.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Memory {
    bytes: Vec<u8>,
}

impl Default for Memory {
    fn default() -> Self {
        Memory::new(DEFAULT_MEM_BYTES)
    }
}

impl Memory {
    pub fn new(size: usize) -> Memory {
        Memory { bytes: vec![0; size] }
    }

    pub fn size(&self) -> usize {
        self.bytes.len()
    }

    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Checks alignment, then range: a misaligned request is reported as misaligned even if
    /// it is also out of range.
    pub fn check(&self, addr: u64, size: usize) -> Result<usize, MemError> {
        if addr % size as u64 != 0 {
            return Err(MemError::Misaligned);
        }
        match usize::try_from(addr) {
            Ok(a) if a.checked_add(size).is_some_and(|end| end <= self.bytes.len()) => Ok(a),
            _ => Err(MemError::OutOfRange),
        }
    }

    /// Reads `size` (<= 16) bytes at a checked address, little-endian.
    pub fn read(&self, addr: usize, size: usize) -> u128 {
        let mut buf = [0u8; 16];
        buf[..size].copy_from_slice(&self.bytes[addr..addr + size]);
        u128::from_le_bytes(buf)
    }

    /// Writes the low `size` (<= 16) bytes of `value` at a checked address, little-endian.
    pub fn write(&mut self, addr: usize, size: usize, value: u128) {
        self.bytes[addr..addr + size].copy_from_slice(&value.to_le_bytes()[..size]);
    }

    /// Executes one request. `Ok(Some(old))` for `ld`, `atom` and `atom.cas`, `Ok(None)` for
    /// `st` and `red`; an error leaves memory unchanged.
    pub fn execute(&mut self, req: &Request) -> Result<Option<u128>, MemError> {
        let size = req.access.bytes();
        let addr = self.check(req.addr, size)?;
        let old = self.read(addr, size);
        match req.access {
            Access::Ld(_) => return Ok(Some(old)),
            Access::St(_) => self.write(addr, size, req.value),
            Access::Red(f) | Access::Atom(f) => self.write(addr, size, apply(f, old, req.value)),
            Access::Cas(_) => {
                let mask = u128::MAX >> (128 - 8 * size);
                if old == (req.value >> (8 * size)) & mask {
                    self.write(addr, size, req.value);
                }
            }
        }
        Ok(req.access.returns().then_some(old))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(op: &str, addr: u64, value: u128) -> Request {
        Request { access: op.parse().unwrap(), addr, value }
    }

    #[test]
    fn little_endian_stores_loads_and_atoms() {
        let mut m = Memory::new(64);
        assert_eq!(m.execute(&req("st.b64", 8, 0x1122_3344_5566_7788)), Ok(None));
        assert_eq!(m.execute(&req("ld.b32", 8, 0)), Ok(Some(0x5566_7788)));
        assert_eq!(m.execute(&req("ld.b32", 12, 0)), Ok(Some(0x1122_3344)));
        assert_eq!(m.bytes()[8], 0x88);
        assert_eq!(m.execute(&req("atom.global.add.u32", 8, 1)), Ok(Some(0x5566_7788)));
        assert_eq!(m.execute(&req("global.add.u32", 8, 1)), Ok(None));
        assert_eq!(m.execute(&req("ld.b128", 0, 0)), Ok(Some(0x1122_3344_5566_778a << 64)));
        // A 16-bit scalar touches two bytes.
        assert_eq!(m.execute(&req("atom.global.add.noftz.f16", 2, 0x3c00)), Ok(Some(0)));
        assert_eq!(m.execute(&req("ld.b32", 0, 0)), Ok(Some(0x3c00_0000)));
    }

    #[test]
    fn errors_leave_memory_unchanged() {
        let mut m = Memory::new(64);
        m.execute(&req("st.b128", 48, u128::MAX)).unwrap();
        let before = m.clone();
        assert_eq!(m.execute(&req("st.b32", 2, 1)), Err(MemError::Misaligned));
        assert_eq!(m.execute(&req("global.v4.f32.add", 8, 1)), Err(MemError::Misaligned));
        assert_eq!(m.execute(&req("st.b32", 64, 1)), Err(MemError::OutOfRange));
        assert_eq!(m.execute(&req("atom.global.add.u64", 1 << 40, 1)), Err(MemError::OutOfRange));
        assert_eq!(m.execute(&req("ld.b128", u64::MAX - 15, 1)), Err(MemError::OutOfRange));
        assert_eq!(m, before);
    }

    #[test]
    fn access_codes_round_trip() {
        let mut n = 0;
        for code in 0..1u16 << req_encoding::REQ_OP_WIDTH {
            if let Some(a) = Access::from_code(code) {
                assert_eq!(a.code(), code, "{a}");
                n += 1;
            }
        }
        assert_eq!(n, 82 * 2 + 6 + 2, "red and atom of every form, three loads, three stores, two atom.cas");
        assert_eq!(Access::from_code(1 << req_encoding::REQ_OP_WIDTH), None);
    }

    #[test]
    fn access_names_round_trip() {
        for s in
            ["ld.b32", "ld.b128", "st.b64", "global.v4.f32.add", "atom.shared.inc.u32", "atom.cas.b32", "atom.cas.b64"]
        {
            assert_eq!(s.parse::<Access>().unwrap().to_string(), s);
        }
        assert!("ld.b16".parse::<Access>().unwrap_err().0.contains("b32, b64 or b128"));
        assert!("atom.cas.b128".parse::<Access>().unwrap_err().0.contains("b32 or b64"));
    }

    #[test]
    fn cas_swaps_only_on_a_match_and_returns_the_old_value() {
        let mut m = Memory::new(64);
        m.execute(&req("st.b128", 16, 0x0102_0304_0506_0708_090a_0b0c_0d0e_0f10)).unwrap();
        // Compare 5 against 0x0d0e0f10: no match, memory unchanged.
        assert_eq!(m.execute(&req("atom.cas.b32", 16, 5 << 32 | 0xaa)), Ok(Some(0x0d0e_0f10)));
        assert_eq!(m.execute(&req("ld.b32", 16, 0)), Ok(Some(0x0d0e_0f10)));
        // A match writes the swap value, only its own bytes.
        assert_eq!(m.execute(&req("atom.cas.b32", 20, 0x090a_0b0c << 32 | 0xaa)), Ok(Some(0x090a_0b0c)));
        assert_eq!(m.execute(&req("ld.b128", 16, 0)), Ok(Some(0x0102_0304_0506_0708_0000_00aa_0d0e_0f10)));
        // b64: the compare value is the upper 64 bits of the operand.
        let old = 0x0102_0304_0506_0708;
        assert_eq!(m.execute(&req("atom.cas.b64", 24, old << 64 | 0x77)), Ok(Some(old)));
        assert_eq!(m.execute(&req("ld.b64", 24, 0)), Ok(Some(0x77)));
        assert_eq!(m.execute(&req("atom.cas.b64", 20, 0)), Err(MemError::Misaligned));
        assert_eq!(Access::Cas(Width::B32).operand_bytes(), 8);
    }
}
