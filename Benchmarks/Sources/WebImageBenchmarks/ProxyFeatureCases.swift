import Foundation
import WebImage

/// The proxy's imgproxy features, each beside what it must cost: AVIF thumbnails beside
/// pyvips's `heifsave` (AV1, the same speed and quality) on the same files, the CPU of an
/// `/info` answer, and the option parser's time per URL (timed by `ProxyParserBenchmark`).
enum ProxyFeatureCases {
    static let parserName = "Proxy: parse an imgproxy URL of 20 options"
    static let avifCount = 40
    static let infoCount = 100
    static let taggedCount = 100
    static let vipsAVIFPeer = "pyvips thumbnail_buffer + heifsave_buffer AV1 Q63 effort 1, 1 thread"

    /// The AVIF and `/info` rows, against the running proxy `ours` on `port`.
    static func run(port: Int, ours: ProxyProcess, sources: [URL], root: URL) throws {
        // AVIF at the proxy's default: quality 63, libaom speed 8 (pyvips's effort 9 - 8).
        let avifURLs = sources.prefix(avifCount).map { ProxyCase.oursURL(port: port, options: "rs:fit:300:300/f:avif", source: $0) }
        let avif = try ProxyCase.drive(Array(avifURLs), servers: [ours], format: .avif)
        let ourAVIF = avif.cpuSeconds / Double(avifCount)
        print("  AVIF 300x225 from 1600x1200 JPEG: \(ProxyCase.format(ourAVIF * 1000, 0, 2)) ms CPU/image")
        let avifName = "AVIF thumbnail CPU per image"
        let save = "heifsave_buffer(Q=63, compression=\"av1\", effort=1)"
        if let vips = try ProxyCase.pyvipsCPU(root: root, files: avifCount, save: save, peer: vipsAVIFPeer) {
            print("  \(vipsAVIFPeer): \(ProxyCase.format(vips * 1000, 0, 2)) ms/image")
            Findings.record(
                .proxy, avifName, ours: Figure(label: "webimage proxy", value: ourAVIF * 1000, unit: "ms"),
                peer: Figure(label: vipsAVIFPeer, value: vips * 1000, unit: "ms"),
                measured: Figure(label: "ours / peer", value: ourAVIF / vips, unit: "x"), goal: .atMost(0.8))
        } else {
            Findings.skip(.proxy, "\(avifName) beside pyvips", reason: Findings.whyLeftOut(vipsAVIFPeer))
        }

        try taggedSources(port: port, ours: ours, origin: sources[0].deletingLastPathComponent(), root: root)

        // /info of sources the proxy has not described: the fetch (the sources' cache may
        // hold the bytes), the header, a decode fitting 64 px and both placeholders.
        let infoURLs = sources.suffix(infoCount).map { source -> URL in
            let encoded = source.absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            return URL(string: "http://127.0.0.1:\(port)/info/unsafe/plain/\(encoded)")!
        }
        let info = try ProxyCase.drive(Array(infoURLs), servers: [ours], format: nil).cpuSeconds / Double(infoCount)
        let infoFigure = Figure(label: "CPU per /info answer", value: info * 1000, unit: "ms")
        // The floor beside it: libjpeg-turbo's smallest DCT-scaled decode of the same
        // files, which must still read every coefficient of a baseline JPEG.
        let floor = try decodeFloor(of: (sources.count - infoCount)..<sources.count, in: root)
        print("  /info: \(ProxyCase.format(info * 1000, 0, 2)) ms CPU, tjDecompress2 1/8 alone \(ProxyCase.format(floor * 1000, 0, 2)) ms")
        Findings.record(
            .proxy, "/info of a 1600x1200 JPEG, BlurHash and ThumbHash", ours: infoFigure,
            peer: Figure(label: infoFloorPeer, value: floor * 1000, unit: "ms"), measured: infoFigure, goal: .below(2))
    }

    static let infoFloorPeer = "tjDecompress2 1/8 of the same file alone"

    /// The mean time of the bare 1/8-scale decode of the files `indexes` in `root`.
    static func decodeFloor(of indexes: Range<Int>, in root: URL) throws -> Double {
        let files = try indexes.map { try Data(contentsOf: root.appendingPathComponent(FetchThumbnailCase.fileName($0))) }
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            for file in files { try Baseline.jpeg(file, scaleDenominator: 8) }
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return seconds / Double(files.count)
    }

    /// What a tagged source costs a thumbnail: the same photos as JPEGs tagged Display P3
    /// and untagged (one encoder, so only the tag differs), through the running proxy. A
    /// tagged source leaves the planar JPEG path for the RGBA one, where it is converted
    /// to sRGB after the resize.
    static func taggedSources(port: Int, ours: ProxyProcess, origin: URL, root: URL) throws {
        let displayP3 = try ColorProfile.stated(
            white: (0.3127, 0.3290), red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060), transfer: .sRGB,
            origin: "Display P3")
        var cpu: [Double] = []
        for (label, profile) in [("plain", nil), ("p3", displayP3)] as [(String, ColorProfile?)] {
            let name = { (index: Int) in "thumb-\(label)-1600x1200-\(index).jpg" }
            try FetchThumbnailCase.writeFiles(into: root, count: taggedCount, name: name) {
                try JPEGEncoder(quality: 85, colorProfile: profile).encode($0)
            }
            let urls = (0..<taggedCount).map {
                ProxyCase.oursURL(port: port, options: "rs:fit:300:300/q:80/f:jpeg", source: origin.appendingPathComponent(name($0)))
            }
            cpu.append(try ProxyCase.drive(urls, servers: [ours]).cpuSeconds / Double(taggedCount))
        }
        print("  untagged \(ProxyCase.format(cpu[0] * 1000, 0, 2)) ms, Display P3 \(ProxyCase.format(cpu[1] * 1000, 0, 2)) ms CPU/image")
        Findings.record(
            .proxy, "CPU per image on Display P3 sources (converted to sRGB)",
            ours: Figure(label: "Display P3", value: cpu[1] * 1000, unit: "ms"),
            peer: Figure(label: "the same photos untagged", value: cpu[0] * 1000, unit: "ms"),
            measured: Figure(label: "tagged / untagged", value: cpu[1] / cpu[0], unit: "x"))
    }

    /// The option parser's time per URL of 20 options, from `ProxyParserBenchmark` (built
    /// beside this program by `make bench`).
    static func parser() throws {
        let program = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
            "ProxyParserBenchmark")
        guard FileManager.default.isExecutableFile(atPath: program.path) else {
            Findings.skip(.proxy, parserName, reason: "no ProxyParserBenchmark beside this program (make bench builds it)")
            return
        }
        let process = Process()
        let output = Pipe()
        process.executableURL = program
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0, let microseconds = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Baseline.Failure(description: "ProxyParserBenchmark failed: \(text)")
        }
        let figure = Figure(label: "per URL of 20 options", value: microseconds, unit: "µs")
        print("  Option parser: \(ProxyCase.format(microseconds, 0, 2)) µs per URL of 20 options")
        Findings.record(.proxy, parserName, ours: figure, peer: nil, measured: figure, goal: .below(5))
    }
}
