import Dispatch
import Foundation
import Synchronization
import WebImageConcurrency
import WebImageCore

/// Makes partial images of a progressive download, off the transport's thread.
///
/// Bytes are copied into a pending buffer as they arrive; one serial queue feeds them to
/// the incremental decoder in batches and publishes a partial image whenever more pixels
/// became visible. A slow decoder therefore sees fewer, larger batches and never holds up
/// the transfer. A decoding error only stops the partial images: the final decode of the
/// whole body reports it.
final class ProgressiveFeeder: Sendable {
    private struct Pending {
        var bytes = Data()
        var isScheduled = false
        var isClosed = false
    }

    private struct Decoding {
        var decoder: (any IncrementalImageDecoding)?
        var header = Data()
        var lastRevision = 0
        var isDisabled = false
    }

    private let decoders: [any ImageDecoding]
    private let options: DecodeOptions
    private let publish: @Sendable (DecodedImage) -> Void
    private let pending = Locked(Pending())
    private let decoding = Locked(Decoding())
    private let queue = DispatchQueue(label: "webimage.progressive")

    init(decoders: [any ImageDecoding], options: DecodeOptions, publish: @escaping @Sendable (DecodedImage) -> Void) {
        self.decoders = decoders
        self.options = options
        self.publish = publish
    }

    /// Copies `bytes` for the decoder.
    func feed(_ bytes: UnsafeRawBufferPointer) {
        let schedules = pending.withLock { pending -> Bool in
            guard !pending.isClosed else { return false }
            pending.bytes.append(contentsOf: bytes)
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
            $0.bytes = Data()
        }
    }

    private func drain() {
        let batch = pending.withLock { pending -> Data in
            pending.isScheduled = false
            defer { pending.bytes = Data() }
            return pending.isClosed ? Data() : pending.bytes
        }
        guard !batch.isEmpty else { return }
        let image = decoding.withLock { state -> DecodedImage? in
            guard !state.isDisabled else { return nil }
            do {
                if state.decoder == nil {
                    state.header.append(batch)
                    guard state.header.count >= ImageFormat.sniffLength else { return nil }
                    guard let chosen = decoders.first(where: { $0.recognizes(state.header) }) else {
                        state.isDisabled = true
                        return nil
                    }
                    let decoder = chosen.makeIncrementalDecoder(options: options)
                    try decoder.append(state.header)
                    state.header = Data()
                    state.decoder = decoder
                } else {
                    try state.decoder!.append(batch)
                }
                guard let decoder = state.decoder, decoder.revision > state.lastRevision else { return nil }
                state.lastRevision = decoder.revision
                return try decoder.partialImage()
            } catch {
                state.isDisabled = true
                state.decoder = nil
                return nil
            }
        }
        if let image, !pending.withLock({ $0.isClosed }) { publish(image) }
    }
}
