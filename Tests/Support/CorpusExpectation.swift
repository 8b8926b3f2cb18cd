import Foundation
import Testing
import WebImageCore

/// Checks one decode result against what the corpus manifest says of the file:
/// valid files decode to the stated size and frame count with the reference pixels,
/// must-fail files fail, "either" files fail or have the stated size.
public enum CorpusExpectation {
    public static func check(
        _ entry: CorpusEntry,
        result: Result<DecodedImage, ImageDecodingError>,
        expectedFrames: Int? = nil,
        checksFramesAndPixels: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        switch (entry.expected, result) {
        case (.valid, .success(let image)):
            #expect(image.width == entry.width, "\(entry.file): width", sourceLocation: sourceLocation)
            #expect(image.height == entry.height, "\(entry.file): height", sourceLocation: sourceLocation)
            guard checksFramesAndPixels else { return }
            if let frames = expectedFrames ?? entry.frames {
                #expect(image.frameCount == frames, "\(entry.file): frame count", sourceLocation: sourceLocation)
            }
            if let reference = entry.referenceHash {
                #expect(
                    referenceHash(of: image.bitmap) == reference, "\(entry.file): pixels differ from the reference",
                    sourceLocation: sourceLocation)
            }
        case (.valid, .failure(let error)):
            Issue.record("\(entry.file) is valid but failed: \(error)", sourceLocation: sourceLocation)
        case (.mustFail, .success(let image)):
            Issue.record("\(entry.file) must fail but decoded to \(image.size)", sourceLocation: sourceLocation)
        case (.mustFail, .failure):
            break
        case (.either, .success(let image)):
            if let width = entry.width, let height = entry.height {
                #expect(image.size == PixelSize(width: width, height: height), "\(entry.file): size", sourceLocation: sourceLocation)
            }
        case (.either, .failure):
            break
        }
    }
}

extension Result where Failure == ImageDecodingError {
    /// Runs a throwing decode and captures its outcome.
    public static func capture(_ body: () throws -> Success) -> Self {
        do {
            return .success(try body())
        } catch let error as ImageDecodingError {
            return .failure(error)
        } catch {
            return .failure(ImageDecodingError(.corrupt, "unexpected error type: \(error)"))
        }
    }
}
