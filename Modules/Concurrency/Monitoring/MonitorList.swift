import Foundation
import Synchronization
import WebImageCore

/// The event monitors of one transport, downloader or manager, which may be added and
/// removed while it runs.
///
/// `emit(_:)` hands an event to every monitor present at that moment, each where its
/// registration said (`CallbackDelivery`). A monitor added sees only the events emitted
/// after `add(_:delivery:)` returned; once its registration is removed, no call to it
/// starts. With no monitor, emitting costs one atomic load, so the hot paths (a call per
/// body chunk in the transport) pay nothing for the feature when it is not used.
package final class MonitorList<Monitor: Sendable>: Sendable {
    private struct Entry: Sendable {
        let monitor: Monitor
        let delivery: CallbackDelivery
        let gate: MonitorGate
    }

    private let entries = Locked<[Entry]>([])
    private let count = Atomic<Int>(0)

    package init() {}

    /// Whether no monitor is registered: callers skip building an event's values.
    package var isEmpty: Bool { count.load(ordering: .acquiring) == 0 }

    /// Adds `monitor`; its events run on `delivery`. Keep the registration to remove it.
    @discardableResult
    package func add(_ monitor: Monitor, delivery: CallbackDelivery) -> EventMonitorRegistration {
        let gate = MonitorGate()
        entries.withLock { entries in
            entries.append(Entry(monitor: monitor, delivery: delivery, gate: gate))
            count.store(entries.count, ordering: .releasing)
        }
        return EventMonitorRegistration { [weak self] in self?.remove(gate) }
    }

    /// Hands `event` to every monitor registered now.
    package func emit(_ event: @escaping @Sendable (Monitor) -> Void) {
        guard !isEmpty else { return }
        for entry in entries.withLock({ $0 }) {
            let (monitor, gate) = (entry.monitor, entry.gate)
            entry.delivery.run { gate.pass { event(monitor) } }
        }
    }

    private func remove(_ gate: MonitorGate) {
        entries.withLock { entries in
            entries.removeAll { $0.gate === gate }
            count.store(entries.count, ordering: .releasing)
        }
        gate.close()
    }
}

/// Lets calls to one monitor through until it is removed. A call holds the gate, so
/// closing it waits for a call under way on another thread and no call starts after;
/// the lock is recursive, so a monitor may remove itself from inside its own callback.
final class MonitorGate: Sendable {
    private let lock = NSRecursiveLock()
    nonisolated(unsafe) private var isOpen = true

    func pass(_ call: () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        if isOpen { call() }
    }

    func close() {
        lock.lock()
        isOpen = false
        lock.unlock()
    }
}
