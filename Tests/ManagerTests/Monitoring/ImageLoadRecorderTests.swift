import Foundation
import Synchronization
import Testing
import WebImage
import WebImageTestSupport

@testable import WebImageConcurrency

/// A value a caller binds around its loads, as a tracing context is bound.
private enum CallerTag {
    @TaskLocal static var current: String?
}

@Suite("Manager: one record per load", .timeLimit(.minutes(1)))
struct ImageLoadRecorderTests {
    @Test("what the start context reads where each load starts arrives in that load's record, memory hits included")
    func startContextTravelsInTheRecord() async throws {
        let fixture = ScriptedFixture.serving()
        let records = Locked<[ImageLoadRecord]>([])
        let recorder = ImageLoadRecorder(
            startContext: { _ in CallerTag.current },
            finished: { record in records.withLock { $0.append(record) } })
        let manager = fixture.manager { $0.eventMonitors = [recorder] }
        let request = ImageRequest(url: fixture.url("photo.jpg"))
        _ = try await CallerTag.$current.withValue("first") { try await manager.response(for: request) }
        _ = try await CallerTag.$current.withValue("second") { try await manager.response(for: request) }
        _ = try await manager.response(for: request)
        await recorder.flush()

        let seen = records.withLock { $0 }.sorted { $0.load.id < $1.load.id }
        #expect(seen.map(\.source) == [.network, .memory, .memory])
        #expect(seen.map { $0.startContext as? String } == ["first", "second", nil])
        #expect(recorder.openLoads == 0)
    }

    @Test("a load that started before the recorder was added ends with a record and no start context")
    func loadStartedBeforeTheRecorder() async throws {
        let fixture = ScriptedFixture()
        let manager = fixture.manager()
        let ended = AsyncStream<Void>.makeStream()
        let token = CallerTag.$current.withValue("caller") {
            manager.loadImage(with: ImageRequest(url: fixture.url("slow.png"))) { event in
                if event.isCompletion { ended.continuation.yield() }
            }
        }
        _ = try await fixture.downloader.download(at: 0)

        let records = Locked<[ImageLoadRecord]>([])
        let recorder = ImageLoadRecorder(
            startContext: { _ in CallerTag.current },
            finished: { record in records.withLock { $0.append(record) } })
        manager.addEventMonitor(recorder)
        token.cancel()
        for await _ in ended.stream { break }
        await recorder.flush()

        let seen = records.withLock { $0 }
        #expect(seen.count == 1)
        #expect(seen.first?.startContext == nil)
        #expect(seen.first.map { if case .cancelled = $0.outcome { true } else { false } } == true)
    }
}
