/// HTTP header fields in the order they were given or received. Names compare without
/// regard to case; a name may appear more than once.
public struct HTTPHeaderFields: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    public typealias Element = (name: String, value: String)

    private var fields: [Field]

    private struct Field: Sendable, Hashable {
        var name: String
        var value: String
    }

    public init() { fields = [] }

    public init(_ pairs: [(String, String)]) {
        fields = pairs.map { Field(name: $0.0, value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The first value for `name`, compared without case.
    public subscript(name: String) -> String? {
        fields.first { $0.name.caseInsensitiveEquals(name) }?.value
    }

    /// Every value for `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// Adds a field, keeping any with the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field named `name` with one field.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    public mutating func remove(_ name: String) {
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
    }

    public var count: Int { fields.count }
    public var isEmpty: Bool { fields.isEmpty }

    public func makeIterator() -> some IteratorProtocol<Element> {
        fields.lazy.map { (name: $0.name, value: $0.value) }.makeIterator()
    }

    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }
}

extension String {
    /// ASCII case-insensitive equality, without allocating (header names are ASCII).
    package func caseInsensitiveEquals(_ other: String) -> Bool {
        // Most names differ in length: a header lookup then costs one comparison each.
        guard utf8.count == other.utf8.count else { return false }
        var a = utf8.makeIterator()
        var b = other.utf8.makeIterator()
        while true {
            switch (a.next(), b.next()) {
            case (nil, nil): return true
            case (let x?, let y?):
                if x == y { continue }
                if (x | 0x20) != (y | 0x20) { return false }
                let lower = x | 0x20
                if lower < UInt8(ascii: "a") || lower > UInt8(ascii: "z") { return false }
            default: return false
            }
        }
    }
}

extension StringProtocol where SubSequence == Substring {
    /// Without the spaces and tabs at either end (HTTP's optional whitespace, RFC 9110
    /// §5.6.3). Foundation's `trimmingCharacters` goes through `NSString` and costs
    /// microseconds per call; header parsing runs on every response.
    package var trimmingHTTPWhitespace: Substring {
        let all = self[...]
        func isWhitespace(_ character: Character) -> Bool { character == " " || character == "\t" }
        guard let first = all.firstIndex(where: { !isWhitespace($0) }),
            let last = all.lastIndex(where: { !isWhitespace($0) })
        else { return all[all.endIndex...] }
        return all[first...last]
    }
}
