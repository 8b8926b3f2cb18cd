// swift-tools-version: 6.1
//
// swift-web-image: small reusable modules that load images from the web on Linux.
// Each module is its own product, so an app can depend on just the parts it uses.
// The benchmarks live in a nested package (Benchmarks/) so that depending on this
// package never pulls in benchmark tooling.

import PackageDescription

/// Settings every Swift target shares: Swift 6 mode (from the tools version) plus the
/// upcoming features we hold ourselves to.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "swift-web-image",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "WebImageCore", targets: ["WebImageCore"]),
        .library(name: "WebImageDecoding", targets: ["WebImageDecoding"]),
        .library(name: "WebImageCache", targets: ["WebImageCache"]),
        .library(name: "WebImageTransport", targets: ["WebImageTransport"]),
        .library(name: "WebImageSecurity", targets: ["WebImageSecurity"]),
        .library(name: "WebImageCallbackRegistry", targets: ["WebImageCallbackRegistry"]),
        .library(name: "WebImageOperations", targets: ["WebImageOperations"]),
        .library(name: "WebImageManager", targets: ["WebImageManager"]),
        // Everything above composed with the defaults: what most apps depend on.
        .library(name: "WebImage", targets: ["WebImage"]),
        // Developer tooling: generates sample images with the C encoders for tests,
        // benchmarks and the `webimage` program. Apps do not need it.
        .library(name: "WebImageFixtures", targets: ["WebImageFixtures"]),
        .executable(name: "webimage", targets: ["webimage"]),
        // Developer tooling: a real HTTP(S) server on loopback (SwiftNIO) for the
        // transport tests, the benchmarks and tools. Apps do not need it.
        .library(name: "WebImageTestServer", targets: ["WebImageTestServer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // The loopback test server (Tools/TestServer) only.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        // 3.x and 4.x: an app that also uses vapor/jwt (swift-crypto 4) must resolve.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
    ],
    targets: [
        // MARK: Core: vocabulary and protocols, no I/O and no C.
        .target(
            name: "WebImageCore",
            path: "Modules/Core",
            swiftSettings: strictSettings
        ),

        // MARK: Decoding: PNG, JPEG and GIF on the system codecs.
        .systemLibrary(
            name: "CLibPNG",
            path: "Modules/Decoding/C/CLibPNG",
            pkgConfig: "libpng16",
            providers: [.apt(["libpng-dev"])]
        ),
        .systemLibrary(
            name: "CLibJPEG",
            path: "Modules/Decoding/C/CLibJPEG",
            pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"])]
        ),
        .systemLibrary(
            name: "CGIFLib",
            path: "Modules/Decoding/C/CGIFLib",
            pkgConfig: "libgif",
            providers: [.apt(["libgif-dev"])]
        ),
        // C glue for what Swift cannot express: libpng and libjpeg report errors by
        // longjmp, so every call that may fail runs inside a setjmp frame in C.
        .target(
            name: "CWebImageDecoding",
            dependencies: ["CLibPNG", "CLibJPEG", "CGIFLib"],
            path: "Modules/Decoding/C/CWebImageDecoding"
        ),
        .target(
            name: "WebImageDecoding",
            dependencies: ["WebImageCore", "CWebImageDecoding", "CLibPNG", "CLibJPEG", "CGIFLib"],
            path: "Modules/Decoding",
            exclude: ["C"],
            swiftSettings: strictSettings
        ),

        // MARK: Cache: memory and disk caches.
        .target(
            name: "WebImageCache",
            dependencies: ["WebImageCore"],
            path: "Modules/Cache",
            swiftSettings: strictSettings
        ),

        // MARK: Transport: HTTP(S), file and data URLs on libcurl's multi interface.
        .systemLibrary(
            name: "CLibCurl",
            path: "Modules/Transport/C/CLibCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            path: "Modules/Transport/C/COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        // Typed wrappers for libcurl's variadic calls, and the OpenSSL hook that hands the
        // server's chain to a Swift trust evaluator during the handshake.
        .target(
            name: "CWebImageTransport",
            dependencies: ["CLibCurl", "COpenSSL"],
            path: "Modules/Transport/C/CWebImageTransport"
        ),
        .target(
            name: "WebImageTransport",
            dependencies: ["WebImageCore", "CWebImageTransport", "CLibCurl"],
            path: "Modules/Transport",
            exclude: ["C"],
            swiftSettings: strictSettings
        ),

        // MARK: Security: server trust policy (evaluators, pinning) and authentication.
        .target(
            name: "WebImageSecurity",
            dependencies: ["WebImageCore"],
            path: "Modules/Security",
            exclude: ["README.md"],
            swiftSettings: strictSettings
        ),

        // MARK: CallbackRegistry: subscribers per key, fan-out, composite event monitor.
        .target(
            name: "WebImageCallbackRegistry",
            dependencies: ["WebImageCore"],
            path: "Modules/CallbackRegistry",
            swiftSettings: strictSettings
        ),

        // MARK: Operations: the download queue, its operations and the downloader.
        .target(
            name: "WebImageOperations",
            dependencies: ["WebImageCore"],
            path: "Modules/Operations",
            swiftSettings: strictSettings
        ),

        // MARK: Manager: the pipeline, the failed-URL set, the prefetcher.
        .target(
            name: "WebImageManager",
            dependencies: ["WebImageCore"],
            path: "Modules/Manager",
            swiftSettings: strictSettings
        ),

        // MARK: WebImage: the umbrella that composes the defaults and re-exports the modules.
        .target(
            name: "WebImage",
            dependencies: [
                "WebImageCore", "WebImageDecoding", "WebImageCache", "WebImageTransport", "WebImageSecurity",
                "WebImageCallbackRegistry", "WebImageOperations", "WebImageManager",
            ],
            path: "Modules/WebImage",
            swiftSettings: strictSettings
        ),

        // MARK: Tools
        .target(
            name: "CWebImageFixtures",
            dependencies: ["CLibJPEG", "CGIFLib"],
            path: "Tools/Fixtures/C/CWebImageFixtures"
        ),
        .target(
            name: "WebImageFixtures",
            dependencies: ["WebImageCore", "WebImageDecoding", "CWebImageFixtures"],
            path: "Tools/Fixtures",
            exclude: ["C"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "webimage",
            dependencies: [
                "WebImage",
                "WebImageCore",
                "WebImageDecoding",
                "WebImageFixtures",
                "WebImageTestServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tools/webimage",
            swiftSettings: strictSettings
        ),
        .systemLibrary(
            name: "CZlib",
            path: "Tools/TestServer/CZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .target(
            name: "WebImageTestServer",
            dependencies: [
                "CZlib",
                "WebImageCore",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            path: "Tools/TestServer",
            exclude: ["CZlib", "README.md"],
            swiftSettings: strictSettings
        ),

        // MARK: Reliability tooling
        // What each fuzz target feeds to the library; the regression tests replay saved
        // inputs through the same functions.
        .target(
            name: "WebImageFuzzing",
            dependencies: ["WebImageCore", "WebImageDecoding", "WebImageTransport", "WebImageSecurity", "WebImageFixtures"],
            path: "Tools/Fuzz/Harnesses",
            swiftSettings: strictSettings
        ),
        // Built with `-sanitize=fuzzer,address -DWEBIMAGE_FUZZ` by `make fuzz`, it is a
        // libFuzzer binary; in a normal build it replays input files through a harness.
        .executableTarget(
            name: "webimage-fuzz",
            dependencies: ["WebImageFuzzing"],
            path: "Tools/Fuzz/Entry",
            swiftSettings: strictSettings
        ),
        // 10,000 loads over 1,000 URLs with random cancellation, in a process of its own
        // so that its peak memory is its own (`make load`, and a reliability test).
        .executableTarget(
            name: "webimage-load",
            dependencies: ["WebImage", "WebImageFixtures", "WebImageTestServer", "WebImageTestSupport"],
            path: "Tools/Load",
            swiftSettings: strictSettings
        ),

        // MARK: Tests
        .target(
            name: "WebImageTestSupport",
            dependencies: ["WebImageCore", "WebImageDecoding", "WebImageCache", "WebImageFixtures"],
            path: "Tests/Support",
            // Optimised even in debug builds: it hashes every decoded corpus image, and
            // unoptimised SHA-256 would dominate the suite's time.
            swiftSettings: strictSettings + [.unsafeFlags(["-O"])]
        ),
        .testTarget(
            name: "WebImageCoreTests",
            dependencies: ["WebImageCore", "WebImageTestSupport"],
            path: "Tests/CoreTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebImageDecodingTests",
            dependencies: ["WebImageCore", "WebImageDecoding", "WebImageFixtures", "WebImageTestSupport"],
            path: "Tests/DecodingTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebImageCacheTests",
            dependencies: ["WebImageCore", "WebImageCache", "WebImageTestSupport"],
            path: "Tests/CacheTests",
            swiftSettings: strictSettings
        ),
        // A second process for the disk cache tests: writes entries in a loop until
        // killed, or races another writer over the same keys.
        .executableTarget(
            name: "webimage-cache-writer",
            dependencies: ["WebImageCore", "WebImageCache", "WebImageTestSupport"],
            path: "Tests/CacheWriter",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebImageTransportTests",
            dependencies: ["WebImageCore", "WebImageTransport", "WebImageSecurity", "WebImageTestServer", "WebImageTestSupport"],
            path: "Tests/TransportTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebImageSecurityTests",
            dependencies: ["WebImageCore", "WebImageSecurity"],
            path: "Tests/SecurityTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebImageCallbackRegistryTests",
            dependencies: ["WebImageCore", "WebImageCallbackRegistry"],
            path: "Tests/CallbackRegistryTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebImageOperationsTests",
            dependencies: [
                "WebImageCore", "WebImageOperations", "WebImageCallbackRegistry", "WebImageTransport",
                "WebImageDecoding", "WebImageFixtures", "WebImageTestServer", "WebImageTestSupport",
            ],
            path: "Tests/OperationsTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebImageManagerTests",
            dependencies: [
                "WebImage", "WebImageCore", "WebImageManager", "WebImageFixtures", "WebImageTestServer", "WebImageTestSupport",
            ],
            path: "Tests/ManagerTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebImageToolTests",
            dependencies: ["WebImageCore", "WebImageDecoding", "WebImageFixtures", "WebImageTestSupport"],
            path: "Tests/ToolTests",
            swiftSettings: strictSettings
        ),
        // Faults and security checks through the whole default composition.
        .testTarget(
            name: "WebImageReliabilityTests",
            dependencies: ["WebImage", "WebImageCore", "WebImageFixtures", "WebImageTestServer", "WebImageTestSupport"],
            path: "Tests/ReliabilityTests",
            swiftSettings: strictSettings
        ),
        // Every input a fuzzer ever crashed, replayed through its harness.
        .testTarget(
            name: "WebImageFuzzingTests",
            dependencies: ["WebImageFuzzing", "WebImageTestSupport"],
            path: "Tests/FuzzingTests",
            // The saved inputs, read by path (like the corpus), not built.
            exclude: ["Regressions"],
            swiftSettings: strictSettings
        ),
        // The load run (webimage-load) as a second process, checked.
        .testTarget(
            name: "WebImageLoadTests",
            dependencies: ["WebImageTestSupport"],
            path: "Tests/LoadTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebImageTestServerTests",
            dependencies: ["WebImageTestServer", "WebImageTestSupport"],
            path: "Tests/TestServerTests",
            swiftSettings: strictSettings
        ),
    ]
)
