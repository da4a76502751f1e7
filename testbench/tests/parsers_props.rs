//! Property tests of the input parsers of `redunit eval` and `redunit run` (all formats, on
//! the golden model and the RTL engines alike), on in-memory input: any input either runs, or stops with `line N: ...` after writing exactly
//! the output of the rows before line N; never a panic or a hang.
//!
//! Rerun: `cargo test --release -p testbench --test parsers_props`. A failure prints its
//! minimal input and saves its seed in `parsers_props.proptest-regressions` beside this file,
//! which later runs replay first; `PROPTEST_CASES=N` changes the number of cases.

mod parsers;

use parsers::{ALL, MODEL, RTL, Target, check, corrupt, input, line_of};
use proptest::prelude::*;

/// `cases` cases, unless `PROPTEST_CASES` says otherwise. The counts keep all the suites of
/// this file within a few seconds of a release build.
fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(cases);
    let persistence = proptest::test_runner::FileFailurePersistence::WithSource("proptest-regressions");
    ProptestConfig { cases, failure_persistence: Some(Box::new(persistence)), ..ProptestConfig::default() }
}

/// A format and valid rows of it.
fn valid(targets: &'static [Target], n: usize) -> impl Strategy<Value = (Target, Vec<String>)> {
    prop::sample::select(targets).prop_flat_map(move |t| (Just(t), (t.rows)(n)))
}

/// A format, valid rows with at least one row, a row to corrupt and how.
fn corrupted(targets: &'static [Target], n: usize) -> impl Strategy<Value = (Target, Vec<String>, usize, u8)> {
    prop::sample::select(targets)
        .prop_flat_map(move |t| {
            ((t.rows)(n), any::<prop::sample::Index>(), any::<u8>()).prop_map(move |(r, i, how)| (t, r, i, how))
        })
        .prop_filter("a row to corrupt", |(_, r, _, _)| !r.is_empty())
        .prop_map(|(t, r, i, how)| {
            let k = i.index(r.len());
            (t, r, k, how)
        })
}

/// The input with row `k` corrupted; the error must name line `k + 2` (the header is line 1).
fn check_corrupted(t: Target, rows: &[String], k: usize, how: u8) -> Result<(), TestCaseError> {
    let mut rows = rows.to_vec();
    rows[k] = corrupt(&rows[k], how);
    let (_, r) = check(t, &input(t, &rows))?;
    let msg = r.err().ok_or_else(|| TestCaseError::fail(format!("{}: corrupted row {k} ({how}) accepted", t.name)))?;
    prop_assert_eq!(line_of(&msg), Some(k as u64 + 2), "{}: {}", t.name, msg);
    Ok(())
}

/// An edit of one byte: replace, insert or delete at a position (a fraction of the length).
#[derive(Clone, Debug)]
enum Edit {
    Replace(prop::sample::Index, u8),
    Insert(prop::sample::Index, u8),
    Delete(prop::sample::Index),
}

fn edit() -> impl Strategy<Value = Edit> {
    // Bytes that matter to the formats weigh as much as all others.
    let byte = prop_oneof![prop::sample::select(&b",\n\r\0.0fgx \xef\xbb\xbf\xff"[..]), any::<u8>()];
    prop_oneof![
        (any::<prop::sample::Index>(), byte.clone()).prop_map(|(i, b)| Edit::Replace(i, b)),
        (any::<prop::sample::Index>(), byte).prop_map(|(i, b)| Edit::Insert(i, b)),
        any::<prop::sample::Index>().prop_map(Edit::Delete),
    ]
}

fn apply(mut input: Vec<u8>, edits: &[Edit]) -> Vec<u8> {
    for e in edits {
        match e {
            Edit::Replace(i, b) if !input.is_empty() => {
                let at = i.index(input.len());
                input[at] = *b;
            }
            Edit::Insert(i, b) => {
                let at = i.index(input.len() + 1);
                input.insert(at, *b);
            }
            Edit::Delete(i) if !input.is_empty() => {
                input.remove(i.index(input.len()));
            }
            _ => {}
        }
    }
    input
}

fn crlf(input: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len() * 2);
    for &b in input {
        if b == b'\n' {
            out.push(b'\r');
        }
        out.push(b);
    }
    out
}

proptest! {
    #![proptest_config(config(2048))]

    #[test]
    fn valid_rows_run(case in valid(&ALL, 12)) {
        let (t, rows) = case;
        let (_, r) = check(t, &input(t, &rows))?;
        prop_assert!(r.is_ok(), "{}: {:?}", t.name, r);
    }

    #[test]
    fn a_corrupted_field_stops_at_its_line(case in corrupted(&ALL, 12)) {
        let (t, rows, k, how) = case;
        check_corrupted(t, &rows, k, how)?;
    }

    #[test]
    fn crlf_and_a_byte_order_mark_change_nothing(case in corrupted(&ALL, 8), bad in any::<bool>()) {
        let (t, mut rows, k, how) = case;
        if bad {
            rows[k] = corrupt(&rows[k], how);
        }
        let lf = input(t, &rows);
        let want = check(t, &lf)?;
        prop_assert_eq!(&check(t, &crlf(&lf))?, &want, "{}: CRLF", t.name);
        let bom = [&b"\xef\xbb\xbf"[..], &lf].concat();
        prop_assert_eq!(&check(t, &bom)?, &want, "{}: byte order mark", t.name);
    }

    #[test]
    fn truncated_input_runs_or_names_its_line(case in valid(&ALL, 8), cut in any::<prop::sample::Index>()) {
        let (t, rows) = case;
        let i = input(t, &rows);
        let n = cut.index(i.len() + 1);
        let _ = check(t, &i[..n])?;
    }

    #[test]
    fn edited_bytes_run_or_name_their_line(case in valid(&ALL, 6), edits in prop::collection::vec(edit(), 1..6)) {
        let (t, rows) = case;
        let _ = check(t, &apply(input(t, &rows), &edits))?;
    }

    #[test]
    fn arbitrary_bytes_run_or_name_their_line(
        t in prop::sample::select(&ALL[..]),
        bytes in prop::collection::vec(any::<u8>(), 0..300),
        header in any::<bool>(),
    ) {
        let i = if header { [input(t, &[]), bytes].concat() } else { bytes };
        let _ = check(t, &i)?;
    }
}

proptest! {
    #![proptest_config(config(512))]

    /// Each RTL engine writes and reports what the golden model does, good input or bad.
    #[test]
    fn rtl_engines_match_the_model(
        case in (0..MODEL.len()).prop_flat_map(|i| (Just(i), (MODEL[i].rows)(6))),
        edits in prop::collection::vec(edit(), 0..3),
    ) {
        let (i, rows) = case;
        let bytes = apply(input(MODEL[i], &rows), &edits);
        let model = check(MODEL[i], &bytes)?;
        prop_assert_eq!(check(RTL[i], &bytes)?, model, "{}", RTL[i].name);
    }
}

proptest! {
    #![proptest_config(config(32))]

    /// A megabyte of leading zeros is still the same value.
    #[test]
    fn megabyte_values_with_leading_zeros_are_read(case in corrupted(&MODEL, 4)) {
        let (t, rows, k, _) = case;
        let mut padded = rows.clone();
        let mut f: Vec<&str> = rows[k].split(',').collect();
        let zeros = format!("{}{}", "0".repeat(1 << 20), f[1]);
        f[1] = &zeros;
        padded[k] = f.join(",");
        let (out, r) = check(t, &input(t, &padded))?;
        let (want, r2) = check(t, &input(t, &rows))?;
        prop_assert!(r.is_ok() && r2.is_ok(), "{}: {:?} {:?}", t.name, r, r2);
        // eval echoes its rows; the results and every other row are the same.
        let results = |o: &[u8]| -> Vec<String> {
            String::from_utf8_lossy(o).lines().map(|l| if t.echoes { l.rsplit(',').next().unwrap().to_string() } else { l.to_string() }).collect()
        };
        prop_assert_eq!(results(&out), results(&want), "{}", t.name);
    }
}

/// Text that looks like names: tokens of the form, op and redux grammars joined by dots, with
/// now and then any character.
fn name_like() -> impl Strategy<Value = String> {
    const TOKENS: &[&str] = &[
        "red",
        "atom",
        "ld",
        "st",
        "global",
        "shared",
        "shared::cta",
        "shared::cluster",
        "v2",
        "v4",
        "v8",
        "noftz",
        "add",
        "and",
        "or",
        "xor",
        "min",
        "max",
        "inc",
        "dec",
        "b32",
        "b64",
        "b128",
        "u32",
        "s32",
        "u64",
        "s64",
        "f32",
        "f64",
        "f16",
        "bf16",
        "f16x2",
        "bf16x2",
        "relaxed",
        "release",
        "cta",
        "cluster",
        "gpu",
        "sys",
        "async",
        "L2::cache_hint",
        "acquire",
        "mmio",
        "mbarrier::complete_tx::bytes",
        "redux",
        "sync",
        "abs",
        "NaN",
        "",
        "gpu.acquire",
    ];
    let token = prop_oneof![4 => prop::sample::select(TOKENS).prop_map(String::from), 1 => any::<String>()];
    prop::collection::vec(token, 0..8).prop_map(|t| t.join("."))
}

proptest! {
    #![proptest_config(config(4096))]

    /// Form, op and redux names never panic, and a name that parses prints as one that parses
    /// to the same thing.
    #[test]
    fn names_parse_or_say_why(name in name_like()) {
        if let Ok(f) = name.parse::<sim::Form>() {
            prop_assert_eq!(f.to_string().parse::<sim::Form>().ok(), Some(f));
        }
        if let Ok(a) = name.parse::<sim::Access>() {
            prop_assert_eq!(a.to_string().parse::<sim::Access>().ok(), Some(a));
        }
        if let Ok(r) = name.parse::<sim::red_async::RedAsync>() {
            prop_assert_eq!(r.to_string().parse::<sim::red_async::RedAsync>().ok(), Some(r));
        }
        if let Ok(i) = name.parse::<sim::RedInstr>() {
            prop_assert_eq!(i.to_string().parse::<sim::RedInstr>().ok(), Some(i));
        }
        if let Ok(t) = name.parse::<sim::TraceOp>() {
            prop_assert_eq!(t.to_string().parse::<sim::TraceOp>().ok(), Some(t));
        }
        if let Ok(r) = name.parse::<sim::redux::ReduxForm>() {
            prop_assert_eq!(r.to_string().parse::<sim::redux::ReduxForm>().ok(), Some(r));
        }
    }

    /// Hex fields: any bytes give a value within the width that reads back, or an error.
    #[test]
    fn hex_fields_parse_or_say_why(
        field in prop_oneof![prop::collection::vec(any::<u8>(), 0..40), "[0-9a-fA-F]{0,40}".prop_map(String::into_bytes)],
        bits in prop::sample::select(&[16u32, 32, 64, 128][..]),
    ) {
        use testbench::hex;
        match hex::parse(&field, bits) {
            Ok(v) => {
                prop_assert!(bits == 128 || v >> bits == 0);
                let text = std::str::from_utf8(&field).unwrap();
                prop_assert_eq!(u128::from_str_radix(text, 16).ok(), Some(v));
                prop_assert_eq!(hex::parse(hex::format(v, bits).as_bytes(), bits), Ok(v));
            }
            Err(e) => prop_assert!(!e.is_empty()),
        }
    }

    /// `--seed` values: a number, or the one message.
    #[test]
    fn seeds_parse_or_say_why(s in prop_oneof![any::<String>(), "(0[xX])?[0-9a-fA-F]{0,20}"]) {
        let _ = testbench::stimulus::parse_seed(&s);
    }
}
