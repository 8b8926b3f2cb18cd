import ArgumentParser
import Foundation
import WebImage
import WebImageProxy
import WebImageSharedCache

/// `webimage proxy`: the image proxy of `WebImageProxy` as a server, until interrupted.
struct ProxyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "proxy",
        abstract: "Serve thumbnails of remote images on demand, from imgproxy-style URLs.",
        discussion: """
            URLs are /{signature}/{options}/plain/{percent-encoded source URL}[@{jpeg|png|webp}], \
            with imgproxy's options rs:{fit|fill|fill-down|force|auto}:{w}:{h}, s, w, h, mw, mh, \
            z, dpr, ex, exar, g:{ce|no|so|ea|we|noea|nowe|soea|sowe|sm|fp}, c, q:{1-100}, \
            f:{jpeg|png|webp|avif}, exp:{unix seconds}, scp:{1|0} and pr:{preset}. Without a \
            format the client's Accept picks WebP when it takes it, else the source's JPEG or PNG.

            Outputs are converted to sRGB and carry no colour profile, unless the URL says \
            scp:0 or the server runs with --keep-color-profile: then the source's pixels and \
            profile are kept (scp:1 strips it again).

            With --key and --salt (hex) every URL must be signed: the signature is the \
            URL-safe base64 (no padding) of HMAC-SHA256(key, salt + the path after the \
            signature). Without them the first segment is ignored (write `unsafe`).

            With --cache-dir, sources and processed results are kept on disk and survive a \
            restart; with --shared-cache (Redis nodes, as for `fetch`), the fleet shares both: \
            each source is fetched once and each result rendered once across the proxies \
            sharing the nodes. A node that is down is a miss, never a failed request. \
            `webimage cache purge --source URL` removes a source and its results.

            Sources must be public addresses (checked at the address connected to, on every \
            redirect) unless --allow-non-public; --allow-host narrows them to the hosts given.

            The base URL is printed first. SIGINT or SIGTERM stops the server gracefully and \
            prints what it served.
            """
    )

    @Option(help: ArgumentHelp("Listen on this address.", valueName: "address"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("Listen on this port (0: one the system picks).", valueName: "n"))
    var port = 8080

    @Option(help: ArgumentHelp("The signing key, in hex (with --salt).", valueName: "hex"))
    var key: String?

    @Option(help: ArgumentHelp("The signing salt, in hex (with --key).", valueName: "hex"))
    var salt: String?

    @Option(
        name: .customLong("allow-host"),
        help: ArgumentHelp("Fetch sources only from this host (repeatable; *.example.com for every host under it).", valueName: "host"))
    var allowedHosts: [String] = []

    @Flag(name: .customLong("allow-non-public"), help: "Fetch sources from loopback and private addresses too.")
    var allowsNonPublic = false

    @Option(
        name: .customLong("preset"),
        help: ArgumentHelp("A named preset, NAME=OPTION/OPTION (repeatable; `default` applies to every URL).", valueName: "preset"))
    var presets: [String] = []

    @Flag(name: .customLong("presets-only"), help: "Accept only presets in URLs.")
    var presetsOnly = false

    @Flag(
        name: .customLong("keep-color-profile"),
        help: "Keep the source's colour profile in outputs unless the URL says scp:1 (default: convert to sRGB, write none).")
    var keepsColorProfile = false

    @Option(
        name: .customLong("cache-dir"),
        help: ArgumentHelp(
            "Keep sources and processed results on disk in this directory, across restarts (default: none).", valueName: "dir"))
    var cacheDirectory: String?

    @OptionGroup var sharedCache: SharedCacheOption

    @Option(name: .customLong("max-src-bytes"), help: ArgumentHelp("The largest source, in bytes.", valueName: "n"))
    var maxSourceBytes: Int64 = SourceLimits().maxBytes

    @Option(
        name: .customLong("max-src-resolution"),
        help: ArgumentHelp("The most source pixels, summed over frames, in megapixels.", valueName: "mp"))
    var maxSourceMegapixels: Double = Double(SourceLimits().maxResolution) / 1_000_000

    @Option(name: .customLong("max-frames"), help: ArgumentHelp("The most frames a source may have.", valueName: "n"))
    var maxFrames = SourceLimits().maxFrames

    @Option(
        name: .customLong("max-animation-frames"),
        help: ArgumentHelp(
            "The most frames an output is made of (imgproxy's max_animation_frames; 1, the default, makes stills of the first "
                + "frame). Above 1, animations asked as WebP or GIF keep their first n frames.", valueName: "n"))
    var maxAnimationFrames = SourceLimits().maxAnimationFrames

    @Option(
        name: .customLong("max-result-dimension"),
        help: ArgumentHelp("The longest side an output may have.", valueName: "n"))
    var maxResultDimension = ResultLimits().maxDimension

    @Option(help: ArgumentHelp("Outputs made at once (default: twice the usable cores).", valueName: "n"))
    var concurrency: Int?

    @Option(name: .customLong("queue"), help: ArgumentHelp("Requests that may wait beyond those; more get 429.", valueName: "n"))
    var queueCapacity = 64

    @Option(name: .customLong("max-age"), help: ArgumentHelp("Cache-Control max-age of images, in seconds.", valueName: "s"))
    var maxAge = 31_536_000

    @Flag(
        name: .customLong("prefer-avif"),
        help: "Answer AVIF to clients whose Accept lists image/avif when the URL names no format (before WebP).")
    var prefersAVIF = false

    @Flag(
        name: .customLong("client-hints"),
        help: "Read the DPR and Width client hints as the defaults of dpr and width (answers then vary by them).")
    var usesClientHints = false

    @Flag(
        name: .customLong("enforce-preferred-formats"),
        help: "Answer AVIF or WebP to clients that accept them even when the URL names another format.")
    var enforcesPreferredFormats = false

    func validate() throws {
        if !(0...65535).contains(port) { throw ValidationError("--port must be within 0...65535") }
        if (key == nil) != (salt == nil) { throw ValidationError("--key and --salt go together") }
        if let concurrency, concurrency < 1 { throw ValidationError("--concurrency must be at least 1") }
        if queueCapacity < 0 { throw ValidationError("--queue must not be negative") }
        if maxResultDimension < 1 { throw ValidationError("--max-result-dimension must be at least 1") }
        if maxAnimationFrames < 1 { throw ValidationError("--max-animation-frames must be at least 1") }
    }

    func makeConfiguration() throws -> ImageProxy.Configuration {
        var configuration = ImageProxy.Configuration()
        if let key, let salt {
            do { configuration.signer = try URLSigner(hexKey: key, hexSalt: salt) } catch { throw ValidationError(error.message) }
        }
        do { configuration.presets = try presets.map { try ProxyPreset(parsing: $0) } } catch let error as ProxyError {
            throw ValidationError(error.message)
        }
        configuration.presetsOnly = presetsOnly
        configuration.keepsColorProfile = keepsColorProfile
        var policy = URLPolicy.publicOnly
        policy.refusesNonPublicAddresses = !allowsNonPublic
        if !allowedHosts.isEmpty { policy.allowedHosts = allowedHosts.map { HostPattern($0) } }
        configuration.urlPolicy = policy
        configuration.cacheDirectory = cacheDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
        configuration.limits = SourceLimits(
            maxBytes: maxSourceBytes, maxResolution: Int(maxSourceMegapixels * 1_000_000), maxFrames: maxFrames,
            maxAnimationFrames: maxAnimationFrames)
        configuration.resultLimits.maxDimension = maxResultDimension
        if let concurrency { configuration.concurrency = concurrency }
        configuration.queueCapacity = queueCapacity
        configuration.maxAge = maxAge
        configuration.prefersAVIF = prefersAVIF
        configuration.enforcesPreferredFormats = enforcesPreferredFormats
        configuration.usesClientHints = usesClientHints
        configuration.sharedCache = try sharedCache.sharedCache()
        return configuration
    }

    func run() async throws {
        let configuration = try makeConfiguration()
        let proxy = ImageProxy(configuration: configuration)
        let host = host
        let signed = configuration.signer != nil
        try await proxy.serve(host: host, port: port) { port in
            Console.line("base URL: http://\(host):\(port)/")
            Console.line("signing: \(signed ? "every URL must be signed" : "off (any first segment, such as unsafe)")")
            Console.line("stop with Ctrl-C (SIGINT) or SIGTERM")
        }
        await proxy.shutdown()
        (configuration.sharedCache as? SharedCache)?.shutdown()
        let served = proxy.statistics
        Console.line(
            "stopped: \(served.requests) requests, \(served.renders) renders, \(served.sourceFetches) source fetches, "
                + "\(served.storedResultHits) from stored results, \(served.outputCacheHits) from the output cache, "
                + "\(served.coalesced) coalesced, \(served.refusedBusy) refused busy, \(served.failures) failed")
    }
}
