//! The golden model against the H100 captures: every vector of every form, and a sample of
//! the exhaustive 16-bit row digests.

use sim::Form;
use testbench::conformance::{self, EXHAUSTIVE16_FORMS};
use testbench::engine::ModelAlu;

#[test]
fn every_h100_vector_matches_the_model() {
    let data = conformance::default_data_dir();
    let forms = conformance::vector_forms(&data).unwrap();
    assert_eq!(forms.len(), 82, "one capture file per legal form");
    let mut covered: Vec<Form> = forms.iter().map(|(f, _)| *f).collect();
    covered.sort();
    let mut all = Form::all();
    all.sort();
    assert_eq!(covered, all, "the capture files name exactly the legal forms");
    let mut rows = 0;
    let mut failures = Vec::new();
    for (form, path) in &forms {
        let vectors = conformance::load_vectors(path, *form).unwrap();
        assert!(!vectors.is_empty(), "{form}: no vectors");
        let r = conformance::check_vectors(*form, &vectors, &mut ModelAlu).unwrap();
        rows += r.rows;
        if r.mismatches > 0 {
            failures.push(format!("{form}: {} mismatches, first {:?}", r.mismatches, r.first));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(rows > 900_000, "only {rows} rows read");
}

#[test]
fn a_sample_of_exhaustive16_rows_matches_the_model() {
    let data = conformance::default_data_dir();
    let forms: Vec<Form> = EXHAUSTIVE16_FORMS.iter().map(|s| s.parse().unwrap()).collect();
    // Specials (zeros, smallest subnormals, ones, infinities, NaNs of both formats) and a
    // stride through the rest.
    let mut rows: Vec<u16> = vec![
        0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0xbc00, 0x7bff, 0x7c00, 0xfc00, 0x7c01, 0x7e00, 0xffff,
        0x0080, 0x3f80, 0x7f7f, 0x7f80, 0xff80, 0x7fc0, 0x7f81,
    ];
    rows.extend((0..=u16::MAX).step_by(1021));
    let reports = conformance::exhaustive16(&data, &forms, &rows, 2, |_| {}).unwrap();
    for r in reports {
        assert_eq!(r.matched, rows.len(), "{}: mismatching rows {:04x?}", r.form, r.mismatched_rows);
    }
}

#[test]
fn the_digest_files_agree_with_their_totals() {
    let data = conformance::default_data_dir();
    let totals = std::fs::read_to_string(data.join("exhaustive16/totals.txt")).unwrap();
    for line in totals.lines() {
        let (name, total) = line.split_once(' ').unwrap();
        let form: Form = name.parse().unwrap();
        let sum = conformance::load_digests(&data, form).unwrap().iter().fold(0u64, |a, d| a.wrapping_add(*d));
        assert_eq!(format!("{sum:016x}"), total, "{name}");
    }
}
