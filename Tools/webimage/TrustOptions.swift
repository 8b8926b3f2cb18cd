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

    @Option(
        name: .customLong("crl-file"),
        help: ArgumentHelp(
            "Refuse a server whose certificate this revocation list (PEM or DER) revokes (repeatable). The list must be current and signed by the certificate's issuer.",
            valueName: "file"))
    var revocationListFiles: [String] = []

    @Flag(
        name: .customLong("crl-whole-chain"),
        help: "Ask the --crl-file lists about every certificate of the chain, not only the server's own.")
    var revocationListsCoverChain = false

    @Flag(
        name: .customLong("require-ocsp"),
        help: "Require the server to staple a current OCSP response, signed by its certificate's issuer, saying the certificate is good.")
    var requireOCSP = false

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
        if allowInvalidCertificates, checksRevocation {
            throw ValidationError(
                "--allow-invalid-certificates and --crl-file or --require-ocsp contradict each other: a revocation answer is as trustworthy as the chain that vouches for its signer"
            )
        }
        if revocationListsCoverChain, revocationListFiles.isEmpty {
            throw ValidationError("--crl-whole-chain needs --crl-file")
        }
        do { _ = try revocationEvaluators(anchors: .system) } catch { throw ValidationError("--crl-file: \(error.message)") }
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
        } else if !allowInvalidCertificates, !publicKeyPins.isEmpty || checksRevocation {
            evaluators.append(DefaultTrustEvaluator())
        }
        // The pins: checked after the chain, which the evaluator above already validated.
        if !publicKeyPins.isEmpty {
            let pins = try publicKeyPins.map { pin throws(SecurityError) in try PublicKeyPin(pin) }
            evaluators.append(PublicKeyPinningTrustEvaluator(pins: pins, performsDefaultValidation: false))
        }
        // Revocation: after the chain, whose issuers sign the answers.
        if checksRevocation {
            let anchors: TrustAnchors =
                if let file = certificateAuthorityFile { .custom(try Certificate.load(contentsOf: URL(fileURLWithPath: file))) } else {
                    .system
                }
            evaluators += try revocationEvaluators(anchors: anchors)
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

    private var checksRevocation: Bool { requireOCSP || !revocationListFiles.isEmpty }

    /// One evaluator per flag, so that --require-ocsp means a stapled good answer even
    /// when a list also says good, and a list's answer is checked even when OCSP says good.
    private func revocationEvaluators(anchors: TrustAnchors) throws(SecurityError) -> [any ServerTrustEvaluating] {
        var evaluators: [any ServerTrustEvaluating] = []
        if requireOCSP {
            evaluators.append(
                RevocationTrustEvaluator(options: [.ocsp, .requirePositiveResponse], anchors: anchors, performsDefaultValidation: false))
        }
        if !revocationListFiles.isEmpty {
            evaluators.append(
                try RevocationTrustEvaluator(
                    options: [.crl], revocationListFiles: revocationListFiles.map { URL(fileURLWithPath: $0) },
                    scope: revocationListsCoverChain ? .wholeChain : .leaf, anchors: anchors, performsDefaultValidation: false))
        }
        return evaluators
    }
}
