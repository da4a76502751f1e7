// extern "C" shim around the *split* model of the reduction ALU (testbench/build_split.rs): the
// ALU's own logic as two Verilated models (the front: decode and operand distribution; the
// back: delay lines and result select) and, per unit kind (int_alu, add16, ...), models of
// its lanes 0..N-1 side by side for N = 1, 2, 4, ... up to all of them. A kind's narrowest
// model that holds the lanes the operation's form uses (hw::alu::unit_lanes) is clocked once
// when an operation enters the kind; the others are not clocked at all.
//
// It implements alu_base.h's interface, so alu_shim.cpp's C functions (free, cycle, idle, run)
// serve it too: the same contract (one operation per cycle, results `latency` cycles later,
// the same drain), computed in chunks of cycles in three passes:
// 1. the front, cycle by cycle: its `u_holds` say which unit kinds load an operation this
//    cycle (hold low); the inputs of the chosen model's lanes are copied from the front into
//    the model's list of loads.
// 2. the unit models, one at a time: each load puts its inputs on the model's ports and
//    clocks it once (a unit is a pipeline whose input registers hold while `hold` is high,
//    so an operation's result depends only on the inputs it entered with, not on when it
//    is clocked). A result leaves the model `lane latency` clocks later; at the end of the
//    chunk the models are clocked with `hold` high until every result is out.
// 3. the back, cycle by cycle: the result of the operation that entered lane u in cycle c is
//    driven on u's output port from cycle c + lane latency on, as the instance itself would
//    drive it, until u's next result replaces it. The back is combinational: the build cut
//    its registers out (build_split.rs, cut_registers), and split_back_clock copies each
//    one's `d` into its `q` after the cycle's outputs are read. The back's outputs are the
//    ALU's.
// A lane that loads nothing keeps its last result on its port (the full model's idle lanes
// drift with their unheld stage registers instead, and compute the lanes a form does not
// use): only values that the ALU's select must ignore can differ, which the equivalence tests
// check (testbench/tests/rtl_split.rs: out_valid, out_form and all 128 bits of out_data of
// every valid cycle equal to the full model's). No tracing: a failing run re-runs its window
// in the traced full model.

#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <utility>

#include "alu_base.h"
#include "harness.h"
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
        m.rootp->clock = 1;
        split_eval(m);
    } else {
        m.clock = 0;
        split_eval(m);
        m.clock = 1;
        split_eval(m);
    }
}

constexpr size_t CHUNK = 1024;

// A model of lanes 0..N-1 of a unit kind, the loads still in its pipeline, and its results in
// order.
template <class M, int L, int N> struct Lanes {
    struct Out {
        uint64_t cycle;  // the cycle from which the back sees it
        uint64_t mask;   // the lanes (bits of u_holds) that loaded
        uint64_t v[N];   // each lane's result
    };
    std::unique_ptr<M> m;
    uint64_t fc[L], fm[L];
    unsigned head = 0, cnt = 0;
    // A chunk's results (at most one per cycle) and those of the last chunk still due.
    std::unique_ptr<Out[]> res{new Out[CHUNK + L]};
    size_t n = 0, cur = 0;

    void init(VerilatedContext* ctx) {
        m.reset(new M(ctx));
        m->clock = 0;
        m->hold = 1;
        m->eval();
    }
    inline void emit() {
        Out& o = res[n++];
        o.cycle = fc[head] + L;
        o.mask = fm[head];
        split_out(*m, o.v);
        head = (head + 1) % L;
        cnt--;
    }
    // The loads of a chunk, staged in the front's pass (each lane's input ports as 64-bit
    // words) and run after it, model by model: a model's loads in a row keep its code and
    // the branch predictor's history warm (running them as the front makes them, between the
    // other models' loads, was 11% slower).
    static constexpr int W = split_words((const M*)nullptr);
    std::unique_ptr<uint64_t[]> st{new uint64_t[CHUNK * W]};
    uint64_t sc[CHUNK], sm[CHUNK];
    size_t ns = 0;
    inline void stage(const Vsplit_front& f, uint64_t cycle, uint64_t mask) {
        split_stage((const M*)nullptr, &st[ns * W], f);
        sc[ns] = cycle;
        sm[ns] = mask;
        ns++;
    }
    // Every lane loads what the front gave it (those outside `mask` too, so that all lanes
    // advance together); the results of the lanes in `mask` are kept.
    void load_staged() {
        for (size_t i = 0; i < ns; i++) {
            split_unstage(*m, &st[i * W]);
            m->rootp->hold = 0;
            tick(*m);
            unsigned t = (head + cnt) % L;
            fc[t] = sc[i];
            fm[t] = sm[i];
            cnt++;
            if (cnt == (unsigned)L) emit();
        }
        ns = 0;
    }
    // With hold high: the oldest of the cnt loads in flight has had cnt clocks (one per load
    // since it entered) and needs L; every later one leaves one clock after the one before.
    void flush() {
        if (!cnt) return;
        m->rootp->hold = 1;
        for (unsigned c = cnt; c + 1 < (unsigned)L; c++) tick(*m);
        while (cnt) {
            tick(*m);
            emit();
        }
    }
    // Marks `bit` in due[c - c0] for each result not yet driven that is due in c0..c0+k-1.
    inline void mark(uint32_t* due, uint32_t bit, uint64_t c0, size_t k) const {
        for (size_t e = cur; e < n && res[e].cycle < c0 + k; e++) due[res[e].cycle - c0] |= bit;
    }
    // The next result, in the cycle it is due.
    inline void drive(Vsplit_back& b) {
        split_drive(b, (const M*)nullptr, res[cur].mask, res[cur].v);
        cur++;
    }
    void compact() {
        std::memmove(&res[0], &res[cur], (n - cur) * sizeof(Out));
        n -= cur;
        cur = 0;
    }
    void final() { m->final(); }
};

static_assert(SPLIT_N_UNITS <= 64, "u_holds is read as 64 bits at most");
#define SPLIT_COUNT(i, M, L, N) +1
static_assert(0 SPLIT_MODELS(SPLIT_COUNT) <= 32, "the due bits of a cycle are 32 bits");
#undef SPLIT_COUNT

// The front in a harness of its own (its context, its clock, the cycle count); the back and
// the lane models live in the same context and are evaluated by the passes above.
struct Split final : RedunitAluBase {
    Harness<Vsplit_front> h;
    Vsplit_front* f = h.top.get();
    std::unique_ptr<Vsplit_back> b;
    uint32_t due[CHUNK];
#define SPLIT_DECL(i, M, L, N) Lanes<M, L, N> k##i;
    SPLIT_MODELS(SPLIT_DECL)
#undef SPLIT_DECL
    Split(uint32_t lat, uint64_t first_cycle) : h(first_cycle) {
        latency = lat;
        b.reset(new Vsplit_back(h.ctx.get(), "top"));
#define SPLIT_INIT(i, M, L, N) k##i.init(h.ctx.get());
        SPLIT_MODELS(SPLIT_INIT)
#undef SPLIT_INIT
        b->clock = 0;
        split_back_init(*b);
        h.settle();
        b->eval();
    }
    ~Split() override {
        h.close();
        b->final();
#define SPLIT_FINAL(i, M, L, N) k##i.final();
        SPLIT_MODELS(SPLIT_FINAL)
#undef SPLIT_FINAL
    }

    uint64_t cycle() const override { return h.cycle; }

    // k <= CHUNK cycles: operations from the arrays, or idle cycles when `forms` is null;
    // `see(cycle)` is called in each cycle with the back's outputs settled.
    template <class See>
    void chunk(size_t k, const uint16_t* forms, const uint32_t* old, const uint32_t* bv, See see) {
        const bool idle = forms == nullptr;
        const uint64_t c0 = h.cycle;
        const uint64_t mask = SPLIT_N_UNITS == 64 ? ~0ull : ((1ull << SPLIT_N_UNITS) - 1);
        for (size_t i = 0; i < k; i++) {
            redunit_alu_inputs(*f->rootp, forms, old, bv, i);
            if constexpr (HasPrev<Vsplit_front>::value) f->clock = 0;
            split_eval(*f);
            const uint64_t use = ~(uint64_t)f->rootp->u_holds & mask;
            if (use) split_load(*this, *f, use, idle ? ~0u : forms[i], c0 + i);
            // (A front with registers of its own is clocked; Verilator usually leaves none.)
            if constexpr (HasPrev<Vsplit_front>::value) {
                f->clock = 1;
                split_eval(*f);
            }
        }
        // Which models have a result due in each cycle (at most one each).
        std::memset(due, 0, k * sizeof(due[0]));
#define SPLIT_FLUSH(i, M, L, N) \
    k##i.load_staged();         \
    k##i.flush();               \
    k##i.mark(due, 1u << i, c0, k);
        SPLIT_MODELS(SPLIT_FLUSH)
#undef SPLIT_FLUSH
        for (size_t i = 0; i < k; i++) {
            const uint64_t c = c0 + i;
            redunit_alu_inputs(*b->rootp, forms, old, bv, i);
            for (uint32_t d = due[i]; d; d &= d - 1) {
                switch (__builtin_ctz(d)) {
#define SPLIT_DRIVE(j, M, L, N) \
    case j: k##j.drive(*b); break;
                    SPLIT_MODELS(SPLIT_DRIVE)
#undef SPLIT_DRIVE
                }
            }
            split_eval(*b);
            h.cycle = c;
            see(c);
            split_back_clock(*b);
        }
#define SPLIT_COMPACT(i, M, L, N) k##i.compact();
        SPLIT_MODELS(SPLIT_COMPACT)
#undef SPLIT_COMPACT
        h.cycle = c0 + k;
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
        RedunitAluResults r(n, h.cycle, latency, out, out_forms, bad_index, bad_latency);
        auto see = [&](uint64_t c) { r.see(*b->rootp, c); };
        for (uint64_t i = 0; i < n; i += CHUNK) {
            size_t k = n - i < CHUNK ? (size_t)(n - i) : CHUNK;
            chunk(k, forms + i, old + 4 * i, bv + 4 * i, see);
        }
        // Drain as alu_shim.cpp does: `latency` idle cycles bring the last result, one more
        // shows a spurious trailing out_valid; a late pipeline gets up to 64 cycles more.
        chunk(latency + 1, nullptr, nullptr, nullptr, see);
        for (uint64_t extra = latency + 1; r.got < n && extra < (uint64_t)latency + 64; extra++) {
            chunk(1, nullptr, nullptr, nullptr, see);
        }
        return (int64_t)r.got;
    }
};

}  // namespace

// The split model behind alu_shim.cpp's C functions (free, cycle, idle, run): only its
// constructor is its own.
extern "C" void* redunit_alu_split_new(uint32_t latency, uint64_t first_cycle) {
    return static_cast<RedunitAluBase*>(new Split(latency, first_cycle));
}
