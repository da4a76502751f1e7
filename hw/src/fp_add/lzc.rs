//! Segments F, F2 and G of the f32/f64 adders, behind the `csum` cut: the leading-zero count
//! of the sum (limited to the minimum exponent by the marker bit in its input), and the sign of
//! an exact zero.

/// Generates `Lzc` (the `csum` cut, segment F, the `clw` cut, segment F2, the `clz` cut,
/// segment G) for one format.
macro_rules! fp_lzc {
    (e: $e:tt, x: $x:tt, y: $y:tt, sb: $sb:tt) => {
        /// The count by binary search on the count's input followed by 64 - x pad ones (which
        /// stop the count at x): its first three decisions from the unshifted bits (segment
        /// F), the 7-bit window after them (F2), the last three decisions (G). Beside it, the
        /// side band's bit 3 turns from `sub` into `zero`. The sum, exponent and side band
        /// travel along through the cuts.
        #[derive(LogicBlock)]
        pub struct Lzc {
            pub clock: Signal<In, Clock>,
            /// Segment E's results ([`Add`]).
            pub sum_y: Signal<In, Bits<$y>>,
            pub sum_exp: Signal<In, Bits<$e>>,
            pub sum_sb: Signal<In, Bits<$sb>>,
            pub sum_zero: Signal<In, Bit>,
            pub lzin: Signal<In, Bits<$x>>,
            /// The count (the left shift that normalises), and the sum, exponent and side band
            /// it goes with.
            pub norm_shift: Signal<Out, Bits<$e>>,
            pub lz_sum_y: Signal<Out, Bits<$y>>,
            pub lz_exp: Signal<Out, Bits<$e>>,
            pub lz_sb: Signal<Out, Bits<$sb>>,
            lz_pad: Constant<Bits<64>>,
            lz_pad56: Constant<Bits<56>>,
            zero_e: Constant<Bits<$e>>,
            one_e: Constant<Bits<$e>>,
            lz32: Constant<Bits<$e>>,
            lz16: Constant<Bits<$e>>,
            lz8: Constant<Bits<$e>>,
            lz4: Constant<Bits<$e>>,
            lz2: Constant<Bits<$e>>,
            k_hi3: Constant<Bits<6>>,
            sb_sign: Constant<Bits<$sb>>,
            sb_sub: Constant<Bits<$sb>>,
            lz_t: Signal<Local, Bits<56>>,
            d32: Signal<Local, Bit>,
            d16: Signal<Local, Bit>,
            d8: Signal<Local, Bit>,
            lzc_f: Signal<Local, Bits<$e>>,
            sb_f: Signal<Local, Bits<$sb>>,
            lz_w: Signal<Local, Bits<64>>,
            lz_g: Signal<Local, Bits<7>>,
            d4: Signal<Local, Bit>,
            d2: Signal<Local, Bit>,
            d1: Signal<Local, Bit>,
            csum_sum_y: Cut<Bits<$y>>,
            csum_exp: Cut<Bits<$e>>,
            csum_sb: Cut<Bits<$sb>>,
            csum_zero: Cut<Bit>,
            csum_lzin: Cut<Bits<$x>>,
            clw_lzin: Cut<Bits<$x>>,
            clw_lzc: Cut<Bits<$e>>,
            clw_sum_y: Cut<Bits<$y>>,
            clw_exp: Cut<Bits<$e>>,
            clw_sb: Cut<Bits<$sb>>,
            clz_lz_t: Cut<Bits<7>>,
            clz_lzc: Cut<Bits<$e>>,
            clz_sum_y: Cut<Bits<$y>>,
            clz_exp: Cut<Bits<$e>>,
            clz_sb: Cut<Bits<$sb>>,
        }

        impl Lzc {
            pub fn new(cfg: &Config) -> Self {
                let (csum, clw, clz) = (cut_on(cfg, Group::Csum), cut_on(cfg, Group::Clw), cut_on(cfg, Group::Clz));
                Self {
                    clock: Default::default(),
                    sum_y: Default::default(),
                    sum_exp: Default::default(),
                    sum_sb: Default::default(),
                    sum_zero: Default::default(),
                    lzin: Default::default(),
                    norm_shift: Default::default(),
                    lz_sum_y: Default::default(),
                    lz_exp: Default::default(),
                    lz_sb: Default::default(),
                    lz_pad: Constant::new(bits_u128((1u128 << (64 - $x)) - 1)),
                    lz_pad56: Constant::new(bits_u128((1u128 << (56 - $x)) - 1)),
                    zero_e: Constant::new(bits_u128(0)),
                    one_e: Constant::new(bits_u128(1)),
                    lz32: Constant::new(bits_u128(32)),
                    lz16: Constant::new(bits_u128(16)),
                    lz8: Constant::new(bits_u128(8)),
                    lz4: Constant::new(bits_u128(4)),
                    lz2: Constant::new(bits_u128(2)),
                    k_hi3: Constant::new(bits_u128(0b111000)),
                    sb_sign: Constant::new(bits_u128(4)),
                    sb_sub: Constant::new(bits_u128(8)),
                    lz_t: Default::default(),
                    d32: Default::default(),
                    d16: Default::default(),
                    d8: Default::default(),
                    lzc_f: Default::default(),
                    sb_f: Default::default(),
                    lz_w: Default::default(),
                    lz_g: Default::default(),
                    d4: Default::default(),
                    d2: Default::default(),
                    d1: Default::default(),
                    csum_sum_y: Cut::new(csum),
                    csum_exp: Cut::new(csum),
                    csum_sb: Cut::new(csum),
                    csum_zero: Cut::new(csum),
                    csum_lzin: Cut::new(csum),
                    clw_lzin: Cut::new(clw),
                    clw_lzc: Cut::new(clw),
                    clw_sum_y: Cut::new(clw),
                    clw_exp: Cut::new(clw),
                    clw_sb: Cut::new(clw),
                    clz_lz_t: Cut::new(clz),
                    clz_lzc: Cut::new(clz),
                    clz_sum_y: Cut::new(clz),
                    clz_exp: Cut::new(clz),
                    clz_sb: Cut::new(clz),
                }
            }
        }

        impl Logic for Lzc {
            #[hdl_gen]
            fn update(&mut self) {
                clock!(self, clock, csum_sum_y, csum_exp, csum_sb, csum_zero, csum_lzin, clw_lzin, clw_lzc, clw_sum_y);
                clock!(self, clock, clw_exp, clw_sb, clz_lz_t, clz_lzc, clz_sum_y, clz_exp, clz_sb);
                // ------------------------------------------------------------------
                // The `csum` cut.
                // ------------------------------------------------------------------
                self.csum_sum_y.d.next = self.sum_y.val();
                self.csum_exp.d.next = self.sum_exp.val();
                self.csum_sb.d.next = self.sum_sb.val();
                self.csum_zero.d.next = self.sum_zero.val();
                self.csum_lzin.d.next = self.lzin.val();

                // ------------------------------------------------------------------
                // Segment F: zero result; the count's first three decisions.
                // ------------------------------------------------------------------
                // (`lz_t`: the top 56 of the 64 bits; the decisions never look further.)
                self.lz_t.next = (bit_cast::<56, $x>(self.csum_lzin.q.val()) << (56 - $x)) | self.lz_pad56.val();
                // The three decisions of the binary search from the unshifted bits (in
                // parallel); the shift by their sum follows in segment F2.
                self.d32.next = !self.lz_t.val().get_bits::<32>(24).any();
                self.d16.next = !self.lz_t.val().get_bits::<16>(40).any();
                if self.d32.val() {
                    self.d16.next = !self.lz_t.val().get_bits::<16>(8).any();
                }
                self.d8.next = !self.lz_t.val().get_bits::<8>(48).any();
                if !self.d32.val() && self.d16.val() {
                    self.d8.next = !self.lz_t.val().get_bits::<8>(32).any();
                }
                if self.d32.val() && !self.d16.val() {
                    self.d8.next = !self.lz_t.val().get_bits::<8>(16).any();
                }
                if self.d32.val() && self.d16.val() {
                    self.d8.next = !self.lz_t.val().get_bits::<8>(0).any();
                }
                self.lzc_f.next = self.zero_e.val();
                if self.d32.val() {
                    self.lzc_f.next = self.lzc_f.val() | self.lz32.val();
                }
                if self.d16.val() {
                    self.lzc_f.next = self.lzc_f.val() | self.lz16.val();
                }
                if self.d8.val() {
                    self.lzc_f.next = self.lzc_f.val() | self.lz8.val();
                }
                // An exact zero of a subtraction is +0 (round to nearest); of an addition it
                // keeps the common sign. Bit 3 turns from `sub` into `zero`.
                self.sb_f.next = self.csum_sb.q.val() & !self.sb_sub.val();
                if self.csum_zero.q.val() {
                    self.sb_f.next = self.sb_f.val() | self.sb_sub.val();
                    if self.csum_sb.q.val().get_bit(3) {
                        self.sb_f.next = self.sb_f.val() & !self.sb_sign.val();
                    }
                }
                self.clw_lzin.d.next = self.csum_lzin.q.val();
                self.clw_lzc.d.next = self.lzc_f.val();
                self.clw_sum_y.d.next = self.csum_sum_y.q.val();
                self.clw_exp.d.next = self.csum_exp.q.val();
                self.clw_sb.d.next = self.sb_f.val();

                // ------------------------------------------------------------------
                // Segment F2 (after the `clw` cut): the 7-bit window of the count's input
                // after the first three decisions (a shift by a multiple of 8).
                // ------------------------------------------------------------------
                self.lz_w.next = (bit_cast::<64, $x>(self.clw_lzin.q.val()) << (64 - $x)) | self.lz_pad.val();
                self.lz_w.next = self.lz_w.val() << (self.clw_lzc.q.val().get_bits::<6>(0) & self.k_hi3.val());
                self.clz_lz_t.d.next = self.lz_w.val().get_bits::<7>(57);
                self.clz_lzc.d.next = self.clw_lzc.q.val();
                self.clz_sum_y.d.next = self.clw_sum_y.q.val();
                self.clz_exp.d.next = self.clw_exp.q.val();
                self.clz_sb.d.next = self.clw_sb.q.val();

                // ------------------------------------------------------------------
                // Segment G (after the `clz` cut): the last three decisions.
                // ------------------------------------------------------------------
                self.lz_g.next = self.clz_lz_t.q.val();
                self.norm_shift.next = self.clz_lzc.q.val();
                self.d4.next = !self.lz_g.val().get_bits::<4>(3).any();
                self.d2.next = !self.lz_g.val().get_bits::<2>(5).any();
                if self.d4.val() {
                    self.d2.next = !self.lz_g.val().get_bits::<2>(1).any();
                }
                self.d1.next = !self.lz_g.val().get_bit(6);
                if !self.d4.val() && self.d2.val() {
                    self.d1.next = !self.lz_g.val().get_bit(4);
                }
                if self.d4.val() && !self.d2.val() {
                    self.d1.next = !self.lz_g.val().get_bit(2);
                }
                if self.d4.val() && self.d2.val() {
                    self.d1.next = !self.lz_g.val().get_bit(0);
                }
                if self.d4.val() {
                    self.norm_shift.next = self.norm_shift.val() | self.lz4.val();
                }
                if self.d2.val() {
                    self.norm_shift.next = self.norm_shift.val() | self.lz2.val();
                }
                if self.d1.val() {
                    self.norm_shift.next = self.norm_shift.val() | self.one_e.val();
                }
                self.lz_sum_y.next = self.clz_sum_y.q.val();
                self.lz_exp.next = self.clz_exp.q.val();
                self.lz_sb.next = self.clz_sb.q.val();
            }
        }
    };
}
