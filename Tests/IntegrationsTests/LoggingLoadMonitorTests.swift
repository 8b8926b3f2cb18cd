import Foundation
import Logging
import Synchronization
import Testing
import WebImage
import WebImageLogging

@testable import WebImageConcurrency

/// Keeps every line logged through it.
final class CapturedLines: Sendable {
    struct Line: Sendable {
        let level: Logger.Level
        let message: String
        let metadata: Logger.Metadata
    }

    let lines = Locked<[Line]>([])

    var logger: Logger {
        var logger = Logger(label: "test") { _ in Handler(sink: self) }
        logger.logLevel = .trace
        return logger
    }

    struct Handler: LogHandler {
        let sink: CapturedLines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            sink.lines.withLock { $0.append(Line(level: event.level, message: "\(event.message)", metadata: event.metadata ?? [:])) }
        }
    }
}

@Suite("WebImageLogging: one line per load")
struct LoggingLoadMonitorTests {
    @Test("answered loads log at debug with source, time and decode facts; a failure at warning with its error class")
    func lines() async throws {
        let captured = CapturedLines()
        let monitor = LoggingLoadMonitor(logger: captured.logger)
        try await ThreeLoads.run(with: monitor, flush: monitor.flush)
        let lines = captured.lines.withLock { $0 }
        try #require(lines.count == 3, "\(lines.map(\.message))")
        let (network, memory, failed) = (lines[0], lines[1], lines[2])
        #expect(network.level == .debug && network.message == "image load answered")
        #expect(network.metadata["webimage.source"] == "network")
        #expect(network.metadata["webimage.pixels"] == "\(ThreeLoads.size.width * ThreeLoads.size.height)")
        #expect(network.metadata["webimage.frames"] == "1")
        #expect(network.metadata["webimage.decode_ms"] != nil)
        #expect(network.metadata["webimage.stored"] == "memory")
        #expect(network.metadata["webimage.url"]?.description.hasSuffix("/files/picture.png") == true)
        #expect(memory.metadata["webimage.source"] == "memory")
        #expect(memory.metadata["webimage.decode_ms"] == nil, "a memory hit decodes nothing")
        #expect(failed.level == .warning && failed.message == "image load failed")
        #expect(failed.metadata["webimage.error_class"] == "download.httpStatus")
        #expect(failed.metadata["webimage.error"]?.description.contains("404") == true)
    }

    @Test("a load waiting for the network logs at info as the wait begins; the load's line counts its waits")
    func networkWait() async throws {
        let captured = CapturedLines()
        let monitor = LoggingLoadMonitor(logger: captured.logger)
        await OneNetworkWait.run(with: monitor, flush: monitor.flush)
        let lines = captured.lines.withLock { $0 }
        try #require(lines.count == 2, "\(lines.map(\.message))")
        let (waiting, failed) = (lines[0], lines[1])
        #expect(waiting.level == .info && waiting.message == "image load waiting for the network")
        #expect(waiting.metadata["webimage.url"] == "\(OneNetworkWait.url.absoluteString)")
        #expect(waiting.metadata["webimage.network"] == "unreachable")
        #expect(waiting.metadata["webimage.error"] != nil)
        #expect(waiting.metadata["webimage.load"] == failed.metadata["webimage.load"])
        #expect(failed.level == .warning && failed.message == "image load failed")
        #expect(failed.metadata["webimage.network_waits"] == "1")
    }
}
