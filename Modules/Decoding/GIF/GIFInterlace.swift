/// The order in which a frame's rows arrive in the LZW data.
///
/// An interlaced frame sends four passes: rows 0, 8, 16...; then 4, 12...; then
/// 2, 6, 10...; then the odd rows. giflib's `DGifGetLine` returns rows in that stream
/// order, so the reader places each where this says.
enum GIFInterlace {
    /// Frame rows (0 at the top) in the order they are decoded.
    static func rowOrder(height: Int, interlaced: Bool) -> [Int] {
        guard interlaced else { return Array(0..<max(0, height)) }
        var rows: [Int] = []
        rows.reserveCapacity(max(0, height))
        for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] {
            rows.append(contentsOf: stride(from: start, to: height, by: step))
        }
        return rows
    }
}
