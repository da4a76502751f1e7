//! Errors in a user's input file, reported as `line N: <what is wrong>` with exit status 2.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    /// 1-based line of the input; the header is line 1.
    pub line: u64,
    pub msg: String,
    /// The file the line is in, when the input is a named file.
    pub file: Option<String>,
}

impl InputError {
    pub fn new(line: u64, msg: impl Into<String>) -> InputError {
        InputError { line, msg: msg.into(), file: None }
    }

    /// Names the file the line is in.
    pub fn in_file(mut self, file: impl Into<String>) -> InputError {
        self.file = Some(file.into());
        self
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{file}: ")?;
        }
        write!(f, "line {}: {}", self.line, self.msg)
    }
}

impl std::error::Error for InputError {}

/// The UTF-8 byte order mark some editors put at the start of a file; skipped.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// Reads the header record and checks it is exactly `expected` (comma-separated).
pub fn check_header<R: std::io::Read>(
    rdr: &mut Rows<R>,
    rec: &mut csv::ByteRecord,
    expected: &str,
) -> anyhow::Result<()> {
    if !next_record(rdr, rec)? {
        // The header was due on the line after the (blank) lines read.
        return Err(InputError::new(rdr.line + 1, format!("empty input: expected the header `{expected}`")).into());
    }
    let line = rec.position().map_or(1, |p| p.line());
    let got: Vec<&[u8]> = rec.iter().collect();
    let want: Vec<&[u8]> = expected.split(',').map(str::as_bytes).collect();
    if got != want {
        let got = shown(&got.join(&b","[..]));
        return Err(InputError::new(line, format!("expected the header `{expected}`, found `{got}`")).into());
    }
    Ok(())
}

/// Reads the header record and checks it is one of `expected`; returns which. A header that is
/// none of them is reported as [`check_header`] reports it against the first.
pub fn check_header_any<R: std::io::Read>(
    rdr: &mut Rows<R>,
    rec: &mut csv::ByteRecord,
    expected: &[&str],
) -> anyhow::Result<usize> {
    if !next_record(rdr, rec)? {
        return Err(InputError::new(rdr.line + 1, format!("empty input: expected the header `{}`", expected[0])).into());
    }
    let line = rec.position().map_or(1, |p| p.line());
    let got: Vec<&[u8]> = rec.iter().collect();
    for (k, e) in expected.iter().enumerate() {
        if got == e.split(',').map(str::as_bytes).collect::<Vec<_>>() {
            return Ok(k);
        }
    }
    let got = shown(&got.join(&b","[..]));
    Err(InputError::new(line, format!("expected the header `{}`, found `{got}`", expected[0])).into())
}

/// Reads the project's CSV formats a row at a time. A row is one line (ended by `\n` or
/// `\r\n`) split at every comma: no field of these formats holds a comma or a quote, so there
/// is no quoting, and a row's position is exactly its line. Blank lines are skipped; a UTF-8
/// byte order mark at the start is ignored.
pub struct Rows<R> {
    input: std::io::BufReader<R>,
    line: u64,
    buf: Vec<u8>,
}

impl<R> Rows<R> {
    /// The lines read so far, blank ones included: the input's end is on the line after.
    pub fn lines_read(&self) -> u64 {
        self.line
    }
}

/// A row reader over `input` (see [`Rows`]).
pub fn csv_reader<R: std::io::Read>(input: R) -> Rows<R> {
    Rows { input: std::io::BufReader::with_capacity(1 << 16, input), line: 0, buf: Vec::new() }
}

/// Reads the next row into `rec`, its position set to its line; false at the end of the input.
pub fn next_record<R: std::io::Read>(rdr: &mut Rows<R>, rec: &mut csv::ByteRecord) -> anyhow::Result<bool> {
    use std::io::BufRead;
    loop {
        // A line inside the buffer is split where it lies; a longer one is gathered first.
        let buffered = rdr.input.fill_buf()?;
        if buffered.is_empty() {
            return Ok(false);
        }
        rdr.line += 1;
        let row = if let Some(end) = memchr::memchr(b'\n', buffered) {
            let row = fill(rec, &buffered[..end], rdr.line);
            rdr.input.consume(end + 1);
            row
        } else {
            rdr.buf.clear();
            rdr.input.read_until(b'\n', &mut rdr.buf)?;
            fill(rec, rdr.buf.strip_suffix(b"\n").unwrap_or(&rdr.buf), rdr.line)
        };
        if row {
            return Ok(true);
        }
    }
}

/// Splits `line` (number `n`, without its `\n`) into `rec`; false for a blank line.
fn fill(rec: &mut csv::ByteRecord, line: &[u8], n: u64) -> bool {
    let mut l = line.strip_suffix(b"\r").unwrap_or(line);
    if n == 1 {
        l = l.strip_prefix(BOM).unwrap_or(l);
    }
    if l.is_empty() {
        return false;
    }
    rec.clear();
    let mut start = 0;
    for comma in memchr::memchr_iter(b',', l) {
        rec.push_field(&l[start..comma]);
        start = comma + 1;
    }
    rec.push_field(&l[start..]);
    let mut pos = csv::Position::new();
    pos.set_line(n);
    rec.set_position(Some(pos));
    true
}

/// The first row of `input` as [`Rows`] reads it (the header): the first line that is not
/// blank, without its line end and a byte order mark. `None` when there is none yet.
pub fn first_row(input: &[u8]) -> Option<&[u8]> {
    let input = input.strip_prefix(BOM).unwrap_or(input);
    input.split(|&b| b == b'\n').map(|l| l.strip_suffix(b"\r").unwrap_or(l)).find(|l| !l.is_empty())
}

/// `field` as text for an error message: invalid UTF-8 replaced, and cut to its first 64
/// characters when longer (a megabyte line would otherwise be echoed whole).
pub fn shown(field: &[u8]) -> String {
    const MAX: usize = 64;
    let s = String::from_utf8_lossy(field);
    match s.char_indices().nth(MAX) {
        Some((i, _)) => format!("{}... ({} bytes)", &s[..i], field.len()),
        None => s.into_owned(),
    }
}

/// An input read up to its first bad row: the rows before it, and the error (`None` when
/// every row was good). Commands execute and write `rows`, then report `error`, so the output
/// holds every row before the bad one (and nothing for a bad header, as `eval` does).
pub struct Parsed<T> {
    pub rows: Vec<T>,
    pub error: Option<anyhow::Error>,
}

impl<T> Parsed<T> {
    /// Reads `input`: checks its header is `header` (the error when not: nothing is to be
    /// written then), then reads rows with `rows_into` (which pushes each good row) until it
    /// stops.
    pub fn read<R: std::io::Read>(
        input: R,
        header: &str,
        rows_into: impl FnOnce(&mut Rows<R>, &mut csv::ByteRecord, &mut Vec<T>) -> anyhow::Result<()>,
    ) -> anyhow::Result<Parsed<T>> {
        let mut rdr = csv_reader(input);
        let mut rec = csv::ByteRecord::new();
        check_header(&mut rdr, &mut rec, header)?;
        let mut rows = Vec::new();
        let error = rows_into(&mut rdr, &mut rec, &mut rows).err();
        Ok(Parsed { rows, error })
    }

    /// As [`Parsed::read`], with any of `headers`; `rows_into` learns which one came.
    pub fn read_any<R: std::io::Read>(
        input: R,
        headers: &[&str],
        rows_into: impl FnOnce(&mut Rows<R>, &mut csv::ByteRecord, &mut Vec<T>, usize) -> anyhow::Result<()>,
    ) -> anyhow::Result<Parsed<T>> {
        let mut rdr = csv_reader(input);
        let mut rec = csv::ByteRecord::new();
        let which = check_header_any(&mut rdr, &mut rec, headers)?;
        let mut rows = Vec::new();
        let error = rows_into(&mut rdr, &mut rec, &mut rows, which).err();
        Ok(Parsed { rows, error })
    }

    /// The rows, or the error.
    pub fn into_result(self) -> anyhow::Result<Vec<T>> {
        match self.error {
            Some(e) => Err(e),
            None => Ok(self.rows),
        }
    }

    /// `Ok(value)`, or the error.
    pub fn then<V>(self, value: V) -> anyhow::Result<V> {
        match self.error {
            Some(e) => Err(e),
            None => Ok(value),
        }
    }
}

/// Parses a column that mostly repeats the row before (a form name): once per change of text.
pub struct Cached<T> {
    last: Option<(Vec<u8>, T)>,
}

impl<T> Default for Cached<T> {
    fn default() -> Self {
        Cached { last: None }
    }
}

impl<T: std::str::FromStr + Copy> Cached<T>
where
    T::Err: fmt::Display,
{
    /// The value of `field` on `line`; a parse error reads "unknown `what` `text`: reason".
    pub fn parse(&mut self, field: &[u8], line: u64, what: &str) -> Result<T, InputError> {
        if let Some((text, v)) = &self.last {
            if text.as_slice() == field {
                return Ok(*v);
            }
        }
        // No name is this long: refuse it without echoing it twice (name and parse error).
        if field.len() > 256 {
            return Err(InputError::new(line, format!("unknown {what} `{}`: too long for a name", shown(field))));
        }
        let s = String::from_utf8_lossy(field);
        let v: T = s.parse().map_err(|e| InputError::new(line, format!("unknown {what} `{s}`: {e}")))?;
        self.last = Some((field.to_vec(), v));
        Ok(v)
    }
}
