//! The RAM/forwarding mux (`RamForwardMux`): per quarter the forwarded line or the RAM's,
//! in simulation and, proved by Yosys, in the ECP5 flow's instantiated LUTs, which
//! `synth_ecp5` keeps apart from the logic in front of them.

mod common;
use common::*;
use hw::ecp5::ram_forward_mux::RamForwardMux;
use rust_hdl::prelude::*;

/// The mux with its forwarded line from logic (`a & b`, which plain synthesis maps into the
/// mux's own LUTs).
#[derive(LogicBlock, Default)]
struct AndMux {
    ram: Signal<In, Bits<128>>,
    a: Signal<In, Bits<128>>,
    b: Signal<In, Bits<128>>,
    take: Signal<In, Bits<4>>,
    out: Signal<Out, Bits<128>>,
    mux: RamForwardMux,
}

impl Logic for AndMux {
    #[hdl_gen]
    fn update(&mut self) {
        self.mux.ram.next = self.ram.val();
        self.mux.fwd.next = self.a.val() & self.b.val();
        self.mux.take.next = self.take.val();
        self.out.next = self.mux.out.val();
    }
}

/// Random lines and every `take` pattern: each quarter is the forwarded line's where its
/// bit is set, the RAM's elsewhere.
#[test]
fn ram_forward_mux_takes_each_quarter_from_its_source() {
    let s = seed("ram_forward_mux");
    let mut rng = Rng(s);
    let mut uut = AndMux::default();
    uut.connect_all();
    let r128 = |rng: &mut Rng| (rng.next() as u128) | ((rng.next() as u128) << 64);
    for i in 0..2000 {
        let (ram, a, b, take) = (r128(&mut rng), r128(&mut rng), r128(&mut rng), (i % 16) as u128);
        uut.ram.next = b128::<128>(ram);
        uut.a.next = b128::<128>(a);
        uut.b.next = b128::<128>(b);
        uut.take.next = b128::<4>(take);
        assert!(simulate(&mut uut, 100), "did not settle");
        let mut want = 0u128;
        for q in 0..4 {
            let m = 0xffff_ffffu128 << (32 * q);
            want |= if take >> q & 1 == 1 { a & b & m } else { ram & m };
        }
        assert_eq!(u128_of(uut.out.val()), want, "case {i}: take {take:#x}");
    }
}

/// The ECP5 branch (128 instantiated `LUT4`s, INIT `CACA`, from Yosys' own ECP5 cell
/// models) equals the behavioural branch for every input: a miter of the two, proved by
/// `sat`. A LUT with its inputs swapped (`C ? A : B`) fails it.
#[test]
fn ram_forward_mux_ecp5_luts_equal_the_select() {
    let v = hw::verilog::verilog(&mut AndMux::default());
    assert!(ecp5_branch_proved_equal("ram_forward_mux_prove", &v), "no proof");
}

/// `synth_ecp5` keeps the instantiated LUTs under `REDUNIT_ECP5`, with the RAM bit alone
/// in them: 128 mux LUTs and 128 more for `a & b` in front. Without it the mux and the AND
/// map into one LUT per bit (128).
#[test]
fn ram_forward_mux_survives_ecp5_synthesis() {
    let v = hw::verilog::verilog(&mut AndMux::default());
    let luts = |ecp5: bool| stat_count(&synth_ecp5_log("ram_forward_mux", &v, ecp5), "LUT4");
    assert_eq!((luts(true), luts(false)), (256, 128), "LUT4s after synth_ecp5 (REDUNIT_ECP5, plain)");
}

#[test]
fn lint_ram_forward_mux() {
    lint("ram_forward_mux", &hw::verilog::verilog(&mut AndMux::default()), false);
}
