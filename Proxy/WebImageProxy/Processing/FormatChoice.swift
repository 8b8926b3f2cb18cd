import Foundation
import WebImageCore

/// The output format when the URL names none: WebP for a client whose `Accept` takes it
/// (then the response varies by `Accept`), otherwise the source's own when it is JPEG,
/// and PNG for everything else (it keeps transparency).
enum FormatChoice {
    static func choose(
        named: OutputFormat?, accept: String?, source: ImageFormat, prefersWebP: Bool
    ) -> (format: OutputFormat, variesByAccept: Bool) {
        if let named { return (named, false) }
        if prefersWebP, let accept, accepts("image/webp", in: accept) { return (.webp, true) }
        return (source == .jpeg ? .jpeg : .png, prefersWebP)
    }

    /// Whether `accept` lists `type` with a quality above 0 (`image/*` and `*/*` do not
    /// count: browsers send them for every image, WebP-capable or not).
    static func accepts(_ type: String, in accept: String) -> Bool {
        for item in accept.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.first?.lowercased() == type else { continue }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return quality > 0
        }
        return false
    }
}
