import Foundation
import WebImage
import WebImageProxy
import WebImageTestServer
import WebImageTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real proxy on Hummingbird on 127.0.0.1, in front of a real loopback server holding
/// the test's images under /files/, and a libcurl client to ask it things.
struct ProxyHarness {
    let proxy: ImageProxy
    let proxyPort: Int
    let origin: LoopbackServer
    let client: URLSession

    /// How long the client waits for an answer (the session's setting, which every request
    /// that sets no timeout of its own takes): an hour, so that in effect it waits for
    /// the answer however slowly the machine runs. URLSession's default (60 s without a
    /// byte) is a clock these tests do not check: in a loaded ThreadSanitizer run, with
    /// the whole suite's work on two cores, an answer has taken longer than that.
    static let clientPatience: TimeInterval = 3600

    /// A configuration that lets the proxy fetch from the loopback origin (the default
    /// refuses it, as it should).
    static func loopbackConfiguration() -> ImageProxy.Configuration {
        var configuration = ImageProxy.Configuration()
        configuration.urlPolicy = .standard
        return configuration
    }

    /// Serves `files`, starts the proxy with `configuration`, runs `body`, stops both.
    static func run(
        configuration: ImageProxy.Configuration = loopbackConfiguration(), files: [String: Data] = [:],
        _ body: (ProxyHarness) async throws -> Void
    ) async throws {
        let root = try TemporaryDirectory()
        defer { withExtendedLifetime(root) {} }
        for (name, data) in files { try data.write(to: root.url.appendingPathComponent(name)) }
        try await LoopbackServer.withServer(.init(documentRoot: root.url)) { origin in
            let proxy = ImageProxy(configuration: configuration)
            let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
            let serving = Task { try await proxy.run(port: 0) { port in portSink.yield(port) } }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw CancellationError() }
            let session = URLSessionConfiguration.ephemeral
            session.urlCache = nil
            session.requestCachePolicy = .reloadIgnoringLocalCacheData
            session.timeoutIntervalForRequest = clientPatience
            let harness = ProxyHarness(proxy: proxy, proxyPort: port, origin: origin, client: URLSession(configuration: session))
            do {
                try await body(harness)
            } catch {
                serving.cancel()
                _ = await serving.result
                throw error
            }
            serving.cancel()
            try await serving.value
        }
    }

    /// The unsigned proxy path of the origin's `/files/name` (or any origin path) with
    /// `options` (slash-separated) and an optional `@ext`.
    func path(_ options: String, origin originPath: String, ext: String? = nil, signature: String = "unsafe") -> String {
        "/\(signature)" + signedPath(options, origin: originPath, ext: ext)
    }

    /// The part after the signature.
    func signedPath(_ options: String, origin originPath: String, ext: String? = nil) -> String {
        let source = origin.url(originPath).absoluteString
        let encoded = source.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        return (options.isEmpty ? "" : "/\(options)") + "/plain/\(encoded)" + (ext.map { "@\($0)" } ?? "")
    }

    /// GETs `path` from the proxy. (Foundation's URLSession, on libcurl: unlike the
    /// library's transport, it hands over the body of an error status, which the tests
    /// read.)
    func get(_ path: String, headers: [String: String] = [:]) async throws -> ProxyAnswer {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(proxyPort)\(path)")!)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await client.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return ProxyAnswer(status: http.statusCode, response: http, data: data)
    }

    /// Requests the origin received for `originPath`.
    func originRequests(for originPath: String) -> Int {
        origin.requests.filter { $0.path == originPath }.count
    }
}

/// One answer of the proxy.
struct ProxyAnswer: Sendable {
    let status: Int
    let response: HTTPURLResponse
    let data: Data

    /// The value of the header `name` (any case).
    func header(_ name: String) -> String? { response.value(forHTTPHeaderField: name) }
}
