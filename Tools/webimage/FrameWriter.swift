import ArgumentParser
import Foundation
import WebImageAVIF
import WebImageCore
import WebImageDecoding
import WebImageEncoding

/// The formats `webimage decode --out` and `fetch --out` write.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case png, jpeg, webp, avif, gif

    var fileExtension: String { self == .jpeg ? "jpg" : rawValue }
}

/// Writes decoded images into a folder, NAME being the source file's name without its
/// extension: a still as NAME.EXT; an animation as one animated NAME.webp, NAME.gif or
/// NAME.avif (an image sequence) for WebP, GIF and AVIF, and as NAME-K.EXT per frame K
/// for PNG and JPEG (which do not animate).
enum FrameWriter {
    static func write(
        _ image: DecodedImage, named source: String, into directory: String, format: OutputFormat, quality: Int?
    ) throws {
        let name = URL(fileURLWithPath: source).deletingPathExtension().lastPathComponent
        let folder = URL(fileURLWithPath: directory)
        let encoder: any ImageEncoding =
            switch format {
            case .png: PNGEncoder()
            case .jpeg: JPEGEncoder(quality: quality ?? 85)
            case .webp: WebPEncoder(quality: Float(quality ?? 80))
            case .avif: AVIFEncoder(quality: quality ?? 60)
            case .gif: GIFEncoder()
            }
        let file = { (suffix: String) in folder.appendingPathComponent("\(name)\(suffix).\(format.fileExtension)") }
        if image.isAnimated, format == .webp {
            try WebPEncoder(quality: Float(quality ?? 80)).encodeAnimation(image).write(to: file(""), options: .atomic)
        } else if image.isAnimated, format == .gif {
            try GIFEncoder().encodeAnimation(image).write(to: file(""), options: .atomic)
        } else if image.isAnimated, format == .avif {
            try AVIFEncoder(quality: quality ?? 60).encodeAnimation(image).write(to: file(""), options: .atomic)
        } else if image.isAnimated {
            for index in 0..<image.frameCount {
                try encoder.encode(image.frame(at: index).bitmap).write(to: file("-\(index)"), options: .atomic)
            }
        } else {
            try encoder.encode(image.bitmap).write(to: file(""), options: .atomic)
        }
    }
}
