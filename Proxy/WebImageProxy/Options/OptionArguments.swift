/// An option's arguments, the pieces after its name, indexed from 0 however they were
/// sliced: each is a range of the segment's bytes, kept in a buffer the parse lends, so
/// neither reading nor dropping leading arguments allocates.
struct OptionArguments: RandomAccessCollection {
    private let segment: PathText
    private let bounds: Slice<UnsafeBufferPointer<Range<Int>>>

    init(_ segment: PathText, _ bounds: Slice<UnsafeBufferPointer<Range<Int>>>) {
        self.segment = segment
        self.bounds = bounds
    }

    var startIndex: Int { 0 }
    var endIndex: Int { bounds.count }
    subscript(position: Int) -> PathText { segment[bounds[bounds.startIndex + position]] }

    /// The arguments after the first `count`, still indexed from 0.
    func dropping(_ count: Int) -> OptionArguments { OptionArguments(segment, bounds.dropFirst(count)) }
}

extension PathText {
    /// Runs `body` with the ranges of the pieces between each `separator` (an ASCII
    /// byte), empty ones kept, as `split(separator:omittingEmptySubsequences: false)`
    /// cuts them; the ranges live on the stack for the call when there are few.
    func withPieces<Value>(
        separatedBy separator: UInt8, _ body: (UnsafeBufferPointer<Range<Int>>) throws(ProxyError) -> Value
    ) throws(ProxyError) -> Value {
        try withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: occurrences(of: separator) + 1) {
            (ranges) throws(ProxyError) -> Value in
            var found = 0
            var start = 0
            for offset in 0..<count where bytes[offset] == separator {
                ranges.initializeElement(at: found, to: start..<offset)
                found += 1
                start = offset + 1
            }
            ranges.initializeElement(at: found, to: start..<count)
            found += 1
            defer { ranges.baseAddress?.deinitialize(count: found) }
            return try body(UnsafeBufferPointer(rebasing: ranges[..<found]))
        }
    }
}
