import Foundation
import WebImage
import WebImageResources

extension ImageProxy {
    /// The quality each lossy format is written at when a URL gives no `q:`.
    public struct Quality: Sendable, Hashable {
        /// 80, what imgproxy and thumbor write by default.
        public var jpeg: Int
        /// 80.
        public var webp: Int
        /// 63, imgproxy's default for AVIF (AV1's quantizer reaches a JPEG's look at a
        /// lower number).
        public var avif: Int
        /// libaom's speed for AVIF outputs, 0 (slowest, smallest) to 10; 8 by default,
        /// imgproxy's: a 300 px thumbnail in tens of milliseconds rather than seconds.
        public var avifSpeed: Int

        public init(jpeg: Int = 80, webp: Int = 80, avif: Int = 63, avifSpeed: Int = 8) {
            self.jpeg = jpeg
            self.webp = webp
            self.avif = avif
            self.avifSpeed = avifSpeed
        }

        /// The configured quality of `format` (PNG and GIF have none to set).
        func `default`(for format: OutputFormat) -> Int? {
            switch format {
            case .jpeg: jpeg
            case .webp: webp
            case .avif: avif
            case .png, .gif: nil
            }
        }
    }

    /// Everything an operator sets. The defaults are a proxy facing the internet: public
    /// sources only, limits on every source, a bounded queue.
    public struct Configuration: Sendable {
        /// Signs and checks URLs; `nil` serves unsigned URLs (any first segment, such as
        /// `unsafe`, is taken), for development and for proxies behind a trusted front.
        public var signer: URLSigner?
        /// Named option sets for `preset:NAME`; one named `default` applies to every URL.
        public var presets: [ProxyPreset]
        /// Accept only presets in URLs (`preset:NAME`, `pr:NAME`, or the bare name), and
        /// `exp:`, so the outputs are a known few: nobody can ask for sizes the operator did
        /// not plan.
        public var presetsOnly: Bool
        /// What a source may be.
        public var limits: SourceLimits
        /// How large an output may be.
        public var resultLimits: ResultLimits
        public var quality: Quality
        /// With no format in the URL, answer WebP to clients whose `Accept` lists
        /// `image/webp` (the response then carries `Vary: Accept`). On by default.
        public var prefersWebP: Bool
        /// With no format in the URL, answer AVIF to clients whose `Accept` lists
        /// `image/avif`, before WebP (imgproxy's `IMGPROXY_AUTO_AVIF`). Off by default: an
        /// AVIF costs several times a WebP's CPU. An animated source gets WebP instead,
        /// whose animation the proxy writes.
        public var prefersAVIF: Bool
        /// Read the `DPR` and `Width` client hints (and their `Sec-CH-` names) as the
        /// defaults of `dpr` and `width` (the width divided by the ratio), below the
        /// URL's own options (imgproxy's `IMGPROXY_ENABLE_CLIENT_HINTS`); every answer
        /// then varies by them. Off by default: a cache in front must key on the hints.
        public var usesClientHints = false
        /// Apply ``prefersAVIF`` and ``prefersWebP`` even when the URL names a format
        /// (imgproxy's `IMGPROXY_ENFORCE_AVIF` and `IMGPROXY_ENFORCE_WEBP`). Off by default.
        public var enforcesPreferredFormats: Bool
        /// `Cache-Control: public, max-age=` of every image (one year: an output never
        /// changes for its URL while the source stays the same).
        public var maxAge: Int
        /// Bytes of outputs kept in memory (64 MiB), least recently used first out.
        public var outputCacheBytes: Int
        /// Outputs made at once, source fetch included (twice the usable cores, as
        /// imgproxy's workers). Decoding and encoding run on `executor`, whatever this is.
        public var concurrency: Int
        /// Requests that may wait for one of those (64); one more gets 429.
        public var queueCapacity: Int
        /// `Retry-After` of a 429, in seconds.
        public var retryAfterSeconds: Int
        /// How long a source may take, connection to last byte (10 s); then 504. A source
        /// may send nothing for all of it; making the connection may take at most 10 s.
        public var sourceTimeout: Duration
        /// Which sources may be fetched: by default `URLPolicy.publicOnly` (http and https
        /// to public addresses, checked at the address connected to, every redirect too).
        public var urlPolicy: URLPolicy
        /// Where sources (`proxy-sources` below it) and processed results
        /// (`proxy-results`, with `proxy-results-index`) are kept on disk between requests
        /// and restarts; `nil` keeps none.
        public var cacheDirectory: URL?
        /// The fleet's shared tier (such as `WebImageSharedCache`'s `SharedCache`): the
        /// sources' manager reads and fills it (one source fetch per source across the
        /// fleet), and processed results are stored in it, with the fleet rendering each
        /// once (see ``storesResults``). `nil`: none. A proxy given its own sources'
        /// manager uses this for results only.
        public var sharedCache: (any SharedDataCaching & VariantIndexing)?
        /// Whether processed results are stored in the ``cacheDirectory`` and the
        /// ``sharedCache`` and looked up there before any source fetch or render. On by
        /// default (it does nothing without either).
        public var storesResults = true
        /// The most bytes of processed results kept on disk (1 GiB), least recently used
        /// first out.
        public var resultCacheBytes = 1 << 30
        /// The formats read: PNG, JPEG, GIF, WebP and AVIF.
        public var decoders: ImageDecoderRegistry
        /// Where decoding and encoding run: the library's worker pool, never Swift's
        /// cooperative threads, so a burst of renders does not stall the server's handlers.
        public var executor: any TaskExecutor
        /// Bytes of pixels decoded at once, across the process; `nil` for no bound. A
        /// proxy made with ``ImageProxy/init(configuration:)`` gives it to its sources'
        /// manager too, whose downloader then starts no new source download while a
        /// render waits for it.
        public var memoryBudget: MemoryBudget?
        /// Whether outputs keep the source's colour profile when the URL does not say
        /// (`scp:`): `false` (the default, as imgproxy) converts to sRGB and writes no
        /// profile; `true` keeps the stored pixels and writes the source's profile.
        public var keepsColorProfile = false

        public init(
            signer: URLSigner? = nil,
            presets: [ProxyPreset] = [],
            presetsOnly: Bool = false,
            limits: SourceLimits = SourceLimits(),
            resultLimits: ResultLimits = ResultLimits(),
            quality: Quality = Quality(),
            prefersWebP: Bool = true,
            prefersAVIF: Bool = false,
            enforcesPreferredFormats: Bool = false,
            maxAge: Int = 31_536_000,
            outputCacheBytes: Int = 64 << 20,
            concurrency: Int = 2 * ProcessResources.current.usableCores,
            queueCapacity: Int = 64,
            retryAfterSeconds: Int = 1,
            sourceTimeout: Duration = .seconds(10),
            urlPolicy: URLPolicy = .publicOnly,
            cacheDirectory: URL? = nil,
            decoders: ImageDecoderRegistry = .allFormats,
            executor: any TaskExecutor = WorkerPool.shared,
            memoryBudget: MemoryBudget? = .shared
        ) {
            self.signer = signer
            self.presets = presets
            self.presetsOnly = presetsOnly
            self.limits = limits
            self.resultLimits = resultLimits
            self.quality = quality
            self.prefersWebP = prefersWebP
            self.prefersAVIF = prefersAVIF
            self.enforcesPreferredFormats = enforcesPreferredFormats
            self.maxAge = maxAge
            self.outputCacheBytes = outputCacheBytes
            self.concurrency = concurrency
            self.queueCapacity = queueCapacity
            self.retryAfterSeconds = retryAfterSeconds
            self.sourceTimeout = sourceTimeout
            self.urlPolicy = urlPolicy
            self.cacheDirectory = cacheDirectory
            self.decoders = decoders
            self.executor = executor
            self.memoryBudget = memoryBudget
        }
    }
}
