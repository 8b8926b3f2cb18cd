import Testing
import WebImageHTTP

@Suite("ContentRange: RFC 9110 §14.4")
struct ContentRangeTests {
    @Test("reads a range with its complete length, or an unknown one")
    func reads() throws {
        let range = try ContentRange(parsing: "bytes 500-999/1234")
        #expect(range.first == 500 && range.last == 999 && range.completeLength == 1234 && range.length == 500)
        #expect(range.description == "bytes 500-999/1234")
        let unknown = try ContentRange(parsing: " \tBYTES 0-0/*  ")
        #expect(unknown.completeLength == nil && unknown.length == 1)
        #expect(unknown.description == "bytes 0-0/*")
    }

    @Test("refuses positions out of order, past the length, and the unsatisfied form, each with its code")
    func refusesInvalid() {
        #expect(code("bytes 10-9/100") == .invalidRange)
        #expect(code("bytes 0-100/100") == .invalidRange)
        #expect(code("bytes 0-0/0") == .invalidRange)
        #expect(code("bytes */100") == .unsatisfiedRange)
        #expect(code("items 0-1/2") == .unsupportedRangeUnit)
        #expect((try? ContentRange(first: 5, last: 4, completeLength: nil)) == nil)
    }

    @Test(
        "anything not in the grammar is malformed",
        arguments: [
            "", "bytes", "bytes ", "bytes 0-1", "bytes 0-1/", "bytes 0-/10", "bytes -1/10", "bytes  0-1/10", "bytes 0 -1/10",
            "bytes 0-1/10x", "bytes 0-1/1 0", "bytes +0-1/10", "bytes 0-1/-10", "bytes 0x1-2/10", "bytes 0-1/*x",
            "bytes 0-1/10, 2-3/10", "bytes 0-99999999999999999999/*",
        ])
    func malformed(_ value: String) {
        #expect(code(value) == .malformedContentRange, "\(value)")
    }

    @Test("a hostile field costs its length: ten million digits overflow at the 20th, a long tail is read once")
    func hostile() {
        #expect(code("bytes " + String(repeating: "9", count: 10_000_000) + "-1/2") == .malformedContentRange)
        #expect(
            code("bytes 0-1/" + String(repeating: "1", count: 18) + String(repeating: " ", count: 5_000_000) + "x")
                == .malformedContentRange)
        #expect(code("bytes 0-1/2" + String(repeating: "\t", count: 5_000_000)) == nil)
    }

    private func code(_ value: String) -> RangeError.Code? {
        do throws(RangeError) {
            _ = try ContentRange(parsing: value)
            return nil
        } catch {
            return error.code
        }
    }
}
