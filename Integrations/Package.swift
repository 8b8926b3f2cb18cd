// swift-tools-version: 6.2
//
// swift-web-image-integrations: the manager's load events as logs (apple/swift-log),
// metrics (apple/swift-metrics) and traces (apple/swift-distributed-tracing), the
// manager as a swift-server/swift-service-lifecycle Service, and the manager's and the
// image proxy's settings read through apple/swift-configuration (environment variables,
// JSON files).
//
// A package of its own, beside the library, so that an app taking any module of
// swift-web-image resolves none of these: SwiftPM pulls every package that any product of
// a root manifest uses into every app that depends on it, even for products the app never
// takes (Tools/Scripts/ConsumerCheck proves the library alone stays free of them). An app that
// wants an adapter adds this package as well. It depends on the library by path here, in
// the library's repository; published on its own, that line names the library's URL.

import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "swift-web-image-integrations",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "WebImageLogging", targets: ["WebImageLogging"]),
        .library(name: "WebImageMetrics", targets: ["WebImageMetrics"]),
        .library(name: "WebImageTracing", targets: ["WebImageTracing"]),
        .library(name: "WebImageLifecycle", targets: ["WebImageLifecycle"]),
        .library(name: "WebImageConfigReader", targets: ["WebImageConfigReader"]),
    ],
    dependencies: [
        .package(name: "swift-web-image", path: ".."),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // With its default traits: JSON files, which need no further package.
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
    ],
    targets: [
        .target(
            name: "WebImageLogging",
            dependencies: [
                .product(name: "WebImageCore", package: "swift-web-image"),
                .product(name: "WebImageManager", package: "swift-web-image"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Logging",
            swiftSettings: strictSettings
        ),
        .target(
            name: "WebImageMetrics",
            dependencies: [
                .product(name: "WebImageCore", package: "swift-web-image"),
                .product(name: "WebImageManager", package: "swift-web-image"),
                .product(name: "WebImageOperations", package: "swift-web-image"),
                .product(name: "WebImageConcurrency", package: "swift-web-image"),
                .product(name: "WebImageResources", package: "swift-web-image"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            path: "Metrics",
            swiftSettings: strictSettings
        ),
        .target(
            name: "WebImageTracing",
            dependencies: [
                .product(name: "WebImageCore", package: "swift-web-image"),
                .product(name: "WebImageManager", package: "swift-web-image"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            path: "Tracing",
            swiftSettings: strictSettings
        ),
        .target(
            name: "WebImageLifecycle",
            dependencies: [
                .product(name: "WebImageManager", package: "swift-web-image"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Lifecycle",
            swiftSettings: strictSettings
        ),
        // The settings only: it does not depend on the proxy package (Hummingbird, SwiftNIO),
        // which would reach every app that takes any adapter here. The proxy's settings are
        // plain values its users turn into `ImageProxy.Configuration`.
        .target(
            name: "WebImageConfigReader",
            dependencies: [
                .product(name: "WebImage", package: "swift-web-image"),
                .product(name: "WebImageCore", package: "swift-web-image"),
                .product(name: "WebImageHTTP", package: "swift-web-image"),
                .product(name: "WebImageCache", package: "swift-web-image"),
                .product(name: "WebImageTransport", package: "swift-web-image"),
                .product(name: "WebImageOperations", package: "swift-web-image"),
                .product(name: "WebImageManager", package: "swift-web-image"),
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            path: "ConfigReader",
            swiftSettings: strictSettings
        ),
    ]
)
