import Configuration
import Foundation
import WebImageCore

/// The image proxy's settings as an operator gives them: where it listens, how it signs,
/// which sources it fetches, and its limits, read from a `ConfigReader`.
///
/// This module does not depend on the proxy package (`WebImageProxy`, with Hummingbird and
/// SwiftNIO behind it), so that an app taking only the manager's settings resolves none of
/// that. The settings are plain values; the proxy's configuration is made from them where
/// the proxy is, as <doc:WebImageConfigReader#The-image-proxy> shows. Each optional field
/// is `nil` when its key is absent: the proxy's own default then applies.
public struct ImageProxySettings: Sendable, Hashable {
    /// The address to listen on (`host`). Default: `127.0.0.1`.
    public var host: String
    /// The port to listen on (`port`, 0 for one the system picks). Default: 8080.
    public var port: Int
    /// The signing key and salt, in hex (`signing.key`, `signing.salt`, both or neither;
    /// read as secrets). `nil`: unsigned URLs.
    public var signingKey: String?
    public var signingSalt: String?
    /// Named presets, each `NAME=OPTION/OPTION` (`presets`; `default` applies to every URL).
    public var presets: [String]
    /// Accept only presets in URLs (`presetsOnly`).
    public var presetsOnly: Bool?
    /// The sources that may be fetched: `URLPolicy.publicOnly`, the proxy's default,
    /// narrowed to `allowedHosts` when given (`deniedHosts` too), and opened to non-public
    /// addresses by `allowsNonPublic: true`.
    public var urlPolicy: URLPolicy
    /// Where sources are kept on disk (`cacheDirectory`).
    public var cacheDirectory: URL?
    /// The largest source, in bytes (`limits.maxBytes`).
    public var maxSourceBytes: Int64?
    /// The most source pixels, summed over frames (`limits.maxResolution`).
    public var maxSourceResolution: Int?
    /// The most frames a source may have (`limits.maxFrames`).
    public var maxSourceFrames: Int?
    /// Outputs made at once (`concurrency`, 1 or more).
    public var concurrency: Int?
    /// Requests that may wait beyond those (`queueCapacity`).
    public var queueCapacity: Int?
    /// `Cache-Control` max-age of images, in seconds (`maxAge`).
    public var maxAge: Int?
    /// Bytes of outputs kept in memory (`outputCacheBytes`).
    public var outputCacheBytes: Int?
    /// `Retry-After` of a 429, in seconds (`retryAfter`).
    public var retryAfterSeconds: Int?
    /// How long a source may take, in seconds (`sourceTimeout`).
    public var sourceTimeout: Duration?
    /// The default quality of JPEG and WebP outputs, 1 to 100 (`quality.jpeg`, `quality.webp`).
    public var jpegQuality: Int?
    public var webpQuality: Int?
    /// Answer WebP to clients that take it when the URL names no format (`prefersWebP`).
    public var prefersWebP: Bool?

    /// The defaults: `127.0.0.1:8080`, unsigned, public sources only, every other
    /// setting the proxy's own.
    public init() {
        host = "127.0.0.1"
        port = 8080
        presets = []
        urlPolicy = .publicOnly
    }

    /// The defaults, with the settings `config` holds. Keys are read relative to `config`:
    /// scope it to where they live (`config.scoped(to: "webimage.proxy")` for
    /// `webimage.proxy.port`, which the environment spells `WEBIMAGE_PROXY_PORT`).
    ///
    /// - Throws: ``WebImageConfigError`` for a key that is present but unusable: a port
    ///   outside 0...65535, a signing key without its salt or not in hex, a preset
    ///   without `=`, a quality outside 1...100, and any value of the wrong type.
    public init(config: ConfigReader) throws(WebImageConfigError) {
        self.init()
        try read(SettingsReader(config))
    }

    mutating func read(_ settings: SettingsReader) throws(WebImageConfigError) {
        if let host = try settings.string("host") { self.host = host }
        if let port = try settings.int("port", in: 0...65535, expected: "a port number, 0 to 65535") { self.port = port }
        try readSigning(settings.scoped(to: "signing"))
        if let presets = try settings.strings("presets") {
            for preset in presets where !preset.contains("=") || preset.hasPrefix("=") {
                throw settings.error("presets", .outOfRange, "presets written NAME=OPTION/OPTION")
            }
            self.presets = presets
        }
        if let presetsOnly = try settings.bool("presetsOnly") { self.presetsOnly = presetsOnly }
        try urlPolicy.read(settings)
        if let allowsNonPublic = try settings.bool("allowsNonPublic") { urlPolicy.refusesNonPublicAddresses = !allowsNonPublic }
        if let directory = try settings.string("cacheDirectory") { cacheDirectory = URL(fileURLWithPath: directory, isDirectory: true) }
        let limits = settings.scoped(to: "limits")
        if let bytes = try limits.positiveCount("maxBytes") { maxSourceBytes = Int64(bytes) }
        if let resolution = try limits.positiveCount("maxResolution") { maxSourceResolution = resolution }
        if let frames = try limits.positiveCount("maxFrames") { maxSourceFrames = frames }
        if let concurrency = try settings.positiveCount("concurrency") { self.concurrency = concurrency }
        if let capacity = try settings.count("queueCapacity") { queueCapacity = capacity }
        if let maxAge = try settings.count("maxAge") { self.maxAge = maxAge }
        if let bytes = try settings.count("outputCacheBytes") { outputCacheBytes = bytes }
        if let retryAfter = try settings.count("retryAfter") { retryAfterSeconds = retryAfter }
        if let timeout = try settings.duration("sourceTimeout") { sourceTimeout = timeout }
        let quality = settings.scoped(to: "quality")
        jpegQuality = try quality.int("jpeg", in: 1...100, expected: "a quality, 1 to 100") ?? jpegQuality
        webpQuality = try quality.int("webp", in: 1...100, expected: "a quality, 1 to 100") ?? webpQuality
        if let prefers = try settings.bool("prefersWebP") { prefersWebP = prefers }
    }

    private mutating func readSigning(_ signing: SettingsReader) throws(WebImageConfigError) {
        let key = try signing.string("key", isSecret: true)
        let salt = try signing.string("salt", isSecret: true)
        switch (key, salt) {
        case (nil, nil):
            return
        case (.some, nil):
            throw signing.error("salt", .incomplete, "required with signing.key")
        case (nil, .some):
            throw signing.error("key", .incomplete, "required with signing.salt")
        case (.some(let key), .some(let salt)):
            for (name, value) in [("key", key), ("salt", salt)] where !Self.isHex(value) {
                throw signing.error(name, .outOfRange, "hex digits, an even number of them")
            }
            signingKey = key
            signingSalt = salt
        }
    }

    private static func isHex(_ text: String) -> Bool {
        !text.isEmpty && text.count.isMultiple(of: 2) && text.allSatisfy(\.isHexDigit)
    }
}
