internal import CWebImageFixtures
import Foundation
import WebImageCore

/// Writes GIF fixtures, still or animated, with giflib's EGif API.
///
/// Takes palette-indexed frames as they will be stored, so a test can ask for any
/// disposal, transparency, frame rectangle, local colour table or interlacing.
/// Palettes are padded with black to a power of two, as GIF requires.
///
/// ```swift
/// let gif = try GIFFixtureEncoder().encode(SyntheticAnimation.make(width: 480, height: 360, frameCount: 30))
/// ```
///
/// Thread contract: a stateless value; `encode` may run on any thread.
public struct GIFFixtureEncoder: Sendable {
    public init() {}

    /// The bytes of a GIF file holding `animation`.
    ///
    /// - Throws: ``ImageDecodingError/Code/encodingFailed`` when a frame's index count
    ///   does not match its rectangle, a palette is empty, over 256 entries or not RGB
    ///   triples, a size is over 65535, or giflib fails.
    public func encode(_ animation: GIFFixtureAnimation) throws(ImageDecodingError) -> Data {
        try validate(animation)
        let frames = animation.frames
        // C copies of every array, valid until `pinned` goes away after the call.
        let pinned = PinnedByteArrays(frames.map(\.indices) + frames.map(\.localPalette) + [animation.globalPalette])
        var records = frames.indices.map { i -> wif_gif_frame in
            let frame = frames[i]
            var record = wif_gif_frame()
            record.indices = UnsafePointer(pinned.pointers[i])
            record.left = Int32(frame.x)
            record.top = Int32(frame.y)
            record.width = Int32(frame.width)
            record.height = Int32(frame.height)
            record.local_palette = UnsafePointer(pinned.pointers[frames.count + i])
            record.local_count = Int32((frame.localPalette?.count ?? 0) / 3)
            record.delay_cs = Int32(frame.delayCentiseconds)
            record.disposal = frame.disposal.rawValue
            record.transparent_index = frame.transparentIndex.map { Int32($0) } ?? -1
            record.interlaced = frame.interlaced ? 1 : 0
            record.write_control = frame.writesGraphicControl ? 1 : 0
            return record
        }
        var file = wif_gif_file()
        file.screen_width = Int32(animation.width)
        file.screen_height = Int32(animation.height)
        file.global_palette = UnsafePointer(pinned.pointers[2 * frames.count])
        file.global_count = Int32((animation.globalPalette?.count ?? 0) / 3)
        file.background_index = Int32(animation.backgroundIndex)
        file.loop_count = animation.loopCount.map { Int32($0) } ?? -1
        return try withExtendedLifetime(pinned) { () throws(ImageDecodingError) -> Data in
            try CEncoderOutput.run(format: .gif) { buffer, message, capacity in
                wif_gif_encode(&file, &records, Int32(records.count), buffer, message, capacity)
            }
        }
    }

    private func validate(_ animation: GIFFixtureAnimation) throws(ImageDecodingError) {
        func fail(_ message: String) -> ImageDecodingError { ImageDecodingError(.encodingFailed, message, format: .gif) }
        func checkPalette(_ palette: [UInt8]?, _ name: String) throws(ImageDecodingError) {
            guard let palette else { return }
            guard palette.count % 3 == 0, (3...768).contains(palette.count) else {
                throw fail("the \(name) palette must hold 1 to 256 RGB triples, not \(palette.count) bytes")
            }
        }
        guard (0...65_535).contains(animation.width), (0...65_535).contains(animation.height) else {
            throw fail("a \(animation.width)x\(animation.height) screen does not fit GIF's 16-bit sizes")
        }
        guard (0...65_535).contains(animation.loopCount ?? 0) else {
            throw fail("loop count \(animation.loopCount ?? 0) does not fit 16 bits")
        }
        try checkPalette(animation.globalPalette, "global")
        for (number, frame) in animation.frames.enumerated() {
            guard frame.x >= 0, frame.y >= 0, frame.width >= 0, frame.height >= 0,
                frame.x + frame.width <= 65_535, frame.y + frame.height <= 65_535
            else {
                throw fail("frame \(number) rectangle does not fit GIF's 16-bit sizes")
            }
            guard frame.indices.count == frame.width * frame.height else {
                throw fail("frame \(number) has \(frame.indices.count) indices for a \(frame.width)x\(frame.height) rectangle")
            }
            guard frame.localPalette != nil || animation.globalPalette != nil else {
                throw fail("frame \(number) has no colour table, local or global")
            }
            guard (0...65_535).contains(frame.delayCentiseconds) else {
                throw fail("frame \(number) delay \(frame.delayCentiseconds) does not fit 16 bits")
            }
            try checkPalette(frame.localPalette, "frame \(number) local")
        }
    }
}

/// Heap copies of byte arrays whose pointers C may keep for a whole call; `nil`
/// arrays give `nil` pointers.
private final class PinnedByteArrays {
    let pointers: [UnsafeMutablePointer<UInt8>?]

    init(_ arrays: [[UInt8]?]) {
        pointers = arrays.map { array in
            guard let array else { return nil }
            let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: Swift.max(1, array.count))
            pointer.initialize(from: array, count: array.count)
            return pointer
        }
    }

    deinit {
        for pointer in pointers { pointer?.deallocate() }
    }
}
