import Foundation
import WebImageHTTP

/// The first bytes of a download that broke off, with what it takes to ask for the rest:
/// the strong validator they came with, and the whole length when it was announced.
struct PartialDownload: Sendable {
    /// Which request the bytes answer.
    var identity: PartialDownloadIdentity
    /// The representation from byte 0, as sent (never content-decoded).
    var body: Data
    var validator: ResumeValidator
    /// The length of the whole representation, when the server said it.
    var completeLength: Int64?

    /// How many bytes are kept: where the rest starts.
    var offset: Int64 { Int64(body.count) }
}
