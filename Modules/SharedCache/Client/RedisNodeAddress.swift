import Foundation

/// Where one Redis node listens: `redis://[:password@]host[:port][/database]`.
///
/// ```swift
/// let node = try RedisNodeAddress("redis://:secret@10.0.0.7:6380/2")
/// ```
///
/// TLS (`rediss://`) is refused: the hiredis Debian 12 ships (0.14) has no TLS. Run the
/// nodes on a private network, or behind a TLS tunnel on each host.
public struct RedisNodeAddress: Sendable, Hashable, CustomStringConvertible {
    /// A host name or an IP address. A name is resolved when the node is connected to, on
    /// the cache's own thread (a slow resolver delays that node's commands, no one else's).
    public var host: String
    public var port: Int
    /// Sent with `AUTH` when each connection opens; never printed.
    public var password: String?
    /// The database selected with `SELECT` (0 by default).
    public var database: Int

    public init(host: String, port: Int = 6379, password: String? = nil, database: Int = 0) {
        self.host = host
        self.port = port
        self.password = password
        self.database = database
    }

    /// Reads a `redis://` URL.
    ///
    /// - Throws: ``SharedCacheError`` with code `invalidNodeAddress` for another scheme
    ///   (`rediss://` included), no host, or a port or database that is not a number in range.
    public init(_ string: String) throws(SharedCacheError) {
        guard let components = URLComponents(string: string), let scheme = components.scheme?.lowercased() else {
            throw SharedCacheError(.invalidNodeAddress, "\(string) is not a redis:// URL")
        }
        guard scheme == "redis" else {
            let why = scheme == "rediss" ? "TLS (rediss://) is not supported by this hiredis" : "the scheme must be redis://"
            throw SharedCacheError(.invalidNodeAddress, "\(string): \(why)")
        }
        guard let host = components.host, !host.isEmpty else {
            throw SharedCacheError(.invalidNodeAddress, "\(string) has no host")
        }
        let port = components.port ?? 6379
        guard (1...65535).contains(port) else { throw SharedCacheError(.invalidNodeAddress, "\(string): port out of range") }
        var database = 0
        let path = components.path.drop(while: { $0 == "/" })
        if !path.isEmpty {
            guard let number = Int(path), number >= 0 else {
                throw SharedCacheError(.invalidNodeAddress, "\(string): the path must be a database number")
            }
            database = number
        }
        let password = components.password.flatMap { $0.isEmpty ? nil : $0.removingPercentEncoding ?? $0 }
        self.init(host: host, port: port, password: password, database: database)
    }

    /// Reads a comma-separated list of `redis://` URLs, as the program's `--shared-cache` takes.
    public static func list(_ string: String) throws(SharedCacheError) -> [RedisNodeAddress] {
        var nodes: [RedisNodeAddress] = []
        for part in string.split(separator: ",") where !part.trimmingCharacters(in: .whitespaces).isEmpty {
            nodes.append(try RedisNodeAddress(part.trimmingCharacters(in: .whitespaces)))
        }
        return nodes
    }

    /// The node's identity on the hash ring: host, port and database (not the password,
    /// so that rotating it moves no key).
    public var ringIdentity: String { "\(host):\(port)/\(database)" }

    /// The URL without its password.
    public var description: String { database == 0 ? "redis://\(host):\(port)" : "redis://\(host):\(port)/\(database)" }
}
