import Foundation
import WebImage

/// Loads a list of requests through one manager, a bounded number at a time, and hands
/// the reports back in the order of the list.
///
/// The bound matters for the timings: were every load started at once, the downloader's
/// queue would hold most of them back, and each report's time would include the wait
/// behind the others rather than the load itself.
struct LoadRunner {
    let manager: ImageManager
    /// Loads under way at once (at least 1).
    let concurrency: Int

    /// Loads `requests`, calling `deliver` with each report in list order as soon as it
    /// and every report before it are in, so output streams while later loads still run.
    func run(_ requests: [ImageRequest], progress: ProgressBar? = nil, deliver: (LoadReport) -> Void) async {
        let manager = self.manager
        var waiting: [Int: LoadReport] = [:]
        var nextToDeliver = 0
        var completed = 0
        var failed = 0
        await withTaskGroup(of: (Int, LoadReport).self) { group in
            var nextToStart = 0
            func startNext() {
                guard nextToStart < requests.count else { return }
                let index = nextToStart
                let request = requests[index]
                nextToStart += 1
                group.addTask { (index, await Self.load(request, with: manager)) }
            }
            for _ in 0..<max(1, concurrency) { startNext() }
            for await (index, report) in group {
                completed += 1
                if report.failed { failed += 1 }
                progress?.update(completed: completed, failed: failed)
                waiting[index] = report
                while let ready = waiting.removeValue(forKey: nextToDeliver) {
                    deliver(ready)
                    nextToDeliver += 1
                }
                startNext()
            }
        }
    }

    /// One load, timed from the moment it starts to the moment its result is delivered.
    ///
    /// The end is read in the manager's completion handler, not after an `await`: the
    /// manager decodes on the shared thread pool, so on a small machine the awaiting task
    /// may resume well after its own load ended, while other loads decode, and every
    /// load would seem to take as long as the slowest.
    static func load(_ request: ImageRequest, with manager: ImageManager) async -> LoadReport {
        let clock = ContinuousClock()
        let start = clock.now
        let (result, end) = await withCheckedContinuation { continuation in
            manager.loadImage(with: request, delivery: .immediate) { event in
                if case .completed(let result) = event { continuation.resume(returning: (result, clock.now)) }
            }
        }
        return LoadReport(url: request.url, result: result, milliseconds: Measurements.milliseconds(end - start))
    }
}
