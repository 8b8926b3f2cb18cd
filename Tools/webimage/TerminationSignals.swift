import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SIGINT (Ctrl-C) and SIGTERM as an async sequence, so a long-running command can shut
/// down cleanly (close its server, print its counts) instead of dying mid-write.
///
/// While an instance lives, the two signals no longer end the process: they are
/// delivered to ``signals``. Dropping the instance restores the default action.
final class TerminationSignals {
    let signals: AsyncStream<Int32>
    private let sources: [any DispatchSourceSignal]

    init() {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        signals = stream
        let queue = DispatchQueue(label: "webimage.signals")
        sources = [SIGINT, SIGTERM].map { number in
            // The default action must be off, or the process ends before the source sees it.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
    }

    /// Waits for the first of the two signals.
    func next() async -> Int32? {
        for await number in signals { return number }
        return nil
    }

    /// "SIGINT" or "SIGTERM".
    static func name(_ number: Int32) -> String {
        number == SIGINT ? "SIGINT" : number == SIGTERM ? "SIGTERM" : "signal \(number)"
    }

    deinit {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
