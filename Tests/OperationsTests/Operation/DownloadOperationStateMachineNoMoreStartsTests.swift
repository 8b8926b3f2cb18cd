import Foundation
import Testing

@testable import WebImageCore
@testable import WebImageOperations

@Suite("DownloadOperation.StateMachine when nothing will start it again: a download without a slot stops, one with a slot goes on")
struct DownloadLifecycleNoMoreStartsTests {
    @Test("a download waiting for a slot stops and withdraws its entry; one whose entry has not arrived withdraws it on arrival")
    func queued() {
        var driver = LifecycleDriver()
        let entry = driver.entry()
        _ = driver.start()
        _ = driver.enqueued(entry)
        #expect(Step(driver.lifecycle.stopUnlessHoldingSlot()) == .endStopped(release: .withdraw(entry)))
        #expect(driver.phase == .finished)

        var early = LifecycleDriver()
        let late = early.entry()
        _ = early.start()
        #expect(Step(early.lifecycle.stopUnlessHoldingSlot()) == .endStopped(release: .nothing))
        #expect(early.enqueued(late) == .withdraw(late))
    }

    @Test("a download backing off stops and cancels its wait")
    func backingOff() {
        var driver = LifecycleDriver()
        let entry = driver.entry()
        let wait = driver.task()
        driver.transferring(entry, driver.transfer())
        _ = driver.completed(driver.unavailable(), retryDelay: .seconds(1))
        _ = driver.waitStarted(wait)
        #expect(Step(driver.lifecycle.stopUnlessHoldingSlot()) == .endStopped(release: .cancelWait(wait)))
        #expect(driver.phase == .finished)
        #expect(driver.waitEnded() == .none, "the wait's end comes too late")
    }

    @Test("a download paused out of the queue stops")
    func held() {
        var driver = LifecycleDriver()
        _ = driver.joined(1)
        _ = driver.start()
        _ = driver.paused(1)
        #expect(driver.phase == .held)
        #expect(Step(driver.lifecycle.stopUnlessHoldingSlot()) == .endStopped(release: .nothing))
        #expect(driver.resumed(1) == .unchanged, "a resume after the end queues nothing")
    }

    @Test("a download holding a slot goes on: modifying its request, transferring, or cancelling its transfer")
    func holdingSlot() {
        var modifying = LifecycleDriver(modifiesRequests: true)
        let entry = modifying.entry()
        _ = modifying.start()
        _ = modifying.granted(entry)
        #expect(Step(modifying.lifecycle.stopUnlessHoldingSlot()) == .none)
        #expect(modifying.phase == .modifying)

        var transferring = LifecycleDriver()
        let transfer = transferring.transfer()
        transferring.transferring(transferring.entry(), transfer)
        #expect(Step(transferring.lifecycle.stopUnlessHoldingSlot()) == .none)
        #expect(transferring.phase == .transferring)
        #expect(transferring.stop() == .cancelTransfer(transfer))
        #expect(Step(transferring.lifecycle.stopUnlessHoldingSlot()) == .none)
        #expect(transferring.phase == .cancellingTransfer)
    }

    @Test("a finished download stays finished")
    func finished() {
        var driver = LifecycleDriver()
        _ = driver.start()
        _ = driver.stop()
        #expect(Step(driver.lifecycle.stopUnlessHoldingSlot()) == .none)
        #expect(driver.phase == .finished)
    }
}
