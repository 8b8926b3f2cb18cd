import ArgumentParser
import Foundation
import WebImage
import WebImageFixtures
import WebImageProxy
import WebImageTestServer

/// `webimage demo`: the whole library at work on the project's own sample images, with
/// nothing from outside: a real server on loopback, the full pipeline cold and warm, and
/// a contact sheet to look at. What `make run` runs.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Serve the sample images on loopback and load them cold, warm from memory and warm from disk.",
        discussion: """
            The project's sample images (JPEG baseline, progressive, rotated and gray; \
            RGBA and interlaced PNG; two animated GIFs) are written to DIR/samples and \
            served by a loopback server on 127.0.0.1 (HTTP/1.1, or HTTPS with HTTP/2 \
            with --tls, trusting a CA made for the run). Then every image is loaded \
            through an ImageManager three times:

              1. cold, from the network, with a fresh disk cache in DIR/cache;
              2. warm, from memory: the same manager again;
              3. warm, from disk: a new manager (empty memory) on the same directory.

            Each pass prints a table (image, format, decoded size, source, load time) \
            and its total time; a summary follows, and a contact sheet of the images is \
            written to DIR/contact-sheet.png, whose path is printed: each thumbnail \
            captioned with the image's name, format, size, frames and source.

            Then the image proxy (`webimage proxy`) runs in front of the same server: a \
            few thumbnails are made through it cold (written to DIR/proxy), asked again \
            (its output cache answers) and one is asked by many clients at once (one \
            render serves them); the proxy's and the origin's request counts are printed. \
            A load that fails, \
            or whose image comes from another source than its pass is about, is a \
            failure, and any failure makes the exit status non-zero.

            DIR is --out, else webimage-demo in the temporary directory; its samples and \
            cache are made afresh on every run.
            """
    )

    @Option(
        name: .customLong("out"), help: ArgumentHelp("The directory for the samples, the cache and the contact sheet.", valueName: "dir"))
    var outputDirectory: String?

    @Option(help: ArgumentHelp("Loads running at once in each pass.", valueName: "n"))
    var concurrency = 6

    @Flag(help: "Serve over HTTPS with HTTP/2, trusting a CA made for the run.")
    var tls = false

    func validate() throws {
        if concurrency < 1 { throw ValidationError("--concurrency must be at least 1") }
    }

    func run() async throws {
        let folder = URL(
            fileURLWithPath: outputDirectory ?? FileManager.default.temporaryDirectory.appendingPathComponent("webimage-demo").path)
        let samplesFolder = folder.appendingPathComponent("samples", isDirectory: true)
        let cacheFolder = folder.appendingPathComponent("cache", isDirectory: true)
        let samples = try Self.writeSamples(into: samplesFolder)
        // A fresh cache, or the first pass would not be cold.
        try? FileManager.default.removeItem(at: cacheFolder)

        let certificates = try tls ? ServerCertificates.make(keepingAt: folder.appendingPathComponent("ca.pem").path) : nil
        let server = try await LoopbackServer.start(.init(tls: certificates?.identity, documentRoot: samplesFolder, http2: true))
        let passes: [DemoPass]
        let proxyPass: DemoProxyPass
        do {
            let protocols = tls ? "HTTPS, HTTP/2 by ALPN" : "HTTP/1.1"
            Console.line("server: \(server.url("/files/").absoluteString) (\(protocols))")
            Console.line("cache: \(cacheFolder.path) (fresh)")
            var configuration = WebImageConfiguration(cacheDirectory: cacheFolder)
            configuration.downloader.maximumConcurrentDownloads = concurrency
            if let certificates {
                configuration.transport.trustPolicy = AllHostsTrustPolicy(
                    try AnchoredTrustEvaluator(contentsOf: [certificates.authorityFile]))
            }
            passes = try await loadThreeTimes(samples.map { server.url("/files/\($0.name)") }, configuration: configuration)
            let before = server.requests.count
            var sourcesConfiguration = configuration
            sourcesConfiguration.cacheDirectory = nil
            let proxyFolder = folder.appendingPathComponent("proxy", isDirectory: true)
            proxyPass = try await DemoProxyPass.run(
                origin: server.url("/files/"), sources: ImageManager(configuration: sourcesConfiguration), writingInto: proxyFolder)
            Console.line("")
            Console.line(proxyPass.render(folder: proxyFolder))
            Console.line("origin: \(server.requests.count - before) requests for the proxy's \(proxyPass.statistics.requests)")
            try await server.shutdown()
        } catch {
            try? await server.shutdown()
            throw error
        }

        let sheetFile = folder.appendingPathComponent("contact-sheet.png")
        let sheetSize = try Self.contactSheet(of: passes[passes.count - 1]).write(to: sheetFile)
        Console.line("")
        Console.line(Self.summary(samples: samples, passes: passes))
        Console.line("contact sheet: \(sheetFile.path) (\(sheetSize))")
        let failures = passes.reduce(0) { $0 + $1.failures } + proxyPass.failures
        if failures > 0 { throw ExitCode.failure }
    }

    /// The three passes, each table printed as soon as its pass ends.
    private func loadThreeTimes(_ urls: [URL], configuration: WebImageConfiguration) async throws -> [DemoPass] {
        // Pass 3 reads what pass 1 wrote: each load waits for its disk write.
        let requests = urls.map { ImageRequest(url: $0, options: [.waitForCacheStore]) }
        let first = ImageManager(configuration: configuration)
        let second = ImageManager(configuration: configuration)
        let plan: [(title: String, expected: ImageSource, manager: ImageManager)] = [
            ("cold, from the network", .network, first),
            ("warm, from memory (the same manager)", .memory, first),
            ("warm, from disk (a new manager on the same cache directory)", .disk, second),
        ]
        var passes: [DemoPass] = []
        for (index, step) in plan.enumerated() {
            let pass = await DemoPass.run(
                number: index + 1, title: step.title, expected: step.expected, manager: step.manager, requests: requests,
                concurrency: concurrency, keepingImages: index == plan.count - 1)
            Console.line("")
            Console.line(pass.render())
            passes.append(pass)
        }
        for manager in [first, second] { await manager.shutdown() }
        return passes
    }

    /// Writes the samples afresh into `folder`.
    private static func writeSamples(into folder: URL) throws -> [SampleImages.Sample] {
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let samples = try SampleImages.all()
        for sample in samples {
            try sample.data.write(to: folder.appendingPathComponent(sample.name), options: .atomic)
        }
        let bytes = samples.reduce(0) { $0 + $1.data.count }
        Console.line("samples: \(samples.count) images, \(Measurements.text(bytes: bytes)), in \(folder.path)")
        return samples
    }

    private static func contactSheet(of pass: DemoPass) throws -> ContactSheet {
        var sheet = ContactSheet()
        for report in pass.reports {
            if let image = report.image { try sheet.add(image, caption: ContactSheet.Caption(report)) }
        }
        return sheet
    }

    private static func summary(samples: [SampleImages.Sample], passes: [DemoPass]) -> String {
        var table = TextTable(header: ["summary", ""], rightAligned: [1])
        table.append(["images", "\(samples.count)"])
        table.append(["bytes", Measurements.text(bytes: samples.reduce(0) { $0 + $1.data.count })])
        for pass in passes {
            table.append(["pass \(pass.number) (\(pass.expected))", Measurements.text(milliseconds: pass.milliseconds)])
        }
        table.append(["failures", "\(passes.reduce(0) { $0 + $1.failures })"])
        return table.render()
    }
}
