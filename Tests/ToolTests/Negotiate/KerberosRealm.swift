import Foundation
import WebImageTestSupport

/// A Kerberos realm of its own on loopback, made in a temporary directory with MIT
/// krb5's programs: krb5.conf and kdc.conf (through `KRB5_CONFIG` and
/// `KRB5_KDC_PROFILE`, never the system's), a database (`kdb5_util create -s`), a user
/// and an `HTTP/localhost` service principal (`kadmin.local`), a keytab for each, and
/// `krb5kdc` on 127.0.0.1 at a free port. `kinit` puts the user's ticket into a
/// credential cache of the realm's own.
///
/// Host names are taken as written (`rdns = false`, `dns_canonicalize_hostname =
/// false`): libcurl asks for `HTTP@localhost`, which must stay `HTTP/localhost`.
final class KerberosRealm {
    static let name = "WEBIMAGE.TEST"
    static let user = "alice"
    static let servicePrincipal = "HTTP/localhost"

    /// The programs it runs, with the Debian package of each.
    static let programs = [
        ("/usr/sbin/krb5kdc", "krb5-kdc"), ("/usr/sbin/kdb5_util", "krb5-kdc"), ("/usr/sbin/kadmin.local", "krb5-admin-server"),
        ("/usr/bin/kinit", "krb5-user"),
    ]

    let directory: TemporaryDirectory
    let port: Int
    private var kdc: ChildDaemon?

    var configuration: URL { directory.url.appendingPathComponent("krb5.conf") }
    var serviceKeytab: URL { directory.url.appendingPathComponent("http.keytab") }
    private var userKeytab: URL { directory.url.appendingPathComponent("alice.keytab") }

    /// What a Kerberos client of this realm needs in its environment, with `ccache` as
    /// its credential cache.
    func clientEnvironment(ccache: URL) -> [String: String] {
        ["KRB5_CONFIG": configuration.path, "KRB5CCNAME": "FILE:" + ccache.path]
    }

    private var adminEnvironment: [String: String] {
        ["KRB5_CONFIG": configuration.path, "KRB5_KDC_PROFILE": directory.url.appendingPathComponent("kdc.conf").path]
    }

    /// Makes the realm and starts its KDC.
    init() async throws {
        directory = try TemporaryDirectory()
        port = try LoopbackPort.free()
        let root = directory.path
        try """
        [libdefaults]
            default_realm = \(Self.name)
            dns_lookup_realm = false
            dns_lookup_kdc = false
            rdns = false
            dns_canonicalize_hostname = false
            udp_preference_limit = 1
        [realms]
            \(Self.name) = {
                kdc = 127.0.0.1:\(port)
            }
        [domain_realm]
            localhost = \(Self.name)
        """.write(to: configuration, atomically: true, encoding: .utf8)
        try """
        [kdcdefaults]
            kdc_listen = 127.0.0.1:\(port)
            kdc_tcp_listen = 127.0.0.1:\(port)
        [realms]
            \(Self.name) = {
                database_name = \(root)/principal
                key_stash_file = \(root)/stash
                acl_file = \(root)/kadm5.acl
            }
        [logging]
            kdc = FILE:\(root)/kdc.log
        """.write(to: directory.url.appendingPathComponent("kdc.conf"), atomically: true, encoding: .utf8)

        try Self.run("/usr/sbin/kdb5_util", ["-r", Self.name, "-P", UUID().uuidString, "create", "-s"], environment: adminEnvironment)
        for query in [
            "addprinc -randkey \(Self.user)", "addprinc -randkey \(Self.servicePrincipal)",
            "ktadd -k \(serviceKeytab.path) \(Self.servicePrincipal)", "ktadd -k \(userKeytab.path) \(Self.user)",
        ] {
            try Self.run("/usr/sbin/kadmin.local", ["-r", Self.name, "-q", query], environment: adminEnvironment)
        }
        let kdc = try ChildDaemon(
            "/usr/sbin/krb5kdc", ["-n", "-r", Self.name], environment: adminEnvironment,
            log: directory.url.appendingPathComponent("krb5kdc.out"))
        self.kdc = kdc
        do {
            try await kdc.waitUntilListening(on: port)
        } catch {
            stop()
            throw error
        }
    }

    /// `kinit` as the user (from the user's keytab) into `ccache`.
    func kinit(into ccache: URL) throws {
        try Self.run("/usr/bin/kinit", ["-k", "-t", userKeytab.path, Self.user], environment: clientEnvironment(ccache: ccache))
    }

    /// Stops the KDC; the directory goes when the realm does.
    func stop() {
        kdc?.stop()
        kdc = nil
    }

    deinit { stop() }

    /// Runs a program to its end; throws with its output when it fails.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String]) throws {
        let finished = try ExternalProgram.finish(executable, arguments, environment: environment)
        guard finished.status == 0 else {
            throw ChildDaemon.Failed(
                description: "\(executable) \(arguments.joined(separator: " ")) failed: \(finished.output)\(finished.errors)")
        }
    }
}
