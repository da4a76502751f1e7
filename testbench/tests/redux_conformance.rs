//! `redux.sync` against the H100 captures (`h100/redux/`): every captured integer instruction
//! through the golden model and through the Verilated block. (The f32 forms need sm_100a and
//! have no capture; `sim::redux` tests their rules from the PTX text, and `redux_rtl.rs`
//! checks the RTL against the model on them.)

use sim::redux::{ReduxForm, ReduxType};
use testbench::redux::{self, ModelRedux, ReduxEngine, RtlRedux};

fn check_all(engine: &mut dyn ReduxEngine) -> usize {
    let data = testbench::conformance::default_data_dir();
    let files = redux::capture_files(&data).unwrap();
    let mut covered: Vec<ReduxForm> = files.iter().map(|(f, _)| *f).collect();
    covered.sort();
    let mut want: Vec<ReduxForm> = ReduxForm::all().into_iter().filter(|f| f.ty() != ReduxType::F32).collect();
    want.sort();
    assert_eq!(covered, want, "one capture file per integer redux form");
    let mut rows = 0;
    let mut failures = Vec::new();
    for (form, path) in &files {
        let captured = redux::load_captures(path).unwrap();
        assert_eq!(captured.len(), 4096, "{form}");
        assert!(captured.iter().all(|r| r.mask != 0), "{form}: an empty mask is undefined in PTX");
        let r = redux::check_captures(*form, &captured, engine).unwrap();
        rows += r.rows;
        if r.mismatches > 0 {
            let (i, row, got) = r.first.unwrap();
            failures.push(format!(
                "{form}: {} mismatches; first row {i}: mask {:08x} src {:08x?}: H100 {:08x}, engine {got:08x}",
                r.mismatches, row.mask, row.src, row.result
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    rows
}

#[test]
fn every_h100_redux_instruction_matches_the_model() {
    assert_eq!(check_all(&mut ModelRedux), 9 * 4096);
}

#[test]
fn every_h100_redux_instruction_matches_the_rtl() {
    assert_eq!(check_all(&mut RtlRedux::new()), 9 * 4096);
}
