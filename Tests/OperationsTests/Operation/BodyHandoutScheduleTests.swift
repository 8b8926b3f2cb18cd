import Testing

@testable import WebImageOperations

@Suite("When a progressive download hands out its body")
struct BodyHandoutScheduleTests {
    /// The sizes, of those the body reaches in turn, at which it is handed out.
    private static func handouts(at sizes: [Int]) -> [Int] {
        var schedule = BodyHandoutSchedule()
        return sizes.filter { schedule.isDue(size: $0) }
    }

    @Test("not before the first step, then each time the body grew by a quarter and by at least the step")
    func growth() {
        let step = BodyHandoutSchedule.minimumStep
        #expect(Self.handouts(at: [step - 1, step]) == [step])
        // A small body waits for a whole step; a large one for a quarter more.
        #expect(Self.handouts(at: [step, 2 * step - 1, 2 * step]) == [step, 2 * step])
        #expect(Self.handouts(at: [step, 100 * step, 125 * step - 1, 125 * step]) == [step, 100 * step, 125 * step])
    }

    @Test("the snapshots handed out add up to a few times the body, however small the pieces it arrives in")
    func linearCopies() {
        let size = 8 << 20
        let handedOut = Self.handouts(at: Array(stride(from: 1024, through: size, by: 1024))).reduce(0, +)
        #expect(handedOut <= 5 * size)
        #expect(handedOut >= size / 2, "the bodies were handed out at all")
    }
}
