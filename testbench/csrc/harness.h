// What every shim does with its Verilated model: the model in a VerilatedContext of its own
// (so that handles can live on different threads), the two-phase clock, the VCD and the drain.
//
// Clocking, one cycle per low()/rise() pair: in the low half of cycle c the caller has set the
// inputs and low() lets the model settle; the outputs read then are what the rising edge of
// cycle c samples; rise() is that edge and ends cycle c. With a VCD open, the low half is
// dumped at 10c ns and the high half at 10c+5 ns (a 10 ns clock), for the cycles c of the dump
// window.
//
// rise_only() is a cycle's rising edge alone, for a caller whose outputs do not depend on the
// inputs it changed since the last evaluation (the unit's shim, `unit_eval` tests it).
//
// Models without a `clock` port, or clocked in another order (the split ALU's), use only
// context() and the model's own eval().
#pragma once

#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>

#include "verilated.h"
#include "verilated_vcd_c.h"

// Whether V was verilated with --trace (only then does it have trace()).
template <class V, class = void> struct HarnessCanTrace : std::false_type {};
template <class V>
struct HarnessCanTrace<V, std::void_t<decltype(std::declval<V&>().trace((VerilatedVcdC*)nullptr, 0))>>
    : std::true_type {};

// Whether V's root (its header included by the shim) records the clock's last evaluated
// value as Verilator 5.006 does (`__Vtrigrprev__TOP__clock`): only then can rise_only() arm
// a rising edge without evaluating the low half.
template <class V, class = void> struct HarnessCanRiseOnly : std::false_type {};
template <class V>
struct HarnessCanRiseOnly<V, std::void_t<decltype(std::declval<V&>().rootp->__Vtrigrprev__TOP__clock)>>
    : std::true_type {};

// A fresh context; the models that get a VCD need tracing on before they are built.
inline std::unique_ptr<VerilatedContext> harness_context(bool trace) {
    std::unique_ptr<VerilatedContext> ctx(new VerilatedContext);
    if (trace) ctx->traceEverOn(true);
    return ctx;
}

template <class V> struct Harness {
    static constexpr bool TRACE = HarnessCanTrace<V>::value;
    static constexpr uint64_t NEVER = UINT64_MAX;

    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<V> top;
    std::unique_ptr<VerilatedVcdC> tfp;  // null unless open_vcd() was called
    uint64_t cycle = 0;
    uint64_t evals = 0;  // the model's evaluations (eval() calls) so far
    uint64_t dump_from = 0, dump_to = NEVER;
    bool closed = false;

    // The model, named `top`, with its clock low; the caller sets the other inputs and calls
    // settle() (after open_vcd(), if any).
    explicit Harness(uint64_t first_cycle = 0) : ctx(harness_context(TRACE)), cycle(first_cycle) {
        top.reset(new V(ctx.get(), "top"));
        top->clock = 0;
    }
    ~Harness() { close(); }
    Harness(const Harness&) = delete;
    Harness& operator=(const Harness&) = delete;

    // Starts the VCD (every signal); false if the file cannot be written.
    bool open_vcd(const char* path, uint64_t from = 0, uint64_t to = NEVER) {
        static_assert(TRACE, "a VCD needs a model verilated with --trace");
        tfp.reset(new VerilatedVcdC);
        top->trace(tfp.get(), 99);
        tfp->open(path);
        window(from, to);
        return tfp->isOpen();
    }
    // The cycles (both ends included) whose halves go into the VCD.
    void window(uint64_t from, uint64_t to) {
        dump_from = from;
        dump_to = to;
    }
    // Runs the model's final blocks, then ends the VCD; once.
    void close() {
        if (closed) return;
        closed = true;
        top->final();
        if (tfp) tfp->close();
    }

    inline void settle() {
        top->eval();
        evals++;
    }
    inline void low() {
        top->clock = 0;
        top->eval();
        evals++;
        dump(cycle * 10);
    }
    inline void rise() {
        top->clock = 1;
        top->eval();
        evals++;
        dump(cycle * 10 + 5);
        cycle++;
    }
    inline void tick() {
        low();
        rise();
    }
    // Whether rise_only() can replace a low()/rise() pair: an untraced model whose clock
    // record is known (a VCD needs both halves).
    static constexpr bool RISE_ONLY = !TRACE && HarnessCanRiseOnly<V>::value;
    // The rising edge of a cycle whose low half need not be evaluated: the caller knows that
    // no output it reads depends combinationally on an input changed since the last
    // evaluation. One evaluation instead of two (Verilator evaluates the logic that reads the
    // inputs on every evaluation); with RISE_ONLY false, low() and rise().
    inline void rise_only() {
        if constexpr (RISE_ONLY) {
            top->rootp->__Vtrigrprev__TOP__clock = 0;
            top->clock = 1;
            top->eval();
            evals++;
            cycle++;
        } else {
            low();
            rise();
        }
    }
    // One cycle; `see()` reads the outputs the rising edge samples.
    template <class See> inline void tick(See&& see) {
        low();
        see();
        rise();
    }
    // After a batch of n operations, with the inputs idle: cycles until got() is n, room
    // included for a latency longer than the announced one (a late result is reported, not
    // lost), then one more when all came, so that a spurious trailing result is counted.
    template <class Got, class See> void drain(uint64_t n, uint32_t latency, Got&& got, See&& see) {
        const uint64_t limit = (uint64_t)latency + 64;
        for (uint64_t extra = 0; got() < n && extra < limit; extra++) tick(see);
        if (got() == n) tick(see);
    }

  private:
    inline void dump(uint64_t t) {
        if constexpr (TRACE) {
            if (tfp && cycle >= dump_from && cycle <= dump_to) tfp->dump(t);
        }
    }
};

// The L2-slice unit's request port idle and rsp_ready low, as every model with that port
// starts (the unit's, and the warp unit's second port; `req_id` where there is one).
template <class V> inline void harness_unit_port_idle(V* m) {
    m->req_valid = 0;
    m->req_op = 0;
    m->req_addr = 0;
    m->req_mask = 0;
    for (int i = 0; i < 4; i++) m->req_data[i] = 0;
    m->rsp_ready = 0;
}

// The C functions of a model stepped one cycle per call with all its ports in one struct:
// `T` has a default constructor, a `Harness h` and `void step(IO*)`.
#define HARNESS_STEP_API(NAME, T, IO)                                                          \
    extern "C" {                                                                               \
    void* redunit_##NAME##_new() { return new T(); }                                           \
    void redunit_##NAME##_free(void* h) { delete static_cast<T*>(h); }                         \
    uint64_t redunit_##NAME##_cycles(void* h) { return static_cast<T*>(h)->h.cycle; }          \
    void redunit_##NAME##_cycle(void* h, IO* io) { static_cast<T*>(h)->step(io); }             \
    }
