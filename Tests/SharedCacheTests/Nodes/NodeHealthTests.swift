import Testing

@testable import WebImageSharedCache

@Suite("Node health")
struct NodeHealthTests {
    let start = ContinuousClock.now

    @Test("a failure skips the node for the backoff, then one retry is let through")
    func backoff() {
        var health = NodeHealth(initialBackoff: .milliseconds(500), maximumBackoff: .seconds(30))
        #expect(health.admits(at: start))
        health.failed(at: start)
        #expect(!health.admits(at: start + .milliseconds(499)))
        #expect(health.admits(at: start + .milliseconds(500)))
    }

    @Test("failures in a row double the backoff up to the maximum; a reply resets it")
    func doubling() {
        var health = NodeHealth(initialBackoff: .milliseconds(500), maximumBackoff: .seconds(3))
        var now = start
        for expected in [500, 1000, 2000, 3000, 3000] {
            health.failed(at: now)
            #expect(!health.admits(at: now + .milliseconds(expected - 1)), "backoff \(expected)")
            #expect(health.admits(at: now + .milliseconds(expected)))
            now += .milliseconds(expected)
        }
        health.succeeded()
        #expect(health.failuresInARow == 0)
        health.failed(at: now)
        #expect(health.admits(at: now + .milliseconds(500)))
    }
}
