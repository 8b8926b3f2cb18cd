import ArgumentParser
import Foundation
import NIOConcurrencyHelpers
import WebImage

/// `webimage prefetch --list FILE`: warms the disk cache with a list of URLs through an
/// ``ImagePrefetcher``, so that later loads (`fetch`, or an app sharing the cache
/// directory) come from disk.
struct PrefetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prefetch",
        abstract: "Download a list of image URLs into the disk cache.",
        discussion: """
            The list has one URL per line; blank lines and lines starting with # are \
            skipped, and - reads the list from standard input. Every URL is loaded \
            through an ImagePrefetcher, at most --concurrency at a time; a URL already \
            in the disk cache is not downloaded again.

            The images are stored without being decoded: the memory cache ends with this \
            process, so decoding would be work thrown away. --decode decodes each one \
            as well, so that a body that is no image counts as failed and is not kept.

            Progress goes to standard error (a bar on a terminal, otherwise a line every \
            tenth of the list); the final counts go to standard output: fetched \
            (downloaded), cached (already on disk), failed and cancelled. SIGINT (Ctrl-C) \
            or SIGTERM cancels what is left and still prints the counts. The exit status \
            is 1 when any URL failed, 130 when interrupted, else 0.
            """
    )

    @Option(name: .customLong("list"), help: ArgumentHelp("The file of URLs, one per line (- for standard input).", valueName: "file"))
    var listFile: String

    @OptionGroup var cacheDirectory: CacheDirectoryOption

    @Option(help: ArgumentHelp("Loads (and downloads) running at once.", valueName: "n"))
    var concurrency = 6

    @Flag(help: "Decode every image too, so that bodies that are not images count as failed.")
    var decode = false

    @OptionGroup var trust: TrustOptions

    @OptionGroup var urlPolicy: URLPolicyOptions

    func validate() throws {
        if concurrency < 1 { throw ValidationError("--concurrency must be at least 1") }
    }

    /// How the prefetch ended: all URLs done, or a signal first.
    private enum Ending: Sendable {
        case finished(PrefetchProgress)
        case signal(Int32?)
    }

    func run() async throws {
        let urls = try URLArguments.urls(inListFile: listFile)
        let directory = cacheDirectory.directory
        let configuration = try WebImageConfiguration.commandLine(
            cacheDirectory: directory, concurrency: concurrency, trust: trust, urlPolicy: urlPolicy.policy)
        let manager = ImageManager(configuration: configuration)
        // What failed downloads kept is written behind them: on disk before the exit.
        defer { configuration.downloader.partialDownloads?.flush() }
        // The process ends right after: each load must wait for its disk write.
        let options: ImageLoadOptions = decode ? [.waitForCacheStore] : [.waitForCacheStore, .returnDataWithoutDecoding]
        let prefetcher = ImagePrefetcher(manager: manager, maximumConcurrentLoads: concurrency, options: options)
        let report = Self.progressReporter(total: urls.count)

        let signals = TerminationSignals()
        let stream = signals.signals
        let clock = ContinuousClock()
        let start = clock.now
        var interrupted: Int32?
        let summary = await withTaskGroup(of: Ending.self) { group -> PrefetchProgress in
            group.addTask { .finished(await prefetcher.prefetch(urls, progress: { report($0) })) }
            group.addTask {
                for await number in stream { return .signal(number) }
                return .signal(nil)  // the group was cancelled: the prefetch is over
            }
            var summary = PrefetchProgress(total: urls.count)
            for await ending in group {
                switch ending {
                case .finished(let progress):
                    summary = progress
                    group.cancelAll()
                case .signal(let number?):
                    // Cancelling the prefetch's task cancels the prefetch, which still
                    // ends with its counts.
                    interrupted = number
                    group.cancelAll()
                case .signal(nil):
                    break
                }
            }
            return summary
        }
        withExtendedLifetime(signals) {}
        report(nil)
        await manager.shutdown(gracePeriod: .zero)

        let seconds = Measurements.milliseconds(clock.now - start) / 1000
        Console.line(
            "\(summary.total) URLs: \(summary.finished) fetched, \(summary.skipped) cached, "
                + "\(summary.failed) failed, \(summary.cancelled) cancelled (\(String(format: "%.2f", seconds)) s)")
        Console.line("disk cache: \(cacheDirectory.diskCache().directoryURL.path)")
        if let interrupted {
            Console.note("interrupted by \(TerminationSignals.name(interrupted))")
            throw ExitCode(130)
        }
        if summary.failed > 0 { throw ExitCode.failure }
    }

    /// Shows the counts as they change on standard error: a bar on a terminal, else one
    /// line per tenth of the list (a log of a long prefetch should not get a line per
    /// URL). Called with nil once at the end, to clear the bar.
    private static func progressReporter(total: Int) -> @Sendable (PrefetchProgress?) -> Void {
        let bar = ProgressBar(label: "prefetch", total: total)
        let terminal = Console.standardErrorIsTerminal
        let lastTenth = TenthsShown()
        return { progress in
            guard let progress else {
                bar.erase()
                return
            }
            if terminal {
                bar.update(completed: progress.completed, failed: progress.failed)
                return
            }
            let tenth = total == 0 ? 10 : progress.completed * 10 / total
            let due = lastTenth.count.withLockedValue { last -> Bool in
                guard tenth > last else { return false }
                last = tenth
                return true
            }
            if due { Console.note("prefetch: \(progress)") }
        }
    }
}

/// The last tenth of the list reported, shared by the progress callbacks.
private final class TenthsShown: Sendable {
    let count = NIOLockedValueBox(0)
}
