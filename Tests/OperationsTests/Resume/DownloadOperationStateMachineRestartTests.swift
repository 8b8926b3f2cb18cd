import Foundation
import Testing

@testable import WebImageCore
@testable import WebImageOperations

@Suite("DownloadOperation.StateMachine: a refused resume restarts the transfer in the same slot")
struct DownloadLifecycleRestartTests {
    func restarted(_ driver: inout LifecycleDriver, attempt: Int = 1) -> Step {
        Step(driver.lifecycle.transferRestarted(attempt: attempt, request: driver.request))
    }

    @Test("transferring: a new transfer of the same attempt in the same slot, its handle to come")
    func restarts() {
        var driver = LifecycleDriver()
        let entry = driver.entry()
        _ = driver.start()
        _ = driver.enqueued(entry)
        _ = driver.granted(entry)
        let first = driver.transfer()
        _ = driver.transferStarted(first)
        #expect(restarted(&driver) == .startTransfer(driver.url, attempt: 1))
        #expect(driver.phase == .transferring)
        let second = driver.transfer()
        #expect(driver.transferStarted(second) == .none)
        #expect(driver.completed(driver.success(attempts: 1)) == .end("success after 1", release: .free(entry)))
    }

    @Test("with a request modifier, the new request goes through it again")
    func throughModifier() {
        var driver = LifecycleDriver(modifiesRequests: true)
        let entry = driver.entry()
        _ = driver.start()
        _ = driver.enqueued(entry)
        _ = driver.granted(entry)
        _ = driver.modifierFinished(.success(driver.request))
        _ = driver.transferStarted(driver.transfer())
        #expect(restarted(&driver) == .modifyRequest(driver.url, attempt: 1))
        #expect(driver.phase == .modifying)
    }

    @Test("stopped meanwhile: the restart ends the download and frees the slot; a stale attempt changes nothing")
    func stoppedOrStale() {
        var driver = LifecycleDriver()
        let entry = driver.entry()
        _ = driver.start()
        _ = driver.enqueued(entry)
        _ = driver.granted(entry)
        let transfer = driver.transfer()
        _ = driver.transferStarted(transfer)
        #expect(restarted(&driver, attempt: 2) == .none)
        #expect(driver.stop() == .cancelTransfer(transfer))
        #expect(restarted(&driver) == .endStopped(release: .free(entry)))
        #expect(driver.phase == .finished)
        #expect(restarted(&driver) == .none)
    }
}
