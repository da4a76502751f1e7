//! The human-readable report of a flow run.

use std::fmt::Write as _;

use super::{Area, DEVICE, SynthReport, TARGET_MHZ};

impl SynthReport {
    /// The human-readable report.
    pub fn text(&self) -> String {
        let a = &self.area;
        let mut s = String::new();
        let _ = writeln!(s, "redunit synth: {} ({}), {}", self.top, self.config, DEVICE);
        let _ = writeln!(s, "commit {}, {}; {}; nextpnr {}", self.commit, self.date, self.tools, self.pnr_options);
        let _ = writeln!(
            s,
            "area (synth_ecp5): {} LUT4, {} FF, {} CCU2C, {} DP16KD, {} DSP (MULT18X18D), {} LUT-RAM (DPR16X4)",
            a.lut4, a.ff, a.ccu2c, a.dp16kd, a.dsp, a.lutram
        );
        let _ = writeln!(
            s,
            "timing: every port registered by the flow's wrapper ({} FF, not counted above), so port logic is timed",
            self.wrapper_ff
        );
        match (self.fmax_mhz, self.fmax_range()) {
            (Some(f), Some((lo, hi))) if self.seeds.len() > 1 => {
                let _ = writeln!(
                    s,
                    "fmax after routing: median {f:.2} MHz over {} seeds ({lo:.2}-{hi:.2} MHz; target {TARGET_MHZ:.0} MHz: {} at the median)",
                    self.seeds.len(),
                    if f >= TARGET_MHZ { "met" } else { "not met" }
                );
                let met = self.seeds_meeting_target();
                let best =
                    self.seeds.iter().filter_map(|r| Some((r.seed, r.fmax_mhz?))).max_by(|a, b| a.1.total_cmp(&b.1));
                if let Some((seed, f)) = best {
                    let _ = writeln!(
                        s,
                        "placements at {TARGET_MHZ:.0} MHz or more: {} of {}; the best: seed {seed} at {f:.2} MHz (`--seed {seed}` reproduces it)",
                        met.len(),
                        self.seeds.len()
                    );
                }
            }
            (Some(f), _) => {
                let _ = writeln!(
                    s,
                    "fmax after routing: {f:.2} MHz (target {TARGET_MHZ:.0} MHz: {})",
                    if f >= TARGET_MHZ { "met" } else { "not met" }
                );
            }
            (None, _) => s.push_str("fmax after routing: not run (--no-pnr)\n"),
        }
        if let Some(p) = &self.critical_path {
            let which = if self.seeds.len() > 1 { " (the median placement)" } else { "" };
            let _ = writeln!(s, "critical path{which}: {:.2} ns, {} cells", p.delay_ns, p.cells);
            let _ = writeln!(s, "  from {}", p.from);
            let _ = writeln!(s, "  to   {}", p.to);
        }
        if self.seeds.len() > 1 {
            let _ = writeln!(s, "per seed:");
            for r in &self.seeds {
                let f = r.fmax_mhz.map_or("-".to_string(), |f| format!("{f:.2} MHz"));
                match &r.critical_path {
                    Some(p) => {
                        let _ =
                            writeln!(s, "  seed {:>3}: {f:>10}, {:.2} ns: {} -> {}", r.seed, p.delay_ns, p.from, p.to);
                    }
                    None => {
                        let _ = writeln!(s, "  seed {:>3}: {f:>10}", r.seed);
                    }
                }
            }
        }
        if !self.utilization.is_empty() {
            let u: Vec<String> = self
                .utilization
                .iter()
                .filter(|(_, used, _)| *used > 0)
                .map(|(r, used, avail)| format!("{r} {used}/{avail}"))
                .collect();
            let _ = writeln!(s, "device use: {}", u.join(", "));
        }
        if !self.breakdown.is_empty() {
            let _ = writeln!(s, "\nper block (synth_ecp5 with the blocks' hierarchy kept):");
            let _ = writeln!(s, "| block | LUT4 | FF | CCU2C | DP16KD | DSP | LUT-RAM |");
            let _ = writeln!(s, "| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
            let mut total = Area::default();
            for (n, b) in &self.breakdown {
                total.add(b);
                let _ = writeln!(
                    s,
                    "| {n} | {} | {} | {} | {} | {} | {} |",
                    b.lut4, b.ff, b.ccu2c, b.dp16kd, b.dsp, b.lutram
                );
            }
            let _ = writeln!(
                s,
                "| total (hierarchy kept) | {} | {} | {} | {} | {} | {} |",
                total.lut4, total.ff, total.ccu2c, total.dp16kd, total.dsp, total.lutram
            );
        }
        let _ = writeln!(
            s,
            "\nwall time: yosys {:.0} s, nextpnr {:.0} s, breakdown {:.0} s (in parallel with nextpnr)",
            self.yosys_s, self.pnr_s, self.breakdown_s
        );
        s
    }
}
