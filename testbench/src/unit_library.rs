//! The run-time builds of the unit's model ([`crate::unit`]): the Verilog of another memory
//! size or configuration, the shim and the Verilator runtime verilated and linked into a
//! shared library, cached by a hash of what went into it.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};

use crate::unit::BUILT_MEM_BYTES;
use crate::verilator_flags::{VERILATOR_FLAGS, fnv1a};

/// The shim's source, for run-time builds of other memory sizes.
const SHIM_SRC: &str = include_str!("../csrc/unit_shim.cpp");
/// The header the shim includes (`csrc/harness.h`), written beside it in those builds.
const HARNESS_SRC: &str = include_str!("../csrc/harness.h");

/// Where run-time builds are cached.
pub fn cache_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("REDUNIT_UNIT_CACHE") {
        return PathBuf::from(d);
    }
    match option_env!("REDUNIT_TARGET_DIR") {
        Some(t) if Path::new(t).is_dir() => Path::new(t).join("redunit-unit"),
        _ => std::env::temp_dir().join("redunit-unit"),
    }
}

const VERILATOR_HINT: &str = "install Verilator 5.006 or later (`sudo scripts/setup.sh`, or \
`apt-get install -y verilator`) or set VERILATOR to the verilator binary";

fn run_tool(cmd: &mut Command, what: &str) -> anyhow::Result<()> {
    let out = cmd.output().with_context(|| format!("{what}: cannot start {:?}", cmd.get_program()))?;
    if !out.status.success() {
        bail!(
            "{what} failed ({}): {:?}\n{}{}",
            out.status,
            cmd,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(())
}

/// Verilates the unit with `mem_bytes` of memory into a cached shared library (see the module
/// doc) and returns its path.
pub fn build_library(mem_bytes: usize) -> anyhow::Result<PathBuf> {
    build_library_from_verilog(&hw::unit_verilog(mem_bytes), mem_bytes)
}

/// [`build_library`] for any Verilog with the unit's ports (module `top`), e.g. a variant of
/// the design under study; load it with [`crate::unit::RtlUnit::from_library`].
pub fn build_library_from_verilog(verilog: &str, mem_bytes: usize) -> anyhow::Result<PathBuf> {
    let verilator = std::env::var("VERILATOR").unwrap_or_else(|_| "verilator".into());
    let version = match Command::new(&verilator).arg("--version").output() {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).trim().to_string(),
        Ok(_) | Err(_) => bail!(
            "--mem-bytes {mem_bytes}: the RTL engine's built-in model has {BUILT_MEM_BYTES} bytes of memory, and \
             other sizes are verilated at run time, but Verilator (`{verilator}`) cannot be run: {VERILATOR_HINT}"
        ),
    };
    let mut key = verilog.as_bytes().to_vec();
    key.extend_from_slice(SHIM_SRC.as_bytes());
    key.extend_from_slice(HARNESS_SRC.as_bytes());
    key.extend_from_slice(VERILATOR_FLAGS.join(" ").as_bytes());
    key.extend_from_slice(version.as_bytes());
    let root = cache_dir();
    let dir = root.join(format!("mem{mem_bytes}-{:016x}", fnv1a(&key)));
    let lib = dir.join("libredunit_unit.so");
    if lib.exists() {
        return Ok(lib);
    }
    let t = std::time::Instant::now();
    eprintln!("redunit: verilating the unit with {mem_bytes} bytes of memory into {} (once; {version})", dir.display());
    let tmp = root.join(format!(".tmp-mem{mem_bytes}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).with_context(|| format!("cannot create {}", tmp.display()))?;
    let vfile = tmp.join("unit.v");
    std::fs::write(&vfile, verilog)?;
    let shim = tmp.join("unit_shim.cpp");
    std::fs::write(&shim, SHIM_SRC)?;
    std::fs::write(tmp.join("harness.h"), HARNESS_SRC)?;
    let root_out = Command::new(&verilator).args(["--getenv", "VERILATOR_ROOT"]).output()?;
    let include = PathBuf::from(String::from_utf8_lossy(&root_out.stdout).trim()).join("include");
    let jobs = std::thread::available_parallelism().map_or(2, |n| n.get()).to_string();
    let mut dirs = Vec::new();
    for (prefix, trace) in [("Vunit", false), ("Vunitt", true)] {
        let d = tmp.join(format!("obj_{prefix}"));
        let mut cmd = Command::new(&verilator);
        cmd.args(VERILATOR_FLAGS).args(["-j", &jobs, "--prefix", prefix, "-Mdir"]).arg(&d).arg(&vfile);
        if trace {
            cmd.arg("--trace");
        }
        run_tool(&mut cmd, &format!("verilating the unit ({prefix}, {mem_bytes} bytes)"))?;
        dirs.push(d);
    }
    let rt_objs = ["verilated.o", "verilated_vcd_c.o", "verilated_threads.o"];
    run_tool(
        Command::new("make").current_dir(&dirs[1]).args(["-j", &jobs, "-f", "Vunitt.mk"]).args(rt_objs),
        "building the Verilator runtime",
    )?;
    let rt = tmp.join("libvrt.a");
    run_tool(Command::new("ar").arg("rcs").arg(&rt).args(rt_objs.iter().map(|o| dirs[1].join(o))), "ar")?;
    run_tool(
        Command::new("g++")
            .args(["-std=c++17", "-O2", "-fPIC", "-shared", "-fvisibility=hidden", "-Wno-unused-parameter"])
            .arg("-I")
            .arg(&include)
            .arg("-I")
            .arg(include.join("vltstd"))
            .arg("-I")
            .arg(&dirs[0])
            .arg("-I")
            .arg(&dirs[1])
            .arg(&shim)
            .arg(dirs[0].join("Vunit__ALL.a"))
            .arg(dirs[1].join("Vunitt__ALL.a"))
            .arg(&rt)
            .args(["-Wl,--exclude-libs,ALL", "-Wl,-Bsymbolic", "-lpthread", "-o"])
            .arg(tmp.join("libredunit_unit.so")),
        "linking the unit's shared library (g++)",
    )?;
    if std::fs::rename(&tmp, &dir).is_err() {
        // Another process finished the same build first.
        let _ = std::fs::remove_dir_all(&tmp);
    }
    if !lib.exists() {
        bail!("the run-time build left no {}", lib.display());
    }
    eprintln!("redunit: unit model built in {:.1} s", t.elapsed().as_secs_f64());
    Ok(lib)
}
