"""Times Home Assistant's hassil (recognize_best, in process) on the Chinese lines of a file.

Usage: python3 Benchmarks/scripts/hassil_bench.py <lines.jsonl> [max lines]
Needs: pip install hassil home-assistant-intents. Prints the median and mean per sentence.
"""
import json
import statistics
import sys
import time

import home_assistant_intents
from hassil import Intents, TextSlotList, recognize_best
from hassil.errors import MissingListError

path = sys.argv[1]
limit = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
texts = []
with open(path, encoding="utf-8") as lines:
    for line in lines:
        try:
            item = json.loads(line)
        except ValueError:
            continue
        if item.get("lang") == "zh":
            texts.append(item["text"])
        if len(texts) >= limit:
            break

start = time.perf_counter()
intents = Intents.from_dict(home_assistant_intents.get_intents("zh-CN"))
load = time.perf_counter() - start
# Lists a Home Assistant install fills from its devices and areas: a few typical names.
slot_lists = {}
while True:
    try:
        recognize_best("打开客厅的灯", intents, slot_lists=slot_lists, language="zh-CN")
        break
    except MissingListError as error:
        name = str(error).split("{")[-1].rstrip("}")
        slot_lists[name] = TextSlotList.from_strings(["客厅", "卧室", "灯", "空调", "窗帘"])
times = []
matched = 0
for text in texts:
    begin = time.perf_counter_ns()
    result = recognize_best(text, intents, slot_lists=slot_lists, language="zh-CN")
    times.append(time.perf_counter_ns() - begin)
    matched += result is not None
median = statistics.median(times) / 1000
print(
    f"hassil {sys.modules['hassil'].__name__}: {len(texts)} zh lines, load {load * 1000:.0f} ms, "
    f"median {median:.1f} us, mean {statistics.mean(times) / 1000:.1f} us, matched {matched}"
)
