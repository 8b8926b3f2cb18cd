/// Stops the process when an invariant of the library does not hold, so that libFuzzer
/// records the input as a crash (and a replay shows which invariant broke).
@inline(__always)
func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    if !condition { fuzzFailure(message(), file: file, line: line) }
}

/// Stops the process for a broken invariant. `fatalError` rather than `precondition`:
/// optimised builds keep its message.
func fuzzFailure(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    fatalError("fuzz invariant violated: \(message)", file: file, line: line)
}
