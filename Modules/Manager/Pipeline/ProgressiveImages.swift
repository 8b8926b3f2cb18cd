import Dispatch
import Foundation
import Synchronization
import WebImageConcurrency
import WebImageCore

/// Partial images of one progressive load, made from the body the downloader hands out
/// as it grows (``ReceivedBody``), off the transport's thread.
///
/// Only the newest body waits to be fed: each holds the body from its first byte, so a
/// decoder that fell behind takes the newest and skips no byte. One serial queue feeds
/// the incremental decoder the bytes it has not seen and hands on a partial image
/// whenever more pixels became visible, so a slow decoder sees fewer, larger steps and
/// never holds up the transfer. A retry's body (a new attempt) starts a new decoder. A
/// decoding error only stops the partial images: the final decode of the whole body
/// reports it.
final class ProgressiveImages: Sendable {
    private struct Pending {
        var newest: ReceivedBody?
        var isScheduled = false
        var isClosed = false
    }

    private struct Decoding {
        var decoder: (any IncrementalImageDecoding)?
        var attempt = 0
        /// Bytes of the attempt's body fed to `decoder`.
        var fed = 0
        var lastRevision = 0
        var isDisabled = false

        mutating func startAttempt(_ attempt: Int) {
            self = Decoding(attempt: attempt)
        }
    }

    private let decoders: any ImageDecoderProviding
    private let options: DecodeOptions
    private let publish: @Sendable (DecodedImage) -> Void
    private let pending = Locked(Pending())
    private let decoding = Locked(Decoding())
    private let queue = DispatchQueue(label: "webimage.progressive")

    /// Partial images decoded with `options` by the decoder the body's first bytes call
    /// for; `publish` gets each, on this type's queue.
    init(decoders: any ImageDecoderProviding, options: DecodeOptions, publish: @escaping @Sendable (DecodedImage) -> Void) {
        self.decoders = decoders
        self.options = options
        self.publish = publish
    }

    /// The body received so far: it replaces any body still waiting to be fed.
    func receive(_ body: ReceivedBody) {
        let schedules = pending.withLock { pending -> Bool in
            guard !pending.isClosed else { return false }
            pending.newest = body
            guard !pending.isScheduled else { return false }
            pending.isScheduled = true
            return true
        }
        if schedules { queue.async { self.drain() } }
    }

    /// No more partial images: the download ended.
    func close() {
        pending.withLock {
            $0.isClosed = true
            $0.newest = nil
        }
    }

    /// Returns once every body received so far has been fed and its image handed on: a
    /// barrier for tests.
    func flush() {
        queue.sync {}
    }

    private func drain() {
        let body = pending.withLock { pending -> ReceivedBody? in
            pending.isScheduled = false
            defer { pending.newest = nil }
            return pending.isClosed ? nil : pending.newest
        }
        guard let body, let image = decoding.withLock({ decodeMore(of: body, &$0) }) else { return }
        if !pending.withLock({ $0.isClosed }) { publish(image) }
    }

    /// Feeds the decoder what it has not seen of `body`; the partial image when more
    /// pixels became visible.
    private func decodeMore(of body: ReceivedBody, _ state: inout Decoding) -> DecodedImage? {
        if body.attempt != state.attempt { state.startAttempt(body.attempt) }
        guard !state.isDisabled, body.bytes.count > state.fed else { return nil }
        do {
            if state.decoder == nil {
                guard body.bytes.count >= ImageFormat.sniffLength else { return nil }
                state.decoder = try decoders.decoder(for: body.bytes).makeIncrementalDecoder(options: options)
            }
            guard let decoder = state.decoder else { return nil }
            let start = body.bytes.startIndex + state.fed
            try decoder.append(Data(body.bytes[start...]))
            state.fed = body.bytes.count
            guard decoder.revision > state.lastRevision else { return nil }
            state.lastRevision = decoder.revision
            return try decoder.partialImage()
        } catch {
            state.isDisabled = true
            state.decoder = nil
            return nil
        }
    }
}
