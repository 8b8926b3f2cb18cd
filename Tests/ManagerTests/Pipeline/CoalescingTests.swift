import Foundation
import Synchronization
import Testing
import WebImage
@testable import WebImageCore
import WebImageTestSupport
@testable import WebImageConcurrency

@Suite("Manager: sharing work between loads")
struct CoalescingTests {
    @Test("twenty loads of one URL at once: one request, one decode, twenty images")
    func oneTransfer() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let url = fixture.url("photo.jpg", query: "chunk=4000&interval_ms=20")
            let sizes = try await withThrowingTaskGroup(of: PixelSize.self) { group in
                for _ in 0..<20 { group.addTask { try await manager.image(for: url).size } }
                return try await group.reduce(into: [PixelSize]()) { $0.append($1) }
            }
            #expect(sizes.count == 20)
            #expect(Set(sizes) == [PixelSize(width: 320, height: 240)])
            #expect(fixture.hits("photo.jpg") == 1)
        }
    }

    @Test("a thumbnail and the full image of one URL share the download and decode apart")
    func variantsShareTheDownload() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            // Several hundred milliseconds of drip, so the second load joins the download
            // even when a sanitizer and a busy machine start it late.
            let url = fixture.url("photo.jpg", query: "chunk=1000&interval_ms=40")
            async let full = manager.image(for: ImageRequest(url: url))
            async let thumbnail = manager.image(for: ImageRequest(url: url, context: .init(thumbnailPixelSize: 80)))
            let (big, small) = try await (full, thumbnail)
            #expect(big.size == PixelSize(width: 320, height: 240))
            #expect(small.size == PixelSize(width: 80, height: 60))
            #expect(fixture.hits("photo.jpg") == 1)
            #expect(manager.cachedImage(for: ImageRequest(url: url, context: .init(thumbnailPixelSize: 80)))?.size == small.size)
        }
    }

    @Test("cancelling one of three loads of a URL cancels that one only")
    func cancelOne() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            // About a second of drip, so the cancel lands mid-transfer.
            let request = ImageRequest(url: fixture.url("photo.jpg", query: "chunk=1000&interval_ms=50"))
            let logs = (0..<3).map { _ in LoadLog() }
            let tokens = logs.map { manager.loadImage(with: request, handler: $0.handler) }
            tokens[1].cancel()
            #expect(await logs[1].result().error?.isCancelled == true)
            for index in [0, 2] {
                let response = try await logs[index].result().get()
                #expect(response.source == .network)
                #expect(response.image?.size == PixelSize(width: 320, height: 240))
            }
            try await Task.sleep(for: .milliseconds(100))
            #expect(logs.map(\.completions) == [1, 1, 1], "exactly one completion each, nothing after it")
            #expect(fixture.hits("photo.jpg") == 1)
        }
    }

    @Test("cancelling every load stops the run: nothing is cached, and a new load starts afresh")
    func cancelAll() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let request = ImageRequest(url: fixture.url("photo.jpg", query: "chunk=4000&interval_ms=100"))
            let log = LoadLog()
            let token = Locked<ImageLoadToken?>(nil)
            // Cancelled from its first progress event: mid-body, whatever the test pool does.
            token.withLock {
                $0 = manager.loadImage(with: request) { event in
                    log.handler(event)
                    if case .progress = event { token.withLock { $0 }?.cancel() }
                }
            }
            #expect(await log.result().error?.isCancelled == true)
            #expect(manager.cachedImage(for: request) == nil)

            let again = try await manager.response(for: ImageRequest(url: fixture.url("photo.jpg", query: "chunk=4000&interval_ms=100")))
            #expect(again.source == .network)
            #expect(again.image != nil)
        }
    }

    @Test("cancelling the task of an async load cancels the load")
    func taskCancellation() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let request = ImageRequest(url: fixture.url("photo.jpg", query: "chunk=100&interval_ms=200"))
            let task = Task { await outcome { () async throws(ImageLoadError) in try await manager.response(for: request) } }
            try await Task.sleep(for: .milliseconds(200))
            task.cancel()
            #expect(await task.value.error?.isCancelled == true)
        }
    }
}
