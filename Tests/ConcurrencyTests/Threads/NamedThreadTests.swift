import Foundation
import Testing
import WebImageTestSupport

@testable import WebImageConcurrency

@Suite("Thread.startNamed: a thread the system shows by its name", .timeLimit(.minutes(1)))
struct NamedThreadTests {
    @Test("the thread runs the body under the name, cut to the whole characters that fit the 15 bytes Linux keeps")
    func namesTheThread() async {
        for (given, shown) in [
            ("webimage.test", "webimage.test"), ("webimage.a-much-longer-name", "webimage.a-much"), ("webimage.abcdeö", "webimage.abcde"),
        ] {
            let seen = await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
                Thread.startNamed(given) { continuation.resume(returning: ThreadNames.current()) }
            }
            #expect(seen == shown, "given \(given)")
        }
    }
}
