// extern "C" shim around the Verilated async unit (module `top` of hw::async_verilog()).
//
// One call = one clock cycle (harness.h): the inputs are set, the model settles in the low
// half, and the outputs read then are what the rising edge samples (a request is taken when
// req_valid and req_ready are high, a barrier operation when bar_valid and bar_ready are, a
// response when rsp_valid and rsp_ready are); then the clock rises. `AsyncIo` mirrors the Rust
// struct in testbench/src/async_run.rs (only 64-bit fields).

#include <cstdint>

#include "Vasync.h"
#include "harness.h"

#define API extern "C" __attribute__((visibility("default")))

struct AsyncIo {
    // Inputs.
    uint64_t reset, req_valid, req_op, req_addr, req_data_lo, req_data_hi, req_mbar_en, req_mbar;
    uint64_t rsp_ready, bar_valid, bar_op, bar_addr, bar_arg;
    // Outputs (read before the rising edge).
    uint64_t req_ready, rsp_valid, rsp_data_lo, rsp_data_hi, rsp_status;
    uint64_t bar_ready, bar_wait_complete, bar_parity, bar_pending, bar_tx, bar_err, bar_full, mbar_valid;
    uint64_t phase, mbar_errs, flip, tx_valid, tx_addr, tx_bytes, u_rsp_valid, u_rsp_tag;
};

using Async = Harness<Vasync>;

API void* redunit_async_new() {
    auto* a = new Async;
    a->settle();
    return a;
}

API void redunit_async_free(void* h) { delete static_cast<Async*>(h); }

API uint64_t redunit_async_cycle(void* h) { return static_cast<Async*>(h)->cycle; }

API void redunit_async_step(void* h, AsyncIo* io) {
    auto* a = static_cast<Async*>(h);
    Vasync* m = a->top.get();
    m->reset = io->reset;
    m->req_valid = io->req_valid;
    m->req_op = io->req_op;
    m->req_addr = (uint32_t)io->req_addr;
    m->req_data[0] = (uint32_t)io->req_data_lo;
    m->req_data[1] = (uint32_t)(io->req_data_lo >> 32);
    m->req_data[2] = (uint32_t)io->req_data_hi;
    m->req_data[3] = (uint32_t)(io->req_data_hi >> 32);
    m->req_mbar_en = io->req_mbar_en;
    m->req_mbar = io->req_mbar;
    m->rsp_ready = io->rsp_ready;
    m->bar_valid = io->bar_valid;
    m->bar_op = io->bar_op;
    m->bar_addr = io->bar_addr;
    m->bar_arg = io->bar_arg;
    a->low();
    io->req_ready = m->req_ready;
    io->rsp_valid = m->rsp_valid;
    io->rsp_data_lo = (uint64_t)m->rsp_data[0] | ((uint64_t)m->rsp_data[1] << 32);
    io->rsp_data_hi = (uint64_t)m->rsp_data[2] | ((uint64_t)m->rsp_data[3] << 32);
    io->rsp_status = m->rsp_status;
    io->bar_ready = m->bar_ready;
    io->bar_wait_complete = m->bar_wait_complete;
    io->bar_parity = m->bar_parity;
    io->bar_pending = m->bar_pending;
    io->bar_tx = m->bar_tx;
    io->bar_err = m->bar_err;
    io->bar_full = m->bar_full;
    io->mbar_valid = m->mbar_valid;
    io->phase = m->phase;
    io->mbar_errs = m->mbar_errs;
    io->flip = m->flip;
    io->tx_valid = m->tx_valid;
    io->tx_addr = m->tx_addr;
    io->tx_bytes = m->tx_bytes;
    io->u_rsp_valid = m->u_rsp_valid;
    io->u_rsp_tag = m->u_rsp_tag;
    a->rise();
}
