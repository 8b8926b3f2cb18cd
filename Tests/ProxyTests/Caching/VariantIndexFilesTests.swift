import Foundation
import Testing
import WebImageTestSupport

@testable import WebImageProxy

@Suite("Proxy: the disk's index of variants per source")
struct VariantIndexFilesTests {
    @Test("variants recorded from many tasks at once are all listed once, per source; a purge takes the list away")
    func recordAndTake() async throws {
        let directory = try TemporaryDirectory()
        // Two levels that do not exist yet: the first record makes them.
        let index = VariantIndexFiles(directory: directory.url.appendingPathComponent("cache/index"))
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for variant in 0..<125 {
                        index.record("variant/\(task)-\(variant)", ofSource: "https://example.com/a.jpg")
                        index.record("variant/\(task)-\(variant)", ofSource: "https://example.com/b.jpg")
                    }
                }
            }
        }
        index.record("variant/0-0", ofSource: "https://example.com/a.jpg")
        let taken = index.take("https://example.com/a.jpg")
        #expect(taken.count == 1000)
        #expect(Set(taken).count == 1000)
        #expect(index.take("https://example.com/a.jpg").isEmpty)
        #expect(index.take("https://example.com/b.jpg").count == 1000)
    }
}
