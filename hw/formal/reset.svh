// The harnesses' reset (included in a harness module): `reset` high in cycle 0 only, as
// the designs' registers start at their power-up values; `after_reset` high in cycle 1.
    reg reset = 1;
    reg after_reset = 0;
    always @(posedge clock) begin
        reset <= 0;
        after_reset <= reset;
    end
