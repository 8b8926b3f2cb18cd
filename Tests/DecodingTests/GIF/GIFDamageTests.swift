import Foundation
import Testing
import WebImageCore
import WebImageDecoding

/// Truncated, damaged and oversized files give the error the policy asks for, quickly.
@Suite("GIF damage and limits")
struct GIFDamageTests {
    /// Two 4x2 frames, the second with the transparent index so both are distinct.
    static var twoFrames: GIFTestFile {
        var file = GIFTestFile(width: 4, height: 2, loopCount: 0)
        file.frames = [
            .init(width: 4, height: 2, indices: [1, 2, 3, 1, 2, 3, 1, 2]),
            .init(width: 4, height: 2, indices: [0, 0, 3, 3, 0, 0, 3, 3], transparentIndex: 0),
        ]
        return file
    }

    static func code(_ body: () throws(ImageDecodingError) -> Void) -> ImageDecodingError.Code? {
        do {
            try body()
            return nil
        } catch {
            return error.code
        }
    }

    @Test("a missing trailer, or a missing last block terminator, still decodes every frame")
    func missingEnd() throws {
        let whole = Self.twoFrames.data
        let reference = try GIFDecoder().decode(whole)
        for cut in [1, 2] {
            let image = try GIFDecoder().decode(whole.prefix(whole.count - cut))
            #expect(image.frames.count == 2, "\(cut) bytes cut")
            #expect(image.frames.map(\.bitmap) == reference.frames.map(\.bitmap), "\(cut) bytes cut")
        }
    }

    @Test("data that ends inside a frame is truncated, even after whole frames")
    func truncatedInFrame() throws {
        let file = Self.twoFrames
        let whole = file.data
        let secondFrame = file.descriptorOffset(ofFrame: 1)
        for end in [secondFrame + 3, secondFrame + 12, whole.count - 6] {
            #expect(
                Self.code { () throws(ImageDecodingError) in _ = try GIFDecoder().decode(whole.prefix(end)) } == .truncated, "cut at \(end)"
            )
        }
        // The frame reader yields the whole frame first, then reports the cut.
        let reader = try GIFDecoder().makeFrameReader(for: whole.prefix(whole.count - 6), options: .default)
        #expect(try reader.nextFrame() != nil)
        #expect(Self.code { () throws(ImageDecodingError) in _ = try reader.nextFrame() } == .truncated)
        #expect(Self.code { () throws(ImageDecodingError) in _ = try reader.nextFrame() } == .truncated, "the failure sticks")
    }

    @Test("data that ends before the first frame is truncated")
    func truncatedBeforeFrames() {
        let whole = Self.twoFrames.data
        for end in [5, 13, 20, Self.twoFrames.descriptorOffset(ofFrame: 0)] {
            #expect(
                Self.code { () throws(ImageDecodingError) in _ = try GIFDecoder().decode(whole.prefix(end)) } == .truncated, "cut at \(end)"
            )
        }
    }

    @Test("LZW data that ends before the last pixel while the file goes on is corrupt")
    func shortLZW() {
        var file = GIFTestFile(width: 4, height: 1)
        file.frames = [.init(width: 4, height: 1, indices: [1, 2])]
        #expect(Self.code { () throws(ImageDecodingError) in _ = try GIFDecoder().decode(file.data) } == .corrupt)
    }

    @Test("an unknown record after the frames is corrupt")
    func unknownRecord() {
        var file = Self.twoFrames
        file.writesTrailer = false
        var data = file.data
        data.append(0x99)
        #expect(Self.code { () throws(ImageDecodingError) in _ = try GIFDecoder().decode(data) } == .corrupt)
    }

    @Test("a file with a trailer and no frame is an error")
    func noFrames() {
        var file = GIFTestFile(width: 2, height: 2)
        file.frames = []
        #expect(Self.code { () throws(ImageDecodingError) in _ = try GIFDecoder().decode(file.data) } == .corrupt)
    }

    @Test("a zero-sized screen is invalidDimensions")
    func zeroScreen() {
        var file = Self.twoFrames
        file.width = 0
        #expect(Self.code { () throws(ImageDecodingError) in _ = try GIFDecoder().decode(file.data) } == .invalidDimensions)
    }

    @Test("frames x screen over maxPixelCount is tooLarge; one frame fits with firstFrameOnly")
    func framesTimesScreen() throws {
        let data = Self.twoFrames.data
        let options = DecodeOptions(maxPixelCount: 12)
        #expect(Self.code { () throws(ImageDecodingError) in _ = try GIFDecoder().decode(data, options: options) } == .tooLarge)
        #expect(
            Self.code { () throws(ImageDecodingError) in _ = try GIFDecoder().makeFrameReader(for: data, options: options) } == .tooLarge)
        let first = try GIFDecoder().decode(data, options: DecodeOptions(maxPixelCount: 12, firstFrameOnly: true))
        #expect(first.frames.count == 1)
        #expect(try GIFDecoder().decode(data, options: DecodeOptions(maxPixelCount: 16)).frames.count == 2)
    }

    @Test("a frame rectangle over the limit is tooLarge even on a small screen")
    func hugeFrameRect() {
        var file = GIFTestFile(width: 2, height: 2)
        file.frames = [.init(width: 2, height: 2, indices: [1, 1, 1, 1])]
        var data = file.data
        // Patch the frame to claim 5000x5000: the limit trips before any LZW decoding.
        let descriptor = file.descriptorOffset(ofFrame: 0)
        data.replaceSubrange((descriptor + 5)..<(descriptor + 9), with: [0x88, 0x13, 0x88, 0x13])
        let options = DecodeOptions(maxPixelCount: 1_000_000)
        #expect(Self.code { () throws(ImageDecodingError) in _ = try GIFDecoder().decode(data, options: options) } == .tooLarge)
    }

    @Test("a 65535x65535 screen is refused at once, without allocating the canvas")
    func hugeScreen() {
        var file = GIFTestFile(width: 65535, height: 65535)
        file.frames = [.init(width: 40, height: 40, indices: [UInt8](repeating: 1, count: 1600))]
        let data = file.data
        let start = ContinuousClock.now
        #expect(Self.code { () throws(ImageDecodingError) in _ = try GIFDecoder().decode(data) } == .tooLarge)
        #expect(ContinuousClock.now - start < .seconds(2), "far less than a decode at that size; generous for a loaded machine")
    }

    @Test("errors name the GIF format")
    func errorsNameFormat() {
        do {
            _ = try GIFDecoder().decode(Data("GIF89a".utf8))
            Issue.record("a 6-byte file decoded")
        } catch {
            #expect(error.code == .truncated)
            #expect(error.format == .gif)
        }
    }
}
