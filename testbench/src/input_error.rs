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

/// Reads the header record and checks it is exactly `expected` (comma-separated).
pub fn check_header<R: std::io::Read>(
    rdr: &mut csv::Reader<R>,
    rec: &mut csv::ByteRecord,
    expected: &str,
) -> anyhow::Result<()> {
    if !rdr.read_byte_record(rec)? {
        return Err(InputError::new(1, format!("empty input: expected the header `{expected}`")).into());
    }
    let got: Vec<&[u8]> = rec.iter().collect();
    let want: Vec<&[u8]> = expected.split(',').map(str::as_bytes).collect();
    if got != want {
        let got = got.iter().map(|f| String::from_utf8_lossy(f)).collect::<Vec<_>>().join(",");
        return Err(InputError::new(1, format!("expected the header `{expected}`, found `{got}`")).into());
    }
    Ok(())
}

/// A CSV reader set up for the project's formats: no quoting surprises, any column count
/// (checked per row so that the error names the line).
pub fn csv_reader<R: std::io::Read>(input: R) -> csv::Reader<R> {
    csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(input)
}

/// Reads the next record into `rec`; false at the end of the input. Errors name their line.
pub fn next_record<R: std::io::Read>(rdr: &mut csv::Reader<R>, rec: &mut csv::ByteRecord) -> anyhow::Result<bool> {
    rdr.read_byte_record(rec).map_err(csv_error)
}

/// Maps a csv error to an input error with its line, where it has one.
pub fn csv_error(e: csv::Error) -> anyhow::Error {
    let line = e.position().map(|p| p.line()).unwrap_or(0);
    match e.kind() {
        csv::ErrorKind::Utf8 { .. } | csv::ErrorKind::UnequalLengths { .. } => {
            InputError::new(line, e.to_string()).into()
        }
        _ => e.into(),
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
        let s = String::from_utf8_lossy(field);
        let v: T = s.parse().map_err(|e| InputError::new(line, format!("unknown {what} `{s}`: {e}")))?;
        self.last = Some((field.to_vec(), v));
        Ok(v)
    }
}
