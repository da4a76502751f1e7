// Cosimulation-speed harness for scripts/cosim-speed/run.sh: drives the Verilated ALU
// (a variant from variants.py) with one random operation per cycle, forms drawn uniformly
// from the 82 legal forms (the mix of `redunit regress`: 46% integer, 46% f16/bf16, 5% f32,
// 2% f64), random operands, and prints cycles per second. No golden-model check: this
// measures the simulator only.
//
// Enables (en_bits, variants with ENABLES defined): bit u is set when unit instance u holds
// an operation in one of its 3 stages (the enable a real gating scheme needs), or with
// `ideal` only when the operation enters it (a lower bound: what per-stage gating could
// reach if Verilator skipped each stage separately; results are then wrong).
#include "Vtop.h"
#include "verilated.h"
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include "units.h"

int main(int argc, char** argv) {
    const bool ideal = argc > 1 && !strcmp(argv[1], "ideal");
    const long n = argc > 2 ? atol(argv[2]) : 2000000;
    VerilatedContext ctx;
    Vtop m(&ctx, "top");
    uint64_t s = 0x9e3779b97f4a7c15ull;
    auto rnd = [&]() { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return s; };
    uint64_t u1 = 0, u2 = 0, acc = 0, enabled = 0;
    auto t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < n; i++) {
        const auto& f = FORMS[rnd() % N_FORMS];
        m.clock = 0;
        m.in_valid = 1;
        m.in_form = f.code;
        for (int k = 0; k < 4; k++) { m.in_old[k] = (uint32_t)rnd(); m.in_b[k] = (uint32_t)rnd(); }
#ifdef ENABLES
        uint64_t en = ideal ? f.units : (f.units | u1 | u2);
        m.en_bits = en;
        enabled += __builtin_popcountll(en);
#endif
        m.eval();
        acc += m.out_data[0];
        m.clock = 1;
        m.eval();
        u2 = u1;
        u1 = f.units;
    }
    double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    printf("%.3f M cycles/s (%ld cycles, %.2f s; mean enabled unit instances %.2f; checksum %llu)\n",
           n / dt / 1e6, n, dt, (double)enabled / n, (unsigned long long)(acc & 0xff));
}
