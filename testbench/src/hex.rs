//! Hex fields of the CSV formats: no `0x`, any case, leading zeros optional.

/// Parses a hex field into at most `bits` bits. The error says what was wrong with the text.
pub fn parse(field: &[u8], bits: u32) -> Result<u128, String> {
    if field.is_empty() {
        return Err("empty hex value".into());
    }
    let mut v: u128 = 0;
    let mut significant = 0u32;
    for &c in field {
        let d = match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            b'A'..=b'F' => c - b'A' + 10,
            _ => {
                return Err(format!(
                    "`{}` is not hex (digits 0-9a-f, no 0x prefix)",
                    String::from_utf8_lossy(field)
                ));
            }
        };
        if significant > 0 || d != 0 {
            significant += 1;
            if significant > 32 {
                return Err(format!("`{}` is wider than {bits} bits", String::from_utf8_lossy(field)));
            }
        }
        v = (v << 4) | d as u128;
    }
    if bits < 128 && v >> bits != 0 {
        return Err(format!("`{}` is wider than {bits} bits", String::from_utf8_lossy(field)));
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
