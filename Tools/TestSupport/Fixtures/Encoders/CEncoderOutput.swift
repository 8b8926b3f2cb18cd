internal import CWebImageFixtures
import Foundation
import WebImageCore

/// Runs one C fixture encoder and turns its buffer and message into `Data` or an
/// ``ImageDecodingError``.
enum CEncoderOutput {
    static func run(
        format: ImageFormat,
        _ body: (UnsafeMutablePointer<wif_buffer>, UnsafeMutablePointer<CChar>, Int) -> Int32
    ) throws(ImageDecodingError) -> Data {
        var buffer = wif_buffer()
        var message = [CChar](repeating: 0, count: 256)
        let status = message.withUnsafeMutableBufferPointer { text in
            body(&buffer, text.baseAddress!, text.count)
        }
        guard status == 0 else {
            wif_buffer_free(&buffer)
            let detail = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw ImageDecodingError(.encodingFailed, detail.isEmpty ? "the encoder failed" : detail, format: format)
        }
        guard let bytes = buffer.data else { return Data() }
        // Data adopts the malloc'd buffer rather than copying a large file.
        return Data(bytesNoCopy: bytes, count: buffer.size, deallocator: .free)
    }
}
