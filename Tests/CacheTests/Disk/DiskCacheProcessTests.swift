import Foundation
import Testing
import WebImageCache
import WebImageCore
import WebImageTestSupport

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Disk cache: other processes on the same directory")
struct DiskCacheProcessTests {
    @Test("a writer killed mid-write leaves only whole entries, and its temporary files are cleaned up")
    func killedWriter() throws {
        let directory = try TemporaryDirectory()
        var leftovers = 0
        for attempt in 0..<6 {
            let (process, output) = try CacheWriter.start(["loop", directory.path, "tests"])
            // Killed as the writer reports its (attempt + 1)th whole entry: its other
            // threads are then mid-write, at a different point in each attempt.
            let lines = readLines(of: output) { $0.count(where: { $0.hasPrefix("stored ") }) > attempt }
            #expect(lines.first == "ready")
            process.signal(SIGKILL)
            #expect(process.waitForExit() == .signalled(SIGKILL))
            let root = directory.path + "/tests"
            leftovers += ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).filter { $0.hasPrefix(".tmp-") }.count
        }

        let cache = DiskCache.testCache(in: directory)
        var present = 0
        for index in 0..<24 {
            let key = "kill-\(index)"
            guard let hit = cache.response(forKey: CacheKey(key)) else { continue }
            present += 1
            #expect(hit.data == payload(tag: "kill", key: key, minimum: 400_000, spread: 600_000), "entry \(key) reads back wrong")
            #expect(hit.metadata.etag == key)
        }
        #expect(present > 0)
        // Opening the cache removed the dead writer's temporary files (if a kill left any).
        let files = filesUnder(directory.path)
        #expect(files.allSatisfy { !$0.contains(".tmp-") }, "left: \(files.filter { $0.contains(".tmp-") }) of \(leftovers)")
        #expect(files.count == present)
    }

    /// The lines `output` gave until `enough` holds for them, or until it ended (the
    /// writer died: the test then fails on what it left).
    private func readLines(of output: FileHandle, until enough: ([String]) -> Bool) -> [String] {
        var text = ""
        while true {
            let lines = text.split(separator: "\n").map(String.init)
            if enough(lines) { return lines }
            let data = output.availableData
            if data.isEmpty { return lines }
            text += String(decoding: data, as: UTF8.self)
        }
    }

    @Test("two writers storing the same keys at once: every entry is one writer's whole value, also while they write")
    func racingWriters() throws {
        let directory = try TemporaryDirectory()
        let count = 30
        let writers = try ["A", "B"].map { try CacheWriter.start(["race", directory.path, "tests", $0, "\(count)"]) }
        let reader = DiskCache.testCache(in: directory)
        func check(_ key: String) -> Bool? {
            guard let hit = reader.response(forKey: CacheKey(key)) else { return nil }
            return hit.data == payload(tag: "A", key: key, minimum: 20_000, spread: 200_000)
                || hit.data == payload(tag: "B", key: key, minimum: 20_000, spread: 200_000)
        }
        while writers.contains(where: { $0.process.isRunning }) {
            for index in 0..<count {
                if let whole = check("race-\(index)") {
                    #expect(whole, "race-\(index) read a mixed value while the writers ran")
                }
            }
        }
        for writer in writers {
            let output = String(decoding: writer.output.readDataToEndOfFile(), as: UTF8.self)
            #expect(writer.process.waitForExit() == .exited(0))
            #expect(output == "done\n")
        }
        for index in 0..<count {
            #expect(check("race-\(index)") == true, "race-\(index) is missing or mixed")
        }
        #expect(filesUnder(directory.path).count == count)
        reader.trim()
        #expect(reader.count == count)
    }
}
