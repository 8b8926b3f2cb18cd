// swift-tools-version: 6.2
//
// swift-web-image: small reusable modules that load images from the web on Linux.
// Each module is its own product, so an app can depend on just the parts it uses, and
// the package depends on no other package: adding it resolves nothing else.
//
// Everything that is not the library lives in nested packages that depend on this one
// by path, so that their dependencies never reach an app:
//   Tools/       the `webimage` program, the loopback test server (SwiftNIO), the
//                fixtures generator, the fuzz harnesses and the load run
//   Tests/       the test suite (`make test`), against the real loopback server
//   Benchmarks/  `make bench`
//
// Swift 6.2 is the minimum: the manager's async API is `nonisolated(nonsending)`.

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
        .library(name: "WebImageConcurrency", targets: ["WebImageConcurrency"]),
        .library(name: "WebImageResources", targets: ["WebImageResources"]),
        .library(name: "WebImageHTTP", targets: ["WebImageHTTP"]),
        .library(name: "WebImageDecoding", targets: ["WebImageDecoding"]),
        .library(name: "WebImageWebP", targets: ["WebImageWebP"]),
        .library(name: "WebImageAVIF", targets: ["WebImageAVIF"]),
        .library(name: "WebImageEncoding", targets: ["WebImageEncoding"]),
        .library(name: "WebImageColor", targets: ["WebImageColor"]),
        .library(name: "WebImageCache", targets: ["WebImageCache"]),
        .library(name: "WebImageTransport", targets: ["WebImageTransport"]),
        .library(name: "WebImageSecurity", targets: ["WebImageSecurity"]),
        .library(name: "WebImageCallbackRegistry", targets: ["WebImageCallbackRegistry"]),
        .library(name: "WebImageOperations", targets: ["WebImageOperations"]),
        .library(name: "WebImageManager", targets: ["WebImageManager"]),
        .library(name: "WebImageReachability", targets: ["WebImageReachability"]),
        // A shared cache tier on Redis (hiredis), for a fleet of servers; not in the umbrella.
        .library(name: "WebImageSharedCache", targets: ["WebImageSharedCache"]),
        // Everything above composed with the defaults: what most apps depend on.
        .library(name: "WebImage", targets: ["WebImage"]),
    ],
    // Empty on purpose: an app that depends on any of these modules resolves no other
    // package. Tooling and tests are nested packages (Tools/, Tests/, Benchmarks/).
    dependencies: [],
    targets: [
        // MARK: Core: vocabulary and protocols, no I/O and no C.
        .target(
            name: "WebImageCore",
            path: "Modules/Core",
            swiftSettings: strictSettings
        ),

        // MARK: Concurrency: the library's lock, its callback-to-async bridge, and the
        // async forms of Core's callback protocols (kept out of Core, which is vocabulary).
        .target(
            name: "WebImageConcurrency",
            dependencies: ["WebImageCore"],
            path: "Modules/Concurrency",
            swiftSettings: strictSettings
        ),

        // MARK: Resources: what the process may use and how the library shares it: its
        // worker threads, its memory budget, and the limits cgroups set.
        .target(
            name: "WebImageResources",
            dependencies: ["WebImageCore", "WebImageConcurrency"],
            path: "Modules/Resources",
            swiftSettings: strictSettings
        ),

        // MARK: Decoding: PNG, JPEG and GIF on the system codecs.
        .target(
            name: "WebImageHTTP",
            dependencies: ["WebImageCore"],
            path: "Modules/HTTP",
            swiftSettings: strictSettings
        ),

        .systemLibrary(
            name: "CLibPNG",
            path: "Modules/Decoding/C/CLibPNG",
            pkgConfig: "libpng16",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]
        ),
        .systemLibrary(
            name: "CLibJPEG",
            path: "Modules/Decoding/C/CLibJPEG",
            pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg-dev"]), .brew(["jpeg-turbo"])]
        ),
        .systemLibrary(
            name: "CGIFLib",
            path: "Modules/Decoding/C/CGIFLib",
            pkgConfig: "libgif",
            providers: [.apt(["libgif-dev"]), .brew(["giflib"])]
        ),
        // C glue for what Swift cannot express: libpng and libjpeg report errors by
        // longjmp, so every call that may fail runs inside a setjmp frame in C.
        .target(
            name: "CWebImageDecoding",
            dependencies: ["CLibPNG", "CLibJPEG", "CGIFLib"],
            path: "Modules/Decoding/C/CWebImageDecoding",
            // zlib, for the iCCP profile (libpng links it too, but only for itself).
            linkerSettings: [.linkedLibrary("z")]
        ),
        .target(
            name: "WebImageDecoding",
            dependencies: ["WebImageCore", "WebImageConcurrency", "CWebImageDecoding", "CLibPNG", "CLibJPEG", "CGIFLib"],
            path: "Modules/Decoding",
            exclude: ["C"],
            swiftSettings: strictSettings
        ),

        // MARK: WebP: a decoder on libwebp, in a module of its own so that an app that
        // does not read WebP links no libwebp.
        .systemLibrary(
            name: "CLibWebP",
            path: "Modules/WebP/C/CLibWebP",
            pkgConfig: "libwebpdemux",
            providers: [.apt(["libwebp-dev"]), .brew(["webp"])]
        ),
        .target(
            name: "WebImageWebP",
            dependencies: ["WebImageCore", "WebImageDecoding", "CLibWebP"],
            path: "Modules/WebP",
            exclude: ["C"],
            swiftSettings: strictSettings
        ),

        // MARK: AVIF: a decoder and an encoder on libavif (dav1d and libaom behind it), in
        // a module of its own so that an app that does not read AVIF links no libavif.
        .systemLibrary(
            name: "CLibAVIF",
            path: "Modules/AVIF/C/CLibAVIF",
            // No pkgConfig: libavif.pc adds `-DAVIF_DLL`, a flag SwiftPM refuses with a
            // warning on every build; the header and library are on the default paths.
            providers: [.apt(["libavif-dev"]), .brew(["libavif"])]
        ),
        .target(
            name: "WebImageAVIF",
            dependencies: ["WebImageCore", "WebImageConcurrency", "WebImageDecoding", "CLibAVIF"],
            path: "Modules/AVIF",
            exclude: ["C"],
            swiftSettings: strictSettings
        ),

        // MARK: Color: colour management on LittleCMS 2, in a module of its own so that an
        // app that wants none links no colour engine. The decoders meet it through Core's
        // `ColorConverting`.
        .systemLibrary(
            name: "CLCMS2",
            path: "Modules/Color/C/CLCMS2",
            pkgConfig: "lcms2",
            providers: [.apt(["liblcms2-dev"]), .brew(["little-cms2"])]
        ),
        // Transforms for the decoders' 4-byte pixels, and the profiles made by LittleCMS.
        .target(
            name: "CWebImageColor",
            dependencies: ["CLCMS2"],
            path: "Modules/Color/C/CWebImageColor"
        ),
        .target(
            name: "WebImageColor",
            dependencies: ["WebImageCore", "WebImageConcurrency", "CWebImageColor"],
            path: "Modules/Color",
            exclude: ["C"],
            swiftSettings: strictSettings
        ),

        // MARK: Encoding: JPEG (TurboJPEG), PNG, WebP and GIF (giflib) encoders, apart from the decoders so
        // that an app that only reads images links no encoder. It takes Decoding for the
        // planar JPEG thumbnail, whose planes go through the decoders' resampler and scale.
        .systemLibrary(
            name: "CLibTurboJPEG",
            path: "Modules/Encoding/C/CLibTurboJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"]), .brew(["jpeg-turbo"])]
        ),
        .systemLibrary(
            name: "CLibWebPEncode",
            path: "Modules/Encoding/C/CLibWebPEncode",
            pkgConfig: "libwebpmux",
            providers: [.apt(["libwebp-dev"]), .brew(["webp"])]
        ),
        // libpng's writer in a setjmp frame, as CWebImageDecoding does for its readers.
        .target(
            name: "CWebImageEncoding",
            dependencies: ["CLibPNG"],
            path: "Modules/Encoding/C/CWebImageEncoding"
        ),
        .target(
            name: "WebImageEncoding",
            dependencies: [
                "WebImageCore", "WebImageDecoding", "CWebImageEncoding", "CLibPNG", "CLibTurboJPEG", "CLibWebPEncode", "CGIFLib",
            ],
            path: "Modules/Encoding",
            exclude: ["C"],
            swiftSettings: strictSettings
        ),

        // MARK: Cache: memory and disk caches.
        .target(
            name: "WebImageCache",
            dependencies: ["WebImageCore", "WebImageConcurrency", "WebImageResources"],
            path: "Modules/Cache",
            swiftSettings: strictSettings
        ),

        // MARK: Transport: HTTP(S), file and data URLs on libcurl's multi interface.
        .systemLibrary(
            name: "CLibCurl",
            path: "Modules/Transport/C/CLibCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            path: "Modules/Transport/C/COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
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
            dependencies: ["WebImageCore", "WebImageConcurrency", "WebImageResources", "CWebImageTransport", "CLibCurl"],
            path: "Modules/Transport",
            exclude: ["C"],
            swiftSettings: strictSettings
        ),

        // MARK: Security: server trust policy (evaluators, pinning) and authentication.
        .target(
            name: "WebImageSecurity",
            dependencies: ["WebImageCore", "WebImageConcurrency"],
            path: "Modules/Security",
            exclude: ["README.md"],
            swiftSettings: strictSettings
        ),

        // MARK: CallbackRegistry: subscribers per key, fan-out, composite event monitor.
        .target(
            name: "WebImageCallbackRegistry",
            dependencies: ["WebImageCore", "WebImageConcurrency"],
            path: "Modules/CallbackRegistry",
            swiftSettings: strictSettings
        ),

        // MARK: Operations: the download queue, its operations and the downloader.
        .target(
            name: "WebImageOperations",
            dependencies: ["WebImageCore", "WebImageConcurrency", "WebImageResources", "WebImageHTTP"],
            path: "Modules/Operations",
            swiftSettings: strictSettings
        ),

        // MARK: Manager: the pipeline, the failed-URL set, the prefetcher.
        .target(
            name: "WebImageManager",
            dependencies: ["WebImageCore", "WebImageConcurrency", "WebImageResources", "WebImageHTTP"],
            path: "Modules/Manager",
            swiftSettings: strictSettings
        ),

        // MARK: Reachability: network status from the kernel's routing tables (netlink).
        // C glue for the netlink socket and requests: sockaddr_nl and the NLMSG_*/RTA_*
        // macros, which Swift cannot use.
        .target(
            name: "CWebImageReachability",
            path: "Modules/Reachability/C/CWebImageReachability"
        ),
        .target(
            name: "WebImageReachability",
            dependencies: ["WebImageCore", "WebImageConcurrency", "CWebImageReachability"],
            path: "Modules/Reachability",
            exclude: ["C"],
            swiftSettings: strictSettings
        ),

        // MARK: SharedCache: a tier of downloaded bytes on Redis nodes, shared by a fleet,
        // through hiredis driven by the module's own event loop thread. Not in the
        // umbrella: only a server fleet wants it, and only it links hiredis.
        .systemLibrary(
            name: "CHiredis",
            path: "Modules/SharedCache/C/CHiredis",
            // No pkgConfig: hiredis.pc adds `-D_FILE_OFFSET_BITS=64`, a flag SwiftPM refuses
            // with a warning on every build; the header and library are on the default paths.
            providers: [.apt(["libhiredis-dev"]), .brew(["hiredis"])]
        ),
        // The entry checksum in C, for the vector units, and the recycled buffers replies
        // are read into (see their headers).
        .target(
            name: "CWebImageSharedCache",
            path: "Modules/SharedCache/C/CWebImageSharedCache"
        ),
        .target(
            name: "WebImageSharedCache",
            dependencies: ["WebImageCore", "WebImageConcurrency", "CHiredis", "CWebImageSharedCache"],
            path: "Modules/SharedCache",
            exclude: ["C"],
            swiftSettings: strictSettings
        ),

        // MARK: WebImage: the umbrella that composes the defaults and re-exports the modules.
        .target(
            name: "WebImage",
            dependencies: [
                "WebImageCore", "WebImageConcurrency", "WebImageResources", "WebImageHTTP", "WebImageDecoding", "WebImageWebP",
                "WebImageAVIF", "WebImageColor",
                "WebImageEncoding", "WebImageCache",
                "WebImageTransport", "WebImageSecurity",
                "WebImageCallbackRegistry", "WebImageOperations", "WebImageManager", "WebImageReachability",
            ],
            path: "Modules/WebImage",
            swiftSettings: strictSettings
        ),
    ]
)
