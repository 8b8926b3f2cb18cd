/// Where a chain of GIF data sub-blocks (length byte, then that many bytes, ended by a
/// zero length) ends in the file.
///
/// The frame reader walks a frame's chain before decoding it, to tell a frame whose
/// data is all in the file (any decode failure is then damage) from one the file cuts
/// short (a failure is then truncation).
enum GIFBlockChain: Equatable {
    /// The terminator is present; the chain ends just after it, at `end`.
    case complete(end: Int)
    /// The data ends inside the chain; `wholeBlocksEnd` is where the last block that is
    /// entirely present ends.
    case cut(wholeBlocksEnd: Int)

    /// Whether the file ends inside the chain.
    var isCut: Bool {
        if case .cut = self { return true }
        return false
    }

    /// Walks the chain that starts at `start` in `source`.
    init(in source: GIFByteSource, from start: Int) {
        self = source.withUnsafeBytes { Self(in: $0, from: start) }
    }

    /// Walks the chain that starts at `start` in `bytes`.
    init(in bytes: UnsafeRawBufferPointer, from start: Int) {
        var offset = start
        while offset < bytes.count {
            let length = Int(bytes[offset])
            if length == 0 {
                self = .complete(end: offset + 1)
                return
            }
            guard offset + 1 + length <= bytes.count else { break }
            offset += 1 + length
        }
        self = .cut(wholeBlocksEnd: min(offset, bytes.count))
    }
}
