// swift-tools-version: 6.2
//
// swift-web-image's image proxy, a package of its own so that Hummingbird and its server
// stack never reach an app that takes a library module (the consumer check holds the
// root manifest to no dependency at all). It depends on the library by path.
//   WebImageProxy   thumbnails of remote images made on demand, imgproxy-style URLs,
//                   signed; `ImageProxy` answers requests without any server, and
//                   `ImageProxy.addRoutes(to:)` mounts it on a Hummingbird router. Its
//                   decoders, encoders and JPEG-to-JPEG thumbnail are the library's.
// `webimage proxy` (Tools/) runs it as a program.

import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "swift-web-image-proxy",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "WebImageProxy", targets: ["WebImageProxy"])
    ],
    dependencies: [
        .package(name: "swift-web-image", path: ".."),
        // Without its default traits: no swift-configuration, no full Foundation.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        // 3.x and 4.x, like the apps that mount the proxy beside their own code.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        .target(
            name: "WebImageProxy",
            dependencies: [
                .product(name: "WebImage", package: "swift-web-image"),
                .product(name: "WebImageConcurrency", package: "swift-web-image"),
                .product(name: "WebImageResources", package: "swift-web-image"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "WebImageProxy",
            swiftSettings: strictSettings
        )
    ]
)
