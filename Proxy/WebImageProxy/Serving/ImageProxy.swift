import Crypto
import Foundation
import NIOConcurrencyHelpers
import WebImage
import WebImageResources

/// An image proxy: thumbnails of remote images, made on demand from imgproxy-style URLs,
/// cached, and served with the headers a CDN in front of it needs.
///
/// ```
/// GET /{signature}/rs:fill:300:200/g:sm/q:80/plain/https%3A%2F%2Fexample.com%2Fcat.jpg@webp
/// ```
///
/// ``respond(to:)`` answers a request with no server at all; `addRoutes(to:)` mounts it on
/// a Hummingbird router, and `webimage proxy` runs it as a program.
///
/// What one request costs: a URL already answered comes from the output cache (a
/// dictionary lookup and a copy of the bytes' reference). Identical requests while one
/// is being made wait for it: one source fetch, one decode, one encode. Otherwise the
/// source comes through the library's manager (its disk cache, coalescing, URL policy
/// at the address connected to), its header is checked against ``SourceLimits``, and it
/// is decoded at the size the output needs (a JPEG scales in the DCT) on
/// ``Configuration/executor`` within ``Configuration/memoryBudget``.
///
/// With a ``Configuration/cacheDirectory`` or a ``Configuration/sharedCache``, outputs are
/// also stored as processed results under a canonical variant key, and a stored result
/// answers before any source fetch or render: after a restart, and across a fleet, which
/// renders each output once (``Configuration/storesResults``, ``purge(source:)``).
///
/// Outputs never carry metadata (EXIF, ICC, XMP): the orientation is applied to the
/// pixels and the encoders write none.
public final class ImageProxy: Sendable {
    public let configuration: Configuration
    let sources: ImageManager
    /// Whether the proxy made `sources` itself, and so stops it in ``shutdown()``.
    private let ownsSources: Bool
    let renderer: ThumbnailRenderer
    private let presets: [String: ProxyPreset]
    let outputs: MemoryCache<OutputKey, RenderedOutput>
    /// Processed results on disk and in the shared tier.
    let results: ResultStore
    /// One render per output, and one `/info` answer per source and options, at a time,
    /// through the library's coalescing: a request for an output being made waits for
    /// that render (one source fetch, one decode, one encode). Work whose every request
    /// has gone is cancelled, so a queue full of renders nobody waits for any more gives
    /// its slots to requests that still wait. Sources coalesce in `sources`, the manager,
    /// as any load does.
    let work = CoalescedTasks<ProxyWork, RenderedOutput>()
    /// Internal, not private: the tests watch its slots.
    let queue: ProcessingQueue
    private let counters = NIOLockedValueBox(ProxyStatistics())

    /// A proxy whose sources load through a manager made from `configuration` (its own
    /// transport, downloader and, with a cache directory, disk cache).
    public convenience init(configuration: Configuration = Configuration()) {
        var web = WebImageConfiguration(
            cacheDirectory: configuration.cacheDirectory, diskCacheNamespace: "proxy-sources",
            memoryCache: MemoryCacheConfiguration(costLimit: 1 << 20, countLimit: 16), decoders: configuration.decoders)
        web.keepsPartialDownloads = false
        // The source's one limit, as imgproxy's download timeout: a quiet source may stay
        // quiet for all of it, and no connection takes longer.
        web.downloader.timeout = configuration.sourceTimeout
        web.downloader.stallTimeout = configuration.sourceTimeout
        web.downloader.connectTimeout = min(configuration.sourceTimeout, .seconds(10))
        web.downloader.maximumBodySize = configuration.limits.maxBytes
        web.downloader.maximumConcurrentDownloads = max(6, configuration.concurrency)
        web.transport.urlPolicy = configuration.urlPolicy
        // One memory budget: the renders reserve from it, and the sources' downloader
        // starts no new download while a render waits for it, so a proxy short of
        // memory fetches no more sources than it can render.
        web.manager.memoryBudget = configuration.memoryBudget
        // A missing source is asked again after a minute, not the manager's ten.
        web.manager.failedURLRetryInterval = .seconds(60)
        web.manager.sharedCache = configuration.sharedCache
        self.init(configuration: configuration, sources: ImageManager(configuration: web), ownsSources: true)
    }

    /// A proxy whose sources load through `sources` (loaded with
    /// `returnDataWithoutDecoding` and the configuration's URL policy).
    public convenience init(configuration: Configuration, sources: ImageManager) {
        self.init(configuration: configuration, sources: sources, ownsSources: false)
    }

    private init(configuration: Configuration, sources: ImageManager, ownsSources: Bool) {
        self.configuration = configuration
        self.sources = sources
        self.ownsSources = ownsSources
        renderer = ThumbnailRenderer(
            decoders: configuration.decoders, limits: configuration.limits, resultLimits: configuration.resultLimits,
            quality: configuration.quality, keepsColorProfile: configuration.keepsColorProfile)
        presets = Dictionary(configuration.presets.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
        outputs = MemoryCache(configuration: MemoryCacheConfiguration(costLimit: max(1, configuration.outputCacheBytes)))
        queue = ProcessingQueue(width: max(1, configuration.concurrency), capacity: max(0, configuration.queueCapacity))
        results = ResultStore(
            directory: configuration.storesResults ? configuration.cacheDirectory : nil,
            diskBytes: configuration.resultCacheBytes,
            shared: configuration.storesResults ? configuration.sharedCache : nil)
    }

    /// Stops the source loading of a proxy made with ``init(configuration:)``: the loads
    /// under way end, then its manager's transport shuts down. Call it once the proxy has
    /// stopped serving; a proxy given its `sources` leaves them as they are.
    public func shutdown() async {
        guard ownsSources else { return }
        await sources.shutdown(gracePeriod: .zero)
    }

    /// What the proxy has done so far.
    public var statistics: ProxyStatistics { counters.withLockedValue { $0 } }

    /// Renders running and requests waiting for one, for a gauge.
    public var queueLoad: (running: Int, waiting: Int) { queue.load }

    /// The answer to `request`: the image (200), a 304 for a matching `If-None-Match`, or
    /// an error status with one line of text saying why (see ``ProxyError/Reason``).
    public func respond(to request: ProxyRequest) async -> ProxyResponse {
        let response: ProxyResponse
        do {
            let output =
                request.path.hasPrefix("/info/")
                ? try await info(for: request) : try await self.output(for: request)
            response = answer(output, to: request)
        } catch let error as ProxyError {
            response = answer(error)
        } catch is CancellationError {
            response = answer(ProxyError(.sourceFailed, "the request was cancelled"))
        } catch {
            response = answer(ProxyError(.processingFailed, "\(error)"))
        }
        counters.withLockedValue {
            $0.requests += 1
            if response.status >= 400 { $0.failures += 1 }
            if response.status == 429 { $0.refusedBusy += 1 }
        }
        return response
    }

    /// The options a path asks for, presets expanded, after its signature is checked.
    ///
    /// - Throws: ``ProxyError`` 400 or 403.
    public func options(for path: ProxyPath) throws(ProxyError) -> ProcessingOptions {
        try options(for: path, hints: ClientHints())
    }

    func options(for path: ProxyPath, hints: ClientHints) throws(ProxyError) -> ProcessingOptions {
        if let signer = configuration.signer, !signer.isValid(path.signature, for: path.signedPath) {
            throw ProxyError(.badSignature, "the signature does not match the path")
        }
        var options = ProcessingOptions()
        hints.apply(to: &options)
        if presets["default"] != nil { try OptionParser.expand("default", into: &options, presets: presets, depth: 0) }
        let presetsOnly = configuration.presetsOnly
        try path.forEachOption { (segment) throws(ProxyError) in
            if presetsOnly {
                let text = segment.string
                let name = text.split(separator: ":", maxSplits: 1).first ?? Substring(text)
                // An expiry narrows who may use a URL, it shapes no image: allowed too.
                guard ["pr", "preset", "exp", "expires"].contains(name) || !text.contains(":") else {
                    throw ProxyError(.badOptions, "only presets are accepted, not \"\(text)\"")
                }
                if text.contains(":") {
                    try OptionParser.apply(segment, to: &options, presets: presets, depth: 0)
                } else {
                    try OptionParser.expand(text, into: &options, presets: presets, depth: 0)
                }
            } else {
                try OptionParser.apply(segment, to: &options, presets: presets, depth: 0)
            }
        }
        if options.format == nil { options.format = path.extensionFormat }
        if let expires = options.expires, expires < Date() {
            throw ProxyError(.expired, "the URL expired at \(Int(expires.timeIntervalSince1970))")
        }
        return options
    }

    private func output(for request: ProxyRequest) async throws -> RenderedOutput {
        let path = try ProxyPath(request.path)
        let key = try outputKey(for: request, path: path)
        if let violation = configuration.urlPolicy.violation(for: path.source) {
            throw ProxyError(.sourceForbidden, "the source is refused: \(violation)")
        }
        if let cached = outputs.value(forKey: key) {
            counters.withLockedValue { $0.outputCacheHits += 1 }
            return cached
        }
        let (output, joined) = try await work.value(for: .output(key)) { [self] in
            let output = try await storedOrRendered(key, source: path.source)
            outputs.setValue(output, forKey: key, cost: output.data.count)
            return output
        }
        if joined { count { $0.coalesced += 1 } }
        return output
    }

    /// What identifies the output `request` asks for (its options parsed and checked).
    func outputKey(for request: ProxyRequest, path: ProxyPath) throws(ProxyError) -> OutputKey {
        var options = try options(for: path, hints: configuration.usesClientHints ? ClientHints(request) : ClientHints())
        let named = options.format
        options.format = nil
        options.expires = nil
        let negotiated = FormatChoice.negotiated(
            accept: request.accept, prefersWebP: configuration.prefersWebP, prefersAVIF: configuration.prefersAVIF)
        return OutputKey(
            source: path.source.absoluteString, options: options, named: named,
            // Who names a format (and is not overruled) gets it whatever they accept.
            negotiated: named == nil || configuration.enforcesPreferredFormats ? negotiated : nil)
    }

    func count(_ change: (inout ProxyStatistics) -> Void) {
        counters.withLockedValue { change(&$0) }
    }

    /// Loads the source, checks it, and renders it on the configured executor: the result
    /// as it is stored (its body hashed once, for the store's check and the ETag).
    func make(_ key: OutputKey, source: URL) async throws -> StoredVariant {
        let data = try await sourceData(source)
        if let passed = PassThrough.output(of: data, options: key.options) { return passed }
        let surveyed = try renderer.survey(data, options: key.options)
        let (format, varies) = FormatChoice.choose(
            named: key.named, negotiated: key.negotiated, source: surveyed.header.info.format,
            animated: surveyed.header.frameCount > 1 && renderer.allowsAnimation(key.options),
            prefersAny: configuration.prefersWebP || configuration.prefersAVIF, enforces: configuration.enforcesPreferredFormats)
        let job = try renderer.job(for: surveyed, options: key.options, format: format)
        var reservation: MemoryReservation?
        if let budget = configuration.memoryBudget, let bytes = job.estimatedMemory, bytes > 0 {
            reservation = try await budget.reserve(min(bytes, budget.capacity))
        }
        defer { reservation?.release() }
        let renderer = renderer
        let bytes = try await withTaskExecutorPreference(configuration.executor) { try renderer.render(data, job) }
        return StoredVariant(body: bytes, contentType: format.mimeType, fileExtension: format.fileExtension, variesByAccept: varies)
    }

    /// A strong ETag for `output`: the first 16 bytes of its SHA-256 in hex, quoted.
    static func entityTag(of output: Data) -> String {
        "\"" + Data(SHA256.hash(data: output).prefix(16)).hexadecimal + "\""
    }

    /// The source's bytes, through the manager: the renders that need one source at the
    /// same time share its load, which is counted once as a fetch (the loads that joined
    /// it are coalesced).
    func sourceData(_ url: URL) async throws(ProxyError) -> Data {
        let request = ImageRequest(
            url: url, options: [.returnDataWithoutDecoding], context: ImageLoadContext(urlPolicy: configuration.urlPolicy))
        do {
            let response = try await sources.response(for: request)
            if !response.isCoalesced, response.source == .network || response.source == .revalidated {
                count { $0.sourceFetches += 1 }
            }
            guard let data = response.data, !data.isEmpty else {
                throw ProxyError(.notAnImage, "the source is empty")
            }
            return data
        } catch let error as ImageLoadError {
            throw ProxyError(source: error)
        } catch let error as ProxyError {
            throw error
        } catch {
            throw ProxyError(.sourceFailed, "\(error)")
        }
    }
}
