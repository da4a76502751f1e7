// The interface of a Verilated reduction ALU behind the C functions of alu_shim.cpp
// (redunit_alu_free, _cycle, _idle, _run): the ALU as one model (alu_shim.cpp) and the
// split model (alu_split_shim.cpp) both implement it, with the helpers below.
#pragma once

#include <cstddef>
#include <cstdint>

struct RedunitAluBase {
    virtual ~RedunitAluBase() = default;
    // n operations, one per cycle, then the drain; returns the number of results seen.
    virtual int64_t run(uint64_t n, const uint16_t* forms, const uint32_t* old, const uint32_t* b,
                        uint32_t* out, uint16_t* out_forms, int64_t* bad_index, int64_t* bad_latency) = 0;
    virtual void idle(uint64_t cycles) = 0;
    // The next cycle to run.
    virtual uint64_t cycle() const = 0;
    uint32_t latency = 0;
};

// Drives the ALU's inputs (a model with its ports: the full ALU, or the split model's front
// and back) with operation i of the arrays, or with an idle cycle when `forms` is null.
template <class M>
inline void redunit_alu_inputs(M& m, const uint16_t* forms, const uint32_t* old, const uint32_t* b, size_t i) {
    if (!forms) {
        m.in_valid = 0;
        m.in_form = 0;
        for (int w = 0; w < 4; w++) m.in_old[w] = m.in_b[w] = 0;
    } else {
        m.in_valid = 1;
        m.in_form = forms[i];
        for (int w = 0; w < 4; w++) {
            m.in_old[w] = old[4 * i + w];
            m.in_b[w] = b[4 * i + w];
        }
    }
}

// A run's results as they come out, in order, into the caller's arrays (the first n); the
// first one whose latency is not `latency` is reported through bad_index and bad_latency.
struct RedunitAluResults {
    uint64_t n, start;
    uint32_t latency;
    uint32_t* out;
    uint16_t* out_forms;
    int64_t* bad_index;
    int64_t* bad_latency;
    uint64_t got = 0;

    RedunitAluResults(uint64_t n, uint64_t start, uint32_t latency, uint32_t* out, uint16_t* out_forms,
                      int64_t* bad_index, int64_t* bad_latency)
        : n(n), start(start), latency(latency), out(out), out_forms(out_forms), bad_index(bad_index),
          bad_latency(bad_latency) {
        *bad_index = -1;
        *bad_latency = 0;
    }
    // The outputs of model `m` in `cycle`, settled before its rising edge.
    template <class M> inline void see(const M& m, uint64_t cycle) {
        if (!m.out_valid) return;
        if (got < n) {
            for (int w = 0; w < 4; w++) out[4 * got + w] = m.out_data[w];
            out_forms[got] = m.out_form;
            int64_t lat = (int64_t)(cycle - (start + got));
            if (lat != (int64_t)latency && *bad_index < 0) {
                *bad_index = (int64_t)got;
                *bad_latency = lat;
            }
        }
        got++;
    }
};
