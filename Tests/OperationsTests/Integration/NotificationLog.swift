import Foundation
import Synchronization
import WebImageCallbackRegistry
import WebImageTestSupport

@testable import WebImageConcurrency
@testable import WebImageCore

/// Collects the notifications of one center with their `userInfo`.
final class NotificationLog: Sendable {
    struct Note: Sendable {
        let name: Notification.Name
        let info: [String: String]
        let isTaskObject: Bool
        /// The body a finished download's notification carried.
        let body: Data?
    }

    private let notes = Locked<[Note]>([])
    private let arrived = AsyncStream<Void>.makeStream()
    /// A center of its own, so that no other test's notifications mix in.
    let center = NotificationCenter()

    init(_ names: [Notification.Name]) {
        for name in names {
            // The center keeps the observer for its own life, which is this log's.
            _ = center.addObserver(forName: name, object: nil, queue: nil) { [weak self] note in
                var info: [String: String] = [:]
                for (key, value) in note.userInfo ?? [:] { info["\(key)"] = "\(value)" }
                let body = note.userInfo?[WebImageNotificationKey.body.rawValue] as? Data
                self?.record(Note(name: note.name, info: info, isTaskObject: note.object is TransferTask, body: body))
            }
        }
    }

    private func record(_ note: Note) {
        notes.withLock { $0.append(note) }
        arrived.continuation.yield()
    }

    var all: [Note] { notes.withLock { $0 } }

    /// Waits until `count` notifications named `name` have arrived.
    func wait(for name: Notification.Name, count: Int = 1) async {
        await arrived.stream.wait { all.count(where: { $0.name == name }) >= count }
    }
}
