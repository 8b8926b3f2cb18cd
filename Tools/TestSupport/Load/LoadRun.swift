import Foundation
import WebImage
import WebImageTestServer

/// One whole run: serve the images, load them per the plan, check, and take everything
/// down again (server, manager, folders) before returning, so the process ends with
/// nothing running and nothing allocated that a leak checker could blame on the library.
enum LoadRun {
    static func execute(_ options: LoadOptions, log: @Sendable (String) -> Void) async throws -> LoadSummary {
        let served = try ScratchFolder("served")
        let cache = try ScratchFolder("cache")
        // Both are removed as this returns, before the process exits.
        defer { withExtendedLifetime((served, cache)) {} }
        let clock = ContinuousClock()
        let making = clock.now
        let images = try ServedImages.make(count: options.images, in: served.url)
        log(
            "made \(images.images.count) images (\(images.images.map(\.bytes).reduce(0, +) / 1024) KiB) in \(String(format: "%.1f", (clock.now - making).seconds)) s"
        )
        let plan = LoadPlan(options: options, imageCount: images.images.count)

        let server = try await LoopbackServer.start(.init(documentRoot: served.url))
        do {
            // `?v=n` makes each URL its own cache key and download while the file, and so
            // the expected image, stays known.
            let urls = (0..<options.urls).map { server.url("/files/\(images.images[plan.imageOfURL[$0]].name)?v=\($0)") }
            let baseline = ProcessMemory.currentMiB ?? 0
            log(
                "serving on \(server.baseURL.absoluteString); \(plan.loads.count) loads over \(urls.count) URLs, \(options.concurrency) at once"
            )

            let ledger = CompletionLedger(count: plan.loads.count)
            let pipeline = LoadPipeline(memoryCacheMiB: options.memoryCacheMiB, cacheDirectory: cache.url)
            let start = clock.now
            await LoadRunner(pipeline: pipeline, urls: urls, concurrency: options.concurrency, timeout: .seconds(options.timeoutSeconds))
                .run(plan, into: ledger)
            let elapsed = clock.now - start
            let settled = await pipeline.settle()
            await pipeline.shutdown()
            let checks = LoadChecks(plan: plan, ledger: ledger, images: images)
            let summary = LoadSummary(
                options: options, checks: checks,
                urlsUsed: Set(plan.loads.map(\.url)).count,
                requests: server.requests.count,
                leftoverKeys: settled.keys, leftoverDownloads: settled.downloads, settleTime: settled.waited,
                baselineMiB: baseline, peakMiB: ProcessMemory.peakMiB ?? 0,
                seconds: elapsed.seconds, timedOut: ledger.gaveUp)
            try await server.shutdown()
            return summary
        } catch {
            try? await server.shutdown()
            throw error
        }
    }
}

extension Duration {
    var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) / 1e18
    }
}
