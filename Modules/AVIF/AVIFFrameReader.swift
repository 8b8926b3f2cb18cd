internal import CLibAVIF
import Foundation
import Synchronization
import WebImageConcurrency
import WebImageCore
import WebImageDecoding

/// The frames of an AVIF: one for a still, each sample of the track for an image
/// sequence. AVIF sequences have no canvas to compose on: every frame is whole.
///
/// Holds a copy of the compressed file (libavif reads it for as long as the decoder
/// lives) and libavif's planes for one frame; every frame it returns is its own.
final class AVIFFrameReader: ImageFrameReading {
    let info: ImageInfo
    /// libavif 0.11 does not read a sequence's repetition count: sequences loop forever.
    let loopCount = 0
    let frameCount: Int
    private let options: DecodeOptions
    private let target: PixelSize
    private let session: AVIFSession
    /// The index of the next frame.
    private(set) var returned = 0
    /// The next frame is not the one after the last decoded: libavif must seek to it.
    private var seeking = false
    /// How the frames are allocated: a still's as a still (prefaulted), a sequence's as
    /// an animation's (`PixelAllocation.animationFrames`).
    private let frameAllocation: PixelAllocation

    /// Parses the file and checks it against `options` before any frame exists.
    ///
    /// - Throws: as `AVIFSession.init` does.
    convenience init(data: Data, options: DecodeOptions) throws(ImageDecodingError) {
        let file = AVIFFileCopy(data)
        self.init(session: try AVIFSession(bytes: file.bytes, options: options, keepingAlive: file), options: options)
    }

    /// The reader over a session already parsed, and checked against `options`
    /// (``AVIFSession/checkLimits(_:)``), whose bytes it keeps alive.
    init(session: AVIFSession, options: DecodeOptions) {
        self.session = session
        self.options = options
        frameCount = session.frameCount
        let shown = session.displaySize
        target = options.targetSize(for: shown)
        let frames = options.firstFrameOnly ? 1 : frameCount
        frameAllocation = frames > 1 ? options.frameAllocation(canvas: shown, frameCount: frames) : .still
        info = ImageInfo(format: .avif, size: shown, orientation: session.transform.orientation)
    }

    /// What the decode holds at its peak (see `AVIFDecoder.estimatedMemory(decoding:options:)`).
    /// The ICC profile of the file's `colr` box, when it has one.
    var iccProfile: Data? { session.iccProfile }
    /// The code points of the file's `nclx` box (what counts without an ICC profile).
    var cicp: CICP { session.cicp }

    var colorProfile: ColorProfile? {
        if let iccProfile { return DecodedImage.storedPixelProfile(embedding: iccProfile) }
        guard let stated = try? cicp.colorProfile(), !stated.isSRGB else { return nil }
        return stated
    }

    var estimatedMemory: Int { AVIFDecoder.estimatedMemory(of: session, options: options) }

    func nextFrame() throws(ImageDecodingError) -> ImageFrame? {
        guard returned < (options.firstFrameOnly ? 1 : frameCount) else { return nil }
        let image: UnsafeMutablePointer<avifImage>
        let seconds: Double
        if seeking {
            (image, seconds) = try session.frame(at: returned)
            seeking = false
        } else {
            guard let next = try session.nextFrame() else { return nil }
            (image, seconds) = next
        }
        returned += 1
        let whole = try AVIFPixels.bitmap(
            of: image, crop: session.transform.crop, target: target,
            allocation: options.allocation(ofDecoded: target, frames: frameAllocation))
        let bitmap = try PostProcessing.finish(whole, options: options, orientation: .up, allocation: frameAllocation).0
        guard frameCount > 1 else { return ImageFrame(bitmap: bitmap) }
        let stored = Self.milliseconds(seconds)
        return ImageFrame(bitmap: bitmap, duration: ImageFrame.playbackDuration(forStoredDelay: stored), storedDelay: stored)
    }

    /// Goes to frame `index`: the next frame decoded is that one.
    func seek(to index: Int) {
        returned = index
        seeking = true
    }

    /// Every frame's duration as the container states it, as `nextFrame` reports it.
    var storedDelays: [Duration] {
        (0..<frameCount).map { Self.milliseconds(session.duration(ofFrame: $0)) }
    }

    /// A frame's duration as libavif reports it (seconds from the track's timescale),
    /// to the millisecond; a value that is not a sane number of seconds counts as 0.
    static func milliseconds(_ seconds: Double) -> Duration {
        guard seconds.isFinite, seconds > 0 else { return .zero }
        return .milliseconds(Int(min(seconds * 1000, Double(Int32.max)).rounded()))
    }
}

/// A copy of a file at an address that does not move, freed when the last owner lets
/// go: the session that reads it holds it, so libavif's decoder is always destroyed
/// before its bytes are.
final class AVIFFileCopy {
    let bytes: UnsafeRawBufferPointer

    init(_ data: Data) {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, data.count), alignment: 16)
        data.withUnsafeBytes { copy.copyMemory(from: $0) }
        bytes = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(copy)[0..<data.count])
    }

    deinit { UnsafeMutableRawPointer(mutating: bytes.baseAddress)?.deallocate() }
}

/// A parsed frame reader waiting for its decode, handed over once: a prepared decode is
/// `Sendable`, the reader (libavif's decoder) belongs to one thread at a time.
final class AVIFPreparedReader: Sendable {
    private let reader: Locked<AVIFFrameReader?>

    init(_ reader: sending AVIFFrameReader) {
        self.reader = Locked(reader)
    }

    /// Decodes with the reader the first time; `nil` once it has been used.
    func decodeOnce(_ data: Data, options: DecodeOptions) throws(ImageDecodingError) -> DecodedImage? {
        try reader.withLock { (unread) throws(ImageDecodingError) -> DecodedImage? in
            guard let taken = unread.take() else { return nil }
            if let onDemand = try AVIFDecoder.decodeOnDemand(data, reader: taken, options: options) { return onDemand }
            return try AVIFDecoder.decodeAll(taken, options: options)
        }
    }
}

/// A parsed session waiting for the first decode prepared from a survey, handed over
/// once: a survey is `Sendable`, the session (libavif's decoder) belongs to one thread
/// at a time.
final class AVIFSurveyedSession: Sendable {
    private let session: Locked<AVIFSession?>

    init(_ session: sending AVIFSession) {
        self.session = Locked(session)
    }

    /// The session the first time; `nil` once it has been taken.
    func take() -> sending AVIFSession? {
        session.withLock { (unused) -> sending AVIFSession? in unused.take() }
    }
}
