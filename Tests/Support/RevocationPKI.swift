import Foundation

/// A certificate authority hierarchy with revocations, made at test time with the
/// `openssl` program in a temporary folder: a root; an intermediate it issues and one it
/// revokes (in `root.crl.pem`); under the intermediate a good and a revoked (keyCompromise)
/// server certificate for 127.0.0.1, its CRL and an OCSP response about each; a server
/// certificate under the revoked intermediate; a forged authority with the intermediate's
/// name and another key, with its CRL and an OCSP response it signed; and, when the
/// `faketime` program exists, a CRL and an OCSP response that expired nine days ago.
public final class RevocationPKI: @unchecked Sendable {
    public let folder: TemporaryDirectory

    /// Why the revocation tests cannot run here, or `nil` when `openssl` and `nginx` exist.
    public static let missingMessage: String? = {
        let missing = ["openssl", "nginx"].filter { ExternalProgram.locate($0) == nil }
        guard !missing.isEmpty else { return nil }
        return "\(missing.joined(separator: " and ")) not found (apt-get install nginx openssl); revocation tests skipped"
    }()

    public static var isAvailable: Bool { missingMessage == nil }

    public init() throws {
        folder = try TemporaryDirectory()
        try ExternalProgram.run("/bin/sh", ["-c", Self.script], in: folder.url)
    }

    /// A file of the hierarchy, e.g. `good.chain.pem`, `inter/ca.pem`, `inter.crl.pem`.
    public func url(_ name: String) -> URL { folder.url.appendingPathComponent(name) }

    /// The bytes of a file of the hierarchy.
    public func bytes(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: url(name))) }

    /// Whether a file was made (the expired ones need `faketime`).
    public func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: url(name).path) }

    /// The certificates of a PEM file, DER each.
    public func certificates(_ name: String) throws -> [[UInt8]] {
        let text = String(decoding: try Data(contentsOf: url(name)), as: UTF8.self)
        return text.components(separatedBy: "-----BEGIN CERTIFICATE-----").dropFirst().compactMap { block in
            let body = block.components(separatedBy: "-----END CERTIFICATE-----")[0]
            return Data(base64Encoded: body.filter { !$0.isWhitespace }).map { Array($0) }
        }
    }

    private static let script = #"""
        set -e
        \#(OpenSSLCAScript.functions)
        printf 'basicConstraints=critical,CA:false\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1\nauthorityKeyIdentifier=keyid\n' > leaf.ext
        # issue CA_DIR NAME CN EXT: NAME.key, NAME.pem signed by CA_DIR's ca.pem
        issue() {
          key "$2.key"
          openssl req -new -key "$2.key" -subj "/CN=$3" -out "$2.csr" 2>/dev/null
          openssl ca -batch -notext -config "$1/ca.cnf" -cert "$1/ca.pem" -keyfile "$1/ca.key" -days 30 -extfile "$4" -in "$2.csr" -out "$2.pem" 2>/dev/null
        }
        revoke() { openssl ca -config "$1/ca.cnf" -cert "$1/ca.pem" -keyfile "$1/ca.key" -revoke "$2" -crl_reason keyCompromise 2>/dev/null; }
        crl() { openssl ca -gencrl -config "$1/ca.cnf" -cert "$1/ca.pem" -keyfile "$1/ca.key" -crldays 7 -out "$2" 2>/dev/null; }
        ocsp() { openssl ocsp -index "$1/index.txt" -rsigner "$1/ca.pem" -rkey "$1/ca.key" -CA "$1/ca.pem" -issuer "$1/ca.pem" -cert "$2" -respout "$3" -ndays 1 >/dev/null 2>&1; }

        # root, and an intermediate it issues (and one it revokes)
        ca_dir root; key root/ca.key
        openssl req -x509 -new -key root/ca.key -subj "/CN=Revocation Test Root" -days 30 -addext basicConstraints=critical,CA:true -addext keyUsage=critical,keyCertSign,cRLSign -out root/ca.pem 2>/dev/null
        ca_dir inter; issue root inter/ca "Revocation Test Intermediate" ca.ext
        ca_dir badinter; issue root badinter/ca "Revocation Test Revoked Intermediate" ca.ext
        revoke root badinter/ca.pem
        crl root root.crl.pem
        # leaves: good and revoked under the intermediate, one under the revoked intermediate
        issue inter good "good server" leaf.ext
        issue inter revoked "revoked server" leaf.ext
        revoke inter revoked.pem
        issue badinter underbad "server under a revoked intermediate" leaf.ext
        crl inter inter.crl.pem
        crl badinter badinter.crl.pem
        ocsp inter good.pem good.ocsp.der
        ocsp inter revoked.pem revoked.ocsp.der
        # a forged authority: same name as the intermediate, another key
        ca_dir forged; key forged/ca.key
        openssl req -x509 -new -key forged/ca.key -subj "/CN=Revocation Test Intermediate" -days 30 -addext basicConstraints=critical,CA:true -addext keyUsage=critical,keyCertSign,cRLSign -out forged/ca.pem 2>/dev/null
        crl forged forged.crl.pem
        ocsp_forged() { openssl ocsp -index inter/index.txt -rsigner forged/ca.pem -rkey forged/ca.key -CA inter/ca.pem -issuer inter/ca.pem -cert "$1" -respout "$2" -ndays 1 >/dev/null 2>&1; }
        ocsp_forged good.pem forged.ocsp.der
        # served chains: leaf + its issuer
        cat good.pem inter/ca.pem > good.chain.pem
        cat revoked.pem inter/ca.pem > revoked.chain.pem
        cat underbad.pem badinter/ca.pem > underbad.chain.pem
        # expired answers, made ten days ago (faketime) with one day's validity, when faketime exists
        if command -v faketime >/dev/null 2>&1; then
          faketime -f '-10d' openssl ca -gencrl -config inter/ca.cnf -cert inter/ca.pem -keyfile inter/ca.key -crldays 1 -out expired.crl.pem 2>/dev/null || true
          faketime -f '-10d' openssl ocsp -index inter/index.txt -rsigner inter/ca.pem -rkey inter/ca.key -CA inter/ca.pem -issuer inter/ca.pem -cert good.pem -respout expired.ocsp.der -ndays 1 >/dev/null 2>&1 || true
        fi
        """#
}
