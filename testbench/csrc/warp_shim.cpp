// extern "C" shim around the Verilated warp unit (module `top` of hw::warp_verilog(65536)):
// hw::WarpCoalescer in front of hw::SliceUnit. One model, Vwarp (no tracing); a handle owns
// one model and its own VerilatedContext.
//
// One FFI call per cycle (`redunit_warp_cycle`), with all ports in one struct: in the low half
// of the cycle (harness.h) the inputs are set and the model settles; the outputs copied then
// are what the rising edge samples (a handshake happens in this cycle when valid and ready
// read here are both high); then the clock rises.

#include <cstdint>

#include "Vwarp.h"
#include "harness.h"

extern "C" {
struct WarpIo {
    // Inputs.
    uint8_t reset, warp_valid, req_valid, rsp_ready, req_mask, pad0[3];
    uint16_t warp_form, req_op;
    uint32_t warp_mask, req_addr;
    uint32_t warp_addr[32];
    uint32_t warp_data[128];
    uint32_t req_data[4];
    // Outputs.
    uint8_t warp_ready, req_ready, fire, rsp_valid, rsp_status, fire_mask, busy, pad1;
    uint16_t fire_id, rsp_id;
    uint32_t fire_lanes;
    uint32_t rsp_data[4];
};
}

namespace {

struct Warp {
    Harness<Vwarp> h;
    Vwarp* m = h.top.get();

    Warp() {
        m->reset = 0;
        m->warp_valid = 0;
        m->warp_form = 0;
        m->warp_mask = 0;
        for (int i = 0; i < 32; i++) m->warp_addr[i] = 0;
        for (int i = 0; i < 128; i++) m->warp_data[i] = 0;
        harness_unit_port_idle(m);
        h.settle();
    }

    void step(WarpIo* io) {
        m->reset = io->reset;
        m->warp_valid = io->warp_valid;
        if (io->warp_valid) {
            m->warp_form = io->warp_form;
            m->warp_mask = io->warp_mask;
            for (int i = 0; i < 32; i++) m->warp_addr[i] = io->warp_addr[i];
            for (int i = 0; i < 128; i++) m->warp_data[i] = io->warp_data[i];
        }
        m->req_valid = io->req_valid;
        m->req_op = io->req_op;
        m->req_addr = io->req_addr;
        m->req_mask = io->req_mask;
        for (int i = 0; i < 4; i++) m->req_data[i] = io->req_data[i];
        m->rsp_ready = io->rsp_ready;
        h.low();
        io->warp_ready = m->warp_ready;
        io->req_ready = m->req_ready;
        io->fire = m->fire;
        io->fire_id = m->fire_id;
        io->fire_lanes = m->fire_lanes;
        io->fire_mask = m->fire_mask;
        io->busy = m->busy;
        io->rsp_valid = m->rsp_valid;
        io->rsp_id = m->rsp_id;
        io->rsp_status = m->rsp_status;
        for (int i = 0; i < 4; i++) io->rsp_data[i] = m->rsp_data[i];
        h.rise();
    }
};

}  // namespace

HARNESS_STEP_API(warp, Warp, WarpIo)
