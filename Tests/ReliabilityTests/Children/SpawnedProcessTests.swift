import Foundation
import Testing
import WebImageTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The suite starts every external program (servers, openssl, curl, its own tools)
/// through ``SpawnedProcess``; a parallel run holds thousands of descriptors, and the
/// children must neither crash the start nor inherit them.
@Suite("Child processes of the suite")
struct SpawnedProcessTests {
    @Test("a child started while the test process holds 3,000 more descriptors gets only its standard streams")
    func manyDescriptors() throws {
        let held = (0..<3_000).map { _ in open("/dev/null", O_RDONLY) }
        defer { for descriptor in held where descriptor >= 0 { close(descriptor) } }
        try #require(held.allSatisfy { $0 >= 0 }, "could not open 3,000 descriptors: \(String(cString: strerror(errno)))")

        // ls itself opens the listed directory as descriptor 3.
        let run = try SpawnedProcess.finish("/bin/ls", ["/proc/self/fd"])
        #expect(run.termination == .exited(0))
        #expect(String(decoding: run.output, as: UTF8.self).split(separator: "\n") == ["0", "1", "2", "3"])
    }

    @Test("the exit status, the environment added and the working folder reach the caller")
    func statusEnvironmentAndFolder() throws {
        let folder = try TemporaryDirectory()
        let run = try SpawnedProcess.finish(
            "/bin/sh", ["-c", "echo \"$WI_SPAWN_PROBE\"; pwd; echo oops >&2; exit 3"],
            environment: ["WI_SPAWN_PROBE": "probe value"], in: folder.url)
        #expect(run.termination == .exited(3))
        #expect(String(decoding: run.output, as: UTF8.self) == "probe value\n\(folder.url.resolvingSymlinksInPath().path)\n")
        #expect(String(decoding: run.errors, as: UTF8.self) == "oops\n")
    }

    @Test("SIGTERM ends a child that has no handler, though the test thread blocks it")
    func terminatedBySignal() async throws {
        let child = try Self.spawnWithSIGTERMBlocked("/bin/sleep", ["600"])
        #expect(child.isRunning)
        child.signal(SIGTERM)
        #expect(await child.exited() == .signalled(SIGTERM))
        #expect(!child.isRunning)
    }

    /// Starts a child from this thread with SIGTERM blocked here, restoring the mask
    /// before returning (an async caller may resume on another thread).
    private static func spawnWithSIGTERMBlocked(_ program: String, _ arguments: [String]) throws -> SpawnedProcess {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try SpawnedProcess(program, arguments)
    }

    @Test("a program that is missing is a thrown error, not a crash")
    func missingProgram() {
        #expect(throws: SpawnedProcess.Failed.self) {
            try SpawnedProcess("/nonexistent/program", [])
        }
    }
}
