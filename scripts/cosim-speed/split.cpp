// Cosimulation-speed bound of the "separate models" route (scripts/cosim-speed/split.sh):
// each lane of the ALU's units as a Verilated model of its own (the blocks as
// `redunit verilog --top int-alu|fp-add16|fp-minmax16|fp-add-f32|fp-add-f64` write them),
// 23 instances as in the ALU, and per operation only the lanes its form uses are clocked,
// once (a lane is a pure pipeline: clocked only when an operation enters, its results come
// out in order, `latency` operations later). Forms drawn uniformly from the 82, as
// bench.cpp does; random operands. No golden check and none of the ALU's own logic (form
// decode, delay lines, result select): an upper bound on what the route could reach.
#include "Vint.h"
#include "Vadd16.h"
#include "Vmm16.h"
#include "Vf32.h"
#include "Vf64.h"
#include "verilated.h"
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>
#include "units.h"

int main(int argc, char** argv) {
    const long n = argc > 1 ? atol(argv[1]) : 2000000;
    VerilatedContext ctx;
    uint64_t s = 0x9e3779b97f4a7c15ull;
    auto rnd = [&]() { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return s; };
    // One model per unit instance, in the order of units.h (kinds sorted by name:
    // add16, add_f32, add_f64, int_alu, minmax16).
    std::vector<std::unique_ptr<Vint>> ints;
    std::vector<std::unique_ptr<Vadd16>> a16;
    std::vector<std::unique_ptr<Vmm16>> mm;
    std::vector<std::unique_ptr<Vf32>> f32;
    std::vector<std::unique_ptr<Vf64>> f64;
    int slot[64];
    for (int u = 0; u < N_UNITS; u++) {
        switch (UNIT_KIND[u]) {
        case 0: slot[u] = a16.size(); a16.emplace_back(new Vadd16(&ctx)); break;
        case 1: slot[u] = f32.size(); f32.emplace_back(new Vf32(&ctx)); break;
        case 2: slot[u] = f64.size(); f64.emplace_back(new Vf64(&ctx)); break;
        case 3: slot[u] = ints.size(); ints.emplace_back(new Vint(&ctx)); break;
        default: slot[u] = mm.size(); mm.emplace_back(new Vmm16(&ctx)); break;
        }
    }
    auto tick = [](auto& m) { m.clock = 0; m.eval(); m.clock = 1; m.eval(); };
    uint64_t acc = 0, ticks = 0;
    auto t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < n; i++) {
        const auto& f = FORMS[rnd() % N_FORMS];
        uint64_t r = rnd();
        for (uint64_t m = f.units; m; m &= m - 1) {
            int u = __builtin_ctzll(m);
            int k = slot[u];
            ticks++;
            switch (UNIT_KIND[u]) {
            case 0: { auto& x = *a16[k]; x.a = r; x.b = r >> 16; x.bf16 = r >> 40 & 1; x.hold = 0; tick(x); acc += x.sum; break; }
            case 1: { auto& x = *f32[k]; x.a = r; x.b = r >> 32; x.ftz = r >> 40 & 1; x.nan_quiet = 0; x.hold = 0; tick(x); acc += x.sum; break; }
            case 2: { auto& x = *f64[k]; x.a = r; x.b = rnd(); x.ftz = r >> 40 & 1; x.nan_quiet = 0; x.hold = 0; tick(x); acc += x.sum; break; }
            case 3: { auto& x = *ints[k]; x.op = f.code & 15; x.ty = f.code >> 4 & 15; x.a = r; x.b = rnd(); x.hold = 0; tick(x); acc += x.y; break; }
            default: { auto& x = *mm[k]; x.a = r; x.b = r >> 16; x.bf16 = r >> 40 & 1; x.max = r >> 41 & 1; x.hold = 0; tick(x); acc += x.y; break; }
            }
        }
    }
    double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    printf("%.3f M ops/s (%ld ops, %.2f s; mean lane models clocked per op %.2f; checksum %llu)\n",
           n / dt / 1e6, n, dt, (double)ticks / n, (unsigned long long)(acc & 0xff));
}
