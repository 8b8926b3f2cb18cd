/// The HTTP version a response arrived over.
public enum NegotiatedHTTPVersion: Sendable, Hashable, CustomStringConvertible {
    // The versions as they are written (1.0, 1.1), which lowerCamelCase cannot say.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    case http1_0, http1_1, http2, http3

    public var description: String {
        switch self {
        case .http1_0: "HTTP/1.0"
        case .http1_1: "HTTP/1.1"
        case .http2: "HTTP/2"
        case .http3: "HTTP/3"
        }
    }
}
