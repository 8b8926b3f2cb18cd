import Configuration
import Foundation
import Testing
import WebImage
import WebImageConfigReader

/// The manager's and the proxy's settings read through swift-configuration: from an
/// in-memory provider, from environment variables as swift-configuration spells them, and
/// from a JSON file written here; and what happens to absent, unusable and conflicting keys.
@Suite("WebImageConfigReader: settings from swift-configuration")
struct ConfigReaderTests {
    static func value(_ content: ConfigContent) -> ConfigValue { ConfigValue(content, isSecret: false) }

    /// Every manager key, in memory, under `webimage`.
    static let managerValues: [AbsoluteConfigKey: ConfigValue] = [
        "webimage.cache.directory": "/var/cache/images",
        "webimage.cache.namespace": "thumbs",
        "webimage.cache.sizeLimit": 1_048_576,
        "webimage.cache.maximumAge": value(.double(3600.5)),
        "webimage.cache.keepsPartialDownloads": value(.bool(false)),
        "webimage.memoryCache.costLimit": 8_388_608,
        "webimage.memoryCache.countLimit": 500,
        "webimage.memoryCache.timeToLive": 90,
        "webimage.transport.userAgent": "thumbnailer/2",
        "webimage.transport.maximumConnectionsPerHost": 4,
        "webimage.transport.maximumTotalConnections": 64,
        "webimage.transport.maximumIdleConnections": 8,
        "webimage.transport.multiplexesHTTP2": value(.bool(false)),
        "webimage.transport.certificateAuthorityBundle": "/etc/ssl/certs/ca-certificates.crt",
        "webimage.transport.publicOnly": value(.bool(true)),
        "webimage.transport.allowedHosts": value(.stringArray(["img.example.com", "*.cdn.example.com"])),
        "webimage.transport.deniedHosts": value(.stringArray(["private.cdn.example.com"])),
        "webimage.transport.resolvedHosts": value(.stringArray(["img.example.com:443:203.0.113.7"])),
        "webimage.downloader.maximumConcurrentDownloads": 12,
        "webimage.downloader.timeout": value(.double(2.5)),
        "webimage.downloader.connectTimeout": 4,
        "webimage.downloader.stallTimeout": 30,
        "webimage.downloader.maximumBodySize": 0,
        "webimage.downloader.maximumRetries": 3,
        "webimage.manager.failedURLRetryInterval": 30,
        "webimage.manager.sharedCache": value(.bool(true)),
        "webimage.manager.memoryCacheFollowsFreshness": value(.bool(true)),
        "webimage.postsNotifications": value(.bool(true)),
    ]

    func expectManagerValues(_ configuration: WebImageConfiguration) {
        #expect(configuration.cacheDirectory?.path == "/var/cache/images")
        #expect(configuration.diskCacheNamespace == "thumbs")
        #expect(configuration.diskCacheSizeLimit == 1_048_576)
        #expect(configuration.diskCacheMaximumAge == 3600.5)
        #expect(configuration.keepsPartialDownloads == false)
        #expect(configuration.memoryCache.costLimit == 8_388_608)
        #expect(configuration.memoryCache.countLimit == 500)
        #expect(configuration.memoryCache.timeToLive == .seconds(90))
        #expect(configuration.transport.userAgent == "thumbnailer/2")
        #expect(configuration.transport.maximumConnectionsPerHost == 4)
        #expect(configuration.transport.maximumTotalConnections == 64)
        #expect(configuration.transport.maximumIdleConnections == 8)
        #expect(configuration.transport.multiplexesHTTP2 == false)
        #expect(configuration.transport.certificateAuthorityBundle == "/etc/ssl/certs/ca-certificates.crt")
        #expect(configuration.transport.urlPolicy.refusesNonPublicAddresses)
        #expect(configuration.transport.urlPolicy.allowedHosts == ["img.example.com", "*.cdn.example.com"])
        #expect(configuration.transport.urlPolicy.deniedHosts == ["private.cdn.example.com"])
        #expect(configuration.transport.resolvedHosts == ["img.example.com:443:203.0.113.7"])
        #expect(configuration.downloader.maximumConcurrentDownloads == 12)
        #expect(configuration.downloader.timeout == .milliseconds(2500))
        #expect(configuration.downloader.connectTimeout == .seconds(4))
        #expect(configuration.downloader.stallTimeout == .seconds(30))
        #expect(configuration.downloader.maximumBodySize == nil)
        #expect(configuration.downloader.retryPolicy.maximumRetries == 3)
        #expect(configuration.manager.failedURLRetryInterval == .seconds(30))
        #expect(configuration.manager.cacheRules.isShared)
        #expect(configuration.manager.memoryCacheFollowsFreshness)
        #expect(configuration.postsNotifications)
    }

    @Test("No keys: every default stays")
    func absentKeysKeepDefaults() throws {
        let config = ConfigReader(provider: InMemoryProvider(values: [:]))
        let read = try WebImageConfiguration(config: config.scoped(to: "webimage"))
        let defaults = WebImageConfiguration()
        #expect(read.cacheDirectory == defaults.cacheDirectory)
        #expect(read.diskCacheNamespace == defaults.diskCacheNamespace)
        #expect(read.diskCacheSizeLimit == defaults.diskCacheSizeLimit)
        #expect(read.diskCacheMaximumAge == defaults.diskCacheMaximumAge)
        #expect(read.memoryCache == defaults.memoryCache)
        #expect(read.transport.maximumConnectionsPerHost == defaults.transport.maximumConnectionsPerHost)
        #expect(read.transport.userAgent == defaults.transport.userAgent)
        #expect(read.transport.urlPolicy == defaults.transport.urlPolicy)
        #expect(read.downloader.maximumConcurrentDownloads == defaults.downloader.maximumConcurrentDownloads)
        #expect(read.downloader.timeout == defaults.downloader.timeout)
        #expect(read.downloader.stallTimeout == defaults.downloader.stallTimeout)
        #expect(read.downloader.maximumBodySize == defaults.downloader.maximumBodySize)
        #expect(read.manager.failedURLRetryInterval == defaults.manager.failedURLRetryInterval)
        #expect(read.postsNotifications == defaults.postsNotifications)

        let proxy = try ImageProxySettings(config: config.scoped(to: "webimage.proxy"))
        #expect(proxy == ImageProxySettings())
        #expect(proxy.host == "127.0.0.1" && proxy.port == 8080)
        #expect(proxy.urlPolicy == .publicOnly)
        #expect(proxy.concurrency == nil && proxy.signingKey == nil)
    }

    @Test("Every manager key from an in-memory provider")
    func managerFromMemory() throws {
        let config = ConfigReader(provider: InMemoryProvider(values: Self.managerValues))
        expectManagerValues(try WebImageConfiguration(config: config.scoped(to: "webimage")))
        // The sections read alone, from their own scope.
        #expect(try TransportConfiguration(config: config.scoped(to: "webimage.transport")).maximumConnectionsPerHost == 4)
        #expect(try MemoryCacheConfiguration(config: config.scoped(to: "webimage.memoryCache")).costLimit == 8_388_608)
        #expect(try ImageDownloader.Configuration(config: config.scoped(to: "webimage.downloader")).maximumConcurrentDownloads == 12)
        #expect(try ImageManager.Configuration(config: config.scoped(to: "webimage.manager")).cacheRules.isShared)
    }

    @Test("Environment variables, spelled as swift-configuration maps the keys")
    func fromEnvironment() throws {
        let environment = [
            "WEBIMAGE_CACHE_DIRECTORY": "/srv/cache",
            "WEBIMAGE_CACHE_MAXIMUM_AGE": "0",
            "WEBIMAGE_MEMORY_CACHE_COST_LIMIT": "1048576",
            "WEBIMAGE_TRANSPORT_MAXIMUM_CONNECTIONS_PER_HOST": "2",
            "WEBIMAGE_TRANSPORT_MULTIPLEXES_HTTP2": "no",
            "WEBIMAGE_TRANSPORT_ALLOWED_HOSTS": "img.example.com, *.cdn.example.com",
            "WEBIMAGE_DOWNLOADER_MAXIMUM_CONCURRENT_DOWNLOADS": "3",
            "WEBIMAGE_DOWNLOADER_TIMEOUT": "7.5",
            "WEBIMAGE_DOWNLOADER_STALL_TIMEOUT": "45",
            "WEBIMAGE_MANAGER_SHARED_CACHE": "true",
            "WEBIMAGE_PROXY_PORT": "9090",
            "WEBIMAGE_PROXY_CONCURRENCY": "4",
            "WEBIMAGE_PROXY_ALLOWED_HOSTS": "images.example.org",
            "WEBIMAGE_PROXY_SIGNING_KEY": "943b421c9eb07c83",
            "WEBIMAGE_PROXY_SIGNING_SALT": "520f986b998545b4",
            "WEBIMAGE_PROXY_LIMITS_MAX_FRAMES": "16",
            "WEBIMAGE_PROXY_QUALITY_WEBP": "70",
            "WEBIMAGE_PROXY_SOURCE_TIMEOUT": "4",
        ]
        let config = ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: environment))
        let manager = try WebImageConfiguration(config: config.scoped(to: "webimage"))
        #expect(manager.cacheDirectory?.path == "/srv/cache")
        #expect(manager.diskCacheMaximumAge == nil)
        #expect(manager.memoryCache.costLimit == 1_048_576)
        #expect(manager.transport.maximumConnectionsPerHost == 2)
        #expect(manager.transport.multiplexesHTTP2 == false)
        #expect(manager.transport.urlPolicy.allowedHosts == ["img.example.com", "*.cdn.example.com"])
        #expect(manager.downloader.maximumConcurrentDownloads == 3)
        #expect(manager.downloader.timeout == .milliseconds(7500))
        #expect(manager.downloader.stallTimeout == .seconds(45))
        #expect(manager.manager.cacheRules.isShared)

        let proxy = try ImageProxySettings(config: config.scoped(to: "webimage.proxy"))
        #expect(proxy.port == 9090)
        #expect(proxy.concurrency == 4)
        #expect(proxy.urlPolicy.allowedHosts == ["images.example.org"])
        #expect(proxy.urlPolicy.refusesNonPublicAddresses)
        #expect(proxy.signingKey == "943b421c9eb07c83" && proxy.signingSalt == "520f986b998545b4")
        #expect(proxy.maxSourceFrames == 16)
        #expect(proxy.webpQuality == 70 && proxy.jpegQuality == nil)
        #expect(proxy.sourceTimeout == .seconds(4))
    }

    @Test("A JSON file written here, and the environment over it")
    func fromJSONFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("config-reader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("webimage.json")
        let json = """
            {
              "webimage": {
                "cache": { "directory": "/var/cache/images", "namespace": "thumbs", "sizeLimit": 1048576,
                           "maximumAge": 3600.5, "keepsPartialDownloads": false },
                "memoryCache": { "costLimit": 8388608, "countLimit": 500, "timeToLive": 90 },
                "transport": {
                  "userAgent": "thumbnailer/2", "maximumConnectionsPerHost": 4, "maximumTotalConnections": 64,
                  "maximumIdleConnections": 8, "multiplexesHTTP2": false,
                  "certificateAuthorityBundle": "/etc/ssl/certs/ca-certificates.crt", "publicOnly": true,
                  "allowedHosts": ["img.example.com", "*.cdn.example.com"], "deniedHosts": ["private.cdn.example.com"],
                  "resolvedHosts": ["img.example.com:443:203.0.113.7"]
                },
                "downloader": {
                  "maximumConcurrentDownloads": 12, "timeout": 2.5, "connectTimeout": 4, "stallTimeout": 30,
                  "maximumBodySize": 0, "maximumRetries": 3
                },
                "manager": { "failedURLRetryInterval": 30, "sharedCache": true, "memoryCacheFollowsFreshness": true },
                "postsNotifications": true,
                "proxy": {
                  "host": "0.0.0.0", "port": "8081", "presets": ["default=rs:fit:800:800", "thumb=rs:fill:200:200/g:sm"],
                  "presetsOnly": true, "allowedHosts": ["img.example.com"], "allowsNonPublic": true,
                  "cacheDirectory": "/var/cache/proxy", "limits": { "maxBytes": 10485760, "maxResolution": 40000000 },
                  "queueCapacity": 32, "maxAge": 86400, "outputCacheBytes": 0, "retryAfter": 2,
                  "quality": { "jpeg": 85 }, "prefersWebP": false
                }
              }
            }
            """
        try Data(json.utf8).write(to: file)
        let location = ConfigReader(provider: InMemoryProvider(values: ["filePath": Self.value(.string(file.path))]))
        let jsonProvider = try await FileProvider<JSONSnapshot>(config: location)

        let config = ConfigReader(provider: jsonProvider)
        expectManagerValues(try WebImageConfiguration(config: config.scoped(to: "webimage")))
        let proxy = try ImageProxySettings(config: config.scoped(to: "webimage.proxy"))
        #expect(proxy.host == "0.0.0.0")
        #expect(proxy.port == 8081)  // quoted in the file: taken all the same
        #expect(proxy.presets == ["default=rs:fit:800:800", "thumb=rs:fill:200:200/g:sm"])
        #expect(proxy.presetsOnly == true)
        #expect(proxy.urlPolicy.allowedHosts == ["img.example.com"])
        #expect(proxy.urlPolicy.refusesNonPublicAddresses == false)
        #expect(proxy.cacheDirectory?.path == "/var/cache/proxy")
        #expect(proxy.maxSourceBytes == 10_485_760 && proxy.maxSourceResolution == 40_000_000 && proxy.maxSourceFrames == nil)
        #expect(proxy.queueCapacity == 32 && proxy.maxAge == 86400 && proxy.outputCacheBytes == 0 && proxy.retryAfterSeconds == 2)
        #expect(proxy.jpegQuality == 85 && proxy.webpQuality == nil)
        #expect(proxy.prefersWebP == false)
        #expect(proxy.concurrency == nil && proxy.sourceTimeout == nil)

        // The environment first, the file after: a variable wins over the file's key.
        let environment = EnvironmentVariablesProvider(environmentVariables: [
            "WEBIMAGE_TRANSPORT_MAXIMUM_CONNECTIONS_PER_HOST": "16", "WEBIMAGE_PROXY_PORT": "9000",
        ])
        let layered = ConfigReader(providers: [environment, jsonProvider])
        let manager = try WebImageConfiguration(config: layered.scoped(to: "webimage"))
        #expect(manager.transport.maximumConnectionsPerHost == 16)
        #expect(manager.transport.maximumTotalConnections == 64)
        #expect(try ImageProxySettings(config: layered.scoped(to: "webimage.proxy")).port == 9000)
    }

    @Test("cache.enabled false: no disk cache, whatever the directory")
    func cacheDisabled() throws {
        let config = ConfigReader(
            provider: InMemoryProvider(values: ["cache.directory": "/var/cache/images", "cache.enabled": Self.value(.bool(false))]))
        #expect(try WebImageConfiguration(config: config).cacheDirectory == nil)
    }

    /// The error `body` throws, or a recorded issue when it throws none or another.
    func error(_ body: () throws -> Void) -> WebImageConfigError? {
        do {
            try body()
            Issue.record("no error thrown")
        } catch let error as WebImageConfigError {
            return error
        } catch {
            Issue.record("unexpected error: \(error)")
        }
        return nil
    }

    @Test("A present but unusable value throws, naming the key; an absent one never does")
    func invalidValues() {
        func manager(_ values: [AbsoluteConfigKey: ConfigValue]) -> WebImageConfigError? {
            error { _ = try WebImageConfiguration(config: ConfigReader(provider: InMemoryProvider(values: values))) }
        }
        func proxy(_ values: [AbsoluteConfigKey: ConfigValue]) -> WebImageConfigError? {
            error { _ = try ImageProxySettings(config: ConfigReader(provider: InMemoryProvider(values: values))) }
        }
        let word = manager(["transport.maximumConnectionsPerHost": "six"])
        #expect(
            word == WebImageConfigError(key: "transport.maximumConnectionsPerHost", problem: .wrongType, expected: "an integer, 0 or more"))
        #expect(word?.description == "configuration key transport.maximumConnectionsPerHost: expected an integer, 0 or more")
        #expect(manager(["transport.maximumConnectionsPerHost": -1])?.problem == .outOfRange)
        #expect(manager(["transport.multiplexesHTTP2": "maybe"])?.key == "transport.multiplexesHTTP2")
        #expect(manager(["transport.allowedHosts": 3])?.problem == .wrongType)
        #expect(manager(["transport.resolvedHosts": "img.example.com"])?.key == "transport.resolvedHosts")
        #expect(manager(["downloader.maximumConcurrentDownloads": 0])?.problem == .outOfRange)
        #expect(manager(["downloader.timeout": 0])?.problem == .outOfRange)
        #expect(manager(["downloader.timeout": "-5"])?.problem == .outOfRange)
        #expect(manager(["downloader.stallTimeout": 0])?.problem == .outOfRange)
        #expect(manager(["memoryCache.timeToLive": Self.value(.double(.infinity))])?.problem == .outOfRange)
        #expect(manager(["cache.sizeLimit": Self.value(.double(1.5))])?.problem == .wrongType)
        #expect(manager(["cache.namespace": "../elsewhere"])?.key == "cache.namespace")

        #expect(proxy(["port": 70000]) == WebImageConfigError(key: "port", problem: .outOfRange, expected: "a port number, 0 to 65535"))
        #expect(proxy(["port": Self.value(.bool(true))])?.problem == .wrongType)
        #expect(
            proxy(["signing.key": "943b421c9eb07c83"])
                == WebImageConfigError(key: "signing.salt", problem: .incomplete, expected: "required with signing.key"))
        #expect(proxy(["signing.key": "not hex!", "signing.salt": "520f986b998545b4"])?.key == "signing.key")
        #expect(proxy(["quality.jpeg": 0])?.key == "quality.jpeg")
        #expect(proxy(["presets": "thumb"])?.key == "presets")
        #expect(proxy(["concurrency": 0])?.problem == .outOfRange)
    }

    @Test("update(from:) keeps what code set, and leaves everything as it was when a key is unusable")
    func updateKeepsCodeSettings() throws {
        var configuration = WebImageConfiguration(cacheDirectory: nil)
        configuration.transport.maximumIdleConnections = 3
        try configuration.update(from: ConfigReader(provider: InMemoryProvider(values: ["transport.maximumConnectionsPerHost": 9])))
        #expect(configuration.cacheDirectory == nil)
        #expect(configuration.transport.maximumIdleConnections == 3)
        #expect(configuration.transport.maximumConnectionsPerHost == 9)

        let bad = ConfigReader(
            provider: InMemoryProvider(values: ["memoryCache.costLimit": 1024, "transport.maximumConnectionsPerHost": "many"]))
        #expect(throws: WebImageConfigError.self) { try configuration.update(from: bad) }
        #expect(configuration.memoryCache.costLimit != 1024)
        #expect(configuration.transport.maximumConnectionsPerHost == 9)
    }
}
