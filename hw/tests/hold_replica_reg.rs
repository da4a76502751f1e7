//! The register replica with a load enable (`HoldReplicaReg`): it follows the `HoldReg` it
//! copies cycle for cycle, in simulation and, proved by Yosys, in the ECP5 flow's
//! instantiated flip-flops; the ECP5 flow keeps it apart, plain synthesis merges it.

mod common;
use common::*;
use hw::config::HoldReg;
use hw::ecp5::hold_replica_reg::HoldReplicaReg;
use rust_hdl::prelude::*;

/// A `HoldReg` and its replica on the same inputs; `bad` is high when they differ.
#[derive(LogicBlock, Default)]
struct RegAndReplica {
    clock: Signal<In, Clock>,
    d: Signal<In, Bits<8>>,
    hold: Signal<In, Bit>,
    y0: Signal<Out, Bits<8>>,
    y1: Signal<Out, Bits<8>>,
    bad: Signal<Out, Bit>,
    r0: HoldReg<Bits<8>>,
    r1: HoldReplicaReg<Bits<8>>,
}

impl Logic for RegAndReplica {
    #[hdl_gen]
    fn update(&mut self) {
        self.r0.clock.next = self.clock.val();
        self.r1.clock.next = self.clock.val();
        self.r0.d.next = self.d.val();
        self.r1.d.next = self.d.val();
        self.r0.hold.next = self.hold.val();
        self.r1.hold.next = self.hold.val();
        self.y0.next = self.r0.q.val();
        self.y1.next = self.r1.q.val();
        self.bad.next = self.r0.q.val() != self.r1.q.val();
    }
}

/// Random data with `hold` high about half the time: after each clock the replica holds the
/// data of the last cycle whose `hold` was low (zero before the first), as its original does.
#[test]
fn hold_replica_loads_only_when_hold_is_low() {
    let s = seed("hold_replica_reg");
    println!("seed {s:#x}");
    let mut rng = Rng(s);
    let cases: Vec<(u8, bool)> = (0..2000).map(|_| (rng.next() as u8, rng.next() & 1 == 1)).collect();
    let mut uut = RegAndReplica::default();
    uut.connect_all();
    let got = stream(
        &mut uut,
        1,
        &cases,
        |u, c| u.clock.next = c.into(),
        |u, &(d, hold)| {
            u.d.next = b128::<8>(d as u128);
            u.hold.next = hold;
        },
        |u| (u128_of(u.y0.val()) as u8, u128_of(u.y1.val()) as u8),
    );
    let mut want = 0u8;
    for (i, (&(d, hold), &(y0, y1))) in cases.iter().zip(&got).enumerate() {
        if !hold {
            want = d;
        }
        assert_eq!((y0, y1), (want, want), "cycle {i}: d {d:#04x} hold {hold}");
    }
}

/// The ECP5 branch (instantiated `TRELLIS_FF`s with the clock enable inverted), simulated by
/// Yosys from its own ECP5 cell models: temporal induction proves that the replica never
/// differs from a behavioural register with the same enable (from zero at start). A
/// replica whose enable had the wrong polarity fails the proof's base case.
#[test]
fn hold_replica_equals_its_original_in_the_ecp5_cells() {
    let v = hw::verilog::verilog(&mut RegAndReplica::default());
    let log = yosys(
        "generic_synth",
        "hold_replica_prove",
        &v,
        "read_verilog -DREDUNIT_ECP5 top.v; read_verilog +/ecp5/cells_sim.v; hierarchy -top top; \
         proc; flatten; opt; async2sync; dffunmap; sat -tempinduct -prove bad 0 -set-init-zero -seq 1",
    );
    assert!(log.contains("Induction step proven: SUCCESS!"), "no induction proof in the log");
}

/// `synth_ecp5` keeps the replica under `REDUNIT_ECP5` (16 `TRELLIS_FF`: 8 of the original,
/// 8 instantiated) and merges it with its original without it (8).
#[test]
fn hold_replica_survives_ecp5_synthesis_and_merges_elsewhere() {
    let v = hw::verilog::verilog(&mut RegAndReplica::default());
    assert_eq!(ecp5_flip_flops("hold_replica", &v), (16, 8), "flip-flops after synth_ecp5 (REDUNIT_ECP5, plain)");
}

#[test]
fn lint_hold_replica_reg() {
    lint("hold_replica_reg", &hw::verilog::verilog(&mut RegAndReplica::default()), false);
}
