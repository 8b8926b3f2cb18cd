import Foundation
import Testing
import WebImageHTTP

@Suite("HTTPDate: the three forms of RFC 9110")
struct HTTPDateTests {
    @Test("formats and parses RFC 9110's example as IMF-fixdate")
    func roundTrip() {
        #expect(HTTPDate.format(secondsSince1970: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 784_111_777.9)) == "Sun, 06 Nov 1994 08:49:37 GMT")
    }

    @Test("reads the obsolete RFC 850 and asctime forms as the same instant")
    func obsoleteForms() {
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == 784_111_777)
    }

    @Test("an RFC 850 two-digit year is never more than 50 years ahead")
    func twoDigitYears() {
        let now = Date(timeIntervalSince1970: TimeInterval(HTTPDate.parse("Wed, 25 Nov 2026 00:00:00 GMT")!))
        #expect(HTTPDate.parse("Monday, 01-Jan-30 00:00:00 GMT", now: now) == HTTPDate.parse("Tue, 01 Jan 2030 00:00:00 GMT"))
        #expect(HTTPDate.parse("Friday, 01-Jan-99 00:00:00 GMT", now: now) == HTTPDate.parse("Fri, 01 Jan 1999 00:00:00 GMT"))
    }

    @Test("anything else is not a date")
    func notDates() {
        for text in [
            "Sun, 06 Nov 1994 08:49:37 PST", "Sun, 06 Nov 1994 8:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 25:00:00 GMT", "0", "-1", "soon", "",
        ] {
            #expect(HTTPDate.parse(text) == nil, "\(text)")
        }
    }
}
