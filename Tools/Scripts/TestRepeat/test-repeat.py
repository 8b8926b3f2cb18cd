#!/usr/bin/env python3
"""Runs the test suite, or the tests a filter names, N times in a row and counts the
failures of each test, to tell a flaky test from a broken one (`make test-repeat`).

Each run is the built test bundle itself, started as `swift test` would start it, with
Swift Testing's own `--filter`/`--skip`; every run's output is kept under the log folder.
A run that outlives the per-run limit is stopped and counted as a hang. Exit status 1
when any run failed or hung.
"""
import argparse
import collections
import os
import re
import signal
import subprocess
import sys
import time

# Swift Testing's closing lines for a test that recorded issues or failed.
FAILED = re.compile(r'^\S*\s*Test (?:case passing .* to )?"(?P<name>.+?)"(?: with \d+ test cases?)? failed after')
RECORDED = re.compile(r'^\S*\s*Test "(?P<name>.+?)" recorded an issue')
SUMMARY = re.compile(r'Test run with (?P<tests>\d+) tests? .* (?P<outcome>passed|failed) after (?P<seconds>[\d.]+) seconds')


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bundle", required=True, help="the built .xctest bundle")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--filter", default="", help="Swift Testing --filter (a regular expression)")
    parser.add_argument("--skip", default="", help="Swift Testing --skip (a regular expression)")
    parser.add_argument("--run-limit", type=int, default=1800, help="seconds one run may take")
    parser.add_argument("--logs", default=".build/test-repeat")
    arguments = parser.parse_args()

    os.makedirs(arguments.logs, exist_ok=True)
    failures = collections.Counter()
    failed_runs, hung_runs, durations = 0, 0, []
    for run in range(1, arguments.runs + 1):
        command = [arguments.bundle, "--testing-library", "swift-testing"]
        if arguments.filter:
            command += ["--filter", arguments.filter]
        if arguments.skip:
            command += ["--skip", arguments.skip]
        log_path = os.path.join(arguments.logs, f"run-{run}.log")
        started = time.monotonic()
        with open(log_path, "w") as log:
            # A session of its own, so that a hung run's children go with it.
            process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
            try:
                status = process.wait(timeout=arguments.run_limit)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
                status = None
        elapsed = time.monotonic() - started
        durations.append(elapsed)
        names = set()
        summary = None
        with open(log_path, errors="replace") as log:
            for line in log:
                line = re.sub(r"\x1b\[[0-9;]*m", "", line)
                match = FAILED.search(line) or RECORDED.search(line)
                if match:
                    names.add(match.group("name"))
                summary = SUMMARY.search(line) or summary
        for name in names:
            failures[name] += 1
        if status is None:
            hung_runs += 1
            outcome = f"HUNG after {arguments.run_limit} s"
        elif status != 0 or names:
            failed_runs += 1
            outcome = f"failed ({len(names)} tests, exit {status})"
        else:
            outcome = "passed"
        tests = summary.group("tests") if summary else "?"
        print(f"run {run}/{arguments.runs}: {outcome}, {tests} tests, {elapsed:.0f} s  ({log_path})", flush=True)

    print()
    print(f"{arguments.runs} runs: {arguments.runs - failed_runs - hung_runs} passed, {failed_runs} failed, {hung_runs} hung;"
          f" {min(durations):.0f} to {max(durations):.0f} s a run")
    if failures:
        print("failures per test:")
        for name, count in failures.most_common():
            print(f"  {count:3d}/{arguments.runs}  {name}")
    print(f"{arguments.runs - failed_runs - hung_runs} passed, {failed_runs + hung_runs} failed")
    return 1 if failed_runs or hung_runs else 0


if __name__ == "__main__":
    sys.exit(main())
