internal import CLibTurboJPEG
import Foundation
import WebImageCore
internal import WebImageDecoding

/// A YCbCr JPEG's three planes, decoded at a DCT scale by TurboJPEG, and what
/// ``PlanarJPEGThumbnailer`` does to each: each plane is a gray bitmap of its own valid
/// size.
struct JPEGPlanes {
    var luma: ImageBitmap
    var blue: ImageBitmap
    var red: ImageBitmap

    /// The planes of the YCbCr JPEG at `source` at the smallest DCT scale that covers
    /// `target`, or `nil`: not YCbCr, a source of more than `maxPixelCount` pixels, no
    /// scale that covers, or anything libjpeg-turbo reports (warnings included).
    static func decode(
        _ source: UnsafePointer<UInt8>, count: Int, covering target: PixelSize, maxPixelCount: Int, with handle: tjhandle
    ) -> JPEGPlanes? {
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        guard tjDecompressHeader3(handle, source, UInt(count), &width, &height, &subsampling, &colorspace) == 0,
            colorspace == Int32(TJCS_YCbCr.rawValue),
            [TJSAMP_444, TJSAMP_422, TJSAMP_420, TJSAMP_440, TJSAMP_411].contains(where: { Int32($0.rawValue) == subsampling })
        else { return nil }
        // The smallest M/8 whose scaled size covers the target, as the JPEG decoder picks.
        let stored = PixelSize(width: Int(width), height: Int(height))
        guard stored.pixelCount <= maxPixelCount, let eighths = JPEGScalePlan.coveringEighths(of: stored, covering: target)
        else { return nil }
        let size = JPEGScalePlan.scaled(stored, eighths: eighths)
        let (w, h) = (Int32(size.width), Int32(size.height))
        // Plane buffers as TurboJPEG lays them out (luma padded to whole MCUs); each
        // bitmap shows only the samples the image has.
        let strides = [tjPlaneWidth(0, w, subsampling), tjPlaneWidth(1, w, subsampling), tjPlaneWidth(2, w, subsampling)]
        let heights = [tjPlaneHeight(0, h, subsampling), tjPlaneHeight(1, h, subsampling), tjPlaneHeight(2, h, subsampling)]
        guard strides.allSatisfy({ $0 > 0 }), heights.allSatisfy({ $0 > 0 }) else { return nil }
        let storages = (0..<3).compactMap { PixelStorage(uninitializedByteCount: Int(strides[$0]) * Int(heights[$0])) }
        guard storages.count == 3 else { return nil }
        let status = storages[0].withUnsafeMutableBytes { y in
            storages[1].withUnsafeMutableBytes { u in
                storages[2].withUnsafeMutableBytes { v in
                    var planes: [UnsafeMutablePointer<UInt8>?] = [y, u, v].map { $0.baseAddress?.assumingMemoryBound(to: UInt8.self) }
                    var planeStrides = strides
                    return tjDecompressToYUVPlanes(
                        handle, source, UInt(count), &planes, w, &planeStrides, h, TJFLAG_LIMITSCANS | TJFLAG_STOPONWARNING)
                }
            }
        }
        guard status == 0 else { return nil }
        func plane(_ index: Int, width: Int, height: Int) -> ImageBitmap {
            ImageBitmap(width: width, height: height, pixelFormat: .gray8, bytesPerRow: Int(strides[index]), storage: storages[index])
        }
        return JPEGPlanes(
            luma: plane(0, width: size.width, height: size.height),
            blue: plane(1, width: Int(strides[1]), height: Int(heights[1])),
            red: plane(2, width: Int(strides[2]), height: Int(heights[2])))
    }

    /// `plane` at `size` (the decoders' resampler: area averaging from 2x, Catmull-Rom
    /// below), or `plane` itself when it is that size already.
    static func resampled(_ plane: ImageBitmap, to size: PixelSize) throws(ImageDecodingError) -> ImageBitmap {
        guard plane.size != size else { return plane }
        let image = DecodedImage(format: .jpeg, frames: [ImageFrame(bitmap: plane)])
        return try ResizeTransformer(width: size.width, height: size.height, mode: .stretch).transform(image).bitmap
    }

    /// `plane` at least `size` (at most twice its own), the new columns and rows filled
    /// from the edge: the last one repeated (TurboJPEG reads luma in whole MCUs, and
    /// pads as the encoder does), or the ones inside it mirrored. `plane` itself when it
    /// covers `size` already.
    static func extended(_ plane: ImageBitmap, to size: PixelSize, mirrored: Bool) throws(ImageDecodingError) -> ImageBitmap {
        let width = min(max(size.width, plane.width), 2 * plane.width)
        let height = min(max(size.height, plane.height), 2 * plane.height)
        guard width != plane.width || height != plane.height else { return plane }
        // The source index of an index past the edge.
        func inside(_ index: Int, _ count: Int) -> Int {
            index < count ? index : mirrored ? max(0, 2 * count - 1 - index) : count - 1
        }
        return try plane.withUnsafeBytes { (source) throws(ImageDecodingError) -> ImageBitmap in
            try ImageBitmap(width: width, height: height, pixelFormat: .gray8) { out, stride in
                let from = source.baseAddress!.assumingMemoryBound(to: UInt8.self)
                let to = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
                for y in 0..<height {
                    let row = from + inside(y, plane.height) * plane.bytesPerRow
                    let line = to + y * stride
                    line.update(from: row, count: plane.width)
                    for x in plane.width..<width { line[x] = row[inside(x, plane.width)] }
                }
            }
        }
    }
}
