import Foundation
import Testing
import WebImageCore
import WebImageOperations

@Suite("DownloadKey: what may share a transfer")
struct DownloadKeyTests {
    let url = URL(string: "https://example.com/a.png")!

    func key(_ configure: (inout DownloadRequest) -> Void = { _ in }) -> DownloadKey {
        var request = DownloadRequest(url: url)
        configure(&request)
        return ImageDownloader.key(for: request)
    }

    @Test("equal requests share; priority and the low/high options do not matter")
    func equal() {
        #expect(key() == key { $0.priority = .veryHigh })
        #expect(key() == key { $0.options = [.lowPriority] })
        #expect(key { $0.headers = ["Accept": "image/png", "X-A": "1"] } == key { $0.headers = ["x-a": "1", "accept": "image/png"] })
    }

    @Test(
        "Authorization, Accept, Range or any header, a credential, validators, certificates, being progressive or a URL policy set requests apart"
    )
    func different() {
        let base = key()
        #expect(base != key { $0.headers = ["Authorization": "Bearer a"] })
        #expect(base != key { $0.urlPolicy = .publicOnly }, "a load held to public addresses never shares another's transfer")
        #expect(key { $0.headers = ["Authorization": "Bearer a"] } != key { $0.headers = ["Authorization": "Bearer b"] })
        #expect(base != key { $0.headers = ["Accept": "image/png"] })
        #expect(base != key { $0.headers = ["Range": "bytes=0-99"] })
        #expect(base != key { $0.credential = Credential(user: "ann", password: "x") })
        #expect(
            key { $0.credential = Credential(user: "ann", password: "x") } != key { $0.credential = Credential(user: "ann", password: "y") }
        )
        #expect(
            base
                != key {
                    $0.options = [.revalidate]
                    $0.validators = .init(etag: "\"1\"")
                })
        #expect(base != key { $0.options = [.allowInvalidCertificates] })
        #expect(base != key { $0.options = [.progressive] })
        #expect(base != ImageDownloader.key(for: DownloadRequest(url: URL(string: "https://example.com/b.png")!)))
    }

    @Test("the description never shows a password")
    func description() {
        let text = key { $0.credential = Credential(user: "ann", password: "hunter2") }.description
        #expect(text.contains("ann"))
        #expect(!text.contains("hunter2"))
    }
}
