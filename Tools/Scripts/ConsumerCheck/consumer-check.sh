#!/usr/bin/env bash
# consumer-check: the library as an app sees it (`make consumer-check`, run by `make test`).
#
# For each scratch app here (DecodingConsumer: WebImageDecoding alone; CacheConsumer:
# WebImageCache alone) it makes a package outside the repository that depends on this one
# by path, resolves it and fails if the resolution holds any package but this one: the
# library must pull in nothing (no tooling dependency may leak back into the root
# manifest). Then it builds the app and runs it; each app checks its own result.
# (SwiftPM 6.3 leaves out a package that only product-less targets use, but pulls in
# every package that any product of the root uses, even a product the app never takes:
# a tool moved back into the root as a product is the leak this catches.)
#
# CONSUMER_CHECK_DIR chooses where the apps are made (default: a new folder under the
# system's temporary directory, removed afterwards); CONSUMERS narrows the list.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
swift=${SWIFT:-swift}
consumers=${CONSUMERS:-DecodingConsumer CacheConsumer}

if [[ -n "${CONSUMER_CHECK_DIR:-}" ]]; then
    work=$CONSUMER_CHECK_DIR
    mkdir -p "$work"
else
    work=$(mktemp -d "${TMPDIR:-/tmp}/webimage-consumer.XXXXXX")
    trap 'rm -rf "$work"' EXIT
fi
case "$work/" in
"$root"/*) echo "consumer-check: $work is inside the repository; choose a folder outside it" >&2; exit 2 ;;
esac

for consumer in $consumers; do
    app=$work/$consumer
    rm -rf "$app" && mkdir -p "$app"
    cp -R "$here/$consumer/Sources" "$app/"
    sed "s|@ROOT@|$root|g" "$here/$consumer/Package.swift.in" >"$app/Package.swift"

    echo "consumer-check: $consumer: resolving"
    "$swift" package --package-path "$app" resolve
    # One line per package in the graph, the app first; only the library may follow.
    packages=$("$swift" package --package-path "$app" show-dependencies --format flatlist)
    extra=$(printf '%s\n' "$packages" | grep -v -x -e "$(basename "$root" | tr 'A-Z' 'a-z')" -e "swift-web-image" -e "" || true)
    if [[ -n "$extra" ]]; then
        echo "consumer-check: $consumer: resolving pulled packages the library must not need:" >&2
        printf '  %s\n' $extra >&2
        echo "consumer-check: move them out of the root Package.swift (Tools/, Tests/ or Benchmarks/)" >&2
        exit 1
    fi
    echo "consumer-check: $consumer: resolved to the library alone"

    echo "consumer-check: $consumer: building and running"
    "$swift" build --package-path "$app" -Xswiftc -warnings-as-errors
    "$app/.build/debug/$consumer"
done
echo "consumer-check: passed ($consumers)"
