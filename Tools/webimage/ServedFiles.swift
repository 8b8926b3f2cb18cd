import Foundation

/// The files a ``LoopbackServer`` serves from a directory, as the URLs to fetch them by.
enum ServedFiles {
    /// The regular files under `directory`, subdirectories included, as paths relative to
    /// it, sorted. Hidden files and directories are left out: they are rarely meant to
    /// be listed (the server still serves them when asked).
    static func relativePaths(in directory: URL) -> [String] {
        let root = directory.standardizedFileURL.resolvingSymlinksInPath()
        guard
            let walker = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { return [] }
        var paths: [String] = []
        for case let file as URL in walker {
            guard (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            // The walker's URLs extend the root it was given.
            let components = file.standardizedFileURL.pathComponents
            guard components.starts(with: root.pathComponents) else { continue }
            paths.append(components.dropFirst(root.pathComponents.count).joined(separator: "/"))
        }
        return paths.sorted()
    }

    /// `base` + the path, each component percent-encoded (a space, `#` or `?` in a file
    /// name would otherwise end the path).
    static func url(base: URL, relativePath: String) -> URL {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/;?#%")
        let encoded = relativePath.split(separator: "/").map {
            String($0).addingPercentEncoding(withAllowedCharacters: allowed) ?? String($0)
        }.joined(separator: "/")
        return URL(string: base.absoluteString + encoded)!
    }
}
