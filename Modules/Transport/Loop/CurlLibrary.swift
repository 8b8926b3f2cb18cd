import CLibCurl
import CWebImageTransport
import Foundation

/// Process-wide libcurl facts and its one-time global initialisation.
package enum CurlLibrary {
    /// libcurl's version, for instance "7.88.1".
    package static let version: String = {
        wi_curl_version().map { String(cString: $0) } ?? "unknown"
    }()

    /// libcurl's version as 0xXXYYZZ.
    package static let versionNumber: UInt32 = wi_curl_version_number()

    /// Whether this libcurl keeps every stream of a multiplexed HTTP/2 connection going.
    /// Before 8.1.0 (Debian 12 ships 7.88) a stream whose receive buffer overflows on
    /// its last DATA frame ends, and the frames of its siblings still in libcurl's
    /// connection buffer are never read: with nothing more on the socket, those siblings
    /// wait for ever (Tools/TestSupport/Reproductions/libcurl-h2-pause shows it; curl 8.1.0 rewrote
    /// that buffering).
    package static let multiplexesSafely: Bool = versionNumber >= 0x08_01_00

    /// `curl_global_init` is not thread-safe in every libcurl: run it once, before any
    /// handle exists. Never cleaned up (OpenSSL's atexit handlers race a global cleanup).
    package static let initialised: Bool = {
        curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK
    }()

    /// The system's CA bundle: libcurl's configured one when present, else the usual Linux
    /// locations (some distributions' libcurl has none configured).
    package static let systemCertificateBundle: String? = {
        var candidates: [String] = []
        if let configured = wi_curl_default_ca_bundle() { candidates.append(String(cString: configured)) }
        candidates += [
            "/etc/ssl/certs/ca-certificates.crt",  // Debian, Ubuntu, Alpine, Arch
            "/etc/pki/tls/certs/ca-bundle.crt",  // Fedora, RHEL
            "/etc/ssl/ca-bundle.pem",  // openSUSE
            "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",
            "/etc/ssl/cert.pem",
        ]
        return candidates.first { FileManager.default.isReadableFile(atPath: $0) }
    }()
}
