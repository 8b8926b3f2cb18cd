import Foundation
import WebImageTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Apache httpd with mod_auth_gssapi (Debian's `apache2`, `libapache2-mod-auth-gssapi`)
/// started by the test with a configuration of its own (not the system's), on
/// 127.0.0.1 at a free port: `/protected/<file>` is behind `AuthType GSSAPI` (SPNEGO
/// with the realm's `HTTP/localhost` keytab), `/<file>` is open.
final class SPNEGOServer {
    static let programs = [
        ("/usr/sbin/apache2", "apache2-bin"), ("/usr/lib/apache2/modules/mod_auth_gssapi.so", "libapache2-mod-auth-gssapi"),
        ("/usr/lib/apache2/modules/mod_mpm_event.so", "apache2-bin"),
    ]

    let directory: TemporaryDirectory
    let port: Int
    private var daemon: ChildDaemon?

    /// Serves `files` (name → bytes) under /protected/ for the principals of `realm`.
    init(realm: KerberosRealm, files: [String: Data]) async throws {
        directory = try TemporaryDirectory()
        port = try LoopbackPort.free()
        let root = directory.url
        let protected = root.appendingPathComponent("www/protected")
        try FileManager.default.createDirectory(at: protected, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("logs"), withIntermediateDirectories: true)
        for (name, bytes) in files { try bytes.write(to: protected.appendingPathComponent(name)) }
        // Started as root, Apache serves from an unprivileged user (www-data): it must
        // read the files and the keytab (a throwaway one) through the temporary folders.
        let keytab = root.appendingPathComponent("http.keytab")
        try FileManager.default.copyItem(at: realm.serviceKeytab, to: keytab)
        for path in [realm.directory.path, root.path, protected.path, root.appendingPathComponent("www").path] { chmod(path, 0o755) }
        for url in [keytab] + files.keys.map({ protected.appendingPathComponent($0) }) { chmod(url.path, 0o644) }

        let modules = "/usr/lib/apache2/modules"
        let user = getuid() == 0 ? "User www-data\nGroup www-data" : ""
        try """
        ServerRoot "\(root.path)"
        ServerName localhost
        Listen 127.0.0.1:\(port)
        PidFile "\(root.path)/httpd.pid"
        ErrorLog "\(root.path)/logs/error.log"
        LogLevel info auth_gssapi:debug
        CustomLog "\(root.path)/logs/access.log" "%u %>s %U"
        LoadModule mpm_event_module \(modules)/mod_mpm_event.so
        LoadModule authn_core_module \(modules)/mod_authn_core.so
        LoadModule authz_core_module \(modules)/mod_authz_core.so
        LoadModule authz_user_module \(modules)/mod_authz_user.so
        LoadModule auth_gssapi_module \(modules)/mod_auth_gssapi.so
        \(user)
        DocumentRoot "\(root.path)/www"
        <Directory "\(root.path)/www">
            Require all granted
        </Directory>
        <Location /protected>
            AuthType GSSAPI
            AuthName "webimage"
            GssapiCredStore keytab:\(keytab.path)
            GssapiAllowedMech krb5
            Require valid-user
        </Location>
        """.write(to: root.appendingPathComponent("httpd.conf"), atomically: true, encoding: .utf8)

        let daemon = try ChildDaemon(
            "/usr/sbin/apache2", ["-f", root.appendingPathComponent("httpd.conf").path, "-DFOREGROUND"],
            environment: ["KRB5_CONFIG": realm.configuration.path, "APACHE_RUN_DIR": root.path, "APACHE_LOG_DIR": root.path],
            log: root.appendingPathComponent("apache2.out"))
        self.daemon = daemon
        do {
            try await daemon.waitUntilListening(on: port)
        } catch {
            stop()
            throw error
        }
    }

    /// http://localhost:<port>/<path>: `localhost`, the host of the service principal.
    func url(_ path: String) -> String { "http://localhost:\(port)\(path)" }

    /// One line per request: the authenticated user (`-` for none), the status, the path.
    var accessLog: String {
        (try? String(contentsOf: directory.url.appendingPathComponent("logs/access.log"), encoding: .utf8)) ?? "(no access log)"
    }

    var errorLog: String {
        (try? String(contentsOf: directory.url.appendingPathComponent("logs/error.log"), encoding: .utf8)) ?? "(no error log)"
    }

    func stop() {
        daemon?.stop()
        daemon = nil
    }

    deinit { stop() }
}
