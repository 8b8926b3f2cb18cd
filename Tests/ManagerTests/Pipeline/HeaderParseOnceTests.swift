import Foundation
import Synchronization
import Testing
import WebImage
@_spi(Testing) import WebImageDecoding
import WebImageTestSupport

/// A load sniffs its bytes once and parses their header once: the memory budget's
/// estimate and the decode read the same parse.
@Suite("Manager: one sniff and one header parse per decode")
struct HeaderParseOnceTests {
    static let files = ["photo.jpg", "badge.png", "animation.gif", "animation.webp", "photo.avif"]

    /// A manager over `fixture` with `decoders` and `budget` (`nil`: none).
    func manager(_ fixture: ScriptedFixture, decoders: any ImageDecoderProviding, budget: MemoryBudget?) -> ImageManager {
        var configuration = ImageManager.Configuration()
        configuration.memoryBudget = budget
        return ImageManager(
            downloader: fixture.downloader, decoders: decoders,
            registry: CallbackRegistry<ImageLoadKey, DecodedImage, ImageResponse, ImageLoadError>(),
            memoryCache: ImageMemoryCache(), diskCache: fixture.disk, configuration: configuration)
    }

    @Test("with a memory budget: one decoder lookup, one prepared decode, its estimate and its decode", arguments: files)
    func withBudget(file: String) async throws {
        let fixture = ScriptedFixture.serving()
        let decoders = CountingDecoders()
        let manager = manager(fixture, decoders: decoders, budget: MemoryBudget(capacity: 64 << 20))
        let image = try await manager.image(for: fixture.url(file))
        #expect(!image.frames.isEmpty)
        #expect(decoders.count("decoder(for:)") == 1, "one sniff")
        #expect(decoders.count("prepareDecode") == 1, "one header parse")
        #expect(decoders.count("prepared estimate") == 1)
        #expect(decoders.count("prepared decode") == 1)
        #expect(decoders.count("estimatedMemory") == 0, "no estimate of its own, which would parse again")
        #expect(decoders.count("decode") == 0, "no decode of its own, which would parse again")
    }

    @Test("without a memory budget: one decoder lookup and one prepared decode, no estimate asked", arguments: files)
    func withoutBudget(file: String) async throws {
        let fixture = ScriptedFixture.serving()
        let decoders = CountingDecoders()
        let manager = manager(fixture, decoders: decoders, budget: nil)
        _ = try await manager.image(for: fixture.url(file))
        #expect(decoders.count("decoder(for:)") == 1)
        #expect(decoders.count("prepareDecode") == 1)
        #expect(decoders.count("prepared estimate") == 0)
        #expect(decoders.count("prepared decode") == 1)
    }

    @Test("the built-in decoders parse each header once in a budgeted load", arguments: files)
    func builtInParsesOnce(file: String) async throws {
        let fixture = ScriptedFixture.serving()
        let manager = manager(fixture, decoders: ImageDecoderRegistry.allFormats, budget: MemoryBudget(capacity: 64 << 20))
        let log = HeaderParseLog()
        // The load's run inherits the task's log.
        let image = try await HeaderParseLog.$current.withValue(log) { try await manager.image(for: fixture.url(file)) }
        #expect(log.formats == [image.format], "\(log.formats)")
    }

    @Test("a file that sniffs but does not decode ends with the decoder's error, after one lookup")
    func corruptFile() async throws {
        let fixture = ScriptedFixture.serving()
        let decoders = CountingDecoders()
        let manager = manager(fixture, decoders: decoders, budget: MemoryBudget(capacity: 64 << 20))
        let result = await outcome { () async throws(ImageLoadError) in try await manager.image(for: fixture.url("corrupt.jpg")) }
        guard case .failure(.decoding(let error, _, _)) = result else {
            Issue.record("expected a decoding error: \(result)")
            return
        }
        let direct = Result { () throws(ImageDecodingError) in try ImageDecoderRegistry.allFormats.decode(Pictures.corrupt) }
        #expect(direct.error == error)
        #expect(decoders.count("decoder(for:)") == 1)
    }
}
