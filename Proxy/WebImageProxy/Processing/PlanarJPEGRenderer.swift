internal import CProxyTurboJPEG
import Foundation
import WebImageCore
import WebImageDecoding

/// A JPEG made into a smaller JPEG without leaving YCbCr.
///
/// libjpeg-turbo decodes the source's planes at the DCT scale that still covers the
/// target (as the decoder does for RGBA). Each plane is then resampled on its own with
/// the decoders' resampler: luma to the target, chroma to the half-size planes of the
/// 4:2:0 output. The planes are compressed as they are. The RGBA path converts every
/// pixel from YCbCr and upsamples the chroma, resamples four bytes a pixel, then
/// converts back and subsamples again; the planes skip all of that and resample 1.5
/// bytes a pixel.
///
/// Returns `nil`, and the caller takes the RGBA path, when:
/// - the source is not a YCbCr JPEG (gray, CMYK, YCCK);
/// - the source's chroma is coarser than the output's (4:1:1);
/// - libjpeg-turbo reports anything at all, a warning included. The RGBA path has its
///   own answer for damaged files.
///
/// Progressive sources are read with libjpeg-turbo's scan limit (`TJFLAG_LIMITSCANS`),
/// so a file of many tiny scans fails here and goes to the RGBA path, which has its
/// own limit. The caller has checked the header against the proxy's limits before.
enum PlanarJPEGRenderer {
    /// The JPEG of `data` at `target` (which the source covers), 4:2:0 at `quality`, or
    /// `nil` as above.
    static func render(_ data: Data, to target: PixelSize, quality: Int) -> Data? {
        guard !data.isEmpty, target.width > 0, target.height > 0, target.width <= 65_535, target.height <= 65_535,
            let decompressor = tjInitDecompress()
        else { return nil }
        defer { tjDestroy(decompressor) }
        return data.withUnsafeBytes { (bytes) -> Data? in
            let source = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let sampling = Int32(TJSAMP_420.rawValue)
            let lumaPlane = PixelSize(
                width: Int(tjPlaneWidth(0, Int32(target.width), sampling)), height: Int(tjPlaneHeight(0, Int32(target.height), sampling)))
            let chromaPlane = PixelSize(
                width: Int(tjPlaneWidth(1, Int32(target.width), sampling)), height: Int(tjPlaneHeight(1, Int32(target.height), sampling)))
            guard let planes = decode(source, count: bytes.count, covering: target, with: decompressor),
                planes.blue.width >= chromaPlane.width, planes.blue.height >= chromaPlane.height,
                let luma = try? extended(resampled(planes.luma, to: target), to: lumaPlane, mirrored: false)
            else { return nil }
            // A chroma sample covers two luma samples of the output, so for an odd side
            // its last one reaches past the image, where the encoder repeats the last
            // luma sample. Its source is extended to match (by a sample in about
            // `target` of them, mirrored: the repeated luma sample stands for the source
            // just inside the edge), so chroma keeps luma's scale exactly; scaled
            // straight to the smaller count, it drifted by up to two thirds of a sample
            // by the far edge.
            func chroma(_ plane: ImageBitmap) throws(ImageDecodingError) -> ImageBitmap {
                let reach = PixelSize(
                    width: Int((Double(plane.width) * Double(2 * chromaPlane.width) / Double(target.width)).rounded()),
                    height: Int((Double(plane.height) * Double(2 * chromaPlane.height) / Double(target.height)).rounded()))
                return try resampled(try extended(plane, to: reach, mirrored: true), to: chromaPlane)
            }
            guard let blue = try? chroma(planes.blue), let red = try? chroma(planes.red) else { return nil }
            return compress(luma: luma, blue: blue, red: red, size: target, quality: quality)
        }
    }

    /// The decoded planes, each a gray bitmap of its own valid size.
    private struct Planes {
        var luma: ImageBitmap
        var blue: ImageBitmap
        var red: ImageBitmap
    }

    private static func decode(
        _ source: UnsafePointer<UInt8>, count: Int, covering target: PixelSize, with handle: tjhandle
    ) -> Planes? {
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
        func scaled(_ eighths: Int) -> PixelSize {
            PixelSize(width: (stored.width * eighths + 7) / 8, height: (stored.height * eighths + 7) / 8)
        }
        guard
            let eighths = (1...8).first(where: { scaled($0).width >= target.width && scaled($0).height >= target.height })
        else { return nil }
        let size = scaled(eighths)
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
        return Planes(
            luma: plane(0, width: size.width, height: size.height),
            blue: plane(1, width: Int(strides[1]), height: Int(heights[1])),
            red: plane(2, width: Int(strides[2]), height: Int(heights[2])))
    }

    /// `plane` at `size` (the decoders' resampler: area averaging from 2x, Catmull-Rom
    /// below), or `plane` itself when it is that size already.
    private static func resampled(_ plane: ImageBitmap, to size: PixelSize) throws(ImageDecodingError) -> ImageBitmap {
        guard plane.size != size else { return plane }
        let image = DecodedImage(format: .jpeg, frames: [ImageFrame(bitmap: plane)])
        return try ResizeTransformer(width: size.width, height: size.height, mode: .stretch).transform(image).bitmap
    }

    /// `plane` at least `size` (at most twice its own), the new columns and rows filled
    /// from the edge: the last one repeated (TurboJPEG reads luma in whole MCUs, and
    /// pads as the encoder does), or the ones inside it mirrored. `plane` itself when it
    /// covers `size` already.
    private static func extended(_ plane: ImageBitmap, to size: PixelSize, mirrored: Bool) throws(ImageDecodingError) -> ImageBitmap {
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

    /// The 4:2:0 JPEG of the three planes (luma padded to whole MCUs).
    private static func compress(luma: ImageBitmap, blue: ImageBitmap, red: ImageBitmap, size: PixelSize, quality: Int) -> Data? {
        guard let compressor = tjInitCompress() else { return nil }
        defer { tjDestroy(compressor) }
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize: UInt = 0
        let status = luma.withUnsafeBytes { y in
            blue.withUnsafeBytes { u in
                red.withUnsafeBytes { v in
                    var planes: [UnsafePointer<UInt8>?] = [y, u, v].map { $0.baseAddress?.assumingMemoryBound(to: UInt8.self) }
                    var strides = [luma, blue, red].map { Int32($0.bytesPerRow) }
                    return tjCompressFromYUVPlanes(
                        compressor, &planes, Int32(size.width), &strides, Int32(size.height), Int32(TJSAMP_420.rawValue),
                        &output, &outputSize, Int32(min(100, max(1, quality))), 0)
                }
            }
        }
        guard status == 0, let output else {
            if let output { tjFree(output) }
            return nil
        }
        // The buffer is TurboJPEG's; Data takes it over and gives it back to tjFree.
        return Data(
            bytesNoCopy: output, count: Int(outputSize),
            deallocator: .custom { pointer, _ in tjFree(pointer.assumingMemoryBound(to: UInt8.self)) })
    }
}
