import Dispatch
import Foundation
import Synchronization
import Testing
import WebImageCallbackRegistry

@testable import WebImageConcurrency
@testable import WebImageCore

@Suite("CompositeDownloadEventMonitor")
struct CompositeDownloadEventMonitorTests {
    final class Recorder: DownloadEventMonitor {
        let queue: DispatchQueue
        let marker = DispatchSpecificKey<String>()
        let name: String
        let events = Locked<[String]>([])
        let onQueue = Locked<[Bool]>([])

        init(name: String) {
            self.name = name
            queue = DispatchQueue(label: name)
            queue.setSpecific(key: marker, value: name)
        }

        private func record(_ event: String) {
            onQueue.withLock { $0.append(DispatchQueue.getSpecific(key: marker) == name) }
            events.withLock { $0.append(event) }
        }

        func downloadWasQueued(_ key: DownloadKey, priority: DownloadPriority) { record("queued \(priority)") }
        func downloadDidStop(_ key: DownloadKey) { record("stopped") }
        func download(_ key: DownloadKey, didFinish result: Result<DownloadResult, DownloadError>, subscribers: Int) {
            record("finished \(subscribers)")
        }
    }

    /// Implements nothing: every method has a default.
    struct Silent: DownloadEventMonitor {}

    @Test("every monitor hears every event, in order, on its own queue")
    func fansOut() async throws {
        let a = Recorder(name: "a")
        let b = Recorder(name: "b")
        let composite = CompositeDownloadEventMonitor([a, Silent(), b])
        let key = DownloadKey(url: URL(string: "https://example.com/a.png")!)
        composite.downloadWasQueued(key, priority: .high)
        composite.downloadDidStop(key)
        composite.download(key, didFinish: .failure(.cancelled), subscribers: 2)
        for recorder in [a, b] { recorder.queue.sync {} }
        for recorder in [a, b] {
            #expect(recorder.events.withLock { $0 } == ["queued high", "stopped", "finished 2"])
            #expect(recorder.onQueue.withLock { $0 } == [true, true, true])
        }
    }

    @Test("a blocked monitor holds up only itself")
    func blockedMonitor() async {
        let gate = DispatchSemaphore(value: 0)
        let stuck = Recorder(name: "stuck")
        let free = Recorder(name: "free")
        stuck.queue.async { gate.wait() }
        let composite = CompositeDownloadEventMonitor([stuck, free])
        composite.downloadDidStop(DownloadKey(url: URL(string: "https://example.com/")!))
        free.queue.sync {}
        #expect(free.events.withLock { $0 } == ["stopped"])
        #expect(stuck.events.withLock { $0 }.isEmpty)
        gate.signal()
        stuck.queue.sync {}
        #expect(stuck.events.withLock { $0 } == ["stopped"])
    }
}
