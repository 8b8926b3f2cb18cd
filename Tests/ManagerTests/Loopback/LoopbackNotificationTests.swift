import Foundation
import Synchronization
import Testing
import WebImage
import WebImageTestSupport

@testable import WebImageConcurrency

@Suite("Manager: the default composition posts the seeds' notifications when asked")
struct LoopbackNotificationTests {
    @Test(
        "postsNotifications: a network load posts download start, response and finish, and transfer start and complete, on the default center"
    )
    func postsNotifications() async throws {
        try await withFixture { fixture in
            let token = "notifications=\(UUID().uuidString)"
            let url = fixture.url("photo.jpg", query: token)
            let seen = Locked<[Notification.Name]>([])
            let finished = AsyncStream<Void>.makeStream()
            let names: [Notification.Name] = [
                .webImageDownloadDidStart, .webImageDownloadDidReceiveResponse, .webImageDownloadDidFinish,
                .webImageTransferDidStart, .webImageTransferDidComplete,
            ]
            let observers = names.map { name in
                NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { note in
                    // Only this test's URLs: another test's manager may post too.
                    guard let noted = note.userInfo?[WebImageNotificationKey.url.rawValue] as? URL,
                        noted.query == token
                    else { return }
                    let count = seen.withLock {
                        $0.append(note.name)
                        return $0.count
                    }
                    if count == names.count { finished.continuation.yield() }
                }
            }
            defer { for observer in observers { NotificationCenter.default.removeObserver(observer) } }

            let manager = fixture.manager { $0.postsNotifications = true }
            _ = try await manager.response(for: ImageRequest(url: url))
            for await _ in finished.stream { break }
            let posted = seen.withLock { $0 }
            #expect(Set(posted) == Set(names))
            #expect(posted.firstIndex(of: .webImageDownloadDidStart)! < posted.firstIndex(of: .webImageDownloadDidFinish)!)

            let quiet = fixture.manager()
            _ = try await quiet.response(for: ImageRequest(url: fixture.url("badge.png", query: token)))
            #expect(seen.withLock { $0.count } == names.count, "a manager that was not asked posts nothing")
        }
    }
}
