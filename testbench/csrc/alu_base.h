// The interface of a Verilated reduction ALU behind the C functions of alu_shim.cpp
// (redunit_alu_free, _cycle, _idle, _run): the ALU as one model (alu_shim.cpp) and the
// split model (alu_split_shim.cpp) both implement it.
#pragma once

#include <cstdint>

struct RedunitAluBase {
    virtual ~RedunitAluBase() = default;
    // n operations, one per cycle, then the drain; returns the number of results seen.
    virtual int64_t run(uint64_t n, const uint16_t* forms, const uint32_t* old, const uint32_t* b,
                        uint32_t* out, uint16_t* out_forms, int64_t* bad_index, int64_t* bad_latency) = 0;
    virtual void idle(uint64_t cycles) = 0;
    uint64_t cycle = 0;
    uint32_t latency = 0;
};
