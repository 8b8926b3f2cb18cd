import Foundation
import WebImageCore

/// The output format. A client whose `Accept` lists a format the proxy prefers gets it
/// when the URL names none (or always, when preferred formats are enforced): AVIF before
/// WebP, and WebP for an animation, whose frames AVIF output would drop. Otherwise the
/// URL's format, else the source's own when it is JPEG or GIF (imgproxy's preferred
/// formats), GIF for another animation (`animated`: the source has frames and
/// `max_animation_frames` lets the output keep them), and PNG for everything else (it
/// keeps transparency). The response varies by `Accept` whenever `Accept` could have
/// changed the answer.
enum FormatChoice {
    /// The preferred format a client's `Accept` takes, decided before the source is
    /// known (it is part of what identifies an output): `nil` when none.
    static func negotiated(accept: String?, prefersWebP: Bool, prefersAVIF: Bool) -> OutputFormat? {
        guard let accept else { return nil }
        if prefersAVIF, accepts("image/avif", in: accept) { return .avif }
        if prefersWebP, accepts("image/webp", in: accept) { return .webp }
        return nil
    }

    static func choose(
        named: OutputFormat?, negotiated: OutputFormat?, source: ImageFormat, animated: Bool,
        prefersAny: Bool, enforces: Bool
    ) -> (format: OutputFormat, variesByAccept: Bool) {
        let decidesByAccept = named == nil || enforces
        if decidesByAccept, let negotiated {
            // AVIF output is a still; an animation keeps its frames as WebP.
            if negotiated == .avif, animated { return (.webp, true) }
            return (negotiated, true)
        }
        if let named { return (named, enforces && prefersAny) }
        switch source {
        case .jpeg: return (.jpeg, prefersAny)
        case .gif: return (.gif, prefersAny)
        default: return (animated ? .gif : .png, prefersAny)
        }
    }

    /// Whether `accept` lists `type` with a quality above 0 (`image/*` and `*/*` do not
    /// count: browsers send them for every image, whatever they decode).
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
