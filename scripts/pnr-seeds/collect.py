#!/usr/bin/env python3
"""Rows for synth/reports/*-seeds.csv from scripts/pnr-seeds/run.sh results.

    tar xzf res.tgz -C DIR        # the res.tgz that run.sh leaves in $OUT
    python3 scripts/pnr-seeds/collect.py --commit LABEL --jobs target/pnr-kit/jobs.txt DIR

Prints one CSV row per finished job (machine,commit,nextpnr_options,fmax_mhz,
critical_path_ns,routing_ns,from,to), then the median, mean, min and max of fmax on stderr;
jobs that did not finish routing are named on stderr with the last line of their route.log.
"""
import argparse, json, os, statistics, sys

ap = argparse.ArgumentParser()
ap.add_argument("dir", help="folder with <job>/report.json (and <job>/route.log)")
ap.add_argument("--commit", required=True, help="the netlist's label in the CSV (a commit or a phase name)")
ap.add_argument("--jobs", default="target/pnr-kit/jobs.txt", help="the kit's jobs.txt (job name -> options)")
ap.add_argument("--machine", default="lent-16c")
a = ap.parse_args()

opts = {}
if os.path.exists(a.jobs):
    for line in open(a.jobs):
        w = line.split()
        if len(w) >= 2:
            opts[w[0]] = " ".join(w[2:])

def key(j):
    digits = "".join(c for c in j if c.isdigit())
    return (int(digits) if digits else 0, j)

fmaxes = []
for job in sorted(os.listdir(a.dir), key=key):
    d = os.path.join(a.dir, job)
    rep = os.path.join(d, "report.json")
    if not os.path.isdir(d):
        continue
    if not os.path.exists(rep):
        log = os.path.join(d, "route.log")
        last = open(log).read().strip().splitlines()[-1:] if os.path.exists(log) else ["no route.log"]
        print(f"{job}: not finished ({last[0] if last else ''})", file=sys.stderr)
        continue
    r = json.load(open(rep))
    fmax = min(v["achieved"] for v in r["fmax"].values())
    # The slowest clock-to-clock path (port paths, `<async>`, only when there is none), as
    # `redunit synth` reports it.
    paths = r.get("critical_paths", [])
    sync = [p for p in paths if "<async>" not in (p.get("from"), p.get("to"))]
    cp = max(sync or paths, key=lambda p: sum(s["delay"] for s in p["path"]), default=None)
    total = routing = 0.0
    src = dst = ""
    if cp:
        total = sum(s["delay"] for s in cp["path"])
        routing = sum(s["delay"] for s in cp["path"] if s["type"] == "routing")
        src = cp["path"][0]["from"]["cell"]
        dst = cp["path"][-1]["to"]["cell"]
    fmaxes.append(fmax)
    print(f"{a.machine},{a.commit},{opts.get(job, '')},{fmax:.2f},{total:.2f},{routing:.2f},{src},{dst}")
if fmaxes:
    print(f"{a.commit}: {len(fmaxes)} placements, median {statistics.median(fmaxes):.1f}, mean "
          f"{statistics.mean(fmaxes):.1f}, min {min(fmaxes):.1f}, max {max(fmaxes):.1f} MHz", file=sys.stderr)
