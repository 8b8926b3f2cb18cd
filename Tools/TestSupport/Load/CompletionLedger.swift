import NIOConcurrencyHelpers
import WebImage

/// What every load delivered, counted per load id: the record the checks are made on.
///
/// A completion is counted where the manager delivers it (the handler, or the return of
/// `image(for:)`), before anything else looks at it, so a second completion of one load
/// or an event after its completion cannot go unseen.
final class CompletionLedger: Sendable {
    /// How one completion ended.
    enum Outcome: Sendable {
        case image(width: Int, height: Int, frames: Int, source: ImageSource?)
        /// A success without a decoded image, which a decoding load must never give.
        case noImage
        case failure(ImageLoadError)
    }

    struct Entry: Sendable {
        var completions = 0
        var first: Outcome?
        /// Progress or partial images delivered after the completion.
        var lateEvents = 0
    }

    private struct State {
        var entries: [Entry]
        /// Loads started and not yet completed, so a watchdog can wake their waiters.
        var pending: [Int: CompletionSignal] = [:]
        var gaveUp = false
    }

    private let state: NIOLockedValueBox<State>

    init(count: Int) {
        state = NIOLockedValueBox(State(entries: Array(repeating: Entry(), count: count)))
    }

    /// Notes that load `id` started; `signal` fires on its first completion.
    func started(_ id: Int, signal: CompletionSignal) {
        state.withLockedValue { $0.pending[id] = signal }
    }

    /// Records one event of load `id`'s callback.
    func record(_ id: Int, _ event: ImageLoadEvent) {
        switch event {
        case .completed(let result):
            complete(id, result.map { response in response.image.map { Outcome.from($0, source: response.source) } ?? .noImage })
        default:
            state.withLockedValue { state in
                if state.entries[id].completions > 0 { state.entries[id].lateEvents += 1 }
            }
        }
    }

    /// Records a completion of load `id`; the first one wakes its waiter.
    func complete(_ id: Int, _ outcome: Outcome) {
        let signal = state.withLockedValue { state -> CompletionSignal? in
            state.entries[id].completions += 1
            guard state.entries[id].completions == 1 else { return nil }
            state.entries[id].first = outcome
            return state.pending.removeValue(forKey: id)
        }
        signal?.fire()
    }

    func complete(_ id: Int, _ result: Result<Outcome, ImageLoadError>) {
        switch result {
        case .success(let outcome): complete(id, outcome)
        case .failure(let error): complete(id, .failure(error))
        }
    }

    /// Wakes every waiter whose load has not completed: they count as missing. Returns how
    /// many there were.
    @discardableResult
    func giveUp() -> Int {
        let signals = state.withLockedValue { state -> [CompletionSignal] in
            state.gaveUp = true
            defer { state.pending.removeAll() }
            return Array(state.pending.values)
        }
        for signal in signals { signal.fire() }
        return signals.count
    }

    var entries: [Entry] { state.withLockedValue { $0.entries } }
    var gaveUp: Bool { state.withLockedValue { $0.gaveUp } }
}

extension CompletionLedger.Outcome {
    static func from(_ image: DecodedImage, source: ImageSource?) -> Self {
        .image(width: image.width, height: image.height, frames: image.frames.count, source: source)
    }
}
