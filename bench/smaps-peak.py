#!/usr/bin/env python3
"""Runs a command and prints where its resident memory was at its peak (Linux).

    python3 bench/smaps-peak.py node dist/cli.mjs scan ../shared/corpus --index /tmp/idx

Samples /proc/<pid>/smaps every 0.1 s and keeps the sample with the most resident memory, then
groups its mappings: glibc malloc arenas of other threads are 64 MiB mappings, V8 heap pages are
256 KiB ones, WebAssembly memories sit in front of multi-GiB reservations, [heap] is the main
thread's arena, and the node binary is its code. A peak between two samples can be missed.
"""
import re
import subprocess
import sys
import time
from collections import defaultdict

MAPPING = re.compile(r'^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$')


def sample(pid):
    maps, cur = [], None
    with open(f'/proc/{pid}/smaps') as f:
        for line in f:
            m = MAPPING.match(line)
            if m:
                cur = {'size': int(m[2], 16) - int(m[1], 16), 'name': m[4] or '', 'rss': 0}
                maps.append(cur)
            elif line.startswith('Rss:') and cur is not None:
                cur['rss'] = int(line.split()[1]) * 1024
    return maps


def kind(m):
    if m['name']:
        return m['name']
    mib = m['size'] >> 20
    if mib >= 60 and mib <= 64:
        return 'anonymous ~64 MiB (a malloc arena, or a wasm memory)'
    if m['size'] < 1 << 20:
        return 'anonymous < 1 MiB (V8 heap pages, thread stacks)'
    return f'anonymous {mib} MiB'


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    proc = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
    best, best_total = [], 0
    while proc.poll() is None:
        try:
            maps = sample(proc.pid)
        except (FileNotFoundError, ProcessLookupError):
            break
        total = sum(m['rss'] for m in maps)
        if total > best_total:
            best, best_total = maps, total
        time.sleep(0.1)
    groups = defaultdict(lambda: [0, 0])
    for m in best:
        g = groups[kind(m)]
        g[0] += 1
        g[1] += m['rss']
    print(f'peak resident: {best_total >> 20} MiB (exit {proc.returncode})')
    for name, (count, rss) in sorted(groups.items(), key=lambda kv: -kv[1][1]):
        if rss >= 1 << 20:
            print(f'{rss >> 20:6d} MiB  {count:4d} mapping(s)  {name}')


if __name__ == '__main__':
    main()
