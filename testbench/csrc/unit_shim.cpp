// extern "C" shim around the Verilated L2-slice unit (module `top` of hw::unit_verilog()).
//
// Two models: Vunit (no tracing) and Vunitt (--trace). A handle owns one model and its own
// VerilatedContext. The same source is compiled by build.rs (64 KiB unit, linked statically)
// and by `testbench/src/unit.rs` at run time into a shared library for other memory sizes
// (only the functions marked API are exported from there).
//
// Clocking and VCD timestamps as in harness.h: a request is accepted in cycle c when req_valid
// and req_ready are both high in its low half; a response is taken in cycle c when rsp_valid
// and rsp_ready are. Only the cycles inside the dump window go into the VCD.
//
// redunit_unit_run drives a batch of requests in order, one per cycle while req_ready is high,
// with id = (id_base + index) mod 2^16; a request waits while its id is still in flight (so at
// most 2^16 are). rsp_ready and req_valid follow a seeded random policy (100% = always).
// Responses are matched to requests by id.
//
// redunit_unit_run_faults is the same run with faults (UnitFaults, mirrored in soak.rs):
// rsp_ready droughts that start when a given request index is reached, and one reset that
// ends the batch: at a request index plus a delay, or once the ordering queue is full
// (req_ready low), or once the response FIFO is full (every response credit in use for
// `settle` cycles with rsp_ready low), rsp_ready held low until then. The requests in flight
// at the reset are marked DROPPED in rsp_cycle; a later response with their id is an error
// (err_code 2), like any response whose id is not in flight.

#include <algorithm>
#include <cstdlib>
#include <cstdint>
#include <vector>

#include "Vunit.h"
#include "Vunit___024root.h"
#include "Vunitt.h"
#include "harness.h"

#define API extern "C" __attribute__((visibility("default")))

// Everything about one batch, shared with Rust (`UnitRun` in unit.rs): only 64-bit fields.
struct UnitRun {
    uint64_t n;
    const uint16_t* ops;
    const uint32_t* addrs;
    const uint32_t* data;  // 4 words per request, least significant first
    const uint16_t* ids;  // the id of each request; null: (id_base + index) mod 2^16
    uint64_t id_base;
    uint64_t drain;  // 1: clock until every response is in; 0: return once all are issued
    uint64_t timeout;  // cycles without any handshake while requests are outstanding
    // Outputs, n entries each (rsp_data: 4n words). rsp_cycle is UINT64_MAX where no
    // response came.
    uint32_t* rsp_data;
    uint8_t* rsp_status;
    uint64_t* accept_cycle;
    uint64_t* rsp_cycle;
    // Results.
    uint64_t issued;
    uint64_t responses;
    uint64_t err_code;  // 0 none, 1 timeout, 2 response with an id not in flight
    uint64_t err_cycle;
    uint64_t err_id;
};

// The faults of one batch (only 64-bit fields).
struct UnitFaults {
    // Droughts: when request index drought_at[k] is reached (all before it issued), rsp_ready
    // is low for drought_len[k] cycles. Sorted by index.
    uint64_t n_droughts;
    const uint64_t* drought_at;
    const uint64_t* drought_len;
    // 0 no reset (the batch ends as in redunit_unit_run), 1 at reset_at + reset_delay cycles,
    // 2 once the queue is full, 3 once the FIFO is full; modes 2 and 3 start at reset_at
    // (rsp_ready low from then) and reset anyway after reset_delay cycles.
    uint64_t reset_mode;
    uint64_t reset_at;
    uint64_t reset_delay;
    uint64_t reset_len;
    uint64_t settle;  // cycles of credit stall with rsp_ready low that make the FIFO full
    uint64_t credit_stall_bit;  // the cov bit of "every response credit in use"
    // Results.
    uint64_t reset_cycle;  // the first reset cycle (UINT64_MAX: none)
    uint64_t reset_flags;  // bit 0: queue full (req_ready low) at the reset, bit 1: FIFO full
    uint64_t dropped;
    uint64_t droughts;  // droughts started
    uint64_t drought_cycles;  // cycles rsp_ready was held low by droughts
};

namespace {

constexpr int COV_BITS = 32;  // every bit the cov port can have (hw::slice_unit::COV_WIDTH <= 32)
constexpr uint64_t NONE = UINT64_MAX;
constexpr uint64_t DROPPED = UINT64_MAX - 1;

// One batch in progress: where it stands in the requests and in its faults.
struct Batch {
    UnitRun* r;
    UnitFaults* f;  // null: no faults
    uint64_t mode;  // f->reset_mode, 0 without faults
    uint64_t i = 0;  // the next request
    uint64_t idle_cycles = 0;  // cycles since the last handshake
    uint64_t next_drought = 0, drought_left = 0;
    uint64_t armed_cycles = 0;  // cycles since the reset was armed
    uint64_t low_run = 0, stall_run = 0;  // cycles of rsp_ready low / of credit stall in a row
    bool armed = false, queue_full = false;
};

// A handle whichever its model: the request/response policy, the coverage counts, the ids in
// flight (slot: id -> request index, -1 if free) and the faults of a batch.
struct Base {
    virtual ~Base() = default;
    virtual void run(UnitRun* r, UnitFaults* f) = 0;
    virtual uint64_t reset(uint64_t cycles) = 0;
    virtual void idle(uint64_t cycles) = 0;
    virtual uint64_t cycle() const = 0;
    virtual uint64_t evals() const = 0;
    virtual void window(uint64_t from, uint64_t to) = 0;
    uint64_t rng = 1;
    uint32_t rsp_ready_pct = 100, req_valid_pct = 100;
    uint64_t cov[COV_BITS] = {};
    std::vector<int64_t> slot = std::vector<int64_t>(1 << 16, -1);
    uint64_t inflight = 0;

    inline bool coin(uint32_t pct) {
        if (pct >= 100) return true;
        // splitmix64
        uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        z ^= z >> 31;
        return (z % 100) < pct;
    }

    // Holds reset after a faulted batch: marks the requests in flight DROPPED.
    void fault_reset(UnitRun* r, UnitFaults* f) {
        for (uint32_t id = 0; id < slot.size(); id++) {
            if (slot[id] >= 0) r->rsp_cycle[slot[id]] = DROPPED;
        }
        f->reset_cycle = cycle();
        f->dropped = reset(f->reset_len);
    }

    // Before a cycle of a faulted batch: starts the droughts due at this request index and
    // arms the reset; true once the armed reset has happened, which ends the batch.
    bool faults(Batch& s) {
        UnitFaults* f = s.f;
        while (s.next_drought < f->n_droughts && s.i >= f->drought_at[s.next_drought]) {
            s.drought_left += f->drought_len[s.next_drought++];
            f->droughts++;
        }
        if (s.mode && !s.armed && (s.i >= f->reset_at || s.i >= s.r->n)) s.armed = true;
        if (!s.armed) return false;
        const bool fifo_full = s.stall_run >= f->settle && s.low_run >= f->settle;
        const bool go =
            s.armed_cycles >= f->reset_delay || (s.mode == 2 && s.queue_full) || (s.mode == 3 && fifo_full);
        if (go) {
            f->reset_flags = (s.queue_full ? 1 : 0) | (fifo_full ? 2 : 0);
            fault_reset(s.r, f);
            return true;
        }
        s.armed_cycles++;
        return false;
    }

    // rsp_ready of a cycle: held low by a drought or by an armed reset of mode 2 or 3, else
    // drawn from the policy.
    bool rsp_ready(Batch& s) {
        if (s.drought_left > 0) {
            s.drought_left--;
            s.f->drought_cycles++;
            return false;
        }
        if (s.armed && s.mode >= 2) return false;
        return coin(rsp_ready_pct);
    }
};

// M: Vunit, or Vunitt with a VCD.
template <class M>
struct Unit final : Base {
    Harness<M> h;
    M* m = h.top.get();
    // One evaluation per cycle in run() (Harness::rise_only) while `reset` is as last
    // evaluated: built with REDUNIT_UNIT_REGISTERED_OUTPUTS (the registered pipeline, whose
    // outputs are registers or depend combinationally on `reset` alone), unless
    // REDUNIT_UNIT_TWO_EVALS is set in the environment.
    bool rise_only = false;
    uint8_t eval_reset = 0;  // `reset` at the last evaluation

    Unit(const char* vcd, uint64_t first_cycle, bool* ok) : h(first_cycle) {
        *ok = true;
        if constexpr (Harness<M>::TRACE) *ok = h.open_vcd(vcd);
#ifdef REDUNIT_UNIT_REGISTERED_OUTPUTS
        rise_only = Harness<M>::RISE_ONLY && !std::getenv("REDUNIT_UNIT_TWO_EVALS");
#endif
        m->reset = 0;
        harness_unit_port_idle(m);
        m->req_id = 0;
        h.settle();
    }

    uint64_t cycle() const override { return h.cycle; }
    uint64_t evals() const override { return h.evals; }
    void window(uint64_t from, uint64_t to) override { h.window(from, to); }

    inline void count_cov() {
        uint32_t c = (uint32_t)m->cov;
        while (c) {
            int b = __builtin_ctz(c);
            if (b < COV_BITS) cov[b]++;
            c &= c - 1;
        }
    }

    void idle(uint64_t cycles) override {
        m->req_valid = 0;
        m->rsp_ready = 0;
        for (uint64_t i = 0; i < cycles; i++) h.tick([&]() { count_cov(); });
        eval_reset = m->reset;
    }

    uint64_t reset(uint64_t cycles) override {
        m->req_valid = 0;
        m->rsp_ready = 0;
        m->reset = 1;
        // The unit reports reset_in_flight in cov while reset is high.
        for (uint64_t i = 0; i < cycles; i++) h.tick([&]() { count_cov(); });
        eval_reset = 1;
        m->reset = 0;
        uint64_t dropped = inflight;
        std::fill(slot.begin(), slot.end(), -1);
        inflight = 0;
        return dropped;
    }

    // The inputs of a cycle: request s.i with `id` when its id is free and the policy offers
    // it (returns whether it is offered), and rsp_ready.
    bool drive(Batch& s, uint32_t id) {
        const UnitRun* r = s.r;
        const bool want = s.i < r->n && slot[id] < 0 && coin(req_valid_pct);
        if (want) {
            m->req_valid = 1;
            m->req_op = r->ops[s.i];
            m->req_addr = r->addrs[s.i];
            const uint32_t* d = r->data + 4 * s.i;
            m->req_data[0] = d[0]; m->req_data[1] = d[1]; m->req_data[2] = d[2]; m->req_data[3] = d[3];
            m->req_id = id;
        } else {
            m->req_valid = 0;
        }
        m->rsp_ready = rsp_ready(s) ? 1 : 0;
        return want;
    }

    // With the low half settled: the handshakes of the cycle (the request accepted, the
    // response stored by its id) and the fault trackers. Returns whether a handshake
    // happened; a response whose id is not in flight sets err_code 2 and *bad.
    bool take(Batch& s, bool want, uint32_t id, bool* bad) {
        UnitRun* r = s.r;
        s.queue_full = !m->req_ready;
        s.low_run = m->rsp_ready ? 0 : s.low_run + 1;
        if (s.f) s.stall_run = ((uint32_t)m->cov >> s.f->credit_stall_bit) & 1 ? s.stall_run + 1 : 0;
        bool progress = false;
        if (want && m->req_ready) {
            slot[id] = (int64_t)s.i;
            r->accept_cycle[s.i] = h.cycle;
            inflight++;
            s.i++;
            progress = true;
        }
        if (m->rsp_valid && m->rsp_ready) {
            const uint32_t rid = (uint32_t)m->rsp_id & 0xffff;
            const int64_t k = slot[rid];
            if (k < 0) {
                r->err_code = 2;
                r->err_cycle = h.cycle;
                r->err_id = rid;
                *bad = true;
                return progress;
            }
            for (int w = 0; w < 4; w++) r->rsp_data[4 * k + w] = m->rsp_data[w];
            r->rsp_status[k] = (uint8_t)m->rsp_status;
            r->rsp_cycle[k] = h.cycle;
            slot[rid] = -1;
            inflight--;
            r->responses++;
            progress = true;
        }
        return progress;
    }

    void run(UnitRun* r, UnitFaults* f) override {
        const uint64_t n = r->n;
        Batch s{r, f, f ? f->reset_mode : 0};
        r->issued = r->responses = r->err_code = r->err_cycle = r->err_id = 0;
        for (uint64_t k = 0; k < n; k++) r->rsp_cycle[k] = NONE;
        if (f) f->reset_cycle = NONE, f->reset_flags = f->dropped = f->droughts = f->drought_cycles = 0;
        for (;;) {
            if (f && faults(s)) break;
            if (!s.mode && s.i >= n && (inflight == 0 || !r->drain)) break;
            const uint32_t id = r->ids ? (s.i < n ? r->ids[s.i] : 0) : (uint32_t)((r->id_base + s.i) & 0xffff);
            const bool want = drive(s, id);
            // Without the low half's evaluation the outputs are the last evaluation's, the
            // same while `reset` has not changed since (see `rise_only`).
            const bool one_eval = rise_only && m->reset == eval_reset;
            if (!one_eval) h.low();
            bool bad = false;
            const bool progress = take(s, want, id, &bad);
            if (!bad) count_cov();
            if (one_eval) {
                h.rise_only();
            } else {
                h.rise();
            }
            eval_reset = m->reset;
            if (bad) break;
            if (progress) {
                s.idle_cycles = 0;
            } else if (++s.idle_cycles > r->timeout) {
                r->err_code = 1;
                r->err_cycle = h.cycle;
                break;
            }
        }
        m->req_valid = 0;
        r->issued = s.i;
    }
};

}  // namespace

API void* redunit_unit_new(const char* vcd_path, uint64_t first_cycle) {
    bool ok = true;
    Base* p;
    if (vcd_path) {
        p = new Unit<Vunitt>(vcd_path, first_cycle, &ok);
    } else {
        p = new Unit<Vunit>(nullptr, first_cycle, &ok);
    }
    if (!ok) {
        delete p;
        return nullptr;
    }
    return p;
}

API void redunit_unit_free(void* h) { delete static_cast<Base*>(h); }

API uint64_t redunit_unit_cycle(void* h) { return static_cast<Base*>(h)->cycle(); }

API uint64_t redunit_unit_evals(void* h) { return static_cast<Base*>(h)->evals(); }

API void redunit_unit_idle(void* h, uint64_t cycles) { static_cast<Base*>(h)->idle(cycles); }

API uint64_t redunit_unit_reset(void* h, uint64_t cycles) { return static_cast<Base*>(h)->reset(cycles); }

API void redunit_unit_set_policy(void* h, uint64_t seed, uint32_t rsp_ready_pct, uint32_t req_valid_pct) {
    Base* b = static_cast<Base*>(h);
    b->rng = seed;
    b->rsp_ready_pct = rsp_ready_pct;
    b->req_valid_pct = req_valid_pct;
}

API void redunit_unit_set_dump_window(void* h, uint64_t from, uint64_t to) {
    static_cast<Base*>(h)->window(from, to);
}

API void redunit_unit_cov(void* h, uint64_t* out32) {
    Base* b = static_cast<Base*>(h);
    for (int i = 0; i < COV_BITS; i++) out32[i] = b->cov[i];
}

API void redunit_unit_run(void* h, UnitRun* r) { static_cast<Base*>(h)->run(r, nullptr); }

API void redunit_unit_run_faults(void* h, UnitRun* r, UnitFaults* f) { static_cast<Base*>(h)->run(r, f); }
