//! The layout of the CLI's JSON reports: one top-level key per line, nested objects on one line
//! (`{"a": 1, "b": 2}`), where asked arrays in the top-level object one element a line, and the
//! numbers of named keys with a fixed number of decimals (`151.90`, as the reports print them).

use serde::Serialize;
use serde_json::ser::Formatter;
use std::io::{self, Write};

/// Serialises `value` in the reports' layout; `arrays_by_line`: the top-level object's arrays
/// with one element a line (else on one line, like nested objects); `decimals`: (key, decimals)
/// of the floating-point values written with a fixed number of decimals, at any depth (the
/// others in their shortest form).
pub fn to_string<T: Serialize + ?Sized>(value: &T, arrays_by_line: bool, decimals: &[(&str, usize)]) -> String {
    let mut buf = Vec::new();
    let layout = Layout { arrays_by_line, decimals, open: Vec::new(), key: String::new(), in_key: false };
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, layout);
    value.serialize(&mut ser).expect("a report serialises to JSON");
    String::from_utf8(buf).expect("serde_json writes UTF-8")
}

/// The formatter: which open containers are laid out one item a line, and the last key.
struct Layout<'a> {
    arrays_by_line: bool,
    decimals: &'a [(&'a str, usize)],
    /// For each open container: (one item a line, any item written).
    open: Vec<(bool, bool)>,
    /// The key of the value being written (the last one seen).
    key: String,
    in_key: bool,
}

impl Layout<'_> {
    fn indent<W: ?Sized + Write>(w: &mut W, level: usize) -> io::Result<()> {
        w.write_all(b"\n")?;
        for _ in 0..level {
            w.write_all(b"  ")?;
        }
        Ok(())
    }

    fn begin<W: ?Sized + Write>(&mut self, w: &mut W, by_line: bool, open: &[u8]) -> io::Result<()> {
        self.open.push((by_line, false));
        w.write_all(open)
    }

    fn item<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        let level = self.open.len();
        let top = self.open.last_mut().expect("an open container");
        top.1 = true;
        if !first {
            w.write_all(b",")?;
        }
        match (top.0, first) {
            (true, _) => Self::indent(w, level),
            (false, false) => w.write_all(b" "),
            (false, true) => Ok(()),
        }
    }

    fn end<W: ?Sized + Write>(&mut self, w: &mut W, close: &[u8]) -> io::Result<()> {
        let (by_line, any) = self.open.pop().expect("an open container");
        if by_line && any {
            Self::indent(w, self.open.len())?;
        }
        w.write_all(close)
    }
}

impl Formatter for Layout<'_> {
    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        let by_line = self.open.is_empty();
        self.begin(w, by_line, b"{")
    }
    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.end(w, b"}")
    }
    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.key.clear();
        self.in_key = true;
        self.item(w, first)
    }
    fn end_object_key<W: ?Sized + Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.in_key = false;
        Ok(())
    }
    fn write_string_fragment<W: ?Sized + Write>(&mut self, w: &mut W, fragment: &str) -> io::Result<()> {
        if self.in_key {
            self.key.push_str(fragment);
        }
        w.write_all(fragment.as_bytes())
    }
    fn write_f64<W: ?Sized + Write>(&mut self, w: &mut W, v: f64) -> io::Result<()> {
        match self.decimals.iter().find(|(k, _)| *k == self.key) {
            Some(&(_, places)) => write!(w, "{v:.places$}"),
            None => serde_json::ser::CompactFormatter.write_f64(w, v),
        }
    }
    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }
    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        let by_line = self.arrays_by_line && self.open.len() == 1;
        self.begin(w, by_line, b"[")
    }
    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.end(w, b"]")
    }
    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.item(w, first)
    }
}

/// `v` rounded to `places` decimals (the precision a report prints).
pub fn round(v: f64, places: i32) -> f64 {
    let k = 10f64.powi(places);
    (v * k).round() / k
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_level_by_line_nested_on_one_line() {
        let v = serde_json::json!({"a": 1, "b": {"c": [1, 2]}, "d": [{"e": 1.5}, {"e": null}], "f": []});
        assert_eq!(
            to_string(&v, false, &[]),
            "{\n  \"a\": 1,\n  \"b\": {\"c\": [1, 2]},\n  \"d\": [{\"e\": 1.5}, {\"e\": null}],\n  \"f\": []\n}"
        );
        assert_eq!(
            to_string(&v, true, &[]),
            "{\n  \"a\": 1,\n  \"b\": {\"c\": [1, 2]},\n  \"d\": [\n    {\"e\": 1.5},\n    {\"e\": null}\n  ],\n  \"f\": []\n}"
        );
    }

    #[test]
    fn fixed_decimals_by_key() {
        let v = serde_json::json!({"x": 1.5, "y": [{"x": 2.0, "z": 2.0}], "z": 0.25});
        assert_eq!(
            to_string(&v, false, &[("x", 2)]),
            "{\n  \"x\": 1.50,\n  \"y\": [{\"x\": 2.00, \"z\": 2.0}],\n  \"z\": 0.25\n}"
        );
    }
}
