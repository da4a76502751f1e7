//! Segments H and H2 of the f32/f64 adders, behind the `cnrm` cut: normalise the sum (the left
//! shift by the leading-zero count, or one right shift on a carry out). The last block of
//! stage 2: its outputs feed the `s2_` registers.

/// Generates `Normalise` (the `cnrm` cut, segment H, the `cns` cut, segment H2) for one format.
macro_rules! fp_normalise {
    (e: $e:tt, x: $x:tt, y: $y:tt, sb: $sb:tt) => {
        /// The shift is at most x (< 64): a 6-level shifter in two steps, the multiple of 8
        /// (or the right shift by one on a carry out, keeping the sticky) in segment H, the
        /// rest in segment H2 (after the `cns` cut); the exponent less the count (or plus one).
        #[derive(LogicBlock)]
        pub struct Normalise {
            pub clock: Signal<In, Clock>,
            /// Segment G's results ([`Lzc`]).
            pub norm_shift: Signal<In, Bits<$e>>,
            pub lz_sum_y: Signal<In, Bits<$y>>,
            pub lz_exp: Signal<In, Bits<$e>>,
            pub lz_sb: Signal<In, Bits<$sb>>,
            /// The normalised significand with guard, round and sticky, its exponent and the
            /// side band: the D inputs of the `s2_` registers.
            pub norm: Signal<Out, Bits<$x>>,
            pub exp: Signal<Out, Bits<$e>>,
            pub sb: Signal<Out, Bits<$sb>>,
            k_hi3: Constant<Bits<6>>,
            one_x: Constant<Bits<$x>>,
            one_e: Constant<Bits<$e>>,
            zero3: Constant<Bits<3>>,
            low_x: Signal<Local, Bits<$x>>,
            nsh_c: Signal<Local, Bits<6>>,
            norm_sig: Signal<Local, Bits<$x>>,
            norm_f: Signal<Local, Bits<3>>,
            norm_exp: Signal<Local, Bits<$e>>,
            cnrm_norm_shift: Cut<Bits<$e>>,
            cnrm_sum_y: Cut<Bits<$y>>,
            cnrm_exp: Cut<Bits<$e>>,
            cnrm_sb: Cut<Bits<$sb>>,
            cns_sig: Cut<Bits<$x>>,
            cns_fine: Cut<Bits<3>>,
            cns_exp: Cut<Bits<$e>>,
            cns_sb: Cut<Bits<$sb>>,
        }

        impl Normalise {
            pub fn new(cfg: &Config) -> Self {
                let (cnrm, cns) = (cut_on(cfg, Group::Cnrm), cut_on(cfg, Group::Cns));
                Self {
                    clock: Default::default(),
                    norm_shift: Default::default(),
                    lz_sum_y: Default::default(),
                    lz_exp: Default::default(),
                    lz_sb: Default::default(),
                    norm: Default::default(),
                    exp: Default::default(),
                    sb: Default::default(),
                    k_hi3: Constant::new(bits_u128(0b111000)),
                    one_x: Constant::new(bits_u128(1)),
                    one_e: Constant::new(bits_u128(1)),
                    zero3: Constant::new(bits_u128(0)),
                    low_x: Default::default(),
                    nsh_c: Default::default(),
                    norm_sig: Default::default(),
                    norm_f: Default::default(),
                    norm_exp: Default::default(),
                    cnrm_norm_shift: Cut::new(cnrm),
                    cnrm_sum_y: Cut::new(cnrm),
                    cnrm_exp: Cut::new(cnrm),
                    cnrm_sb: Cut::new(cnrm),
                    cns_sig: Cut::new(cns),
                    cns_fine: Cut::new(cns),
                    cns_exp: Cut::new(cns),
                    cns_sb: Cut::new(cns),
                }
            }
        }

        impl Logic for Normalise {
            #[hdl_gen]
            fn update(&mut self) {
                clock!(self, clock, cnrm_norm_shift, cnrm_sum_y, cnrm_exp, cnrm_sb, cns_sig, cns_fine, cns_exp, cns_sb);
                // ------------------------------------------------------------------
                // The `cnrm` cut.
                // ------------------------------------------------------------------
                self.cnrm_norm_shift.d.next = self.norm_shift.val();
                self.cnrm_sum_y.d.next = self.lz_sum_y.val();
                self.cnrm_exp.d.next = self.lz_exp.val();
                self.cnrm_sb.d.next = self.lz_sb.val();

                // ------------------------------------------------------------------
                // Segment H: the shift by the multiple of 8, or the right shift.
                // ------------------------------------------------------------------
                self.low_x.next = self.cnrm_sum_y.q.val().get_bits::<$x>(0);
                self.nsh_c.next = self.cnrm_norm_shift.q.val().get_bits::<6>(0) & self.k_hi3.val();
                self.norm_sig.next = self.low_x.val() << self.nsh_c.val();
                self.norm_f.next = self.cnrm_norm_shift.q.val().get_bits::<3>(0);
                self.norm_exp.next = self.cnrm_exp.q.val() - self.cnrm_norm_shift.q.val();
                if self.cnrm_sum_y.q.val().get_bit($x) {
                    self.norm_sig.next = self.cnrm_sum_y.q.val().get_bits::<$x>(1);
                    if self.cnrm_sum_y.q.val().get_bit(0) {
                        self.norm_sig.next = self.cnrm_sum_y.q.val().get_bits::<$x>(1) | self.one_x.val();
                    }
                    self.norm_f.next = self.zero3.val();
                    self.norm_exp.next = self.cnrm_exp.q.val() + self.one_e.val();
                }
                self.cns_sig.d.next = self.norm_sig.val();
                self.cns_fine.d.next = self.norm_f.val();
                self.cns_exp.d.next = self.norm_exp.val();
                self.cns_sb.d.next = self.cnrm_sb.q.val();

                // ------------------------------------------------------------------
                // Segment H2 (after the `cns` cut): the shift's last three levels.
                // ------------------------------------------------------------------
                self.norm.next = self.cns_sig.q.val() << self.cns_fine.q.val();
                self.exp.next = self.cns_exp.q.val();
                self.sb.next = self.cns_sb.q.val();
            }
        }
    };
}
