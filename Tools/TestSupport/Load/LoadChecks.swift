import Foundation
import WebImage

/// The checks on a finished run, made from the ledger and the pipeline's state.
///
/// - every load completed exactly once (no duplicate, none missing), and nothing
///   reached a load after its completion;
/// - a successful load delivered the image of its URL (its size and frame count);
/// - a load ended `.cancelled` only if it was cancelled; a cancelled load may still
///   succeed (the cancel came after the result); no load failed for another reason;
/// - the registry holds no key and the downloader no download afterwards;
/// - the peak resident memory stayed under the bound.
struct LoadChecks: Sendable {
    var loads = 0
    var completed = 0
    var duplicates = 0
    var missing = 0
    var lateEvents = 0
    var succeeded = 0
    /// Cancelled loads that still got their image (the cancel came too late).
    var succeededDespiteCancel = 0
    var cancelled = 0
    /// `.cancelled` for a load nobody cancelled.
    var unexpectedCancels = 0
    var failed = 0
    var wrong = 0
    var sources: [ImageSource: Int] = [:]
    var failures: [String] = []

    init(plan: LoadPlan, ledger: CompletionLedger, images: ServedImages) {
        loads = plan.loads.count
        for (load, entry) in zip(plan.loads, ledger.entries) {
            if entry.completions > 0 { completed += 1 }
            if entry.completions == 0 { missing += 1 }
            duplicates += max(0, entry.completions - 1)
            lateEvents += entry.lateEvents
            let expected = images.images[plan.imageOfURL[load.url]].expected
            switch entry.first {
            case nil:
                break
            case .image(let width, let height, let frames, let source):
                guard width == expected.width, height == expected.height, frames == expected.frames else {
                    wrong += 1
                    note("load \(load.id): \(width)x\(height) \(frames) frames, expected \(expected)")
                    continue
                }
                succeeded += 1
                if load.cancelAfter != nil { succeededDespiteCancel += 1 }
                if let source { sources[source, default: 0] += 1 }
            case .noImage:
                wrong += 1
                note("load \(load.id): a success without an image")
            case .failure(let error) where error.isCancelled:
                cancelled += 1
                if load.cancelAfter == nil {
                    unexpectedCancels += 1
                    note("load \(load.id): cancelled though nobody cancelled it")
                }
            case .failure(let error):
                failed += 1
                note("load \(load.id): \(error)")
            }
        }
    }

    private mutating func note(_ failure: String) {
        // A few examples are enough to start from; the counts say how many.
        if failures.count < 10 { failures.append(failure) }
    }

    /// Whether every per-load check held.
    var loadsHold: Bool {
        completed == loads && duplicates == 0 && missing == 0 && lateEvents == 0 && wrong == 0
            && unexpectedCancels == 0 && failed == 0
    }
}
