import Testing
import WebImageFixtures

@testable import WebImageProxy

/// The proxy reads a URL's numbers with its own readers; they must read exactly what the
/// standard library's `Int(_:)` and `Double(_:)` read, bit for bit, accepted or not.
@Suite("Numbers in option arguments")
struct DecimalTextTests {
    static let written: [String] = [
        "0", "7", "300", "+5", "-0", "-12", "16384", "007", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "-9223372036854775809", "", "+", "-", "--1", "+-1", "1-", "1 ", " 1", "1_000", "0x10", "٣",
        "0.5", ".5", "5.", ".", "-.5", "+0.25", "0.3", "0.6", "0.1", "1.5", "2.675", "0.9999999999999999", "123456789012345",
        "1234567890123456", "0.000000000000000000001", "0.0000000000000000000001", "0.00000000000000000000001",
        "100.000000000000000000000", "1e3", "1E-2", "inf", "-infinity", "nan", "0x1p3", "1..2", "1.2.3", "12a", "a12",
        "255", "256", "1000", "1000.0001", "4102444800",
    ]

    @Test("integers: every written form reads as Int(_:) reads it", arguments: written)
    func integers(_ text: String) {
        #expect(DecimalText.integer(Substring(text)) == Int(text))
    }

    @Test("decimals: every written form reads as Double(_:) reads it, to the bit", arguments: written)
    func decimals(_ text: String) {
        #expect(DecimalText.number(Substring(text)).map(\.bitPattern) == Double(text).map(\.bitPattern))
    }

    @Test("decimals: 20,000 random numbers of up to 15 digits read as Double(_:) reads them")
    func randomDecimals() {
        var generator = SeededGenerator(seed: 0x5EED)
        var mismatches: [String] = []
        for _ in 0..<20_000 {
            let whole = generator.next() % 1_000_000
            let fractionDigits = Int(generator.next() % 10)
            var text = (generator.next() % 4 == 0 ? "-" : "") + String(whole)
            if fractionDigits > 0 {
                text += "."
                for _ in 0..<fractionDigits { text += String(generator.next() % 10) }
            }
            if DecimalText.number(Substring(text)).map(\.bitPattern) != Double(text).map(\.bitPattern) {
                mismatches.append(text)
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    @Test("slices are read without what surrounds them")
    func slices() {
        let segment = "g:fp:0.3:0.6"
        let parts = segment.split(separator: ":")
        #expect(DecimalText.number(parts[2]) == 0.3)
        #expect(DecimalText.number(parts[3]) == 0.6)
        #expect(DecimalText.integer(parts[2]) == nil)
    }
}
