//! Segments C and C2 of the f32/f64 adders, behind the `csh` cut: the alignment shift of the
//! smaller significand, with the bits shifted out collapsed into a sticky bit. The last block of
//! stage 1: its outputs feed the `s1_` registers.

/// Generates `Align` (the `csh` cut, segment C, the `cal` cut, segment C2) for one format.
macro_rules! fp_align {
    (e: $e:tt, p: $p:tt, x: $x:tt, sb: $sb:tt) => {
        /// Shift the smaller significand right by the exponent difference, in two steps: the
        /// multiple of 8 (segment C), then the rest (segment C2, after the `cal` cut), each
        /// with the sticky of the bits it shifts out; guard, round and sticky (bit 0) below the
        /// significand.
        #[derive(LogicBlock)]
        pub struct Align {
            pub clock: Signal<In, Clock>,
            /// Segment B's results ([`Swap`]).
            pub big_sig: Signal<In, Bits<$p>>,
            pub small_sig: Signal<In, Bits<$p>>,
            pub big_exp: Signal<In, Bits<$e>>,
            pub exp_diff: Signal<In, Bits<6>>,
            pub sb_b: Signal<In, Bits<$sb>>,
            /// Both significands with guard, round and sticky, the exponent and the side band:
            /// the D inputs of the `s1_` registers.
            pub big_x: Signal<Out, Bits<$x>>,
            pub small_x: Signal<Out, Bits<$x>>,
            pub exp: Signal<Out, Bits<$e>>,
            pub sb: Signal<Out, Bits<$sb>>,
            k_hi3: Constant<Bits<6>>,
            ones_x: Constant<Bits<$x>>,
            one_x: Constant<Bits<$x>>,
            small_ext: Signal<Local, Bits<$x>>,
            sh_c: Signal<Local, Bits<6>>,
            coarse: Signal<Local, Bits<$x>>,
            lost_c: Signal<Local, Bit>,
            small_shifted: Signal<Local, Bits<$x>>,
            small_lost: Signal<Local, Bit>,
            csh_big_sig: Cut<Bits<$p>>,
            csh_small_sig: Cut<Bits<$p>>,
            csh_big_exp: Cut<Bits<$e>>,
            csh_exp_diff: Cut<Bits<6>>,
            csh_sb: Cut<Bits<$sb>>,
            cal_small: Cut<Bits<$x>>,
            cal_lost: Cut<Bit>,
            cal_fine: Cut<Bits<3>>,
            cal_big_sig: Cut<Bits<$p>>,
            cal_big_exp: Cut<Bits<$e>>,
            cal_sb: Cut<Bits<$sb>>,
        }

        impl Align {
            pub fn new(cfg: &Config) -> Self {
                let csh = cut_on(cfg, Group::Csh);
                let cal = cut_on(cfg, Group::Cal);
                Self {
                    clock: Default::default(),
                    big_sig: Default::default(),
                    small_sig: Default::default(),
                    big_exp: Default::default(),
                    exp_diff: Default::default(),
                    sb_b: Default::default(),
                    big_x: Default::default(),
                    small_x: Default::default(),
                    exp: Default::default(),
                    sb: Default::default(),
                    k_hi3: Constant::new(bits_u128(0b111000)),
                    ones_x: Constant::new(bits_u128((1u128 << $x) - 1)),
                    one_x: Constant::new(bits_u128(1)),
                    small_ext: Default::default(),
                    sh_c: Default::default(),
                    coarse: Default::default(),
                    lost_c: Default::default(),
                    small_shifted: Default::default(),
                    small_lost: Default::default(),
                    csh_big_sig: Cut::new(csh),
                    csh_small_sig: Cut::new(csh),
                    csh_big_exp: Cut::new(csh),
                    csh_exp_diff: Cut::new(csh),
                    csh_sb: Cut::new(csh),
                    cal_small: Cut::new(cal),
                    cal_lost: Cut::new(cal),
                    cal_fine: Cut::new(cal),
                    cal_big_sig: Cut::new(cal),
                    cal_big_exp: Cut::new(cal),
                    cal_sb: Cut::new(cal),
                }
            }
        }

        impl Logic for Align {
            #[hdl_gen]
            fn update(&mut self) {
                clock!(self, clock, csh_big_sig, csh_small_sig, csh_big_exp, csh_exp_diff, csh_sb, cal_small, cal_lost);
                clock!(self, clock, cal_fine, cal_big_sig, cal_big_exp, cal_sb);
                // ------------------------------------------------------------------
                // The `csh` cut.
                // ------------------------------------------------------------------
                self.csh_big_sig.d.next = self.big_sig.val();
                self.csh_small_sig.d.next = self.small_sig.val();
                self.csh_big_exp.d.next = self.big_exp.val();
                self.csh_exp_diff.d.next = self.exp_diff.val();
                self.csh_sb.d.next = self.sb_b.val();

                // ------------------------------------------------------------------
                // Segment C: the shift by the multiple of 8, with its sticky.
                // ------------------------------------------------------------------
                self.small_ext.next = bit_cast::<$x, $p>(self.csh_small_sig.q.val()) << 3;
                self.sh_c.next = self.csh_exp_diff.q.val() & self.k_hi3.val();
                self.coarse.next = self.small_ext.val() >> self.sh_c.val();
                self.lost_c.next = (self.small_ext.val() & !(self.ones_x.val() << self.sh_c.val())).any();
                self.cal_small.d.next = self.coarse.val();
                self.cal_lost.d.next = self.lost_c.val();
                self.cal_fine.d.next = self.csh_exp_diff.q.val().get_bits::<3>(0);
                self.cal_big_sig.d.next = self.csh_big_sig.q.val();
                self.cal_big_exp.d.next = self.csh_big_exp.q.val();
                self.cal_sb.d.next = self.csh_sb.q.val();

                // ------------------------------------------------------------------
                // Segment C2 (after the `cal` cut): the alignment's last three levels.
                // ------------------------------------------------------------------
                self.small_shifted.next = self.cal_small.q.val() >> self.cal_fine.q.val();
                self.small_lost.next = self.cal_lost.q.val()
                    || (self.cal_small.q.val() & !(self.ones_x.val() << self.cal_fine.q.val())).any();
                self.small_x.next = self.small_shifted.val();
                if self.small_lost.val() {
                    self.small_x.next = self.small_shifted.val() | self.one_x.val();
                }
                self.big_x.next = bit_cast::<$x, $p>(self.cal_big_sig.q.val()) << 3;
                self.exp.next = self.cal_big_exp.q.val();
                self.sb.next = self.cal_sb.q.val();
            }
        }
    };
}
