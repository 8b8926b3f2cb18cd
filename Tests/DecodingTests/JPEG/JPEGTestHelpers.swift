import Foundation
import WebImageCore
import WebImageFixtures
import WebImageTestSupport

enum JPEGTestData {
    /// The corpus JPEG rows of the manifest.
    static let entries = Corpus.manifest.filter { $0.format == "jpeg" }

    static func entry(_ file: String) -> CorpusEntry? {
        entries.first { $0.file == file }
    }
}

/// Mean absolute difference per channel byte of two same-sized, same-format bitmaps.
func meanAbsoluteDifference(_ a: ImageBitmap, _ b: ImageBitmap) -> Double {
    precondition(a.size == b.size && a.pixelFormat == b.pixelFormat)
    let x = a.packedBytes
    let y = b.packedBytes
    var total = 0
    for index in x.indices { total += abs(Int(x[index]) - Int(y[index])) }
    return x.isEmpty ? 0 : Double(total) / Double(x.count)
}

/// Feeds `data` to `decoder` in random slices of 1...`maxSlice` bytes, taking a
/// partial image whenever the revision grew (at most about `maxPartials` of them,
/// spread over the file), then finishes.
func feedInSlices(
    _ data: Data, to decoder: any IncrementalImageDecoding, maxSlice: Int, seed: UInt64, maxPartials: Int = 40
) throws -> (partials: [DecodedImage], final: DecodedImage) {
    var generator = SeededGenerator(seed: seed)
    var partials: [DecodedImage] = []
    var offset = 0
    var seenRevision = decoder.revision
    // Space out the copies so large files stay quick in debug builds.
    let spacing = max(1, data.count / max(1, maxPartials))
    var nextPartialAt = 0
    while offset < data.count {
        let length = min(Int.random(in: 1...maxSlice, using: &generator), data.count - offset)
        try decoder.append(data.subdata(in: offset..<(offset + length)))
        offset += length
        if decoder.revision != seenRevision && offset >= nextPartialAt {
            seenRevision = decoder.revision
            if let partial = try decoder.partialImage() { partials.append(partial) }
            nextPartialAt = offset + spacing
        }
    }
    return (partials, try decoder.finish())
}
