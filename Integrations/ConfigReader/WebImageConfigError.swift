/// A setting that is present but cannot be used: of the wrong type, out of its range, or
/// given without the setting it goes with.
///
/// A setting that is absent is never an error: the configuration keeps its default. One
/// that is present but unusable is never ignored either, so a typo in a number does not
/// quietly run a server on the default. The error names the key, relative to the reader
/// the settings were read from, and what it should have been; it never repeats the value,
/// which may be a secret.
public struct WebImageConfigError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the value.
    public enum Problem: Sendable, Hashable {
        /// The value is not of the key's type (a word where a number goes, say).
        case wrongType
        /// The value has the key's type but not an allowed value (a negative count, a
        /// port above 65535, a signing key that is not hex).
        case outOfRange
        /// The key goes with another one that is missing (a signing key without its salt).
        case incomplete
    }

    /// The key, dotted, relative to the reader given (`transport.maximumConnectionsPerHost`).
    public var key: String
    public var problem: Problem
    /// What the key takes, in words (`an integer, 0 or more`).
    public var expected: String

    public init(key: String, problem: Problem, expected: String) {
        self.key = key
        self.problem = problem
        self.expected = expected
    }

    public var description: String {
        switch problem {
        case .wrongType, .outOfRange: "configuration key \(key): expected \(expected)"
        case .incomplete: "configuration key \(key): \(expected)"
        }
    }
}
