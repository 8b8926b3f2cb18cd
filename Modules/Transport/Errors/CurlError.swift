import CLibCurl

/// libcurl's result for a failed transfer, attached to the `TransportError` as its
/// `underlyingError`: Core's error speaks HTTP, not C, and this keeps libcurl's own
/// verdict for logs and bug reports.
///
/// ```swift
/// if let curl = error.underlyingError as? CurlError { print(curl.code, curl.name) }
/// ```
public struct CurlError: Error, Sendable, Hashable, CustomStringConvertible {
    /// libcurl's `CURLcode` (56 is `CURLE_RECV_ERROR`).
    public var code: Int
    /// libcurl's text for the code (`curl_easy_strerror`).
    public var name: String

    public init(code: Int, name: String) {
        self.code = code
        self.name = name
    }

    init(_ code: CURLcode) {
        self.init(code: Int(code.rawValue), name: String(cString: curl_easy_strerror(code)))
    }

    public var description: String { "libcurl error \(code): \(name)" }
}
