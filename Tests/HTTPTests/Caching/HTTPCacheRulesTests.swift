import Foundation
import Testing
import WebImageCore
import WebImageHTTP

@Suite("HTTPCacheRules: storing, using, and refreshing stored responses")
struct HTTPCacheRulesTests {
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)
    let privateCache = HTTPCacheRules()
    let sharedCache = HTTPCacheRules(isShared: true)

    func stored(_ headers: HTTPHeaderFields, request: HTTPHeaderFields = [:], rules: HTTPCacheRules = HTTPCacheRules())
        -> CachedResponseMetadata
    {
        rules.metadata(responseHeaders: headers, requestHeaders: request, requestedAt: t0, receivedAt: t0)
    }

    @Test("no-store and Vary: * are never stored; private only by a private cache")
    func storing() {
        #expect(!privateCache.mayStore(responseHeaders: ["Cache-Control": "no-store"], requestHeaders: [:]))
        #expect(!privateCache.mayStore(responseHeaders: ["Vary": "Accept, *"], requestHeaders: [:]))
        #expect(privateCache.mayStore(responseHeaders: ["Cache-Control": "private"], requestHeaders: [:]))
        #expect(!sharedCache.mayStore(responseHeaders: ["Cache-Control": "private"], requestHeaders: [:]))
    }

    @Test("a shared cache stores an answer to Authorization only when public, s-maxage or must-revalidate say so")
    func authorization() {
        let authorised: HTTPHeaderFields = ["Authorization": "Basic eA=="]
        #expect(!sharedCache.mayStore(responseHeaders: ["Cache-Control": "max-age=60"], requestHeaders: authorised))
        for control in ["public", "s-maxage=60", "must-revalidate"] {
            #expect(sharedCache.mayStore(responseHeaders: ["Cache-Control": control], requestHeaders: authorised), "\(control)")
        }
        #expect(privateCache.mayStore(responseHeaders: ["Cache-Control": "max-age=60"], requestHeaders: authorised))
    }

    @Test("decisions: fresh, stale within stale-while-revalidate, stale, and no-cache")
    func decisions() {
        let entry = stored(["Cache-Control": "max-age=60, stale-while-revalidate=30"])
        #expect(privateCache.decision(for: entry, requestHeaders: [:], at: t0.addingTimeInterval(10)) == .fresh(remaining: .seconds(50)))
        #expect(privateCache.decision(for: entry, requestHeaders: [:], at: t0.addingTimeInterval(80)) == .staleWhileRevalidate)
        #expect(privateCache.decision(for: entry, requestHeaders: [:], at: t0.addingTimeInterval(100)) == .revalidate)
        let noCache = stored(["Cache-Control": "no-cache, max-age=600"])
        #expect(privateCache.decision(for: noCache, requestHeaders: [:], at: t0) == .revalidate)
    }

    @Test("Vary: the variant serves only requests with the same values of the named fields")
    func vary() {
        let entry = stored(["Vary": "Accept-Language, accept", "Cache-Control": "max-age=60"], request: ["Accept-Language": " en "])
        #expect(entry.varyingRequestHeaders["accept-language"] == "en", "kept trimmed")
        #expect(privateCache.decision(for: entry, requestHeaders: ["accept-language": "en"], at: t0) == .fresh(remaining: .seconds(60)))
        #expect(privateCache.decision(for: entry, requestHeaders: ["Accept-Language": "fr"], at: t0) == .otherVariant)
        #expect(
            privateCache.decision(for: entry, requestHeaders: ["Accept-Language": "en", "Accept": "image/png"], at: t0) == .otherVariant,
            "a field absent when stored must be absent now")
    }

    @Test("stale-if-error: usable within its window past the lifetime, never with no-cache")
    func staleIfError() {
        let entry = stored(["Cache-Control": "max-age=60, stale-if-error=100"])
        #expect(privateCache.mayUseAfterError(entry, at: t0.addingTimeInterval(160)))
        #expect(!privateCache.mayUseAfterError(entry, at: t0.addingTimeInterval(161)))
        #expect(!privateCache.mayUseAfterError(stored(["Cache-Control": "no-cache, stale-if-error=100"]), at: t0))
    }

    @Test("a 304 replaces the stored caching fields it carries, keeps the others (not the old Date and Age), and restarts the clock")
    func refreshed() {
        let entry = stored(["Cache-Control": "max-age=60", "ETag": "\"a\"", "Content-Type": "image/png", "Age": "50"])
        let later = t0.addingTimeInterval(1000)
        let refreshed = privateCache.refreshed(
            entry, byNotModified: ["Cache-Control": "max-age=600", "Set-Cookie": "x"], requestHeaders: [:], requestedAt: later,
            receivedAt: later)
        #expect(refreshed.headers["Cache-Control"] == "max-age=600")
        #expect(refreshed.etag == "\"a\"" && refreshed.contentType == "image/png")
        #expect(refreshed.headers["Set-Cookie"] == nil)
        #expect(refreshed.headers["Age"] == nil, "the old response's Age is not the 304's")
        #expect(refreshed.storedAt == later)
        #expect(
            privateCache.decision(for: refreshed, requestHeaders: [:], at: later.addingTimeInterval(500))
                == .fresh(remaining: .seconds(100)))
    }
}
