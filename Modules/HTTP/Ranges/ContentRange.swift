/// The byte range a `206 Partial Content` carries, from its `Content-Range` field
/// (RFC 9110 §14.4): `bytes 500-999/1234` is bytes 500 to 999, both included, of 1234.
///
/// ```swift
/// let range = try ContentRange(parsing: "bytes 500-999/1234")
/// print(range.first, range.last, range.completeLength ?? -1)   // 500 999 1234
/// ```
public struct ContentRange: Sendable, Hashable, CustomStringConvertible {
    /// The position of the first byte, from 0.
    public let first: Int64
    /// The position of the last byte, included.
    public let last: Int64
    /// The length of the whole representation; `nil` when the server sent `*` (unknown).
    public let completeLength: Int64?

    /// A range, checked as RFC 9110 asks: `first <= last`, and `last < completeLength`.
    ///
    /// - Throws: ``RangeError/Code/invalidRange`` otherwise.
    public init(first: Int64, last: Int64, completeLength: Int64?) throws(RangeError) {
        guard first >= 0, last >= first else {
            throw RangeError(.invalidRange, "last position \(last) before first position \(first)")
        }
        if let completeLength, completeLength <= last {
            throw RangeError(.invalidRange, "last position \(last) not before the complete length \(completeLength)")
        }
        self.first = first
        self.last = last
        self.completeLength = completeLength
    }

    /// Reads a `Content-Range` field value in one pass (spaces and tabs around it are
    /// allowed; inside it, exactly one space after the unit).
    ///
    /// - Throws: ``RangeError/Code/unsupportedRangeUnit`` for a unit other than `bytes`
    ///   (compared without case), ``RangeError/Code/unsatisfiedRange`` for `bytes */n`,
    ///   ``RangeError/Code/invalidRange`` for positions out of order, and
    ///   ``RangeError/Code/malformedContentRange`` for anything else.
    public init(parsing field: String) throws(RangeError) {
        let value = trimmingOptionalWhitespace(Substring(field).utf8)
        guard let space = value.firstIndex(of: 0x20) else { throw Self.malformed(field) }
        guard value[..<space].elementsEqual("bytes".utf8, by: { ($0 | 0x20) == $1 }) else {
            // Any other unit is a token we cannot use; "bytes" is the only one registered.
            throw RangeError(.unsupportedRangeUnit, "unit \(String(Substring(value[..<space]))) is not bytes")
        }
        var rest = value[value.index(after: space)...]
        if rest.first == UInt8(ascii: "*") {
            throw RangeError(.unsatisfiedRange, "no range was satisfied: \(field)")
        }
        guard let first = leadingDecimal(rest) else { throw Self.malformed(field) }
        rest = rest.dropFirst(first.count)
        guard rest.first == UInt8(ascii: "-") else { throw Self.malformed(field) }
        rest = rest.dropFirst()
        guard let last = leadingDecimal(rest) else { throw Self.malformed(field) }
        rest = rest.dropFirst(last.count)
        guard rest.first == UInt8(ascii: "/") else { throw Self.malformed(field) }
        rest = rest.dropFirst()
        var completeLength: Int64?
        if rest.elementsEqual(CollectionOfOne(UInt8(ascii: "*"))) {
            completeLength = nil
        } else {
            guard let length = leadingDecimal(rest), length.count == rest.count else { throw Self.malformed(field) }
            completeLength = length.value
        }
        try self.init(first: first.value, last: last.value, completeLength: completeLength)
    }

    /// How many bytes the range holds.
    public var length: Int64 { last - first + 1 }

    /// The field value: `bytes 500-999/1234`, or `bytes 500-999/*`.
    public var description: String {
        "bytes \(first)-\(last)/" + (completeLength.map(String.init) ?? "*")
    }

    private static func malformed(_ field: String) -> RangeError {
        // The value may be huge and hostile: quote only its start.
        RangeError(.malformedContentRange, "not a byte range: \(field.prefix(80))")
    }
}
