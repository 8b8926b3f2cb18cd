import Synchronization
import WebImageConcurrency

/// The load runs under way, by key: so that a load joining a run can find it, for its
/// token's pause and resume to count there (the registry knows the subscribers, not the
/// run they share). A run is forgotten when it ends or is abandoned.
final class ImageLoadRuns: Sendable {
    private let runs = Locked<[ImageLoadKey: ImageLoadTask]>([:])

    init() {}

    /// Records `run` as the key's run; returns it.
    func register(_ run: ImageLoadTask) -> ImageLoadTask {
        runs.withLock { $0[run.key] = run }
        return run
    }

    /// The key's run now, if any.
    subscript(key: ImageLoadKey) -> ImageLoadTask? {
        runs.withLock { $0[key] }
    }

    /// Forgets `run`, unless a newer run of its key took its place.
    func forget(_ run: ImageLoadTask) {
        runs.withLock { runs in
            if runs[run.key] === run { runs[run.key] = nil }
        }
    }
}
