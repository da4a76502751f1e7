// extern "C" shim around the *split* model of the reduction ALU (testbench/build_split.rs): the
// ALU's own logic as two Verilated models (the front: decode and operand distribution; the
// back: delay lines and result select) and one model per unit kind (int_alu, add16, ...),
// clocked only when an operation enters one of that kind's lanes.
//
// It implements alu_base.h's interface, so alu_shim.cpp's C functions (free, cycle, idle, run)
// serve it too: the same contract (one operation per cycle, results `latency` cycles later,
// the same drain), computed in chunks of cycles in three passes:
// 1. the front, cycle by cycle: its `u_holds` say which unit instances load an operation
//    this cycle (hold low); each such instance's inputs go to its kind's model, which is
//    clocked once (a unit is a pipeline whose input registers hold while `hold` is high, so
//    an operation's result depends only on the inputs it entered with). A result leaves the
//    kind's model `lane latency` loads later; at the end of the chunk the models are
//    clocked with `hold` high until every result is out.
// 2. the back, cycle by cycle: the result of the operation that entered instance u in
//    cycle c is driven on u's output port from cycle c + lane latency on, as the instance
//    itself would drive it, until u's next result replaces it; the back's outputs are the
//    ALU's.
// A unit instance that loads nothing keeps its last result on its port (the full model's
// idle lanes drift with their unheld stage registers instead): only values that the ALU's
// select must ignore can differ, which the equivalence test checks
// (testbench/tests/rtl_split.rs: out_valid, out_form and out_data of every valid cycle equal
// to the full model's). No tracing: a failing run re-runs its window in the traced full model.

#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "verilated.h"
#include "alu_base.h"
#include "split_lanes.h"

namespace {

// Verilator 5.006 names the previous value of the clock `__Vtrigrprev__TOP__clock`: setting
// it low before an eval with the clock high makes that eval a rising edge, one eval per
// clock instead of two. Other Verilator versions get the two evals.
template <class M, class = void> struct HasPrev : std::false_type {};
template <class M>
struct HasPrev<M, std::void_t<decltype(std::declval<M&>().rootp->__Vtrigrprev__TOP__clock)>> : std::true_type {};

template <class M> inline void tick(M& m) {
    if constexpr (HasPrev<M>::value) {
        m.rootp->__Vtrigrprev__TOP__clock = 0;
        m.clock = 1;
        m.eval();
    } else {
        m.clock = 0;
        m.eval();
        m.clock = 1;
        m.eval();
    }
}

struct Res {
    uint64_t cycle;  // the cycle from which the back sees it
    int unit;
    uint64_t v;
};

// One unit kind: its model, the loads still in its pipeline, and its results in order.
template <class M, int L> struct Kind {
    std::unique_ptr<M> m;
    uint64_t fc[L];
    int fu[L];
    unsigned head = 0, cnt = 0;
    std::vector<Res> res;
    size_t cur = 0;

    void init(VerilatedContext* ctx) {
        m.reset(new M(ctx));
        m->clock = 0;
        m->hold = 1;
        m->eval();
        res.reserve(4096);
    }
    inline void emit() {
        res.push_back({fc[head] + L, fu[head], split_out(*m)});
        head = (head + 1) % L;
        cnt--;
    }
    inline void load(uint64_t cycle, int unit) {
        m->hold = 0;
        tick(*m);
        unsigned t = (head + cnt) % L;
        fc[t] = cycle;
        fu[t] = unit;
        cnt++;
        if (cnt == (unsigned)L) emit();
    }
    void flush() {
        m->hold = 1;
        while (cnt) {
            tick(*m);
            emit();
        }
    }
    inline void drive(Vsplit_back& b, uint64_t cycle) {
        while (cur < res.size() && res[cur].cycle <= cycle) {
            split_back_set(b, res[cur].unit, res[cur].v);
            cur++;
        }
    }
    void compact() {
        res.erase(res.begin(), res.begin() + cur);
        cur = 0;
    }
    void final() { m->final(); }
};

constexpr size_t CHUNK = 1024;
static_assert(SPLIT_N_UNITS <= 64, "u_holds is read as 64 bits at most");

struct Split final : RedunitAluBase {
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<Vsplit_front> f;
    std::unique_ptr<Vsplit_back> b;
#define SPLIT_DECL(i, M, L) Kind<M, L> k##i;
    SPLIT_KINDS(SPLIT_DECL)
#undef SPLIT_DECL
    Split(uint32_t lat, uint64_t first_cycle) {
        latency = lat;
        cycle = first_cycle;
        ctx.reset(new VerilatedContext);
        f.reset(new Vsplit_front(ctx.get(), "top"));
        b.reset(new Vsplit_back(ctx.get(), "top"));
#define SPLIT_INIT(i, M, L) k##i.init(ctx.get());
        SPLIT_KINDS(SPLIT_INIT)
#undef SPLIT_INIT
        f->clock = 0;
        b->clock = 0;
        f->eval();
        b->eval();
    }
    ~Split() override {
        f->final();
        b->final();
#define SPLIT_FINAL(i, M, L) k##i.final();
        SPLIT_KINDS(SPLIT_FINAL)
#undef SPLIT_FINAL
    }

    template <class T> static inline void inputs(T& m, bool idle, size_t i, const uint16_t* forms, const uint32_t* old,
                                                 const uint32_t* bv) {
        if (idle) {
            m.in_valid = 0;
            m.in_form = 0;
            for (int w = 0; w < 4; w++) m.in_old[w] = m.in_b[w] = 0;
        } else {
            m.in_valid = 1;
            m.in_form = forms[i];
            for (int w = 0; w < 4; w++) {
                m.in_old[w] = old[4 * i + w];
                m.in_b[w] = bv[4 * i + w];
            }
        }
    }

    // k <= CHUNK cycles: operations from the arrays, or idle cycles when `forms` is null;
    // `see(cycle)` is called in each cycle with the back's outputs settled.
    template <class See>
    void chunk(size_t k, const uint16_t* forms, const uint32_t* old, const uint32_t* bv, See see) {
        const bool idle = forms == nullptr;
        const uint64_t c0 = cycle;
        const uint64_t mask = SPLIT_N_UNITS == 64 ? ~0ull : ((1ull << SPLIT_N_UNITS) - 1);
        for (size_t i = 0; i < k; i++) {
            inputs(*f, idle, i, forms, old, bv);
            if constexpr (HasPrev<Vsplit_front>::value) f->clock = 0;
            f->eval();
            uint64_t use = ~(uint64_t)f->u_holds & mask;
            while (use) {
                int u = __builtin_ctzll(use);
                use &= use - 1;
                split_load(*this, *f, u, c0 + i);
            }
            // (A front with registers of its own is clocked; Verilator usually leaves none.)
            if constexpr (HasPrev<Vsplit_front>::value) {
                f->clock = 1;
                f->eval();
            }
        }
#define SPLIT_FLUSH(i, M, L) k##i.flush();
        SPLIT_KINDS(SPLIT_FLUSH)
#undef SPLIT_FLUSH
        for (size_t i = 0; i < k; i++) {
            const uint64_t c = c0 + i;
            inputs(*b, idle, i, forms, old, bv);
#define SPLIT_DRIVE(j, M, L) k##j.drive(*b, c);
            SPLIT_KINDS(SPLIT_DRIVE)
#undef SPLIT_DRIVE
            b->clock = 0;
            b->eval();
            cycle = c;
            see(c);
            b->clock = 1;
            b->eval();
        }
#define SPLIT_COMPACT(i, M, L) k##i.compact();
        SPLIT_KINDS(SPLIT_COMPACT)
#undef SPLIT_COMPACT
        cycle = c0 + k;
    }

    void idle(uint64_t cycles) override {
        while (cycles) {
            size_t k = cycles < CHUNK ? (size_t)cycles : CHUNK;
            chunk(k, nullptr, nullptr, nullptr, [](uint64_t) {});
            cycles -= k;
        }
    }

    int64_t run(uint64_t n, const uint16_t* forms, const uint32_t* old, const uint32_t* bv, uint32_t* out,
                uint16_t* out_forms, int64_t* bad_index, int64_t* bad_latency) override {
        const uint64_t start = cycle;
        uint64_t got = 0;
        *bad_index = -1;
        *bad_latency = 0;
        auto see = [&](uint64_t c) {
            if (!b->out_valid) return;
            if (got < n) {
                for (int w = 0; w < 4; w++) out[4 * got + w] = b->out_data[w];
                out_forms[got] = b->out_form;
                int64_t lat = (int64_t)(c - (start + got));
                if (lat != (int64_t)latency && *bad_index < 0) {
                    *bad_index = (int64_t)got;
                    *bad_latency = lat;
                }
            }
            got++;
        };
        for (uint64_t i = 0; i < n; i += CHUNK) {
            size_t k = n - i < CHUNK ? (size_t)(n - i) : CHUNK;
            chunk(k, forms + i, old + 4 * i, bv + 4 * i, see);
        }
        // Drain as alu_shim.cpp does: `latency` idle cycles bring the last result, one more
        // shows a spurious trailing out_valid; a late pipeline gets up to 64 cycles more.
        chunk(latency + 1, nullptr, nullptr, nullptr, see);
        for (uint64_t extra = latency + 1; got < n && extra < (uint64_t)latency + 64; extra++) {
            chunk(1, nullptr, nullptr, nullptr, see);
        }
        return (int64_t)got;
    }
};

}  // namespace

// The split model behind alu_shim.cpp's C functions (free, cycle, idle, run): only its
// constructor is its own.
extern "C" void* redunit_alu_split_new(uint32_t latency, uint64_t first_cycle) {
    return static_cast<RedunitAluBase*>(new Split(latency, first_cycle));
}
