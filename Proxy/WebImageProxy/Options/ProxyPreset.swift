/// A named set of options (`preset:NAME` or `pr:NAME` in a URL), as an operator
/// defines them: `thumb=rs:fill:300:300/q:80` (`ProxyPreset(parsing:)`).
///
/// Presets expand where they stand, so options after one override it. A preset named
/// `default`, when there is one, applies to every request before its own options.
public struct ProxyPreset: Sendable, Hashable {
    public let name: String
    /// The options, as URL segments (`rs:fill:300:300`, `q:80`).
    public let options: [String]

    public init(name: String, options: [String]) {
        self.name = name
        self.options = options
    }

    /// A preset written `NAME=OPTION/OPTION/...`, as on the program's command line.
    ///
    /// - Throws: ``ProxyError`` (400) when there is no `=`, the name is empty, or an
    ///   option does not parse.
    public init(parsing text: String) throws(ProxyError) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw ProxyError(.badOptions, "a preset is written NAME=OPTION/OPTION/..., not \"\(text)\"")
        }
        let options = text[text.index(after: equals)...].split(separator: "/").map(String.init)
        // Parsed once here, so a bad preset is refused when the proxy starts, not per request.
        var scratch = ProcessingOptions()
        for option in options {
            try OptionParser.apply(option, to: &scratch, presets: [:], depth: 0)
        }
        self.init(name: String(text[..<equals]), options: options)
    }
}
