import Foundation
import Testing
import WebImage
import WebImageTestServer
import WebImageTestSupport

@Suite("Manager: a load's own URL policy", .timeLimit(.minutes(1)))
struct URLPolicyLoadTests {
    func outcome(_ manager: ImageManager, _ request: ImageRequest) async -> Result<ImageResponse, ImageLoadError> {
        do throws(ImageLoadError) {
            return .success(try await manager.response(for: request))
        } catch {
            return .failure(error)
        }
    }

    func refusal(_ result: Result<ImageResponse, ImageLoadError>) -> URLPolicyViolation? {
        guard case .failure(.download(.transport(let error))) = result, error.code == .refusedByPolicy else { return nil }
        return error.policyViolation
    }

    @Test("a load whose policy refuses its URL fails before either cache answers, and nothing is fetched")
    func refusedBeforeTheCaches() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let url = fixture.url("photo.jpg")
            _ = try await manager.response(for: ImageRequest(url: url, options: [.waitForCacheStore]))
            #expect(fixture.hits("photo.jpg") == 1)

            // In memory and on disk now; a load held to public addresses still gets no image.
            let held = ImageRequest(url: url, context: .init(urlPolicy: .publicOnly))
            let result = await outcome(manager, held)
            #expect(refusal(result)?.rule == .nonPublicAddress(IPAddress("127.0.0.1")!, .loopback), "\(result)")
            #expect(fixture.hits("photo.jpg") == 1)
        }
    }

    @Test("the load's policy reaches the transfer: a host allow list refuses a redirect to another host")
    func policyReachesTheTransfer() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let target = fixture.url("photo.jpg").absoluteString
            var start = URLComponents(
                url: fixture.server.url("/redirect-to?url=\(target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"),
                resolvingAgainstBaseURL: false)!
            start.host = "localhost"
            let held = ImageRequest(url: start.url!, context: .init(urlPolicy: URLPolicy(allowedHosts: ["localhost"])))
            let result = await outcome(manager, held)
            #expect(refusal(result)?.rule == .hostNotAllowed("127.0.0.1"), "\(result)")
            #expect(fixture.hits("photo.jpg") == 0)
        }
    }
}
