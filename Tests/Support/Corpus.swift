import Foundation
import Testing

/// The shared conformance corpus (`../shared/corpus` beside the repository), read in
/// place and never copied. Absent on a user's clone: tests that need it skip with a
/// visible message.
public enum Corpus {
    /// The corpus folder, or `nil` when it is not there. `WEBIMAGE_CORPUS` overrides.
    public static let root: URL? = {
        if let path = ProcessInfo.processInfo.environment["WEBIMAGE_CORPUS"] {
            return URL(fileURLWithPath: path)
        }
        // Tests/Support/Corpus.swift -> repository root -> ../shared/corpus
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidate = repository.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        return FileManager.default.fileExists(atPath: candidate.appendingPathComponent("MANIFEST.tsv").path) ? candidate : nil
    }()

    /// Whether the corpus is present.
    public static var isAvailable: Bool { root != nil }

    /// The message a skipped test shows.
    public static let missingMessage: Comment =
        "conformance corpus not found at ../shared/corpus (set WEBIMAGE_CORPUS); corpus tests skipped"

    /// The bytes of a corpus file, by its path relative to the corpus root.
    public static func data(_ relativePath: String) throws -> Data {
        guard let root else { throw CocoaError(.fileNoSuchFile) }
        return try Data(contentsOf: root.appendingPathComponent(relativePath))
    }

    /// Every row of MANIFEST.tsv; empty when the corpus is absent.
    public static let manifest: [CorpusEntry] = {
        guard let root, let text = try? String(contentsOf: root.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8) else {
            return []
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        guard !lines.isEmpty else { return [] }
        let header = lines.removeFirst().split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        return lines.map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            var row: [String: String] = [:]
            for (index, name) in header.enumerated() where index < fields.count { row[name] = fields[index] }
            return CorpusEntry(row: row)
        }
    }()
}

/// One row of the corpus manifest.
public struct CorpusEntry: Sendable, CustomStringConvertible {
    public enum Expectation: String, Sendable {
        case valid
        case mustFail = "must-fail"
        case either
    }

    public let file: String
    public let format: String
    public let expected: Expectation
    public let width: Int?
    public let height: Int?
    public let frames: Int?
    public let exifOrientation: Int?
    /// SHA-256 of the first frame as RGBA8 with RGB zeroed where alpha is 0.
    public let referenceHash: String?
    public let notes: String

    /// An animated PNG: the manifest's frame count is Pillow's and its reference pixels
    /// are the default image's (what libpng alone shows). APNGCorpusTests checks these
    /// files' frames and pixels as browsers show them.
    public var isAPNG: Bool { format == "png" && file.contains("/apng/") }

    init(row: [String: String]) {
        file = row["file"] ?? ""
        format = row["format"] ?? ""
        expected = Expectation(rawValue: row["expected"] ?? "") ?? .either
        width = row["width"].flatMap { Int($0) }
        height = row["height"].flatMap { Int($0) }
        frames = row["frames"].flatMap { Int($0) }
        exifOrientation = row["exif_orientation"].flatMap { Int($0) }
        referenceHash = row["ref_rgba8_sha256"].flatMap { $0.isEmpty ? nil : $0 }
        notes = row["notes"] ?? ""
    }

    public var description: String { file }
}
