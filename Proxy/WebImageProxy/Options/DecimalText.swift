/// Numbers read from a URL's ASCII arguments without the standard library's generic
/// parsers, which copy a `Substring` and cost about 0.2 µs each: a request path holds
/// dozens of numbers, and they were most of its parse. Both read exactly what
/// `Int(_:)` and `Double(_:)` read.
enum DecimalText {
    /// `[+-]digits`, as `Int(text)` reads it: `nil` for anything else or on overflow.
    static func integer(_ text: Substring) -> Int? {
        var text = text
        return text.withUTF8 { integer(PathText($0)) }
    }

    /// A decimal number as `Double(text)` reads it.
    static func number(_ text: Substring) -> Double? {
        var text = text
        return text.withUTF8 { number(PathText($0)) }
    }

    /// `[+-]digits`, as `Int(text)` reads it: `nil` for anything else or on overflow.
    static func integer(_ text: PathText) -> Int? {
        var bytes = text.bytes.makeIterator()
        guard var byte = bytes.next() else { return nil }
        let negative = byte == UInt8(ascii: "-")
        if negative || byte == UInt8(ascii: "+") {
            guard let next = bytes.next() else { return nil }
            byte = next
        }
        var value = 0
        while true {
            let digit = Int(byte) - 0x30
            guard digit >= 0, digit <= 9 else { return nil }
            let (shifted, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (sum, carried) = negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflowed, !carried else { return nil }
            value = sum
            guard let next = bytes.next() else { return value }
            byte = next
        }
    }

    /// A decimal number as `Double(text)` reads it. `[+-]digits[.digits]` with at most 15
    /// significant digits and 22 after the point is computed here: the digits and the
    /// power of ten are both exact doubles, so one division rounds correctly, as
    /// `strtod` does. Anything else (exponents, `inf`, hex floats, long fractions) is
    /// left to `Double(_:)`.
    static func number(_ text: PathText) -> Double? {
        var mantissa: Int64 = 0
        var significant = 0
        var fraction = 0
        var digits = 0
        var seenPoint = false
        var negative = false
        var first = true
        for byte in text.bytes {
            defer { first = false }
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits += 1
                if seenPoint { fraction += 1 }
                if mantissa != 0 || byte != UInt8(ascii: "0") { significant += 1 }
                mantissa = mantissa &* 10 &+ Int64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: ".") where !seenPoint:
                seenPoint = true
            case UInt8(ascii: "-") where first, UInt8(ascii: "+") where first:
                negative = byte == UInt8(ascii: "-")
            default:
                return Double(text.string)
            }
            guard significant <= 15, fraction <= 22 else { return Double(text.string) }
        }
        guard digits > 0 else { return Double(text.string) }
        let magnitude = Double(mantissa) / powersOfTen[fraction]
        return negative ? -magnitude : magnitude
    }

    /// 10^0 through 10^22, each exact in a double.
    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }
}
