// extern "C" shim around the Verilated reduction ALU (module `top` of hw::alu_verilog()).
//
// Two models are linked: Valu (no tracing) and Valut (--trace). A handle owns one model and
// its own VerilatedContext, so handles can live on different threads.
//
// Clocking, one operation per cycle: in the low half of cycle c the inputs are set and the
// model settles; the outputs read then are what the rising edge of cycle c samples; then the
// clock rises. An operation driven in cycle c comes out in cycle c + latency. With a VCD open,
// the low half is dumped at 10c ns and the high half at 10c+5 ns (10 ns clock period).
//
// Whole batches cross the FFI boundary: form codes (u16) and 128-bit operands as four u32
// words each, least significant word first (the order of Verilator's VlWide<4>).

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>

#include "verilated.h"
#include "verilated_vcd_c.h"
#include "Valu.h"
#include "Valut.h"
#include "alu_base.h"

namespace {

using Base = RedunitAluBase;

template <class M, bool TRACE>
struct Alu final : Base {
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<M> m;
    std::unique_ptr<VerilatedVcdC> tfp;

    Alu(uint32_t lat, const char* vcd, uint64_t first_cycle, bool* ok) {
        latency = lat;
        cycle = first_cycle;
        ctx.reset(new VerilatedContext);
        if (TRACE) ctx->traceEverOn(true);
        m.reset(new M(ctx.get(), "top"));
        *ok = true;
        if constexpr (TRACE) {
            tfp.reset(new VerilatedVcdC);
            m->trace(tfp.get(), 99);
            tfp->open(vcd);
            *ok = tfp->isOpen();
        }
        m->clock = 0;
        m->in_valid = 0;
        m->in_form = 0;
        for (int i = 0; i < 4; i++) m->in_old[i] = m->in_b[i] = 0;
        m->eval();
    }

    ~Alu() override {
        m->final();
        if constexpr (TRACE) {
            if (tfp) tfp->close();
        }
    }

    inline void low() {
        m->clock = 0;
        m->eval();
        if constexpr (TRACE) tfp->dump(cycle * 10);
    }
    inline void high() {
        m->clock = 1;
        m->eval();
        if constexpr (TRACE) tfp->dump(cycle * 10 + 5);
        cycle++;
    }

    void idle(uint64_t cycles) override {
        m->in_valid = 0;
        for (uint64_t i = 0; i < cycles; i++) {
            low();
            high();
        }
    }

    int64_t run(uint64_t n, const uint16_t* forms, const uint32_t* old, const uint32_t* b, uint32_t* out,
                uint16_t* out_forms, int64_t* bad_index, int64_t* bad_latency) override {
        RedunitAluResults r(n, cycle, latency, out, out_forms, bad_index, bad_latency);
        auto step = [&]() {
            low();
            r.see(*m, cycle);
            high();
        };
        for (uint64_t i = 0; i < n; i++) {
            redunit_alu_inputs(*m, forms, old, b, i);
            step();
        }
        // Drain: idle cycles until every result is out, with room for a latency that is
        // longer than the one announced (reported through bad_index).
        redunit_alu_inputs(*m, nullptr, nullptr, nullptr, 0);
        const uint64_t limit = (uint64_t)latency + 64;
        for (uint64_t extra = 0; r.got < n && extra < limit; extra++) step();
        // One more look, so that a spurious trailing out_valid is counted.
        if (r.got == n) step();
        return (int64_t)r.got;
    }
};

}  // namespace

extern "C" {

void* redunit_alu_new(uint32_t latency, const char* vcd_path, uint64_t first_cycle) {
    bool ok = true;
    Base* p;
    if (vcd_path) {
        p = new Alu<Valut, true>(latency, vcd_path, first_cycle, &ok);
    } else {
        p = new Alu<Valu, false>(latency, nullptr, first_cycle, &ok);
    }
    if (!ok) {
        delete p;
        return nullptr;
    }
    return p;
}

void redunit_alu_free(void* h) { delete static_cast<Base*>(h); }

uint64_t redunit_alu_cycle(void* h) { return static_cast<Base*>(h)->cycle; }

void redunit_alu_idle(void* h, uint64_t cycles) { static_cast<Base*>(h)->idle(cycles); }

int64_t redunit_alu_run(void* h, uint64_t n, const uint16_t* forms, const uint32_t* old, const uint32_t* b,
                        uint32_t* out, uint16_t* out_forms, int64_t* bad_index, int64_t* bad_latency) {
    return static_cast<Base*>(h)->run(n, forms, old, b, out, out_forms, bad_index, bad_latency);
}

}  // extern "C"
