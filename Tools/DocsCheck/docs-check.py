#!/usr/bin/env python3
"""Compiles every ```swift block of README.md and of the modules' DocC catalogs.

`make docs-check` runs this. It writes a scratch package into .build-docs-check/ that
depends on the root package, the Integrations package and the Proxy package by absolute
path and has every library product (and the adapters' and the proxy's, with swift-log,
swift-service-lifecycle, swift-configuration and Hummingbird for their examples), puts
each block into a file of its own, builds it with `swift build`, and reports which block
failed as "README.md line N" (the compiler's own messages point at the Markdown file
too, through #sourceLocation). Exit status: 0 when every block compiles, 1 otherwise.

How a block becomes a file:
- Fences: only blocks opened with ```swift are compiled; ```sh, ``` and the rest are
  ignored.
- `import` lines are hoisted to the top of the file; everything else goes, in order,
  into the body of `func exampleN() async throws { ... }`, so that statements,
  `try await`, local functions and local types compile as they are. The function is
  never called: the check compiles, it does not run.
- A block whose first line is `// file-level` is kept as it is, at file scope (for
  examples that declare extensions, protocols or conformances, which cannot be local).
- A block whose first line starts with `// swift-tools-version` is a package manifest:
  it is type-checked against the toolchain's PackageDescription instead.

Usage: Tools/DocsCheck/docs-check.py [--root DIR] [--scratch DIR] [--swift SWIFT]
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import time

PRODUCTS = [
    "WebImageCore", "WebImageConcurrency", "WebImageHTTP", "WebImageDecoding", "WebImageWebP", "WebImageAVIF", "WebImageEncoding", "WebImageCache",
    "WebImageTransport", "WebImageSecurity", "WebImageCallbackRegistry", "WebImageOperations", "WebImageManager", "WebImageReachability", "WebImageSharedCache", "WebImage",
]
CATALOG_MODULES = {
    "Core": "WebImageCore", "Concurrency": "WebImageConcurrency", "HTTP": "WebImageHTTP", "Decoding": "WebImageDecoding", "WebP": "WebImageWebP", "AVIF": "WebImageAVIF",
    "Encoding": "WebImageEncoding", "Cache": "WebImageCache",
    "Transport": "WebImageTransport", "Security": "WebImageSecurity",
    "CallbackRegistry": "WebImageCallbackRegistry", "Operations": "WebImageOperations",
    "Manager": "WebImageManager", "Reachability": "WebImageReachability", "SharedCache": "WebImageSharedCache",
    "WebImage": "WebImage",
}
# The packages beside the library (Integrations/, Proxy/) and the APIs their examples use.
INTEGRATION_PRODUCTS = [
    ("WebImageLogging", "swift-web-image-integrations"), ("WebImageMetrics", "swift-web-image-integrations"),
    ("WebImageTracing", "swift-web-image-integrations"), ("WebImageLifecycle", "swift-web-image-integrations"),
    ("WebImageProxy", "swift-web-image-proxy"), ("Logging", "swift-log"),
    ("ServiceLifecycle", "swift-service-lifecycle"), ("UnixSignals", "swift-service-lifecycle"), ("Hummingbird", "hummingbird"),
    ("WebImageConfigReader", "swift-web-image-integrations"), ("Configuration", "swift-configuration"),
]
# The integrations' own catalogs: Integrations/<folder>/<module>.docc.
INTEGRATION_CATALOG_MODULES = {"ConfigReader": "WebImageConfigReader"}
FILE_LEVEL = "// file-level"
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
    return "\n".join(
        imports
        + ["", "@available(*, deprecated, message: \"compiled by make docs-check, never run\")",
           "func example%d() async throws {" % index, location]
        + kept
        + ["#sourceLocation()", "}", ""])


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description="Compile the Swift examples of the README and the DocC catalogs.")
    parser.add_argument("--root", default=os.path.normpath(os.path.join(here, "..", "..")))
    parser.add_argument("--scratch", default=None, help="default: <root>/.build-docs-check")
    parser.add_argument("--swift", default=os.environ.get("SWIFT", "swift"))
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    scratch = os.path.abspath(args.scratch or os.path.join(root, ".build-docs-check"))

    package = os.path.join(scratch, "package")
    sources = os.path.join(package, "Sources", "DocsExamples")
    manifests = os.path.join(scratch, "manifests")
    for folder in (sources, manifests):
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)

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

    products = ",\n".join(
        ['                .product(name: "%s", package: "swift-web-image")' % p for p in PRODUCTS]
        + ['                .product(name: "%s", package: "%s")' % pair for pair in INTEGRATION_PRODUCTS])
    with open(os.path.join(package, "Package.swift"), "w") as f:
        f.write("""// swift-tools-version: 6.2
// Generated by Tools/DocsCheck/docs-check.py: one file per ```swift block.
import PackageDescription

let package = Package(
    name: "DocsCheck",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "swift-web-image", path: %s),
        .package(name: "swift-web-image-integrations", path: %s),
        .package(name: "swift-web-image-proxy", path: %s),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
        // As the proxy takes it: without its default traits.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
    ],
    targets: [
        .target(
            name: "DocsExamples",
            dependencies: [
%s,
            ],
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]
        ),
    ]
)
""" % ('"%s"' % root, '"%s"' % os.path.join(root, "Integrations"), '"%s"' % os.path.join(root, "Proxy"), products))

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
        [args.swift, "build", "--package-path", package, "--scratch-path", os.path.join(scratch, "build")],
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
            failed.add(("(the generated package: see the output above)", 0))
    for rel, line in sorted(failed):
        print("docs-check: FAILED: %s line %d" % (rel, line))
    if failed:
        print("docs-check: %d of %d blocks failed (%.0f s)" % (len(failed), len(blocks) + len(manifest_blocks), time.time() - start))
        return 1
    print("docs-check: all %d blocks compile (%.0f s)" % (len(blocks) + len(manifest_blocks), time.time() - start))
    return 0


if __name__ == "__main__":
    sys.exit(main())
