import Foundation

/// An X.509 certificate, as its DER bytes.
public struct Certificate: Sendable, Hashable {
    public let derBytes: [UInt8]

    public init(derBytes: [UInt8]) { self.derBytes = derBytes }
}
