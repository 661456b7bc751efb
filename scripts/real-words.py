#!/usr/bin/env python3
"""Regenerates `list real_words_en` in Grammars/en/lists.grammar.

A real word one edit from a keyword ("time" and "timer", "books" and "boots") is weaker evidence
than a slip that is no word ("timmer"): the engine reads it as the keyword only when a slot's
value backs it. The list holds the common English words (Zipf frequency >= 3, about one per
million words) that lie one edit from a single-word keyword or list word of five letters or more,
or two neighbouring letters swapped from one of four ("form" of "from"), and are no inflection of
it ("hours" of "hour", "deleted" of "delete" stay slips).

Maintenance only, not part of the build: needs `pip install wordfreq`.
Usage: scripts/real-words.py            (rewrites the list in place)
"""
import pathlib
import re

from wordfreq import top_n_list, zipf_frequency

ROOT = pathlib.Path(__file__).resolve().parent.parent
LISTS = ROOT / "Grammars/en/lists.grammar"
# Common on the web as misspellings of a keyword rather than as words of their own.
SLIPS = {"rite", "writ", "alam", "prolly", "thee", "ther"}


def keywords():
    words = set()
    for path in sorted((ROOT / "Grammars/en").glob("*.grammar")):
        for line in path.read_text().splitlines():
            m = re.match(r"\s*(keywords\s+\w+|list\s+\w+|exclude)[^:]*:(.*)", line)
            if not m or m.group(1).startswith("list real_words"):
                continue
            for item in m.group(2).lower().split(","):
                item = item.strip()
                if re.fullmatch(r"[a-z]{4,12}", item):
                    words.add(item)
    return words


def one_edit(a, b):
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        d = [i for i in range(len(a)) if a[i] != b[i]]
        return len(d) == 1 or (
            len(d) == 2 and d[1] == d[0] + 1 and a[d[0]] == b[d[1]] and a[d[1]] == b[d[0]])
    long, short = (a, b) if len(a) > len(b) else (b, a)
    return any(long[:i] + long[i + 1:] == short for i in range(len(long)))


def swap(a, b):
    d = [i for i in range(len(a)) if len(a) == len(b) and a[i] != b[i]]
    return len(d) == 2 and d[1] == d[0] + 1 and a[d[0]] == b[d[1]] and a[d[1]] == b[d[0]]


def near(word, keyword):
    return swap(word, keyword) if len(keyword) == 4 else one_edit(word, keyword)


def inflection(a, b):
    long, short = (a, b) if len(a) > len(b) else (b, a)
    return (long.startswith(short) and long[len(short):] in ("s", "d", "es", "ed")) or (
        short.endswith("in") and short + "g" == long)


def main():
    kws = keywords()
    real = []
    for word in top_n_list("en", 80000):
        if not re.fullmatch(r"[a-z]{4,12}", word) or word in SLIPS:
            continue
        if zipf_frequency(word, "en") < 3.0:
            continue
        if any(near(word, k) and not inflection(word, k) for k in kws):
            real.append(word)
    line = "list real_words_en: " + ", ".join(sorted(real))
    text = LISTS.read_text()
    text, n = re.subn(r"list real_words_en: [^\n]*", line, text)
    assert n == 1, "list real_words_en not found"
    LISTS.write_text(text)
    print(f"{len(real)} real words")


if __name__ == "__main__":
    main()
