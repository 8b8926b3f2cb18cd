// swift-tools-version: 6.2
//
// swift-web-image's developer tooling, a package of its own so that its dependencies
// (SwiftNIO, NIO-SSL, NIO-HTTP2, swift-certificates, swift-crypto, argument-parser)
// never reach an app that depends on the library. It depends on the library by path.
//   webimage         the program (`make run`): demo, serve, fetch, decode, cache, prefetch,
//                    proxy (the image proxy of ../Proxy)
//   WebImageTestServer   a real HTTP/1.1, HTTP/2 and TLS server on loopback, with a test
//                    CA made at run time, for the tests, the benchmarks and the program
//   WebImageFixtures the project's own sample images, made with the C encoders
//   webimage-fuzz    the libFuzzer targets (`make fuzz`); WebImageFuzzing, their harnesses
//   webimage-load    10,000 loads with random cancellation (`make load`)

import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// A library module of the root package.
func library(_ name: String) -> Target.Dependency {
    .product(name: name, package: "swift-web-image")
}

let package = Package(
    name: "swift-web-image-tools",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "webimage", targets: ["webimage"]),
        .executable(name: "webimage-fuzz", targets: ["webimage-fuzz"]),
        .executable(name: "webimage-load", targets: ["webimage-load"]),
        .library(name: "WebImageFixtures", targets: ["WebImageFixtures"]),
        .library(name: "WebImageTestServer", targets: ["WebImageTestServer"]),
        .library(name: "WebImageFuzzing", targets: ["WebImageFuzzing"]),
    ],
    dependencies: [
        .package(name: "swift-web-image", path: ".."),
        .package(name: "swift-web-image-proxy", path: "../Proxy"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        // 3.x and 4.x, like the apps that run these tools beside their own code.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
    ],
    targets: [
        // MARK: Fixtures: sample images made with the C encoders.
        .systemLibrary(
            name: "CFixtureJPEG",
            path: "TestSupport/Fixtures/C/CFixtureJPEG",
            pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg-dev"]), .brew(["jpeg-turbo"])]
        ),
        .systemLibrary(
            name: "CFixtureGIF",
            path: "TestSupport/Fixtures/C/CFixtureGIF",
            pkgConfig: "libgif",
            providers: [.apt(["libgif-dev"]), .brew(["giflib"])]
        ),
        .systemLibrary(
            name: "CFixtureWebP",
            path: "TestSupport/Fixtures/C/CFixtureWebP",
            pkgConfig: "libwebpmux",
            providers: [.apt(["libwebp-dev"]), .brew(["webp"])]
        ),
        .target(
            name: "CWebImageFixtures",
            dependencies: ["CFixtureJPEG", "CFixtureGIF", "CFixtureWebP"],
            path: "TestSupport/Fixtures/C/CWebImageFixtures"
        ),
        .target(
            name: "WebImageFixtures",
            dependencies: [
                library("WebImageCore"), library("WebImageDecoding"), library("WebImageEncoding"), "CWebImageFixtures",
            ],
            path: "TestSupport/Fixtures",
            exclude: ["C"],
            swiftSettings: strictSettings
        ),

        // MARK: The loopback test server
        .systemLibrary(
            name: "CZlib",
            path: "TestSupport/TestServer/CZlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        .target(
            name: "WebImageTestServer",
            dependencies: [
                "CZlib",
                library("WebImageCore"),
                library("WebImageHTTP"),
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
            path: "TestSupport/TestServer",
            exclude: ["CZlib", "README.md"],
            swiftSettings: strictSettings
        ),

        // MARK: The program
        .executableTarget(
            name: "webimage",
            dependencies: [
                library("WebImage"),
                .product(name: "WebImageProxy", package: "swift-web-image-proxy"),
                library("WebImageAVIF"),
                library("WebImageSharedCache"),
                library("WebImageCore"),
                library("WebImageDecoding"),
                "WebImageFixtures",
                "WebImageTestServer",
                // NIOLockedValueBox: a pthread mutex the thread sanitizer sees, as in the load run.
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "webimage",
            swiftSettings: strictSettings
        ),

        // MARK: Reliability tooling
        // What each fuzz target feeds to the library; the regression tests replay saved
        // inputs through the same functions.
        .target(
            name: "WebImageFuzzing",
            dependencies: [
                library("WebImageCore"), library("WebImageDecoding"), library("WebImageWebP"), library("WebImageAVIF"),
                library("WebImageColor"), library("WebImageTransport"), library("WebImageSecurity"), "WebImageFixtures",
            ],
            path: "TestSupport/Fuzz/Harnesses",
            swiftSettings: strictSettings
        ),
        // Built with `-sanitize=fuzzer,address -DWEBIMAGE_FUZZ` by `make fuzz`, it is a
        // libFuzzer binary; in a normal build it replays input files through a harness.
        .executableTarget(
            name: "webimage-fuzz",
            dependencies: ["WebImageFuzzing"],
            path: "TestSupport/Fuzz/Entry",
            swiftSettings: strictSettings
        ),
        // 10,000 loads over 1,000 URLs with random cancellation, in a process of its own
        // so that its peak memory is its own (`make load`, and a reliability test).
        .executableTarget(
            name: "webimage-load",
            dependencies: [
                library("WebImage"), "WebImageFixtures", "WebImageTestServer",
                // Its locks: pthread mutexes, which the thread sanitizer sees (the tests run
                // it under TSan); Synchronization.Mutex is futex calls it cannot see.
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            path: "TestSupport/Load",
            swiftSettings: strictSettings
        ),
    ]
)
