import NIOHTTP1

/// One request that reached the HTTP layer, recorded when its head arrived.
public struct RecordedRequest: Sendable {
    /// "GET", "HEAD", ...
    public var method: String
    /// The request target as sent: path and query ("/bytes/10?x=1").
    public var uri: String
    /// `uri` without its query.
    public var path: String
    /// "HTTP/1.1", "HTTP/1.0" or "HTTP/2".
    public var httpVersion: String
    /// The same for every request on one TCP connection (and every stream of one HTTP/2
    /// connection); unique over the server's life, even across `resetRecords()`.
    public var connectionID: Int

    // Kept as NIO's headers (a copy-on-write reference, no per-header work on the hot
    // path) and turned into pairs only when asked.
    var storedHeaders: HTTPHeaders

    /// The request's headers in order, names as sent (HTTP/2: lower case, with `host`
    /// standing for `:authority`).
    public var headers: [(name: String, value: String)] {
        get { self.storedHeaders.map { (name: $0.name, value: $0.value) } }
        set { self.storedHeaders = HTTPHeaders(newValue.map { ($0.name, $0.value) }) }
    }

    public init(
        method: String,
        uri: String,
        path: String,
        headers: [(name: String, value: String)],
        httpVersion: String,
        connectionID: Int
    ) {
        self.method = method
        self.uri = uri
        self.path = path
        self.storedHeaders = HTTPHeaders(headers.map { ($0.name, $0.value) })
        self.httpVersion = httpVersion
        self.connectionID = connectionID
    }

    init(head: HTTPRequestHead, isHTTP2: Bool, connectionID: Int) {
        self.method = head.method.rawValue
        self.uri = head.uri
        if let query = head.uri.utf8.firstIndex(of: UInt8(ascii: "?")) {
            self.path = String(head.uri[..<query])
        } else {
            self.path = head.uri
        }
        self.storedHeaders = head.headers
        if isHTTP2 {
            self.httpVersion = "HTTP/2"
        } else if head.version == .http1_0 {
            self.httpVersion = "HTTP/1.0"
        } else {
            self.httpVersion = "HTTP/1.1"
        }
        self.connectionID = connectionID
    }

    /// The value of a header, the name compared without regard to case; several values
    /// of one name are joined with ", ". Nil when absent.
    public func header(_ name: String) -> String? {
        let values = self.storedHeaders[name]
        if values.isEmpty { return nil }
        return values.count == 1 ? values[0] : values.joined(separator: ", ")
    }
}
