import Configuration
import Foundation
import WebImage
import WebImageCache
import WebImageCore
import WebImageHTTP
import WebImageManager
import WebImageOperations
import WebImageTransport

extension WebImageConfiguration {
    /// The default composition's configuration, with the settings `config` holds over the
    /// defaults. Keys are read relative to `config`: scope it to where the settings live
    /// (`config.scoped(to: "webimage")` for `webimage.cache.directory`, which the
    /// environment spells `WEBIMAGE_CACHE_DIRECTORY`). The article
    /// <doc:WebImageConfigReader> lists every key.
    ///
    /// - Throws: ``WebImageConfigError`` for a key that is present but unusable; absent
    ///   keys keep their defaults.
    public init(config: ConfigReader) throws(WebImageConfigError) {
        self.init()
        try update(from: config)
    }

    /// Sets what `config` holds over this configuration, keeping every setting it does
    /// not name: for an app that sets what only code can (a trust policy, event monitors)
    /// and leaves the numbers to the operator.
    ///
    /// - Throws: ``WebImageConfigError`` for a key that is present but unusable. The
    ///   configuration is left unchanged then.
    public mutating func update(from config: ConfigReader) throws(WebImageConfigError) {
        var updated = self
        try updated.read(SettingsReader(config))
        self = updated
    }

    mutating func read(_ settings: SettingsReader) throws(WebImageConfigError) {
        let cache = settings.scoped(to: "cache")
        if let directory = try cache.string("directory") { cacheDirectory = URL(fileURLWithPath: directory, isDirectory: true) }
        if try cache.bool("enabled") == false { cacheDirectory = nil }
        if let namespace = try cache.string("namespace") {
            guard !namespace.contains("/"), namespace != ".", namespace != ".." else {
                throw cache.error("namespace", .outOfRange, "a folder name, without a slash")
            }
            diskCacheNamespace = namespace
        }
        if let sizeLimit = try cache.positiveCount("sizeLimit") { diskCacheSizeLimit = sizeLimit }
        if let age = try cache.nonNegativeSeconds("maximumAge", expected: "a number of seconds, 0 for no age limit") {
            diskCacheMaximumAge = age == 0 ? nil : age
        }
        if let keeps = try cache.bool("keepsPartialDownloads") { keepsPartialDownloads = keeps }
        try memoryCache.read(settings.scoped(to: "memoryCache"))
        try transport.read(settings.scoped(to: "transport"))
        try downloader.read(settings.scoped(to: "downloader"))
        try manager.read(settings.scoped(to: "manager"))
        if let posts = try settings.bool("postsNotifications") { postsNotifications = posts }
    }
}

extension MemoryCacheConfiguration {
    /// The default memory cache's limits, with those `config` holds: `costLimit` (bytes),
    /// `countLimit`, `timeToLive` (seconds).
    ///
    /// - Throws: ``WebImageConfigError`` for a key that is present but unusable.
    public init(config: ConfigReader) throws(WebImageConfigError) {
        self.init()
        try read(SettingsReader(config))
    }

    mutating func read(_ settings: SettingsReader) throws(WebImageConfigError) {
        if let costLimit = try settings.count("costLimit") { self.costLimit = costLimit }
        if let countLimit = try settings.count("countLimit") { self.countLimit = countLimit }
        if let timeToLive = try settings.duration("timeToLive") { self.timeToLive = timeToLive }
    }
}

extension TransportConfiguration {
    /// The default transport settings, with those `config` holds: connection limits,
    /// HTTP/2, the user agent, the CA bundle and the URL policy (see
    /// <doc:WebImageConfigReader> for the keys).
    ///
    /// - Throws: ``WebImageConfigError`` for a key that is present but unusable.
    public init(config: ConfigReader) throws(WebImageConfigError) {
        self.init()
        try read(SettingsReader(config))
    }

    mutating func read(_ settings: SettingsReader) throws(WebImageConfigError) {
        if let userAgent = try settings.string("userAgent") { self.userAgent = userAgent }
        if let perHost = try settings.count("maximumConnectionsPerHost") { maximumConnectionsPerHost = perHost }
        if let total = try settings.count("maximumTotalConnections") { maximumTotalConnections = total }
        if let idle = try settings.count("maximumIdleConnections") { maximumIdleConnections = idle }
        if let multiplexes = try settings.bool("multiplexesHTTP2") { multiplexesHTTP2 = multiplexes }
        if let bundle = try settings.string("certificateAuthorityBundle") { certificateAuthorityBundle = bundle }
        try urlPolicy.read(settings)
        if let resolved = try settings.strings("resolvedHosts") {
            for entry in resolved where entry.split(separator: ":", maxSplits: 2).count < 3 {
                throw settings.error("resolvedHosts", .outOfRange, "entries HOST:PORT:ADDRESS")
            }
            resolvedHosts = resolved
        }
    }
}

extension URLPolicy {
    /// `publicOnly` (refuse loopback, private and other non-public addresses),
    /// `allowedHosts` and `deniedHosts` (host patterns, `*.example.com` for every host
    /// under it).
    mutating func read(_ settings: SettingsReader) throws(WebImageConfigError) {
        if let publicOnly = try settings.bool("publicOnly") { refusesNonPublicAddresses = publicOnly }
        if let allowed = try settings.strings("allowedHosts"), !allowed.isEmpty { allowedHosts = allowed.map { HostPattern($0) } }
        if let denied = try settings.strings("deniedHosts") { deniedHosts = denied.map { HostPattern($0) } }
    }
}

extension ImageDownloader.Configuration {
    /// The default downloader settings, with those `config` holds:
    /// `maximumConcurrentDownloads`, `timeout`, `connectTimeout` and `stallTimeout`
    /// (seconds), `maximumBodySize` (bytes, 0 for no limit), `maximumRetries`.
    ///
    /// - Throws: ``WebImageConfigError`` for a key that is present but unusable.
    public init(config: ConfigReader) throws(WebImageConfigError) {
        self.init()
        try read(SettingsReader(config))
    }

    mutating func read(_ settings: SettingsReader) throws(WebImageConfigError) {
        if let concurrent = try settings.positiveCount("maximumConcurrentDownloads") { maximumConcurrentDownloads = concurrent }
        if let timeout = try settings.duration("timeout") { self.timeout = timeout }
        if let connect = try settings.duration("connectTimeout") { connectTimeout = connect }
        if let stall = try settings.duration("stallTimeout") { stallTimeout = stall }
        if let bodySize = try settings.int("maximumBodySize", in: 0...Int.max, expected: "a number of bytes, 0 for no limit") {
            maximumBodySize = bodySize == 0 ? nil : Int64(bodySize)
        }
        if let retries = try settings.count("maximumRetries") {
            retryPolicy = retries == 0 ? .none : RetryPolicy(maximumRetries: retries)
        }
    }
}

extension ImageManager.Configuration {
    /// The default manager settings, with those `config` holds:
    /// `failedURLRetryInterval` (seconds), `sharedCache`, `memoryCacheFollowsFreshness`.
    ///
    /// - Throws: ``WebImageConfigError`` for a key that is present but unusable.
    public init(config: ConfigReader) throws(WebImageConfigError) {
        self.init()
        try read(SettingsReader(config))
    }

    mutating func read(_ settings: SettingsReader) throws(WebImageConfigError) {
        if let interval = try settings.nonNegativeSeconds("failedURLRetryInterval") { failedURLRetryInterval = .seconds(interval) }
        if let shared = try settings.bool("sharedCache") { cacheRules.isShared = shared }
        if let follows = try settings.bool("memoryCacheFollowsFreshness") { memoryCacheFollowsFreshness = follows }
    }
}
