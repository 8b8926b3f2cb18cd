import Foundation
import Testing
import WebImageCore
import WebImageTestSupport
import WebImageTransport

@Suite("file: and data: URLs through the transport")
struct LocalSchemeTests {
    /// file: and data: load only under a policy that names them (URLPolicyTransportTests).
    let transport = CurlTransport(configuration: .init(urlPolicy: .unrestricted))

    @Test("a file URL delivers the file's bytes with its length")
    func file() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("picture.bin")
        let bytes = Data((0..<100_000).map { UInt8($0 % 251) })
        try bytes.write(to: url)
        let fetched = try await transport.data(for: TransportRequest(url: url))
        #expect(fetched.data == bytes)
        #expect(fetched.response.statusCode == 200)
        #expect(fetched.response.expectedContentLength == 100_000)
        #expect(fetched.response.httpVersion == nil)
    }

    @Test("a missing file is fileNotFound")
    func missingFile() async throws {
        let directory = try TemporaryDirectory()
        let error = await #expect(throws: TransportError.self) {
            try await transport.data(for: TransportRequest(url: directory.url.appendingPathComponent("absent.png")))
        }
        #expect(error?.code == .fileNotFound)
    }

    @Test("a data URL delivers its bytes and media type")
    func dataURL() async throws {
        let fetched = try await transport.data(for: TransportRequest(url: URL(string: "data:image/gif;base64,R0lGODlh")!))
        #expect(Array(fetched.data) == Array("GIF89a".utf8))
        #expect(fetched.response.mimeType == "image/gif")
    }

    @Test("a data URL over the body limit is bodyTooLarge, a malformed one invalidURL")
    func dataURLFailures() async throws {
        var request = TransportRequest(url: URL(string: "data:,0123456789")!)
        request.maximumBodySize = 4
        let tooLarge = await #expect(throws: TransportError.self) { try await transport.data(for: request) }
        #expect(tooLarge?.code == .bodyTooLarge)
        let malformed = await #expect(throws: TransportError.self) {
            try await transport.data(for: TransportRequest(url: URL(string: "data:nocomma")!))
        }
        #expect(malformed?.code == .invalidURL)
    }

    @Test("schemes other than http, https, file and data are invalidURL, before any I/O")
    func otherSchemes() async throws {
        for text in ["ftp://127.0.0.1/x", "gopher://127.0.0.1/", "mailto:someone@example.com", "http:///nohost"] {
            let error = await #expect(throws: TransportError.self) {
                try await transport.data(for: TransportRequest(url: URL(string: text)!))
            }
            #expect(error?.code == .invalidURL, "\(text)")
        }
    }
}
