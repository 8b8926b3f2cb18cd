import Foundation

/// What makes two downloads the same download, so that they share one transfer.
///
/// More than the URL: the method, every request header (so requests that differ in
/// Authorization, Accept, Range or any other header never share a response), the
/// credential, the validators of a conditional request, the certificate choice, whether
/// the download hands out its body as it arrives (progressive), and the request's own URL
/// policy (a request held to public addresses never shares the transfer of one that is
/// not), and whether it uses cookies. It is made from the request before the
/// downloader's request modifier runs: a modifier must change equal requests in equal
/// ways (signing a URL, adding a token), which is what they do.
public struct DownloadKey: Hashable, Sendable, CustomStringConvertible {
    public let url: String
    public let method: TransportRequest.Method
    /// The request's headers, names lowercased, sorted.
    public let headers: [String]
    public let credential: Credential?
    public let validators: TransportRequest.Validators?
    public let allowsInvalidCertificates: Bool
    /// Whether subscribers get the body as it arrives (``DownloadOptions/progressive``).
    public let isProgressive: Bool
    /// The request's own URL policy; `nil` for the downloader's.
    public let urlPolicy: URLPolicy?
    /// Whether the transfer sends and stores cookies (``DownloadOptions/handleCookies``).
    public let usesCookies: Bool

    public init(
        url: URL, method: TransportRequest.Method = .get, headers: HTTPHeaderFields = [:], credential: Credential? = nil,
        validators: TransportRequest.Validators? = nil, allowsInvalidCertificates: Bool = false,
        isProgressive: Bool = false, urlPolicy: URLPolicy? = nil, usesCookies: Bool = false
    ) {
        self.url = url.absoluteString
        self.method = method
        self.headers = headers.map { "\($0.name.lowercased()): \($0.value)" }.sorted()
        self.credential = credential
        self.validators = validators
        self.allowsInvalidCertificates = allowsInvalidCertificates
        self.isProgressive = isProgressive
        self.urlPolicy = urlPolicy
        self.usesCookies = usesCookies
    }

    /// The URL, then what else sets the key apart (never a password).
    public var description: String {
        var parts = [url]
        if method != .get { parts.append(method.rawValue) }
        if !headers.isEmpty { parts.append("\(headers.count) headers") }
        if let credential { parts.append("user \(credential.user)") }
        if validators != nil { parts.append("conditional") }
        if allowsInvalidCertificates { parts.append("any certificate") }
        if isProgressive { parts.append("progressive") }
        if urlPolicy != nil { parts.append("own URL policy") }
        if usesCookies { parts.append("cookies") }
        return parts.joined(separator: ", ")
    }
}
