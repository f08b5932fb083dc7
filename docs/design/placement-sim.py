#!/usr/bin/env python3
"""Greedy GC with and without placement tags: the reference numbers of docs/design/placement.md
(section 6, marked "sim"). One die of 512 blocks of 64 pages, user/raw 0.8, greedy victims, a
sequential fill, then 30 drive writes of the workload; WA over the last 20. Not the engine: a
check of what the engine's tests should see. Runs in about three minutes.

    python3 docs/design/placement-sim.py
"""
import math
import random


def greedy_wa_theory(rho):
    """(u - 1) / ln u = rho, WA = 1 / (1 - u): the engine's greedy_wa_theory."""
    lo, hi = 1e-12, 1 - 1e-12
    for _ in range(200):
        u = (lo + hi) / 2
        if (u - 1) / math.log(u) < rho:
            lo = u
        else:
            hi = u
    return 1 / (1 - (lo + hi) / 2)


def run(streams, tagged=False, persistent=False, nblocks=512, ppb=64, rho=0.8, dw=30, seed=1, reserve=2):
    """streams: (share of the data, share of the writes, 'rand' or 'seq') per region. Tagged: one
    open block per region; persistent: GC relocations keep their region's own GC block."""
    rnd = random.Random(seed)
    lpas = int(nblocks * ppb * rho)
    regions, start = [], 0
    for i, (data, writes, pattern) in enumerate(streams):
        n = int(lpas * data) if i < len(streams) - 1 else lpas - start
        regions.append((start, n, writes, pattern))
        start += n
    cum = [sum(r[2] for r in regions[: i + 1]) for i in range(len(regions))]
    nt = len(streams) if tagged else 1
    valid, content, tag = [0] * nblocks, [[] for _ in range(nblocks)], [0] * nblocks
    free, where, closed = list(range(nblocks)), [None] * lpas, set()
    # Streams: host 0..nt-1, then one shared GC stream (nt), then a GC stream per tag.
    open_block, fill = [None] * (2 * nt + 1), [0] * (2 * nt + 1)
    counts = {"nand": 0}

    def place(lpa, s):
        if open_block[s] is None or fill[s] == ppb:
            if open_block[s] is not None:
                closed.add(open_block[s])
            b = free.pop()
            open_block[s], fill[s], content[b] = b, 0, []
            tag[b] = s if s < nt else s - nt - 1
        b = open_block[s]
        content[b].append(lpa)
        fill[s] += 1
        if where[lpa] is not None:
            valid[where[lpa][0]] -= 1
        where[lpa] = (b, len(content[b]) - 1)
        valid[b] += 1
        counts["nand"] += 1

    def collect():
        while len(free) <= reserve:
            v = min(closed, key=lambda b: valid[b])
            closed.discard(v)
            for i, lpa in enumerate(content[v]):
                if where[lpa] == (v, i):
                    place(lpa, nt + 1 + tag[v] if persistent else nt)
            valid[v], content[v] = 0, []
            free.append(v)

    for i, (a, n, _, _) in enumerate(regions):
        for lpa in range(a, a + n):
            collect()
            place(lpa, i if tagged else 0)
    cursor = [0] * len(regions)
    total, warm = lpas * dw, lpas * dw // 3
    host = host0 = nand0 = 0
    for k in range(total):
        if k == warm:
            host0, nand0 = host, counts["nand"]
        x = rnd.random()
        i = next((j for j, c in enumerate(cum) if x < c), len(cum) - 1)
        a, n, _, pattern = regions[i]
        if pattern == "rand":
            lpa = a + rnd.randrange(n)
        else:
            lpa, cursor[i] = a + cursor[i], (cursor[i] + 1) % n
        collect()
        host += 1
        place(lpa, i if tagged else 0)
    return (counts["nand"] - nand0) / (host - host0)


if __name__ == "__main__":
    uniform = [(1.0, 1.0, "rand")]
    hot_cold = [(0.1, 0.9, "rand"), (0.9, 0.1, "rand")]
    three_seq = [(0.2, 0.5, "seq"), (0.3, 0.3, "seq"), (0.5, 0.2, "seq")]
    three_rand = [(0.2, 0.5, "rand"), (0.3, 0.3, "rand"), (0.5, 0.2, "rand")]
    print("greedy_wa_theory(0.8)                  %.3f" % greedy_wa_theory(0.8))
    print("uniform                                %.3f" % run(uniform))
    print("3 sequential regions, untagged         %.3f" % run(three_seq))
    print("3 sequential regions, tagged           %.3f" % run(three_seq, tagged=True))
    print("3 uniform regions, tagged, shared GC   %.3f" % run(three_rand, tagged=True))
    print("3 uniform regions, tagged, GC per tag  %.3f" % run(three_rand, tagged=True, persistent=True))
    print("hot/cold 90/10, untagged               %.3f" % run(hot_cold))
    print("hot/cold 90/10, tagged, shared GC      %.3f" % run(hot_cold, tagged=True))
    print("hot/cold 90/10, tagged, GC per tag     %.3f" % run(hot_cold, tagged=True, persistent=True))
