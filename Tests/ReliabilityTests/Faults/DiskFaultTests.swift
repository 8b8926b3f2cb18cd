import Foundation
import Testing
import WebImage
import WebImageFixtures
import WebImageTestServer
import WebImageTestSupport

/// The disk cache failing under the pipeline: loads still succeed, the failure is
/// reported, and what the cache holds stays right.
@Suite("Faults: the disk cache cannot write")
struct DiskFaultTests {
    @Test(
        "on a full disk loads still deliver, each failed write is reported as diskFull, and stored entries still serve",
        .enabled("needs root and a mountable tmpfs") { SmallFileSystem.isAvailable }
    )
    func fullDisk() async throws {
        // Distinct bodies, and a file system with room for about three of them.
        let pictures = try (0..<8).map { index in
            try JPEGFixtureEncoder(quality: 95).encode(SyntheticImage.photo(width: 150 + index, height: 120, seed: UInt64(index)))
        }
        let fileSystem = try SmallFileSystem(size: "\(pictures[0].count * 3 / 1024 + 8)k")
        defer { withExtendedLifetime(fileSystem) {} }
        let root = try TemporaryDirectory()
        for (index, data) in pictures.enumerated() { try data.write(to: root.url.appendingPathComponent("\(index).jpg")) }
        try await LoopbackServer.withServer(.init(documentRoot: root.url)) { server in
            let pipeline = InspectablePipeline(cacheDirectory: fileSystem.url)
            for index in pictures.indices {
                let image = try await pipeline.manager.image(
                    for: ImageRequest(url: server.url("/files/\(index).jpg"), options: .waitForCacheStore))
                #expect(image.width == 150 + index, "every load delivers, stored or not")
            }
            let failures = pipeline.storeFailures.all
            #expect(!failures.isEmpty, "the disk filled up")
            #expect(failures.allSatisfy { $0.code == .diskFull }, "\(failures)")
            let disk = try #require(pipeline.disk)
            #expect(disk.count == pictures.count - failures.count)

            // A new manager (empty memory) on the same directory: what was stored comes
            // from disk byte for byte, the rest from the network again.
            let again = InspectablePipeline(cacheDirectory: fileSystem.url)
            server.resetRecords()
            var fromDisk = 0
            for index in pictures.indices {
                let response = try await again.manager.response(for: ImageRequest(url: server.url("/files/\(index).jpg")))
                #expect(response.image?.width == 150 + index)
                if response.source == .disk { fromDisk += 1 }
            }
            #expect(fromDisk == disk.count)
            #expect(server.requests.count == pictures.count - fromDisk)
        }
    }

    @Test("an unwritable cache directory: loads deliver, the failure is reported, nothing is stored")
    func unwritableDirectory() async throws {
        // A regular file where the cache directory should be: no user, root included,
        // can create entries under it.
        let scratch = try TemporaryDirectory()
        let blocked = scratch.url.appendingPathComponent("not-a-directory")
        try Data("file".utf8).write(to: blocked)
        try await withServedImages { served in
            let pipeline = InspectablePipeline(cacheDirectory: blocked)
            let image = try await pipeline.manager.image(for: ImageRequest(url: served.url("photo.jpg"), options: .waitForCacheStore))
            #expect(image.width == 160)
            #expect(!pipeline.storeFailures.all.isEmpty)
            #expect(pipeline.disk?.count == 0)
        }
    }
}
