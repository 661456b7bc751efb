"""Times two builds of `intent` side by side on one input, in interleaved rounds.

Usage: python3 Benchmarks/scripts/jsonl_side_by_side.py BEFORE AFTER [rounds] [lines.jsonl]
For each build and round: `intent bench LINES --split all --no-thresholds --repeat 1` (the
in-process throughput), then `parse --jsonl --jobs 1` and `--jobs 2` timed from launch to exit.
Prints each round and, per build, the median of each round's own ratios and the best of each
figure with the ratios the JSONL issue asks for.
The input must have 20,000 lines for the per-line figures (see RESULTS.md for how it is made).
"""
import os
import re
import statistics
import subprocess
import sys
import time

builds = {"before": sys.argv[1], "after": sys.argv[2]}
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 8
lines_path = sys.argv[4] if len(sys.argv) > 4 else "lines.jsonl"
with open(lines_path, "rb") as counted:
    line_count = sum(1 for _ in counted)
results = {name: {"bench": [], "j1": [], "j2": []} for name in builds}
for round_number in range(rounds):
    for name, binary in builds.items():
        output = subprocess.run(
            [binary, "bench", lines_path, "--split", "all", "--no-thresholds", "--repeat", "1"],
            capture_output=True, text=True).stdout
        match = re.search(r"throughput\s+([\d,]+)", output)
        results[name]["bench"].append(int(match.group(1).replace(",", "")) if match else 0)
        for jobs in (1, 2):
            with open(lines_path, "rb") as source:
                start = time.perf_counter()
                subprocess.run(
                    [binary, "parse", "--jsonl", "--jobs", str(jobs), "--now", "2026-11-30T09:00:00+08:00"],
                    stdin=source, stdout=subprocess.DEVNULL)
                results[name]["j%d" % jobs].append(time.perf_counter() - start)
    print("round", round_number + 1, "load %.2f" % os.getloadavg()[0],
          {name: (r["bench"][-1], round(r["j1"][-1], 3), round(r["j2"][-1], 3)) for name, r in results.items()},
          flush=True)
for name, r in results.items():
    # Each round's own ratios, bench and pipe run back to back: steadier than bests when the
    # machine's speed drifts between rounds.
    ratios = sorted((line_count / one) / bench for bench, one in zip(r["bench"], r["j1"]) if bench)
    speedups = sorted(one / two for one, two in zip(r["j1"], r["j2"]))
    print("%s: per-round jobs1/bench ratio median %.3f (%.3f-%.3f); jobs2 speed-up median %.2fx"
          % (name, statistics.median(ratios), ratios[0], ratios[-1], statistics.median(speedups)))
for name, r in results.items():
    bench, one, two = max(r["bench"]), min(r["j1"]), min(r["j2"])
    print("%s: bench best %d/s (%.2f us, rounds %d-%d); jobs1 best %.3f s (%.2f us/line, ratio %.3f); "
          "jobs2 best %.3f s (%.2f us/line, %.2fx jobs1)"
          % (name, bench, 1e6 / bench, min(r["bench"]), bench, one, one / line_count * 1e6,
             (line_count / one) / bench, two, two / line_count * 1e6, one / two))
