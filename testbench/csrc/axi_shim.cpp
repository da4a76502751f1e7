// extern "C" shim around the Verilated AXI front end (module `top` of hw::axi_verilog(65536)):
// hw::AxiUnit, 4-bit IDs, in front of hw::SliceUnit. One model, Vaxi (no tracing); a handle
// owns one model and its own VerilatedContext.
//
// One FFI call per cycle (`redunit_axi_cycle`), all ports in one struct (`AxiIo` in axi.rs):
// the inputs are set, the model settles in the low half of the cycle (harness.h), and the
// outputs copied then are what the rising edge samples (a handshake happens in this cycle
// when valid and ready read here are both high); then the clock rises.

#include <cstdint>

#include "Vaxi.h"
#include "harness.h"

extern "C" {
struct AxiIo {
    // Inputs.
    uint8_t reset, awvalid, wvalid, wlast, bready, arvalid, rready, awid;
    uint8_t awlen, awsize, awburst, awatop, arid, arlen, arsize, arburst;
    uint16_t awuser, wstrb;
    uint32_t awaddr, araddr;
    uint32_t wdata[4];
    // Outputs.
    uint8_t awready, wready, bvalid, bid, bresp, arready, rvalid, rid;
    uint8_t rresp, rlast, fire, pad0;
    uint32_t cov;
    uint32_t rdata[4];
};
}

namespace {

struct Axi {
    Harness<Vaxi> h;
    Vaxi* m = h.top.get();

    Axi() {
        AxiIo zero = {};
        set(&zero);
        h.settle();
    }

    void set(const AxiIo* io) {
        m->reset = io->reset;
        m->awvalid = io->awvalid;
        m->awid = io->awid;
        m->awaddr = io->awaddr;
        m->awlen = io->awlen;
        m->awsize = io->awsize;
        m->awburst = io->awburst;
        m->awatop = io->awatop;
        m->awuser = io->awuser;
        m->wvalid = io->wvalid;
        for (int i = 0; i < 4; i++) m->wdata[i] = io->wdata[i];
        m->wstrb = io->wstrb;
        m->wlast = io->wlast;
        m->bready = io->bready;
        m->arvalid = io->arvalid;
        m->arid = io->arid;
        m->araddr = io->araddr;
        m->arlen = io->arlen;
        m->arsize = io->arsize;
        m->arburst = io->arburst;
        m->rready = io->rready;
    }

    void step(AxiIo* io) {
        set(io);
        h.low();
        io->awready = m->awready;
        io->wready = m->wready;
        io->bvalid = m->bvalid;
        io->bid = m->bid;
        io->bresp = m->bresp;
        io->arready = m->arready;
        io->rvalid = m->rvalid;
        io->rid = m->rid;
        io->rresp = m->rresp;
        io->rlast = m->rlast;
        io->fire = m->fire;
        io->cov = m->cov;
        for (int i = 0; i < 4; i++) io->rdata[i] = m->rdata[i];
        h.rise();
    }
};

}  // namespace

HARNESS_STEP_API(axi, Axi, AxiIo)
