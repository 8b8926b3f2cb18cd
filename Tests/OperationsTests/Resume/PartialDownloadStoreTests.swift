import Foundation
import Synchronization
import Testing
import WebImageHTTP
import WebImageTestSupport

@testable import WebImageConcurrency
@testable import WebImageCore
@testable import WebImageOperations

@Suite("PartialDownloadStore: kept bytes on disk, bounded by size and age (time injected)")
struct PartialDownloadStoreTests {
    let directory: TemporaryDirectory
    let now = TestTime()
    let store: PartialDownloadStore

    init() throws {
        directory = try TemporaryDirectory()
        var configuration = PartialDownloadStore.Configuration(directory: directory.url.appendingPathComponent("partial"))
        configuration.maximumSize = 1000
        configuration.maximumAge = 3600
        configuration.clock = { [now] in now.date.withLock { $0 } }
        store = PartialDownloadStore(configuration)
    }

    func partial(_ url: String, bytes: Int, validator: String = "\"v1\"") -> PartialDownload {
        PartialDownload(
            identity: PartialDownloadIdentity(url: url, variant: 9), body: Data((0..<bytes).map { UInt8(truncatingIfNeeded: $0) }),
            validator: ResumeValidator(entityTag: EntityTag(parsing: validator)!)!, completeLength: Int64(bytes * 2))
    }

    func advance(_ seconds: TimeInterval) { now.date.withLock { $0 += seconds } }

    @Test("kept bytes read back whole, once: taking removes the file")
    func roundTrip() throws {
        let kept = partial("https://a.example/1.png", bytes: 300)
        store.keep(kept)
        #expect(store.count == 1 && store.totalSize > 300)
        let taken = try #require(store.take(kept.identity))
        #expect(taken.body == kept.body && taken.completeLength == 600 && taken.validator == kept.validator)
        #expect(store.take(kept.identity) == nil)
        #expect(store.count == 0)
    }

    @Test("a Last-Modified validator is kept with its Date, and still strong when read back")
    func dateValidator() throws {
        var kept = partial("https://a.example/date.png", bytes: 10)
        kept.validator = try #require(ResumeValidator(lastModified: "Sun, 06 Nov 1994 08:49:37 GMT", date: "Mon, 07 Nov 1994 08:49:37 GMT"))
        store.keep(kept)
        #expect(store.take(kept.identity)?.validator.ifRangeValue == "Sun, 06 Nov 1994 08:49:37 GMT")
    }

    @Test("past the maximum age a file is ignored and swept")
    func age() {
        let old = partial("https://a.example/old.png", bytes: 100)
        store.keep(old)
        advance(3601)
        #expect(store.take(old.identity) == nil)
        store.keep(old)
        advance(3601)
        store.keep(partial("https://a.example/new.png", bytes: 100))
        #expect(store.count == 1, "the write swept the expired file")
        advance(3601)
        store.sweep()
        #expect(store.count == 0)
    }

    @Test("over the size bound the oldest go first; a download larger than the bound is never kept")
    func size() {
        // About 460 bytes a file with its header: three do not fit in 1000, two do.
        let first = partial("https://a.example/1.png", bytes: 300)
        let second = partial("https://a.example/2.png", bytes: 300)
        let third = partial("https://a.example/3.png", bytes: 300)
        store.keep(first)
        advance(1)
        store.keep(second)
        advance(1)
        store.keep(third)
        #expect(store.count == 2)
        #expect(store.take(first.identity) == nil)
        #expect(store.take(third.identity) != nil)
        store.keep(partial("https://a.example/huge.png", bytes: 1001))
        #expect(store.count == 1)
    }

    @Test("a file for another URL under the same name, a cut-off file, or another file is no partial download")
    func foreignFiles() throws {
        let kept = partial("https://a.example/1.png", bytes: 100)
        let other = partial("https://a.example/2.png", bytes: 100)
        store.keep(other)
        #expect(store.count == 1)
        let folder = store.configuration.directory
        try FileManager.default.moveItem(
            at: folder.appendingPathComponent(other.identity.fileName), to: folder.appendingPathComponent(kept.identity.fileName))
        #expect(store.take(kept.identity) == nil, "the URL inside is checked, not only the name")

        store.keep(kept)
        #expect(store.count == 1)
        let path = folder.appendingPathComponent(kept.identity.fileName)
        let file = try Data(contentsOf: path)
        try file.dropLast(10).write(to: path)
        #expect(store.take(kept.identity) == nil, "a cut-off file does not add up")
        #expect(PartialFileFormat.decode(Data("garbage".utf8), expecting: kept.identity) == nil)

        try Data("keep me".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        store.removeAll()
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("notes.txt").path), "not the store's to remove")
    }

    @Test("the identity: the URL and the headers that select the representation, never secrets; some requests never resume")
    func identity() throws {
        let url = URL(string: "https://a.example/1.png")!
        let plain = try #require(PartialDownloadIdentity(DownloadRequest(url: url)))
        #expect(PartialDownloadIdentity(DownloadRequest(url: url, headers: ["Authorization": "Bearer x"])) == plain)
        #expect(
            PartialDownloadIdentity(DownloadRequest(url: url, credential: Credential(user: "a", password: "b")))?.variant
                == PartialDownloadIdentity(DownloadRequest(url: url, credential: Credential(user: "a", password: "c")))?.variant)
        #expect(PartialDownloadIdentity(DownloadRequest(url: url, headers: ["Accept": "image/png"])) != plain)
        #expect(PartialDownloadIdentity(DownloadRequest(url: url, options: [.revalidate])) == nil)
        #expect(PartialDownloadIdentity(DownloadRequest(url: url, headers: ["Range": "bytes=0-1"])) == nil)
        #expect(PartialDownloadIdentity(DownloadRequest(url: URL(string: "file:///tmp/a.png")!)) == nil)
        #expect(PartialDownloadStore.isPartialFileName(plain.fileName))
    }
}

/// The store's injected clock: it moves only when a test says.
final class TestTime: Sendable {
    let date = Locked(Date(timeIntervalSince1970: 1_000_000))
}
