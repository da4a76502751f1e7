//! The result of a flow run and its JSON form (`redunit synth --json`, the saved reports).

use serde::Serialize;

use super::{DEVICE, TARGET_MHZ};
use crate::json_layout;

/// Cell counts after `synth_ecp5`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Area {
    pub lut4: u64,
    pub ff: u64,
    pub ccu2c: u64,
    pub dp16kd: u64,
    pub dsp: u64,
    /// Distributed RAM (TRELLIS_DPR16X4, 16x4 bits in LUTs).
    pub lutram: u64,
}

impl Area {
    pub(super) fn add(&mut self, o: &Area) {
        self.lut4 += o.lut4;
        self.ff += o.ff;
        self.ccu2c += o.ccu2c;
        self.dp16kd += o.dp16kd;
        self.dsp += o.dsp;
        self.lutram += o.lutram;
    }
}

/// The critical path after routing.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CriticalPath {
    /// Start (a register or port: cell/port names of the netlist).
    pub from: String,
    /// End.
    pub to: String,
    /// Logic levels (cells) on the path.
    pub cells: usize,
    /// Delay in ns (to 1 ps in the JSON).
    pub delay_ns: f64,
}

/// Device utilisation: (resource, used, available).
pub type Utilization = Vec<(String, u64, u64)>;

/// The result of one flow run.
#[derive(Clone, Debug)]
pub struct SynthReport {
    pub top: String,
    pub config: String,
    pub mem_bytes: usize,
    pub area: Area,
    /// Per block (name, cells), when the breakdown ran.
    pub breakdown: Vec<(String, Area)>,
    pub fmax_mhz: Option<f64>,
    pub critical_path: Option<CriticalPath>,
    /// Utilisation of the device.
    pub utilization: Utilization,
    /// Flip-flops of the timing wrapper (not counted in `area.ff`).
    pub wrapper_ff: u64,
    pub yosys_s: f64,
    pub pnr_s: f64,
    pub breakdown_s: f64,
    pub commit: String,
    pub date: String,
    pub tools: String,
    /// nextpnr's options that vary between runs (`--freq … --seed … --placer …`; with
    /// several seeds, `--seed FIRST..LAST`).
    pub pnr_options: String,
    /// Each placement (seed order) when placement and routing ran: with one seed, that one;
    /// with several, `fmax_mhz` is their median and `critical_path` that of the median
    /// placement (the lower middle one for an even count).
    pub seeds: Vec<SeedResult>,
}

/// One placement and routing of the netlist.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeedResult {
    pub seed: u64,
    /// fmax after routing (to 0.01 MHz in the JSON).
    pub fmax_mhz: Option<f64>,
    pub critical_path: Option<CriticalPath>,
}

/// The JSON of a report: its keys in this order.
#[derive(Serialize)]
struct ReportJson<'a> {
    top: &'a str,
    config: &'a str,
    device: &'a str,
    #[serde(flatten)]
    area: &'a Area,
    wrapper_ff: u64,
    fmax_mhz: Option<f64>,
    critical_path: Option<&'a CriticalPath>,
    fmax_min_mhz: Option<f64>,
    fmax_max_mhz: Option<f64>,
    target_mhz: f64,
    seeds_meeting_target: Vec<u64>,
    seeds: &'a [SeedResult],
    blocks: Vec<BlockJson<'a>>,
    yosys_s: f64,
    nextpnr_s: f64,
    pnr_options: &'a str,
    commit: &'a str,
    date: &'a str,
    tools: &'a str,
}

/// One block of the breakdown in the JSON.
#[derive(Serialize)]
struct BlockJson<'a> {
    block: &'a str,
    #[serde(flatten)]
    area: &'a Area,
}

/// The decimals of the JSON's numbers: fmax to 0.01 MHz, delays to 1 ps, tool times to 0.1 s.
const DECIMALS: &[(&str, usize)] = &[
    ("fmax_mhz", 2),
    ("fmax_min_mhz", 2),
    ("fmax_max_mhz", 2),
    ("target_mhz", 1),
    ("delay_ns", 3),
    ("yosys_s", 1),
    ("nextpnr_s", 1),
];

/// The median of `v` (the mean of the two middle values for an even count); `None` if empty.
pub fn median(v: &[f64]) -> Option<f64> {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(v[n / 2]),
        _ => Some((v[n / 2 - 1] + v[n / 2]) / 2.0),
    }
}

impl SynthReport {
    /// The placements (seeds, in seed order) whose fmax after routing reaches
    /// [`TARGET_MHZ`]: `redunit synth --seed S` reproduces each (nextpnr is deterministic).
    pub fn seeds_meeting_target(&self) -> Vec<u64> {
        self.seeds.iter().filter(|r| r.fmax_mhz.is_some_and(|f| f >= TARGET_MHZ)).map(|r| r.seed).collect()
    }

    /// The lowest and highest fmax over the placements (`None` without placement).
    pub fn fmax_range(&self) -> Option<(f64, f64)> {
        let fs = self.seeds.iter().filter_map(|r| r.fmax_mhz);
        Some((fs.clone().reduce(f64::min)?, fs.reduce(f64::max)?))
    }

    /// One JSON object (keys `lut4`, `ff`, `ccu2c`, `dp16kd`, `dsp`, `fmax_mhz`,
    /// `critical_path`, and the run's details).
    pub fn json(&self) -> String {
        let range = self.fmax_range();
        let j = ReportJson {
            top: &self.top,
            config: &self.config,
            device: DEVICE,
            area: &self.area,
            wrapper_ff: self.wrapper_ff,
            fmax_mhz: self.fmax_mhz,
            critical_path: self.critical_path.as_ref(),
            fmax_min_mhz: range.map(|r| r.0),
            fmax_max_mhz: range.map(|r| r.1),
            target_mhz: TARGET_MHZ,
            seeds_meeting_target: self.seeds_meeting_target(),
            seeds: &self.seeds,
            blocks: self.breakdown.iter().map(|(block, area)| BlockJson { block, area }).collect(),
            yosys_s: self.yosys_s,
            nextpnr_s: self.pnr_s,
            pnr_options: &self.pnr_options,
            commit: &self.commit,
            date: &self.date,
            tools: &self.tools,
        };
        json_layout::to_string(&j, false, DECIMALS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
    }

    /// The JSON keeps the layout and key order of the reports saved in synth/reports/.
    #[test]
    fn json_as_the_saved_reports() {
        let path = CriticalPath {
            from: "core.alu.add16$5.csh_sh$q_TRELLIS_FF_Q_2.Q".into(),
            to: "core.alu.add16$5.s1_small$q_TRELLIS_FF_Q.M".into(),
            cells: 5,
            delay_ns: 6.5821,
        };
        let r = SynthReport {
            top: "unit".into(),
            config: "fp14-h9-int2-reg".into(),
            mem_bytes: 65536,
            area: Area { lut4: 18892, ff: 26455, ccu2c: 1774, dp16kd: 32, dsp: 0, lutram: 74 },
            breakdown: vec![],
            fmax_mhz: Some(151.9312),
            critical_path: Some(path.clone()),
            utilization: vec![],
            wrapper_ff: 527,
            yosys_s: 141.94,
            pnr_s: 564.21,
            breakdown_s: 0.0,
            commit: "518c9a9".into(),
            date: "2026-11-25".into(),
            tools: "Yosys 0.70, nextpnr-0.11.1 (PyPI yowasp)".into(),
            pnr_options: "--freq 150 --seed 1 --placer static --tmg-ripup".into(),
            seeds: vec![SeedResult { seed: 1, fmax_mhz: Some(151.9312), critical_path: Some(path) }],
        };
        let saved =
            concat!(env!("CARGO_MANIFEST_DIR"), "/../synth/reports/2026-11-25-518c9a9-unit-fp14-h9-int2-reg.json");
        assert_eq!(r.json() + "\n", std::fs::read_to_string(saved).unwrap());
        let mut b = r.clone();
        b.breakdown = vec![("ordering queue".into(), Area { lut4: 1, ff: 2, ccu2c: 3, dp16kd: 4, dsp: 5, lutram: 6 })];
        b.seeds.clear();
        b.critical_path = None;
        b.fmax_mhz = None;
        let j = b.json();
        assert!(j.contains("\n  \"blocks\": [{\"block\": \"ordering queue\", \"lut4\": 1, \"ff\": 2, \"ccu2c\": 3, \"dp16kd\": 4, \"dsp\": 5, \"lutram\": 6}],\n"), "{j}");
        assert!(j.contains("\n  \"fmax_mhz\": null,\n  \"critical_path\": null,\n  \"fmax_min_mhz\": null,"), "{j}");
        b.fmax_mhz = Some(151.9);
        assert!(b.json().contains("\n  \"fmax_mhz\": 151.90,\n"), "{}", b.json());
        assert!(j.contains("\n  \"seeds_meeting_target\": [],\n  \"seeds\": [],\n"), "{j}");
    }
}
