#!/usr/bin/env python3
"""Logic levels between registers in a `redunit synth` netlist (synth/out/<top>/top.json), a
quick proxy for the critical paths before place and route (an hour per seed on 2 cores).

    python3 scripts/logic-depth.py synth/out/unit-fp14-h9-int2/top.json [N [K]]

Prints the N deepest register inputs (one per distinct source), each with its path, and the
K deepest in full (every cell on the way). Weights: LUT4 and a carry cell's data input 1,
PFUMX / L6MUX21 0.4, a carry-in 0.15-0.5, a block RAM's output 2. At 150 MHz on the ECP5
(speed 6) about 5-6 levels fit in a cycle, routing included; deeper paths are where to look.
"""
import json, sys
d = json.load(open(sys.argv[1]))
mod = d["modules"]["top"]
cells = mod["cells"]; nets = mod["netnames"]
bitname = {}
for n, v in nets.items():
    for i, b in enumerate(v["bits"]):
        if isinstance(b, int):
            nm = n if len(v["bits"]) == 1 else f"{n}[{i}]"
            if b not in bitname or (nm.startswith("$") is False and bitname[b].startswith("$")) or len(nm) < len(bitname[b]) and not nm.startswith("$"):
                bitname[b] = nm
driver = {}   # bit -> (cell, outport)
comb_in = {}  # cell -> list of (inport, bit)
W = {"LUT4":1.0, "PFUMX":0.4, "L6MUX21":0.4, "CCU2C":1.0}
seq = {"TRELLIS_FF", "DP16KD", "TRELLIS_DPR16X4"}
for cn, c in cells.items():
    t = c["type"]
    for p, bits in c["connections"].items():
        dirn = c["port_directions"].get(p)
        for b in bits:
            if not isinstance(b, int): continue
            if dirn == "output": driver[b] = (cn, p)
arr = {}; prev = {}
sys.setrecursionlimit(100000)
def arrival(b):
    if b in arr: return arr[b]
    dr = driver.get(b)
    if dr is None: arr[b] = 0.0; return 0.0
    cn, p = dr; c = cells[cn]; t = c["type"]
    if t in seq or t not in W:
        arr[b] = 2.0 if t == "DP16KD" else (1.0 if t == "TRELLIS_DPR16X4" else 0.0); prev[b]=None; return arr[b]
    arr[b] = -1  # loop guard
    best = 0.0; bp = None
    for ip, bits in c["connections"].items():
        if c["port_directions"].get(ip) != "input": continue
        for ib in bits:
            if not isinstance(ib, int): continue
            if t == "CCU2C":
                if ip == "CIN": w = 0.15 if p == "COUT" else 0.5
                else: w = 1.0 if p in ("S0","S1") else 0.6
            else: w = W[t]
            a = arrival(ib) + w
            if a > best: best, bp = a, ib
    arr[b] = best; prev[b] = bp
    return best
ends = []
for cn, c in cells.items():
    if c["type"] in seq:
        for ip, bits in c["connections"].items():
            if c["port_directions"].get(ip) != "input" or ip in ("CLK","CLKA","CLKB","WCK"): continue
            for ib in bits:
                if isinstance(ib, int):
                    ends.append((arrival(ib), cn, ip, ib))
ends.sort(reverse=True)
seen = set(); k = 0
for a, cn, ip, ib in ends:
    chain = []; b = ib
    while b is not None:
        chain.append(bitname.get(b, str(b))); b = prev.get(b)
    key = chain[-1]
    if key in seen: continue
    seen.add(key); k += 1
    print(f"{a:5.1f} -> {cn[:60]}.{ip}")
    print("      " + " <- ".join(x[:50] for x in chain[:14]))
    if k >= int(sys.argv[2] if len(sys.argv) > 2 else 25): break

if len(sys.argv) > 3:
    for a, cn, ip, ib in ends[:int(sys.argv[3])]:
        print(f"== {a:.1f} {cn}.{ip}")
        b = ib
        while b is not None:
            dr = driver.get(b)
            print(f"   {arr.get(b,0):4.1f} {bitname.get(b, b)}  [{cells[dr[0]]['type'] if dr else 'in'} {dr[1] if dr else ''}]")
            b = prev.get(b)
