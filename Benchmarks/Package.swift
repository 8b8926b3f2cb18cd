// swift-tools-version: 6.2
//
// Benchmarks for swift-web-image: each hot path (decode, cache, transport, registry,
// queue, manager) beside the bare C library call or a peer, in the same run. A nested package so that depending on
// swift-web-image never pulls in benchmark code. Run with `make bench`.

import PackageDescription

let package = Package(
    name: "WebImageBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "swift-web-image", path: ".."),
        // The fixtures generator and the loopback server.
        .package(name: "swift-web-image-tools", path: "../Tools"),
        // The proxy, for its option parser's benchmark.
        .package(name: "swift-web-image-proxy", path: "../Proxy"),
    ],
    targets: [
        // The bare C libraries the baselines call.
        .systemLibrary(
            name: "CTurboJPEG",
            path: "Sources/CTurboJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]
        ),
        .systemLibrary(
            name: "CBaselinePNG",
            path: "Sources/CBaselinePNG",
            pkgConfig: "libpng16",
            providers: [.apt(["libpng-dev"])]
        ),
        .systemLibrary(
            name: "CBaselineGIF",
            path: "Sources/CBaselineGIF",
            pkgConfig: "libgif",
            providers: [.apt(["libgif-dev"])]
        ),
        .systemLibrary(
            name: "CBaselineWebP",
            path: "Sources/CBaselineWebP",
            pkgConfig: "libwebpmux",
            providers: [.apt(["libwebp-dev"])]
        ),
        // No pkgConfig: libavif.pc adds `-DAVIF_DLL`, which SwiftPM refuses with a warning.
        .systemLibrary(
            name: "CBaselineAVIF",
            path: "Sources/CBaselineAVIF",
            providers: [.apt(["libavif-dev"])]
        ),
        .systemLibrary(
            name: "CBaselineCurl",
            path: "Sources/CBaselineCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // The baselines themselves: the shortest C that decodes each format to RGBA, and
        // a bare libcurl multi loop.
        .target(
            name: "CBaselines",
            dependencies: ["CTurboJPEG", "CBaselinePNG", "CBaselineGIF", "CBaselineWebP", "CBaselineAVIF", "CBaselineCurl"],
            path: "Sources/CBaselines"
        ),
        .executableTarget(
            name: "WebImageBenchmarks",
            dependencies: [
                .product(name: "WebImageCore", package: "swift-web-image"),
                .product(name: "WebImageDecoding", package: "swift-web-image"),
                .product(name: "WebImageWebP", package: "swift-web-image"),
                .product(name: "WebImageAVIF", package: "swift-web-image"),
                .product(name: "WebImageEncoding", package: "swift-web-image"),
                .product(name: "WebImageCache", package: "swift-web-image"),
                .product(name: "WebImageResources", package: "swift-web-image"),
                .product(name: "WebImageFixtures", package: "swift-web-image-tools"),
                .product(name: "WebImageTransport", package: "swift-web-image"),
                .product(name: "WebImageCallbackRegistry", package: "swift-web-image"),
                .product(name: "WebImageOperations", package: "swift-web-image"),
                .product(name: "WebImageTestServer", package: "swift-web-image-tools"),
                .product(name: "WebImageManager", package: "swift-web-image"),
                .product(name: "WebImageSharedCache", package: "swift-web-image"),
                // The umbrella: the manager composed with the default modules, as apps get it.
                .product(name: "WebImage", package: "swift-web-image"),
                "CBaselines",
                "CTurboJPEG",
            ],
            path: "Sources/WebImageBenchmarks",
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("MemberImportVisibility"),
            ]
        ),
        // The proxy's option parser, timed in a program of its own that the benchmarks run:
        // the proxy's server stack and the benchmarks' system calls do not build into one
        // module (both reach glibc's `stat` and `timespec`, through different modules).
        .executableTarget(
            name: "ProxyParserBenchmark",
            dependencies: [.product(name: "WebImageProxy", package: "swift-web-image-proxy")],
            path: "Sources/ProxyParserBenchmark",
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("MemberImportVisibility"),
            ]
        ),
    ]
)
