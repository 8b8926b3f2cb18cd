import Foundation
import WebImageCore

/// Origins whose credential worked, sent up front to later requests to the same origin
/// (as URLSession does), so a protected image costs one round trip, not two. A 401 from
/// the origin forgets it. The request's own credential is never remembered: it belongs
/// to that request. Loop thread only.
struct OriginCredentialCache {
    private var byOrigin: [String: (space: ProtectionSpace, credential: Credential)] = [:]

    /// The credential a hop to `origin` sends before being asked: the one the transfer
    /// already answered a challenge with, else the origin's remembered one, unless the
    /// request brings its own credential or `Authorization` header.
    func credential(for state: TransferState, origin: String) -> (ProtectionSpace, Credential)? {
        if let own = state.authentication.credential { return (own.space, own.credential) }
        guard state.request.credential == nil, !state.request.headers.contains("Authorization") else { return nil }
        return byOrigin[origin].map { ($0.space, $0.credential) }
    }

    /// The transfer succeeded: the credential it answered a challenge with works for
    /// `origin`.
    mutating func remember(_ state: TransferState, origin: String) {
        guard let used = state.authentication.credential, !state.authentication.usesRequestCredential else { return }
        byOrigin[origin] = used
    }

    /// `origin` answered 401: what was remembered no longer works.
    mutating func forget(origin: String) {
        byOrigin[origin] = nil
    }
}
