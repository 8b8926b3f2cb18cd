import Synchronization
import WebImageConcurrency
import WebImageCore

/// The header parses made in one task, for tests that hold the library to one parse per
/// decode.
///
/// What counts is a read the library makes of a file's header structures to learn its
/// size and frames ahead of the pixels: a JPEG's segment walk (or libjpeg's header-only
/// read when the walk cannot tell), an APNG's chunk walk, a GIF's block survey, a WebP's
/// header, an AVIF's container parse. A codec's own reading inside a decode (libjpeg's
/// markers once the decode has started, libpng's IHDR) is part of that decode and is not
/// a parse here. Nothing is recorded unless the task binds a log, so outside tests each
/// parse costs one task-local read.
///
/// ```swift
/// let log = HeaderParseLog()
/// let image = try HeaderParseLog.$current.withValue(log) { try registry.decode(data) }
/// #expect(log.count(of: .gif) == 1)
/// ```
@_spi(Testing) public final class HeaderParseLog: Sendable {
    /// The log that parses in the current task are recorded in; `nil` records nothing.
    @TaskLocal public static var current: HeaderParseLog?

    private let parses = Locked<[ImageFormat]>([])

    public init() {}

    /// The formats of the parses recorded, in order.
    public var formats: [ImageFormat] { parses.withLock { $0 } }

    /// How many parses of `format` were recorded.
    public func count(of format: ImageFormat) -> Int {
        parses.withLock { recorded in recorded.count { $0 == format } }
    }

    /// Records a parse of a `format` header in the current task's log, if it has one.
    package static func record(_ format: ImageFormat) {
        current?.parses.withLock { $0.append(format) }
    }
}
