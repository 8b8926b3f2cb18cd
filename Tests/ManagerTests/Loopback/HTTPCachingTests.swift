import Foundation
import Testing
import WebImage
import WebImageTestServer
import WebImageTestSupport

/// RFC 9111 through the manager, against the loopback server's `/cache/` route, whose
/// query sets the caching headers. Ages come from the headers (`Age`, a `Date` in the
/// past), never from waiting: each test stores with one manager and asks again with a
/// new one (an empty memory cache over the same disk cache), and counts what reached
/// the server.
@Suite("Manager: HTTP caching rules (RFC 9111) against the loopback server", .timeLimit(.minutes(1)))
struct HTTPCachingTests {
    private func url(_ fixture: Fixture, _ file: String, _ query: String) -> URL {
        fixture.server.url("/cache/\(file)?\(query)")
    }

    private func hits(_ fixture: Fixture, _ file: String) -> [RecordedRequest] {
        fixture.server.requests.filter { $0.path == "/cache/\(file)" }
    }

    /// Loads `url` in a first manager (stored on disk), then in a second, and expects the
    /// second load's source to be `expected`.
    private func expectSecondLoad(
        _ fixture: Fixture, _ url: URL, from expected: ImageSource, _ comment: Comment? = nil,
        context: ImageLoadContext = ImageLoadContext(), sourceLocation: SourceLocation = #_sourceLocation,
        change: (inout WebImageConfiguration) -> Void = { _ in }
    ) async throws {
        let request = ImageRequest(url: url, options: [.waitForCacheStore], context: context)
        let first = try await fixture.manager(change).response(for: request)
        #expect(first.source == .network, sourceLocation: sourceLocation)
        let second = try await fixture.manager(change).response(for: request)
        #expect(second.source == expected, comment, sourceLocation: sourceLocation)
    }

    // MARK: Freshness

    @Test("max-age: fresh is answered from disk without a request; past it (by Age) revalidated with a 304")
    func maxAgeAndAge() async throws {
        try await withFixture { fixture in
            try await expectSecondLoad(fixture, url(fixture, "badge.png", "cc=max-age%3D600&age=30"), from: .disk)
            #expect(hits(fixture, "badge.png").count == 1)
            try await expectSecondLoad(fixture, url(fixture, "photo.jpg", "cc=max-age%3D600&age=700"), from: .revalidated)
            let requests = hits(fixture, "photo.jpg")
            #expect(requests.count == 2)
            #expect(requests.last?.headers.contains { $0.name.lowercased() == "if-none-match" } == true)
        }
    }

    @Test("a Date in the past ages the response (apparent age): within max-age fresh, beyond it stale")
    func dateArithmetic() async throws {
        try await withFixture { fixture in
            try await expectSecondLoad(fixture, url(fixture, "badge.png", "cc=max-age%3D600&date_ago=100"), from: .disk)
            try await expectSecondLoad(fixture, url(fixture, "photo.jpg", "cc=max-age%3D600&date_ago=900"), from: .revalidated)
        }
    }

    @Test("Expires: after the Date is fresh; an invalid Expires is already stale")
    func expires() async throws {
        try await withFixture { fixture in
            try await expectSecondLoad(fixture, url(fixture, "badge.png", "cc=&date_ago=10&expires_in=600"), from: .disk)
            try await expectSecondLoad(fixture, url(fixture, "photo.jpg", "cc=&expires=0"), from: .revalidated)
        }
    }

    @Test("heuristic freshness: a tenth of the time since Last-Modified, at most a day")
    func heuristic() async throws {
        try await withFixture { fixture in
            // Modified ten days ago: a day of freshness (the cap), so an hour old is fresh.
            let old = url(fixture, "badge.png", "cc=&date_ago=3600&modified_ago=864000")
            try await expectSecondLoad(fixture, old, from: .disk)
            // Modified 1000 s before its Date: 100 s of freshness, and it is 600 s old.
            let recent = url(fixture, "photo.jpg", "cc=&date_ago=600&modified_ago=1000")
            try await expectSecondLoad(fixture, recent, from: .network, "stale: asked again (If-Modified-Since, 200)")
            #expect(hits(fixture, "photo.jpg").last?.headers.contains { $0.name.lowercased() == "if-modified-since" } == true)
        }
    }

    // MARK: Directives

    @Test("no-store is never written to disk; no-cache is revalidated on every use, fresh or not")
    func noStoreAndNoCache() async throws {
        try await withFixture { fixture in
            try await expectSecondLoad(fixture, url(fixture, "badge.png", "cc=no-store"), from: .network)
            #expect(hits(fixture, "badge.png").count == 2)
            try await expectSecondLoad(fixture, url(fixture, "photo.jpg", "cc=no-cache,max-age%3D3600"), from: .revalidated)
            #expect(hits(fixture, "photo.jpg").count == 2)
        }
    }

    @Test("Vary: Accept-Language: each language gets its own image; the stored variant serves only its language")
    func vary() async throws {
        try await withFixture { fixture in
            let url = url(fixture, "badge.png", "cc=max-age%3D600&vary=Accept-Language&lang_fr=photo.jpg")
            let english = ImageLoadContext(headers: ["Accept-Language": "en"])
            let french = ImageLoadContext(headers: ["Accept-Language": "fr"])
            func load(_ context: ImageLoadContext) async throws -> ImageResponse {
                try await fixture.manager().response(for: ImageRequest(url: url, options: [.waitForCacheStore], context: context))
            }
            let en = try await load(english)
            #expect(en.source == .network && en.image?.size == PixelSize(width: 64, height: 48))
            let englishAgain = try await load(english).source
            #expect(englishAgain == .disk)
            let fr = try await load(french)
            #expect(fr.source == .network && fr.image?.size == PixelSize(width: 320, height: 240), "the English copy is not used")
            let frenchAgain = try await load(french).source
            #expect(frenchAgain == .disk)
            let enAgain = try await load(english)
            #expect(enAgain.source == .network && enAgain.image?.size == PixelSize(width: 64, height: 48))
            #expect(hits(fixture, "badge.png").count == 3)
        }
    }

    @Test("Vary: * is never stored, so never used")
    func varyStar() async throws {
        try await withFixture { fixture in
            try await expectSecondLoad(fixture, url(fixture, "badge.png", "cc=max-age%3D600&vary=*"), from: .network)
        }
    }

    @Test("stale-while-revalidate: two loads answered stale at once, with one revalidation behind them")
    func staleWhileRevalidate() async throws {
        try await withFixture { fixture in
            // The revalidation is held at the server until both loads are answered: its
            // 304 (still stale, Age 120) would otherwise let a later load revalidate again.
            let url = url(fixture, "photo.jpg", "cc=max-age%3D60,stale-while-revalidate%3D600&age=120&revalidation_gate=swr")
            _ = try await fixture.manager().response(for: ImageRequest(url: url, options: [.waitForCacheStore]))
            let manager = fixture.manager()
            // Two variants of one resource (a thumbnail and the full image): two loads,
            // one stored response.
            async let full = manager.response(for: ImageRequest(url: url))
            async let thumbnail = manager.response(for: ImageRequest(url: url, context: ImageLoadContext(thumbnailPixelSize: 32)))
            let (a, b) = try await (full, thumbnail)
            #expect(a.source == .stale && b.source == .stale)
            #expect(b.image.map { max($0.size.width, $0.size.height) } == 32)
            await fixture.server.requestsArrived(2)
            fixture.server.openGate("swr")
            await manager.flushPendingWrites()
            let requests = hits(fixture, "photo.jpg")
            #expect(requests.count == 2, "one revalidation for both loads")
            #expect(requests.last?.headers.contains { $0.name.lowercased() == "if-none-match" } == true)
        }
    }

    @Test("stale-if-error: once the server fails, the stale copy stands in within the window, not past it")
    func staleIfError() async throws {
        try await withFixture { fixture in
            let within = url(fixture, "badge.png", "cc=max-age%3D60,stale-if-error%3D600&age=120&name=within&fail_after=1")
            try await expectSecondLoad(fixture, within, from: .stale)

            let past = url(fixture, "photo.jpg", "cc=max-age%3D60,stale-if-error%3D10&age=120&name=past&fail_after=1")
            _ = try await fixture.manager().response(for: ImageRequest(url: past, options: [.waitForCacheStore]))
            let result = await outcome { () async throws(ImageLoadError) in
                try await fixture.manager().response(for: ImageRequest(url: past))
            }
            guard case .download(let error)? = result.error else {
                Issue.record("expected the server's 503, got \(result)")
                return
            }
            #expect(error.statusCode == 503)
        }
    }

    @Test("must-revalidate forbids the stale copy even inside a stale-if-error window")
    func mustRevalidate() async throws {
        try await withFixture { fixture in
            let url = url(fixture, "badge.png", "cc=max-age%3D60,must-revalidate,stale-if-error%3D600&age=120&name=m&fail_after=1")
            _ = try await fixture.manager().response(for: ImageRequest(url: url, options: [.waitForCacheStore]))
            let result = await outcome { () async throws(ImageLoadError) in
                try await fixture.manager().response(for: ImageRequest(url: url))
            }
            #expect(result.error != nil)
        }
    }

    // MARK: Policies

    @Test("policy .always uses a stale copy without asking; .never downloads even a fresh one")
    func policies() async throws {
        try await withFixture { fixture in
            let stale = url(fixture, "badge.png", "cc=max-age%3D60&age=120")
            try await expectSecondLoad(fixture, stale, from: .disk) { $0.manager.cachePolicy = .always }
            #expect(hits(fixture, "badge.png").count == 1)

            let fresh = url(fixture, "photo.jpg", "cc=max-age%3D600")
            try await expectSecondLoad(fixture, fresh, from: .network) { $0.manager.cachePolicy = .never }
            #expect(hits(fixture, "photo.jpg").count == 2)
            // A load's context chooses its own policy.
            let always = ImageLoadContext(cachePolicy: .always)
            let response = try await fixture.manager { $0.manager.cachePolicy = .never }
                .response(for: ImageRequest(url: stale, context: always))
            #expect(response.source == .disk)
        }
    }

    @Test("with memoryCacheFollowsFreshness, a stale response never answers from memory; a fresh one does")
    func memoryFollowsFreshness() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager { $0.manager.memoryCacheFollowsFreshness = true }
            let stale = ImageRequest(url: url(fixture, "badge.png", "cc=max-age%3D60&age=120"), options: [.waitForCacheStore])
            _ = try await manager.response(for: stale)
            let staleAgain = try await manager.response(for: stale).source
            #expect(staleAgain == .revalidated)
            let fresh = ImageRequest(url: url(fixture, "photo.jpg", "cc=max-age%3D600"), options: [.waitForCacheStore])
            _ = try await manager.response(for: fresh)
            let freshAgain = try await manager.response(for: fresh).source
            #expect(freshAgain == .memory)

            // Off (the default), memory answers whatever the freshness.
            let plain = fixture.manager()
            _ = try await plain.response(for: stale)
            let plainAgain = try await plain.response(for: stale).source
            #expect(plainAgain == .memory)
        }
    }
}
