//! Segments D and E of the f32/f64 adders, from the `s1_` registers: the significand add or
//! subtract, carry-selected in two parts, the sum's zero test (from the operands) and the marker
//! bit that limits the normalising shift.

/// Generates `Add` (the `s1_` registers, segment D, the `cadd` cut, segment E) for one format.
macro_rules! fp_add_seg {
    (e: $e:tt, x: $x:tt, y: $y:tt, lo: $lo:tt, lo2: $lo2:tt, hi: $hi:tt, hi1: $hi1:tt, sb: $sb:tt) => {
        /// Add or subtract (big + ~small + 1) in two parts: the low `lo` bits with the
        /// carry-in as an extra low bit, and the high part both without and with a carry-in
        /// (segment D), so that after the `cadd` cut the low part's carry only selects
        /// (segment E); the sum's zero test from the operands; the limit of the
        /// normalising shift as a marker bit in the leading-zero count's input.
        #[derive(LogicBlock)]
        pub struct Add {
            pub clock: Signal<In, Clock>,
            /// Stage 1's results ([`Align`]), into the `s1_` registers.
            pub big_x: Signal<In, Bits<$x>>,
            pub small_x: Signal<In, Bits<$x>>,
            pub exp: Signal<In, Bits<$e>>,
            pub sb: Signal<In, Bits<$sb>>,
            /// The sum with its carry, its exponent and side band, whether it is zero, and the
            /// leading-zero count's input (the sum's low `x` bits with the marker).
            pub sum_y: Signal<Out, Bits<$y>>,
            pub sum_exp: Signal<Out, Bits<$e>>,
            pub sum_sb: Signal<Out, Bits<$sb>>,
            pub sum_zero: Signal<Out, Bit>,
            pub lzin: Signal<Out, Bits<$x>>,
            ones_y: Constant<Bits<$y>>,
            one_lo2: Constant<Bits<$lo2>>,
            one_hi1: Constant<Bits<$hi1>>,
            one_e: Constant<Bits<$e>>,
            top_x: Constant<Bits<$x>>,
            zero_x: Constant<Bits<$x>>,
            big_y: Signal<Local, Bits<$y>>,
            small_inv: Signal<Local, Bits<$y>>,
            lo_a: Signal<Local, Bits<$lo2>>,
            lo_b: Signal<Local, Bits<$lo2>>,
            lo_t: Signal<Local, Bits<$lo2>>,
            hi_a1: Signal<Local, Bits<$hi1>>,
            hi_b1: Signal<Local, Bits<$hi1>>,
            hi_t1: Signal<Local, Bits<$hi1>>,
            unused_hi1: Signal<Local, Bit>,
            limit: Signal<Local, Bits<$e>>,
            hi: Signal<Local, Bits<$hi>>,
            zero_d: Signal<Local, Bit>,
            mark: Signal<Local, Bits<$x>>,
            s1_big: DFF<Bits<$x>>,
            s1_small: DFF<Bits<$x>>,
            s1_exp: DFF<Bits<$e>>,
            s1_sb: DFF<Bits<$sb>>,
            cadd_lo_sum: Cut<Bits<$lo>>,
            cadd_carry: Cut<Bit>,
            cadd_hi0: Cut<Bits<$hi>>,
            cadd_hi1: Cut<Bits<$hi>>,
            cadd_exp: Cut<Bits<$e>>,
            cadd_lim6: Cut<Bits<6>>,
            cadd_lim_big: Cut<Bit>,
            cadd_sb: Cut<Bits<$sb>>,
            cadd_zero: Cut<Bit>,
        }

        impl Add {
            pub fn new(cfg: &Config) -> Self {
                let cadd = cut_on(cfg, Group::Cadd);
                Self {
                    clock: Default::default(),
                    big_x: Default::default(),
                    small_x: Default::default(),
                    exp: Default::default(),
                    sb: Default::default(),
                    sum_y: Default::default(),
                    sum_exp: Default::default(),
                    sum_sb: Default::default(),
                    sum_zero: Default::default(),
                    lzin: Default::default(),
                    ones_y: Constant::new(bits_u128((1u128 << $y) - 1)),
                    one_lo2: Constant::new(bits_u128(1)),
                    one_hi1: Constant::new(bits_u128(1)),
                    one_e: Constant::new(bits_u128(1)),
                    top_x: Constant::new(bits_u128(1u128 << ($x - 1))),
                    zero_x: Constant::new(bits_u128(0)),
                    big_y: Default::default(),
                    small_inv: Default::default(),
                    lo_a: Default::default(),
                    lo_b: Default::default(),
                    lo_t: Default::default(),
                    hi_a1: Default::default(),
                    hi_b1: Default::default(),
                    hi_t1: Default::default(),
                    unused_hi1: Default::default(),
                    limit: Default::default(),
                    hi: Default::default(),
                    zero_d: Default::default(),
                    mark: Default::default(),
                    s1_big: Default::default(),
                    s1_small: Default::default(),
                    s1_exp: Default::default(),
                    s1_sb: Default::default(),
                    cadd_lo_sum: Cut::new(cadd),
                    cadd_carry: Cut::new(cadd),
                    cadd_hi0: Cut::new(cadd),
                    cadd_hi1: Cut::new(cadd),
                    cadd_exp: Cut::new(cadd),
                    cadd_lim6: Cut::new(cadd),
                    cadd_lim_big: Cut::new(cadd),
                    cadd_sb: Cut::new(cadd),
                    cadd_zero: Cut::new(cadd),
                }
            }
        }

        impl Logic for Add {
            #[hdl_gen]
            fn update(&mut self) {
                dff_setup!(self, clock, s1_big, s1_small, s1_exp, s1_sb);
                clock!(self, clock, cadd_lo_sum, cadd_carry, cadd_hi0, cadd_hi1, cadd_exp, cadd_lim6, cadd_lim_big);
                clock!(self, clock, cadd_sb, cadd_zero);
                // ------------------------------------------------------------------
                // The `s1_` registers: the end of stage 1.
                // ------------------------------------------------------------------
                self.s1_big.d.next = self.big_x.val();
                self.s1_small.d.next = self.small_x.val();
                self.s1_exp.d.next = self.exp.val();
                self.s1_sb.d.next = self.sb.val();

                // ------------------------------------------------------------------
                // Segment D: the two parts of the add, the limit of the normalising shift.
                // ------------------------------------------------------------------
                self.big_y.next = bit_cast::<$y, $x>(self.s1_big.q.val());
                self.small_inv.next = bit_cast::<$y, $x>(self.s1_small.q.val());
                if self.s1_sb.q.val().get_bit(3) {
                    self.small_inv.next = bit_cast::<$y, $x>(self.s1_small.q.val()) ^ self.ones_y.val();
                }
                self.lo_a.next = (bit_cast::<$lo2, $lo>(self.big_y.val().get_bits::<$lo>(0)) << 1) | self.one_lo2.val();
                self.lo_b.next = bit_cast::<$lo2, $lo>(self.small_inv.val().get_bits::<$lo>(0)) << 1;
                if self.s1_sb.q.val().get_bit(3) {
                    self.lo_b.next = self.lo_b.val() | self.one_lo2.val();
                }
                self.lo_t.next = self.lo_a.val() + self.lo_b.val();
                self.cadd_lo_sum.d.next = self.lo_t.val().get_bits::<$lo>(1);
                self.cadd_carry.d.next = self.lo_t.val().get_bit($lo + 1);
                self.cadd_hi0.d.next =
                    self.big_y.val().get_bits::<$hi>($lo) + self.small_inv.val().get_bits::<$hi>($lo);
                // The high part with a carry-in too (`cadd_hi1`, a carry chain beside
                // `cadd_hi0`, the carry-in as an extra low bit as above), so that segment E
                // only selects: an increment after the cut would be a second carry chain in
                // series, the f64 adders' critical path.
                self.hi_a1.next = (bit_cast::<$hi1, $hi>(self.big_y.val().get_bits::<$hi>($lo)) << 1) | self.one_hi1.val();
                self.hi_b1.next = (bit_cast::<$hi1, $hi>(self.small_inv.val().get_bits::<$hi>($lo)) << 1) | self.one_hi1.val();
                self.hi_t1.next = self.hi_a1.val() + self.hi_b1.val();
                self.cadd_hi1.d.next = self.hi_t1.val().get_bits::<$hi>(1);
                // (Bit 0 is always 0.)
                self.unused_hi1.next = self.hi_t1.val().get_bit(0);
                self.cadd_exp.d.next = self.s1_exp.q.val();
                self.limit.next = self.s1_exp.q.val() - self.one_e.val();
                self.cadd_lim6.d.next = self.limit.val().get_bits::<6>(0);
                self.cadd_lim_big.d.next = (self.limit.val() >> 6).any();
                self.cadd_sb.d.next = self.s1_sb.q.val();
                // Whether the sum is zero, from the operands beside the add rather than from
                // its result after the carry chain (segment F needs it for the sign of an
                // exact zero): big - small is zero exactly when they are equal, big + small
                // (no wrap in y bits) when both are zero.
                self.zero_d.next = !(self.s1_big.q.val() ^ self.s1_small.q.val()).any();
                if !self.s1_sb.q.val().get_bit(3) {
                    self.zero_d.next = !(self.s1_big.q.val() | self.s1_small.q.val()).any();
                }
                self.cadd_zero.d.next = self.zero_d.val();

                // ------------------------------------------------------------------
                // Segment E (after the `cadd` cut): the high part selected by the low
                // part's carry.
                // ------------------------------------------------------------------
                self.hi.next = self.cadd_hi0.q.val();
                if self.cadd_carry.q.val() {
                    self.hi.next = self.cadd_hi1.q.val();
                }
                self.sum_zero.next = self.cadd_zero.q.val();
                self.sum_y.next =
                    (bit_cast::<$y, $hi>(self.hi.val()) << $lo) | bit_cast::<$y, $lo>(self.cadd_lo_sum.q.val());
                self.sum_exp.next = self.cadd_exp.q.val();
                // The normalising shift stops at the minimum exponent (1): a marker bit at
                // `limit = exp - 1` leading zeros (none when limit >= 64, where the count's
                // pad stops it anyway), ORed into the count's input, makes the count itself
                // min(leading zeros, limit).
                self.mark.next = self.top_x.val() >> self.cadd_lim6.q.val();
                if self.cadd_lim_big.q.val() {
                    self.mark.next = self.zero_x.val();
                }
                self.lzin.next = self.sum_y.val().get_bits::<$x>(0) | self.mark.val();
                self.sum_sb.next = self.cadd_sb.q.val();
            }
        }
    };
}
