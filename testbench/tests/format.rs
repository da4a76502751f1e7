//! The workspace is formatted by `cargo fmt` (the style in `rustfmt.toml`).

use std::path::Path;
use std::process::Command;

#[test]
fn workspace_is_rustfmt_clean() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let out =
        Command::new(env!("CARGO")).args(["fmt", "--all", "--", "--check"]).current_dir(root).output().expect(
            "cannot run `cargo fmt`: install rustfmt (`rustup component add rustfmt`, as scripts/setup.sh does)",
        );
    let diff = String::from_utf8_lossy(&out.stdout);
    let files: Vec<&str> = diff.lines().filter_map(|l| l.strip_prefix("Diff in ")).collect();
    assert!(
        out.status.success(),
        "`cargo fmt --all -- --check` failed ({} hunks; run `cargo fmt --all` to fix):\n{}{}",
        files.len(),
        files.join("\n"),
        String::from_utf8_lossy(&out.stderr)
    );
}
