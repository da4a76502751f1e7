//! Sharded regressions: how `redunit regress --shard K/N` splits a regression into N disjoint
//! parts, the JSON result each part writes (`--json`), and `redunit merge`, which sums the
//! parts and judges the whole.
//!
//! The split is exact: each random block's size (ALU operations, unit requests, redux
//! instructions, warp instructions, async traces) is divided among the shards, shard K taking
//! `total / N` plus one of the first `total % N` remainders, and the H100 captures (the `red`
//! vector forms, the `redux.sync` capture forms) are dealt out form by form (form i to shard
//! i mod N). So the shards' counts add up to the counts of the unsharded run of the same
//! sizes. Each shard draws its random streams from its own seed ([`Shard::seed`]): shard 0
//! uses the master seed itself, so `--shard 0/1` is the plain `regress`.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::unit_cosim::Coverage as UnitCoverage;

/// The `schema` value of a result file; merge refuses other values.
pub const SCHEMA: &str = "redunit-regress-1";

/// Part `index` of `count` (`K/N` on the command line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// The whole regression as one part.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Parses `K/N` with `N >= 1` and `K < N`.
    pub fn parse(s: &str) -> Result<Shard, String> {
        let (k, n) = s.split_once('/').ok_or_else(|| format!("`{s}`: a shard is K/N, e.g. 0/4"))?;
        let num =
            |x: &str| x.trim().parse::<u64>().map_err(|_| format!("`{s}`: K and N are whole numbers (K/N, e.g. 0/4)"));
        let (index, count) = (num(k)?, num(n)?);
        if count == 0 || index >= count {
            return Err(format!("`{s}`: needs N >= 1 and K in 0..N-1"));
        }
        Ok(Shard { index, count })
    }

    /// This shard's share of `total` items.
    pub fn part(self, total: u64) -> u64 {
        total / self.count + u64::from(self.index < total % self.count)
    }

    /// The number of items of `total` that the shards before this one take.
    pub fn start(self, total: u64) -> u64 {
        self.index * (total / self.count) + self.index.min(total % self.count)
    }

    /// Whether the `i`-th captured form is this shard's.
    pub fn owns(self, i: usize) -> bool {
        i as u64 % self.count == self.index
    }

    /// The seed of this shard's random streams: the master seed for shard 0, else a splitmix64
    /// mix of the master seed and the index (independent of N, so a shard's streams do not
    /// change with the shard count, only its sizes do).
    pub fn seed(self, master: u64) -> u64 {
        if self.index == 0 {
            return master;
        }
        let mut s = master ^ self.index.wrapping_mul(0xD1B5_4A32_D192_ED03);
        sim::splitmix64_next(&mut s)
    }
}

/// A seed as written in the JSON: `0x` hex (a string, so that no JSON reader rounds it).
pub fn hex_seed(s: u64) -> String {
    format!("{s:#x}")
}

/// The sizes of the whole regression (every shard of it records the same).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sizes {
    pub ops: u64,
    pub unit_requests: u64,
    pub redux_insts: u64,
    pub warp_insts: u64,
    pub async_traces: u64,
    /// The unit stream's fault rates (`--reset-every`, `--drought-every`: requests per reset
    /// and per `rsp_ready` drought on average; 0: one reset at the end, no drought). Absent in results written before the
    /// faults existed (read as 0).
    #[serde(default)]
    pub reset_every: u64,
    #[serde(default)]
    pub drought_every: u64,
    /// Rows of the random traces that mix state spaces (`--space-rows`; absent in results
    /// written before them: read as 0).
    #[serde(default)]
    pub space_rows: u64,
}

/// One block's counts.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Block {
    /// What `count` counts (`H100 rows`, `random ops`, `random requests`, ...).
    pub unit: String,
    /// Items run and checked; the shards' counts add up to the unsharded run's.
    pub count: u64,
    pub mismatches: u64,
    /// `count` by form (by access for the unit, the read-back sweeps included).
    pub per_form: BTreeMap<String, u64>,
    /// Further per-run figures (cycles, read-back loads, dropped requests, phase flips): these
    /// are summed too, but include each run's fixed overhead.
    pub extra: BTreeMap<String, u64>,
    pub seconds: f64,
}

/// The L2-slice unit's coverage (`hw::COVERAGE_POINTS`, the accesses issued, the statuses
/// returned).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Coverage {
    /// Cycles each coverage point was high, by name.
    pub points: BTreeMap<String, u64>,
    /// Coverage points hit, of `total`.
    pub hit: usize,
    pub total: usize,
    /// Requests per access (its name).
    pub accesses: BTreeMap<String, u64>,
    /// Responses per status: `ok`, `misaligned`, `out_of_range`, `illegal`.
    pub statuses: BTreeMap<String, u64>,
    /// Points, accesses and statuses never hit (`unit_cosim::Coverage::holes`).
    pub holes: Vec<String>,
}

const STATUS_NAMES: [&str; 4] = ["ok", "misaligned", "out_of_range", "illegal"];

impl Coverage {
    pub fn of(c: &UnitCoverage) -> Coverage {
        let points: BTreeMap<String, u64> =
            hw::COVERAGE_POINTS.iter().map(|(name, bit)| (name.to_string(), c.cov[*bit])).collect();
        let names: BTreeMap<u16, String> =
            crate::traffic::all_accesses().into_iter().map(|a| (a.code(), a.to_string())).collect();
        Coverage {
            hit: points.values().filter(|&&v| v > 0).count(),
            total: points.len(),
            points,
            accesses: c
                .accesses
                .iter()
                .map(|(code, n)| (names.get(code).cloned().unwrap_or_else(|| format!("code {code:#x}")), *n))
                .collect(),
            statuses: STATUS_NAMES.iter().zip(c.statuses).map(|(s, n)| (s.to_string(), n)).collect(),
            holes: c.holes(),
        }
    }

    /// The unit's coverage record back from the JSON (for the holes of a sum).
    fn to_unit(&self) -> UnitCoverage {
        let mut c = UnitCoverage::default();
        for (name, bit) in hw::COVERAGE_POINTS {
            c.cov[*bit] = self.points.get(*name).copied().unwrap_or(0);
        }
        for a in crate::traffic::all_accesses() {
            if let Some(n) = self.accesses.get(&a.to_string()) {
                c.accesses.insert(a.code(), *n);
            }
        }
        for (i, s) in STATUS_NAMES.iter().enumerate() {
            c.statuses[i] = self.statuses.get(*s).copied().unwrap_or(0);
        }
        c
    }

    /// The coverage of two runs together.
    pub fn add(&self, o: &Coverage) -> Coverage {
        let mut u = self.to_unit();
        let v = o.to_unit();
        for (a, b) in u.cov.iter_mut().zip(v.cov) {
            *a += b;
        }
        for (k, n) in v.accesses {
            *u.accesses.entry(k).or_default() += n;
        }
        for (a, b) in u.statuses.iter_mut().zip(v.statuses) {
            *a += b;
        }
        Coverage::of(&u)
    }
}

/// A block's first failure in one shard, and how to reproduce it alone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Failure {
    pub shard: Shard,
    pub block: String,
    /// Mismatches of the block in the shard.
    pub mismatches: u64,
    /// The first failing operation, described (index, operands, expected and actual values).
    pub first: String,
    /// The command that reruns this block of this shard alone (with `--vcd` where the block
    /// has a waveform).
    pub rerun: String,
    /// The waveform the failing run wrote, if any.
    pub vcd: Option<String>,
}

/// A shard's seed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardSeed {
    pub shard: Shard,
    pub seed: String,
}

/// The JSON result of `regress --json` (one shard, or the whole run as shard 0/1) and of
/// `merge --json` (the shards together).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RegressResult {
    pub schema: String,
    /// The master seed (`--seed`).
    pub seed: String,
    /// The shards this result holds, with the seed of each one's random streams.
    pub shards: Vec<ShardSeed>,
    pub sizes: Sizes,
    /// The one block run (`--only`), if any.
    pub only: Option<String>,
    /// Counts by block: `vectors`, `alu`, `unit`, `redux-h100`, `redux`, `warp`, `async`.
    pub blocks: BTreeMap<String, Block>,
    /// `red` forms covered by the H100 vectors and the random ALU ops, of 82.
    pub forms_covered: usize,
    /// The unit's coverage (absent when the unit did not run).
    pub coverage: Option<Coverage>,
    pub mismatches: u64,
    pub failures: Vec<Failure>,
    /// Wall time: of the shard; for a merge, the sum over the shards.
    pub seconds: f64,
    /// The longest shard's wall time.
    pub longest_shard_seconds: f64,
    /// No mismatch, and for a complete regression (all shards, every block) no coverage hole.
    pub pass: bool,
}

impl RegressResult {
    /// Whether this result holds all shards of every block.
    pub fn complete(&self) -> bool {
        self.only.is_none() && self.shards.len() as u64 == self.shards.first().map_or(0, |s| s.shard.count)
    }

    /// Sets `forms_covered`, `mismatches` and `pass` from the blocks.
    pub fn judge(&mut self) {
        let mut forms: std::collections::BTreeSet<&String> = Default::default();
        for b in ["vectors", "alu"] {
            if let Some(blk) = self.blocks.get(b) {
                forms.extend(blk.per_form.iter().filter(|(_, n)| **n > 0).map(|(f, _)| f));
            }
        }
        self.forms_covered = forms.len();
        self.mismatches = self.blocks.values().map(|b| b.mismatches).sum();
        let holes = self.coverage.as_ref().is_none_or(|c| !c.holes.is_empty());
        self.pass = self.mismatches == 0 && !(self.complete() && holes);
    }
}

/// Reads and checks one result file; the error names the file and what is wrong with it.
pub fn read_result(path: &Path) -> Result<RegressResult, String> {
    let p = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{p}: cannot read it: {e}"))?;
    let r: RegressResult =
        serde_json::from_str(&text).map_err(|e| format!("{p}: not a `redunit regress --json` result: {e}"))?;
    if r.schema != SCHEMA {
        return Err(format!("{p}: schema `{}`, expected `{SCHEMA}`", r.schema));
    }
    if r.shards.is_empty() {
        return Err(format!("{p}: holds no shard"));
    }
    Ok(r)
}

fn add_block(a: &mut Block, b: &Block) {
    if a.unit.is_empty() {
        a.unit = b.unit.clone();
    }
    a.count += b.count;
    a.mismatches += b.mismatches;
    for (k, n) in &b.per_form {
        *a.per_form.entry(k.clone()).or_default() += n;
    }
    for (k, n) in &b.extra {
        *a.extra.entry(k.clone()).or_default() += n;
    }
    a.seconds += b.seconds;
}

/// Sums results of the same regression (same seed, sizes, shard count and `--only`, each shard
/// once, all of them present). The error names the offending file.
pub fn merge(files: &[(String, RegressResult)]) -> Result<RegressResult, String> {
    let Some((name0, first)) = files.first() else {
        return Err("no result files given".into());
    };
    let mut m = first.clone();
    m.shards.clear();
    m.blocks.clear();
    m.coverage = None;
    m.failures.clear();
    m.seconds = 0.0;
    m.longest_shard_seconds = 0.0;
    let mut from: BTreeMap<Shard, &str> = BTreeMap::new();
    let count = first.shards[0].shard.count;
    for (name, r) in files {
        let differs = |what: &str, a: &dyn fmt::Debug, b: &dyn fmt::Debug| {
            format!("{name}: {what} {a:?} differs from {b:?} in {name0}: not the same regression")
        };
        if r.seed != first.seed {
            return Err(differs("seed", &r.seed, &first.seed));
        }
        if r.sizes != first.sizes {
            return Err(differs("sizes", &r.sizes, &first.sizes));
        }
        if r.only != first.only {
            return Err(differs("--only", &r.only, &first.only));
        }
        for s in &r.shards {
            if s.shard.count != count {
                return Err(format!(
                    "{name}: shard {} is one of {}, {name0} holds shards of {count}",
                    s.shard, s.shard.count
                ));
            }
            if let Some(other) = from.insert(s.shard, name) {
                return Err(format!("{name}: shard {} is also in {other}", s.shard));
            }
            m.shards.push(s.clone());
        }
        for (k, b) in &r.blocks {
            add_block(m.blocks.entry(k.clone()).or_default(), b);
        }
        m.coverage = match (m.coverage.take(), &r.coverage) {
            (Some(a), Some(b)) => Some(a.add(b)),
            (a, b) => a.or_else(|| b.clone()),
        };
        m.failures.extend(r.failures.iter().cloned());
        m.seconds += r.seconds;
        m.longest_shard_seconds = m.longest_shard_seconds.max(r.longest_shard_seconds);
    }
    let missing: Vec<String> = (0..count)
        .map(|index| Shard { index, count })
        .filter(|s| !from.contains_key(s))
        .map(|s| s.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "shard{} {} missing: the files given hold {}",
            if missing.len() > 1 { "s" } else { "" },
            missing.join(", "),
            from.keys().map(|s| s.to_string()).collect::<Vec<_>>().join(", ")
        ));
    }
    m.shards.sort_by_key(|s| s.shard);
    m.failures.sort_by(|a, b| a.shard.cmp(&b.shard));
    m.judge();
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parts of every size add up to the size, and the starts follow them.
    #[test]
    fn parts_add_up_and_starts_follow() {
        for count in 1..9 {
            for total in [0u64, 1, 5, 7, 100, 1001] {
                let mut at = 0;
                for index in 0..count {
                    let s = Shard { index, count };
                    assert_eq!(s.start(total), at, "{s} of {total}");
                    at += s.part(total);
                }
                assert_eq!(at, total);
            }
        }
    }

    #[test]
    fn shard_parsing() {
        assert_eq!(Shard::parse("2/4"), Ok(Shard { index: 2, count: 4 }));
        assert!(Shard::parse("4/4").is_err());
        assert!(Shard::parse("0/0").is_err());
        assert!(Shard::parse("1").is_err());
        assert_eq!(Shard { index: 0, count: 7 }.seed(5), 5);
        assert_ne!(Shard { index: 1, count: 7 }.seed(5), 5);
    }
}
