#!/usr/bin/env python3
"""Writes the variants of the ALU's Verilog for scripts/cosim-speed/run.sh.

Usage: variants.py WORKDIR   (reads WORKDIR/base.v, from `redunit verilog --top alu`, and
WORKDIR/forms.csv, from `redunit forms --csv`; writes WORKDIR/{gate_unit,gate_group,skip,skip_dflt,glue}.v
and WORKDIR/units.h for the harness).

Each variant adds an input `en_bits` to module `top`: bit u enables unit instance u (the
harness computes it from the forms table). The variants are measurement devices, not
designs: they only change what Verilator evaluates, and the `skip` variant with
`--ideal` enables gives wrong results on purpose (a lower bound on the work per cycle).

- gate_unit: each unit instance's clock is `clock & en_q` (en_q: en_bits[u] sampled at the
  falling edge), so Verilator evaluates a unit only in cycles its clock ticks.
- gate_group: the same with one gated clock per unit kind (int, add16, minmax16, f32, f64).
- skip: each unit's combinational block is wrapped in `if (en) ...`, en from a register of
  en_bits (no gated clocks: Verilator still clocks every register, but skips the logic).
  Its locals keep their values while skipped: latches, which synthesis must not have.
- skip_dflt: `skip` as a latch-free design has to write it: before the `if (en)`, every stage
  register (`s<k>_*$d`) holds its value and every other signal of the block (locals, and the
  inputs of the optional `Cut` registers) gets 0. The price of skipping without latches.
- glue: the ALU without its units' logic (each unit one register of `a ^ b`): what the ALU's
  own decode, delay lines and result select cost per cycle (split.sh).
"""
import csv, re, sys

work = sys.argv[1]
base = open(f"{work}/base.v").read()
forms = list(csv.DictReader(open(f"{work}/forms.csv")))

# Unit instances of the ALU, in the order of the en_bits vector.
inst = re.findall(r"^    top\$([a-z0-9_$]+) ([a-z0-9_$]+)\($", base, re.M)
units = [name for (_, name) in inst if re.fullmatch(r"(add16|minmax16|add_f32)\$\d|add_f64|add_f64_hi|int_alu", name)]
kind = {u: u.split("$")[0].replace("add_f64_hi", "add_f64") for u in units}
kinds = sorted(set(kind.values()))


def lane_instance(unit, lane):
    if unit == "int_alu":
        return "int_alu"
    if unit == "add_f64":
        return "add_f64" if lane == 0 else "add_f64_hi"
    return f"{unit}${lane}"


# units.h: per form code, the mask of unit instances it uses, and each instance's kind.
with open(f"{work}/units.h", "w") as h:
    h.write(f"static const int N_UNITS = {len(units)};\n")
    h.write("static const int UNIT_KIND[] = {" + ",".join(str(kinds.index(kind[u])) for u in units) + "};\n")
    h.write(f"static const int N_FORMS = {len(forms)};\n")
    rows = []
    for f in forms:
        mask = 0
        lanes = int(f["lanes"])
        for lane in range(8):
            if lanes >> lane & 1:
                mask |= 1 << units.index(lane_instance(f["unit"], lane))
        rows.append(f"{{{f['code']}, {mask}ull}}")
    h.write("static const struct { unsigned code; unsigned long long units; } FORMS[] = {" + ",".join(rows) + "};\n")

# (The port list grows with the ALU, e.g. the old-value replicas' ports: match it.)
m = re.search(r"^module top\((clock,in_valid,in_form,[a-z_,]*)\);$", base, re.M)
assert m, "variants.py: module top's header not found in base.v"
HDR = m.group(0)
NEW_HDR = f"module top({m.group(1)},en_bits);\n    input wire [63:0] en_bits;\n"


def gate(group):
    src = base.replace(HDR, NEW_HDR, 1)
    lines = []
    for i, u in enumerate(units):
        g = kinds.index(kind[u]) if group else i
        w = f"gclk_{g}"
        if f"wire {w} " not in "\n".join(lines):
            if group:
                en = " | ".join(f"en_bits[{j}]" for j, v in enumerate(units) if kind[v] == kind[u])
            else:
                en = f"en_bits[{i}]"
            lines.append(f"    reg en_q_{g}; always @(negedge clock) en_q_{g} <= {en}; wire {w} = clock & en_q_{g};")
        pat = f"wire {u}$clock = clock;"
        assert pat in src, pat
        src = src.replace(pat, f"wire {u}$clock = {w};", 1)
    return src.replace(NEW_HDR, NEW_HDR + "\n".join(lines) + "\n", 1)


def skip(defaults=False):
    src = base.replace(HDR, NEW_HDR + "    reg [63:0] en_r; always @(posedge clock) en_r <= en_bits;\n", 1)

    def wrap(m):
        body = m.group(0)
        name = m.group(1)
        body = body.replace(f"module top${name}(clock,", f"module top${name}(clock,en,", 1)
        body = body.replace("    input wire  clock;", "    input wire  clock;\n    input wire  en;", 1)
        i = body.index("    always @(*) begin\n") + len("    always @(*) begin\n")
        j = body.rindex("    end\n")
        dflt = ""
        if defaults:
            # What a latch-free design must add: hold the stage registers, zero the locals.
            for reg in re.findall(r"^    reg  (?:\[\d+:0\] )?([A-Za-z0-9_$]+);$", body, re.M):
                if reg.endswith("$d") and re.match(r"s\d+_", reg):
                    dflt += f"{reg} = {reg[:-2]}$q;\n"
                elif "$" not in reg or reg.endswith("$d"):
                    dflt += f"{reg} = 0;\n"
        return body[:i] + dflt + "if (en) begin\n" + body[i:j] + "end\n" + body[j:]

    for i, u in enumerate(units):
        pat = re.compile(r"module top\$(" + re.escape(u) + r")\(.*?endmodule", re.S)
        src, n = pat.subn(wrap, src, count=1)
        assert n == 1, u
        old = f"    top${u} {u}(\n        .clock({u}$clock),"
        assert old in src, u
        src = src.replace(old, f"    top${u} {u}(\n        .clock({u}$clock),\n        .en(en_r[{i}]),", 1)
    return src


def glue():
    """The ALU's own logic alone: every unit's module body replaced by one register of
    `a ^ b` (form decode, operand distribution, delay lines and result select stay)."""
    src = base
    for u in units:
        m = re.search(r"^module top\$" + re.escape(u) + r"\(([^)]*)\);\n(.*?)^endmodule", src, re.M | re.S)
        assert m, u
        decls = [l.replace("output wire", "output reg") for l in m.group(2).split("\n") if re.match(r"\s*(input|output)\b", l)]
        outs = [re.search(r"(\w+);", l).group(1) for l in decls if "output" in l]
        assert len(outs) == 1, (u, outs)
        body = "\n".join(decls) + f"\n    always @(posedge clock) {outs[0]} <= a ^ b;\n"
        src = src[: m.start()] + f"module top${u}({m.group(1)});\n{body}" + src[m.end() - len("endmodule"):]
    return src


open(f"{work}/glue.v", "w").write(glue())
open(f"{work}/gate_unit.v", "w").write(gate(False))
open(f"{work}/gate_group.v", "w").write(gate(True))
open(f"{work}/skip.v", "w").write(skip())
open(f"{work}/skip_dflt.v", "w").write(skip(True))
print(f"variants.py: {len(units)} unit instances ({', '.join(kinds)}), {len(forms)} forms")
