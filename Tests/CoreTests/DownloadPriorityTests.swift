import Testing
import WebImageCore

@Suite("DownloadPriority and task priorities")
struct DownloadPriorityTests {
    @Test("each queue priority runs at a task priority that maps back to its band")
    func roundTrip() {
        #expect(DownloadPriority.high.taskPriority == .high)
        #expect(DownloadPriority.normal.taskPriority == .medium)
        #expect(DownloadPriority.low.taskPriority == .low)
        for priority in DownloadPriority.allCases {
            let band: DownloadPriority = priority > .normal ? .high : priority < .normal ? .low : .normal
            #expect(DownloadPriority(taskPriority: priority.taskPriority) == band, "\(priority)")
        }
    }

    @Test("task priorities above high and below low fall in the outer bands")
    func outerBands() {
        #expect(DownloadPriority(taskPriority: .userInitiated) == .high)
        #expect(DownloadPriority(taskPriority: .background) == .low)
        #expect(DownloadPriority(taskPriority: .utility) == .low)
        #expect(DownloadPriority(taskPriority: TaskPriority(rawValue: 22)) == .normal)
    }
}
