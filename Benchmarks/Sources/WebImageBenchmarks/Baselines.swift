import CBaselines
import Foundation
import WebImageCore

/// The bare C calls, writing into the same kind of buffer our decoders use.
enum Baseline {
    /// Where a baseline's output buffers come from.
    enum Buffers {
        /// `PixelStorage(uninitializedByteCount:)`, as our decoders allocate: 2 MiB
        /// aligned and `MADV_HUGEPAGE` for large sizes.
        case pixelStorage
        /// Plain `malloc`, to show what first-touch page faults cost without huge pages.
        case malloc
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Holds the storages a baseline allocated until the decode is over.
    private final class Sink {
        var storages: [PixelStorage] = []
    }

    private static let allocateStorage: bl_allocator = { context, byteCount in
        guard let context, let storage = PixelStorage(uninitializedByteCount: byteCount) else { return nil }
        Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue().storages.append(storage)
        return storage.withUnsafeMutableBytes { $0.baseAddress }
    }

    /// Runs `decode` with the chosen buffers; returns (width, height, result).
    static func run(
        _ name: String, _ buffers: Buffers,
        _ decode: (bl_allocator?, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>) -> Int32
    ) throws -> (width: Int, height: Int, result: Int) {
        try runKeeping(name, buffers, decode).result
    }

    /// ``run`` that also hands back the buffers the baseline filled.
    static func runKeeping(
        _ name: String, _ buffers: Buffers,
        _ decode: (bl_allocator?, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>) -> Int32
    ) throws -> (result: (width: Int, height: Int, result: Int), storages: [PixelStorage]) {
        let sink = Sink()
        var width: Int32 = 0
        var height: Int32 = 0
        let result = withExtendedLifetime(sink) {
            switch buffers {
            case .pixelStorage: decode(allocateStorage, Unmanaged.passUnretained(sink).toOpaque(), &width, &height)
            case .malloc: decode(nil, nil, &width, &height)
            }
        }
        guard result >= 0 else { throw Failure(description: "\(name) failed") }
        return ((Int(width), Int(height), Int(result)), sink.storages)
    }

    /// The RGBA bytes of the first buffer a baseline filled (the image, or a GIF's
    /// first frame), for checking that ours decodes the same pixels.
    static func firstImagePixels(_ format: String, _ data: Data) throws -> [UInt8] {
        let (out, storages) = try data.withUnsafeBytes { bytes in
            try runKeeping(format, .pixelStorage) { allocate, context, width, height in
                let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
                return switch format {
                case "png": bl_png_decode(base, bytes.count, allocate, context, width, height)
                case "gif": bl_gif_decode(base, bytes.count, allocate, context, width, height)
                default: bl_jpeg_decode(base, bytes.count, 1, allocate, context, width, height)
                }
            }
        }
        guard let first = storages.first else { return [] }
        return first.withUnsafeBytes { Array($0.prefix(out.width * out.height * 4)) }
    }

    @discardableResult
    static func jpeg(_ data: Data, scaleDenominator: Int32 = 1, buffers: Buffers = .pixelStorage) throws -> (width: Int, height: Int) {
        let out = try data.withUnsafeBytes { bytes in
            try run("tjDecompress2", buffers) { allocate, context, width, height in
                bl_jpeg_decode(
                    bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, scaleDenominator, allocate, context, width, height)
            }
        }
        return (out.width, out.height)
    }

    @discardableResult
    static func png(_ data: Data, buffers: Buffers = .pixelStorage) throws -> (width: Int, height: Int) {
        let out = try data.withUnsafeBytes { bytes in
            try run("png_image_finish_read", buffers) { allocate, context, width, height in
                bl_png_decode(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, allocate, context, width, height)
            }
        }
        return (out.width, out.height)
    }

    /// Returns the frame count too.
    @discardableResult
    static func gif(_ data: Data, buffers: Buffers = .pixelStorage) throws -> (width: Int, height: Int, frames: Int) {
        let out = try data.withUnsafeBytes { bytes in
            try run("DGifSlurp", buffers) { allocate, context, width, height in
                bl_gif_decode(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, allocate, context, width, height)
            }
        }
        return (out.width, out.height, out.result)
    }
}

extension Baseline {
    /// libwebp's still decode, full size or scaled to `scaledTo`.
    @discardableResult
    static func webp(_ data: Data, scaledTo size: (width: Int, height: Int)? = nil) throws -> (width: Int, height: Int) {
        let out = try data.withUnsafeBytes { bytes in
            try run("WebPDecode", .pixelStorage) { allocate, context, width, height in
                bl_webp_decode(
                    bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, Int32(size?.width ?? 0), Int32(size?.height ?? 0),
                    allocate, context, width, height)
            }
        }
        return (out.width, out.height)
    }

    /// libwebp's animation decoder, every frame copied out; returns the frame count too.
    @discardableResult
    static func webpAnimation(_ data: Data) throws -> (width: Int, height: Int, frames: Int) {
        let out = try data.withUnsafeBytes { bytes in
            try run("WebPAnimDecoder", .pixelStorage) { allocate, context, width, height in
                bl_webp_animation_decode(
                    bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, allocate, context, width, height)
            }
        }
        return (out.width, out.height, out.result)
    }
}

/// Calls `body` with the URLs as a C array of C strings (what the libcurl baselines
/// take), freed afterwards.
func withCStrings<R>(_ urls: [URL], _ body: (UnsafePointer<UnsafePointer<CChar>?>?, Int32) -> R) -> R {
    let strings = urls.map { strdup($0.absoluteString) }
    defer { for string in strings { free(string) } }
    let pointers = strings.map { UnsafePointer($0) }
    return pointers.withUnsafeBufferPointer { buffer in body(buffer.baseAddress, Int32(urls.count)) }
}
