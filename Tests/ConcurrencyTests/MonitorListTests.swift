import Foundation
import Synchronization
import Testing

@testable import WebImageConcurrency
@testable import WebImageCore

/// A monitor that records the numbers it is told, and on which queue.
private final class NumberMonitor: Sendable {
    private let seen = Locked<[Int]>([])
    private let onQueue = Locked<[Bool]>([])
    let queueKey = DispatchSpecificKey<Int>()

    var numbers: [Int] { seen.withLock { $0 } }
    var calledOnMarkedQueue: [Bool] { onQueue.withLock { $0 } }

    func record(_ number: Int) {
        seen.withLock { $0.append(number) }
        onQueue.withLock { $0.append(DispatchQueue.getSpecific(key: queueKey) == 7) }
    }
}

@Suite("MonitorList: monitors added and removed while events flow")
struct MonitorListTests {
    @Test("a monitor sees exactly the events emitted between its add and its removal, in order")
    func addThenRemove() {
        let list = MonitorList<NumberMonitor>()
        let monitor = NumberMonitor()
        #expect(list.isEmpty)
        list.emit { $0.record(0) }
        let registration = list.add(monitor, delivery: .immediate)
        #expect(!list.isEmpty)
        for number in 1...3 { list.emit { $0.record(number) } }
        registration.remove()
        #expect(list.isEmpty)
        list.emit { $0.record(4) }
        #expect(monitor.numbers == [1, 2, 3])
    }

    @Test("events go to the queue the registration chose; one queued before the removal is dropped there")
    func queuedDelivery() async {
        let list = MonitorList<NumberMonitor>()
        let monitor = NumberMonitor()
        let queue = DispatchQueue(label: "monitor-list-test")
        queue.setSpecific(key: monitor.queueKey, value: 7)
        let registration = list.add(monitor, delivery: .queue(queue))
        list.emit { $0.record(1) }
        queue.sync {}
        #expect(monitor.numbers == [1])
        #expect(monitor.calledOnMarkedQueue == [true])

        queue.suspend()
        list.emit { $0.record(2) }  // handed to the queue, not yet run
        registration.remove()
        queue.resume()
        queue.sync {}
        #expect(monitor.numbers == [1], "no call starts after remove() returned")
    }

    @Test("two monitors each get every event; removing one leaves the other")
    func independentMonitors() {
        let list = MonitorList<NumberMonitor>()
        let first = NumberMonitor()
        let second = NumberMonitor()
        let firstRegistration = list.add(first, delivery: .immediate)
        list.emit { $0.record(1) }
        list.add(second, delivery: .immediate)
        list.emit { $0.record(2) }
        firstRegistration.cancel()
        firstRegistration.remove()  // a second removal does nothing
        list.emit { $0.record(3) }
        #expect(first.numbers == [1, 2])
        #expect(second.numbers == [2, 3])
    }

    @Test("a monitor can remove itself from inside its own callback")
    func removesItself() {
        let list = MonitorList<NumberMonitor>()
        let monitor = NumberMonitor()
        let holder = Locked<EventMonitorRegistration?>(nil)
        let registration = list.add(monitor, delivery: .immediate)
        holder.withLock { $0 = registration }
        list.emit { monitor in
            monitor.record(1)
            holder.withLock { $0 }?.remove()
        }
        list.emit { $0.record(2) }
        #expect(monitor.numbers == [1])
    }

    @Test("removal waits for a call under way on another thread, and none starts after")
    func removalWaitsForCallInProgress() {
        let list = MonitorList<NumberMonitor>()
        let monitor = NumberMonitor()
        let queue = DispatchQueue(label: "monitor-list-slow")
        let registration = list.add(monitor, delivery: .queue(queue))
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        list.emit { monitor in
            entered.signal()
            release.wait()
            monitor.record(1)
        }
        entered.wait()
        let removed = DispatchSemaphore(value: 0)
        Thread {
            registration.remove()
            // Reached only once the call under way has returned.
            removed.signal()
        }.start()
        #expect(removed.wait(timeout: .now() + .milliseconds(200)) == .timedOut, "remove() waits for the call")
        release.signal()
        removed.wait()
        #expect(monitor.numbers == [1], "the call under way completed before remove() returned")
        list.emit { $0.record(2) }
        queue.sync {}
        #expect(monitor.numbers == [1])
    }
}
