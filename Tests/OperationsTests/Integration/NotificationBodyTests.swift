import Foundation
import Testing
import WebImageCallbackRegistry
import WebImageCore
import WebImageTestServer
import WebImageTestSupport
import WebImageTransport

@testable import WebImageOperations

@Suite("NotificationBroadcaster: a finished download's notification carries its body", .timeLimit(.minutes(1)))
struct NotificationBodyTests {
    @Test("the body the server sent is in the finish notification, up to the broadcaster's body limit; a failure carries none")
    func body() async throws {
        try await withServer { server in
            let everything = NotificationLog([.webImageDownloadDidFinish])
            let bounded = NotificationLog([.webImageDownloadDidFinish])
            let downloader = ImageDownloader(transport: CurlTransport(), registry: DownloadRegistry())
            downloader.addEventMonitor(NotificationBroadcaster(center: everything.center))
            downloader.addEventMonitor(NotificationBroadcaster(center: bounded.center, bodyLimit: 500))

            for (index, path) in ["/bytes/300", "/bytes/1000", "/status/404"].enumerated() {
                let download = DownloadLog()
                downloader.download(DownloadRequest(url: server.url(path)), handler: download.handler)
                _ = await download.result()
                await everything.wait(for: .webImageDownloadDidFinish, count: index + 1)
                await bounded.wait(for: .webImageDownloadDidFinish, count: index + 1)
            }
            let key = WebImageNotificationKey.byteCount.rawValue
            #expect(everything.all.map(\.body) == [rangePattern(300), rangePattern(1000), nil])
            #expect(bounded.all.map(\.body) == [rangePattern(300), nil, nil])
            #expect(bounded.all.map { $0.info[key] } == ["300", "1000", nil])
        }
    }
}
