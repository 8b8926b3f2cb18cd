#!/usr/bin/env python3
"""Runs one test command, keeps its output, and on failure ends with a summary.

`make test` and the sanitizer targets run each part of the suite through this. The
output goes to the terminal as it comes and to the log file; when the command fails,
the last lines printed are what a reader of a CI log needs most, since a CI page often
shows only the tail:
- the tests that recorded an issue or failed;
- a crash: the runtime's one-line reason and the first frames of the crashed thread;
- the tests that started and never finished (the crash or hang happened in one of them).

The Swift runtime's backtracer is set to show the crashed thread only, without
registers or the image list, and to symbolicate fast: a full backtrace of a debug test
bundle takes minutes to symbolicate and buries the frames under hundreds of lines. A
SWIFT_BACKTRACE already in the environment is left as it is.

Usage: Tools/Scripts/TestRun/run-suite.py --log FILE -- COMMAND...
"""
import argparse
import os
import re
import subprocess
import sys

STARTED = re.compile(r'^\S*\s*Test "(?P<name>.+?)" started\.')
ENDED = re.compile(r'^\S*\s*Test "(?P<name>.+?)"(?: with \d+ test cases?)? (?:passed|failed|skipped)')
SKIPPED = re.compile(r'^\S*\s*Test "(?P<name>.+?)" skipped')
PROBLEM = re.compile(r'^\S*\s*Test (?:case passing .* to )?"(?P<name>.+?)".* (?:recorded an issue|failed after)')
CRASH = re.compile(r'(Program crashed|Fatal error|fatal error|Illegal instruction|Segmentation fault|ERROR: AddressSanitizer|WARNING: ThreadSanitizer)')
CRASHED_THREAD = re.compile(r'^Thread \d+ .*crashed:')
FRAME_LIMIT = 30


def summarize(lines):
    """The summary's lines, the crash last: a CI page that shows the tail shows it."""
    out = []
    problems = [line.rstrip() for line in lines if PROBLEM.match(line)]
    if problems:
        out.append(f"run-suite: {len(problems)} failing test lines:")
        out += [f"  {line}" for line in problems[:40]]
    started = {}
    for line in lines:
        if match := STARTED.match(line):
            started[match.group("name")] = True
        elif (match := ENDED.match(line)) or (match := SKIPPED.match(line)):
            started.pop(match.group("name"), None)
    if started:
        out.append(f"run-suite: {len(started)} tests started and never finished (the last 15):")
        out += [f"  {name}" for name in list(started)[-15:]]
    for line in lines:
        if CRASH.search(line):
            out.append("run-suite: the process stopped: " + line.strip())
            break
    for index, line in enumerate(lines):
        if CRASHED_THREAD.match(line):
            frames = [frame.rstrip() for frame in lines[index:index + FRAME_LIMIT] if frame.strip()]
            out.append("run-suite: the crashed thread's first frames:")
            out += [f"  {frame}" for frame in frames]
            break
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--log", required=True)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    arguments = parser.parse_args()
    command = arguments.command[1:] if arguments.command[:1] == ["--"] else arguments.command
    os.makedirs(os.path.dirname(arguments.log) or ".", exist_ok=True)
    environment = dict(os.environ)
    environment.setdefault("SWIFT_BACKTRACE", "interactive=no,threads=crashed,registers=none,images=none,symbolicate=fast")
    lines = []
    with open(arguments.log, "w") as log:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=environment)
        for raw in process.stdout:
            line = raw.decode("utf-8", errors="replace")
            sys.stdout.write(line)
            sys.stdout.flush()
            log.write(line)
            lines.append(line)
        status = process.wait()
    if status != 0:
        print()
        for line in summarize(lines) or ["run-suite: no failing test named in the output"]:
            print(line)
        print(f"run-suite: exit status {status}; the whole output is in {arguments.log}")
    return 0 if status == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
