import Testing
import WebImageCore
import WebImageHTTP

@Suite("CacheControl: the response directives, read as RFC 9111 says")
struct CacheControlTests {
    @Test("directives from every field line, names without case, quoted values unquoted")
    func parsing() {
        let control = CacheControl([
            "Cache-Control": "Max-Age=\"60\", no-cache=\"Set-Cookie\", PRIVATE", "cache-control": "stale-while-revalidate=30, public",
        ])
        #expect(control.maxAge == 60)
        #expect(control.noCache, "a field-qualified no-cache acts as the plain one")
        #expect(control.isPrivate && control.isPublic)
        #expect(control.staleWhileRevalidate == 30)
        #expect(!control.noStore && !control.mustRevalidate && control.sharedMaxAge == nil)
    }

    @Test("spaces and tabs around names, values and equals signs; empty parts; names that only start like a directive")
    func looseSyntax() {
        let control = CacheControl(["Cache-Control": "  MAX-AGE = 30 ,, ,\tno-store\t, no-cachex, s-maxage2=9, Public"])
        #expect(control.maxAge == 30)
        #expect(control.noStore && control.isPublic)
        #expect(!control.noCache && control.sharedMaxAge == nil)
        #expect(CacheControl(["Cache-Control": "max-age=\"5"]).maxAge == 0, "an unclosed quote is not a number")
        #expect(CacheControl(["Cache-Control": "max-age=2147483647"]).maxAge == 2_147_483_647)
    }

    @Test("the first of a repeated directive wins")
    func firstWins() {
        #expect(CacheControl(["Cache-Control": "max-age=10, max-age=1000"]).maxAge == 10)
    }

    @Test("a max-age that is not a number means stale at once; a huge one counts as 2^31")
    func badSeconds() {
        #expect(CacheControl(["Cache-Control": "max-age=soon"]).maxAge == 0)
        #expect(CacheControl(["Cache-Control": "max-age=-5"]).maxAge == 0)
        #expect(CacheControl(["Cache-Control": "s-maxage=99999999999999999999999"]).sharedMaxAge == CacheControl.maximumSeconds)
        #expect(CacheControl(["Cache-Control": "stale-if-error=x"]).staleIfError == nil)
    }

    @Test("commas inside quotes do not split; a hundred thousand directives are read in one pass")
    func quotesAndLength() {
        #expect(CacheControl(["Cache-Control": "private=\"a, b\", max-age=5"]).maxAge == 5)
        let long = Array(repeating: "no-transform", count: 100_000).joined(separator: ",") + ",max-age=7"
        #expect(CacheControl(["Cache-Control": long]).maxAge == 7)
    }
}
