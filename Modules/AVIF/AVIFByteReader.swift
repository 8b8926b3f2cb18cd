internal import CLibAVIF

/// libavif's input, read in place from bytes the session's owner keeps alive.
///
/// libavif's own memory reader (`avifDecoderSetIOMemory`) gives a file cut short as a
/// box-parsing failure. This reader leaves the size unknown and answers a read past
/// the end with what there is, so libavif says `AVIF_RESULT_TRUNCATED_DATA`; and while
/// more bytes may still come (the incremental decoder), it answers
/// `AVIF_RESULT_WAITING_ON_IO`, libavif's way of saying "not yet".
final class AVIFByteReader {
    private struct Window {
        var base: UnsafePointer<UInt8>
        var count: Int
        var complete: Bool
        /// A read found fewer bytes than a box header (8) before the end.
        var endsInsideABoxHeader = false
    }

    let io: UnsafeMutablePointer<avifIO>
    private let window: UnsafeMutablePointer<Window>

    /// A reader over `base`..`base + count`; `complete` says no byte will follow.
    init(base: UnsafePointer<UInt8>, count: Int, complete: Bool) {
        window = .allocate(capacity: 1)
        window.initialize(to: Window(base: base, count: count, complete: complete))
        io = .allocate(capacity: 1)
        io.initialize(to: avifIO())
        io.pointee.read = { io, flags, offset, size, out in
            guard let io, let out, flags == 0, let context = io.pointee.data else { return AVIF_RESULT_IO_ERROR }
            let pointer = context.assumingMemoryBound(to: Window.self)
            let window = pointer.pointee
            let available = offset < UInt64(window.count) ? window.count - Int(offset) : 0
            if size > available && !window.complete { return AVIF_RESULT_WAITING_ON_IO }
            if available > 0, available < 8, size >= 8 { pointer.pointee.endsInsideABoxHeader = true }
            out.pointee.data = available > 0 ? window.base + Int(offset) : window.base
            out.pointee.size = min(size, available)
            return AVIF_RESULT_OK
        }
        // The bytes stay where they are for the decoder's life: libavif need not copy.
        io.pointee.persistent = 1
        io.pointee.data = UnsafeMutableRawPointer(window)
    }

    /// Whether the data ends partway through a box header: the file is cut short,
    /// though libavif reports a box it could not parse.
    var endsInsideABoxHeader: Bool { window.pointee.endsInsideABoxHeader }

    /// Call after the decoder that read through it is destroyed (it does not free a
    /// reader without a `destroy` function).
    func release() {
        io.deinitialize(count: 1)
        io.deallocate()
        window.deinitialize(count: 1)
        window.deallocate()
    }
}
