import Foundation
import Synchronization
import Testing
import WebImage
import WebImageTestSupport

@testable import WebImageConcurrency

/// Writes down a manager's load events as words, on a queue of its own.
final class LoadEventLog: ImageLoadEventMonitor {
    let queue = DispatchQueue(label: "load-monitor-test")
    var delivery: CallbackDelivery { .queue(queue) }
    private let words = Locked<[String]>([])

    /// Every word so far, once the queue has run what it was given.
    var heard: [String] {
        queue.sync {}
        return words.withLock { $0 }
    }

    private func say(_ load: ImageLoadInfo, _ word: String) {
        words.withLock { $0.append("\(load.request.url.lastPathComponent) \(word)") }
    }

    func loadDidStart(_ load: ImageLoadInfo) { say(load, "started") }
    func load(_ load: ImageLoadInfo, didAnswerFrom source: ImageSource) { say(load, "answered from \(source)") }
    func load(_ load: ImageLoadInfo, didDecode size: PixelSize, frames: Int, duration: Duration) {
        say(load, "decoded \(size.width)x\(size.height) in \(frames) frame(s)")
    }
    func load(_ load: ImageLoadInfo, didTransformTo size: PixelSize, duration: Duration) {
        say(load, "transformed to \(size.width)x\(size.height)")
    }
    func load(_ load: ImageLoadInfo, didStoreIn cache: ImageCacheType) {
        say(load, cache == .memory ? "stored in memory" : "stored on disk")
    }
    func load(_ load: ImageLoadInfo, didStoreVariant variant: ImageVariantKey, bytes: Int, in cache: ImageCacheType) {
        say(load, "stored a \(bytes > 0 ? "non-empty" : "empty") variant " + (cache == .disk ? "on disk" : "in the tier"))
    }
    func load(_ load: ImageLoadInfo, didFail error: ImageLoadError) { say(load, "failed") }
    func loadDidCancel(_ load: ImageLoadInfo) { say(load, "cancelled") }
}

@Suite("Manager: load events for monitors", .timeLimit(.minutes(1)))
struct LoadMonitorTests {
    @Test("a network load: started, decoded, stored in memory and on disk, answered from the network; then a memory hit")
    func networkThenMemory() async throws {
        let fixture = ScriptedFixture.serving()
        let log = LoadEventLog()
        let manager = fixture.manager { $0.eventMonitors = [log] }
        let request = ImageRequest(url: fixture.url("photo.jpg"), options: [.waitForCacheStore])
        _ = try await manager.response(for: request)
        _ = try await manager.response(for: request)
        #expect(
            log.heard == [
                "photo.jpg started", "photo.jpg decoded 320x240 in 1 frame(s)", "photo.jpg stored in memory",
                "photo.jpg stored on disk", "photo.jpg answered from network",
                "photo.jpg started", "photo.jpg answered from memory",
            ])
    }

    @Test("a transformed load reports the transform's result; a disk hit in a new manager is answered from disk")
    func transformAndDisk() async throws {
        let fixture = ScriptedFixture.serving()
        let request = ImageRequest(
            url: fixture.url("photo.jpg"), options: [.waitForCacheStore],
            context: .init(transformers: [ResizeTransformer(width: 32, height: 32)]))
        _ = try await fixture.manager().response(for: request)
        let log = LoadEventLog()
        let manager = fixture.manager()
        manager.addEventMonitor(log)
        _ = try await manager.response(for: request)
        #expect(
            log.heard == [
                "photo.jpg started", "photo.jpg decoded 320x240 in 1 frame(s)", "photo.jpg transformed to 32x24",
                "photo.jpg stored in memory", "photo.jpg answered from disk",
            ])
    }

    @Test("a failed load and a cancelled one end as such")
    func failedAndCancelled() async throws {
        let fixture = ScriptedFixture()
        let log = LoadEventLog()
        let manager = fixture.manager { $0.eventMonitors = [log] }
        async let missing = manager.response(for: ImageRequest(url: fixture.url("missing.png")))
        try await fixture.downloader.download(at: 0).reply(.status(404))
        _ = try? await missing

        let ended = AsyncStream<Void>.makeStream()
        let token = manager.loadImage(with: ImageRequest(url: fixture.url("slow.png"))) { event in
            if event.isCompletion { ended.continuation.yield() }
        }
        _ = try await fixture.downloader.download(at: 1)
        token.cancel()
        for await _ in ended.stream { break }
        #expect(log.heard == ["missing.png started", "missing.png failed", "slow.png started", "slow.png cancelled"])
    }

    @Test("a monitor added mid-run hears only later events; once removed, none")
    func addedAndRemoved() async throws {
        let fixture = ScriptedFixture.serving()
        let manager = fixture.manager()
        _ = try await manager.response(for: ImageRequest(url: fixture.url("badge.png")))
        let log = LoadEventLog()
        let registration = manager.addEventMonitor(log)
        _ = try await manager.response(for: ImageRequest(url: fixture.url("photo.jpg")))
        // Everything queued for the monitor runs before it is removed: removing it drops
        // what is still queued, by design (under TSan the answer was seen still queued).
        _ = log.heard
        registration.remove()
        _ = try await manager.response(for: ImageRequest(url: fixture.url("animation.gif")))
        _ = try await manager.response(for: ImageRequest(url: fixture.url("badge.png")))
        #expect(log.heard.allSatisfy { $0.hasPrefix("photo.jpg ") })
        #expect(log.heard.first == "photo.jpg started")
        #expect(log.heard.last == "photo.jpg answered from network")
    }

    @Test("loads sharing one run each start and end; the run's decode is reported once")
    func coalescedLoads() async throws {
        let fixture = ScriptedFixture()
        let log = LoadEventLog()
        let manager = fixture.manager { $0.eventMonitors = [log] }
        let request = ImageRequest(url: fixture.url("badge.png"))
        let ended = AsyncStream<Void>.makeStream()
        for _ in 0..<2 {
            manager.loadImage(with: request) { event in
                if event.isCompletion { ended.continuation.yield() }
            }
        }
        try await fixture.downloader.download(at: 0).reply(.body(Pictures.badge))
        var completions = 0
        for await _ in ended.stream {
            completions += 1
            if completions == 2 { break }
        }
        let heard = log.heard
        #expect(heard.filter { $0 == "badge.png started" }.count == 2)
        #expect(heard.filter { $0 == "badge.png answered from network" }.count == 2)
        #expect(heard.filter { $0.hasPrefix("badge.png decoded") }.count == 1)
    }
}
