import Synchronization
import WebImageConcurrency
import WebImageCore

/// What the monitor's thread and its callers share: the status, the links last read (for
/// per-host answers), and the observers. Statuses are posted to mailboxes outside the lock.
final class MonitorState: Sendable {
    private struct Fields {
        var status: NetworkReachabilityStatus = .unknown
        var links: [Int32: LinkMessage] = [:]
        var observers: [UInt64: StatusMailbox] = [:]
        var hosts: [UInt64: HostWatch] = [:]
        /// Run once at stop: they end the async sequences.
        var finishers: [UInt64: @Sendable () -> Void] = [:]
        var nextID: UInt64 = 0
        var stopped = false
    }

    private let fields = Locked(Fields())

    var status: NetworkReachabilityStatus { fields.withLock { $0.status } }
    var links: [Int32: LinkMessage] { fields.withLock { $0.links } }
    var isStopped: Bool { fields.withLock { $0.stopped } }
    var hosts: [HostWatch] { fields.withLock { Array($0.hosts.values) } }

    /// Records what the thread read and posts the status to every observer (each mailbox
    /// drops a repeat).
    func update(status: NetworkReachabilityStatus, links: [Int32: LinkMessage]?) {
        let draining = fields.withLock { fields -> [StatusMailbox] in
            fields.status = status
            if let links { fields.links = links }
            // Queued under this lock, so no observer can get an older status after a newer one.
            return fields.observers.values.filter { $0.enqueue(status) }
        }
        for observer in draining { observer.drain() }
    }

    /// Adds an observer and posts the current status to it first. After stop, only the
    /// current status is posted.
    func add(_ mailbox: StatusMailbox, finisher: (@Sendable () -> Void)? = nil) -> UInt64 {
        let (id, drains, stopped) = fields.withLock { fields in
            fields.nextID += 1
            if !fields.stopped {
                fields.observers[fields.nextID] = mailbox
                if let finisher { fields.finishers[fields.nextID] = finisher }
            }
            return (fields.nextID, mailbox.enqueue(fields.status), fields.stopped)
        }
        if drains { mailbox.drain() }
        if stopped { finisher?() }
        return id
    }

    func add(_ host: HostWatch) -> UInt64? {
        fields.withLock { fields in
            guard !fields.stopped else { return nil }
            fields.nextID += 1
            fields.hosts[fields.nextID] = host
            return fields.nextID
        }
    }

    func remove(_ id: UInt64) {
        let removed = fields.withLock { fields in
            (fields.observers.removeValue(forKey: id), fields.hosts.removeValue(forKey: id), fields.finishers.removeValue(forKey: id))
        }
        removed.0?.cancel()
        removed.1?.mailbox.cancel()
        removed.2?()
    }

    /// Marks the monitor stopped, forgets every observer and returns what ends them.
    func stop() -> [@Sendable () -> Void] {
        let (observers, hosts, finishers) = fields.withLock { fields in
            fields.stopped = true
            defer {
                fields.observers = [:]
                fields.hosts = [:]
                fields.finishers = [:]
            }
            return (Array(fields.observers.values), Array(fields.hosts.values), Array(fields.finishers.values))
        }
        for observer in observers { observer.cancel() }
        for host in hosts { host.mailbox.cancel() }
        return finishers
    }
}
