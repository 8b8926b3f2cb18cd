import Foundation
import Testing

@testable import WebImageOperations

@Suite("The phase a download's snapshot reports, from its lifecycle")
struct DownloadOperationSnapshotPhaseTests {
    @Test("waiting for a slot, modifying its request, transferring, waiting to retry the next attempt, then ending")
    func phasesThroughARetry() {
        var driver = LifecycleDriver(modifiesRequests: true)
        #expect(driver.lifecycle.phase == (.waitingForSlot, 1))
        _ = driver.start()
        let first = driver.entry()
        _ = driver.enqueued(first)
        #expect(driver.lifecycle.phase == (.waitingForSlot, 1))
        _ = driver.granted(first)
        _ = driver.modifierStarted(driver.task())
        #expect(driver.lifecycle.phase == (.modifyingRequest, 1))
        _ = driver.modifierFinished(.success(driver.request))
        _ = driver.transferStarted(driver.transfer())
        #expect(driver.lifecycle.phase == (.transferring, 1))
        _ = driver.completed(driver.unavailable(), retryDelay: .milliseconds(10))
        #expect(driver.lifecycle.phase == (.waitingToRetry, 2), "the attempt waited for is the next one")
        _ = driver.stop()
        #expect(driver.lifecycle.phase == (.ending, 1))
    }

    @Test("paused before it got a slot, a download is held")
    func held() {
        var driver = LifecycleDriver()
        _ = driver.joined(1)
        _ = driver.paused(1)
        _ = driver.start()
        #expect(driver.lifecycle.phase == (.held, 1))
    }
}
