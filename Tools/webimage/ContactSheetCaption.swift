import Foundation
import WebImage

extension ContactSheet {
    /// What the caption under a thumbnail says, one line each: the image's name; its
    /// format and pixel size; its frame count (animations only) and where the load got
    /// it (network, memory, disk, shared...).
    struct Caption: Equatable {
        var name: String
        var details: String
        var origin: String

        /// How many lines every caption has, so captions line up along a row of cells.
        static let lineCount = 3

        var lines: [String] { [name, details, origin] }

        init(name: String, details: String, origin: String) {
            self.name = name
            self.details = details
            self.origin = origin
        }

        /// The caption of a loaded image, from its load's report; `-` for what the
        /// report does not know.
        init(_ report: LoadReport) {
            let last = report.url.lastPathComponent
            name = last.isEmpty || last == "/" ? (report.url.host ?? report.url.absoluteString) : last
            details = "\(report.format ?? "-") \(report.sizeText ?? "-")"
            let source = report.source?.rawValue ?? "-"
            if let frames = report.frames, frames > 1 {
                origin = "\(frames) frames, \(source)"
            } else {
                origin = source
            }
        }
    }
}
