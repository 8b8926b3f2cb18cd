import Foundation
import Testing

@Suite("webimage fetch: authentication flags")
struct AuthenticationFlagsTests {
    @Test("--user without a colon is refused before anything is fetched")
    func userNeedsPassword() throws {
        let run = try WebImageProgram.run(["fetch", "--user", "ann", "http://127.0.0.1:9/x.png"])
        #expect(run.status != 0)
        #expect(run.errors.contains("--user must be user:password"), "\(run.errors)")
    }

    @Test("the help names --user and --negotiate")
    func help() throws {
        let run = try WebImageProgram.run(["fetch", "--help"])
        #expect(run.output.contains("--user <user:password>"), "\(run.output)")
        #expect(run.output.contains("--negotiate"))
    }
}
