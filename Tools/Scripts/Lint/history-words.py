#!/usr/bin/env python3
"""Fails on words that say WHEN a change was made instead of WHY the code is as it is
(`make lint`, after swift format).

Shipped text says what the code does and why; the git history says when, in which
task and on whose tracker. A tracker number or a dated piece of work in a comment, a test's
display name, a Makefile comment or a Markdown page means nothing to a reader of the
code, goes stale, and hides the reason it stands in for. So this check reads every
tracked text file (`git ls-files`: Swift sources and test names, C sources and headers,
Markdown and the DocC catalogs, the Makefile, shell and Python scripts, sanitizer
suppressions, module maps) and prints `path:line:column` for each of:

  tracker   the word issue, ticket or bug followed by a number (with or without a
            hash sign, in parentheses, in a list, or hyphenated to the next word); and
            the tracker issue as an author (its possessive, or the issue followed by
            asks, sets, measured, describes, says or wants)
  stop      the word stop followed by a number, or a stop placed in time (this,
            earlier, later, work)
  session   the word session followed by a number, or a session placed in time (this,
            last, previous, earlier, work)
  wave      a wave counted or placed in time (first, last, followed by a number)
  history   run-by-run tables, stop-by-stop accounts, numbered sprints

The RULES below are the exact patterns.

Words wrapped at a line's end are read together with the next line (its comment marker
left out), and a finding is reported on the line where it starts.

What passes, because it is the technical word:
  - "issue" as a verb ("the CA issues leaves", `ca.issue()`), Swift Testing's
    `Issue.record`, "records an issue" and `Issue`'s (in backticks);
  - "stop" as a verb or as the name of an event ("the loop stops", "stop the server",
    "a stop ends the download", "the first stop", `stop()`);
  - "session" as TLS/SSL session, session resumption, `URLSession`, a process session
    (`start_new_session`), a decoder's session (`AVIFSession`, "the session holds
    it"), "extended session security";
  - upstream corpus file names such as `gif/crashtest/issue-96-small-codesize.gif`.

Upstream defects: a link to an upstream tracker (https://github.com/swiftlang/swift/
issues/123) passes: URLs are removed from a line before it is read, since a link says
whose tracker it is and can be followed. Prefer saying in words what the upstream
defect is and in which release it is fixed; a bare tracker number fails even when it
means an upstream one, because nothing says whose it is (write the link, or name the
project with its number: "curl #11005", "swift-corelibs-foundation pull request 5472").

Not read: binary files, the fuzzers' inputs (Tools/TestSupport/Fuzz/Seeds/, the saved inputs
under Tests/FuzzingTests/Regressions/<target>/: bytes, not prose) and this file, whose
patterns spell the words out.

Usage: history-words.py [FILE...]; without files, every tracked file. Exit status 1
when anything is found, 0 otherwise.
"""
import os
import re
import subprocess
import sys

NUMBER = r"#?\d+"

# (kind, pattern): each pattern is matched case-insensitively against a line whose URLs
# have been removed.
RULES = [
    # A number after issue or ticket (in a list, with a hash, hyphenated); not a file name
    # that merely contains one.
    ("tracker", r"(?<![\w/.-])(?:issues?|tickets?)[ \t]+" + NUMBER + r"\b"),
    ("tracker", r"(?<![\w/.-])(?:issues?|tickets?|bugs?)[ \t]*#\d+\b"),
    ("tracker", r"(?<![\w/.-])issues?-\d+\b(?![-.]\w)"),
    # The tracker issue as an author; not Swift Testing's `Issue` in backticks.
    ("tracker", r"\bissue's\b"),
    (
        "tracker",
        r"\b(?:the|this|that)[ \t]+issue[ \t]+(?:asks|ask|asked|sets|set|measured|measures|describes|describe"
        r"|described|says|said|wants|wanted|calls[ \t]+for)\b",
    ),
    # A numbered stop, or one placed in time.
    ("stop", r"\bstops?[ \t]+" + NUMBER + r"\b"),
    # (singular after this and work: the plural there is the verb)
    ("stop", r"\b(?:this|work)[ \t]+stop\b"),
    ("stop", r"\b(?:an?|the|one|of|on|in|at|from)[ \t]+(?:earlier|later|previous)[ \t]+stops?\b"),
    ("stop", r"\b(?:earlier|later|previous)[ \t]+stop's"),
    ("stop", r"\ba[ \t]+stop[ \t]+(?:earlier|later|ago|before)\b"),
    # A numbered session, or one placed in time.
    ("session", r"\bsessions?[ \t]+" + NUMBER + r"\b"),
    ("session", r"\b(?:this|last|previous|earlier|later|next|prior|work)[ \t]+sessions?\b"),
    # A numbered wave, or one placed in time.
    ("wave", r"\bwaves?[ \t]+" + NUMBER + r"\b"),
    ("wave", r"\b(?:first|second|third|fourth|last|this|that|next|previous|earlier|later)[ \t]+waves?\b"),
    ("history", r"\b(run|stop|session|wave)[- \t]+by[- \t]+\1\b"),
    ("history", r"\bsprints?[ \t]+" + NUMBER + r"\b"),
]
COMPILED = [(kind, re.compile(pattern, re.IGNORECASE)) for kind, pattern in RULES]
COMMENT_MARKER = re.compile(r"^\s*(?:///?|//!|/\*\*?|\*|#+|--|;+)?\s*")
URL = re.compile(r"\b(?:https?|ssh|git)://\S+|\bgit@[\w.-]+:\S+")

SELF = "Tools/Scripts/Lint/history-words.py"
SKIPPED_PREFIXES = ("Tools/TestSupport/Fuzz/Seeds/",)
REGRESSIONS = "Tests/FuzzingTests/Regressions/"


def skipped(path: str) -> bool:
    if path == SELF or path.startswith(SKIPPED_PREFIXES):
        return True
    # The saved inputs sit one folder down (Regressions/<target>/<file>); the table of
    # their outcomes beside them is read.
    return path.startswith(REGRESSIONS) and "/" in path[len(REGRESSIONS):]


def tracked_files() -> list[str]:
    output = subprocess.run(["git", "ls-files", "-z"], check=True, capture_output=True).stdout
    return [name for name in output.decode().split("\0") if name]


def findings(path: str):
    try:
        with open(path, "rb") as file:
            data = file.read()
    except (FileNotFoundError, IsADirectoryError):
        return  # deleted in the work tree, or a submodule
    if b"\0" in data:
        return
    lines = data.decode("utf-8", errors="replace").splitlines()
    # Blank the URLs out in place, so that columns still point into the line.
    readable = [URL.sub(lambda match: " " * len(match.group()), line) for line in lines] + [""]
    for index, line in enumerate(lines):
        # The start of the next line joins this one, without its comment marker, so that
        # words wrapped at the line's end ("this\n/// session") are read together; a
        # finding is reported on the line where it starts.
        following = COMMENT_MARKER.sub("", readable[index + 1], count=1)[:60]
        joined = readable[index] + " " + following
        matches = sorted(
            (match.start(), -match.end(), kind, match.group())
            for kind, pattern in COMPILED
            for match in pattern.finditer(joined)
            if match.start() < len(readable[index])
        )
        end = -1
        for start, negative_end, kind, words in matches:
            if start >= end:  # one finding for words two rules both match
                end = -negative_end
                yield index + 1, start + 1, kind, " ".join(words.split()), line.strip()


def main(arguments: list[str]) -> int:
    paths = arguments or [path for path in tracked_files() if not skipped(path)]
    count = 0
    for path in paths:
        if not os.path.isfile(path):
            continue
        for line, column, kind, words, text in findings(path):
            count += 1
            print(f'{path}:{line}:{column}: {kind} words "{words}": {text}')
    if count:
        print(
            f"history-words: {count} place(s) say when instead of why; say what the code does and why "
            "(the git history says when; see Tools/Scripts/Lint/history-words.py)",
            file=sys.stderr,
        )
        return 1
    print(f"history-words: {len(paths)} files, none says when instead of why")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
