//! Segment B of the f32/f64 adders, behind the `ccmp` cut: the swap that puts the larger
//! magnitude first, the flush of subnormal inputs, and the special result (NaN, infinity)
//! packed into the side band.

/// Generates `Swap` (the `ccmp` cut and segment B) for one format.
macro_rules! fp_swap {
    (w: $w:tt, e: $e:tt, p: $p:tt, s: $s:tt, sb: $sb:tt,
     nan_prop: $nan_prop:expr, canon: $canon:expr, indef: $indef:expr, quiet: $quiet:expr) => {
        /// The `ccmp` cut, then segment B: swap (the larger magnitude first; on a tie `a`
        /// stays first) of the unpacked significands, exponents, signs and exponent
        /// differences; the flush of a subnormal input; the special result from the
        /// registered NaN and infinity flags. Side band `sb`: bit 0 ftz, 1 special, 2 sign,
        /// 3 sub (from segment F on: zero result), 4.. the special result.
        #[derive(LogicBlock)]
        pub struct Swap {
            pub clock: Signal<In, Clock>,
            /// The operands and the NaN rule (input registers).
            pub a: Signal<In, Bits<$w>>,
            pub b: Signal<In, Bits<$w>>,
            pub nq: Signal<In, Bit>,
            /// Segment A's results ([`Classify`]).
            pub lt3: Signal<In, Bit>,
            pub eq3: Signal<In, Bit>,
            pub lt2: Signal<In, Bit>,
            pub eq2: Signal<In, Bit>,
            pub lt_lo: Signal<In, Bit>,
            pub a_nan: Signal<In, Bit>,
            pub b_nan: Signal<In, Bit>,
            pub a_inf: Signal<In, Bit>,
            pub b_inf: Signal<In, Bit>,
            pub a_sig: Signal<In, Bits<$p>>,
            pub b_sig: Signal<In, Bits<$p>>,
            pub a_exp: Signal<In, Bits<$e>>,
            pub b_exp: Signal<In, Bits<$e>>,
            pub a_flush: Signal<In, Bit>,
            pub b_flush: Signal<In, Bit>,
            pub sh_ab: Signal<In, Bits<6>>,
            pub sh_ba: Signal<In, Bits<6>>,
            pub sb_a: Signal<In, Bits<$sb>>,
            /// The larger and the smaller significand (flushed), the larger exponent, the
            /// alignment shift and the side band.
            pub big_sig: Signal<Out, Bits<$p>>,
            pub small_sig: Signal<Out, Bits<$p>>,
            pub big_exp: Signal<Out, Bits<$e>>,
            pub exp_diff: Signal<Out, Bits<6>>,
            pub sb_b: Signal<Out, Bits<$sb>>,
            nan_prop: Constant<Bit>,
            canon_nan: Constant<Bits<$w>>,
            indef_nan: Constant<Bits<$w>>,
            quiet_bit: Constant<Bits<$w>>,
            zero_p: Constant<Bits<$p>>,
            sb_special: Constant<Bits<$sb>>,
            sb_sign: Constant<Bits<$sb>>,
            sb_sub: Constant<Bits<$sb>>,
            swapped: Signal<Local, Bit>,
            a_sig_b: Signal<Local, Bits<$p>>,
            b_sig_b: Signal<Local, Bits<$p>>,
            big_sign: Signal<Local, Bit>,
            small_sign: Signal<Local, Bit>,
            nan_val: Signal<Local, Bits<$w>>,
            special_val: Signal<Local, Bits<$w>>,
            ccmp_a: Cut<Bits<$w>>,
            ccmp_b: Cut<Bits<$w>>,
            ccmp_nq: Cut<Bit>,
            ccmp_lt3: Cut<Bit>,
            ccmp_eq3: Cut<Bit>,
            ccmp_lt2: Cut<Bit>,
            ccmp_eq2: Cut<Bit>,
            ccmp_lt_lo: Cut<Bit>,
            ccmp_a_nan: Cut<Bit>,
            ccmp_b_nan: Cut<Bit>,
            ccmp_a_inf: Cut<Bit>,
            ccmp_b_inf: Cut<Bit>,
            ccmp_a_sig: Cut<Bits<$p>>,
            ccmp_b_sig: Cut<Bits<$p>>,
            ccmp_a_exp: Cut<Bits<$e>>,
            ccmp_b_exp: Cut<Bits<$e>>,
            ccmp_a_flush: Cut<Bit>,
            ccmp_b_flush: Cut<Bit>,
            ccmp_sh_ab: Cut<Bits<6>>,
            ccmp_sh_ba: Cut<Bits<6>>,
            ccmp_sb: Cut<Bits<$sb>>,
        }

        impl Swap {
            pub fn new(cfg: &Config) -> Self {
                let on = cut_on(cfg, Group::Ccmp);
                Self {
                    clock: Default::default(),
                    a: Default::default(),
                    b: Default::default(),
                    nq: Default::default(),
                    lt3: Default::default(),
                    eq3: Default::default(),
                    lt2: Default::default(),
                    eq2: Default::default(),
                    lt_lo: Default::default(),
                    a_nan: Default::default(),
                    b_nan: Default::default(),
                    a_inf: Default::default(),
                    b_inf: Default::default(),
                    a_sig: Default::default(),
                    b_sig: Default::default(),
                    a_exp: Default::default(),
                    b_exp: Default::default(),
                    a_flush: Default::default(),
                    b_flush: Default::default(),
                    sh_ab: Default::default(),
                    sh_ba: Default::default(),
                    sb_a: Default::default(),
                    big_sig: Default::default(),
                    small_sig: Default::default(),
                    big_exp: Default::default(),
                    exp_diff: Default::default(),
                    sb_b: Default::default(),
                    nan_prop: Constant::new($nan_prop),
                    canon_nan: Constant::new(bits_u128($canon)),
                    indef_nan: Constant::new(bits_u128($indef)),
                    quiet_bit: Constant::new(bits_u128($quiet)),
                    zero_p: Constant::new(bits_u128(0)),
                    sb_special: Constant::new(bits_u128(2)),
                    sb_sign: Constant::new(bits_u128(4)),
                    sb_sub: Constant::new(bits_u128(8)),
                    swapped: Default::default(),
                    a_sig_b: Default::default(),
                    b_sig_b: Default::default(),
                    big_sign: Default::default(),
                    small_sign: Default::default(),
                    nan_val: Default::default(),
                    special_val: Default::default(),
                    ccmp_a: Cut::new(on),
                    ccmp_b: Cut::new(on),
                    ccmp_nq: Cut::new(on),
                    ccmp_lt3: Cut::new(on),
                    ccmp_eq3: Cut::new(on),
                    ccmp_lt2: Cut::new(on),
                    ccmp_eq2: Cut::new(on),
                    ccmp_lt_lo: Cut::new(on),
                    ccmp_a_nan: Cut::new(on),
                    ccmp_b_nan: Cut::new(on),
                    ccmp_a_inf: Cut::new(on),
                    ccmp_b_inf: Cut::new(on),
                    ccmp_a_sig: Cut::new(on),
                    ccmp_b_sig: Cut::new(on),
                    ccmp_a_exp: Cut::new(on),
                    ccmp_b_exp: Cut::new(on),
                    ccmp_a_flush: Cut::new(on),
                    ccmp_b_flush: Cut::new(on),
                    ccmp_sh_ab: Cut::new(on),
                    ccmp_sh_ba: Cut::new(on),
                    ccmp_sb: Cut::new(on),
                }
            }
        }

        impl Logic for Swap {
            #[hdl_gen]
            fn update(&mut self) {
                clock!(self, clock, ccmp_a, ccmp_b, ccmp_nq, ccmp_lt3, ccmp_eq3, ccmp_lt2, ccmp_eq2, ccmp_lt_lo);
                clock!(self, clock, ccmp_a_nan, ccmp_b_nan, ccmp_a_inf, ccmp_b_inf, ccmp_a_sig, ccmp_b_sig, ccmp_a_exp);
                clock!(self, clock, ccmp_b_exp, ccmp_a_flush, ccmp_b_flush, ccmp_sh_ab, ccmp_sh_ba, ccmp_sb);
                // ------------------------------------------------------------------
                // The `ccmp` cut.
                // ------------------------------------------------------------------
                self.ccmp_a.d.next = self.a.val();
                self.ccmp_b.d.next = self.b.val();
                self.ccmp_nq.d.next = self.nq.val();
                self.ccmp_lt3.d.next = self.lt3.val();
                self.ccmp_eq3.d.next = self.eq3.val();
                self.ccmp_lt2.d.next = self.lt2.val();
                self.ccmp_eq2.d.next = self.eq2.val();
                self.ccmp_lt_lo.d.next = self.lt_lo.val();
                self.ccmp_a_nan.d.next = self.a_nan.val();
                self.ccmp_b_nan.d.next = self.b_nan.val();
                self.ccmp_a_inf.d.next = self.a_inf.val();
                self.ccmp_b_inf.d.next = self.b_inf.val();
                self.ccmp_a_sig.d.next = self.a_sig.val();
                self.ccmp_b_sig.d.next = self.b_sig.val();
                self.ccmp_a_exp.d.next = self.a_exp.val();
                self.ccmp_b_exp.d.next = self.b_exp.val();
                self.ccmp_a_flush.d.next = self.a_flush.val();
                self.ccmp_b_flush.d.next = self.b_flush.val();
                self.ccmp_sh_ab.d.next = self.sh_ab.val();
                self.ccmp_sh_ba.d.next = self.sh_ba.val();
                self.ccmp_sb.d.next = self.sb_a.val();

                // ------------------------------------------------------------------
                // Segment B: the swap.
                // ------------------------------------------------------------------
                self.swapped.next = self.ccmp_lt3.q.val()
                    || (self.ccmp_eq3.q.val() && (self.ccmp_lt2.q.val() || (self.ccmp_eq2.q.val() && self.ccmp_lt_lo.q.val())));
                self.a_sig_b.next = self.ccmp_a_sig.q.val();
                if self.ccmp_a_flush.q.val() {
                    self.a_sig_b.next = self.zero_p.val();
                }
                self.b_sig_b.next = self.ccmp_b_sig.q.val();
                if self.ccmp_b_flush.q.val() {
                    self.b_sig_b.next = self.zero_p.val();
                }
                self.big_sig.next = self.a_sig_b.val();
                self.small_sig.next = self.b_sig_b.val();
                self.big_exp.next = self.ccmp_a_exp.q.val();
                self.big_sign.next = self.ccmp_a.q.val().get_bit($s);
                self.small_sign.next = self.ccmp_b.q.val().get_bit($s);
                if self.swapped.val() {
                    self.big_sig.next = self.b_sig_b.val();
                    self.small_sig.next = self.a_sig_b.val();
                    self.big_exp.next = self.ccmp_b_exp.q.val();
                    self.big_sign.next = self.ccmp_b.q.val().get_bit($s);
                    self.small_sign.next = self.ccmp_a.q.val().get_bit($s);
                }
                self.exp_diff.next = self.ccmp_sh_ab.q.val();
                if self.swapped.val() {
                    self.exp_diff.next = self.ccmp_sh_ba.q.val();
                }
                // Special results (from the registered classification).
                // NaN (a NaN input, or inf + -inf), else infinity.
                self.nan_val.next = self.canon_nan.val();
                if self.nan_prop.val() {
                    if self.ccmp_a_nan.q.val() && self.ccmp_b_nan.q.val() {
                        if self.ccmp_nq.q.val() {
                            self.nan_val.next = self.ccmp_a.q.val() | self.quiet_bit.val();
                        } else {
                            self.nan_val.next = self.ccmp_b.q.val();
                        }
                    } else if self.ccmp_a_nan.q.val() {
                        self.nan_val.next = self.ccmp_a.q.val();
                        if self.ccmp_nq.q.val() {
                            self.nan_val.next = self.ccmp_a.q.val() | self.quiet_bit.val();
                        }
                    } else if self.ccmp_b_nan.q.val() {
                        self.nan_val.next = self.ccmp_b.q.val();
                        if self.ccmp_nq.q.val() {
                            self.nan_val.next = self.ccmp_b.q.val() | self.quiet_bit.val();
                        }
                    } else {
                        self.nan_val.next = self.indef_nan.val();
                    }
                }
                self.special_val.next = self.nan_val.val();
                if !self.ccmp_a_nan.q.val() && !self.ccmp_b_nan.q.val() {
                    if self.ccmp_a_inf.q.val() && self.ccmp_b_inf.q.val() {
                        if self.ccmp_a.q.val().get_bit($s) == self.ccmp_b.q.val().get_bit($s) {
                            self.special_val.next = self.ccmp_a.q.val();
                        }
                    } else if self.ccmp_a_inf.q.val() {
                        self.special_val.next = self.ccmp_a.q.val();
                    } else if self.ccmp_b_inf.q.val() {
                        self.special_val.next = self.ccmp_b.q.val();
                    }
                }
                self.sb_b.next = (bit_cast::<$sb, $w>(self.special_val.val()) << 4) | self.ccmp_sb.q.val();
                if self.ccmp_a_nan.q.val() || self.ccmp_b_nan.q.val() || self.ccmp_a_inf.q.val() || self.ccmp_b_inf.q.val() {
                    self.sb_b.next = self.sb_b.val() | self.sb_special.val();
                }
                if self.big_sign.val() {
                    self.sb_b.next = self.sb_b.val() | self.sb_sign.val();
                }
                if self.big_sign.val() != self.small_sign.val() {
                    self.sb_b.next = self.sb_b.val() | self.sb_sub.val();
                }
            }
        }
    };
}
