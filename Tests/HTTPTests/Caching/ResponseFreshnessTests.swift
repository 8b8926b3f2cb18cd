import Foundation
import Testing
import WebImageCore
import WebImageHTTP

/// Freshness arithmetic to the second, with every time given.
@Suite("ResponseFreshness: lifetime and age (RFC 9111 §4.2)")
struct ResponseFreshnessTests {
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    func date(_ offset: TimeInterval) -> String { HTTPDate.format(t0.addingTimeInterval(offset)) }

    func metadata(_ headers: HTTPHeaderFields, requested: TimeInterval = 0, received: TimeInterval = 0) -> CachedResponseMetadata {
        CachedResponseMetadata(
            responseHeaders: headers, requestedAt: t0.addingTimeInterval(requested), storedAt: t0.addingTimeInterval(received))
    }

    @Test("age: the larger of the apparent age and Age plus the response delay, plus the time stored")
    func age() {
        // Date 30 s before arrival: apparent age 30; Age 10 + 2 s delay = 12.
        let apparent = ResponseFreshness(metadata(["Date": date(-30), "Age": "10"], requested: -2))
        #expect(apparent.initialAge == 30)
        #expect(apparent.age(at: t0.addingTimeInterval(100)) == 130)
        // Age 50 + delay 2 beats an apparent age of 0 (Date equal to arrival).
        let byAge = ResponseFreshness(metadata(["Date": date(0), "Age": "50"], requested: -2))
        #expect(byAge.initialAge == 52)
        // A Date in the future (clock skew) is no negative age.
        #expect(ResponseFreshness(metadata(["Date": date(300)])).initialAge == 0)
    }

    @Test("lifetime: s-maxage for a shared cache, then max-age, then Expires minus Date")
    func lifetime() {
        let headers: HTTPHeaderFields = ["Cache-Control": "max-age=60, s-maxage=600", "Date": date(0), "Expires": date(6000)]
        #expect(ResponseFreshness(metadata(headers)).lifetime == 60)
        #expect(ResponseFreshness(metadata(headers), rules: HTTPCacheRules(isShared: true)).lifetime == 600)
        #expect(ResponseFreshness(metadata(["Date": date(0), "Expires": date(6000)])).lifetime == 6000)
        #expect(ResponseFreshness(metadata(["Date": date(0), "Expires": "0"])).lifetime == 0, "an invalid Expires is expired")
        #expect(!ResponseFreshness(metadata(["Date": date(0), "Expires": "0"])).isFresh(at: t0))
    }

    @Test("heuristic: a tenth of Date minus Last-Modified, capped at the rules' limit, only without explicit expiry")
    func heuristic() {
        let recent = ResponseFreshness(metadata(["Date": date(0), "Last-Modified": date(-1000)]))
        #expect(recent.lifetime == 100 && recent.isHeuristic)
        let old = ResponseFreshness(metadata(["Date": date(0), "Last-Modified": date(-100 * 86_400)]))
        #expect(old.lifetime == 86_400)
        let limited = ResponseFreshness(
            metadata(["Date": date(0), "Last-Modified": date(-100 * 86_400)]), rules: HTTPCacheRules(heuristicLimit: .seconds(3600)))
        #expect(limited.lifetime == 3600)
        #expect(ResponseFreshness(metadata(["Cache-Control": "max-age=5", "Last-Modified": date(-1000)])).lifetime == 5)
        #expect(ResponseFreshness(metadata(["Cache-Control": "no-cache", "Last-Modified": date(-1000)])).lifetime == 0)
    }

    @Test("fresh while the age is below the lifetime; no-cache is never fresh")
    func fresh() {
        let response = ResponseFreshness(metadata(["Cache-Control": "max-age=60", "Age": "20"]))
        #expect(response.isFresh(at: t0.addingTimeInterval(39)))
        #expect(!response.isFresh(at: t0.addingTimeInterval(40)))
        #expect(response.remainingLifetime(at: t0.addingTimeInterval(50)) == -10)
        #expect(!ResponseFreshness(metadata(["Cache-Control": "no-cache, max-age=60"])).isFresh(at: t0))
    }

    @Test("stale windows: within the seconds past the lifetime, and never with must-revalidate")
    func staleWindows() {
        let window = ResponseFreshness(metadata(["Cache-Control": "max-age=60, stale-while-revalidate=30"]))
        #expect(window.isWithinStaleWindow(30, at: t0.addingTimeInterval(90)))
        #expect(!window.isWithinStaleWindow(30, at: t0.addingTimeInterval(91)))
        #expect(!window.isWithinStaleWindow(nil, at: t0.addingTimeInterval(61)))
        let strict = ResponseFreshness(metadata(["Cache-Control": "max-age=60, must-revalidate"]))
        #expect(!strict.isWithinStaleWindow(600, at: t0.addingTimeInterval(61)))
        let sharedOnly = metadata(["Cache-Control": "max-age=60, proxy-revalidate"])
        #expect(ResponseFreshness(sharedOnly).isWithinStaleWindow(600, at: t0.addingTimeInterval(61)))
        #expect(
            !ResponseFreshness(sharedOnly, rules: HTTPCacheRules(isShared: true)).isWithinStaleWindow(600, at: t0.addingTimeInterval(61)))
    }
}
