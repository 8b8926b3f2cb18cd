#!/usr/bin/env python3
"""Compiles every ```swift block of README.md and of the modules' DocC catalogs.

`make docs-check` runs this. It writes each block into a file of its own under
Tests/DocsExamples/Generated/, builds the test package's WebImageDocsExamples target (every
library product, the adapters' and the proxy's, with swift-log, swift-service-lifecycle,
swift-configuration and Hummingbird for their examples) in the suite's own build folder,
so the library the suite has built is reused, not compiled again, and removes the files
again. It reports which block failed as "README.md line N" (the compiler's own messages
point at the Markdown file too, through #sourceLocation). Exit status: 0 when every block
compiles, 1 otherwise. Arguments after `--` go to `swift build`: they must be the suite's
own build flags, or the build folder is rebuilt with others.

How a block becomes a file:
- Fences: only blocks opened with ```swift are compiled; ```sh, ``` and the rest are
  ignored.
- `import` lines are hoisted to the top of the file; everything else goes, in order,
  into the body of `func exampleN() async throws { ... }`, so that statements,
  `try await`, local functions and local types compile as they are. The function is
  never called: the check compiles, it does not run. Each unindented `let` is used
  once after the block, as the value an example makes often is not used in it.
- A block whose first line is `// file-level` is kept as it is, at file scope (for
  examples that declare extensions, protocols or conformances, which cannot be local).
- A block whose first line starts with `// swift-tools-version` is a package manifest:
  it is type-checked against the toolchain's PackageDescription instead.

Usage: Tools/Scripts/DocsCheck/docs-check.py [--root DIR] [--scratch DIR] [--swift SWIFT] [-- SWIFT BUILD FLAGS...]
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import time

CATALOG_MODULES = {
    "Core": "WebImageCore", "Concurrency": "WebImageConcurrency", "Resources": "WebImageResources", "HTTP": "WebImageHTTP", "Decoding": "WebImageDecoding", "WebP": "WebImageWebP", "AVIF": "WebImageAVIF",
    "Color": "WebImageColor", "Encoding": "WebImageEncoding", "Cache": "WebImageCache",
    "Transport": "WebImageTransport", "Security": "WebImageSecurity",
    "CallbackRegistry": "WebImageCallbackRegistry", "Operations": "WebImageOperations",
    "Manager": "WebImageManager", "Reachability": "WebImageReachability", "SharedCache": "WebImageSharedCache",
    "WebImage": "WebImage",
}
# The integrations' own catalogs: Integrations/<folder>/<module>.docc.
INTEGRATION_CATALOG_MODULES = {"ConfigReader": "WebImageConfigReader"}
FILE_LEVEL = "// file-level"
TOP_LEVEL_LET = re.compile(r"^let\s+(\w+)\b")
MANIFEST = "// swift-tools-version"
IMPORT = re.compile(r"^\s*(@\w+\s+)*import\s+\w+")
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)")


def markdown_files(root):
    files = [os.path.join(root, "README.md")]
    catalogs = [os.path.join(root, "Modules", folder, module + ".docc") for folder, module in CATALOG_MODULES.items()]
    catalogs += [os.path.join(root, "Integrations", folder, module + ".docc") for folder, module in INTEGRATION_CATALOG_MODULES.items()]
    for catalog in catalogs:
        for dirpath, _, names in sorted(os.walk(catalog)):
            files += [os.path.join(dirpath, n) for n in sorted(names) if n.endswith(".md")]
    return [f for f in files if os.path.isfile(f)]


def swift_blocks(path):
    """Yields (first line number of the code, lines) for each ```swift block."""
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, language = m.group(1), m.group(2), m.group(3).lower()
        start = i + 1
        j = start
        while j < len(lines) and not lines[j].strip().startswith(fence):
            j += 1
        if language == "swift":
            yield start + 1, [l[len(indent):] if l.startswith(indent) else l for l in lines[start:j]]
        i = j + 1


def swift_source(path, line, body, index):
    """The file for one block; #sourceLocation maps its lines back to the Markdown."""
    imports = [l.strip() for l in body if IMPORT.match(l)]
    location = '#sourceLocation(file: "%s", line: %d)' % (path, line)
    if body and body[0].strip().startswith(FILE_LEVEL):
        return "\n".join([location] + body + ["#sourceLocation()", ""])
    kept = ["" if IMPORT.match(l) else l for l in body]   # blank, so that line numbers hold
    # An example often ends on the value it shows how to make (`let manager = ...`); the
    # suite's build makes an unused value an error, so each top-level constant is used.
    used = ["_ = %s" % m.group(1) for m in (TOP_LEVEL_LET.match(l) for l in body) if m]
    return "\n".join(
        imports
        + ["", "@available(*, deprecated, message: \"compiled by make docs-check, never run\")",
           "func example%d() async throws {" % index, location]
        + kept
        + ["#sourceLocation()"] + used + ["}", ""])


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description="Compile the Swift examples of the README and the DocC catalogs.")
    parser.add_argument("--root", default=os.path.normpath(os.path.join(here, "..", "..", "..")))
    parser.add_argument("--scratch", default=None, help="for the manifests' checks; default: <root>/.build/docs-check")
    parser.add_argument("--swift", default=os.environ.get("SWIFT", "swift"))
    parser.add_argument("build_flags", nargs="*", help="after --: the suite's `swift build` flags")
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    scratch = os.path.abspath(args.scratch or os.path.join(root, ".build", "docs-check"))

    tests = os.path.join(root, "Tests")
    sources = os.path.join(tests, "DocsExamples", "Generated")
    manifests = os.path.join(scratch, "manifests")
    for folder in (sources, manifests):
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
    try:
        return check(root, tests, sources, manifests, args)
    finally:
        # The suite builds this target too: a block that does not compile must not break it.
        shutil.rmtree(sources, ignore_errors=True)


def check(root, tests, sources, manifests, args):
    blocks = []   # (markdown path, line, generated file)
    manifest_blocks = []
    for md in markdown_files(root):
        rel = os.path.relpath(md, root)
        for line, body in swift_blocks(md):
            if body and body[0].strip().startswith(MANIFEST):
                name = os.path.join(manifests, "Manifest%d.swift" % (len(manifest_blocks) + 1))
                with open(name, "w") as f:
                    f.write("\n".join(body) + "\n")
                manifest_blocks.append((rel, line, name))
                continue
            index = len(blocks) + 1
            stem = re.sub(r"[^A-Za-z0-9]+", "_", rel.rsplit(".", 1)[0]).strip("_")
            name = "%s_L%d.swift" % (stem, line)
            with open(os.path.join(sources, name), "w") as f:
                f.write(swift_source(md, line, body, index))
            blocks.append((rel, line, name))

    print("docs-check: %d Swift blocks (%d manifests) from %d Markdown files" % (
        len(blocks) + len(manifest_blocks), len(manifest_blocks), len(markdown_files(root))))
    failed = set()

    # Manifests: type-check against PackageDescription from the toolchain.
    if manifest_blocks:
        swift_bin = shutil.which(args.swift) or args.swift
        toolchain = os.path.dirname(os.path.dirname(os.path.realpath(swift_bin)))
        api = os.path.join(toolchain, "lib", "swift", "pm", "ManifestAPI")
        for rel, line, name in manifest_blocks:
            tools = re.search(r"swift-tools-version:\s*([\d.]+)", open(name).readline())
            version = tools.group(1) if tools else "6.0"
            result = subprocess.run(
                [os.path.join(os.path.dirname(swift_bin), "swiftc"), "-typecheck", "-swift-version", "6",
                 "-package-description-version", version, "-I", api, "-L", api, "-lPackageDescription", name],
                capture_output=True, text=True)
            if result.returncode != 0:
                failed.add((rel, line))
                sys.stdout.write(result.stdout + result.stderr)

    start = time.time()
    result = subprocess.run(
        [args.swift, "build", "--package-path", tests, "--target", "WebImageDocsExamples"] + args.build_flags,
        capture_output=True, text=True)
    output = result.stdout + result.stderr
    if result.returncode != 0:
        sys.stdout.write(output)
        by_file = {name: (rel, line) for rel, line, name in blocks}
        for m in re.finditer(r"^(/[^:\n]+):(\d+):\d+: error:", output, re.M):
            path, at = m.group(1), int(m.group(2))
            if os.path.basename(path) in by_file and path.startswith(sources):
                failed.add(by_file[os.path.basename(path)])   # a hoisted import line
                continue
            rel = os.path.relpath(path, root)
            starts = [l for r, l, _ in blocks if r == rel and l <= at]
            if starts:
                failed.add((rel, max(starts)))
        if not failed:
            failed.add(("(the examples target: see the output above)", 0))
    for rel, line in sorted(failed):
        print("docs-check: FAILED: %s line %d" % (rel, line))
    if failed:
        print("docs-check: %d of %d blocks failed (%.0f s)" % (len(failed), len(blocks) + len(manifest_blocks), time.time() - start))
        return 1
    print("docs-check: all %d blocks compile (%.0f s)" % (len(blocks) + len(manifest_blocks), time.time() - start))
    return 0


if __name__ == "__main__":
    sys.exit(main())
