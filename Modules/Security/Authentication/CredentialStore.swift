import Synchronization
import WebImageConcurrency
import WebImageCore

/// User names and passwords for authentication challenges, safe to use from any thread
/// (URLSession's `URLCredentialStorage`, in memory only).
///
/// A challenge's protection space is answered by, in order:
/// 1. the credential set for exactly that space (scheme, host, port, realm, method);
/// 2. the default for its host and port (any scheme, realm and method);
/// 3. the global default.
///
/// - Warning: A default is sent to whatever asks: the host default to every realm of the
///   host, the global default to every host that challenges, over plain `http` too,
///   where Basic sends the password in clear. Prefer exact protection spaces.
public final class CredentialStore: Sendable {
    private struct HostKey: Hashable {
        var host: String
        var port: Int
    }

    private struct State {
        var bySpace: [ProtectionSpace: Credential] = [:]
        var byHost: [HostKey: Credential] = [:]
        var global: Credential?
    }

    private let state = Locked(State())

    /// An empty store.
    public init() {}

    /// A store holding `credentials`, by exact protection space.
    public convenience init(_ credentials: [ProtectionSpace: Credential]) {
        self.init()
        for (space, credential) in credentials { set(credential, for: space) }
    }

    /// The credential for `space`: the exact one, else its host's default, else the global default.
    public func credential(for space: ProtectionSpace) -> Credential? {
        let exact = Self.key(space)
        let host = HostKey(host: exact.host, port: space.port)
        return state.withLock { $0.bySpace[exact] ?? $0.byHost[host] ?? $0.global }
    }

    /// Stores `credential` for exactly `space`, replacing what was there.
    public func set(_ credential: Credential, for space: ProtectionSpace) {
        let key = Self.key(space)
        state.withLock { $0.bySpace[key] = credential }
    }

    /// Stores `credential` for every protection space of `host:port`.
    public func setDefault(_ credential: Credential, forHost host: String, port: Int) {
        let key = HostKey(host: HostName.normalized(host), port: port)
        state.withLock { $0.byHost[key] = credential }
    }

    /// Stores `credential` for every protection space of every host (see the warning above).
    public func setDefault(_ credential: Credential) {
        state.withLock { $0.global = credential }
    }

    /// Removes the credential set for exactly `space` (not the defaults that may answer it).
    public func remove(for space: ProtectionSpace) {
        let key = Self.key(space)
        state.withLock { _ = $0.bySpace.removeValue(forKey: key) }
    }

    /// Removes the default of `host:port`.
    public func removeDefault(forHost host: String, port: Int) {
        let key = HostKey(host: HostName.normalized(host), port: port)
        state.withLock { _ = $0.byHost.removeValue(forKey: key) }
    }

    /// Removes the global default.
    public func removeDefault() {
        state.withLock { $0.global = nil }
    }

    /// Removes every credential and default.
    public func removeAll() {
        state.withLock { $0 = State() }
    }

    /// `space` with its host normalized (``ProtectionSpace/host`` is lowercased by its
    /// initializer but may be set afterwards).
    private static func key(_ space: ProtectionSpace) -> ProtectionSpace {
        var key = space
        key.host = HostName.normalized(space.host)
        return key
    }
}
