import Foundation
import WebImage

/// What one load through the manager came to, printable as a table row or as the JSON
/// line of `webimage fetch --json`.
struct LoadReport {
    let url: URL
    /// The decoded image, for the caller to write or draw and then drop (a report list
    /// of thousands of URLs should not hold their pixels).
    var image: DecodedImage?
    let format: String?
    let width: Int?
    let height: Int?
    let frames: Int?
    let source: ImageSource?
    /// The encoded bytes as downloaded or read from disk; unknown for a memory hit,
    /// which reads no bytes at all. For a download that failed after its response
    /// began, the body bytes that had arrived.
    let bytes: Int?
    /// The status of the download (200) or revalidation (304); for a failed download,
    /// the failing status (404); unknown for cache hits and failures before any response.
    let httpStatus: Int?
    let milliseconds: Double
    var error: String?

    init(url: URL, result: Result<ImageResponse, ImageLoadError>, milliseconds: Double) {
        self.url = url
        self.milliseconds = milliseconds
        switch result {
        case .success(let response):
            let image = response.image
            self.image = image
            format = image?.format.identifier
            width = image?.width
            height = image?.height
            frames = image?.frameCount
            source = response.source
            bytes = response.data?.count
            httpStatus = response.httpResponse?.statusCode
            error = nil
        case .failure(let failure):
            image = nil
            format = nil
            width = nil
            height = nil
            frames = nil
            source = nil
            // A transfer that failed after its response began keeps the status and the
            // bytes that had arrived (TransportError.response, bytesReceived).
            // A body that did not decode keeps the response it came with and its size.
            if case .download(let download) = failure {
                httpStatus = download.statusCode
                if case .transport(let transport) = download { bytes = transport.bytesReceived.map { Int($0) } } else { bytes = nil }
            } else if case .decoding(_, let response, let count) = failure {
                httpStatus = response?.statusCode
                bytes = count
            } else {
                httpStatus = nil
                bytes = nil
            }
            error = failure.description
        }
    }

    var failed: Bool { error != nil }

    /// The same report without its pixels.
    func droppingImage() -> LoadReport {
        var copy = self
        copy.image = nil
        return copy
    }

    /// `320x200`, or nil when unknown.
    var sizeText: String? {
        guard let width, let height else { return nil }
        return "\(width)x\(height)"
    }

    /// The keys, in this order, of every JSON line.
    static let jsonKeys = ["url", "format", "width", "height", "frames", "source", "bytes", "httpStatus", "ms", "error"]

    func jsonLine() -> String {
        func number(_ value: Int?) -> JSONValue { value.map { .number(Double($0)) } ?? .null }
        let fields: [(String, JSONValue)] = [
            ("url", .string(url.absoluteString)),
            ("format", format.map(JSONValue.string) ?? .null),
            ("width", number(width)),
            ("height", number(height)),
            ("frames", number(frames)),
            ("source", source.map { .string($0.rawValue) } ?? .null),
            ("bytes", number(bytes)),
            ("httpStatus", number(httpStatus)),
            ("ms", .number(Measurements.roundedMilliseconds(milliseconds))),
            ("error", error.map(JSONValue.string) ?? .null),
        ]
        return JSONValue.object(fields).serialized
    }

    static let tableHeader = ["url", "format", "size", "frames", "source", "bytes", "status", "ms"]
    /// The columns of ``tableHeader`` holding numbers.
    static let tableNumberColumns: Set<Int> = [3, 5, 6, 7]

    /// One row under ``tableHeader``; `-` where unknown.
    func tableRow() -> [String] {
        [
            url.absoluteString,
            format ?? "-",
            sizeText ?? "-",
            frames.map(String.init) ?? "-",
            source?.rawValue ?? "-",
            bytes.map(String.init) ?? "-",
            httpStatus.map(String.init) ?? "-",
            String(format: "%.2f", milliseconds),
        ]
    }
}
