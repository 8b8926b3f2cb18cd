import Foundation
import Testing
import WebImage
import WebImageTestServer
import WebImageTestSupport

@Suite("Manager: removing a cached image")
struct RemoveCachedTests {
    @Test("removeCached drops the decoded image from memory and the bytes from disk: the next load goes to the network")
    func removesBothCopies() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager { $0.manager.cacheStoreFailureHandler = nil }
            let request = ImageRequest(url: fixture.url("photo.jpg"), options: [.waitForCacheStore])
            let other = ImageRequest(url: fixture.url("badge.png"), options: [.waitForCacheStore])
            let first = try await manager.response(for: request)
            let second = try await manager.response(for: other)
            #expect(first.source == .network && second.source == .network)

            manager.removeCached(request)
            #expect(manager.cachedImage(for: request) == nil)
            #expect(manager.cachedImage(for: other) != nil, "only the request's own entries go")

            let again = try await manager.response(for: request)
            #expect(again.source == .network)
            #expect(fixture.hits("photo.jpg") == 2)
            let otherFromDisk = try await fixture.manager().response(for: other)
            #expect(otherFromDisk.source == .disk)
        }
    }
}
