import Testing
import WebImageOperations

@Suite("HTTPDate: IMF-fixdate")
struct HTTPDateTests {
    @Test("formats and parses RFC 9110's example")
    func roundTrip() {
        #expect(HTTPDate.format(secondsSince1970: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
    }

    @Test("other forms are not read")
    func otherForms() {
        for text in ["Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "Sun, 06 Nov 1994 08:49:37 PST", "soon", ""] {
            #expect(HTTPDate.parse(text) == nil, "\(text)")
        }
    }
}
