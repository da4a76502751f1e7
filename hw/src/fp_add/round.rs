//! Stage 3 of the f32/f64 adders: round to nearest even from the `s2_` registers (segment I)
//! and pack behind the `crnd` cut (segment J), with overflow, flushing and the special results
//! decided before the pack, so that the pack only selects.

/// Generates `Round` (the `s2_` registers and segment I) for one format.
macro_rules! fp_round {
    (e: $e:tt, f: $f:tt, x: $x:tt, s: $s:tt, lo: $lo:tt, sb: $sb:tt, p1: $p1:tt, rh: $rh:tt, rh1: $rh1:tt) => {
        /// Round to nearest even with a carry-selected increment, and the exponent field for
        /// each of the three values the rounded significand's bits above the fraction can
        /// take (0, 1, 2: subnormal, normal, rounding carry), each with whether the fraction
        /// is cleared (overflow, flush, zero, special).
        #[derive(LogicBlock)]
        pub struct Round {
            pub clock: Signal<In, Clock>,
            /// Stage 2's results ([`Normalise`]), into the `s2_` registers.
            pub norm: Signal<In, Bits<$x>>,
            pub exp: Signal<In, Bits<$e>>,
            pub sb: Signal<In, Bits<$sb>>,
            /// The rounded significand (hidden bit and carry above the fraction).
            pub sig_w: Signal<Out, Bits<$p1>>,
            /// Per value of the bits above the fraction: the exponent field, and whether the
            /// fraction is cleared.
            pub e_0: Signal<Out, Bits<$e>>,
            pub e_1: Signal<Out, Bits<$e>>,
            pub e_2: Signal<Out, Bits<$e>>,
            pub k_0: Signal<Out, Bit>,
            pub k_1: Signal<Out, Bit>,
            pub k_2: Signal<Out, Bit>,
            /// The result's sign, and the special result's fraction (zero if none).
            pub sign: Signal<Out, Bit>,
            pub spf: Signal<Out, Bits<$f>>,
            one_lo: Constant<Bits<$lo>>,
            one_rh1: Constant<Bits<$rh1>>,
            one_e: Constant<Bits<$e>>,
            zero_e: Constant<Bits<$e>>,
            inf_e: Constant<Bits<$e>>,
            zero_f: Constant<Bits<$f>>,
            round_up: Signal<Local, Bit>,
            rnd_lo: Signal<Local, Bits<$lo>>,
            rnd_hi: Signal<Local, Bits<$rh1>>,
            rnd_carry: Signal<Local, Bit>,
            ef0: Signal<Local, Bits<$e>>,
            ef1: Signal<Local, Bits<$e>>,
            ef2: Signal<Local, Bits<$e>>,
            s2_norm: DFF<Bits<$x>>,
            s2_exp: DFF<Bits<$e>>,
            s2_sb: DFF<Bits<$sb>>,
        }

        impl Default for Round {
            fn default() -> Self {
                Self {
                    clock: Default::default(),
                    norm: Default::default(),
                    exp: Default::default(),
                    sb: Default::default(),
                    sig_w: Default::default(),
                    e_0: Default::default(),
                    e_1: Default::default(),
                    e_2: Default::default(),
                    k_0: Default::default(),
                    k_1: Default::default(),
                    k_2: Default::default(),
                    sign: Default::default(),
                    spf: Default::default(),
                    one_lo: Constant::new(bits_u128(1)),
                    one_rh1: Constant::new(bits_u128(1)),
                    one_e: Constant::new(bits_u128(1)),
                    zero_e: Constant::new(bits_u128(0)),
                    inf_e: Constant::new(bits_u128((1u128 << $e) - 1)),
                    zero_f: Constant::new(bits_u128(0)),
                    round_up: Default::default(),
                    rnd_lo: Default::default(),
                    rnd_hi: Default::default(),
                    rnd_carry: Default::default(),
                    ef0: Default::default(),
                    ef1: Default::default(),
                    ef2: Default::default(),
                    s2_norm: Default::default(),
                    s2_exp: Default::default(),
                    s2_sb: Default::default(),
                }
            }
        }

        impl Logic for Round {
            #[hdl_gen]
            fn update(&mut self) {
                dff_setup!(self, clock, s2_norm, s2_exp, s2_sb);
                // ------------------------------------------------------------------
                // The `s2_` registers: the end of stage 2.
                // ------------------------------------------------------------------
                self.s2_norm.d.next = self.norm.val();
                self.s2_exp.d.next = self.exp.val();
                self.s2_sb.d.next = self.sb.val();

                // ------------------------------------------------------------------
                // Segment I: round to nearest even.
                // ------------------------------------------------------------------
                self.round_up.next = self.s2_norm.q.val().get_bit(2)
                    && (self.s2_norm.q.val().get_bit(1)
                        || self.s2_norm.q.val().get_bit(0)
                        || self.s2_norm.q.val().get_bit(3));
                // The increment carry-selected: the low `lo` bits and the high part (with its
                // carry out) add one side by side, and the high part takes its sum when the
                // low part was all ones (f64: two chains of 28 and 26 bits, not one of 54).
                self.rnd_lo.next = self.s2_norm.q.val().get_bits::<$lo>(3);
                self.rnd_hi.next = bit_cast::<$rh1, $rh>(self.s2_norm.q.val().get_bits::<$rh>(3 + $lo));
                self.rnd_carry.next = self.round_up.val() && self.rnd_lo.val().all();
                if self.round_up.val() {
                    self.rnd_lo.next = self.rnd_lo.val() + self.one_lo.val();
                }
                if self.rnd_carry.val() {
                    self.rnd_hi.next = self.rnd_hi.val() + self.one_rh1.val();
                }
                self.sig_w.next = (bit_cast::<$p1, $rh1>(self.rnd_hi.val()) << $lo) | bit_cast::<$p1, $lo>(self.rnd_lo.val());
                // The exponent field for the three values of the bits above the fraction.
                self.ef0.next = self.s2_exp.q.val() - self.one_e.val();
                self.ef1.next = self.s2_exp.q.val();
                self.ef2.next = self.s2_exp.q.val() + self.one_e.val();
                // Per value: the final exponent field (infinity on overflow, zero for a zero
                // result, the special value's) and whether the fraction is cleared (overflow,
                // flush, zero, special). Overflow (field >= all ones) and a zero field are
                // tests of `exp` itself (1 <= exp < 2^e): exp - 1 never overflows and is zero
                // for exp = 1; exp overflows when all ones (its field is never zero); exp + 1
                // overflows from all ones but the lowest bit.
                self.e_0.next = self.ef0.val();
                self.k_0.next = self.s2_sb.q.val().get_bit(0) && self.s2_exp.q.val() == self.one_e.val();
                if self.s2_sb.q.val().get_bit(3) {
                    self.e_0.next = self.zero_e.val();
                    self.k_0.next = true;
                }
                if self.s2_sb.q.val().get_bit(1) {
                    self.e_0.next = self.s2_sb.q.val().get_bits::<$e>($f + 4);
                    self.k_0.next = true;
                }
                self.e_1.next = self.ef1.val();
                self.k_1.next = self.s2_sb.q.val().get_bit(0) && !self.s2_exp.q.val().any();
                if self.s2_exp.q.val().all() {
                    self.e_1.next = self.inf_e.val();
                    self.k_1.next = true;
                }
                if self.s2_sb.q.val().get_bit(3) {
                    self.e_1.next = self.zero_e.val();
                    self.k_1.next = true;
                }
                if self.s2_sb.q.val().get_bit(1) {
                    self.e_1.next = self.s2_sb.q.val().get_bits::<$e>($f + 4);
                    self.k_1.next = true;
                }
                self.e_2.next = self.ef2.val();
                self.k_2.next = self.s2_sb.q.val().get_bit(0) && self.s2_exp.q.val().all();
                if (self.s2_exp.q.val() | self.one_e.val()).all() {
                    self.e_2.next = self.inf_e.val();
                    self.k_2.next = true;
                }
                if self.s2_sb.q.val().get_bit(3) {
                    self.e_2.next = self.zero_e.val();
                    self.k_2.next = true;
                }
                if self.s2_sb.q.val().get_bit(1) {
                    self.e_2.next = self.s2_sb.q.val().get_bits::<$e>($f + 4);
                    self.k_2.next = true;
                }
                self.sign.next = self.s2_sb.q.val().get_bit(2);
                self.spf.next = self.zero_f.val();
                if self.s2_sb.q.val().get_bit(1) {
                    self.sign.next = self.s2_sb.q.val().get_bit($s + 4);
                    self.spf.next = self.s2_sb.q.val().get_bits::<$f>(4);
                }
            }
        }
    };
}

/// Generates `Pack` (the `crnd` cut, segment J, the `cout` cut) for one format.
macro_rules! fp_pack {
    (w: $w:tt, e: $e:tt, f: $f:tt, p1: $p1:tt) => {
        /// Pack: the exponent field is (exp - 1) plus the significand's bits above the
        /// fraction (the hidden bit adds the missing 1, a subnormal packs to field 0, and a
        /// rounding carry bumps it), so the pack selects one of the three precomputed fields
        /// by those bits. Then the optional output register (`cout`).
        #[derive(LogicBlock)]
        pub struct Pack {
            pub clock: Signal<In, Clock>,
            /// Segment I's results ([`Round`]).
            pub sig_w: Signal<In, Bits<$p1>>,
            pub e_0: Signal<In, Bits<$e>>,
            pub e_1: Signal<In, Bits<$e>>,
            pub e_2: Signal<In, Bits<$e>>,
            pub k_0: Signal<In, Bit>,
            pub k_1: Signal<In, Bit>,
            pub k_2: Signal<In, Bit>,
            pub sign: Signal<In, Bit>,
            pub spf: Signal<In, Bits<$f>>,
            /// The adder's result.
            pub sum: Signal<Out, Bits<$w>>,
            zero_f: Constant<Bits<$f>>,
            sign_w: Constant<Bits<$w>>,
            ek: Signal<Local, Bits<$e>>,
            kk: Signal<Local, Bit>,
            frac: Signal<Local, Bits<$f>>,
            result: Signal<Local, Bits<$w>>,
            crnd_sig_w: Cut<Bits<$p1>>,
            crnd_e0: Cut<Bits<$e>>,
            crnd_e1: Cut<Bits<$e>>,
            crnd_e2: Cut<Bits<$e>>,
            crnd_k0: Cut<Bit>,
            crnd_k1: Cut<Bit>,
            crnd_k2: Cut<Bit>,
            crnd_sign: Cut<Bit>,
            crnd_spf: Cut<Bits<$f>>,
            cout_result: Cut<Bits<$w>>,
        }

        impl Pack {
            pub fn new(cfg: &Config) -> Self {
                let crnd = cut_on(cfg, Group::Crnd);
                Self {
                    clock: Default::default(),
                    sig_w: Default::default(),
                    e_0: Default::default(),
                    e_1: Default::default(),
                    e_2: Default::default(),
                    k_0: Default::default(),
                    k_1: Default::default(),
                    k_2: Default::default(),
                    sign: Default::default(),
                    spf: Default::default(),
                    sum: Default::default(),
                    zero_f: Constant::new(bits_u128(0)),
                    sign_w: Constant::new(bits_u128(1u128 << ($w - 1))),
                    ek: Default::default(),
                    kk: Default::default(),
                    frac: Default::default(),
                    result: Default::default(),
                    crnd_sig_w: Cut::new(crnd),
                    crnd_e0: Cut::new(crnd),
                    crnd_e1: Cut::new(crnd),
                    crnd_e2: Cut::new(crnd),
                    crnd_k0: Cut::new(crnd),
                    crnd_k1: Cut::new(crnd),
                    crnd_k2: Cut::new(crnd),
                    crnd_sign: Cut::new(crnd),
                    crnd_spf: Cut::new(crnd),
                    cout_result: Cut::new(cut_on(cfg, Group::Cout)),
                }
            }
        }

        impl Logic for Pack {
            #[hdl_gen]
            fn update(&mut self) {
                clock!(self, clock, crnd_sig_w, crnd_e0, crnd_e1, crnd_e2, crnd_k0, crnd_k1, crnd_k2, crnd_sign);
                clock!(self, clock, crnd_spf, cout_result);
                // ------------------------------------------------------------------
                // The `crnd` cut.
                // ------------------------------------------------------------------
                self.crnd_sig_w.d.next = self.sig_w.val();
                self.crnd_e0.d.next = self.e_0.val();
                self.crnd_e1.d.next = self.e_1.val();
                self.crnd_e2.d.next = self.e_2.val();
                self.crnd_k0.d.next = self.k_0.val();
                self.crnd_k1.d.next = self.k_1.val();
                self.crnd_k2.d.next = self.k_2.val();
                self.crnd_sign.d.next = self.sign.val();
                self.crnd_spf.d.next = self.spf.val();

                // ------------------------------------------------------------------
                // Segment J: pack, overflow, flush, specials; then the `cout` cut.
                // ------------------------------------------------------------------
                self.ek.next = self.crnd_e0.q.val();
                self.kk.next = self.crnd_k0.q.val();
                if self.crnd_sig_w.q.val().get_bit($f) {
                    self.ek.next = self.crnd_e1.q.val();
                    self.kk.next = self.crnd_k1.q.val();
                }
                if self.crnd_sig_w.q.val().get_bit($f + 1) {
                    self.ek.next = self.crnd_e2.q.val();
                    self.kk.next = self.crnd_k2.q.val();
                }
                self.frac.next = self.crnd_sig_w.q.val().get_bits::<$f>(0);
                if self.kk.val() {
                    self.frac.next = self.zero_f.val();
                }
                self.frac.next = self.frac.val() | self.crnd_spf.q.val();
                self.result.next = (bit_cast::<$w, $e>(self.ek.val()) << $f) | bit_cast::<$w, $f>(self.frac.val());
                if self.crnd_sign.q.val() {
                    self.result.next = self.result.val() | self.sign_w.val();
                }
                self.cout_result.d.next = self.result.val();
                self.sum.next = self.cout_result.q.val();
            }
        }
    };
}
