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
///
/// With a memory budget, the incremental decoder's memory is a kept charge, made as its
/// first partial image comes (the estimate of a whole decode, read from the header the
/// decoder has by then, or the partial image's own bytes when the decoder cannot
/// estimate): a load whose decoder does not fit shows no partial image, without waiting
/// and without failing. The charge is given back when the decoder is dropped: at the
/// download's end, at a retry, or at an error.
final class ProgressiveImages: Sendable {
    private struct Pending {
        var newest: ReceivedBody?
        var isScheduled = false
        var isClosed = false
    }

    private struct Decoding {
        var decoder: (any IncrementalImageDecoding)?
        /// The format's decoder the body called for, which made `decoder`: its estimate
        /// is the charge, with no second sniff of the body.
        var format: (any ImageDecoding)?
        var attempt = 0
        /// Bytes of the attempt's body fed to `decoder`.
        var fed = 0
        var lastRevision = 0
        var isDisabled = false
        /// Bytes charged to the budget for `decoder` (0 before its first partial image).
        var charged = 0

        /// Drops the decoder, giving its charge back to `budget`.
        mutating func dropDecoder(_ budget: (any MemoryCharging)?) {
            decoder = nil
            format = nil
            if charged > 0 { budget?.refund(charged) }
            charged = 0
        }

        mutating func startAttempt(_ attempt: Int, _ budget: (any MemoryCharging)?) {
            dropDecoder(budget)
            self = Decoding(attempt: attempt)
        }
    }

    private let decoders: any ImageDecoderProviding
    private let options: DecodeOptions
    private let budget: (any MemoryCharging)?
    private let publish: @Sendable (DecodedImage) -> Void
    private let pending = Locked(Pending())
    private let decoding = Locked(Decoding())
    private let queue = DispatchQueue(label: "webimage.progressive")

    /// Partial images decoded with `options` by the decoder the body's first bytes call
    /// for, within `budget` when given; `publish` gets each, on this type's queue.
    init(
        decoders: any ImageDecoderProviding, options: DecodeOptions, budget: (any MemoryCharging)? = nil,
        publish: @escaping @Sendable (DecodedImage) -> Void
    ) {
        self.decoders = decoders
        self.options = options
        self.budget = budget
        self.publish = publish
    }

    deinit {
        decoding.withLock { $0.dropDecoder(budget) }
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

    /// No more partial images: the download ended. The decoder is dropped on this type's
    /// queue, after any step under way, not on the caller's thread.
    func close() {
        pending.withLock {
            $0.isClosed = true
            $0.newest = nil
        }
        queue.async { [self] in decoding.withLock { $0.dropDecoder(budget) } }
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
        if body.attempt != state.attempt { state.startAttempt(body.attempt, budget) }
        guard !state.isDisabled, body.bytes.count > state.fed else { return nil }
        do {
            if state.decoder == nil {
                guard body.bytes.count >= ImageFormat.sniffLength else { return nil }
                let format = try decoders.decoder(for: body.bytes)
                state.format = format
                state.decoder = format.makeIncrementalDecoder(options: options)
            }
            guard let decoder = state.decoder else { return nil }
            let start = body.bytes.startIndex + state.fed
            try decoder.append(Data(body.bytes[start...]))
            state.fed = body.bytes.count
            guard decoder.revision > state.lastRevision else { return nil }
            state.lastRevision = decoder.revision
            guard let image = try decoder.partialImage() else { return nil }
            guard charge(for: image, of: body, &state) else {
                state.isDisabled = true
                state.dropDecoder(budget)
                return nil
            }
            return image
        } catch {
            state.isDisabled = true
            state.dropDecoder(budget)
            return nil
        }
    }

    /// Whether the decoder that made `image` of `body` may go on: always without a
    /// budget, or once charged; its first partial image charges the decoder's memory,
    /// which the budget keeps only when it has room now.
    private func charge(for image: DecodedImage, of body: ReceivedBody, _ state: inout Decoding) -> Bool {
        guard let budget, state.charged == 0 else { return true }
        let estimate = state.format?.estimatedMemory(decoding: body.bytes, options: options) ?? 0
        let bytes = max(estimate, image.byteCount, 1)
        guard budget.chargeKept(bytes) else { return false }
        state.charged = bytes
        return true
    }
}
