"""``python -m plumb_dask INPUT OUTPUT [options] [-- plumb measure arguments]``.

Exit status: 0 when every line was measured; 1 when some lines are error lines (kept in the
output, as ``plumb measure`` does) or the input cannot be opened; plumb's own status when it
cannot run on a worker (64: it rejects an argument, 127: not found); 64 for a usage error of
this command; 70 when the run failed (a task failed after its retries; no output file is
left).
"""

from __future__ import annotations

import argparse
import sys

from . import DEFAULT_PARTITION_LINES, PlumbCommandError, measure_file


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # usage errors exit 64, as plumb's do
        self.print_usage(sys.stderr)
        self.exit(64, f"{self.prog}: error: {message}\n")


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # Everything after the first `--` goes to `plumb measure` untouched.
    plumb_args: list[str] = []
    if "--" in argv:
        at = argv.index("--")
        argv, plumb_args = argv[:at], argv[at + 1:]

    parser = _Parser(
        prog="python -m plumb_dask",
        description="Measure a JSON Lines or Parquet file of cells with plumb measure on a Dask cluster; "
        "answers are written in input order, as one plumb measure would write them.",
        epilog="Arguments after -- go to every plumb measure, e.g. -- --width 320 --workers 1.")
    parser.add_argument("input", help="cells: JSON Lines (- for standard input) or *.parquet")
    parser.add_argument("output", help="answers, JSON Lines (- for standard output)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--scheduler", metavar="ADDRESS", help="a running Dask scheduler, e.g. tcp://10.0.0.1:8786")
    where.add_argument("--workers", type=int, metavar="N", help="start a local cluster of N worker processes (default: one per core)")
    parser.add_argument("--plumb", default="plumb", metavar="PATH", help="the plumb binary as the workers find it (default: plumb on PATH)")
    parser.add_argument("--partition-lines", type=int, default=DEFAULT_PARTITION_LINES, metavar="N",
                        help=f"lines per Dask task (default: {DEFAULT_PARTITION_LINES})")
    parser.add_argument("--cache", metavar="FILE", help="plumb's persistent cache file on each machine (plumb --cache FILE)")
    parser.add_argument("--retries", type=int, default=3, metavar="N", help="times a failed task is run again (default: 3)")
    parser.add_argument("--summary", action="store_true", help="print lines, errors, time and rate on standard error")
    args = parser.parse_args(argv)
    if args.workers is not None and args.workers < 1:
        parser.error("--workers must be at least 1")
    if args.partition_lines < 1:
        parser.error("--partition-lines must be at least 1")
    if "--list" in plumb_args:
        parser.error("--list keeps one running offset over the whole input: it cannot be split into partitions")

    client = None
    if args.scheduler:
        from distributed import Client

        client = Client(args.scheduler)
    try:
        stats = measure_file(
            args.input, args.output, client=client, n_workers=args.workers, plumb=args.plumb,
            plumb_args=plumb_args, partition_lines=args.partition_lines, cache=args.cache, retries=args.retries)
    except FileNotFoundError as e:  # the input: plumb measure exits 1 for it too
        print(f"plumb_dask: {e}", file=sys.stderr)
        return 1
    except PlumbCommandError as e:
        print(f"plumb_dask: {e}", file=sys.stderr)
        return e.status
    except Exception as e:  # WorkersDisagree, a task failed after its retries, a bad Parquet value…
        print(f"plumb_dask: the run failed: {type(e).__name__}: {e}", file=sys.stderr)
        return 70
    finally:
        if client is not None:
            client.close()
    if args.summary:
        print(f"plumb_dask: {stats.input_lines} lines, {stats.results} answers, {stats.errors} errors, "
              f"{stats.partitions} partitions on {stats.workers} workers, {stats.seconds:.2f} s "
              f"({stats.lines_per_second:.0f} lines/s)", file=sys.stderr)
    return stats.exit_code


if __name__ == "__main__":
    sys.exit(main())
