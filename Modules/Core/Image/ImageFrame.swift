/// One frame of an image: its pixels and, for animations, how long it is shown.
public struct ImageFrame: Sendable {
    /// The pixels, composed on the full canvas (for GIF, the logical screen).
    public var bitmap: ImageBitmap
    /// How long the frame is shown when played, after the browser rule for tiny delays.
    ///
    /// GIF files often say 0 or 10 ms, which every browser plays as 100 ms; so does
    /// this library (delays of 10 ms or less become 100 ms). ``storedDelay`` keeps the
    /// value as written. Still images have a duration of zero.
    public var duration: Duration
    /// The delay as the file wrote it (GIF: hundredths of a second).
    public var storedDelay: Duration

    public init(bitmap: ImageBitmap, duration: Duration = .zero, storedDelay: Duration? = nil) {
        self.bitmap = bitmap
        self.duration = duration
        self.storedDelay = storedDelay ?? duration
    }

    /// The browser rule: a stored delay of 10 ms or less plays as 100 ms.
    public static func playbackDuration(forStoredDelay delay: Duration) -> Duration {
        delay <= .milliseconds(10) ? .milliseconds(100) : delay
    }
}
