//! The random traffic `redunit regress` draws beyond its streams: request traces that mix
//! state spaces, generic addresses and qualifiers (`testbench::space_trace`), SASS warp
//! traces with `.E` and `ImmS20` offsets (`testbench::warp_trace::random_check`), and the
//! async part's test_waits before, during and after completion. Each is checked to hold
//! every kind and to match the model over all its rows; the seed is printed
//! (`REDUNIT_SEED=S` reruns it).

use std::path::Path;
use std::process::Command;

use sim::{Memory, Space};
use testbench::{space_trace, trace, warp_trace};

fn seed(test: &str) -> u64 {
    let s = testbench::stimulus::seed_from_env().unwrap();
    eprintln!("{test}: seed {s:#x} (rerun with REDUNIT_SEED={s:#x})");
    s
}

#[test]
fn space_traces_mix_every_spelling_and_match_the_rtl() {
    let s = seed("space_traces_mix_every_spelling_and_match_the_rtl");
    let c = space_trace::random_check(s, 20_000).unwrap();
    let m = c.mix;
    eprintln!("{m:?}");
    assert_eq!(c.rows, 20_000);
    assert!(c.mismatches.is_empty(), "seed {s:#x}: {:#?}", c.mismatches);
    assert!(
        m.global > 8_000
            && m.shared > 4_000
            && m.generic_global > 2_000
            && m.generic_shared > 1_000
            && m.cta > 500
            && m.cluster > 1_000
            && m.qualified > 8_000
            && m.hinted > 1_000,
        "seed {s:#x}: weak stimulus {m:?}"
    );
}

/// The same offsets are hit in both memories: run on one memory, the trace's results would
/// differ, so the comparison above would catch spaces merged in the RTL.
#[test]
fn space_traces_tell_one_memory_from_two() {
    let s = seed("space_traces_tell_one_memory_from_two");
    let mem = sim::memory::DEFAULT_MEM_BYTES;
    let rows = trace::parse(space_trace::random_trace(s, 5_000, mem).as_bytes()).unwrap();
    let mut two = sim::Spaces::new(mem, mem);
    let apart = trace::execute(&rows, &mut two.global, Some(&mut two.shared)).unwrap();
    // One memory for both spaces: every request in trace order on it.
    let mut one = Memory::new(mem);
    let merged: Vec<trace::Outcome> = rows.iter().map(|r| one.execute(r.req())).collect();
    let differ = apart.iter().zip(&merged).filter(|(a, b)| a != b).count();
    assert!(differ > 100, "seed {s:#x}: only {differ} rows tell one memory from two");
    assert!(rows.iter().any(|r| r.space() == Space::Shared) && rows.iter().any(|r| r.space() == Space::Global));
}

#[test]
fn sass_traces_with_e_and_offsets_match_the_rtl() {
    let s = seed("sass_traces_with_e_and_offsets_match_the_rtl");
    let c = warp_trace::random_check(s, 600).unwrap();
    eprintln!(
        "{} rows: {} .E ({} with lanes past 2^32), {} with an offset",
        c.rows, c.extended, c.wide_lanes, c.offset
    );
    assert!(c.mismatches.is_empty(), "seed {s:#x}: {:#?}", c.mismatches);
    assert!(
        c.extended > 50 && c.wide_lanes > 20 && c.offset > 250 && c.unit_requests > 3_000,
        "seed {s:#x}: weak stimulus"
    );
}

/// `redunit regress` runs all three, prints what it drew and passes.
#[test]
fn regress_draws_spaces_sass_rows_and_test_waits() {
    let s = seed("regress_draws_spaces_sass_rows_and_test_waits");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("random-mixes");
    std::fs::create_dir_all(&dir).unwrap();
    let seed = format!("{s:#x}");
    for (part, size, want) in [
        ("spaces", ["--space-rows", "3000"], "spaces: 3000 random rows ("),
        ("warp", ["--warp-insts", "300"], "warp SASS rows: 100 ("),
        ("async", ["--async-traces", "2"], "test_wait: "),
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_redunit"))
            .current_dir(&dir)
            .args(["regress", "--seed", &seed, "--only", part, "--json", "r.json"])
            .args(size)
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "{part}: {out}{}", String::from_utf8_lossy(&o.stderr));
        assert!(
            out.contains(want) && out.contains(&format!("seed {seed}")) && out.trim_end().ends_with("PASS"),
            "{part}: {out}"
        );
        let j: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("r.json")).unwrap()).unwrap();
        let b = &j["blocks"][part];
        assert_eq!(b["mismatches"], 0, "{part}");
        match part {
            "spaces" => {
                assert_eq!((b["count"].as_u64(), j["sizes"]["space_rows"].as_u64()), (Some(3000), Some(3000)));
                assert!(
                    b["extra"]["shared_rows"].as_u64().unwrap() > 500
                        && b["extra"]["generic_rows"].as_u64().unwrap() > 300,
                    "{b}"
                );
            }
            "warp" => {
                assert!(b["extra"]["sass_rows"] == 100 && b["extra"]["sass_extended"].as_u64().unwrap() > 5, "{b}")
            }
            _ => {
                for k in ["waits_incomplete", "waits_in_flight", "waits_complete", "global_rows", "shared_rows"] {
                    assert!(b["extra"][k].as_u64().unwrap() > 50, "{k}: {b}");
                }
            }
        }
    }
}
