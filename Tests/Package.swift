// swift-tools-version: 6.2
//
// swift-web-image's test suite, a package of its own so that the loopback server's
// dependencies (SwiftNIO and friends, through ../Tools) never reach an app that depends
// on the library. It depends on the library and on the tools by path; `make test` builds
// it with the programs the tests run as second processes and runs it.
//
// The tests reach `package` declarations of the library (`Locked`, for one) through
// `@testable import`, which debug builds allow.

import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// A library module of the root package.
func library(_ name: String) -> Target.Dependency {
    .product(name: name, package: "swift-web-image")
}

/// A module of the tools package.
func tool(_ name: String) -> Target.Dependency {
    .product(name: name, package: "swift-web-image-tools")
}

let package = Package(
    name: "swift-web-image-tests",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "swift-web-image", path: ".."),
        .package(name: "swift-web-image-tools", path: "../Tools"),
        .package(name: "swift-web-image-integrations", path: "../Integrations"),
        .package(name: "swift-web-image-proxy", path: "../Proxy"),
        // The in-memory backends the adapters' tests read (the adapters bring the APIs).
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The reference hash of decoded images (BoringSSL's SHA-256, assembly: as fast
        // under a sanitizer as without one). Already in the graph through Tools/.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
        // The proxy's HTTP server, for the documentation's proxy examples; as the proxy
        // takes it, without its default traits.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
    ],
    targets: [
        // Every ```swift block of the README and the DocC catalogs, one generated file each
        // (`make docs-check`, Tools/Scripts/DocsCheck/docs-check.py), compiled in this package's
        // build folder so that the check reuses the library the suite has built.
        .target(
            name: "WebImageDocsExamples",
            dependencies: [
                library("WebImageCore"), library("WebImageConcurrency"), library("WebImageHTTP"), library("WebImageDecoding"),
                library("WebImageWebP"), library("WebImageAVIF"), library("WebImageEncoding"), library("WebImageCache"),
                library("WebImageColor"),
                library("WebImageTransport"), library("WebImageSecurity"), library("WebImageCallbackRegistry"),
                library("WebImageOperations"), library("WebImageManager"), library("WebImageReachability"),
                library("WebImageSharedCache"), library("WebImage"), library("WebImageResources"),
                .product(name: "WebImageLogging", package: "swift-web-image-integrations"),
                .product(name: "WebImageMetrics", package: "swift-web-image-integrations"),
                .product(name: "WebImageTracing", package: "swift-web-image-integrations"),
                .product(name: "WebImageLifecycle", package: "swift-web-image-integrations"),
                .product(name: "WebImageConfigReader", package: "swift-web-image-integrations"),
                .product(name: "WebImageProxy", package: "swift-web-image-proxy"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            path: "DocsExamples",
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]
        ),
        .target(
            name: "WebImageTestSupport",
            dependencies: [
                library("WebImageConcurrency"), library("WebImageCore"), library("WebImageDecoding"), library("WebImageCache"),
                tool("WebImageFixtures"), .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Support",
            // Optimised even in debug builds: it prepares every decoded corpus image for
            // its hash, and unoptimised loops would dominate the suite's time.
            swiftSettings: strictSettings + [.unsafeFlags(["-O"])]
        ),
        .testTarget(
            name: "WebImageCoreTests",
            dependencies: [library("WebImageCore"), "WebImageTestSupport"],
            path: "CoreTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebImageResourcesTests",
            dependencies: [library("WebImageCore"), library("WebImageConcurrency"), library("WebImageResources"), "WebImageTestSupport"],
            path: "ResourcesTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebImageConcurrencyTests",
            dependencies: [
                library("WebImageCore"), library("WebImageConcurrency"), library("WebImageCallbackRegistry"), "WebImageTestSupport",
            ],
            path: "ConcurrencyTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebImageHTTPTests",
            dependencies: [library("WebImageCore"), library("WebImageHTTP")],
            path: "HTTPTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebImageDecodingTests",
            dependencies: [
                library("WebImageCore"), library("WebImageConcurrency"), library("WebImageDecoding"), library("WebImageEncoding"),
                library("WebImageResources"), tool("WebImageFixtures"), "WebImageTestSupport",
            ],
            path: "DecodingTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebImageWebPTests",
            dependencies: [
                library("WebImageCore"), library("WebImageDecoding"), library("WebImageWebP"), library("WebImageResources"),
                tool("WebImageFixtures"), "WebImageTestSupport",
            ],
            path: "WebPTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebImageAVIFTests",
            dependencies: [
                library("WebImageCore"), library("WebImageDecoding"), library("WebImageAVIF"), tool("WebImageFixtures"),
                "WebImageTestSupport",
            ],
            path: "AVIFTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebImageColorTests",
            dependencies: [
                library("WebImageCore"), library("WebImageDecoding"), library("WebImageWebP"), library("WebImageAVIF"),
                library("WebImageEncoding"), library("WebImageColor"), "WebImageTestSupport",
            ],
            path: "ColorTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebImageEncodingTests",
            dependencies: [
                library("WebImageCore"), library("WebImageConcurrency"), library("WebImageDecoding"), library("WebImageWebP"),
                library("WebImageEncoding"), tool("WebImageFixtures"), "WebImageTestSupport",
            ],
            path: "EncodingTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebImageCacheTests",
            dependencies: [library("WebImageConcurrency"), library("WebImageCore"), library("WebImageCache"), "WebImageTestSupport"],
            path: "CacheTests",
            swiftSettings: strictSettings
        ),
        // A second process for the disk cache tests: writes entries in a loop until
        // killed, or races another writer over the same keys.
        .executableTarget(
            name: "webimage-cache-writer",
            dependencies: [library("WebImageCore"), library("WebImageCache"), "WebImageTestSupport"],
            path: "CacheWriter",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebImageTransportTests",
            dependencies: [
                library("WebImageConcurrency"),
                library("WebImageCore"), library("WebImageTransport"), library("WebImageSecurity"),
                tool("WebImageTestServer"), "WebImageTestSupport",
            ],
            path: "TransportTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebImageSecurityTests",
            dependencies: [library("WebImageConcurrency"), library("WebImageCore"), library("WebImageSecurity")],
            path: "SecurityTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebImageCallbackRegistryTests",
            dependencies: [
                library("WebImageConcurrency"), library("WebImageCore"), library("WebImageCallbackRegistry"), "WebImageTestSupport",
            ],
            path: "CallbackRegistryTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebImageOperationsTests",
            dependencies: [
                library("WebImageConcurrency"),
                library("WebImageCore"), library("WebImageOperations"), library("WebImageCallbackRegistry"),
                library("WebImageTransport"), library("WebImageDecoding"), tool("WebImageFixtures"),
                tool("WebImageTestServer"), "WebImageTestSupport",
            ],
            path: "OperationsTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebImageIntegrationsTests",
            dependencies: [
                library("WebImage"), library("WebImageConcurrency"), tool("WebImageFixtures"), tool("WebImageTestServer"),
                "WebImageTestSupport",
                .product(name: "WebImageLogging", package: "swift-web-image-integrations"),
                .product(name: "WebImageMetrics", package: "swift-web-image-integrations"),
                .product(name: "WebImageTracing", package: "swift-web-image-integrations"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "WebImageLifecycle", package: "swift-web-image-integrations"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
                .product(name: "WebImageConfigReader", package: "swift-web-image-integrations"),
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            path: "IntegrationsTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebImageProxyTests",
            dependencies: [
                library("WebImage"), library("WebImageConcurrency"), tool("WebImageFixtures"), tool("WebImageTestServer"),
                "WebImageTestSupport", .product(name: "WebImageProxy", package: "swift-web-image-proxy"),
            ],
            path: "ProxyTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebImageManagerTests",
            dependencies: [
                library("WebImageConcurrency"),
                library("WebImage"), library("WebImageCore"), library("WebImageDecoding"), library("WebImageManager"),
                tool("WebImageFixtures"), tool("WebImageTestServer"), "WebImageTestSupport",
            ],
            path: "ManagerTests",
            swiftSettings: strictSettings
        ),
        // The shared cache tier: its pure parts, then real redis-server processes on
        // loopback (skipped with a message where redis-server is not installed).
        .testTarget(
            name: "WebImageSharedCacheTests",
            dependencies: [
                library("WebImage"), library("WebImageConcurrency"), library("WebImageCore"), library("WebImageSharedCache"),
                tool("WebImageFixtures"), tool("WebImageTestServer"), "WebImageTestSupport",
                .product(name: "WebImageProxy", package: "swift-web-image-proxy"),
            ],
            path: "SharedCacheTests",
            swiftSettings: strictSettings
        ),
        // Reachability: netlink parsing and the status from bytes, the monitor here, and
        // the `webimage` program inside network namespaces the tests make (root only).
        .testTarget(
            name: "WebImageReachabilityTests",
            dependencies: [
                library("WebImageConcurrency"), library("WebImageCore"), library("WebImageReachability"), tool("WebImageFixtures"),
                "WebImageTestSupport",
            ],
            path: "ReachabilityTests",
            swiftSettings: strictSettings
        ),
        // The `webimage` program, run as a second process (built by `make test`).
        .testTarget(
            name: "WebImageToolTests",
            dependencies: [
                library("WebImageCore"), library("WebImageDecoding"), tool("WebImageFixtures"), tool("WebImageTestServer"),
                "WebImageTestSupport",
            ],
            path: "ToolTests",
            swiftSettings: strictSettings
        ),
        // Faults and security checks through the whole default composition.
        .testTarget(
            name: "WebImageReliabilityTests",
            dependencies: [
                library("WebImageConcurrency"),
                library("WebImage"), library("WebImageCore"), tool("WebImageFixtures"), tool("WebImageTestServer"),
                "WebImageTestSupport",
            ],
            path: "ReliabilityTests",
            swiftSettings: strictSettings
        ),
        // Every input a fuzzer ever crashed, replayed through its harness.
        .testTarget(
            name: "WebImageFuzzingTests",
            dependencies: [tool("WebImageFuzzing"), "WebImageTestSupport"],
            path: "FuzzingTests",
            // The saved inputs, read by path (like the corpus), not built.
            exclude: ["Regressions"],
            swiftSettings: strictSettings
        ),
        // The load run (webimage-load, built by `make test`) as a second process, checked.
        .testTarget(
            name: "WebImageLoadTests",
            dependencies: ["WebImageTestSupport"],
            path: "LoadTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebImageTestServerTests",
            dependencies: [tool("WebImageTestServer"), "WebImageTestSupport"],
            path: "TestServerTests",
            swiftSettings: strictSettings
        ),
    ]
)
