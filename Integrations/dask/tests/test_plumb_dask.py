"""Tests of plumb_dask on a LocalCluster of 2 worker processes, against one ``plumb measure``.

    PLUMB_BINARY=.build/debug/plumb /opt/plumb-dask-venv/bin/python -m unittest discover -s Integrations/dask/tests

One cluster serves every test (starting one costs seconds on 2 cores). The inputs are built
from the repository's corpus and examples: a few thousand lines with unique ids of every JSON
kind, blank lines, lines plumb rejects and lines that are not JSON.
"""

from __future__ import annotations

import json
import logging
import os
import random
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parents[1]
REPO = PACKAGE_DIR.parents[1]
# This checkout's plumb_dask, here and in the workers (spawned processes read PYTHONPATH),
# whatever the venv's editable install points at.
sys.path.insert(0, str(PACKAGE_DIR))
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PACKAGE_DIR), os.environ.get("PYTHONPATH")]))

import plumb_dask  # noqa: E402
from plumb_dask import _worker  # noqa: E402
from plumb_dask._partitions import read_partitions, row_to_json_line  # noqa: E402

PARTITION_LINES = 250  # 3,000 lines: 12 partitions, so each plumb process serves several


def plumb_binary() -> str:
    path = os.environ.get("PLUMB_BINARY")
    if not path or not os.access(path, os.X_OK):
        raise RuntimeError("set PLUMB_BINARY to a built plumb binary (e.g. .build/debug/plumb)")
    return os.path.abspath(path)


def build_mixed_input(count: int, seed: int = 29) -> bytes:
    """``count`` lines: corpus and example cells with unique ids of every JSON kind (numbers,
    strings with escapes, objects, arrays, null, none at all), blank lines, lines plumb
    rejects (a number as text) and lines that are not JSON."""
    rng = random.Random(seed)
    corpus = [json.loads(l) for l in (REPO / "Benchmarks/Corpus/cells.jsonl").read_text().splitlines() if l.strip()]
    examples = [json.loads(l) for l in (REPO / "Documentation/examples/cells.jsonl").read_text().splitlines() if l.strip()]
    ids = [
        lambda i: i,
        lambda i: f"row-{i}",
        lambda i: f"é\"\\/\t{i} 😀",
        lambda i: {"row": i, "tags": ["a", None]},
        lambda i: [i, "x"],
        lambda i: i + 0.5,
    ]
    lines = []
    for i in range(count):
        r = rng.random()
        if r < 0.03:
            lines.append(b"\n")
        elif r < 0.05:
            lines.append(b" \t\r\n")  # blank too: spaces, tabs and a carriage return
        elif r < 0.07:
            lines.append(b'{"id":%d,"text":42}\n' % i)  # an error line with an id
        elif r < 0.08:
            lines.append(b"not json %d\n" % i)  # an error line with a null id
        else:
            cell = dict(rng.choice(examples if r < 0.2 else corpus))
            if r < 0.99:
                cell["id"] = ids[i % len(ids)](i)
            else:
                cell.pop("id", None)  # no id: answered with a null id
            lines.append(json.dumps(cell, ensure_ascii=rng.random() < 0.5).encode() + b"\n")
    return b"".join(lines)


def run_plumb(path: Path, *args: str) -> tuple[int, bytes]:
    """One ``plumb measure`` of ``path``: the reference."""
    run = subprocess.run([plumb_binary(), "measure", str(path), *args], capture_output=True, timeout=120)
    return run.returncode, run.stdout


def plumb_supports(option: str) -> bool:
    """Whether ``plumb measure --help`` lists ``option`` (whole: --cache is not --cache-budget)."""
    run = subprocess.run([plumb_binary(), "measure", "--help"], capture_output=True, text=True, timeout=60)
    return re.search(re.escape(option) + r"(?![\w-])", run.stdout) is not None


class RenumberTests(unittest.TestCase):
    """The error line rewrite, without a cluster."""

    def test_moves_the_line_of_an_error_line_only(self):
        shift = plumb_dask._worker.renumber_error_line
        self.assertEqual(shift(b'{"id":2,"line":3,"error":"bad"}\n', 10), (b'{"id":2,"line":13,"error":"bad"}\n', True))
        tricky = b'{"id":{"error":",\\"line\\":1"},"line":7,"error":"x"}\n'
        self.assertEqual(shift(tricky, -5), (b'{"id":{"error":",\\"line\\":1"},"line":2,"error":"x"}\n', True))
        measured = b'{"id":"error","height":23.5,"width":15,"lines":1,"truncated":false}\n'
        self.assertEqual(shift(measured, 10), (measured, False))

    def test_parquet_rows_drop_nulls_and_reject_non_finite_numbers(self):
        row = {"id": "a", "text": None, "runs": [{"text": "x", "weight": None}], "width": 320.0}
        self.assertEqual(row_to_json_line(row), b'{"id":"a","runs":[{"text":"x"}],"width":320.0}\n')
        with self.assertRaises(ValueError):
            row_to_json_line({"id": "a", "text": "x", "width": float("nan")})

    def test_partitions_keep_every_byte_but_a_leading_bom(self):
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "in.jsonl"
            path.write_bytes(b'\xef\xbb\xbf{"id":1}\r\n\n{"id":2}\r{"id":3}\n{"id":4}')
            parts = list(read_partitions(str(path), 2))
        self.assertEqual([(p.first_line, p.line_count) for p in parts], [(1, 2), (3, 2)])
        self.assertEqual(b"".join(p.blob for p in parts), b'{"id":1}\r\n\n{"id":2}\r{"id":3}\n{"id":4}\n')

    def test_workers_that_answer_differently_are_refused(self):
        class FakeClient:
            def run(self, *_):
                return {"tcp://a": (0, b"one\n", ""), "tcp://b": (0, b"two\n", "")}

        with self.assertRaises(plumb_dask.WorkersDisagree):
            plumb_dask.check_workers(FakeClient(), ["plumb", "measure"])


class LocalClusterTests(unittest.TestCase):
    """plumb_dask on LocalCluster(n_workers=2, threads_per_worker=1, processes=True)."""

    @classmethod
    def setUpClass(cls):
        from distributed import Client, LocalCluster

        cls.plumb = plumb_binary()
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = Path(cls.tmp.name)
        # The fault hook's file (see plumb_dask._worker._test_fault), read by the workers.
        cls.fault = cls.dir / "fault"
        os.environ["PLUMB_DASK_TEST_FAULT"] = str(cls.fault)

        cls.mixed = cls.dir / "mixed.jsonl"
        cls.mixed.write_bytes(build_mixed_input(3000))
        cls.mixed_status, cls.mixed_expected = run_plumb(cls.mixed)

        cls.cluster = LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=logging.CRITICAL)
        cls.client = Client(cls.cluster)
        cls._mixed_result = None

    @classmethod
    def tearDownClass(cls):
        cls.client.close()
        cls.cluster.close()
        cls.tmp.cleanup()
        os.environ.pop("PLUMB_DASK_TEST_FAULT", None)

    def measure(self, source: Path, name: str, **options) -> tuple[plumb_dask.MeasureStats, bytes]:
        out = self.dir / name
        options.setdefault("partition_lines", PARTITION_LINES)
        stats = plumb_dask.measure_file(str(source), str(out), client=self.client, plumb=self.plumb, **options)
        return stats, out.read_bytes()

    def mixed_result(self):
        """The plain run of the mixed input, shared by the tests that only read it."""
        if LocalClusterTests._mixed_result is None:
            LocalClusterTests._mixed_result = self.measure(self.mixed, "mixed.out.jsonl")
        return LocalClusterTests._mixed_result

    def arm_fault(self, mode: str, partition: int) -> None:
        self.fault.write_text(f"{mode} {partition}\n")
        Path(str(self.fault) + ".fired").unlink(missing_ok=True)

    def assert_fault_fired(self):
        self.assertFalse(self.fault.exists(), "the fault did not fire")
        self.assertTrue(Path(str(self.fault) + ".fired").exists())

    # (a) byte-identical to one plumb measure, exit status mirrored
    def test_output_is_byte_identical_to_one_plumb_measure(self):
        stats, output = self.mixed_result()
        self.assertEqual(self.mixed_status, 1, "the input has error lines: plumb exits 1")
        self.assertEqual(output, self.mixed_expected)
        self.assertEqual(stats.exit_code, self.mixed_status)
        self.assertEqual(stats.input_lines, 3000)
        self.assertEqual(stats.partitions, 12)
        self.assertEqual(stats.results, self.mixed_expected.count(b"\n"))
        self.assertEqual(stats.errors, self.mixed_expected.count(b'"error":'))

    # (d) ids intact: one answer per non-blank line, in order, with that line's id
    def test_ids_are_intact_and_in_input_order(self):
        _, output = self.mixed_result()
        expected_ids = []
        for line in self.mixed.read_bytes().splitlines():
            if not line.strip(b" \t\r"):
                continue  # blank: no answer
            try:
                expected_ids.append(json.loads(line).get("id"))
            except json.JSONDecodeError:
                expected_ids.append(None)  # not JSON: an error line with a null id
        answers = [json.loads(l) for l in output.splitlines()]
        self.assertEqual([a["id"] for a in answers], expected_ids)
        unique = [json.dumps(i, sort_keys=True) for i in expected_ids if i is not None]
        self.assertEqual(len(unique), len(set(unique)), "the test's ids are unique")

    def test_edges_of_the_byte_stream_and_arguments_pass_through(self):
        # A byte-order mark, CRLF, a lone CR inside a line, blank lines at partition edges,
        # a last line without a newline, and plumb arguments; partitions of 3 lines.
        path = self.dir / "edges.jsonl"
        body = [b'\xef\xbb\xbf{"id":0,"text":"bom"}\r\n']
        for i in range(1, 40):
            body.append([b'{"id":%d,"text":"cell %d"}\r\n' % (i, i), b"\n", b'{"id":%d,"text":"a\rb"}\r{"x":1}\n' % i,
                         b'{"id":%d,"text":%d}\n' % (i, i)][i % 4])
        body.append(b'{"id":"last","text":"no newline at the end"}')
        path.write_bytes(b"".join(body))
        # The second set makes most lines errors (the workers' canary cells too).
        for args in (["--width", "120", "--workers", "1", "--exact-numbers"], ["--max-text-bytes", "8"]):
            status, expected = run_plumb(path, *args)
            stats, output = self.measure(path, "edges.out.jsonl", partition_lines=3, plumb_args=args)
            self.assertEqual(output, expected, args)
            self.assertEqual(stats.exit_code, status, args)

    # (b) Parquet gives what the equivalent JSON Lines gives
    def test_parquet_input_gives_the_results_of_the_equivalent_jsonl(self):
        import pyarrow as pa
        import pyarrow.parquet as pq

        rng = random.Random(5)
        corpus = [json.loads(l) for l in (REPO / "Benchmarks/Corpus/cells.jsonl").read_text().splitlines()[:600]]
        rows = []
        for i, cell in enumerate(corpus):
            row = {"id": f"p-{i}", "width": rng.choice([120, 200.5, 375])}
            if i % 5 == 0:  # rich cells: runs whose structs lack some fields (nulls in Parquet)
                row["runs"] = [{"text": cell["text"][:10], "weight": 700}, {"text": cell["text"][10:]},
                               {"attachment": {"width": 18, "height": 18, "id": "avatar"}}]
            else:
                row["text"] = cell["text"]
                if i % 3 == 0:
                    row["lineSpacing"] = 4
            rows.append(row)
        parquet = self.dir / "cells.parquet"
        # Column by column, so that each column's type comes from all its values (from_pylist
        # would take the columns of the first row only); a row without a key gets a null.
        columns = list(dict.fromkeys(k for r in rows for k in r))
        pq.write_table(pa.table({c: [r.get(c) for r in rows] for c in columns}), parquet, row_group_size=170)
        # The equivalent JSON Lines: what each row means, nulls being absent keys.
        jsonl = self.dir / "cells-from-parquet.jsonl"
        jsonl.write_bytes(b"".join(json.dumps(r).encode() + b"\n" for r in rows))
        status, expected = run_plumb(jsonl)
        stats, output = self.measure(parquet, "parquet.out.jsonl", partition_lines=100)
        self.assertEqual(output, expected)
        self.assertEqual(stats.exit_code, status)
        self.assertEqual(stats.input_lines, len(rows))

    # (c) a worker process killed mid-run: Dask runs its task again elsewhere
    def test_a_worker_killed_mid_run_loses_and_duplicates_no_row(self):
        pids_before = set(self.client.run(os.getpid).values())
        self.arm_fault("worker-exit", 4)
        stats, output = self.measure(self.mixed, "worker-killed.out.jsonl")
        self.assert_fault_fired()
        self.assertEqual(output, self.mixed_expected)
        self.assertEqual(stats.results, self.mixed_expected.count(b"\n"))
        self.client.wait_for_workers(2, timeout=60)  # the nanny restarts the worker
        pids_after = set(self.client.run(os.getpid).values())
        self.assertEqual(len(pids_before - pids_after), 1, "exactly one worker process was replaced")

    def test_a_killed_plumb_process_fails_its_task_which_is_retried(self):
        deaths_before = sum(self.client.run(lambda: _worker.deaths).values())
        self.arm_fault("plumb-kill", 7)
        _, output = self.measure(self.mixed, "plumb-killed.out.jsonl")
        self.assert_fault_fired()
        self.assertEqual(output, self.mixed_expected)
        deaths_after = sum(self.client.run(lambda: _worker.deaths).values())
        self.assertEqual(deaths_after - deaths_before, 1, "the task saw its plumb die, raised and was retried")

    def test_the_command_line_mirrors_plumbs_exit_status(self):
        out = self.dir / "cli.out.jsonl"
        run = subprocess.run(
            [sys.executable, "-m", "plumb_dask", str(self.mixed), str(out), "--scheduler", self.cluster.scheduler_address,
             "--plumb", self.plumb, "--partition-lines", "1000"],
            capture_output=True, timeout=120)
        self.assertEqual(run.returncode, 1, run.stderr.decode())
        self.assertEqual(out.read_bytes(), self.mixed_expected)

    def test_a_plumb_that_cannot_run_is_reported_with_its_status(self):
        with self.assertRaises(plumb_dask.PlumbCommandError) as bad_option:
            self.measure(self.mixed, "never.jsonl", plumb_args=["--no-such-option"])
        self.assertEqual(bad_option.exception.status, 64)
        with self.assertRaises(plumb_dask.PlumbCommandError) as missing:
            plumb_dask.measure_file(str(self.mixed), str(self.dir / "never.jsonl"), client=self.client,
                                    plumb=str(self.dir / "no-plumb-here"))
        self.assertEqual(missing.exception.status, 127)
        self.assertFalse((self.dir / "never.jsonl").exists())

    def test_a_shared_persistent_cache_gives_the_same_answers(self):
        if not plumb_supports("--cache"):
            self.skipTest("this plumb has no --cache option yet")
        cache = self.dir / "plumb-cache"
        for run in ("cold", "warm"):
            _, output = self.measure(self.mixed, f"cache-{run}.out.jsonl", cache=str(cache))
            self.assertEqual(output, self.mixed_expected, run)
        plumb_dask.close_plumb_processes(self.client)  # ended, they have flushed what they measured
        # One more plumb sharing the file finds every result the workers measured in it.
        run = subprocess.run([self.plumb, "measure", str(self.mixed), "--cache", str(cache), "--stats"],
                             capture_output=True, text=True, timeout=120)
        self.assertEqual(run.stdout.encode(), self.mixed_expected)
        found = re.search(r"cache file: [^,]*, hits (\d+), misses (\d+)", run.stderr)
        self.assertIsNotNone(found, f"--stats no longer says 'cache file: …, hits N, misses N': {run.stderr}")
        self.assertGreater(int(found[1]), 0)
        self.assertEqual(int(found[2]), 0, "the workers left results out of the shared cache file")


if __name__ == "__main__":
    unittest.main()
