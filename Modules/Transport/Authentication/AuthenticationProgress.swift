import WebImageCore

/// How far one transfer has got with authentication, across its hops: the credential it
/// answers with, how often that failed, which schemes were refused, and whether the
/// request's own credential and `Authorization` header may still be sent. Read and
/// written by ``ChallengeResponder`` and ``OriginCredentialCache``; loop thread only.
struct AuthenticationProgress {
    /// The credential the last answer gave, for the space it was given for.
    var credential: (space: ProtectionSpace, credential: Credential)?
    /// Answers in a row refused for the current space.
    var failedCredentialCount = 0
    /// Challenges answered in this transfer (at most ``AuthenticationChallenge/maximumAttempts``).
    var challengesAnswered = 0
    /// Schemes the handler rejected: not put again.
    var rejectedMethods: [AuthenticationMethod] = []
    /// The request's own credential may still be offered: not yet tried, and no redirect
    /// to another origin since.
    var mayOfferRequestCredential = true
    /// The credential in use is the request's own: never remembered for the origin.
    var usesRequestCredential = false
    /// `false` once a redirect has left the original origin: the request's
    /// `Authorization` header is not sent to another host.
    var sendsAuthorizationHeader = true

    /// A redirect left the origin: nothing of this origin's authentication goes along.
    mutating func leftOrigin() {
        sendsAuthorizationHeader = false
        credential = nil
        mayOfferRequestCredential = false
    }
}
