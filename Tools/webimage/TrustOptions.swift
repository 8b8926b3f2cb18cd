import ArgumentParser
import Foundation
import WebImage

/// The TLS trust flags of the commands that download: which servers to believe.
///
/// Like curl's `--cacert`, `--pinnedpubkey` and `--insecure`, each applies to every host
/// the command reaches, redirects included.
struct TrustOptions: ParsableArguments {
    @Option(
        name: .customLong("ca-file"),
        help: ArgumentHelp(
            "Trust servers whose certificate chains to a CA in this PEM file (instead of the system's CAs).",
            valueName: "pem"))
    var certificateAuthorityFile: String?

    @Option(
        name: .customLong("pin-public-key"),
        help: ArgumentHelp(
            "Also require a certificate of the server's chain to have this public key (repeatable; any pin may match).",
            valueName: "sha256//base64"))
    var publicKeyPins: [String] = []

    @Flag(
        name: .customLong("allow-invalid-certificates"),
        help: "DANGEROUS: skip certificate validation (development servers only); pins still apply.")
    var allowInvalidCertificates = false

    func validate() throws {
        if allowInvalidCertificates, certificateAuthorityFile != nil {
            throw ValidationError("--allow-invalid-certificates and --ca-file contradict each other: pick one")
        }
        for pin in publicKeyPins {
            do { _ = try PublicKeyPin(pin) } catch { throw ValidationError("--pin-public-key: \(error.message)") }
        }
        if let file = certificateAuthorityFile {
            do { _ = try Certificate.load(contentsOf: URL(fileURLWithPath: file)) } catch {
                throw ValidationError("--ca-file: \(error.message)")
            }
        }
    }

    /// The policy for the transport, or nil for libcurl's own validation (the system's
    /// CAs and the host name) when no flag was given.
    func trustPolicy() throws -> (any ServerTrustPolicy)? {
        // The chain: anchored on the CA file, or the system's CAs when only pins were
        // given (a pin narrows the default validation, it does not replace it), or
        // nothing at all when certificates may be invalid.
        var evaluators: [any ServerTrustEvaluating] = []
        if let file = certificateAuthorityFile {
            evaluators.append(try AnchoredTrustEvaluator(contentsOf: [URL(fileURLWithPath: file)]))
        } else if !allowInvalidCertificates, !publicKeyPins.isEmpty {
            evaluators.append(DefaultTrustEvaluator())
        }
        // The pins: checked after the chain, which the evaluator above already validated.
        if !publicKeyPins.isEmpty {
            let pins = try publicKeyPins.map { pin throws(SecurityError) in try PublicKeyPin(pin) }
            evaluators.append(PublicKeyPinningTrustEvaluator(pins: pins, performsDefaultValidation: false))
        }
        if evaluators.isEmpty, allowInvalidCertificates {
            evaluators.append(DangerouslyDisabledTrustEvaluator())
        }
        switch evaluators.count {
        case 0: return nil
        case 1: return AllHostsTrustPolicy(evaluators[0])
        default: return AllHostsTrustPolicy(CompositeTrustEvaluator(evaluators))
        }
    }
}
