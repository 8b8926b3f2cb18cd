#!/usr/bin/env python3
"""Builds the DocC documentation of the library's modules into one archive.

`make docs` runs this after building the test package, whose build emits every module's
symbol graph as it compiles (the compiler's -emit-symbol-graph, with the options
swift-docc-plugin uses: public symbols, synthesized members, extension blocks). So the
documentation reuses the library the suite has built instead of compiling it again.

For each module, dependencies first, it runs `docc convert` on Modules/<Folder>/<Module>.docc
with that module's symbol graphs and the archives of the documented modules it depends on
(so a link to another module's symbol resolves), every warning an error; then `docc merge`
combines the archives into one with a landing page for the package.

Usage: Tools/Scripts/Docs/build-docs.py --symbol-graphs DIR --scratch DIR --output ARCHIVE MODULE...
"""

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys


def direct_dependencies(root, swift):
    """{target: [target or product names it depends on]} from the root manifest."""
    dump = subprocess.run([swift, "package", "--package-path", root, "dump-package"], capture_output=True, text=True, check=True)
    dependencies = {}
    for target in json.loads(dump.stdout)["targets"]:
        names = []
        for dependency in target["dependencies"]:
            for value in dependency.values():   # {"byName": [name, condition]}, {"target": ...}, {"product": ...}
                names.append(value[0])
        dependencies[target["name"]] = names
    return dependencies


def in_dependency_order(modules, dependencies):
    ordered, seen = [], set()

    def visit(module):
        if module in seen:
            return
        seen.add(module)
        for dependency in dependencies.get(module, []):
            if dependency in modules:
                visit(dependency)
        ordered.append(module)

    for module in modules:
        visit(module)
    return ordered


def catalog(root, module):
    found = glob.glob(os.path.join(root, "Modules", "*", module + ".docc"))
    if len(found) != 1:
        sys.exit("build-docs: expected one catalog %s.docc under Modules/, found %d" % (module, len(found)))
    return found[0]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description="Build the DocC archive of the library's modules.")
    parser.add_argument("--root", default=os.path.normpath(os.path.join(here, "..", "..", "..")))
    parser.add_argument("--symbol-graphs", required=True, help="where the build emitted the symbol graphs")
    parser.add_argument("--scratch", required=True)
    parser.add_argument("--output", required=True)
    parser.add_argument("--swift", default=os.environ.get("SWIFT", "swift"))
    parser.add_argument("modules", nargs="+")
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    docc = shutil.which("docc") or os.path.join(os.path.dirname(os.path.realpath(shutil.which(args.swift))), "docc")

    dependencies = direct_dependencies(root, args.swift)
    modules = in_dependency_order(args.modules, dependencies)
    intermediates = os.path.join(args.scratch, "intermediates")
    shutil.rmtree(intermediates, ignore_errors=True)
    archives = {}
    for module in modules:
        # Only this module's graphs: the module's own and its extensions of other modules'
        # types (Module@Other.symbols.json).
        graphs = os.path.join(intermediates, module + ".symbols")
        os.makedirs(graphs)
        own = glob.glob(os.path.join(args.symbol_graphs, module + ".symbols.json"))
        if not own:
            sys.exit("build-docs: no symbol graph of %s in %s: build the test package first" % (module, args.symbol_graphs))
        for path in own + glob.glob(os.path.join(args.symbol_graphs, module + "@*.symbols.json")):
            shutil.copy(path, graphs)
        archive = os.path.join(intermediates, module + ".doccarchive")
        command = [docc, "convert", catalog(root, module), "--warnings-as-errors", "--emit-lmdb-index",
                   "--fallback-display-name", module, "--fallback-bundle-identifier", module,
                   "--additional-symbol-graph-dir", graphs, "--output-path", archive,
                   "--enable-experimental-external-link-support"]
        for dependency in dependencies.get(module, []):
            if dependency in archives:
                command += ["--dependency", archives[dependency]]
        print("build-docs: %s" % module, flush=True)
        if subprocess.run(command).returncode != 0:
            sys.exit("build-docs: docc convert failed for %s" % module)
        archives[module] = archive

    shutil.rmtree(args.output, ignore_errors=True)
    merge = [docc, "merge"] + [archives[m] for m in modules] + [
        "--output-path", args.output, "--synthesized-landing-page-name", "swift-web-image",
        "--synthesized-landing-page-kind", "Package"]
    if subprocess.run(merge).returncode != 0:
        sys.exit("build-docs: docc merge failed")
    print("build-docs: %d modules in %s" % (len(modules), args.output))
    return 0


if __name__ == "__main__":
    sys.exit(main())
