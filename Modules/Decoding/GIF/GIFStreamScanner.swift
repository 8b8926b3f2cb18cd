import Foundation
import WebImageCore

/// Follows a GIF's block structure as its bytes arrive, decoding nothing, so that an
/// incremental decoder knows the screen, whether new pixel data for the first frame has
/// come in, and whether the data is already known to be bad or over the limits.
///
/// Resumable: call ``scan(_:options:)`` with the whole buffer after each append; it
/// picks up where it stopped. Colour tables and sub-block payloads are stepped over
/// without being read.
struct GIFStreamScanner {
    /// The logical screen, once the screen descriptor has arrived.
    private(set) var screen: PixelSize?
    /// Whether the first frame is interlaced, once its descriptor has arrived.
    private(set) var firstFrameInterlaced: Bool?
    /// Image descriptors seen so far.
    private(set) var frameCount = 0
    /// Data sub-blocks of the first frame received whole.
    private(set) var firstFrameBlocks = 0
    /// Payload bytes of those sub-blocks.
    private(set) var firstFrameDataBytes = 0
    /// Where the records start: after the screen descriptor and the global table.
    private(set) var recordsStart: Int?
    /// Where the first image descriptor starts, once it has arrived.
    private(set) var firstImageOffset: Int?
    /// The last graphic control extension before the first image (the one it uses).
    private(set) var firstGraphicControl: Range<Int>?
    /// Whether the first frame's data has arrived up to its block terminator.
    private(set) var firstFrameComplete = false

    private enum State {
        case header, record, extensionLabel, imageDescriptor, codeSize
        case dataBlocks(image: Bool)
        case trailer
    }

    private var state = State.header
    private var offset = 0
    /// Where the extension being read started, and whether it is a graphic control.
    private var extensionStart = 0
    private var extensionIsGraphicControl = false

    /// Advances over the bytes of `data` not yet scanned.
    ///
    /// - Throws: ``ImageDecodingError/Code/invalidHeader`` for a bad signature,
    ///   ``ImageDecodingError/Code/invalidDimensions`` for a zero-sized screen,
    ///   ``ImageDecodingError/Code/tooLarge`` as the limits of ``GIFSurvey`` are passed,
    ///   ``ImageDecodingError/Code/corrupt`` for an unknown record.
    mutating func scan(_ data: Data, options: DecodeOptions) throws(ImageDecodingError) {
        func byte(_ index: Int) -> Int { Int(data[data.startIndex + index]) }
        func word(_ index: Int) -> Int { byte(index) | byte(index + 1) << 8 }
        while true {
            let available = data.count - offset
            switch state {
            case .header:
                guard available >= 3 else { return }
                guard GIFSignature.canBegin(data) else {
                    throw ImageDecodingError(.invalidHeader, "no GIF87a/GIF89a signature", format: .gif)
                }
                guard available >= 13 else { return }
                let size = PixelSize(width: word(6), height: word(8))
                guard size.width > 0, size.height > 0 else {
                    throw ImageDecodingError(.invalidDimensions, "the GIF logical screen is \(size)", format: .gif)
                }
                try options.checkPixelCount(size.pixelCount, "the GIF logical screen \(size)")
                screen = size
                offset = 13 + GIFStreamScanner.colorTableSize(flags: byte(10))
                recordsStart = offset
                state = .record
            case .record:
                guard available >= 1 else { return }
                switch byte(offset) {
                case 0x21:
                    extensionStart = offset
                    state = .extensionLabel
                case 0x2C:
                    if firstImageOffset == nil { firstImageOffset = offset }
                    state = .imageDescriptor
                case 0x3B: state = .trailer
                case let other:
                    throw ImageDecodingError(
                        .corrupt, "unknown GIF record type 0x\(String(other, radix: 16)) at byte \(offset)", format: .gif)
                }
                offset += 1
            case .extensionLabel:
                guard available >= 1 else { return }
                extensionIsGraphicControl = byte(offset) == 0xF9
                offset += 1
                state = .dataBlocks(image: false)
            case .imageDescriptor:
                guard available >= 9 else { return }
                frameCount += 1
                let interlaced = byte(offset + 8) & 0x40 != 0
                if frameCount == 1 { firstFrameInterlaced = interlaced }
                if frameCount == 1 || !options.firstFrameOnly, let screen {
                    try options.checkFrameCount(frameCount)
                    let rect = PixelSize(width: word(offset + 4), height: word(offset + 6))
                    try options.checkPixelCount(rect.pixelCount, "GIF frame \(frameCount - 1) (\(rect))")
                    let (total, overflow) = screen.pixelCount.multipliedReportingOverflow(by: frameCount)
                    try options.checkPixelCount(overflow ? Int.max : total, "\(frameCount) GIF frames of \(screen)")
                }
                offset += 9 + GIFStreamScanner.colorTableSize(flags: byte(offset + 8))
                state = .codeSize
            case .codeSize:
                guard available >= 1 else { return }
                offset += 1
                state = .dataBlocks(image: true)
            case .dataBlocks(let image):
                guard available >= 1 else { return }
                let length = byte(offset)
                let isFirstFrame = image && frameCount == 1
                if length == 0 {
                    offset += 1
                    if isFirstFrame { firstFrameComplete = true }
                    if !image && extensionIsGraphicControl && frameCount == 0 {
                        firstGraphicControl = extensionStart..<offset
                    }
                    state = .record
                } else {
                    guard available >= 1 + length else { return }
                    offset += 1 + length
                    if isFirstFrame {
                        firstFrameBlocks += 1
                        firstFrameDataBytes += length
                    }
                }
            case .trailer:
                return
            }
        }
    }

    /// Bytes of the colour table a screen or image descriptor's packed `flags` announce.
    private static func colorTableSize(flags: Int) -> Int {
        flags & 0x80 != 0 ? 3 << ((flags & 0x07) + 1) : 0
    }
}
