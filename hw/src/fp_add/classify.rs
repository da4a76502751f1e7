//! Segment A of the f32/f64 adders: classify and unpack both operands, compare their
//! magnitudes in chunks and take the exponent differences both ways, all side by side from
//! the input registers, so that the swap (segment B) only selects.

/// Generates `Classify` (segment A) for one format; the widths are those of [`fp_adder!`].
macro_rules! fp_classify {
    (w: $w:tt, e: $e:tt, f: $f:tt, p: $p:tt, m: $m:tt, q: $q:tt, q2: $q2:tt, q3: $q3:tt, qt: $qt:tt, sb: $sb:tt) => {
        /// Segment A (combinational, from the input registers): the magnitude compare in four
        /// chunks (the two high chunks' results apart, combined in the swap), NaN and infinity
        /// flags, both operands unpacked (significand with the hidden bit, exponent 1 for
        /// subnormals and zero, whether `ftz` flushes it), the exponent differences both ways
        /// saturated to 6 bits, and the side band's `ftz` bit.
        #[derive(LogicBlock)]
        pub struct Classify {
            /// The operands' magnitudes (input registers; the signs are read by the swap).
            pub a_mag: Signal<In, Bits<$m>>,
            pub b_mag: Signal<In, Bits<$m>>,
            /// Their exponent fields from the replica registers (used at the segmented depths).
            pub ae: Signal<In, Bits<$e>>,
            pub be: Signal<In, Bits<$e>>,
            pub ftz: Signal<In, Bit>,
            /// The high two chunks' compares, and the low half's `a < b`.
            pub lt3: Signal<Out, Bit>,
            pub eq3: Signal<Out, Bit>,
            pub lt2: Signal<Out, Bit>,
            pub eq2: Signal<Out, Bit>,
            pub lt_lo: Signal<Out, Bit>,
            pub a_nan: Signal<Out, Bit>,
            pub b_nan: Signal<Out, Bit>,
            pub a_inf: Signal<Out, Bit>,
            pub b_inf: Signal<Out, Bit>,
            pub a_sig: Signal<Out, Bits<$p>>,
            pub b_sig: Signal<Out, Bits<$p>>,
            pub a_exp: Signal<Out, Bits<$e>>,
            pub b_exp: Signal<Out, Bits<$e>>,
            pub a_flush: Signal<Out, Bit>,
            pub b_flush: Signal<Out, Bit>,
            /// Alignment shifts `ea - eb` and `eb - ea`, saturated at 63.
            pub sh_ab: Signal<Out, Bits<6>>,
            pub sh_ba: Signal<Out, Bits<6>>,
            /// The side band so far (bit 0: ftz).
            pub sb_a: Signal<Out, Bits<$sb>>,
            /// The exponent fields come from `ae`/`be` (the `ccmp` cut is a register).
            xcp: Constant<Bit>,
            one_e: Constant<Bits<$e>>,
            ones6: Constant<Bits<6>>,
            hidden_p: Constant<Bits<$p>>,
            zero_w: Constant<Bits<$w>>,
            sb_ftz: Constant<Bits<$sb>>,
            lt0: Signal<Local, Bit>,
            lt1: Signal<Local, Bit>,
            eq1: Signal<Local, Bit>,
            ea: Signal<Local, Bits<$e>>,
            eb: Signal<Local, Bits<$e>>,
            za: Signal<Local, Bit>,
            zb: Signal<Local, Bit>,
            dab: Signal<Local, Bits<$e>>,
            dba: Signal<Local, Bits<$e>>,
        }

        impl Classify {
            pub fn new(cfg: &Config) -> Self {
                Self {
                    a_mag: Default::default(),
                    b_mag: Default::default(),
                    ae: Default::default(),
                    be: Default::default(),
                    ftz: Default::default(),
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
                    xcp: Constant::new(cut_on(cfg, Group::Ccmp)),
                    one_e: Constant::new(bits_u128(1)),
                    ones6: Constant::new(bits_u128(63)),
                    hidden_p: Constant::new(bits_u128(1u128 << $f)),
                    zero_w: Constant::new(bits_u128(0)),
                    sb_ftz: Constant::new(bits_u128(1)),
                    lt0: Default::default(),
                    lt1: Default::default(),
                    eq1: Default::default(),
                    ea: Default::default(),
                    eb: Default::default(),
                    za: Default::default(),
                    zb: Default::default(),
                    dab: Default::default(),
                    dba: Default::default(),
                }
            }
        }

        impl Logic for Classify {
            #[hdl_gen]
            fn update(&mut self) {
                // Magnitude compare on the raw magnitudes: flushing (ftz) only changes the
                // order of two subnormals or zeros, which both flush to zero, and the sum of two
                // zeros does not depend on their order.
                // In four chunks (short carry chains); the low two combined here, the high two in
                // the swap (segment B).
                self.lt0.next = self.a_mag.val().get_bits::<$q>(0) < self.b_mag.val().get_bits::<$q>(0);
                self.lt1.next = self.a_mag.val().get_bits::<$q>($q) < self.b_mag.val().get_bits::<$q>($q);
                self.eq1.next = self.a_mag.val().get_bits::<$q>($q) == self.b_mag.val().get_bits::<$q>($q);
                self.lt2.next = self.a_mag.val().get_bits::<$q>($q2) < self.b_mag.val().get_bits::<$q>($q2);
                self.eq2.next = self.a_mag.val().get_bits::<$q>($q2) == self.b_mag.val().get_bits::<$q>($q2);
                self.lt3.next = self.a_mag.val().get_bits::<$qt>($q3) < self.b_mag.val().get_bits::<$qt>($q3);
                self.eq3.next = self.a_mag.val().get_bits::<$qt>($q3) == self.b_mag.val().get_bits::<$qt>($q3);
                self.lt_lo.next = self.lt1.val() || (self.eq1.val() && self.lt0.val());
                // Exponent differences both ways (subnormals and zero at exponent 1), in
                // parallel with the compare; the alignment shift saturates at 63 (>= x:
                // everything shifts out), so the shifter has 6 levels rather than e.
                // From the raw exponent fields, so that the zero tests run beside the
                // subtractions: a zero field counts as 1, which matters only when the other
                // field is not zero (both zero: the difference is 0 either way); a difference
                // is used only when its minuend belongs to the larger magnitude, which rules
                // out a zero minuend with a non-zero subtrahend.
                self.ea.next = self.a_mag.val().get_bits::<$e>($f);
                self.eb.next = self.b_mag.val().get_bits::<$e>($f);
                if self.xcp.val() {
                    self.ea.next = self.ae.val();
                    self.eb.next = self.be.val();
                }
                // NaN and infinity (the exponent field all ones, the fraction not zero or
                // zero), each one tree of the exponent and fraction bits (as many LUT levels as
                // the fraction's OR alone), registered by the `ccmp` cut, so that segment B's
                // special result starts from them. (Registered as the two parts, the side band
                // behind them becomes a critical path of the unit.)
                self.a_nan.next = self.ea.val().all() && self.a_mag.val().get_bits::<$f>(0).any();
                self.b_nan.next = self.eb.val().all() && self.b_mag.val().get_bits::<$f>(0).any();
                self.a_inf.next = self.ea.val().all() && !self.a_mag.val().get_bits::<$f>(0).any();
                self.b_inf.next = self.eb.val().all() && !self.b_mag.val().get_bits::<$f>(0).any();
                self.za.next = !self.ea.val().any();
                self.zb.next = !self.eb.val().any();
                self.dab.next = self.ea.val() - self.eb.val();
                if self.zb.val() && !self.za.val() {
                    self.dab.next = self.ea.val() - self.one_e.val();
                }
                self.dba.next = self.eb.val() - self.ea.val();
                if self.za.val() && !self.zb.val() {
                    self.dba.next = self.eb.val() - self.one_e.val();
                }
                if self.za.val() {
                    self.ea.next = self.one_e.val();
                }
                if self.zb.val() {
                    self.eb.next = self.one_e.val();
                }
                // Unpack both operands beside the compare, so that the swap only selects:
                // significand with the hidden bit, exponent (1 for subnormals and zero), and
                // whether the significand flushes to zero (applied with the swap).
                self.a_sig.next = bit_cast::<$p, $f>(self.a_mag.val().get_bits::<$f>(0));
                if !self.za.val() {
                    self.a_sig.next = self.a_sig.val() | self.hidden_p.val();
                }
                self.b_sig.next = bit_cast::<$p, $f>(self.b_mag.val().get_bits::<$f>(0));
                if !self.zb.val() {
                    self.b_sig.next = self.b_sig.val() | self.hidden_p.val();
                }
                self.a_flush.next = self.ftz.val() && self.za.val();
                self.b_flush.next = self.ftz.val() && self.zb.val();
                self.a_exp.next = self.ea.val();
                self.b_exp.next = self.eb.val();
                self.sh_ab.next = self.dab.val().get_bits::<6>(0);
                if (self.dab.val() >> 6).any() {
                    self.sh_ab.next = self.ones6.val();
                }
                self.sh_ba.next = self.dba.val().get_bits::<6>(0);
                if (self.dba.val() >> 6).any() {
                    self.sh_ba.next = self.ones6.val();
                }
                self.sb_a.next = bit_cast::<$sb, $w>(self.zero_w.val());
                if self.ftz.val() {
                    self.sb_a.next = self.sb_ftz.val();
                }
            }
        }
    };
}
