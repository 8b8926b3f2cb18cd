import Foundation
import Testing

@_spi(Fuzzing) @testable import WebImageTransport

@Suite("data: URLs")
struct DataURLTests {
    @Test("base64 with a media type")
    func base64() throws {
        let url = URL(string: "data:image/png;base64,iVBORw0KGgo=")!
        let parsed = try #require(DataURL(url))
        #expect(parsed.mediaType == "image/png")
        #expect(Array(parsed.bytes) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    @Test("percent-encoded text defaults to text/plain")
    func text() throws {
        let parsed = try #require(DataURL(URL(string: "data:,hello%20world")!))
        #expect(parsed.mediaType == "text/plain")
        #expect(String(decoding: parsed.bytes, as: UTF8.self) == "hello world")
    }

    @Test("no comma, or broken base64, is not a data URL")
    func malformed() {
        #expect(DataURL(URL(string: "data:image/png;base64")!) == nil)
        #expect(DataURL(URL(string: "data:;base64,%%%")!) == nil)
    }
}
