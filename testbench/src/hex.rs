//! Hex fields of the CSV formats: no `0x`, any case, leading zeros optional.

/// Digit values; 0xff marks a character that is not a hex digit.
static VALUE: [u8; 256] = {
    let mut t = [0xffu8; 256];
    let mut i = 0;
    while i < 10 {
        t[b'0' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        t[b'a' as usize + i] = 10 + i as u8;
        t[b'A' as usize + i] = 10 + i as u8;
        i += 1;
    }
    t
};

/// Parses a hex field into at most `bits` bits. The error says what was wrong with the text.
#[inline]
pub fn parse(field: &[u8], bits: u32) -> Result<u128, String> {
    let significant = &field[field.iter().take_while(|&&c| c == b'0').count()..];
    let mut bad = 0u8;
    let v = if significant.len() <= 16 {
        let mut v = 0u64;
        for &c in significant {
            let d = VALUE[c as usize];
            bad |= d;
            v = (v << 4) | (d & 0xf) as u64;
        }
        v as u128
    } else {
        let mut v = 0u128;
        for &c in significant {
            let d = VALUE[c as usize];
            bad |= d;
            v = (v << 4) | (d & 0xf) as u128;
        }
        v
    };
    if field.is_empty() {
        return Err("empty hex value".into());
    }
    if bad & 0xf0 != 0 {
        return Err(format!("`{}` is not hex (digits 0-9a-f, no 0x prefix)", crate::input_error::shown(field)));
    }
    if significant.len() > 32 || (bits < 128 && v >> bits != 0) {
        return Err(format!("`{}` is wider than {bits} bits", crate::input_error::shown(field)));
    }
    Ok(v)
}

const DIGITS: &[u8; 16] = b"0123456789abcdef";

/// Appends `v` as lowercase hex zero-padded to `bits / 4` digits.
#[inline]
pub fn push(out: &mut Vec<u8>, v: u128, bits: u32) {
    let n = (bits / 4) as usize;
    for i in (0..n).rev() {
        out.push(DIGITS[((v >> (4 * i)) & 0xf) as usize]);
    }
}

/// `v` as lowercase hex zero-padded to `bits / 4` digits.
pub fn format(v: u128, bits: u32) -> String {
    let mut out = Vec::with_capacity(bits as usize / 4);
    push(&mut out, v, bits);
    String::from_utf8(out).expect("hex digits are ASCII")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_case_and_leading_zeros_and_refuses_wide_values() {
        assert_eq!(parse(b"3C00", 16), Ok(0x3c00));
        assert_eq!(parse(b"0000003c00", 16), Ok(0x3c00));
        assert_eq!(parse(b"1", 64), Ok(1));
        assert!(parse(b"10000", 16).unwrap_err().contains("wider than 16 bits"));
        assert!(parse(b"0x10", 16).unwrap_err().contains("not hex"));
        assert!(parse(b"", 16).unwrap_err().contains("empty"));
        assert_eq!(parse(&[b'f'; 32], 128), Ok(u128::MAX));
        assert!(parse(&[b'f'; 33], 128).is_err());
        assert_eq!(format(0x3c00, 32), "00003c00");
    }
}
