/// Reads the run of ASCII digits at the front of `bytes` as a non-negative `Int64`.
///
/// Returns the value and how many bytes it took; `nil` when there is no digit or the
/// number does not fit in 63 bits. One pass, so a field of any length costs its length.
func leadingDecimal<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> (value: Int64, count: Int)? {
    var value: Int64 = 0
    var count = 0
    for byte in bytes {
        guard byte >= 0x30, byte <= 0x39 else { break }
        let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
        let (sum, overflow2) = times10.addingReportingOverflow(Int64(byte - 0x30))
        guard !overflow1, !overflow2 else { return nil }
        value = sum
        count += 1
    }
    return count > 0 ? (value, count) : nil
}

/// `value` without the spaces and tabs around it (HTTP's optional whitespace).
func trimmingOptionalWhitespace(_ value: Substring.UTF8View) -> Substring.UTF8View {
    let isWhitespace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
    guard let start = value.firstIndex(where: { !isWhitespace($0) }), let end = value.lastIndex(where: { !isWhitespace($0) })
    else { return value[value.endIndex...] }
    return value[start...end]
}
