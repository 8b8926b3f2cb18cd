import Foundation
import WebImageCore

/// The animation of an APNG file, read from its chunk list alone: the `acTL` chunk, and
/// each frame's `fcTL` control and data (the `IDAT` chunks for a frame that is the
/// default image, `fdAT` chunks otherwise).
///
/// Reading is one linear pass over the chunks. Anything wrong with the animation makes
/// the file not an animation here (`nil`), and it decodes as the still PNG it also is,
/// which is what browsers show for such files: `acTL` after `IDAT` or twice, a frame
/// count of 0 or one that does not match the `fcTL` chunks, a sequence number out of
/// order, a frame outside the canvas, a frame before `IDAT` that is not the whole
/// canvas, a frame without data, an unknown dispose or blend operation, a bad CRC on
/// an animation chunk, or a file that ends before its last frame.
struct APNGStructure {
    /// One frame's control and where its compressed data is.
    struct Frame {
        var width: Int
        var height: Int
        var x: Int
        var y: Int
        /// The delay as written: `delayNumerator / delayDenominator` seconds, 100 when
        /// the denominator is 0.
        var delayNumerator: Int
        var delayDenominator: Int
        /// 0 none, 1 background (clear to transparent), 2 previous (restore).
        var dispose: UInt8
        /// 0 source (replace), 1 over (composite).
        var blend: UInt8
        /// The frame is the default image: its data is the `IDAT` chunks.
        var isDefaultImage: Bool
        /// The zlib data of the frame: payloads of its `fdAT` chunks without their
        /// sequence numbers, or of the `IDAT` chunks.
        var data: [Range<Int>]

        var delay: Duration {
            let denominator = delayDenominator == 0 ? 100 : delayDenominator
            return .nanoseconds(Int64(delayNumerator) * 1_000_000_000 / Int64(denominator))
        }
    }

    /// The canvas: IHDR's size.
    let canvas: PixelSize
    /// How many times the animation plays; 0 forever.
    let plays: Int
    let frames: [Frame]
    /// The 13 bytes of IHDR's data.
    let header: Range<Int>
    /// Whole chunks (length, type, data, CRC) that a frame's file needs beside IHDR and
    /// its data: PLTE and tRNS.
    let paletteChunks: [Range<Int>]
    /// The data of the first eXIf chunk whose CRC is right: the orientation.
    let exif: Range<Int>?

    /// Whether the file animates: more than one frame, or one frame that is not the
    /// default image (then the default image is hidden and that frame is shown).
    var isAnimated: Bool { frames.count > 1 || frames.first?.isDefaultImage == false }

    /// The animation in `data`, or `nil` when `data` has no `acTL` before its first
    /// `IDAT` or any of its animation chunks is wrong (see the type's discussion).
    init?(_ data: Data) {
        HeaderParseLog.record(.png)
        guard let parsed = data.withUnsafeBytes({ APNGStructure.parse($0) }) else { return nil }
        self = parsed
    }

    private init(canvas: PixelSize, plays: Int, frames: [Frame], header: Range<Int>, paletteChunks: [Range<Int>], exif: Range<Int>?) {
        self.canvas = canvas
        self.plays = plays
        self.frames = frames
        self.header = header
        self.paletteChunks = paletteChunks
        self.exif = exif
    }

    /// The EXIF orientation of `file` (the file this was read from).
    func orientation(in file: Data) -> ImageOrientation {
        guard let exif else { return .up }
        return file.withUnsafeBytes { bytes in
            ExifOrientation.read(tiff: UnsafeRawBufferPointer(rebasing: bytes[exif]).bindMemory(to: UInt8.self))
        }
    }

    private static func parse(_ bytes: UnsafeRawBufferPointer) -> APNGStructure? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 8 + 25, bytes.prefix(8).elementsEqual(signature) else { return nil }
        func u32(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
        func u16(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
        func crcMatches(_ start: Int, _ length: Int) -> Bool {
            let computed = CRC32.update(0, UnsafeRawBufferPointer(rebasing: bytes[(start + 4)..<(start + 8 + length)]))
            return computed == UInt32(u32(start + 8 + length))
        }
        var position = 8
        var canvas: PixelSize?
        var header: Range<Int>?
        var control: (frames: Int, plays: Int)?
        var seenIDAT = false
        var idat: [Range<Int>] = []
        var frames: [Frame] = []
        var paletteChunks: [Range<Int>] = []
        var exif: Range<Int>?
        var sequence = 0
        var ended = false
        while position + 12 <= bytes.count {
            let length = u32(position)
            guard length <= 0x7FFF_FFFF, position + 12 + length <= bytes.count else { return nil }
            let type = (bytes[position + 4], bytes[position + 5], bytes[position + 6], bytes[position + 7])
            let body = position + 8
            switch type {
            case (0x49, 0x48, 0x44, 0x52):  // IHDR
                guard canvas == nil, length == 13 else { return nil }
                canvas = PixelSize(width: u32(body), height: u32(body + 4))
                header = body..<(body + 13)
            case (0x61, 0x63, 0x54, 0x4C):  // acTL
                guard control == nil, !seenIDAT, length == 8, crcMatches(position, length) else { return nil }
                let count = u32(body)
                guard count > 0, count <= 0x7FFF_FFFF else { return nil }
                control = (count, u32(body + 4))
            case (0x66, 0x63, 0x54, 0x4C):  // fcTL
                guard let canvas, control != nil, length == 26, crcMatches(position, length), u32(body) == sequence else { return nil }
                sequence += 1
                let frame = Frame(
                    width: u32(body + 4), height: u32(body + 8), x: u32(body + 12), y: u32(body + 16),
                    delayNumerator: u16(body + 20), delayDenominator: u16(body + 22),
                    dispose: bytes[body + 24], blend: bytes[body + 25], isDefaultImage: !seenIDAT, data: [])
                guard frame.width > 0, frame.height > 0, frame.x + frame.width <= canvas.width, frame.y + frame.height <= canvas.height,
                    frame.dispose <= 2, frame.blend <= 1
                else { return nil }
                if frame.isDefaultImage {
                    guard frame.x == 0, frame.y == 0, frame.width == canvas.width, frame.height == canvas.height, frames.isEmpty
                    else { return nil }
                }
                frames.append(frame)
            case (0x49, 0x44, 0x41, 0x54):  // IDAT
                // No acTL before the image data: a plain PNG, read no further.
                guard control != nil else { return nil }
                seenIDAT = true
                idat.append(body..<(body + length))
            case (0x66, 0x64, 0x41, 0x54):  // fdAT
                guard seenIDAT, length >= 4, crcMatches(position, length), u32(body) == sequence,
                    let last = frames.indices.last, !frames[last].isDefaultImage
                else { return nil }
                sequence += 1
                frames[last].data.append((body + 4)..<(body + length))
            case (0x50, 0x4C, 0x54, 0x45), (0x74, 0x52, 0x4E, 0x53):  // PLTE, tRNS
                if !seenIDAT { paletteChunks.append(position..<(body + length + 4)) }
            case (0x65, 0x58, 0x49, 0x66):  // eXIf
                if exif == nil, crcMatches(position, length) { exif = body..<(body + length) }
            case (0x49, 0x45, 0x4E, 0x44):  // IEND
                ended = true
            default:
                break
            }
            if ended { break }
            position = body + length + 4
        }
        guard let canvas, let header, let control, seenIDAT, frames.count == control.frames else { return nil }
        if frames[0].isDefaultImage { frames[0].data = idat }
        guard frames.allSatisfy({ !$0.data.isEmpty }) else { return nil }
        return APNGStructure(
            canvas: canvas, plays: control.plays, frames: frames, header: header, paletteChunks: paletteChunks, exif: exif)
    }
}
