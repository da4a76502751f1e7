// Captures `redux.sync` results from real silicon (sm_80 or later; captured on an H100).
//
// For each integer form (add/min/max on u32/s32, and/or/xor on b32) it runs N warp-wide
// instructions, each with its own membermask and 32 source values, and writes
// OUTDIR/redux.sync.<op>.<type>.csv with the header
//     mask,src0,src1,...,src31,result
// in lowercase hex (8 digits). Lanes outside the mask do not execute the instruction; their
// src values are random and must be ignored by a model. Every participating lane must receive
// the same result; the program checks that and fails if not.
//
// Build and run: nvcc -O2 -arch=sm_90 -o redux_sync redux_sync.cu && ./redux_sync OUTDIR [N]
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

static const char* FORMS[9] = {"add.u32", "add.s32", "min.u32", "min.s32", "max.u32",
                               "max.s32", "and.b32", "or.b32", "xor.b32"};

__global__ void run(int form, const uint32_t* masks, const uint32_t* src, uint32_t* out, int n) {
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (warp >= n) return;
    uint32_t m = masks[warp];
    uint32_t v = src[warp * 32 + lane];
    uint32_t r = 0xdeadbeefu;
    if ((m >> lane) & 1u) {
        switch (form) {
        case 0: asm volatile("redux.sync.add.u32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(m)); break;
        case 1: asm volatile("redux.sync.add.s32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(m)); break;
        case 2: asm volatile("redux.sync.min.u32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(m)); break;
        case 3: asm volatile("redux.sync.min.s32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(m)); break;
        case 4: asm volatile("redux.sync.max.u32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(m)); break;
        case 5: asm volatile("redux.sync.max.s32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(m)); break;
        case 6: asm volatile("redux.sync.and.b32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(m)); break;
        case 7: asm volatile("redux.sync.or.b32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(m)); break;
        case 8: asm volatile("redux.sync.xor.b32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(m)); break;
        }
    }
    out[warp * 32 + lane] = r;
}

static uint64_t state = 0x7265647578ull;  // fixed seed: the capture is reproducible
static uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint32_t pick_mask(int i) {
    switch (i % 10) {
    case 0: return 0xffffffffu;
    case 1: return 1u << (next() % 32);
    case 2: return 0x0000ffffu;
    case 3: return 0x55555555u;
    case 4: { int lo = next() % 32, len = 1 + next() % (32 - lo);
              return (len == 32 ? 0xffffffffu : ((1u << len) - 1)) << lo; }
    case 5: return (uint32_t)(next() & next() & next()) | 1u;  // sparse
    case 6: return 0x80000001u;
    default: { uint32_t m = (uint32_t)next(); return m ? m : 0x80000000u; }
    }
}

static uint32_t pick_value(int cls) {
    static const uint32_t special[] = {0, 1, 2, 0x7fffffffu, 0x80000000u, 0x80000001u,
                                       0xffffffffu, 0xfffffffeu, 0x0000ffffu, 0xffff0000u};
    switch (cls) {
    case 0: return (uint32_t)next();
    case 1: return special[next() % 10];
    case 2: return (uint32_t)(next() % 4);
    case 3: return 0xffffffffu - (uint32_t)(next() % 4);                 // add carries
    case 4: return (next() & 1) ? (uint32_t)(next() % 256) : (uint32_t)-(int32_t)(next() % 256);
    default: return (uint32_t)next() | 0x80000000u;                      // all negative
    }
}

int main(int argc, char** argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s OUTDIR [N]\n", argv[0]); return 2; }
    std::string dir = argv[1];
    int n = argc > 2 ? atoi(argv[2]) : 4096;
    cudaDeviceProp p; CHECK(cudaGetDeviceProperties(&p, 0));
    int drv = 0; CHECK(cudaDriverGetVersion(&drv));
    printf("device: %s (sm_%d%d), driver API %d\n", p.name, p.major, p.minor, drv);
    uint32_t *d_mask, *d_src, *d_out;
    CHECK(cudaMalloc(&d_mask, n * 4)); CHECK(cudaMalloc(&d_src, n * 128)); CHECK(cudaMalloc(&d_out, n * 128));
    for (int f = 0; f < 9; f++) {
        std::vector<uint32_t> mask(n), src(n * 32), out(n * 32);
        for (int w = 0; w < n; w++) {
            mask[w] = pick_mask(w);
            int cls = (w / 10) % 6;
            uint32_t same = pick_value(cls);
            for (int l = 0; l < 32; l++)
                src[w * 32 + l] = (w % 37 == 0) ? same : pick_value(cls);  // some all-equal warps
        }
        CHECK(cudaMemcpy(d_mask, mask.data(), n * 4, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(d_src, src.data(), n * 128, cudaMemcpyHostToDevice));
        run<<<(n * 32 + 255) / 256, 256>>>(f, d_mask, d_src, d_out, n);
        CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(out.data(), d_out, n * 128, cudaMemcpyDeviceToHost));
        std::string path = dir + "/redux.sync." + FORMS[f] + ".csv";
        FILE* fp = fopen(path.c_str(), "w");
        if (!fp) { perror(path.c_str()); return 1; }
        fprintf(fp, "mask");
        for (int l = 0; l < 32; l++) fprintf(fp, ",src%d", l);
        fprintf(fp, ",result\n");
        for (int w = 0; w < n; w++) {
            int first = __builtin_ctz(mask[w]);
            uint32_t r = out[w * 32 + first];
            for (int l = 0; l < 32; l++) {
                bool in = (mask[w] >> l) & 1u;
                if (in && out[w * 32 + l] != r) {
                    fprintf(stderr, "%s warp %d: lanes disagree (%08x vs %08x)\n", FORMS[f], w, r, out[w * 32 + l]);
                    return 1;
                }
                if (!in && out[w * 32 + l] != 0xdeadbeefu) {
                    fprintf(stderr, "%s warp %d: lane %d outside the mask was written\n", FORMS[f], w, l);
                    return 1;
                }
            }
            fprintf(fp, "%08x", mask[w]);
            for (int l = 0; l < 32; l++) fprintf(fp, ",%08x", src[w * 32 + l]);
            fprintf(fp, ",%08x\n", r);
        }
        fclose(fp);
        printf("%s: %d instructions\n", FORMS[f], n);
    }
    return 0;
}
