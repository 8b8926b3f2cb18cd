/// Why some bytes are not a usable ICC profile.
///
/// A decoder that meets such a profile ignores it, shows the stored pixels as sRGB (as
/// browsers do) and says so in ``DecodedImage/warnings``.
public struct ColorProfileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the profile.
    public enum Reason: Sendable, Hashable {
        /// Over ``ColorProfile/maximumByteCount``.
        case tooLarge
        /// Shorter than the size its header declares, or than a header.
        case truncated
        /// Not an ICC profile, or one whose header or tag table is impossible.
        case malformed
        /// A profile the colour engine refuses, or one of a space the pixels cannot be in.
        case unusable
    }

    /// What is wrong.
    public let reason: Reason
    /// Detail, for people and logs.
    public let message: String

    /// An error for `reason`, with `message` for logs.
    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    public var description: String { "\(reason): \(message)" }
}
