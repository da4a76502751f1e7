// Drives the Verilated ALU (top module `top`) from a vector file and writes its outputs.
// Input lines:  valid form o3 o2 o1 o0 b3 b2 b1 b0   (hex; o3/b3 = bits 127..96)
// Output lines: valid form d3 d2 d1 d0, one per cycle, read with the clock low before the
// rising edge that takes that cycle's inputs.
#include "Vtop.h"
#include "verilated.h"
#include <cstdio>

int main(int argc, char** argv) {
    if (argc < 3) return 2;
    FILE* in = fopen(argv[1], "r");
    FILE* out = fopen(argv[2], "w");
    if (!in || !out) return 2;
    Vtop* top = new Vtop;
    unsigned v, form, o[4], b[4];
    top->clock = 0;
    top->eval();
    while (fscanf(in, "%x %x %x %x %x %x %x %x %x %x", &v, &form, &o[3], &o[2], &o[1], &o[0],
                  &b[3], &b[2], &b[1], &b[0]) == 10) {
        top->clock = 0;
        top->in_valid = v;
        top->in_form = form;
        for (int i = 0; i < 4; i++) {
            top->in_old[i] = o[i];
            top->in_b[i] = b[i];
        }
        top->eval();
        fprintf(out, "%x %x %08x %08x %08x %08x\n", top->out_valid, top->out_form,
                top->out_data[3], top->out_data[2], top->out_data[1], top->out_data[0]);
        top->clock = 1;
        top->eval();
    }
    top->final();
    delete top;
    fclose(out);
    return 0;
}
