#!/usr/bin/env python3
"""Writes the fixed sample of fixture lines that instruction counts are measured on.

Usage: Benchmarks/callgrind-sample.py [N] > sample.jsonl

The sample is N (default 2,000) `dev` lines of the fixture files under Fixtures/, drawn with the
fixed seed below after sorting, so the same lines come out every time the fixture files hold them.
Measure with the release binary and a fixed clock:

  valgrind --tool=callgrind --toggle-collect='$s12IntentEngine0B0V5parse_7contextAA11ParseResultVSS_AA0E7ContextVtF' \\
    .build/release/intent parse --jsonl --jobs 1 --now 2026-11-30T09:00:00+08:00 < sample.jsonl > /dev/null

and divide the instructions collected by the number of lines.
"""
import glob
import json
import random
import sys

SEED = 20261201

def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    lines = []
    for path in sorted(glob.glob("Fixtures/*/*.jsonl")):
        if "/entities/" in path:
            continue
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                fixture = json.loads(line)
                if fixture.get("split") == "dev":
                    lines.append(fixture["text"])
    lines = sorted(set(lines))
    random.Random(SEED).shuffle(lines)
    for text in lines[:count]:
        print(json.dumps({"text": text}, ensure_ascii=False))

if __name__ == "__main__":
    main()
