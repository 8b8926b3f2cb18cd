internal import CGIFLib
import Foundation
import WebImageCore

/// One GIF being written into memory by giflib's EGif API: the screen, the loop
/// extension, then frame after frame, each with its own colour table.
///
/// Owns the giflib handle and closes it once (``finish()`` or `deinit`). Not `Sendable`:
/// one encode owns it.
final class GIFFileWriter {
    private var file: UnsafeMutablePointer<GifFileType>?
    private let output: GIFOutput

    /// Opens a GIF89a of a `width` x `height` screen, with no global colour table.
    init(width: Int, height: Int) throws(ImageDecodingError) {
        output = GIFOutput()
        var error: Int32 = 0
        guard let file = EGifOpen(Unmanaged.passUnretained(output).toOpaque(), gifOutputWrite, &error) else {
            throw Self.error("giflib could not start a file", code: error)
        }
        self.file = file
        EGifSetGifVersion(file, true)
        guard EGifPutScreenDesc(file, Int32(width), Int32(height), 8, 0, nil) == GIF_OK else {
            throw Self.error("giflib could not write the screen", code: file.pointee.Error)
        }
    }

    deinit {
        if let file { EGifCloseFile(file, nil) }
    }

    /// The NETSCAPE2.0 application extension: play `loopCount` times (0 forever).
    func writeLoopCount(_ loopCount: Int) throws(ImageDecodingError) {
        let file = try openFile()
        let identifier = Array("NETSCAPE2.0".utf8)
        let count = UInt16(clamping: loopCount)
        let loop: [UInt8] = [1, UInt8(count & 0xFF), UInt8(count >> 8)]
        guard EGifPutExtensionLeader(file, APPLICATION_EXT_FUNC_CODE) == GIF_OK,
            EGifPutExtensionBlock(file, Int32(identifier.count), identifier) == GIF_OK,
            EGifPutExtensionBlock(file, Int32(loop.count), loop) == GIF_OK,
            EGifPutExtensionTrailer(file) == GIF_OK
        else { throw Self.error("giflib could not write the loop extension", code: file.pointee.Error) }
    }

    /// One full-screen frame: `indices` (`width * height`, rows packed) into `palette`
    /// (RGB triples, 1 to 256), shown for `centiseconds`, cleared to transparent before
    /// the next frame (so that a frame's transparent pixels never show the one before).
    func writeFrame(
        width: Int, height: Int, indices: UnsafeMutableBufferPointer<UInt8>, palette: [UInt8], transparentIndex: UInt8?,
        centiseconds: Int
    ) throws(ImageDecodingError) {
        let file = try openFile()
        var control = GraphicsControlBlock()
        control.DisposalMode = DISPOSE_BACKGROUND
        control.UserInputFlag = false
        control.DelayTime = Int32(centiseconds)
        control.TransparentColor = transparentIndex.map { Int32($0) } ?? NO_TRANSPARENT_COLOR
        var extensionBytes = [GifByteType](repeating: 0, count: 4)
        let length = EGifGCBToExtension(&control, &extensionBytes)
        guard EGifPutExtension(file, GRAPHICS_EXT_FUNC_CODE, Int32(length), extensionBytes) == GIF_OK else {
            throw Self.error("giflib could not write a frame's control block", code: file.pointee.Error)
        }
        // A colour table has a power of two entries, at least 2: padded with black.
        var entries = 2
        while entries < palette.count / 3 { entries *= 2 }
        var colors = [GifColorType](repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: entries)
        for entry in 0..<palette.count / 3 {
            colors[entry] = GifColorType(Red: palette[entry * 3], Green: palette[entry * 3 + 1], Blue: palette[entry * 3 + 2])
        }
        guard let map = GifMakeMapObject(Int32(entries), colors) else {
            throw ImageDecodingError(.outOfMemory, "giflib could not make a colour table", format: .gif)
        }
        // giflib copies the table into the file's image descriptor.
        defer { GifFreeMapObject(map) }
        guard EGifPutImageDesc(file, 0, 0, Int32(width), Int32(height), false, map) == GIF_OK else {
            throw Self.error("giflib could not write a frame's descriptor", code: file.pointee.Error)
        }
        for row in 0..<height {
            guard EGifPutLine(file, indices.baseAddress! + row * width, Int32(width)) == GIF_OK else {
                throw Self.error("giflib could not write a frame's pixels", code: file.pointee.Error)
            }
        }
    }

    /// Closes the file and returns its bytes.
    func finish() throws(ImageDecodingError) -> Data {
        let file = try openFile()
        self.file = nil
        var error: Int32 = 0
        guard EGifCloseFile(file, &error) == GIF_OK else { throw Self.error("giflib could not end the file", code: error) }
        return output.data
    }

    private func openFile() throws(ImageDecodingError) -> UnsafeMutablePointer<GifFileType> {
        guard let file else { throw ImageDecodingError(.encodingFailed, "the GIF is already closed", format: .gif) }
        return file
    }

    private static func error(_ message: String, code: Int32) -> ImageDecodingError {
        let detail = GifErrorString(code).map { String(cString: $0) } ?? "error \(code)"
        return ImageDecodingError(.encodingFailed, "\(message): \(detail)", format: .gif)
    }
}

/// Where giflib's output goes: grown as giflib writes.
private final class GIFOutput {
    var data = Data()
}

/// giflib's output function: appends to the `GIFOutput` the file's user data points at.
private func gifOutputWrite(file: UnsafeMutablePointer<GifFileType>?, bytes: UnsafePointer<GifByteType>?, count: Int32) -> Int32 {
    guard let file, let userData = file.pointee.UserData, let bytes, count >= 0 else { return 0 }
    Unmanaged<GIFOutput>.fromOpaque(userData).takeUnretainedValue().data.append(bytes, count: Int(count))
    return count
}
