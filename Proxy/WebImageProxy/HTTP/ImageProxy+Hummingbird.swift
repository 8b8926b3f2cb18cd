import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

extension ImageProxy {
    /// Mounts the proxy on `router`: `GET /health` answers `ok`, and every other `GET`
    /// path is a proxy URL. Mount it on a router of its own, or on a group
    /// (`router.group("images")`) beside your own routes.
    public func addRoutes<Context: RequestContext>(to router: some RouterMethods<Context>) {
        router.get("health") { _, _ -> String in "ok\n" }
        router.get("**") { request, _ -> Response in
            let answer = await self.respond(
                to: ProxyRequest(
                    path: request.uri.path, accept: request.headers[.accept], ifNoneMatch: request.headers[.ifNoneMatch],
                    dprHint: Self.hint(request.headers, "Sec-CH-DPR", "DPR"),
                    widthHint: Self.hint(request.headers, "Sec-CH-Width", "Width")))
            return Response(answer)
        }
    }

    /// The first of `names` the request carries (client hints: the `Sec-CH-` name first).
    static func hint(_ headers: HTTPFields, _ names: String...) -> String? {
        for name in names {
            if let field = HTTPField.Name(name), let value = headers[field] { return value }
        }
        return nil
    }

    /// A Hummingbird application serving the proxy on `host:port` (0 picks a free port;
    /// `onServerRunning` receives the one bound). Run it with `runService()`, which stops
    /// gracefully on SIGTERM and SIGINT.
    public func makeApplication(
        host: String = "127.0.0.1", port: Int = 8080, logger: Logger? = nil,
        onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let router = Router()
        addRoutes(to: router)
        return Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "webimage-proxy"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) },
            logger: logger ?? Self.quietLogger)
    }

    /// Serves the proxy on `host:port` until SIGTERM or SIGINT, then stops taking
    /// connections, lets the requests in flight finish, and returns.
    public func serve(
        host: String = "127.0.0.1", port: Int = 8080, logger: Logger? = nil,
        onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
    ) async throws {
        try await makeApplication(host: host, port: port, logger: logger, onServerRunning: onServerRunning).runService()
    }

    /// Serves the proxy on `host:port` until the calling task is cancelled, then stops as
    /// on a signal (no new connections, the requests in flight finish): for a proxy
    /// inside a program that decides itself when to stop (a test, a demo, a benchmark).
    public func run(
        host: String = "127.0.0.1", port: Int = 8080, logger: Logger? = nil,
        onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
    ) async throws {
        let application = makeApplication(host: host, port: port, logger: logger, onServerRunning: onServerRunning)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(services: [application], logger: logger ?? Self.quietLogger))
        // Run apart from this task, so that its cancellation reaches the server only as
        // the graceful shutdown below, not as an abrupt cancellation of every connection.
        let running = Task { try await group.run() }
        try await withTaskCancellationHandler {
            try await running.value
        } onCancel: {
            Task { await group.triggerGracefulShutdown() }
        }
    }

    /// Warnings and worse: a proxy logs nothing per request unless asked.
    static var quietLogger: Logger {
        var logger = Logger(label: "webimage-proxy")
        logger.logLevel = .warning
        return logger
    }
}

extension Response {
    /// The framework-free answer as a Hummingbird response.
    init(_ answer: ProxyResponse) {
        var fields = HTTPFields()
        for (name, value) in answer.headers {
            guard let field = HTTPField.Name(name) else { continue }
            fields.append(HTTPField(name: field, value: value))
        }
        self.init(
            status: HTTPResponse.Status(code: answer.status), headers: fields,
            body: answer.body.isEmpty ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
    }
}
