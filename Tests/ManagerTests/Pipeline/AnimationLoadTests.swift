import Foundation
import Testing
import WebImage
import WebImageFixtures
import WebImageTestSupport

@testable import WebImageResources

/// Long animations through the manager: composed on demand unless every frame is asked
/// for, their frame count reported either way.
@Suite("Manager: long animations", .timeLimit(.minutes(1)))
struct AnimationLoadTests {
    /// 300 frames of 128x128: 18.75 MiB decoded whole, over the 16 MiB composed on demand from.
    static let longGIF = RepeatedStructures.gif(onePixelFrames: 300, screen: 128)

    @Test("a long GIF loads as its first frame and a frame source; monitors hear its 300 frames")
    func composedOnDemand() async throws {
        let fixture = ScriptedFixture(.serving(["long.gif": Self.longGIF]))
        let log = LoadEventLog()
        let manager = fixture.manager { $0.eventMonitors = [log] }
        let image = try await manager.image(for: fixture.url("long.gif"))
        #expect(image.frameSource != nil)
        #expect(image.frames.count == 1)
        #expect(image.frameCount == 300)
        #expect(log.heard.contains("long.gif decoded 128x128 in 300 frame(s)"))
        let whole = try GIFDecoder().decode(Self.longGIF, options: DecodeOptions(frameBuffering: .allFrames))
        #expect(try image.frame(at: 299).bitmap.packedBytes == whole.frames[299].bitmap.packedBytes)
        #expect(manager.cachedImage(for: ImageRequest(url: fixture.url("long.gif")))?.frameSource != nil)
    }

    @Test("allFrames decodes every frame, and is cached apart from the load without it")
    func allFrames() async throws {
        let fixture = ScriptedFixture(.serving(["long.gif": Self.longGIF]))
        let manager = fixture.manager()
        let onDemand = try await manager.image(for: fixture.url("long.gif"))
        let whole = try await manager.image(for: fixture.url("long.gif"), options: [.allFrames])
        #expect(onDemand.frames.count == 1)
        #expect(whole.frames.count == 300)
        #expect(whole.frameSource == nil)
        #expect(manager.cachedImage(for: ImageRequest(url: fixture.url("long.gif"), options: [.allFrames]))?.frames.count == 300)
    }

    @Test("a long GIF with a resize stays on demand: nothing composed at load, every frame resized as it is asked for")
    func transformedOnDemand() async throws {
        let fixture = ScriptedFixture(.serving(["long.gif": Self.longGIF]))
        let manager = fixture.manager()
        let resize = ResizeTransformer(width: 64, height: 64, mode: .stretch)
        let image = try await manager.image(for: ImageRequest(url: fixture.url("long.gif"), context: .init(transformers: [resize])))
        let source = try #require(image.frameSource)
        #expect(image.frames.count == 1)
        #expect(image.frameCount == 300)
        #expect(image.size == PixelSize(width: 64, height: 64))
        #expect(source.bufferedByteCount == 0, "no frame is composed before one is asked for")
        let whole = try GIFDecoder().decode(Self.longGIF, options: DecodeOptions(frameBuffering: .allFrames))
        for index in [1, 150, 299] {
            let expected = try resize.transform(DecodedImage(format: .gif, frames: [whole.frames[index]])).bitmap
            #expect(try image.frame(at: index).bitmap.packedBytes == expected.packedBytes)
        }
        // Written as an animation, frame by frame, it keeps all 300.
        let gif = try GIFEncoder().encode(image)
        #expect(try GIFDecoder().decode(gif, options: .default).frameCount == 300)
    }

    @Test("a long GIF's frame buffer is charged to the manager's memory budget while held, and given back when released")
    func chargedToTheManagersBudget() async throws {
        let budget = MemoryBudget(capacity: 256 << 20)
        let changed = EventSignal()
        let watching = budget.observeChanges(changed.callback)
        defer { watching.remove() }
        let fixture = ScriptedFixture(.serving(["long.gif": Self.longGIF]))
        let manager = fixture.manager { $0.memoryBudget = budget }
        let image = try await manager.image(for: fixture.url("long.gif"))
        // The decode's reservation goes once the load has handed the image over.
        await changed.wait { budget.inUse == 0 }
        let source = try #require(image.frameSource)
        _ = try image.frame(at: 150)
        #expect(source.bufferedByteCount > 0)
        #expect(budget.inUse == 128 * 128 * 4 + source.bufferedByteCount, "the canvas, the frame and the snapshots")
        source.releaseBuffer()
        #expect(budget.inUse == 0)
    }
}
