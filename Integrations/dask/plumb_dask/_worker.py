"""The worker side: long-lived ``plumb measure`` processes and the task that feeds them.

Each Dask worker process keeps a small pool of ``plumb measure`` subprocesses per command
(the plumb path and its arguments), reused by every task that asks for the same command: a
process pays for its start (fonts, caches) once, not once per partition, and its in-memory
caches stay warm across partitions. A task checks a process out of the pool, writes its
partition to the process's standard input followed by a *sentinel* cell, and reads answers
until the sentinel's answer comes back. Blank lines give no answer, so counting answers would
mean repeating plumb's idea of "blank"; the sentinel needs no such rule.

plumb numbers the ``"line"`` of an error line by the lines its process has read since it
started, so a long-lived process numbers the lines of its second partition after those of
its first. The task rewrites that number to the line's place in the whole input, which is
what one ``plumb measure INPUT`` would print.

A process that dies (killed, crashed) makes the task raise ``PlumbProcessDied``, so Dask
retries it (``retries=``), and is dropped from the pool: the next task starts a new one. A
task that fails or is interrupted for any other reason kills its process too, since the
process may hold half a partition.
"""

from __future__ import annotations

import atexit
import collections
import json
import os
import subprocess
import threading
import uuid
from contextlib import contextmanager
from typing import Iterator, NamedTuple, Sequence


class PlumbProcessDied(RuntimeError):
    """The ``plumb measure`` subprocess ended before answering the whole partition."""


class PartitionResult(NamedTuple):
    """What one task sends back to the client."""

    index: int
    """The partition's place in the input (0-based)."""
    output: bytes
    """The answer lines, each ending in a newline, in input order."""
    results: int
    """How many answer lines (error lines included)."""
    errors: int
    """How many of them are error lines (``{"id":…,"line":…,"error":…}``)."""


# Error lines are `{"id":<id>,"line":<n>,"error":…}`: the id first, as plumb writes it, then
# the line. Measured cells have `"height"` after the id, so `,"line":` right after the id
# marks an error line.
_ID_PREFIX = '{"id":'
_LINE_KEY = ',"line":'
_DECODER = json.JSONDecoder()


def renumber_error_line(line: bytes, shift: int) -> tuple[bytes, bool]:
    """Returns ``line`` with the ``"line"`` of an error line moved by ``shift``, and whether
    it is an error line. Other lines come back unchanged (the same bytes)."""
    if b'"error":' not in line:  # quick filter: every error line has it
        return line, False
    # surrogateescape: any byte sequence goes back to the very same bytes.
    text = line.decode("utf-8", "surrogateescape")
    if not text.startswith(_ID_PREFIX):
        return line, False
    try:
        _, end = _DECODER.raw_decode(text, len(_ID_PREFIX))  # skip the id, whatever it is
    except ValueError:
        return line, False
    if not text.startswith(_LINE_KEY, end):
        return line, False
    start = stop = end + len(_LINE_KEY)
    while stop < len(text) and text[stop] in "0123456789":
        stop += 1
    number = int(text[start:stop]) + shift
    return (text[:start] + str(number) + text[stop:]).encode("utf-8", "surrogateescape"), True


# How many plumb processes died under a task in this worker process (read by the tests).
deaths = 0


class PlumbProcess:
    """One long-lived ``plumb measure`` subprocess reading cells on standard input."""

    def __init__(self, command: Sequence[str]):
        self.command = tuple(command)
        self.process = subprocess.Popen(
            self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        # Lines written so far (sentinels included): where plumb's line numbers start for
        # the next partition.
        self.lines_sent = 0
        # plumb's standard error, drained by a thread so that it never blocks on a full pipe;
        # the last lines explain a death.
        self._stderr_tail: collections.deque[bytes] = collections.deque(maxlen=20)
        threading.Thread(target=self._drain_stderr, daemon=True).start()

    def _drain_stderr(self) -> None:
        for line in self.process.stderr:
            self._stderr_tail.append(line)

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def stderr_tail(self) -> str:
        return b"".join(self._stderr_tail).decode("utf-8", "replace").strip()

    def measure(self, blob: bytes, line_count: int, first_line: int, fault=None) -> tuple[bytes, int, int]:
        """Measures the ``line_count`` lines of ``blob`` (each ending in a newline), the first
        being line ``first_line`` of the whole input; returns the answers, their count and the
        number of error lines. ``fault`` (tests only) is called with half the partition written."""
        token = uuid.uuid4().hex
        sentinel = b'{"id":"plumb-dask-sentinel-%s","text":""}\n' % token.encode()
        sentinel_answer = b'{"id":"plumb-dask-sentinel-%s",' % token.encode()
        # plumb calls this partition's first line `lines_sent + 1`; the input calls it
        # `first_line`.
        shift = first_line - 1 - self.lines_sent
        self.lines_sent += line_count + 1

        # A thread writes while this one reads: plumb answers as it reads, and a partition
        # larger than the pipes would otherwise block both sides.
        def write() -> None:
            try:
                if fault is not None:  # tests: fail with half the partition written
                    half = blob.rfind(b"\n", 0, len(blob) // 2) + 1
                    self.process.stdin.write(blob[:half])
                    self.process.stdin.flush()
                    fault(self)
                    self.process.stdin.write(blob[half:])
                else:
                    self.process.stdin.write(blob)
                self.process.stdin.write(sentinel)
                self.process.stdin.flush()
            except (BrokenPipeError, ValueError):
                pass  # plumb died: the reader sees the end of its output and says so

        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        try:
            answers = self._read_until(sentinel_answer)
        except BaseException:
            self.kill()  # first, so that a writer blocked on a full pipe gets an error and ends
            raise
        finally:
            writer.join()
        errors = 0
        if b'"error":' in answers:  # else no error line: the answers go back as they came
            lines = answers.split(b"\n")[:-1]
            for i, line in enumerate(lines):
                lines[i], is_error = renumber_error_line(line, shift)
                errors += is_error
            answers = b"\n".join(lines) + b"\n"
        return answers, answers.count(b"\n"), errors

    def _read_until(self, sentinel_answer: bytes) -> bytes:
        """plumb's answers up to the sentinel's (left out), read in large chunks: the
        sentinel is the last line written, so its answer is the last line read."""
        buffer = bytearray()
        while True:
            chunk = self.process.stdout.read1(1 << 16)
            if not chunk:
                raise self._died()
            buffer += chunk
            if buffer.endswith(b"\n"):
                last = buffer.rfind(b"\n", 0, len(buffer) - 1) + 1
                if buffer.startswith(sentinel_answer, last):
                    return bytes(buffer[:last])

    def _died(self) -> PlumbProcessDied:
        """The error for a process whose output ended before the sentinel's answer."""
        global deaths
        deaths += 1
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.kill()
        return PlumbProcessDied(
            f"plumb measure exited with status {self.process.returncode} in the middle of a "
            f"partition: {self.stderr_tail() or '(no message)'}")

    def close(self) -> None:
        """Ends the process: closing its input lets it finish and exit by itself (and save
        what it keeps on exit); it is killed if it does not within 10 seconds."""
        try:
            self.process.stdin.close()
            self.process.wait(timeout=10)
        except Exception:
            self.kill()

    def kill(self) -> None:
        try:
            self.process.kill()
            self.process.wait(timeout=5)
        except Exception:
            pass


# The per-process registry: idle processes by command. A task takes one (or starts one) and
# gives it back when it is done, so a worker with several threads runs one process per busy
# thread, and one with one thread reuses a single process.
_idle: dict[tuple[str, ...], list[PlumbProcess]] = {}
_idle_lock = threading.Lock()


@contextmanager
def checkout(command: Sequence[str]) -> Iterator[PlumbProcess]:
    """A live ``plumb`` process for ``command``, returned to the pool if the block succeeds
    and killed if it raises (it may have half a partition in it)."""
    key = tuple(command)
    process = None
    with _idle_lock:
        pool = _idle.setdefault(key, [])
        while pool and process is None:
            candidate = pool.pop()
            if candidate.alive:
                process = candidate
            else:
                candidate.kill()  # died while idle: reap it and start another
    if process is None:
        process = PlumbProcess(key)
    succeeded = False
    try:
        yield process
        succeeded = True
    finally:
        if succeeded and process.alive:
            with _idle_lock:
                _idle.setdefault(key, []).append(process)
        else:
            process.kill()


def close_all() -> int:
    """Closes every idle ``plumb`` process of this worker process; returns how many. Run at
    exit, and on every worker by ``plumb_dask.close_plumb_processes(client)``."""
    with _idle_lock:
        processes = [p for pool in _idle.values() for p in pool]
        _idle.clear()
    for p in processes:
        p.close()
    return len(processes)


atexit.register(close_all)


def _test_fault(index: int):
    """Tests only: when ``PLUMB_DASK_TEST_FAULT`` names a file holding ``MODE PARTITION``,
    the task of that partition fails once, mid-partition (half of it written): the first
    task to rename the file to ``….fired`` (atomic, so exactly one) does it, and its retry
    finds no file. MODE ``worker-exit`` ends the whole Dask worker process (``os._exit``),
    ``plumb-kill`` kills the task's ``plumb`` subprocess."""
    armed = os.environ.get("PLUMB_DASK_TEST_FAULT")
    if not armed:
        return None
    try:
        with open(armed) as f:
            mode, partition = f.read().split()
    except (FileNotFoundError, ValueError):
        return None
    if int(partition) != index:
        return None

    def fault(process: PlumbProcess) -> None:
        try:
            os.rename(armed, armed + ".fired")
        except FileNotFoundError:
            return  # another attempt fired it already
        if mode == "worker-exit":
            os._exit(1)
        process.kill()

    return fault


def measure_partition(command: Sequence[str], index: int, blob: bytes, line_count: int, first_line: int) -> PartitionResult:
    """The Dask task: measures one partition on this worker's ``plumb`` process.

    Raises ``PlumbProcessDied`` (so Dask retries the task) when the process dies under it.
    """
    with checkout(command) as process:
        output, results, errors = process.measure(blob, line_count, first_line, fault=_test_fault(index))
    return PartitionResult(index, output, results, errors)


def probe(command: Sequence[str], canary: bytes) -> tuple[int, bytes, str]:
    """Runs ``command`` once on ``canary`` cells: its exit status, answers and standard error.
    Run on every worker before the real work, so that a missing binary, an option plumb
    rejects or workers whose fonts differ are found at once, not after retries."""
    try:
        run = subprocess.run(list(command), input=canary, capture_output=True, timeout=120)
    except FileNotFoundError as e:
        return 127, b"", str(e)
    except PermissionError as e:
        return 126, b"", str(e)
    return run.returncode, run.stdout, run.stderr.decode("utf-8", "replace").strip()
