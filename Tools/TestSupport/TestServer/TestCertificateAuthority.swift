import Crypto
import Foundation
import SwiftASN1
import X509

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A certificate authority made at test time: a fresh P-256 key and a self-signed CA
/// certificate (or, from `issueIntermediate`, a CA certificate signed by another one).
/// Nothing it makes is ever written anywhere but where a test puts it.
public struct TestCertificateAuthority: Sendable {
    /// This CA's certificate, PEM.
    public let certificatePEM: String
    /// This CA's certificate, DER.
    public let certificateDER: [UInt8]

    let certificate: Certificate
    let privateKey: Certificate.PrivateKey
    /// The intermediates between this CA and the root, this CA first (empty for a root):
    /// every leaf it issues carries them after itself.
    let intermediatesDER: [[UInt8]]
    let intermediatesPEM: [String]

    /// A root CA: a fresh P-256 key and a self-signed CA certificate valid from an hour
    /// ago for 30 days.
    public init(commonName: String = "swift-web-image test CA") throws {
        let key = Certificate.PrivateKey(P256.Signing.PrivateKey())
        let name = try DistinguishedName { CommonName(commonName) }
        let now = Date()
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: key.publicKey,
            notValidBefore: now - 3600,
            notValidAfter: now + 30 * 86400,
            issuer: name,
            subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: key.publicKey)
            },
            issuerPrivateKey: key
        )
        try self.init(certificate: certificate, privateKey: key, intermediates: [])
    }

    init(certificate: Certificate, privateKey: Certificate.PrivateKey, intermediates: [Certificate]) throws {
        self.certificate = certificate
        self.privateKey = privateKey
        self.certificateDER = try Self.der(certificate)
        self.certificatePEM = try certificate.serializeAsPEM().pemString
        self.intermediatesDER = try intermediates.map(Self.der)
        self.intermediatesPEM = try intermediates.map { try $0.serializeAsPEM().pemString }
    }

    /// A leaf certificate signed by this CA, with a fresh P-256 key.
    ///
    /// Defaults: subject CN "localhost", SAN DNS "localhost" and IP 127.0.0.1, valid from
    /// an hour ago to a day from now, extended key usage serverAuth (clientAuth when
    /// `forClient`). When this CA is an intermediate, the identity's `certificatePEM` and
    /// `chainDER` carry the leaf and then the intermediates up to (not including) the root.
    public func issue(
        commonName: String = "localhost",
        dnsNames: [String] = ["localhost"],
        ipAddresses: [String] = ["127.0.0.1"],
        notBefore: Date? = nil,
        notAfter: Date? = nil,
        forClient: Bool = false
    ) throws -> TestIdentity {
        let key = P256.Signing.PrivateKey()
        let leaf = try Self.makeLeaf(
            publicKey: Certificate.PublicKey(key.publicKey),
            issuerName: self.certificate.subject,
            issuerKey: self.privateKey,
            commonName: commonName,
            dnsNames: dnsNames,
            ipAddresses: ipAddresses,
            notBefore: notBefore,
            notAfter: notAfter,
            forClient: forClient
        )
        return try TestIdentity(leaf: leaf, key: key, intermediatesDER: self.intermediatesDER, intermediatesPEM: self.intermediatesPEM)
    }

    /// An intermediate CA signed by this one (path length 0: it issues leaves only).
    /// The leaves it issues carry the chain leaf, intermediate (and any intermediates
    /// above it); trust them with the root's `certificatePEM`.
    public func issueIntermediate(commonName: String = "swift-web-image test intermediate CA") throws -> TestCertificateAuthority {
        let key = Certificate.PrivateKey(P256.Signing.PrivateKey())
        let now = Date()
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: key.publicKey,
            notValidBefore: now - 3600,
            notValidAfter: now + 30 * 86400,
            issuer: self.certificate.subject,
            subject: try DistinguishedName { CommonName(commonName) },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: key.publicKey)
                AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: self.privateKey.publicKey).keyIdentifier)
            },
            issuerPrivateKey: self.privateKey
        )
        let above = try self.intermediatesDER.map { try Certificate(derEncoded: $0) }
        return try TestCertificateAuthority(certificate: certificate, privateKey: key, intermediates: [certificate] + above)
    }

    /// A self-signed leaf that no CA vouches for (same defaults as `issue`): what a
    /// client must reject unless told to accept anything.
    public static func selfSigned(
        commonName: String = "localhost",
        dnsNames: [String] = ["localhost"],
        ipAddresses: [String] = ["127.0.0.1"],
        notBefore: Date? = nil,
        notAfter: Date? = nil,
        forClient: Bool = false
    ) throws -> TestIdentity {
        let key = P256.Signing.PrivateKey()
        let leaf = try makeLeaf(
            publicKey: Certificate.PublicKey(key.publicKey),
            issuerName: try DistinguishedName { CommonName(commonName) },
            issuerKey: Certificate.PrivateKey(key),
            commonName: commonName,
            dnsNames: dnsNames,
            ipAddresses: ipAddresses,
            notBefore: notBefore,
            notAfter: notAfter,
            forClient: forClient
        )
        return try TestIdentity(leaf: leaf, key: key, intermediatesDER: [], intermediatesPEM: [])
    }

    private static func makeLeaf(
        publicKey: Certificate.PublicKey,
        issuerName: DistinguishedName,
        issuerKey: Certificate.PrivateKey,
        commonName: String,
        dnsNames: [String],
        ipAddresses: [String],
        notBefore: Date?,
        notAfter: Date?,
        forClient: Bool
    ) throws -> Certificate {
        let now = Date()
        var names: [GeneralName] = dnsNames.map { .dnsName($0) }
        for address in ipAddresses {
            names.append(.ipAddress(ASN1OctetString(contentBytes: try ipAddressBytes(address)[...])))
        }
        let sans = names
        return try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: publicKey,
            notValidBefore: notBefore ?? now - 3600,
            notValidAfter: notAfter ?? now + 86400,
            issuer: issuerName,
            subject: try DistinguishedName { CommonName(commonName) },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([forClient ? .clientAuth : .serverAuth])
                SubjectKeyIdentifier(hash: publicKey)
                AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: issuerKey.publicKey).keyIdentifier)
                if !sans.isEmpty {
                    SubjectAlternativeNames(sans)
                }
            },
            issuerPrivateKey: issuerKey
        )
    }

    static func der(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }

    /// The network-order bytes of an IPv4 or IPv6 address literal.
    static func ipAddressBytes(_ address: String) throws -> [UInt8] {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, address, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { Array($0) }
        }
        throw TestCertificateError(message: "not an IP address literal: \(address)")
    }
}

/// A certificate, its private key and its chain, ready for a server (or for a client
/// certificate, from `issue(forClient: true)`).
public struct TestIdentity: Sendable {
    /// The leaf, PEM; for a leaf issued by an intermediate: the leaf then the chain.
    public var certificatePEM: String
    /// The leaf, DER.
    public var certificateDER: [UInt8]
    /// The leaf's private key, PKCS#8 PEM ("BEGIN PRIVATE KEY").
    public var privateKeyPEM: String
    /// SHA-256 of the leaf's SubjectPublicKeyInfo DER, base64: curl's pin is
    /// `"sha256//" + publicKeySHA256Base64`.
    public var publicKeySHA256Base64: String
    /// The leaf first, then any intermediates (never the root).
    public var chainDER: [[UInt8]]

    public init(
        certificatePEM: String,
        certificateDER: [UInt8],
        privateKeyPEM: String,
        publicKeySHA256Base64: String,
        chainDER: [[UInt8]]
    ) {
        self.certificatePEM = certificatePEM
        self.certificateDER = certificateDER
        self.privateKeyPEM = privateKeyPEM
        self.publicKeySHA256Base64 = publicKeySHA256Base64
        self.chainDER = chainDER
    }

    init(leaf: Certificate, key: P256.Signing.PrivateKey, intermediatesDER: [[UInt8]], intermediatesPEM: [String]) throws {
        let leafDER = try TestCertificateAuthority.der(leaf)
        let leafPEM = try leaf.serializeAsPEM().pemString
        let spki = key.publicKey.derRepresentation
        self.init(
            certificatePEM: ([leafPEM] + intermediatesPEM).joined(separator: "\n") + "\n",
            certificateDER: leafDER,
            privateKeyPEM: key.pemRepresentation + "\n",
            publicKeySHA256Base64: Data(SHA256.hash(data: spki)).base64EncodedString(),
            chainDER: [leafDER] + intermediatesDER
        )
    }
}

/// An error making a test certificate.
public struct TestCertificateError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
