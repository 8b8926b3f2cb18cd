/// A run of a request path's UTF-8 bytes, read in place: a path's segments and an
/// option's arguments are pieces of one buffer, so reading them copies nothing, counts
/// no references and never steps a `String.Index`. Valid only inside the
/// ``withPathText(_:_:)`` call that made it; a value kept beyond it is made a `String`.
///
/// The pieces are cut at ASCII bytes (`/`, `:`, `@`), which never fall inside a
/// multibyte character, so every piece of valid UTF-8 is valid UTF-8.
struct PathText: CustomStringConvertible {
    let bytes: UnsafeBufferPointer<UInt8>

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    var count: Int { bytes.count }
    var isEmpty: Bool { bytes.isEmpty }
    subscript(offset: Int) -> UInt8 { bytes[offset] }

    /// The bytes from `range.lowerBound` to `range.upperBound`, offsets into this text.
    subscript(range: Range<Int>) -> PathText { PathText(UnsafeBufferPointer(rebasing: bytes[range])) }

    /// The text from `offset` to its end.
    func dropping(_ offset: Int) -> PathText { self[offset..<count] }

    /// The text as a `String`, for a value that outlives the buffer or an API that takes one.
    var string: String { String(decoding: bytes, as: UTF8.self) }
    var description: String { string }

    /// Whether the text is exactly `literal`, compared byte for byte.
    func `is`(_ literal: StaticString) -> Bool {
        guard literal.utf8CodeUnitCount == count else { return false }
        var offset = 0
        let literalBytes = literal.utf8Start
        while offset < count {
            guard literalBytes[offset] == bytes[offset] else { return false }
            offset += 1
        }
        return true
    }

    /// The offset of the first `byte`, or `nil`.
    func firstOffset(of byte: UInt8) -> Int? {
        var offset = 0
        while offset < count {
            if bytes[offset] == byte { return offset }
            offset += 1
        }
        return nil
    }

    /// The offset of the last `byte`, or `nil`.
    func lastOffset(of byte: UInt8) -> Int? {
        var offset = count
        while offset > 0 {
            offset -= 1
            if bytes[offset] == byte { return offset }
        }
        return nil
    }

    /// How many times `byte` occurs.
    func occurrences(of byte: UInt8) -> Int {
        var found = 0
        for each in bytes where each == byte { found += 1 }
        return found
    }
}

/// Runs `body` over the UTF-8 bytes of `text`, in place when the string is stored as
/// UTF-8 (as every string read from a request is), copied once otherwise.
func withPathText<Value>(_ text: String, _ body: (PathText) throws(ProxyError) -> Value) throws(ProxyError) -> Value {
    var text = text
    // `withUTF8` rethrows untyped errors; the typed one rides out in a `Result`.
    let outcome = text.withUTF8 { bytes in Result { () throws(ProxyError) -> Value in try body(PathText(bytes)) } }
    return try outcome.get()
}
