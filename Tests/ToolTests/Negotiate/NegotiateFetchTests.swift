import Foundation
import Testing
import WebImageFixtures
import WebImageTestSupport

/// Negotiate (SPNEGO over GSS-API, libcurl's own implementation) against a real
/// Kerberos realm and a real SPNEGO server, both made by the test on loopback: MIT
/// krb5's KDC and Apache with mod_auth_gssapi (see ``KerberosRealm`` and
/// ``SPNEGOServer``). The client is `webimage fetch --negotiate`, a child process with
/// the realm's Kerberos variables in its own environment, so this process's environment
/// is left alone. Skipped, with what is missing, where the programs are not installed.
@Suite(
    "Negotiate against a Kerberos realm on loopback", .enabled(if: NegotiatePrerequisites.missing.isEmpty, NegotiatePrerequisites.message),
    .timeLimit(.minutes(3)))
struct NegotiateFetchTests {
    @Test("with the user's ticket in the cache, fetch --negotiate loads the protected image")
    func withTicket() async throws {
        try await withRealmAndServer { realm, server, scratch in
            let ccache = scratch.url.appendingPathComponent("ccache")
            try realm.kinit(into: ccache)
            let run = try fetch(server.url("/protected/icon.png"), ["--negotiate"], environment: realm.clientEnvironment(ccache: ccache))
            let line = try DecodeCommandTests.json(try #require(run.lines.first, "\(run.errors)\n\(server.errorLog)"))
            #expect(run.status == 0, "\(run.errors)\n\(server.errorLog)")
            #expect(line["httpStatus"] as? Int == 200)
            #expect(line["format"] as? String == "png")
            #expect(line["width"] as? Int == 64)
            // Apache logs a request after answering it: stopped, it has written every line.
            server.stop()
            #expect(
                server.accessLog.contains("\(KerberosRealm.user)@\(KerberosRealm.name) 200 /protected/icon.png"),
                "the server authenticated the user's principal: \(server.accessLog)")
        }
    }

    @Test("with an empty credential cache the load fails with the 401")
    func withoutTicket() async throws {
        try await withRealmAndServer { realm, server, scratch in
            let empty = scratch.url.appendingPathComponent("empty-ccache")
            let run = try fetch(server.url("/protected/icon.png"), ["--negotiate"], environment: realm.clientEnvironment(ccache: empty))
            #expect(run.status != 0)
            let line = try DecodeCommandTests.json(try #require(run.lines.first, "\(run.errors)"))
            #expect(line["httpStatus"] as? Int == 401)
            #expect((line["error"] as? String)?.contains("401") == true, "\(line)")
        }
    }

    @Test("without --negotiate a ticket in the cache is not used")
    func notAskedFor() async throws {
        try await withRealmAndServer { realm, server, scratch in
            let ccache = scratch.url.appendingPathComponent("ccache")
            try realm.kinit(into: ccache)
            let run = try fetch(server.url("/protected/icon.png"), [], environment: realm.clientEnvironment(ccache: ccache))
            let line = try DecodeCommandTests.json(try #require(run.lines.first, "\(run.errors)"))
            #expect(line["httpStatus"] as? Int == 401)
        }
    }

    /// A realm and a server for one test, both stopped however the test ends. A daemon
    /// that is installed but cannot start here cancels the test with its log.
    private func withRealmAndServer(_ body: (KerberosRealm, SPNEGOServer, TemporaryDirectory) async throws -> Void) async throws {
        let image = try PNGFixtureEncoder().encode(try SyntheticImage.translucent(width: 64, height: 48))
        let realm: KerberosRealm
        let server: SPNEGOServer
        do {
            realm = try await KerberosRealm()
        } catch let failure as ChildDaemon.Failed {
            try Test.cancel("the Kerberos realm could not be made here: \(failure)")
        }
        defer { realm.stop() }
        do {
            server = try await SPNEGOServer(realm: realm, files: ["icon.png": image])
        } catch let failure as ChildDaemon.Failed {
            try Test.cancel("Apache with mod_auth_gssapi could not be started here: \(failure)")
        }
        defer { server.stop() }
        try await body(realm, server, try TemporaryDirectory())
    }

    private func fetch(_ url: String, _ flags: [String], environment: [String: String]) throws -> WebImageProgram.Run {
        try WebImageProgram.run(["fetch", "--json", "--no-disk-cache"] + flags + [url], environment: environment)
    }
}

/// What the Negotiate tests need installed.
enum NegotiatePrerequisites {
    static let missing: [(path: String, package: String)] = (KerberosRealm.programs + SPNEGOServer.programs)
        .filter { !FileManager.default.fileExists(atPath: $0.0) }
        .map { (path: $0.0, package: $0.1) }

    static let message = Comment(
        rawValue: "Negotiate tests skipped: not installed: "
            + missing.map { "\($0.path) (apt: \($0.package))" }.joined(separator: ", "))
}
