import Foundation
import WebImageCore

/// The blocks of a PEM text, each kept exactly as written (with any `Proc-Type` and
/// `DEK-Info` headers, which an encrypted PKCS#1 or SEC1 key needs), so that they can be
/// handed on to OpenSSL. The module's one PEM scanner: client identities and trust
/// anchors read the same blocks.
struct PEMText {
    struct Block {
        /// What follows `-----BEGIN ` (`CERTIFICATE`, `PRIVATE KEY`, ...).
        var label: String
        /// From the `BEGIN` line to the `END` line, one `\n` after each line.
        var text: String

        /// The decoded body: the base64 lines between `BEGIN` and `END`, header lines
        /// (`Proc-Type: ...`, `DEK-Info: ...`) left out; `nil` when the base64 is broken.
        var derBytes: [UInt8]? {
            let lines = text.split(separator: "\n").dropFirst().dropLast().filter { !$0.contains(":") }
            return Data(base64Encoded: lines.joined(), options: .ignoreUnknownCharacters).map { Array($0) }
        }

        /// Whether the body is non-empty base64.
        var hasValidBody: Bool {
            guard let bytes = derBytes else { return false }
            return !bytes.isEmpty
        }

        /// Whether the block holds an encrypted private key: PKCS#8 `ENCRYPTED PRIVATE KEY`,
        /// or a PKCS#1 / SEC1 key with a `Proc-Type: 4,ENCRYPTED` header.
        var isEncrypted: Bool {
            label == "ENCRYPTED PRIVATE KEY" || text.contains("Proc-Type: 4,ENCRYPTED")
        }
    }

    var blocks: [Block] = []

    /// Reads every `-----BEGIN X-----` ... `-----END X-----` block, each line trimmed of
    /// spaces and ended by `\n`; text outside blocks, and a block whose `END` label differs
    /// from its `BEGIN` or that never ends, is skipped.
    init(_ text: String) {
        var label: String?
        var lines: [String] = []
        // Empty lines are kept inside a block: OpenSSL needs the one that ends the headers
        // of an encrypted PKCS#1 or SEC1 key.
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let trimmed = rawLine.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("-----BEGIN "), trimmed.hasSuffix("-----"), trimmed.count >= 16 {
                label = String(trimmed.dropFirst(11).dropLast(5))
                lines = [trimmed]
            } else if trimmed.hasPrefix("-----END "), let open = label {
                if trimmed == "-----END \(open)-----" {
                    lines.append(trimmed)
                    blocks.append(Block(label: open, text: lines.joined(separator: "\n") + "\n"))
                }
                label = nil
                lines = []
            } else if label != nil {
                lines.append(trimmed)
            }
        }
    }
}
