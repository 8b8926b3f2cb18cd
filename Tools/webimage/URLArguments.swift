import Foundation

/// Reads the URLs a user types or lists: `http(s)://`, `file:` and `data:` URLs as
/// written, and anything without a scheme as a path to a local file.
enum URLArguments {
    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    /// The URL `text` stands for, or nil when it has a scheme but is no URL.
    static func url(_ text: String) -> URL? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        if let url = URL(string: trimmed), let scheme = url.scheme, scheme.count > 1 {
            // http and https need a host; "http:/x" is a typo, not a request for the path /x.
            if ["http", "https"].contains(scheme.lowercased()), (url.host ?? "").isEmpty { return nil }
            return url
        }
        return URL(fileURLWithPath: trimmed)
    }

    /// Every argument as a URL.
    ///
    /// - Throws: ``Invalid`` naming the first that is not one.
    static func urls(_ arguments: [String]) throws(Invalid) -> [URL] {
        var urls: [URL] = []
        for argument in arguments {
            guard let url = url(argument) else { throw Invalid(description: "not a URL: \(argument)") }
            urls.append(url)
        }
        return urls
    }

    /// The URLs of a list file: one per line; blank lines and lines starting with `#`
    /// are skipped, as are spaces around a URL.
    ///
    /// - Throws: ``Invalid`` naming the file and line of the first that is not a URL.
    static func urls(inListFile path: String) throws -> [URL] {
        let text =
            path == "-"
            ? String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            : try String(contentsOfFile: path, encoding: .utf8)
        var urls: [URL] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let item = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if item.isEmpty || item.hasPrefix("#") { continue }
            guard let url = url(item) else { throw Invalid(description: "\(path):\(number + 1): not a URL: \(item)") }
            urls.append(url)
        }
        return urls
    }
}
