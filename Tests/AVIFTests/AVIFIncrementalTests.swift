import Foundation
import Testing
import WebImageAVIF
import WebImageCore
import WebImageDecoding

@Suite("AVIFDecoder: bytes as they arrive")
struct AVIFIncrementalTests {
    @Test("the size is known before the last byte, there is no partial image, and finish decodes the whole file")
    func sizeBeforeTheEnd() throws {
        let source = try AVIFTestImages.photo(width: 80, height: 60)
        let data = try AVIFEncoder(lossless: true).encode(source)
        let decoder = AVIFDecoder().makeIncrementalDecoder(options: .default)
        var knownAt: Int?
        for start in stride(from: 0, to: data.count, by: 100) {
            try decoder.append(data[start..<min(data.count, start + 100)])
            if knownAt == nil, decoder.info != nil { knownAt = start + 100 }
            #expect(try decoder.partialImage() == nil)
        }
        #expect(decoder.info?.size == PixelSize(width: 80, height: 60))
        #expect(try #require(knownAt) < data.count)
        let image = try decoder.finish()
        #expect(image.bitmap.packedBytes == source.packedBytes)
        let again = #expect(throws: ImageDecodingError.self) { try decoder.finish() }
        #expect(again?.code == .invalidState)
    }

    @Test("an image over the limits is refused while its bytes arrive")
    func refusedEarly() throws {
        let data = try AVIFEncoder(quality: 40).encode(try AVIFTestImages.photo(width: 200, height: 150))
        let decoder = AVIFDecoder().makeIncrementalDecoder(options: DecodeOptions(maxPixelCount: 1000))
        var refusal: ImageDecodingError?
        for start in stride(from: 0, to: data.count, by: 64) where refusal == nil {
            do throws(ImageDecodingError) {
                try decoder.append(data[start..<min(data.count, start + 64)])
            } catch {
                refusal = error
            }
        }
        #expect(refusal?.code == .tooLarge)
    }

    @Test("a file cut short is a typed error at finish")
    func truncated() throws {
        let data = try AVIFEncoder(quality: 40).encode(try AVIFTestImages.photo(width: 64, height: 48))
        let decoder = AVIFDecoder().makeIncrementalDecoder(options: .default)
        try decoder.append(data.prefix(data.count - 20))
        let error = #expect(throws: ImageDecodingError.self) { try decoder.finish() }
        #expect(error?.code == .truncated)
    }
}
