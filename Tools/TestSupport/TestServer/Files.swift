import Foundation
import NIOCore
import NIOHTTP1

import enum WebImageHTTP.HTTPDate

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
// `stat` and its fields may resolve through CoreFoundation's copy of the C headers, which
// member import visibility then asks to be imported by name.
#if canImport(CoreFoundation)
    import CoreFoundation
#endif

/// GET|HEAD /files/<relative path>: the document root's files with validators.
enum Files {
    /// `?chunk=<k>&interval_ms=<t>` drips the file k bytes at a time, one piece every t ms.
    static func plan(relativePath: Substring, query: Query, head: HTTPRequestHead, documentRoot: URL?) -> ResponsePlan {
        guard let root = documentRoot else { return Routes.notFound() }
        guard head.method == .GET || head.method == .HEAD else {
            var headers = HTTPHeaders()
            headers.add(name: "allow", value: "GET, HEAD")
            return .text(.methodNotAllowed, "method not allowed", headers: headers)
        }
        // Each component decoded on its own, so an encoded "/" or ".." cannot climb out.
        var url = root
        for encoded in relativePath.split(separator: "/", omittingEmptySubsequences: true) {
            guard let component = String(encoded).removingPercentEncoding,
                !component.isEmpty, component != "..", component != ".",
                !component.contains("/"), !component.contains("\0")
            else { return Routes.notFound() }
            url.appendPathComponent(component)
        }
        let rootPath = root.resolvingSymlinksInPath().path
        let filePath = url.resolvingSymlinksInPath().path
        guard filePath.hasPrefix(rootPath.hasSuffix("/") ? rootPath : rootPath + "/") else { return Routes.notFound() }

        var info = stat()
        guard stat(filePath, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return Routes.notFound() }
        let size = Int(info.st_size)
        #if canImport(Darwin)
            let modified = info.st_mtimespec
        #else
            let modified = info.st_mtim
        #endif
        let etag = "\"\(String(size, radix: 16))-\(String(Int(modified.tv_sec), radix: 16))-\(String(Int(modified.tv_nsec), radix: 16))\""
        let lastModified = HTTPDate.format(secondsSince1970: Int(modified.tv_sec))

        var headers = HTTPHeaders()
        headers.add(name: "etag", value: etag)
        headers.add(name: "last-modified", value: lastModified)
        headers.add(name: "cache-control", value: "max-age=3600")

        if notModified(head: head, etag: etag, modifiedSeconds: Int(modified.tv_sec)) {
            return ResponsePlan(status: .notModified, headers: headers)
        }
        headers.add(name: "content-type", value: contentType(forExtension: url.pathExtension))
        headers.add(name: "content-length", value: String(size))
        if head.method == .HEAD {
            return ResponsePlan(status: .ok, headers: headers)
        }
        guard let data = FileManager.default.contents(atPath: filePath), data.count == size else {
            return .text(.internalServerError, "could not read the file")
        }
        if let ranged = RangeRoutes.rangedFile(head: head, etag: etag, headers: headers, data: data) { return ranged }
        var buffer = ByteBufferAllocator().buffer(capacity: data.count)
        buffer.writeBytes(data)
        if let chunk = query.int("chunk"), chunk > 0 {
            let interval = TimeAmount.milliseconds(Int64(max(0, query.int("interval_ms") ?? 0)))
            return ResponsePlan(status: .ok, headers: headers, body: .drip(total: size, chunk: chunk, interval: interval, source: buffer))
        }
        return ResponsePlan(status: .ok, headers: headers, body: .buffer(buffer))
    }

    /// If-None-Match (weak comparison, as RFC 9110 asks) wins over If-Modified-Since.
    static func notModified(head: HTTPRequestHead, etag: String, modifiedSeconds: Int) -> Bool {
        let noneMatch = head.headers["if-none-match"]
        if !noneMatch.isEmpty {
            for value in noneMatch {
                for candidate in value.split(separator: ",") {
                    var tag = candidate.trimmingCharacters(in: .whitespaces)
                    if tag == "*" { return true }
                    if tag.hasPrefix("W/") { tag.removeFirst(2) }
                    if tag == etag { return true }
                }
            }
            return false
        }
        if let since = head.headers.first(name: "if-modified-since"), let seconds = HTTPDate.parse(since) {
            return modifiedSeconds <= seconds
        }
        return false
    }

    static func contentType(forExtension pathExtension: String) -> String {
        switch pathExtension.lowercased() {
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "avif": "image/avif"
        case "txt": "text/plain; charset=utf-8"
        default: "application/octet-stream"
        }
    }
}
