import Configuration
import Foundation

/// Reads one section of settings from a `ConfigReader`, typed and checked: an absent key
/// reads as `nil` (the caller keeps its default), a present one that does not fit throws
/// ``WebImageConfigError`` naming the key from the section's root.
///
/// Numbers and booleans are taken in their own type or as strings ("8080", "true"), so
/// the same key reads alike from environment variables (always strings) and from a JSON
/// file whose author quoted a number; an integer is taken where seconds go, and a
/// whole decimal (8.0) where an integer goes.
struct SettingsReader {
    let config: ConfigReader
    /// The dotted path of this section from the reader the caller gave, for errors.
    let path: [String]

    init(_ config: ConfigReader, path: [String] = []) {
        self.config = config
        self.path = path
    }

    /// The section under `name`.
    func scoped(to name: String) -> SettingsReader {
        SettingsReader(config.scoped(to: ConfigKey(name)), path: path + [name])
    }

    func error(_ key: String, _ problem: WebImageConfigError.Problem, _ expected: String) -> WebImageConfigError {
        WebImageConfigError(key: (path + [key]).joined(separator: "."), problem: problem, expected: expected)
    }

    /// Whether the key has a value of any type.
    private func isPresent(_ key: ConfigKey) -> Bool {
        config.string(forKey: key) != nil || config.int(forKey: key) != nil || config.double(forKey: key) != nil
            || config.bool(forKey: key) != nil || config.stringArray(forKey: key) != nil || config.intArray(forKey: key) != nil
            || config.doubleArray(forKey: key) != nil || config.boolArray(forKey: key) != nil
    }

    /// A string; `nil` when absent. An empty string counts as absent.
    func string(_ key: String, isSecret: Bool = false) throws(WebImageConfigError) -> String? {
        let configKey = ConfigKey(key)
        if let value = config.string(forKey: configKey, isSecret: isSecret) {
            let trimmed = value.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty ? nil : trimmed
        }
        if isPresent(configKey) { throw error(key, .wrongType, "a string") }
        return nil
    }

    /// A list of strings: an array, or one string of comma-separated items (as environment
    /// variables give lists). Empty items are dropped; `nil` when absent.
    func strings(_ key: String) throws(WebImageConfigError) -> [String]? {
        let configKey = ConfigKey(key)
        let items: [String]
        if let array = config.stringArray(forKey: configKey) {
            items = array
        } else if let string = config.string(forKey: configKey) {
            items = string.split(separator: ",").map(String.init)
        } else if isPresent(configKey) {
            throw error(key, .wrongType, "a list of strings")
        } else {
            return nil
        }
        return items.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// An integer within `range`; `nil` when absent.
    func int(_ key: String, in range: ClosedRange<Int>, expected: String) throws(WebImageConfigError) -> Int? {
        let configKey = ConfigKey(key)
        let value: Int
        if let int = config.int(forKey: configKey) {
            value = int
        } else if let double = config.double(forKey: configKey), let int = Int(exactly: double) {
            value = int
        } else if let string = config.string(forKey: configKey), let int = Int(string.trimmingCharacters(in: .whitespaces)) {
            value = int
        } else if isPresent(configKey) {
            throw error(key, .wrongType, expected)
        } else {
            return nil
        }
        guard range.contains(value) else { throw error(key, .outOfRange, expected) }
        return value
    }

    /// An integer, 0 or more; `nil` when absent.
    func count(_ key: String) throws(WebImageConfigError) -> Int? {
        try int(key, in: 0...Int.max, expected: "an integer, 0 or more")
    }

    /// An integer, 1 or more; `nil` when absent.
    func positiveCount(_ key: String) throws(WebImageConfigError) -> Int? {
        try int(key, in: 1...Int.max, expected: "an integer, 1 or more")
    }

    /// A number of seconds (an integer or a decimal) within `range`; `nil` when absent.
    func seconds(_ key: String, in range: ClosedRange<Double>, expected: String) throws(WebImageConfigError) -> Double? {
        let configKey = ConfigKey(key)
        let value: Double
        if let double = config.double(forKey: configKey) {
            value = double
        } else if let int = config.int(forKey: configKey) {
            value = Double(int)
        } else if let string = config.string(forKey: configKey), let double = Double(string.trimmingCharacters(in: .whitespaces)) {
            value = double
        } else if isPresent(configKey) {
            throw error(key, .wrongType, expected)
        } else {
            return nil
        }
        guard value.isFinite, range.contains(value) else { throw error(key, .outOfRange, expected) }
        return value
    }

    /// A number of seconds, 0 or more; `nil` when absent.
    func nonNegativeSeconds(_ key: String, expected: String = "a number of seconds, 0 or more") throws(WebImageConfigError) -> Double? {
        try seconds(key, in: 0...Self.longestSeconds, expected: expected)
    }

    /// A duration given in seconds, more than 0 (at most about 31 years); `nil` when absent.
    func duration(_ key: String) throws(WebImageConfigError) -> Duration? {
        let expected = "a number of seconds, more than 0"
        guard let seconds = try seconds(key, in: 0...Self.longestSeconds, expected: expected) else { return nil }
        guard seconds > 0 else { throw error(key, .outOfRange, expected) }
        return .seconds(seconds)
    }

    /// A Boolean: `true`/`false`, `yes`/`no` or `1`/`0`; `nil` when absent.
    func bool(_ key: String) throws(WebImageConfigError) -> Bool? {
        let configKey = ConfigKey(key)
        if let bool = config.bool(forKey: configKey) { return bool }
        if let string = config.string(forKey: configKey) {
            switch string.trimmingCharacters(in: .whitespaces).lowercased() {
            case "true", "yes", "1": return true
            case "false", "no", "0": return false
            default: break
            }
        }
        if isPresent(configKey) { throw error(key, .wrongType, "true or false") }
        return nil
    }

    /// The longest duration taken, in seconds: a billion, about 31 years.
    static let longestSeconds: Double = 1_000_000_000
}
