#!/usr/bin/env python3
"""Times `intent run` on a generated Apple Health export of a given size and reports peak memory.

Usage: Benchmarks/health-export.py <intent binary> [megabytes, default 100] [runs, default 3]

Writes an export in the real format (DOCTYPE with its ATTLISTs, <HealthData>, step, heart-rate
and sleep <Record>s over a year, metadata children) to a temporary folder, then runs
`intent run --json --route local --now 2026-11-30T18:00:00+08:00 "<question>"` against it for
each metric and reports wall time and peak resident memory (the child's ru_maxrss).
"""
import os
import random
import resource
import subprocess
import sys
import tempfile
import time

HEAD = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE HealthData [
<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary)*)>
<!ATTLIST HealthData
  locale CDATA #REQUIRED
>
<!ELEMENT ExportDate EMPTY>
<!ATTLIST ExportDate
  value CDATA #REQUIRED
>
<!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
<!ATTLIST Record
  type          CDATA #REQUIRED
  unit          CDATA #IMPLIED
  value         CDATA #IMPLIED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
]>
<HealthData locale="zh_CN">
 <ExportDate value="2026-11-30 18:00:00 +0800"/>
 <Me HKCharacteristicTypeIdentifierDateOfBirth="" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexNotSet"/>
"""
DEVICE = ('&lt;&lt;HKDevice: 0x600003a1c0f0&gt;, name:Apple Watch, manufacturer:Apple Inc., '
          'model:Watch, hardware:Watch6,2, software:10.1&gt;')


def stamp(seconds):
    t = time.gmtime(seconds + 8 * 3600)
    return time.strftime("%Y-%m-%d %H:%M:%S +0800", t)


def write_export(path, megabytes):
    rng = random.Random(7)
    end = 1796032800  # 2026-11-30T18:00:00+08:00
    limit = megabytes * 1024 * 1024
    with open(path, "w", encoding="utf-8") as out:
        out.write(HEAD)
        size = len(HEAD)
        t = end - 365 * 86400
        # Spread the records (about 340 bytes each on average) evenly over the year.
        step = max(1.0, 365 * 86400 * 340 / limit)
        while size < limit:
            kind = rng.random()
            start = int(t)
            if kind < 0.55:
                line = (f' <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" '
                        f'sourceVersion="17.1" unit="count" creationDate="{stamp(start + 600)}" '
                        f'startDate="{stamp(start)}" endDate="{stamp(start + 600)}" '
                        f'value="{rng.randint(10, 1500)}"/>\n')
            elif kind < 0.95:
                line = (f' <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Apple Watch" '
                        f'sourceVersion="10.1" device="{DEVICE}" unit="count/min" '
                        f'creationDate="{stamp(start + 5)}" startDate="{stamp(start)}" '
                        f'endDate="{stamp(start)}" value="{rng.randint(50, 160)}">\n'
                        f'  <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="0"/>\n'
                        f' </Record>\n')
            else:
                value = rng.choice(["AsleepCore", "AsleepDeep", "AsleepREM", "InBed", "Awake"])
                line = (f' <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Apple Watch" '
                        f'sourceVersion="10.1" creationDate="{stamp(start + 1800)}" '
                        f'startDate="{stamp(start)}" endDate="{stamp(start + 1800)}" '
                        f'value="HKCategoryValueSleepAnalysis{value}"/>\n')
            out.write(line)
            size += len(line.encode("utf-8"))
            t += step
            if t >= end:
                t = end - 365 * 86400 + rng.randint(0, 3600)
        out.write("</HealthData>\n")
    return os.path.getsize(path)


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    binary = sys.argv[1]
    megabytes = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    with tempfile.TemporaryDirectory() as folder:
        export = os.path.join(folder, "export.xml")
        size = write_export(export, megabytes)
        print(f"export: {size / 1048576:.1f} MiB")
        env = dict(os.environ, INTENT_HEALTH_EXPORT=export, INTENT_DATA_DIR=folder,
                   TZ="Asia/Shanghai")
        for question in ["how many steps did I take last week", "what's my heart rate today",
                         "how did I sleep last night"]:
            times = []
            peak = 0
            for _ in range(runs):
                before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
                start = time.monotonic()
                done = subprocess.run(
                    [binary, "run", "--json", "--route", "local", "--now",
                     "2026-11-30T18:00:00+08:00", question],
                    env=env, capture_output=True, text=True)
                times.append(time.monotonic() - start)
                peak = max(peak, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, before)
                if done.returncode != 0:
                    print(done.stdout, done.stderr)
                    return 1
            message = [line for line in done.stdout.splitlines() if '"message"' in line]
            times.sort()
            print(f"{question!r}: median {times[len(times) // 2]:.2f} s "
                  f"(min {times[0]:.2f}, max {times[-1]:.2f}), peak RSS {peak / 1024:.1f} MiB; "
                  f"{message[0].strip() if message else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
