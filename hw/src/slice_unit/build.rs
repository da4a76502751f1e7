//! The constructor: the pipeline shape of a configuration, the blocks and the constants.

use super::*;

/// A `SliceUnit` literal: the signals and registers listed under `defaults` at their default,
/// then the fields given with their values (most of the struct's fields are defaults).
macro_rules! slice_unit {
    (defaults: [$($d:ident),* $(,)?], $($f:ident: $e:expr),* $(,)?) => {
        SliceUnit { $($d: Default::default(),)* $($f: $e,)* }
    };
}

impl SliceUnit {
    /// A unit with `mem_bytes` of memory (a multiple of 16), every block at its shallowest
    /// depth (`Config::default()`, the fewest cycles per dependent operation; the unit's
    /// default configuration, which [`unit_verilog`] writes, is [`Config::unit_default`]).
    pub fn new(mem_bytes: usize) -> Self {
        Self::with_config(mem_bytes, &Config::default())
    }

    /// A unit with `mem_bytes` of memory and the pipeline depths of `cfg`
    /// (latency [`unit_latency`]).
    pub fn with_config(mem_bytes: usize, cfg: &Config) -> Self {
        cfg.validate().unwrap_or_else(|e| panic!("SliceUnit: {e}"));
        // FP results merge in `sp_*[lat]`, integer results in `sp_*[int_lat]` (`shape`). The
        // queue holds a line for the cycles its op spends before the merge.
        let lat = cfg.alu_latency();
        let int_lat = cfg.int_alu_latency();
        assert!(int_lat >= 1 && int_lat < lat, "SliceUnit: merge stages out of order");
        let sh = shape(cfg);
        assert!(sh.stages + sh.ram_latency <= 32 && sh.win_fp <= crate::ordering_queue::QUEUE_WAIT_MAX);
        assert!(mem_bytes > 0 && mem_bytes % 16 == 0, "memory size must be a positive multiple of 16");
        assert!(mem_bytes >= 32 && (mem_bytes as u64) < 1u64 << 32, "memory size must be in 32..2^32");
        // The written-line stages (`sw_*`) cover the RAM's read latency.
        let mem = LineMemory::with_output_register(mem_bytes / 16, true);
        assert_eq!(
            mem.read_latency(),
            sh.ram_latency,
            "SliceUnit: the RAM's read latency and the pipeline shape disagree"
        );
        Self::assemble(mem_bytes, cfg, &sh, mem)
    }

    /// The fields: the blocks, the constants (encodings, tables, the shape's windows and
    /// stage maps), every signal and register at its default.
    fn assemble(mem_bytes: usize, cfg: &Config, sh: &Shape, mem: LineMemory) -> Self {
        let fs_pre = forward_pre_sets(sh);
        let win_fp = sh.win_fp;
        slice_unit! {
            defaults: [
                clock, reset, req_valid, req_ready, req_op, req_addr, req_data, req_id, req_mask, rsp_valid,
                rsp_ready, rsp_id, rsp_data, rsp_status, cov, ox, sc_ww, si_ww, sr_ww, s1_ww, s1b_ww, w_ww,
                unused_decode, unused_alu, issue, rsp_fire, sc_valid, sc_ordered, sc_line, sc_cl, sc_vo,
                sc_ra, si_valid, si_ordered, si_line, si_ra, issue_ra, si_payload, sr_valid, sr_ordered,
                sr_line, sr_payload, fpre, fp_a, fp_b, fsel_r_sw, s1_fwd_x, s1_take, rfm, fsel_sw, ch_d,
                ch_nx, ch_rsp, l1_sr, l1_s1, l1_s1b, l1_rsp, l1_rsp2, ch_pre, ch_me, ch_p, sr_op, sr_kind, sr_fp, sr_plain, ch_val, ch_any, s1b_valid, s1b_ordered, s1b_line,
                s1b_payload, s1b_old, s1r_fp, s1_valid,
                s1_ordered, s1_line, s1_payload, s1_op, s1_form, s1_kind, s1_fp, s1_status, s1_id, s1_data,
                s1_old_line, s1_old_int, s1_old_mm, s1_old_wide, s1_old_rsp, s1_cas,
                s1_fwd_fp, unused_wm, st_nd, i_rep, i_base,
                i_sector, i_iwm, ra_nx, i_new, m_rep, m_data, m_fwm, m_new,
                w_valid, w_ordered, w_line, w_we, w_new, w_rsp, w_status, w_id, w_fp, unused_sw, merge,
                fch_pv, fch_pb,
            ],
            queue: OrderingQueue::with_registered_push(win_fp.max(1), true)
                .with_chain_wait(sh.win_chain.max(1))
                .with_long_chain_wait(sh.win_fp_chain.max(1)),
            fp_chain: FpChain::new(sh.fp_chain_map),
            fch_sh: k((32 - sh.stages) as u128),
            top31: k(31),
            mem: mem,
            int_alu: IntAlu::new(cfg),
            int_lane: std::array::from_fn(|_| IntAlu::new(cfg).with_carry_select()),
            alu: ReductionAlu::with_early_hold(cfg, true).with_old_replicas().fp_only(),
            rsp_fifo: ResponseFifo::new(sh.rsp_depth),
            accept: Accept::new(mem_bytes, sh),
            access: AccessDecode::new(),
            // (The queue shows an issue a cycle after its pick, so the count lags by up to one
            // issue: one place less keeps the FIFO from overflowing.)
            credit: Credits::new(sh.rsp_depth - 1),
            // (sc's op against sr, s1, s1b and every stage but the last.)
            fwd: ForwardCompare::new(
                sh.stages + 2,
                ((mem_bytes / 16).next_power_of_two() - 1) as u128,
                32 - sh.stages - sh.ram_latency,
            ),
            cas: CasCheck::new(),
            cov_bus: CoverageBus::new(),
            kind_lsb: k(KIND_LSB as u128),
            op_lsb: k(OP_LSB as u128),
            ty_lsb: k(TYPE_LSB as u128),
            kind_red: k(KIND_RED as u128),
            kind_atom: k(KIND_ATOM as u128),
            kind_ld: k(KIND_LD as u128),
            kind_st: k(KIND_ST as u128),
            status_mis: k(STATUS_MISALIGNED as u128),
            status_oor: k(STATUS_OUT_OF_RANGE as u128),
            zero128: k(0), zero64: k(0),
            ones4: k(15),
            p_fp: k(P_FP as u128),
            p_status: k(P_STATUS as u128),
            p_id: k(P_ID as u128),
            p_data: k(P_DATA as u128),
            p_mask: k(P_MASK as u128),
            elog3: k(3),
            r_data: k(R_DATA as u128),
            r_status: k(R_STATUS as u128),
            zero_line: k(0),
            sp_ww: regs(sh.stages),
            qmask: std::array::from_fn(|q| k((u32::MAX as u128) << (32 * q))),
            fs_pre_a: k(fs_pre.0),
            fs_pre_b: k(fs_pre.1),
            fs_now: k(fs_pre.2),
            zero32: k(0), take_top: k(8), zero4: k(0),
            fsw_sh: k(sh.stages as u128),
            y_r: Default::default(),
            y_rr: Default::default(),
            ch_m: std::array::from_fn(|d| k(sh.chain_map[d])),
            int_one: Constant::new(cfg.int_alu_latency() == 1),
            out_r: Default::default(),
            sp_valid: regs(sh.stages),
            sp_ordered: regs(sh.stages),
            sp_line: regs(sh.stages),
            sp_kind: regs(sh.stages),
            sp_fp: regs(sh.stages),
            sp_rep: regs(sh.stages),
            sp_data: regs(sh.stages),
            sp_rsp: regs(sh.stages),
            sp_status: regs(sh.stages),
            sp_id: regs(sh.stages),
            sp_sector: regs(sh.stages),
            sp_wmask: regs(sh.stages),
            int_at: k(1 << sh.int_at),
            fp_at: k(1 << sh.fp_at),
            wr_at: k(1 << sh.write_at),
            dly_int64: Delay::new(sh.int_at + 1),
            zero_kind: k(0),
            rep128: k(3), zero_status: k(0), zero_id: k(0),
            sw_valid: regs(sh.ram_latency),
            sw_line: regs(sh.ram_latency),
            sw_data: regs(sh.ram_latency),
            sw_fp: regs(sh.ram_latency),
        }
    }
}

/// The Verilog of the unit with `mem_bytes` of memory in its default configuration
/// ([`Config::unit_default`], the fastest clock), as a `top` module.
pub fn unit_verilog(mem_bytes: usize) -> String {
    unit_verilog_with(mem_bytes, &Config::unit_default())
}

/// The Verilog of the unit with `mem_bytes` of memory and the depths of `cfg`, as a `top` module.
pub fn unit_verilog_with(mem_bytes: usize, cfg: &Config) -> String {
    crate::verilog::verilog(&mut SliceUnit::with_config(mem_bytes, cfg))
}

/// The forwarding sources (bit j: `sp_*[j]`, bit stages + k:
/// `sw_*[k]`): those whose line in s1 is the line a register holds in sr (the stage
/// before it, with no merge between: every source but s2 and the stages right after the
/// integer and the FP merges) are selected a cycle early, split in two halves.
/// Returns the two early sets and the sources selected in s1 itself.
fn forward_pre_sets(sh: &Shape) -> (u128, u128, u128) {
    let n = sh.stages + sh.ram_latency;
    let now = |s: usize| s == 0 || s == sh.int_at + 1 || s == sh.fp_at + 1;
    let pre: Vec<usize> = (0..n).filter(|&s| !now(s)).collect();
    let (a, b) = pre.split_at(pre.len() / 2);
    let m = |v: &[usize]| v.iter().fold(0u128, |m, &s| m | 1 << s);
    (m(a), m(b), (0..n).filter(|&s| now(s)).fold(0u128, |m, s| m | 1 << s))
}

/// `n` registers (or signals) at their defaults: one per stage.
fn regs<T: Default>(n: usize) -> Vec<T> {
    (0..n).map(|_| T::default()).collect()
}
