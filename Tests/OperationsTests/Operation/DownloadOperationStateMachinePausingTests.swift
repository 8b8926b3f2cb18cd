import Foundation
import Testing

@testable import WebImageCore
@testable import WebImageOperations

/// Pausing a download: the subscribers' rule and what each state does with a pause,
/// driven with plain values.
@Suite("DownloadOperation.StateMachine: pausing and resuming, by the subscribers' rule")
struct DownloadLifecyclePausingTests {
    @Test("one subscriber: its pause pauses the running transfer, its resume resumes it")
    func oneSubscriber() {
        var driver = LifecycleDriver()
        let entry = driver.entry()
        let transfer = driver.transfer()
        _ = driver.joined(1)
        driver.transferring(entry, transfer)
        #expect(driver.paused(1) == PauseStep(paused: true, .pauseTransfer(transfer)))
        #expect(driver.paused(1) == .unchanged)
        #expect(driver.resumed(1) == PauseStep(paused: false, .resumeTransfer(transfer)))
        #expect(driver.resumed(1) == .unchanged)
    }

    @Test("shared by two: the transfer pauses only when both paused, and resumes when either resumes")
    func everySubscriberMustPause() {
        var driver = LifecycleDriver()
        let entry = driver.entry()
        let transfer = driver.transfer()
        _ = driver.joined(1)
        _ = driver.joined(2)
        driver.transferring(entry, transfer)
        #expect(driver.paused(1) == .unchanged)
        #expect(driver.paused(2) == PauseStep(paused: true, .pauseTransfer(transfer)))
        #expect(driver.resumed(1) == PauseStep(paused: false, .resumeTransfer(transfer)))
    }

    @Test("a subscriber that joins without pausing resumes the paused download")
    func joinerResumes() {
        var driver = LifecycleDriver()
        let entry = driver.entry()
        let transfer = driver.transfer()
        _ = driver.joined(1)
        driver.transferring(entry, transfer)
        _ = driver.paused(1)
        #expect(driver.joined(2) == PauseStep(paused: false, .resumeTransfer(transfer)))
    }

    @Test("when the subscriber that had not paused leaves, the paused rest pause the download")
    func leaverUnblocksThePause() {
        var driver = LifecycleDriver()
        let entry = driver.entry()
        let transfer = driver.transfer()
        _ = driver.joined(1)
        _ = driver.joined(2)
        driver.transferring(entry, transfer)
        _ = driver.paused(1)
        #expect(driver.left(2) == PauseStep(paused: true, .pauseTransfer(transfer)))
        // The last one leaving changes nothing: the download stops instead.
        #expect(driver.left(1) == .unchanged)
    }

    @Test("a pause of a subscriber that left, or never joined, counts for nothing")
    func strangersDoNotCount() {
        var driver = LifecycleDriver()
        _ = driver.joined(1)
        _ = driver.start()
        #expect(driver.paused(7) == .unchanged)
        #expect(!driver.lifecycle.isPaused)
    }

    @Test("a download paused while queued leaves the queue, and queues again when resumed")
    func pausedWhileQueued() {
        var driver = LifecycleDriver(priority: .high)
        let entry = driver.entry()
        _ = driver.joined(1)
        _ = driver.start()
        _ = driver.enqueued(entry, at: .high)
        #expect(driver.paused(1) == PauseStep(paused: true, .withdraw(entry)))
        #expect(driver.phase == .held)
        #expect(driver.resumed(1) == PauseStep(paused: false, .enqueue(.high, attempt: 1)))
        #expect(driver.phase == .queued)
        // The new entry's grant starts the transfer as usual.
        let second = driver.entry()
        _ = driver.enqueued(second)
        #expect(driver.granted(second) == .startTransfer(driver.url, attempt: 1))
    }

    @Test("paused before `add` returned: the entry is withdrawn when it arrives, a grant given back")
    func pausedBeforeTheEntryArrived() {
        var driver = LifecycleDriver()
        let entry = driver.entry()
        _ = driver.joined(1)
        _ = driver.start()
        #expect(driver.paused(1) == PauseStep(paused: true, .none))
        #expect(driver.granted(entry) == .free(entry))
        #expect(driver.enqueued(entry) == .withdraw(entry))
        #expect(driver.phase == .held)
    }

    @Test("a download paused before it started is held from the start")
    func pausedBeforeStart() {
        var driver = LifecycleDriver()
        _ = driver.joined(1)
        #expect(driver.paused(1) == PauseStep(paused: true, .none))
        #expect(driver.start() == .none)
        #expect(driver.phase == .held)
        #expect(driver.resumed(1) == PauseStep(paused: false, .enqueue(.normal, attempt: 1)))
    }

    @Test("a transfer that starts while the download is paused is paused at once")
    func transferStartsPaused() {
        var driver = LifecycleDriver(modifiesRequests: true)
        let entry = driver.entry()
        let transfer = driver.transfer()
        _ = driver.joined(1)
        _ = driver.start()
        _ = driver.enqueued(entry)
        _ = driver.granted(entry)
        #expect(driver.paused(1) == PauseStep(paused: true, .none))
        #expect(driver.modifierFinished(.success(driver.request)) == .startTransfer(driver.url, attempt: 1))
        #expect(driver.transferStarted(transfer) == .pauseTransfer(transfer))
    }

    @Test("a retry after a pause stays paused: the next attempt is held, not queued")
    func retryStaysPaused() {
        var driver = LifecycleDriver()
        let entry = driver.entry()
        let transfer = driver.transfer()
        _ = driver.joined(1)
        driver.transferring(entry, transfer)
        _ = driver.completed(driver.unavailable(), retryDelay: .seconds(1))
        #expect(driver.phase == .backingOff)
        #expect(driver.paused(1) == PauseStep(paused: true, .none))
        #expect(driver.waitEnded() == .none)
        #expect(driver.phase == .held)
        #expect(driver.resumed(1) == PauseStep(paused: false, .enqueue(.normal, attempt: 2)))
    }

    @Test("a held download stops at once; a finished one ignores pauses")
    func stopHeldAndFinished() {
        var driver = LifecycleDriver()
        _ = driver.joined(1)
        _ = driver.joined(2)
        _ = driver.start()
        _ = driver.paused(1)
        _ = driver.paused(2)
        #expect(driver.phase == .held)
        #expect(driver.stop() == .endStopped(release: .nothing))
        #expect(driver.resumed(1) == .unchanged)
        #expect(driver.phase == .finished)
    }

    @Test("cancelling a paused transfer: the stop cancels it as usual")
    func stopPausedTransfer() {
        var driver = LifecycleDriver()
        let entry = driver.entry()
        let transfer = driver.transfer()
        _ = driver.joined(1)
        driver.transferring(entry, transfer)
        _ = driver.paused(1)
        #expect(driver.stop() == .cancelTransfer(transfer))
        #expect(driver.phase == .cancellingTransfer)
    }
}
