import Synchronization
import WebImageConcurrency
import WebImageCore

/// Waits for a set of loads to finish (AFNetworking's `completionGroup`): a page's
/// images, a batch a server renders, every load a manager started.
///
/// A load joins when it starts (``ImageManager/loadImage(with:group:delivery:handler:)``)
/// and leaves once its handler has returned from its completion, whatever the result; a
/// cancelled load leaves too. ``wait()`` and ``notify(delivery:_:)`` answer when no load
/// of the group is pending, as a dispatch group does: loads that join before the last
/// one left are waited for as well. Every manager keeps one of every load started
/// through it (``ImageManager/loads``). Safe from any thread.
///
/// ```swift
/// let group = ImageLoadGroup()
/// for url in urls {
///     manager.loadImage(with: ImageRequest(url: url), group: group) { event in
///         if case .completed(let result) = event { show(result) }
///     }
/// }
/// await group.wait()
/// ```
///
/// The async API needs none: a task group awaiting `image(for:)` calls does the same.
public final class ImageLoadGroup: Sendable {
    private struct State {
        var pending = 0
        var nextWaiter = 0
        var waiters: [Int: Waiter] = [:]
    }

    private enum Waiter {
        case continuation(CheckedContinuation<Void, Never>)
        case handler(CallbackDelivery, @Sendable () -> Void)

        func resume() {
            switch self {
            case .continuation(let continuation): continuation.resume()
            case .handler(let delivery, let handler): delivery.run(handler)
            }
        }
    }

    private let state = Locked(State())

    public init() {}

    /// The loads that joined and have not yet left.
    public var pendingCount: Int { state.withLock { $0.pending } }

    /// Returns once no load of the group is pending (at once when none is), or once the
    /// calling task is cancelled.
    public func wait() async {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    guard state.pending > 0, !Task.isCancelled else { return true }
                    state.waiters[id] = .continuation(continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }

    /// Runs `handler` on `delivery` once no load of the group is pending: at once (on
    /// `delivery`) when none is.
    public func notify(delivery: CallbackDelivery = .immediate, _ handler: @escaping @Sendable () -> Void) {
        let waiter = Waiter.handler(delivery, handler)
        let now = state.withLock { state -> Bool in
            guard state.pending > 0 else { return true }
            state.waiters[state.nextWaiter] = waiter
            state.nextWaiter += 1
            return false
        }
        if now { waiter.resume() }
    }

    /// A load joined.
    func enter() {
        state.withLock { $0.pending += 1 }
    }

    /// A load left: the waiters go once none is pending.
    func leave() {
        let waiters = state.withLock { state -> [Waiter] in
            precondition(state.pending > 0, "a load left a group it had not joined")
            state.pending -= 1
            guard state.pending == 0 else { return [] }
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// `handler`, which leaves the group once it has handled the completion.
    func leaving(after handler: @escaping @Sendable (ImageLoadEvent) -> Void) -> @Sendable (ImageLoadEvent) -> Void {
        { [self] event in
            handler(event)
            if event.isCompletion { leave() }
        }
    }
}
