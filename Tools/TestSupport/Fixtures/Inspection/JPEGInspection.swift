internal import CWebImageFixtures
import Foundation
import WebImageCore

/// What libjpeg reports when it reads a file back in full: the check that a JPEG
/// fixture is accepted by the system library and has the asked properties.
///
/// Package tooling for tests; independent of WebImageDecoding's JPEG decoder.
public struct JPEGInspection: Sendable {
    public var width: Int
    public var height: Int
    public var components: Int
    public var isProgressive: Bool
    /// Horizontal and vertical sampling factors per component, e.g. [(2, 2), (1, 1), (1, 1)] for 4:2:0.
    public var samplingFactors: [(horizontal: Int, vertical: Int)]
    public var hasEXIF: Bool
    public var scanlinesRead: Int
    public var warnings: Int
    /// The decoded samples (RGB or gray, packed), from libjpeg's default decode.
    public var samples: [UInt8]

    /// Decompresses `data` with libjpeg.
    ///
    /// - Throws: ``ImageDecodingError/Code/corrupt`` with libjpeg's message when it
    ///   refuses the file.
    public init(_ data: Data) throws(ImageDecodingError) {
        var facts = wif_jpeg_facts()
        var message = [CChar](repeating: 0, count: 256)
        // First pass learns the size, second keeps the samples: fixtures are small.
        var status = data.withUnsafeBytes { bytes in
            wif_jpeg_inspect(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, &facts, nil, 0, &message, message.count)
        }
        var samples: [UInt8] = []
        if status == 0 {
            samples = [UInt8](repeating: 0, count: Int(facts.width) * Int(facts.height) * Int(facts.components))
            status = data.withUnsafeBytes { bytes in
                samples.withUnsafeMutableBufferPointer { out in
                    wif_jpeg_inspect(
                        bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, &facts,
                        out.baseAddress, out.count, &message, message.count)
                }
            }
        }
        guard status == 0 else {
            let detail = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw ImageDecodingError(.corrupt, detail, format: .jpeg)
        }
        width = Int(facts.width)
        height = Int(facts.height)
        components = Int(facts.components)
        isProgressive = facts.progressive != 0
        let h = [facts.h_samp.0, facts.h_samp.1, facts.h_samp.2, facts.h_samp.3]
        let v = [facts.v_samp.0, facts.v_samp.1, facts.v_samp.2, facts.v_samp.3]
        samplingFactors = (0..<Swift.min(components, 4)).map { (Int(h[$0]), Int(v[$0])) }
        hasEXIF = facts.has_exif != 0
        scanlinesRead = Int(facts.scanlines_read)
        warnings = Int(facts.warnings)
        self.samples = samples
    }
}
