//! The old-value extract from replicas (`OldExtract`) against the shift it replaces, and the
//! register replicas (`ReplicaReg`): kept apart by the ECP5 flow, merged by plain synthesis.

mod common;
use common::*;
use hw::ecp5::replica_reg::ReplicaReg;
use hw::old_extract::OldExtract;
use rust_hdl::prelude::*;

/// Every access size the unit has (2, 4, 8, 16 bytes) at every offset it can take (a
/// multiple of the size), over random lines: the accessed bytes are those of
/// `line >> 8*offset` of the cycle before (each result is checked against the inputs of the
/// cycle before, so a block that passed its inputs through, or lagged by more, fails).
#[test]
fn old_extract_gives_the_accessed_bytes_a_cycle_later() {
    let mut rng = Rng(seed("old_extract"));
    let mut cases = Vec::new();
    for size in [2u32, 4, 8, 16] {
        for off in (0..16).step_by(size as usize) {
            for _ in 0..200 {
                let line = (rng.next() as u128) | ((rng.next() as u128) << 64);
                cases.push((size, off as u32, line));
            }
        }
    }
    let mut uut = OldExtract::default();
    uut.connect_all();
    let got = stream(
        &mut uut,
        1,
        &cases,
        |u, c| u.clock.next = c.into(),
        |u, &(_, off, line)| {
            u.line.next = b128::<128>(line);
            u.sh.next = b128::<7>(8 * off as u128);
        },
        |u| u128_of(u.old.val()),
    );
    let mut bad = 0;
    for (&(size, off, line), &g) in cases.iter().zip(&got) {
        let mask = u128::MAX >> (128 - 8 * size);
        let want = (line >> (8 * off)) & mask;
        if g & mask != want {
            bad += 1;
            if bad <= 10 {
                eprintln!("size {size} offset {off} line {line:032x}: got {:032x}, want {want:032x}", g & mask);
            }
        }
    }
    assert_eq!(bad, 0, "{bad} of {} extracts wrong", cases.len());
}

/// Two replicas of one 8-bit register, each feeding its own output.
#[derive(LogicBlock, Default)]
struct TwoReplicas {
    clock: Signal<In, Clock>,
    d: Signal<In, Bits<8>>,
    y0: Signal<Out, Bits<8>>,
    y1: Signal<Out, Bits<8>>,
    r0: ReplicaReg<Bits<8>>,
    r1: ReplicaReg<Bits<8>>,
}

impl Logic for TwoReplicas {
    #[hdl_gen]
    fn update(&mut self) {
        self.r0.clock.next = self.clock.val();
        self.r1.clock.next = self.clock.val();
        self.r0.d.next = self.d.val();
        self.r1.d.next = self.d.val();
        self.y0.next = self.r0.q.val();
        self.y1.next = self.r1.q.val();
    }
}

/// `synth_ecp5` keeps both replicas under `REDUNIT_ECP5` (16 `TRELLIS_FF`, the instantiated
/// flip-flops) and merges them into one register without it (8): the copies exist only where
/// the ECP5 flow places them, and the behavioural Verilog is the plain register.
#[test]
fn replicas_survive_ecp5_synthesis_and_merge_elsewhere() {
    let v = hw::verilog::verilog(&mut TwoReplicas::default());
    assert_eq!(ecp5_flip_flops("two_replicas", &v), (16, 8), "flip-flops after synth_ecp5 (REDUNIT_ECP5, plain)");
}

#[test]
fn lint_old_extract() {
    lint("old_extract", &hw::verilog::verilog(&mut OldExtract::default()), false);
}
