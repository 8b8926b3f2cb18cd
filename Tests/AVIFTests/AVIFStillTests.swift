import CLibAVIF
import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageFixtures
import WebImageTestSupport

@testable import WebImageAVIF

/// Still AVIF files, made at test time with libavif's encoder (libaom).
@Suite("AVIFDecoder: still images")
struct AVIFStillTests {
    @Test("a lossless file decodes to exactly the pixels encoded, alpha included")
    func losslessRoundTrip() throws {
        for source in [try AVIFTestImages.translucent(), try AVIFTestImages.photo(width: 33, height: 17)] {
            let data = try AVIFEncoder(lossless: true).encode(source)
            let image = try AVIFDecoder().decode(data)
            #expect(image.format == .avif)
            #expect(image.size == source.size)
            #expect(image.frames.count == 1)
            #expect(image.frames[0].duration == .zero)
            #expect(image.loopCount == 0)
            #expect(image.bitmap.packedBytes == source.packedBytes)
        }
    }

    @Test("a gray bitmap is written as monochrome and comes back exactly, losslessly")
    func grayRoundTrip() throws {
        let source = try SyntheticImage.grayPhoto(width: 45, height: 23)
        let data = try AVIFEncoder(lossless: true).encode(source)
        let gray = try AVIFDecoder().decode(data, options: DecodeOptions(pixelFormat: .gray8))
        #expect(gray.bitmap.pixelFormat == .gray8)
        #expect(gray.bitmap.packedBytes == source.packedBytes)
        let rgba = try AVIFDecoder().decode(data).bitmap.packedBytes
        let colourless = stride(from: 0, to: rgba.count, by: 4).allSatisfy { (index: Int) -> Bool in
            rgba[index] == rgba[index + 1] && rgba[index] == rgba[index + 2]
        }
        #expect(colourless)
    }

    @Test("a lossy file decodes close to the source, opaque pixels with alpha 255")
    func lossyDecode() throws {
        let source = try AVIFTestImages.photo()
        let image = try AVIFDecoder().decode(try AVIFEncoder(quality: 80).encode(source))
        #expect(image.size == source.size)
        #expect(PixelDifference.mean(image.bitmap, source) < 6)
        let bytes = image.bitmap.packedBytes
        #expect(stride(from: 3, to: bytes.count, by: 4).allSatisfy { bytes[$0] == 255 })
    }

    @Test("lower quality writes a smaller file; 4:4:4 a larger one than 4:2:0")
    func qualityAndSubsampling() throws {
        let source = try AVIFTestImages.photo()
        let high = try AVIFEncoder(quality: 90).encode(source)
        let low = try AVIFEncoder(quality: 20).encode(source)
        let full = try AVIFEncoder(quality: 90, subsampling: .s444).encode(source)
        #expect(low.count < high.count)
        #expect(full.count > high.count)
        #expect(AVIFEncoder.quantizer(quality: 0) == 63)
        #expect(AVIFEncoder.quantizer(quality: 100) == 0)
        #expect(AVIFEncoder.quantizer(quality: 60) == 25)
        #expect(AVIFEncoder.quantizer(quality: 500) == 0)
    }

    @Test("maxPixelSize converts in bands and scales as they come, to the size every decoder picks")
    func scaledDecode() throws {
        let source = try AVIFTestImages.photo(width: 400, height: 300)
        let data = try AVIFEncoder(lossless: true).encode(source)
        let image = try AVIFDecoder().decode(data, options: DecodeOptions(maxPixelSize: 100))
        #expect(image.size == PixelSize(width: 100, height: 75))
        #expect(image.sourceSize == source.size)
        let reference = try BoxFilterReference.downsample(source, to: image.size)
        #expect(PixelDifference.mean(image.bitmap, reference) < 6)
        // An odd height ends on a band shorter than the others.
        let odd = try AVIFDecoder().decode(
            try AVIFEncoder(quality: 90).encode(try AVIFTestImages.photo(width: 90, height: 37)),
            options: DecodeOptions(maxPixelSize: 30))
        #expect(odd.size == PixelSize(width: 30, height: 12))
    }

    @Test("irot turns anticlockwise: the stored top-right corner shows at the top left")
    func rotationFollowsTheSpecification() throws {
        let source = try AVIFTestImages.quadrants()
        let data = try AVIFEncoder(lossless: true).encode(source, orientation: .left)
        let stored = try AVIFDecoder().decode(data)
        #expect(stored.orientation == .left)
        #expect(stored.bitmap.packedBytes == source.packedBytes, "pixels as coded")
        let shown = try AVIFDecoder().decode(data, options: DecodeOptions(appliesOrientation: true))
        #expect(shown.size == PixelSize(width: 16, height: 32))
        #expect(shown.orientation == .up)
        #expect(AVIFTestImages.pixel(shown.bitmap, 0, 0) == AVIFTestImages.corners[1])
        #expect(AVIFTestImages.pixel(shown.bitmap, 15, 31) == AVIFTestImages.corners[2])
    }

    @Test("imir mode 1 exchanges left and right; mode 0 top and bottom")
    func mirrorFollowsTheSpecification() throws {
        let source = try AVIFTestImages.quadrants()
        let leftRight = try AVIFDecoder().decode(
            try AVIFEncoder(lossless: true).encode(source, orientation: .upMirrored), options: DecodeOptions(appliesOrientation: true))
        #expect(AVIFTestImages.pixel(leftRight.bitmap, 0, 0) == AVIFTestImages.corners[1])
        let topBottom = try AVIFDecoder().decode(
            try AVIFEncoder(lossless: true).encode(source, orientation: .downMirrored), options: DecodeOptions(appliesOrientation: true))
        #expect(AVIFTestImages.pixel(topBottom.bitmap, 0, 0) == AVIFTestImages.corners[2])
    }

    @Test(
        "every orientation written is the orientation read",
        arguments: [
            ImageOrientation.up, .upMirrored, .down, .downMirrored, .leftMirrored, .right, .rightMirrored, .left,
        ])
    func orientationRoundTrip(_ orientation: ImageOrientation) throws {
        let data = try AVIFEncoder(quality: 70).encode(try AVIFTestImages.quadrants(), orientation: orientation)
        #expect(try AVIFDecoder().decode(data).orientation == orientation)
        #expect(AVIFTransform.orientation(quarterTurnsAnticlockwise: 0, mirrorMode: nil) == .up)
    }

    @Test("the header carries the Exif item's TIFF block, which ExifFields reads")
    func exifItem() throws {
        // A big-endian TIFF header, IFD0 with one entry (Make, ASCII, 8 bytes at offset 26).
        var tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 1, 0x01, 0x0F, 0, 2, 0, 0, 0, 8, 0, 0, 0, 26, 0, 0, 0, 0]
        tiff += Array("TestCam".utf8) + [0]
        let photo = try AVIFTestImages.photo(width: 32, height: 24)
        let data = try AVIFEncoder(quality: 60).encode(photo, orientation: .up, cleanAperture: nil, exif: Data(tiff))
        let header = try AVIFDecoder().readHeader(data)
        #expect(header.exif.map([UInt8].init) == tiff)
        #expect(header.exif.flatMap(ExifFields.init(tiff:))?.make == "TestCam")
        let plain = try AVIFEncoder(quality: 60).encode(photo)
        #expect(try AVIFDecoder().readHeader(plain).exif == nil)
        // A decode leaves the item unread and decodes as before.
        #expect(try AVIFDecoder().decode(data).size == PixelSize(width: 32, height: 24))
    }

    @Test("the clean aperture crops the picture")
    func cleanAperture() throws {
        let source = try AVIFTestImages.photo(width: 64, height: 48)
        let crop = avifCropRect(x: 8, y: 4, width: 32, height: 24)
        let data = try AVIFEncoder(lossless: true).encode(source, orientation: .up, cleanAperture: crop)
        let image = try AVIFDecoder().decode(data)
        #expect(image.size == PixelSize(width: 32, height: 24))
        #expect(image.sourceSize == PixelSize(width: 32, height: 24))
        let expected = try ImageBitmap(width: 32, height: 24, pixelFormat: .rgba8) { out, stride in
            source.withUnsafeBytes { pixels in
                for y in 0..<24 {
                    for x in 0..<(32 * 4) { out[y * stride + x] = pixels[(y + 4) * source.bytesPerRow + 8 * 4 + x] }
                }
            }
        }
        #expect(image.bitmap.packedBytes == expected.packedBytes)
        let scaled = try AVIFDecoder().decode(data, options: DecodeOptions(maxPixelSize: 16))
        #expect(scaled.size == PixelSize(width: 16, height: 12))
    }

    @Test("an image over maxPixelCount is refused from its container")
    func tooLarge() throws {
        let data = try AVIFEncoder(quality: 50).encode(try AVIFTestImages.photo(width: 100, height: 100))
        let error = #expect(throws: ImageDecodingError.self) {
            try AVIFDecoder().decode(data, options: DecodeOptions(maxPixelCount: 9_999))
        }
        #expect(error?.code == .tooLarge)
        let estimate = AVIFDecoder().estimatedMemory(decoding: data, options: .default)
        #expect(estimate == 100 * 100 * 4 + 100 * 100 * 3)
        #expect(AVIFDecoder().estimatedMemory(decoding: Data("not avif".utf8), options: .default) == nil)
    }

    @Test("every prefix of a file is a typed error, never a wrong image")
    func everyPrefix() throws {
        let data = try AVIFEncoder(quality: 50).encode(try AVIFTestImages.photo(width: 48, height: 32))
        for length in 0..<data.count {
            let error = #expect(throws: ImageDecodingError.self, "\(length) of \(data.count) bytes") {
                try AVIFDecoder().decode(data.prefix(length))
            }
            let expected: Set<ImageDecodingError.Code> = length == 0 ? [.empty] : [.truncated]
            #expect(error.map { expected.contains($0.code) } == true, "\(length) bytes: \(String(describing: error))")
        }
    }

    @Test("damaged AV1 data is a typed error or a picture of the right size")
    func damaged() throws {
        let data = try AVIFEncoder(quality: 50).encode(try AVIFTestImages.photo(width: 64, height: 48))
        // The coded picture is at the end of the file (`mdat` after `meta`).
        for step in [3, 7, 11] {
            var damaged = data
            for index in stride(from: data.count - data.count / 3, to: data.count, by: step) { damaged[index] ^= 0x5A }
            switch Result(catching: { () throws(ImageDecodingError) in try AVIFDecoder().decode(damaged) }) {
            case .success(let image): #expect(image.size == PixelSize(width: 64, height: 48))
            case .failure(let error): #expect([.corrupt, .truncated, .invalidHeader].contains(error.code))
            }
        }
        let garbage = #expect(throws: ImageDecodingError.self) { try AVIFDecoder().decode(Data(repeating: 7, count: 300)) }
        #expect(garbage?.code == .invalidHeader)
        let empty = #expect(throws: ImageDecodingError.self) { try AVIFDecoder().decode(Data()) }
        #expect(empty?.code == .empty)
    }

    @Test("the registry picks the AVIF decoder by the ftyp brand, and the Accept header names it first")
    func registry() throws {
        var registry = ImageDecoderRegistry.standard
        let data = try AVIFEncoder(quality: 50).encode(try AVIFTestImages.quadrants())
        let refused = #expect(throws: ImageDecodingError.self) { try registry.decode(data) }
        #expect(refused?.code == .unsupported)
        registry.register(AVIFDecoder())
        #expect(try registry.decode(data).format == .avif)
        #expect(registry.acceptHeader == "image/avif,image/png,image/jpeg,image/gif,image/*;q=0.8,*/*;q=0.5")
    }

    @Test("an empty or oversized bitmap is an encoding error")
    func encoderRefuses() throws {
        let empty = try ImageBitmap(width: 0, height: 4, pixelFormat: .rgba8) { _, _ in }
        let error = #expect(throws: ImageDecodingError.self) { try AVIFEncoder().encode(empty) }
        #expect(error?.code == .encodingFailed)
    }
}
