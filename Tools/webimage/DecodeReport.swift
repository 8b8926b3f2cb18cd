import Foundation
import WebImageCore
import WebImageDecoding

/// What `webimage decode` learned about one file, printable as a table line or as a
/// JSON object.
struct DecodeReport {
    let file: String
    let outcome: Result<DecodedImage, ImageDecodingError>
    let decodeMilliseconds: Double
    var error: String?

    static func decode(file: String, registry: ImageDecoderRegistry, options: DecodeOptions) -> DecodeReport {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            let failure = ImageDecodingError(.empty, "cannot read the file: \(error.localizedDescription)")
            return DecodeReport(file: file, outcome: .failure(failure), decodeMilliseconds: 0, error: failure.description)
        }
        let clock = ContinuousClock()
        let start = clock.now
        let outcome: Result<DecodedImage, ImageDecodingError>
        do {
            outcome = .success(try registry.decode(data, options: options))
        } catch {
            outcome = .failure(error)
        }
        let elapsed = clock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        var report = DecodeReport(file: file, outcome: outcome, decodeMilliseconds: milliseconds, error: nil)
        if case .failure(let failure) = outcome { report.error = failure.description }
        return report
    }

    func failing(with message: String) -> DecodeReport {
        var copy = self
        copy.error = message
        return copy
    }

    private var image: DecodedImage? {
        if case .success(let image) = outcome { return image }
        return nil
    }

    func textLine() -> String {
        guard let image, error == nil else { return "\(file)\tERROR\t\(error ?? "")" }
        let animation = image.isAnimated ? "\t\(image.frameCount) frames, loop \(image.loopCount)" : ""
        return "\(file)\t\(image.format)\t\(image.width)x\(image.height)\(animation)\t\(String(format: "%.2f ms", decodeMilliseconds))"
    }

    /// Every frame's duration, from the frame source's scan when the frames are on demand.
    private static func durations(of image: DecodedImage) -> [Duration] {
        guard let source = image.frameSource else { return image.frames.map(\.duration) }
        return (0..<source.frameCount).map { source.duration(ofFrame: $0) }
    }

    func jsonLine() -> String {
        let format = image.map { JSONValue.string($0.format.identifier) } ?? .null
        let durations = image.map { JSONValue.array(Self.durations(of: $0).map { .number(Self.milliseconds($0)) }) } ?? .null
        let fields: [(String, JSONValue)] = [
            ("file", .string(file)),
            ("format", format),
            ("width", image.map { .number(Double($0.width)) } ?? .null),
            ("height", image.map { .number(Double($0.height)) } ?? .null),
            ("frames", image.map { .number(Double($0.frameCount)) } ?? .null),
            ("loopCount", image.map { .number(Double($0.loopCount)) } ?? .null),
            ("durationsMs", durations),
            ("sourceColorProfile", image.map { $0.sourceColorProfile.map { .string($0.description) } ?? .null } ?? .null),
            ("colorWarnings", image.map { .array($0.warnings.map { .string($0.description) }) } ?? .null),
            ("decodeMs", .number((decodeMilliseconds * 1000).rounded() / 1000)),
            ("error", error.map(JSONValue.string) ?? .null),
        ]
        return JSONValue.object(fields).serialized
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
}
