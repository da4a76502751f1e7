//! The select-and-add (`MuxAdd`): `(sel ? x : y) + b` with its carry out, in simulation and,
//! proved by Yosys, in the ECP5 flow's instantiated carry cells, which `synth_ecp5` keeps with
//! the select inside them.

mod common;
use common::*;
use hw::ecp5::MuxAdd;
use rust_hdl::prelude::*;

/// The block as the top (`top` in the generated Verilog).
#[derive(LogicBlock, Default)]
struct Top {
    sel: Signal<In, Bit>,
    x: Signal<In, Bits<32>>,
    y: Signal<In, Bits<32>>,
    b: Signal<In, Bits<32>>,
    sum: Signal<Out, Bits<33>>,
    add: MuxAdd,
}

impl Logic for Top {
    #[hdl_gen]
    fn update(&mut self) {
        self.add.sel.next = self.sel.val();
        self.add.x.next = self.x.val();
        self.add.y.next = self.y.val();
        self.add.b.next = self.b.val();
        self.sum.next = self.add.sum.val();
    }
}

/// Random operands, with carries through every bit and out of bit 31 (all-ones operands)
/// among them: the sum of the selected operand and `b`.
#[test]
fn mux_add_adds_the_selected_operand() {
    let s = seed("mux_add");
    let mut rng = Rng(s);
    let mut uut = Top::default();
    uut.connect_all();
    for i in 0..4000 {
        let mut r = || match rng.below(4) {
            0 => 0xffff_ffffu64,
            1 => rng.below(4) as u64,
            _ => rng.next() & 0xffff_ffff,
        };
        let (x, y, b) = (r(), r(), r());
        let sel = i % 2 == 1;
        uut.sel.next = sel;
        uut.x.next = b128::<32>(x as u128);
        uut.y.next = b128::<32>(y as u128);
        uut.b.next = b128::<32>(b as u128);
        assert!(simulate(&mut uut, 100), "did not settle");
        let want = if sel { x } else { y } + b;
        assert_eq!(u128_of(uut.sum.val()), want as u128, "case {i}: sel {sel} x {x:#x} y {y:#x} b {b:#x}");
    }
}

/// The ECP5 branch (17 instantiated `CCU2C`s, INIT `663C`, from Yosys' own ECP5 cell models)
/// equals the behavioural branch for every input: a miter of the two, proved by `sat`.
#[test]
fn mux_add_ecp5_carry_cells_equal_the_add() {
    assert!(ecp5_branch_proved_equal("mux_add_prove", &hw::verilog::verilog(&mut Top::default())), "no proof");
}

/// `synth_ecp5` keeps the select in the carry cells under `REDUNIT_ECP5` (17 `CCU2C`s and no
/// LUT); without it the select is a LUT per bit in front of a plain carry chain.
#[test]
fn mux_add_select_stays_in_the_carry_cells() {
    let v = hw::verilog::verilog(&mut Top::default());
    let cells = |ecp5: bool| {
        let log = synth_ecp5_log("mux_add", &v, ecp5);
        (stat_count(&log, "CCU2C"), stat_count(&log, "LUT4"))
    };
    let (ecp5, plain) = (cells(true), cells(false));
    assert_eq!(ecp5, (17, 0), "CCU2C and LUT4 after synth_ecp5 with REDUNIT_ECP5");
    assert!(plain.1 >= 32, "plain synthesis: {plain:?} (CCU2C, LUT4); the select should be LUTs");
}

#[test]
fn lint_mux_add() {
    lint("mux_add", &hw::verilog::verilog(&mut Top::default()), false);
}
