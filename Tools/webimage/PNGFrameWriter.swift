import Foundation
import WebImageCore
import WebImageDecoding

/// Writes decoded images as PNG: NAME.png for a still, NAME-K.png for frame K of an
/// animation, NAME being the source file's name without its extension.
enum PNGFrameWriter {
    static func write(_ image: DecodedImage, named source: String, into directory: String) throws {
        let name = URL(fileURLWithPath: source).deletingPathExtension().lastPathComponent
        let encoder = PNGEncoder()
        let folder = URL(fileURLWithPath: directory)
        if image.isAnimated {
            for (index, frame) in image.frames.enumerated() {
                try encoder.encode(frame.bitmap).write(to: folder.appendingPathComponent("\(name)-\(index).png"), options: .atomic)
            }
        } else {
            try encoder.encode(image.bitmap).write(to: folder.appendingPathComponent("\(name).png"), options: .atomic)
        }
    }
}
