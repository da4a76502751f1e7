// extern "C" shim around the Verilated redux.sync block (module `top` of hw::redux_verilog()).
//
// One model, Vredux (no tracing). A handle owns one model and its own VerilatedContext.
//
// Clocking as in harness.h, one warp instruction per cycle: an instruction driven in cycle c
// comes out in cycle c + latency.
//
// Whole batches cross the FFI boundary: form codes (u8), masks (u32) and 32 source words per
// instruction (lane 0 first, the order of Verilator's VlWide<32>); out the result, the 32
// lane words of out_lanes, out_form and out_mask of each instruction.

#include <cstdint>

#include "Vredux.h"
#include "harness.h"

namespace {

struct Redux {
    Harness<Vredux> h;
    uint32_t latency = 0;

    explicit Redux(uint32_t lat) {
        latency = lat;
        Vredux* m = h.top.get();
        m->in_valid = 0;
        m->in_form = 0;
        m->in_mask = 0;
        for (int i = 0; i < 32; i++) m->in_src[i] = 0;
        h.settle();
    }

    void idle(uint64_t cycles) {
        h.top->in_valid = 0;
        for (uint64_t i = 0; i < cycles; i++) h.tick();
    }

    int64_t run(uint64_t n, const uint8_t* forms, const uint32_t* masks, const uint32_t* src, uint32_t* out_result,
                uint32_t* out_lanes, uint8_t* out_forms, uint32_t* out_masks, int64_t* bad_index,
                int64_t* bad_latency) {
        Vredux* m = h.top.get();
        const uint64_t start = h.cycle;
        uint64_t got = 0;
        *bad_index = -1;
        *bad_latency = 0;
        auto collect = [&]() {
            if (!m->out_valid) return;
            if (got < n) {
                out_result[got] = m->out_result;
                for (int w = 0; w < 32; w++) out_lanes[32 * got + w] = m->out_lanes[w];
                out_forms[got] = m->out_form;
                out_masks[got] = m->out_mask;
                int64_t lat = (int64_t)(h.cycle - (start + got));
                if (lat != (int64_t)latency && *bad_index < 0) {
                    *bad_index = (int64_t)got;
                    *bad_latency = lat;
                }
            }
            got++;
        };
        for (uint64_t i = 0; i < n; i++) {
            m->in_valid = 1;
            m->in_form = forms[i];
            m->in_mask = masks[i];
            const uint32_t* s = src + 32 * i;
            for (int w = 0; w < 32; w++) m->in_src[w] = s[w];
            h.tick(collect);
        }
        m->in_valid = 0;
        m->in_form = 0;
        m->in_mask = 0;
        h.drain(n, latency, [&]() { return got; }, collect);
        return (int64_t)got;
    }
};

}  // namespace

extern "C" {

void* redunit_redux_new(uint32_t latency) { return new Redux(latency); }

void redunit_redux_free(void* h) { delete static_cast<Redux*>(h); }

uint64_t redunit_redux_cycle(void* h) { return static_cast<Redux*>(h)->h.cycle; }

void redunit_redux_idle(void* h, uint64_t cycles) { static_cast<Redux*>(h)->idle(cycles); }

int64_t redunit_redux_run(void* h, uint64_t n, const uint8_t* forms, const uint32_t* masks, const uint32_t* src,
                          uint32_t* out_result, uint32_t* out_lanes, uint8_t* out_forms, uint32_t* out_masks,
                          int64_t* bad_index, int64_t* bad_latency) {
    return static_cast<Redux*>(h)->run(n, forms, masks, src, out_result, out_lanes, out_forms, out_masks, bad_index,
                                       bad_latency);
}

}  // extern "C"
