import Foundation
import Testing
import WebImageTestSupport

/// The `make load` run (10,000 loads over 1,000 URLs, 64 at once, a fifth cancelled)
/// as a second process, so its peak memory is its own: the exit status and every figure
/// of its summary line are checked here, so a failure names the figure that broke.
@Suite struct LoadRunTests {
    @Test func tenThousandLoadsCompleteOnceEachWithTheRightImage() throws {
        let run = try LoadProcess.run(["--loads", "10000", "--urls", "1000", "--concurrency", "64", "--cancel-share", "0.2", "--seed", "7"])
        let figures = try #require(run.figures, "no summary line in:\n\(run.output)")
        #expect(run.status == 0, "webimage-load failed:\n\(run.output)")

        #expect(figures["loads"] == 10_000)
        #expect(figures["urls"] == 1_000)
        #expect(figures["concurrency"] == 64)
        // Exactly once: every load completed, none twice, nothing after its completion.
        #expect(figures["completed"] == 10_000)
        #expect(figures["duplicates"] == 0)
        #expect(figures["missing"] == 0)
        #expect(figures["late_events"] == 0)
        #expect(figures["timed_out"] == 0)
        // Every outcome accounted for, none wrong or failed.
        let succeeded = try #require(figures["succeeded"])
        let cancelled = try #require(figures["cancelled"])
        #expect(succeeded + cancelled == 10_000)
        #expect(figures["wrong"] == 0)
        #expect(figures["failed"] == 0)
        #expect(figures["unexpected_cancels"] == 0)
        // About 2,000 loads are cancelled; some of those finish first. Both kinds occur.
        #expect(cancelled > 500)
        #expect(try #require(figures["late_cancels"]) > 0)
        // Coalescing and the caches: far fewer requests than loads, but some.
        let requests = try #require(figures["requests"])
        #expect(requests > 0 && requests < 10_000)
        // Nothing left behind.
        #expect(figures["leftover_keys"] == 0)
        #expect(figures["leftover_downloads"] == 0)
        // Memory under the stated bound.
        let peak = try #require(figures["peak_rss_mib"])
        let bound = try #require(figures["bound_mib"])
        #expect(peak > 0 && peak < bound)
        #expect(run.line.hasSuffix("result=pass"))
    }
}
