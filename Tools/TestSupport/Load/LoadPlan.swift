import Foundation
import WebImage
import WebImageFixtures

/// Every load of the run decided up front from the seed, so a failing run can be
/// repeated exactly (the timing of cancels against completions still varies).
struct LoadPlan: Sendable {
    /// How one load is started, and so which of the manager's paths it takes.
    enum API: Sendable, Hashable, CaseIterable {
        /// `loadImage(with:delivery: .immediate)`: the handler runs on the producing
        /// thread, so a memory hit completes before `loadImage` returns.
        case callbackImmediate
        /// `loadImage(with:delivery: .queue(q))`: through the subscriber's mailbox.
        case callbackQueue
        /// `image(for:)` in a `Task`, cancelled with `task.cancel()`.
        case async
    }

    struct Load: Sendable {
        let id: Int
        /// Index into the run's URLs.
        let url: Int
        let api: API
        /// Asks for partial images (`.progressiveLoad`): a separate run and download key
        /// beside the plain loads of the same URL, and events before the completion.
        let progressive: Bool
        /// When to cancel, counted from the start; `nil` for a load left to finish.
        let cancelAfter: Duration?
    }

    let loads: [Load]
    /// URL index -> served image index.
    let imageOfURL: [Int]

    /// Loads spread over `urlCount` URLs: a quarter of the picks come from a small hot
    /// set (so many loads of one URL overlap and share a download), the rest uniformly
    /// (so most URLs are fetched, then found in memory or on disk later).
    init(options: LoadOptions, imageCount: Int) {
        var random = SeededGenerator(seed: options.seed)
        imageOfURL = (0..<options.urls).map { $0 % imageCount }
        let hot = max(1, min(16, options.urls / 50))
        loads = (0..<options.loads).map { id in
            let url =
                Double.random(in: 0..<1, using: &random) < 0.25
                ? Int.random(in: 0..<hot, using: &random)
                : Int.random(in: 0..<options.urls, using: &random)
            let api = API.allCases.randomElement(using: &random)!
            let progressive = Double.random(in: 0..<1, using: &random) < 0.15
            var cancelAfter: Duration?
            if Double.random(in: 0..<1, using: &random) < options.cancelShare {
                cancelAfter = Self.cancelDelay(using: &random)
            }
            return Load(id: id, url: url, api: api, progressive: progressive, cancelAfter: cancelAfter)
        }
    }

    /// A short delay, spread so cancels land at every stage: before the load has begun
    /// (zero), while it waits in the queue or reads the disk (under a millisecond), while
    /// the bytes arrive or decode (a few milliseconds), and after it has finished.
    private static func cancelDelay(using random: inout SeededGenerator) -> Duration {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: .zero
        case 1: .microseconds(Int.random(in: 1...1_000, using: &random))
        case 2: .microseconds(Int.random(in: 1_000...10_000, using: &random))
        default: .microseconds(Int.random(in: 10_000...40_000, using: &random))
        }
    }
}
