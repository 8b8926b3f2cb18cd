import Foundation
import Synchronization
import Testing
import WebImage
import WebImageTestServer
import WebImageTestSupport

@testable import WebImageConcurrency
@testable import WebImageManager

@Suite("Waiting for a group of loads")
struct ImageLoadGroupTests {
    /// What happened, in order, as the handlers and the group's notice saw it.
    private final class Steps: Sendable {
        private let steps = Locked<[String]>([])
        var all: [String] { steps.withLock { $0 } }
        func add(_ step: String) { steps.withLock { $0.append(step) } }
    }

    @Test("a group with nothing pending answers at once")
    func emptyAnswersAtOnce() async {
        let group = ImageLoadGroup()
        await group.wait()
        let steps = Steps()
        group.notify { steps.add("notified") }
        #expect(steps.all == ["notified"])
    }

    @Test("the notice comes once the last pending load left, not before")
    func noticeAfterLastLeaves() {
        let group = ImageLoadGroup()
        let steps = Steps()
        group.enter()
        group.enter()
        group.notify { steps.add("notified") }
        group.leave()
        #expect(steps.all.isEmpty)
        #expect(group.pendingCount == 1)
        group.leave()
        #expect(steps.all == ["notified"])
        #expect(group.pendingCount == 0)
    }

    @Test("a waiting task that is cancelled stops waiting")
    func cancelledWait() async {
        let group = ImageLoadGroup()
        group.enter()
        let waiting = Task { await group.wait() }
        waiting.cancel()
        await waiting.value
        #expect(group.pendingCount == 1)
        group.leave()
    }

    @Test("loads of a group, failed and cancelled ones too, are all handled before the group's wait returns")
    func loadsOnTheWire() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let group = ImageLoadGroup()
            let steps = Steps()
            let names = ["photo.jpg", "badge.png", "missing.png", "corrupt.jpg"]
            for name in names {
                manager.loadImage(with: ImageRequest(url: fixture.url(name)), group: group) { event in
                    if event.isCompletion { steps.add(name) }
                }
            }
            let slow = ImageRequest(url: fixture.server.url("/slow-first-byte?ms=10000"))
            manager.loadImage(with: slow, group: group) { event in
                if event.isCompletion { steps.add("cancelled") }
            }.cancel()
            await group.wait()
            #expect(Set(steps.all) == Set(names + ["cancelled"]))
            #expect(group.pendingCount == 0)
            // The manager's own group counted every load, the group's and its own.
            manager.loadImage(with: ImageRequest(url: fixture.url("animation.gif")), delivery: .queue(.global())) { event in
                if event.isCompletion { steps.add("animation.gif") }
            }
            await manager.loads.wait()
            #expect(steps.all.contains("animation.gif"))
            #expect(manager.loads.pendingCount == 0)
        }
    }
}
