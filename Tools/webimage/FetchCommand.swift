import ArgumentParser
import Foundation
import WebImage

/// `webimage fetch URL...`: loads each URL through an ``ImageManager`` (transport, disk
/// and memory caches, decoders) and reports what came back and from where.
struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Load images through the full pipeline (network, disk and memory caches) and report each load.",
        discussion: """
            Each URL is loaded by an ImageManager composed with the library's defaults \
            and the flags below; at most --concurrency loads run at once, and the \
            results are reported in the order the URLs were given. An argument without \
            a scheme is read as a local file path.

            The table has one row per URL: format, decoded size, frames, source \
            (memory; disk for a copy still fresh by HTTP's caching rules; shared for \
            one from the --shared-cache tier; network; \
            revalidated when the server answered 304 to a stale copy or to --refresh; \
            stale for a copy used past its freshness, as stale-while-revalidate or \
            stale-if-error allow), the \
            encoded bytes downloaded or read from disk (- for a memory hit, which reads \
            none), the HTTP status (- for a cache hit) and the time of the load. With \
            --json each URL is one JSON object per line instead, with the keys url, \
            format, width, height, frames, source, bytes, httpStatus, ms and error \
            (null, or a message); unknown values are null.

            Each load waits until its bytes are written to the disk cache, so that the \
            next run finds them: a command-line process ends right after its loads. The \
            disk cache is the library's default one unless --cache-dir names another \
            (see `webimage cache`).

            --shared-cache puts a tier shared with other servers between the disk cache \
            and the network: Redis nodes, each holding the keys rendezvous hashing gives \
            it. A load that misses its disk cache reads the tier (a hit is copied to the \
            disk cache); on a miss it takes the key's lease, so that other processes \
            loading the same URL at once wait for its download instead of fetching too; \
            what it downloads goes to both. A node that is down, slow or sends garbage \
            is skipped: the load goes to the network.

            --out writes each image as NAME.png (each frame of an animation as \
            NAME-K.png), or in the --format asked (jpeg, webp, avif; an animation as one \
            animated NAME.webp or NAME.avif), NAME being the last component of the URL's \
            path, made unique with -2, -3... --contact-sheet writes one PNG with every loaded image as a \
            160x160 thumbnail captioned with its name, format, size, frames and source, \
            and prints its path (on standard error with --json, which \
            keeps standard output to JSON lines).

            The trust flags apply to every host reached, redirects included, as curl's \
            --cacert, --pinnedpubkey and --insecure do. --ca-file trusts only the CAs \
            of that file; --pin-public-key adds a check to the chain's validation \
            (against the system's CAs, or --ca-file); --allow-invalid-certificates \
            drops the validation (anyone on the network path can then read and change \
            the traffic) but still checks pins. --crl-file and --require-ocsp check \
            revocation during the handshake, before any request byte: against the given \
            lists (the server's own certificate, or every one with --crl-whole-chain) \
            and the OCSP response the server staples; nothing is fetched from a \
            responder or a distribution point.

            --user and --negotiate answer 401s of the URLs' own hosts only, as curl's \
            -u and --negotiate do: --user with a password (Basic, Digest, NTLM; \
            DOMAIN\\user names an NTLM domain), --negotiate with the Kerberos tickets of \
            the default credential cache (KRB5CCNAME; run kinit first). A refused \
            credential fails the load with the 401.

            --wait-for-network turns on the manager's network recovery: a load that \
            failed because the network was down (no route, no DNS, refused, no \
            connection) while the kernel's tables say the network is unreachable waits \
            for it to come back, at most --network-wait seconds (60) each time and up to \
            3 times, and is tried again. Each wait is announced on standard error as \
            "waiting for the network to retry URL".

            A progress bar is drawn on standard error when it is a terminal. The exit \
            status is non-zero when any load failed.
            """
    )

    @Argument(help: "The image URLs (http, https, file, data) or local file paths.")
    var urls: [String]

    @OptionGroup var cacheDirectory: CacheDirectoryOption

    @Flag(name: .customLong("no-disk-cache"), help: "Use no disk cache: neither read nor write one.")
    var noDiskCache = false

    @OptionGroup var sharedCache: SharedCacheOption

    @Option(help: ArgumentHelp("Loads (and downloads) running at once.", valueName: "n"))
    var concurrency = 6

    @OptionGroup var trust: TrustOptions

    @OptionGroup var urlPolicy: URLPolicyOptions

    @OptionGroup var authentication: AuthenticationOptions

    @Option(name: .customLong("max-pixel-size"), help: ArgumentHelp("Decode so that the longer side is at most N pixels.", valueName: "n"))
    var maxPixelSize: Int?

    @Flag(name: .customLong("first-frame"), help: "Decode only the first frame of an animation.")
    var firstFrame = false

    @Flag(help: "Ask the server whether a cached copy is still current (a 304 keeps it: source revalidated).")
    var refresh = false

    @Option(
        name: .customLong("cache-policy"),
        help: ArgumentHelp(
            "How the disk cache is used: protocol (HTTP's caching rules), always (any copy, however old) or never.",
            valueName: "policy"))
    var cachePolicy: CachePolicyArgument = .protocol

    @Option(name: .customLong("out"), help: ArgumentHelp("Write every image into this directory (PNG unless --format).", valueName: "dir"))
    var outputDirectory: String?

    @Option(name: .customLong("format"), help: "The format --out writes: png, jpeg, webp, avif or gif.")
    var outputFormat: OutputFormat = .png

    @Option(name: .customLong("quality"), help: "JPEG, WebP or AVIF quality, 1 to 100 (85 for JPEG, 80 for WebP, 60 for AVIF).")
    var quality: Int?

    @Option(name: .customLong("contact-sheet"), help: ArgumentHelp("Write a PNG of thumbnails of every image loaded.", valueName: "png"))
    var contactSheetPath: String?

    @Flag(help: "Print one JSON object per URL instead of a table.")
    var json = false

    @Flag(name: .customLong("wait-for-network"), help: "Retry loads that failed while the network was down once it is back.")
    var waitForNetwork = false

    @Option(
        name: .customLong("network-wait"),
        help: ArgumentHelp("With --wait-for-network: the longest wait for the network, in seconds.", valueName: "s"))
    var networkWait: Double = 60

    func validate() throws {
        if concurrency < 1 { throw ValidationError("--concurrency must be at least 1") }
        if let quality, !(1...100).contains(quality) { throw ValidationError("--quality must be from 1 to 100") }
        if let maxPixelSize, maxPixelSize <= 0 {
            throw ValidationError("--max-pixel-size must be a positive number of pixels")
        }
        do { _ = try URLArguments.urls(urls) } catch { throw ValidationError(error.description) }
        if !(networkWait > 0 && networkWait <= 86_400) { throw ValidationError("--network-wait must be within 0...86400 seconds") }
    }

    func run() async throws {
        var configuration = try WebImageConfiguration.commandLine(
            cacheDirectory: noDiskCache ? nil : cacheDirectory.directory, concurrency: concurrency, trust: trust,
            urlPolicy: urlPolicy.policy)
        configuration.transport.challengeHandler = authentication.challengeHandler(for: try URLArguments.urls(urls))
        let monitor = try waitForNetwork ? NetworkReachabilityMonitor() : nil
        defer { monitor?.stop() }
        if let monitor {
            configuration.manager.networkRecovery = NetworkRecovery(
                observer: monitor, maximumWait: .milliseconds(Int64(networkWait * 1000)))
            configuration.manager.eventMonitors.append(NetworkWaitNotes())
        }
        configuration.manager.cachePolicy = cachePolicy.policy
        configuration.manager.sharedCache = try sharedCache.sharedCache()
        let manager = ImageManager(configuration: configuration)
        // What failed downloads kept is written behind them: on disk before the exit.
        defer { configuration.downloader.partialDownloads?.flush() }
        var options: ImageLoadOptions = [.waitForCacheStore]
        if firstFrame { options.insert(.firstFrameOnly) }
        if refresh { options.insert(.refreshCached) }
        let context = ImageLoadContext(thumbnailPixelSize: maxPixelSize)
        let requests = try URLArguments.urls(urls).map { ImageRequest(url: $0, options: options, context: context) }
        if let outputDirectory {
            try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
        }

        var reports: [LoadReport] = []
        var sheet = ContactSheet()
        var names = OutputFileNames()
        let progress = ProgressBar(label: "fetch", total: requests.count)
        await LoadRunner(manager: manager, concurrency: concurrency).run(requests, progress: progress) { loaded in
            var report = loaded
            if let image = report.image {
                keep(image, of: &report, names: &names, sheet: &sheet)
            }
            if json {
                progress.erase()
                Console.line(report.jsonLine())
            }
            reports.append(report.droppingImage())
        }
        progress.erase()
        await manager.shutdown()

        if !json { printTable(reports) }
        if let contactSheetPath { try writeContactSheet(sheet, to: contactSheetPath) }
        let failures = reports.filter(\.failed).count
        if failures > 0 {
            Console.note("\(failures) of \(reports.count) loads failed")
            throw ExitCode.failure
        }
    }

    /// Writes the image out and adds it to the contact sheet, as the flags ask; a failure
    /// to do so fails the URL's report.
    private func keep(_ image: DecodedImage, of report: inout LoadReport, names: inout OutputFileNames, sheet: inout ContactSheet) {
        if let outputDirectory {
            do {
                // FrameWriter drops the extension of the name it is given.
                try FrameWriter.write(
                    image, named: names.name(for: report.url) + "." + outputFormat.fileExtension, into: outputDirectory,
                    format: outputFormat, quality: quality)
            } catch {
                report.error = "could not write \(outputFormat.rawValue) output: \(error)"
            }
        }
        if contactSheetPath != nil {
            do {
                try sheet.add(image, caption: ContactSheet.Caption(report))
            } catch {
                report.error = "could not make a thumbnail: \(error)"
            }
        }
    }

    private func printTable(_ reports: [LoadReport]) {
        let anyFailed = reports.contains(where: \.failed)
        var table = TextTable(
            header: LoadReport.tableHeader + (anyFailed ? ["error"] : []), rightAligned: LoadReport.tableNumberColumns)
        for report in reports {
            table.append(report.tableRow() + (anyFailed ? [report.error ?? ""] : []))
        }
        Console.line(table.render())
    }

    private func writeContactSheet(_ sheet: ContactSheet, to path: String) throws {
        guard !sheet.isEmpty else {
            Console.note("no image was loaded, so no contact sheet was written")
            return
        }
        let file = URL(fileURLWithPath: path)
        let size = try sheet.write(to: file)
        let message = "contact sheet: \(file.path) (\(size), \(sheet.thumbnails.count) images)"
        // Standard output stays JSON lines with --json.
        if json { Console.note(message) } else { Console.line(message) }
    }
}

/// `--cache-policy`: the manager's ``CachePolicy`` by name.
enum CachePolicyArgument: String, ExpressibleByArgument, CaseIterable {
    case `protocol`, always, never

    var policy: CachePolicy {
        switch self {
        case .protocol: .protocol
        case .always: .always
        case .never: .never
        }
    }
}
