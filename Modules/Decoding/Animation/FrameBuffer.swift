import WebImageCore

/// Composed frames kept by index, within a byte bound, the least recently used dropped
/// first. A frame larger than the whole bound is not kept, nor one the budget behind
/// `charges` has no room for.
struct FrameBuffer {
    let byteLimit: Int
    private let charges: ChargedBytes
    private var frames: [Int: ImageFrame] = [:]
    /// Indices from least to most recently used.
    private var order: [Int] = []
    private(set) var byteCount = 0

    init(byteLimit: Int, charges: ChargedBytes) {
        self.byteLimit = max(0, byteLimit)
        self.charges = charges
    }

    var count: Int { frames.count }

    mutating func frame(at index: Int) -> ImageFrame? {
        guard let frame = frames[index] else { return nil }
        touch(index)
        return frame
    }

    mutating func insert(_ frame: ImageFrame, at index: Int) {
        let bytes = Self.bytes(of: frame)
        guard bytes <= byteLimit, frames[index] == nil else { return }
        while byteCount + bytes > byteLimit, let oldest = order.first {
            order.removeFirst()
            if let dropped = frames.removeValue(forKey: oldest) {
                byteCount -= Self.bytes(of: dropped)
                charges.refund(Self.bytes(of: dropped))
            }
        }
        guard charges.keep(bytes) else { return }
        frames[index] = frame
        order.append(index)
        byteCount += bytes
    }

    private mutating func touch(_ index: Int) {
        if let position = order.lastIndex(of: index) { order.remove(at: position) }
        order.append(index)
    }

    static func bytes(of frame: ImageFrame) -> Int {
        frame.bitmap.bytesPerRow * frame.bitmap.height
    }
}
