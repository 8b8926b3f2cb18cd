import Foundation

/// Names for the files of `fetch --out`: the last path component of each URL without
/// its extension, made unique with `-2`, `-3`... so that `a/logo.png` and `b/logo.png`
/// do not overwrite each other.
struct OutputFileNames {
    private var used: Set<String> = []

    /// The base name (no extension) for `url`'s image.
    mutating func name(for url: URL) -> String {
        var base = url.deletingPathExtension().lastPathComponent
        if base.isEmpty || base == "/" { base = url.host ?? "image" }
        base = String(base.map { $0 == "/" || $0 == "\0" ? "_" : $0 })
        var name = base
        var number = 2
        while used.contains(name) {
            name = "\(base)-\(number)"
            number += 1
        }
        used.insert(name)
        return name
    }
}
