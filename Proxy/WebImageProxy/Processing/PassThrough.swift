import Foundation
import WebImageCore

/// The answers that need no render: a source answered as it is (`raw`, or `skp` naming
/// its format), and the `Content-Disposition` every answer carries (imgproxy's: the
/// source's file name, or the URL's `fn`, with the output's extension).
enum PassThrough {
    /// The source as it is, when the options ask for it; `nil` when it is rendered.
    static func output(of data: Data, options: ProcessingOptions) -> StoredVariant? {
        let format = ImageFormat.sniff(data)
        guard options.raw || format.map({ options.skipsProcessing.contains(name(of: $0)) }) == true else { return nil }
        let fileExtension = format.map { $0 == .jpeg ? ".jpg" : "." + name(of: $0) } ?? ""
        return StoredVariant(
            body: data, contentType: format?.mimeType ?? "application/octet-stream", fileExtension: fileExtension, variesByAccept: false)
    }

    /// `inline; filename="{stem}{extension}"`, or `attachment; ...` when asked: the
    /// stem is the URL's `fn`, else the source's last path component without its
    /// extension, else `image`.
    static func disposition(source: URL, options: ProcessingOptions, fileExtension: String) -> String {
        let last = source.lastPathComponent
        let sourceStem = last == "/" ? "" : (last as NSString).deletingPathExtension
        var stem = options.filename ?? sourceStem
        if stem.isEmpty { stem = "image" }
        let kind = options.returnsAttachment ? "attachment" : "inline"
        return "\(kind); filename=\"\(stem.replacingOccurrences(of: "\"", with: "%22"))\(fileExtension)\""
    }

    /// The name `skp` uses for a source format.
    static func name(of format: ImageFormat) -> String {
        format.identifier
    }
}
