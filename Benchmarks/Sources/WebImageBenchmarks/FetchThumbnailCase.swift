import Foundation
import Synchronization
import WebImage
import WebImageFixtures
import WebImageTestServer

/// The server-side thumbnail run: 300 distinct 1600x1200 JPEGs fetched from the
/// loopback server and made into thumbnails that fit 256 px, 16 at a time, beside what a
/// Python service would do with the same files from the same server in the same run:
/// aiohttp fetching, and Pillow (`draft` + `thumbnail`) or pyvips (`thumbnail_buffer`)
/// on two worker threads. Each row is left out with a message when its modules are
/// missing (`make bench-peers` installs them).
enum FetchThumbnailCase {
    static let name = "Fetch and thumbnail 300 1600x1200 JPEGs, 16 at a time"
    static let count = 300
    static let concurrency = 16
    static let fit = 256
    static let pillowPeer = "aiohttp + Pillow draft + thumbnail, 2 threads"
    static let vipsPeer = "aiohttp + pyvips thumbnail_buffer, 2 threads"

    static func fileName(_ index: Int) -> String { "thumb-1600x1200-\(index).jpg" }

    /// Writes the 300 files beside the cold-load files the server serves: one photo,
    /// each copy stamped with its number in a row of black and white squares, so every
    /// file is distinct (no cache, by name or content, can answer for another).
    /// `name` and `encode`: other files of the same photo (the proxy's tagged sources).
    static func writeFiles(
        into root: URL, count: Int = count, name: (Int) -> String = fileName, encode: ((ImageBitmap) throws -> Data)? = nil
    ) throws {
        let base = try SyntheticImage.photo(width: 1600, height: 1200, seed: 23).packedBytes
        let encoder = JPEGFixtureEncoder(quality: 85, subsampling: .s420)
        let encode = encode ?? { try encoder.encode($0) }
        for index in 0..<count where !FileManager.default.fileExists(atPath: root.appendingPathComponent(name(index)).path) {
            let stamped = try ImageBitmap(width: 1600, height: 1200, pixelFormat: .rgba8) { bytes, _ in
                bytes.copyBytes(from: base)
                for bit in 0..<10 {
                    let value: UInt8 = (index >> bit) & 1 == 1 ? 255 : 0
                    for y in 0..<32 {
                        for x in (bit * 32)..<(bit * 32 + 32) {
                            let offset = (y * 1600 + x) * 4
                            bytes[offset] = value
                            bytes[offset + 1] = value
                            bytes[offset + 2] = value
                        }
                    }
                }
            }
            try encode(stamped).write(to: root.appendingPathComponent(name(index)))
        }
    }

    static func all(server: LoopbackServer) throws -> [BenchmarkCase] {
        guard let root = ColdLoadCases.root else { throw Baseline.Failure(description: "\(name): no document root") }
        try writeFiles(into: URL(fileURLWithPath: root))
        let urls = (0..<count).map { server.url("/files/\(fileName($0))") }
        let list = URL(fileURLWithPath: root).appendingPathComponent("thumb-urls.txt")
        try urls.map(\.absoluteString).joined(separator: "\n").write(to: list, atomically: true, encoding: .utf8)
        var manager: ImageManager?
        var contenders = [
            Contender(
                name: "ours (ImageManager, thumbnailPixelSize 256)",
                run: {
                    guard let manager else { throw Baseline.Failure(description: "\(name): no manager") }
                    try load(urls, through: manager)
                },
                prepare: {
                    server.resetRecords()
                    manager = freshManager()
                })
        ]
        let fetching = """
            import asyncio, io, os
            from concurrent.futures import ThreadPoolExecutor
            import aiohttp
            urls = open("\(list.path)").read().split("\\n")
            workers = ThreadPoolExecutor(2)

            async def main():
                gate = asyncio.Semaphore(\(concurrency))
                loop = asyncio.get_running_loop()
                connector = aiohttp.TCPConnector(limit=\(concurrency))
                async with aiohttp.ClientSession(connector=connector) as session:
                    async def one(url):
                        async with gate:
                            async with session.get(url) as response:
                                data = await response.read()
                            size = await loop.run_in_executor(workers, thumbnail, data)
                            assert size == (256, 192), size
                    await asyncio.gather(*(one(url) for url in urls))

            def run(): asyncio.run(main())
            """
        if let pillow = PythonPeer(
            setup: """
                from PIL import Image
                def thumbnail(data):
                    image = Image.open(io.BytesIO(data))
                    image.draft("RGB", (256, 256))
                    image.thumbnail((256, 256))
                    return image.size
                """ + "\n" + fetching,
            peer: pillowPeer)
        {
            contenders.append(Contender(name: pillowPeer) { try pillow.run(1) })
        }
        // One libvips thread per operation, two operations at once: the two cores, as the
        // Pillow row uses them.
        if let vips = PythonPeer(
            setup: """
                import os
                os.environ["VIPS_CONCURRENCY"] = "1"
                import pyvips
                pyvips.cache_set_max(0)
                def thumbnail(data):
                    image = pyvips.Image.thumbnail_buffer(data, 256)
                    image.write_to_memory()
                    return (image.width, image.height)
                """ + "\n" + fetching,
            peer: vipsPeer)
        {
            contenders.append(Contender(name: vipsPeer) { try vips.run(1) })
        }
        // Ours at least 1.3x the rate of each.
        return [
            BenchmarkCase(
                section: .thumbnails, name: name, contenders: contenders, imagesPerRun: count, rounds: 5,
                comparisons: [.rate(.atLeast(1.3), against: pillowPeer), .rate(.atLeast(1.3), against: vipsPeer)])
        ]
    }

    /// A manager as a thumbnail service would run one: no disk cache (the files are
    /// fetched once), `concurrency` downloads and connections at once.
    static func freshManager() -> ImageManager {
        var configuration = WebImageConfiguration(cacheDirectory: nil)
        configuration.downloader.maximumConcurrentDownloads = concurrency
        configuration.transport.maximumConnectionsPerHost = concurrency
        return ImageManager(configuration: configuration)
    }

    /// Every URL, `concurrency` loads in flight at a time, each checked for its size;
    /// `caseName` names the case in the error.
    static func load(_ urls: [URL], through manager: ImageManager, caseName: String = name) throws {
        try forEach(urls, caseName: caseName, what: "thumbnails were 256x192") { request in
            try await manager.image(for: request).size == PixelSize(width: 256, height: 192)
        }
    }

    /// Runs `make` for a request of each URL (a thumbnail fitting ``fit``), `concurrency`
    /// at a time, and throws unless every one returns `true`; `what` says in the error
    /// what each was to be.
    static func forEach(
        _ urls: [URL], caseName: String, what: String, _ make: @escaping @Sendable (ImageRequest) async throws -> Bool
    ) throws {
        let context = ImageLoadContext(thumbnailPixelSize: fit)
        let made = try LoopbackBench.blocking {
            try await withThrowingTaskGroup(of: Bool.self) { group in
                var next = 0
                var right = 0
                func add() {
                    let request = ImageRequest(url: urls[next], context: context)
                    next += 1
                    group.addTask { try await make(request) }
                }
                while next < min(concurrency, urls.count) { add() }
                while let done = try await group.next() {
                    if done { right += 1 }
                    if next < urls.count { add() }
                }
                return right
            }
        }
        guard made == urls.count else {
            throw Baseline.Failure(description: "\(caseName): \(made) of \(urls.count) \(what)")
        }
    }
}
