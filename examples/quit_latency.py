#!/usr/bin/env python3
"""Time from `quit` (sent during a `go infinite` search) to the engine's exit.

Usage: python3 examples/quit_latency.py target/release/cheversi THREADS RUNS
(issue 23, E4: run it with THREADS 64 on a 2-core machine)."""
import subprocess, sys, time, statistics
binary, threads, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
delays = [0.0, 0.005, 0.02, 0.1, 0.3]
res = []
for i in range(runs):
    p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True)
    p.stdin.write(f"setoption name Threads value {threads}\nisready\n"); p.stdin.flush()
    time.sleep(0.2)
    p.stdin.write("go infinite\n"); p.stdin.flush()
    time.sleep(delays[i % len(delays)])
    t = time.perf_counter()
    p.stdin.write("quit\n"); p.stdin.flush()
    p.wait()
    res.append((time.perf_counter() - t) * 1000)
res.sort()
print(f"threads {threads}: quit to exit over {runs} runs: median {statistics.median(res):.0f} ms, max {res[-1]:.0f} ms, all {[round(x) for x in res]}")
