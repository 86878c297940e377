"""Measure a JSON Lines or Parquet file of cells with ``plumb measure`` on a Dask cluster.

    from plumb_dask import measure_file
    stats = measure_file("cells.jsonl", "heights.jsonl", n_workers=2, plumb=".build/release/plumb")
    raise SystemExit(stats.exit_code)

The client reads the input in partitions of ``partition_lines`` lines, submits each as a Dask
task (with ``retries``), keeps a bounded number in flight, and writes the answers in input
order as the partitions finish. Each Dask worker process measures on long-lived
``plumb measure`` subprocesses (see ``plumb_dask._worker``). For JSON Lines input the output
is byte-identical to ``plumb measure INPUT`` with the same arguments, error lines and their
``"line"`` numbers included.
"""

from __future__ import annotations

import collections
import os
import time
import uuid
from dataclasses import dataclass
from typing import Optional, Sequence

from . import _worker
from ._partitions import read_partitions

__all__ = ["measure_file", "MeasureStats", "PlumbCommandError", "WorkersDisagree", "close_plumb_processes"]

DEFAULT_PARTITION_LINES = 5000

# Cells every worker measures before the run: the same answers everywhere, or the workers do
# not have the same fonts (or plumb builds) and would answer the same cell differently.
CANARY = "\n".join([
    '{"id":"latin","text":"The quick brown fox jumps over the lazy dog, 0123456789.","width":120}',
    '{"id":"cjk","text":"今天的天气非常好，我们一起去公园散步吧。","width":100}',
    '{"id":"arabic","text":"مرحبا بالعالم، هذا نص للاختبار","width":100}',
    '{"id":"devanagari","text":"नमस्ते दुनिया, यह एक परीक्षण है","width":100}',
    '{"id":"emoji","text":"See you at 8 👋🏽 — bring the 🇯🇵 snacks!","width":100}',
]).encode() + b"\n"


class PlumbCommandError(RuntimeError):
    """``plumb measure`` with the given arguments does not run on a worker (not found, or an
    option it rejects); ``status`` is its exit status (127: not found, 64: a usage error)."""

    def __init__(self, worker: str, status: int, message: str):
        first_line = message.splitlines()[0] if message else "(no message)"  # not the usage text after it
        super().__init__(f"plumb measure failed on worker {worker} with status {status}: {first_line}")
        self.worker, self.status, self.message = worker, status, message


class WorkersDisagree(RuntimeError):
    """Workers give different answers to the same cells: their fonts (or plumb) differ."""


@dataclass
class MeasureStats:
    """What a run did."""

    input_lines: int = 0
    """Lines (or Parquet rows) read, blank ones included."""
    results: int = 0
    """Answer lines written (one per non-blank line)."""
    errors: int = 0
    """Error lines among them."""
    partitions: int = 0
    workers: int = 0
    seconds: float = 0.0
    """Wall time of the run (the start of a local cluster made for it included)."""

    @property
    def exit_code(self) -> int:
        """What ``plumb measure`` would exit with: 1 if any line was an error, else 0."""
        return 1 if self.errors else 0

    @property
    def lines_per_second(self) -> float:
        return self.input_lines / self.seconds if self.seconds else 0.0


def plumb_command(plumb: str, plumb_args: Sequence[str] = (), cache: Optional[str] = None) -> list[str]:
    """The ``plumb measure`` command every worker runs. A relative path with a slash (the
    binary, the cache) is made absolute here, on the client: local workers share its folder,
    and on a real cluster give paths as they are on the workers."""
    args = list(plumb_args)
    if "--list" in args:
        raise ValueError("--list keeps one running offset over the whole input: it cannot be split into partitions")
    if os.sep in plumb and not os.path.isabs(plumb):
        plumb = os.path.abspath(plumb)
    if cache is not None:
        args += ["--cache", os.path.abspath(cache)]
    return [plumb, "measure", *args]


def check_workers(client, command: Sequence[str]) -> int:
    """Runs ``command`` on the canary cells on every worker; raises ``PlumbCommandError`` if it
    fails anywhere and ``WorkersDisagree`` if the answers differ. Returns the worker count."""
    answers = client.run(_worker.probe, list(command), CANARY)
    if not answers:
        raise RuntimeError("the Dask cluster has no workers")
    for worker, (status, _, message) in sorted(answers.items()):
        if status not in (0, 1):  # 1: it ran, and some canary line is an error under these options
            raise PlumbCommandError(worker, status, message)
    distinct = {out for _, out, _ in answers.values()}
    if len(distinct) > 1:
        groups = collections.defaultdict(list)
        for worker, (_, out, _) in answers.items():
            groups[out].append(worker)
        raise WorkersDisagree(
            "workers measure the same cells differently (are the same fonts and plumb installed on every machine?): "
            + "; ".join(", ".join(sorted(ws)) for ws in groups.values()))
    return len(answers)


def close_plumb_processes(client) -> int:
    """Ends the idle ``plumb`` processes of every worker (they otherwise live as long as the
    worker, which is the point: warm caches for the next run). Returns how many ended."""
    return sum(client.run(_worker.close_all).values())


def measure_file(
    input_path: str,
    output_path: str,
    *,
    client=None,
    n_workers: Optional[int] = None,
    plumb: str = "plumb",
    plumb_args: Sequence[str] = (),
    partition_lines: int = DEFAULT_PARTITION_LINES,
    cache: Optional[str] = None,
    retries: int = 3,
    max_in_flight: Optional[int] = None,
) -> MeasureStats:
    """Measures every cell of ``input_path`` (JSON Lines, ``-`` for standard input, or
    ``*.parquet``) with ``plumb measure`` on a Dask cluster and writes the answers, in input
    order, to ``output_path`` (``-``: standard output).

    - ``client``: a ``distributed.Client`` of the cluster to use; without one, a
      ``LocalCluster`` of ``n_workers`` processes (default: one per core), one thread each,
      is started and closed here.
    - ``plumb``, ``plumb_args``: the binary as the workers find it, and the arguments after
      ``plumb measure`` (never an input file, nor ``--list``).
    - ``cache``: passed as ``--cache FILE``: plumb's persistent cache, one file per machine,
      shared by that machine's plumb processes.
    - ``partition_lines``: lines per task: larger costs less per line, smaller balances
      better and makes a retry cheaper. ``retries``: how often a failed task is run again.
    - ``max_in_flight``: partitions submitted and not yet written (default: twice the
      cluster's threads, at least 2): what bounds the client's memory.

    The output file is written under a temporary name and renamed when complete, so a failed
    run leaves none. Returns a ``MeasureStats``; its ``exit_code`` mirrors plumb's.
    """
    from distributed import Client, LocalCluster  # imported late: `--help` stays fast

    if client is not None and n_workers is not None:
        raise ValueError("give either client or n_workers, not both")
    command = plumb_command(plumb, plumb_args, cache)
    if input_path != "-" and not os.path.isfile(input_path):  # before a cluster is started
        raise FileNotFoundError(f"no such input file: {input_path}")
    started = time.perf_counter()
    own_cluster = None
    if client is None:
        # dashboard_address ":0": any free port for the scheduler's web server (None still takes 8787).
        own_cluster = LocalCluster(
            n_workers=n_workers or os.cpu_count() or 1, threads_per_worker=1, processes=True, dashboard_address=":0")
        client = Client(own_cluster)
    try:
        stats = MeasureStats(workers=check_workers(client, command))
        if max_in_flight is None:
            max_in_flight = max(2, 2 * sum(client.nthreads().values()))
        with _Output(output_path) as out:
            _run(client, command, input_path, out, stats, partition_lines, retries, max_in_flight)
        stats.seconds = time.perf_counter() - started
        return stats
    finally:
        if own_cluster is not None:
            client.close()
            own_cluster.close()


def _run(client, command, input_path, out, stats, partition_lines, retries, max_in_flight) -> None:
    """Submits the partitions, at most ``max_in_flight`` at a time, and writes their answers
    in partition order: the oldest future is waited for first, later ones finish meanwhile."""
    run_id = uuid.uuid4().hex[:12]
    in_flight: collections.deque = collections.deque()

    def write_oldest() -> None:
        result = in_flight.popleft().result()  # raises the task's error once retries are spent
        out.write(result.output)
        stats.results += result.results
        stats.errors += result.errors

    try:
        for part in read_partitions(input_path, partition_lines):
            if len(in_flight) >= max_in_flight:
                write_oldest()
            in_flight.append(client.submit(
                _worker.measure_partition, command, part.index, part.blob, part.line_count, part.first_line,
                key=f"plumb-partition-{run_id}-{part.index}", retries=retries, pure=False))
            stats.input_lines += part.line_count
            stats.partitions += 1
        while in_flight:
            write_oldest()
    finally:
        for future in in_flight:  # after an error: do not leave work on the cluster
            future.cancel()


class _Output:
    """The output file, written as ``NAME.partial-PID`` and renamed on success (``-``:
    standard output, written as it comes)."""

    def __init__(self, path: str):
        self.path = path
        self.temporary = None if path == "-" else f"{path}.partial-{os.getpid()}"

    def __enter__(self):
        import sys

        self.file = sys.stdout.buffer if self.temporary is None else open(self.temporary, "wb")
        return self.file

    def __exit__(self, kind, value, traceback):
        if self.temporary is None:
            self.file.flush()
            return
        self.file.close()
        if kind is None:
            os.replace(self.temporary, self.path)
        else:
            os.unlink(self.temporary)
