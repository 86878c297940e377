"""Throughput of plumb_dask on 1 and 2 local workers against one ``plumb measure``.

    /opt/plumb-dask-venv/bin/python Integrations/dask/bench.py --plumb .build/release/plumb [--cells 100000]

The cells are the benchmark corpus (``Benchmarks/Corpus/cells.jsonl``) repeated to
``--cells`` lines, each text made unique (its number appended) so that no run is a cache
replay. Every configuration runs once per round, ``--repeat`` rounds, interleaved so that a
shared machine's slow minute falls on all of them alike; the best wall time of each is
reported, with lines per second and the median. A Dask run's time is ``measure_file`` on a
cluster already started: it includes the canary check and the start of its plumb processes,
which are ended (untimed) after each run so that none answers from an earlier run's cache.
The clusters' own start is reported apart. Every output is checked to be byte-identical to
the single ``plumb measure``'s.

On one machine the workers share its cores with each other and with the client, so 2 workers
cannot beat one plumb that already uses every core: the figure says what the distribution
costs. ``--threads`` sets plumb's ``--workers`` (measuring threads per plumb process).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HERE), os.environ.get("PYTHONPATH")]))

import plumb_dask  # noqa: E402

CORPUS = HERE.parents[1] / "Benchmarks/Corpus/cells.jsonl"


def make_cells(path: Path, count: int) -> None:
    cells = [json.loads(line) for line in CORPUS.read_text().splitlines() if line.strip()]
    with path.open("w") as f:
        for i in range(count):
            cell = cells[i % len(cells)]
            f.write(json.dumps({"id": i, "text": f"{cell['text']} {i}"}, ensure_ascii=False) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plumb", required=True, help="the plumb binary (a release build)")
    parser.add_argument("--cells", type=int, default=100_000)
    parser.add_argument("--partition-lines", type=int, default=plumb_dask.DEFAULT_PARTITION_LINES)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, nargs="*", default=[0, 1],
                        help="plumb --workers values to try (0: plumb's default, every core)")
    args = parser.parse_args()
    plumb = os.path.abspath(args.plumb)

    from distributed import Client, LocalCluster

    def thread_args(threads: int) -> list[str]:
        return ["--workers", str(threads)] if threads else []

    def label(threads: int) -> str:
        return f"plumb --workers {threads}" if threads else "plumb default threads"

    with tempfile.TemporaryDirectory() as d:
        cells, reference, out = Path(d) / "cells.jsonl", Path(d) / "reference.jsonl", Path(d) / "out.jsonl"
        make_cells(cells, args.cells)
        subprocess.run([plumb, "measure", str(cells)], stdout=reference.open("wb"), check=False)
        expected = reference.read_bytes()

        clients = {}
        for workers in (1, 2):
            started = time.perf_counter()
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                   dashboard_address=":0", silence_logs=logging.ERROR)
            clients[workers] = Client(cluster)
            print(f"cluster of {workers} started in {time.perf_counter() - started:.2f} s", file=sys.stderr)

        # (name, run, check): each run is timed; check (untimed) verifies and resets.
        configs = []
        for threads in args.threads:
            def single(threads=threads):
                with out.open("wb") as f:
                    subprocess.run([plumb, "measure", str(cells), *thread_args(threads)], stdout=f, check=False)

            configs.append((f"one plumb measure, {label(threads)}", single, lambda: None))
        for workers, client in clients.items():
            for threads in args.threads:
                def dask_run(client=client, threads=threads):
                    plumb_dask.measure_file(str(cells), str(out), client=client, plumb=plumb,
                                            plumb_args=thread_args(threads), partition_lines=args.partition_lines)

                configs.append((f"plumb_dask, {workers} worker{'s' * (workers > 1)}, {label(threads)}", dask_run,
                                lambda client=client: plumb_dask.close_plumb_processes(client)))

        times = {name: [] for name, _, _ in configs}
        try:
            for _ in range(args.repeat):
                for name, run, reset in configs:
                    started = time.perf_counter()
                    run()
                    times[name].append(time.perf_counter() - started)
                    reset()
                    if out.read_bytes() != expected:
                        raise SystemExit(f"{name}: output differs from plumb measure's")
        finally:
            for client in reversed(clients.values()):  # last first: each restores the log level it found
                cluster = client.cluster
                client.close()
                cluster.close()

    print(f"{args.cells} cells, partitions of {args.partition_lines} lines, {args.repeat} interleaved rounds, "
          f"{os.cpu_count()} cores, {plumb}")
    print("| configuration | best s | lines/s (best) | median s |")
    print("| --- | ---: | ---: | ---: |")
    for name, seconds in times.items():
        print(f"| {name} | {min(seconds):.2f} | {args.cells / min(seconds):,.0f} | {statistics.median(seconds):.2f} |")


if __name__ == "__main__":
    main()
