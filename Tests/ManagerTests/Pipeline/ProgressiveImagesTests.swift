import Foundation
import Synchronization
import Testing
import WebImage
import WebImageFixtures
import WebImageTestSupport

@testable import WebImageConcurrency
@testable import WebImageManager

@Suite("Partial images made from the body a progressive download hands out")
struct ProgressiveImagesTests {
    /// What one `ProgressiveImages` handed on.
    private final class Published: Sendable {
        private let images = Locked<[DecodedImage]>([])
        var all: [DecodedImage] { images.withLock { $0 } }
        var publish: @Sendable (DecodedImage) -> Void { { image in self.images.withLock { $0.append(image) } } }
    }

    private static func progressiveJPEG(width: Int, height: Int) throws -> Data {
        try JPEGFixtureEncoder(quality: 90, progressive: true).encode(SyntheticImage.photo(width: width, height: height))
    }

    private static func make(_ published: Published, budget: MemoryBudget? = nil) -> ProgressiveImages {
        ProgressiveImages(decoders: ImageDecoderRegistry.standard, options: .default, budget: budget, publish: published.publish)
    }

    @Test("a growing body gives full-size partial images, each fed only the bytes the decoder has not seen")
    func growingBody() throws {
        let jpeg = try Self.progressiveJPEG(width: 320, height: 240)
        let published = Published()
        let images = Self.make(published)
        for share in [3, 5, 7] {
            images.receive(ReceivedBody(bytes: jpeg.prefix(jpeg.count * share / 10), attempt: 1))
            images.flush()
        }
        #expect(!published.all.isEmpty)
        for image in published.all {
            #expect(image.isPartial)
            #expect(image.size == PixelSize(width: 320, height: 240))
        }
    }

    @Test("a retry's body starts a new decoder: the earlier attempt's bytes are not continued")
    func retryStartsOver() throws {
        let first = try Self.progressiveJPEG(width: 200, height: 100)
        let second = try Self.progressiveJPEG(width: 320, height: 240)
        let published = Published()
        let images = Self.make(published)
        images.receive(ReceivedBody(bytes: first.prefix(first.count * 2 / 3), attempt: 1))
        images.flush()
        let before = published.all.count
        images.receive(ReceivedBody(bytes: second.prefix(second.count * 2 / 3), attempt: 2))
        images.flush()
        let after = published.all.dropFirst(before)
        #expect(!after.isEmpty)
        #expect(after.allSatisfy { $0.size == PixelSize(width: 320, height: 240) })
    }

    @Test("bytes that are no image give no partial image and no error: the final decode reports them")
    func notAnImage() {
        let published = Published()
        let images = Self.make(published)
        images.receive(ReceivedBody(bytes: Data(repeating: 0x5A, count: 8192), attempt: 1))
        images.flush()
        #expect(published.all.isEmpty)
    }

    @Test("with the umbrella's decoders, partial images are converted to sRGB as the final image is")
    func colourManaged() throws {
        // Red and green swapped: stored red shows green once converted.
        let swapped = try ColorProfile.rgb(
            white: (0.3127, 0.3290), red: (0.30, 0.60), green: (0.64, 0.33), blue: (0.15, 0.06), gamma: 2.2)
        let red = try ImageBitmap(width: 64, height: 64, pixelFormat: .rgba8) { bytes, _ in
            for i in 0..<(64 * 64) { bytes.storeBytes(of: UInt32(0xFF00_00FF).bigEndian, toByteOffset: 4 * i, as: UInt32.self) }
        }
        let jpeg = try JPEGEncoder(quality: 95, subsampling: .s444, progressive: true, colorProfile: swapped).encode(red)
        let published = Published()
        let images = ProgressiveImages(decoders: ImageDecoderRegistry.allFormats, options: .default, publish: published.publish)
        images.receive(ReceivedBody(bytes: jpeg.prefix(jpeg.count * 9 / 10), attempt: 1))
        images.flush()
        let partial = try #require(published.all.last)
        #expect(partial.colorProfile == nil, "the pixels are sRGB")
        let pixel = Array(partial.bitmap.packedBytes.prefix(4))
        #expect(pixel[0] < 60 && pixel[1] > 200, "stored red shows green: \(pixel)")
    }

    @Test("with a memory budget, the decoder's estimate is charged while partial images are made, and given back at the end")
    func chargedToTheBudget() throws {
        let jpeg = try Self.progressiveJPEG(width: 320, height: 240)
        let budget = MemoryBudget(capacity: 64 << 20)
        let published = Published()
        let images = Self.make(published, budget: budget)
        let estimate = try #require(ImageDecoderRegistry.standard.estimatedMemory(decoding: jpeg, options: .default))
        images.receive(ReceivedBody(bytes: jpeg.prefix(jpeg.count * 6 / 10), attempt: 1))
        images.flush()
        #expect(!published.all.isEmpty)
        #expect(budget.inUse == estimate, "the decoder's memory, as a whole decode's estimate")
        images.close()
        images.flush()
        #expect(budget.inUse == 0)
    }

    @Test("a retry's decoder takes the place of the first in the budget: one charge at a time")
    func retryReplacesTheCharge() throws {
        let first = try Self.progressiveJPEG(width: 200, height: 100)
        let second = try Self.progressiveJPEG(width: 320, height: 240)
        let budget = MemoryBudget(capacity: 64 << 20)
        let images = Self.make(Published(), budget: budget)
        images.receive(ReceivedBody(bytes: first.prefix(first.count * 2 / 3), attempt: 1))
        images.flush()
        images.receive(ReceivedBody(bytes: second.prefix(second.count * 2 / 3), attempt: 2))
        images.flush()
        #expect(budget.inUse == ImageDecoderRegistry.standard.estimatedMemory(decoding: second, options: .default))
        images.close()
        images.flush()
        #expect(budget.inUse == 0)
    }

    @Test("a budget without room for the decoder gives no partial image and charges nothing; the load is not held")
    func noRoomNoPartials() throws {
        let jpeg = try Self.progressiveJPEG(width: 320, height: 240)
        let budget = MemoryBudget(capacity: 64 << 10)
        let published = Published()
        let images = Self.make(published, budget: budget)
        for share in [3, 6, 9] {
            images.receive(ReceivedBody(bytes: jpeg.prefix(jpeg.count * share / 10), attempt: 1))
            images.flush()
        }
        #expect(published.all.isEmpty)
        #expect(budget.inUse == 0)
    }

    @Test("once closed, nothing more is handed on")
    func closed() throws {
        let jpeg = try Self.progressiveJPEG(width: 320, height: 240)
        let published = Published()
        let images = Self.make(published)
        images.close()
        images.receive(ReceivedBody(bytes: jpeg.prefix(jpeg.count * 2 / 3), attempt: 1))
        images.flush()
        #expect(published.all.isEmpty)
    }
}
