// extern "C" shim around the Verilated reduction ALU (module `top` of hw::alu_verilog()).
//
// Two models are linked: Valu (no tracing) and Valut (--trace). A handle owns one model and
// its own VerilatedContext, so handles can live on different threads.
//
// Clocking and VCD timestamps as in harness.h, one operation per cycle: an operation driven in
// cycle c comes out in cycle c + latency.
//
// Whole batches cross the FFI boundary: form codes (u16) and 128-bit operands as four u32
// words each, least significant word first (the order of Verilator's VlWide<4>).

#include <cstdint>

#include "Valu.h"
#include "Valut.h"
#include "alu_base.h"
#include "harness.h"

namespace {

using Base = RedunitAluBase;

// M: Valu, or Valut with a VCD.
template <class M>
struct Alu final : Base {
    Harness<M> h;

    Alu(uint32_t lat, const char* vcd, uint64_t first_cycle, bool* ok) : h(first_cycle) {
        latency = lat;
        *ok = true;
        if constexpr (Harness<M>::TRACE) *ok = h.open_vcd(vcd);
        redunit_alu_inputs(*h.top, nullptr, nullptr, nullptr, 0);
        h.settle();
    }

    uint64_t cycle() const override { return h.cycle; }

    void idle(uint64_t cycles) override {
        h.top->in_valid = 0;
        for (uint64_t i = 0; i < cycles; i++) h.tick();
    }

    int64_t run(uint64_t n, const uint16_t* forms, const uint32_t* old, const uint32_t* b, uint32_t* out,
                uint16_t* out_forms, int64_t* bad_index, int64_t* bad_latency) override {
        RedunitAluResults r(n, h.cycle, latency, out, out_forms, bad_index, bad_latency);
        auto see = [&]() { r.see(*h.top, h.cycle); };
        for (uint64_t i = 0; i < n; i++) {
            redunit_alu_inputs(*h.top, forms, old, b, i);
            h.tick(see);
        }
        redunit_alu_inputs(*h.top, nullptr, nullptr, nullptr, 0);
        h.drain(n, latency, [&]() { return r.got; }, see);
        return (int64_t)r.got;
    }
};

}  // namespace

extern "C" {

void* redunit_alu_new(uint32_t latency, const char* vcd_path, uint64_t first_cycle) {
    bool ok = true;
    Base* p;
    if (vcd_path) {
        p = new Alu<Valut>(latency, vcd_path, first_cycle, &ok);
    } else {
        p = new Alu<Valu>(latency, nullptr, first_cycle, &ok);
    }
    if (!ok) {
        delete p;
        return nullptr;
    }
    return p;
}

void redunit_alu_free(void* h) { delete static_cast<Base*>(h); }

uint64_t redunit_alu_cycle(void* h) { return static_cast<Base*>(h)->cycle(); }

void redunit_alu_idle(void* h, uint64_t cycles) { static_cast<Base*>(h)->idle(cycles); }

int64_t redunit_alu_run(void* h, uint64_t n, const uint16_t* forms, const uint32_t* old, const uint32_t* b,
                        uint32_t* out, uint16_t* out_forms, int64_t* bad_index, int64_t* bad_latency) {
    return static_cast<Base*>(h)->run(n, forms, old, b, out, out_forms, bad_index, bad_latency);
}

}  // extern "C"
