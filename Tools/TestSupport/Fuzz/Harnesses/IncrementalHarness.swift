import Foundation
import WebImageCore
import WebImageDecoding

/// Fuzz target `incremental`: one input fed to the registry's incremental decoder in
/// slices, the way a download delivers it.
public enum IncrementalHarness {
    /// At most this many partial images per input: each copies the pixels.
    private static let maxPartialImages = 4

    /// Feeds `data` in slices of sizes drawn from the input, asking for partial images
    /// now and then, and checks:
    /// - partial images are full size, marked partial, shaped like any decoded image;
    /// - `revision` never goes back, and the size and format in `info` do not change;
    /// - after `append` fails, `finish` fails too (the decoder is finished);
    /// - when both the incremental and a one-shot decode succeed, they give the same
    ///   frames, pixels, loop count and orientation (slicing must not change the result;
    ///   for a damaged JPEG, only fed whole, see below).
    public static func run(_ data: Data) -> FuzzOutcome {
        let options = FuzzDecodeOptions.full
        let decoder = FuzzRegistry.all.makeIncrementalDecoder(options: options)
        var random = FuzzRandom(seededBy: data)
        // Slices from one byte up to an eighth of the file, so that small and large
        // deliveries both occur while a big file still takes few calls.
        let largest = max(16, data.count / 8)
        var offset = data.startIndex
        var revision = 0
        var info: ImageInfo?
        var partials = 0
        var appendError: ImageDecodingError?
        while offset < data.endIndex {
            let length = random.oneIn(4) ? random.next(in: 1...4) : random.next(in: 1...largest)
            let end = min(data.endIndex, offset + length)
            do {
                try decoder.append(data[offset..<end])
            } catch {
                appendError = error
                break
            }
            offset = end
            fuzzCheck(decoder.revision >= revision, "revision went from \(revision) to \(decoder.revision)")
            revision = decoder.revision
            // Format and size, once known, are fixed: a viewer sizes its canvas by them.
            // (Other facts may come later: a GIF is known interlaced at its first frame.)
            if let known = info {
                fuzzCheck(
                    decoder.info?.size == known.size && decoder.info?.format == known.format,
                    "info changed from \(known) to \(String(describing: decoder.info))")
            }
            info = decoder.info ?? info
            if partials < maxPartialImages, random.oneIn(3) {
                partials += 1
                checkPartial(decoder, info: info, options: options)
            }
        }

        let incremental: Result<DecodedImage, ImageDecodingError>
        do {
            incremental = .success(try decoder.finish())
        } catch {
            incremental = .failure(error)
        }
        if let appendError, case .success = incremental {
            fuzzFailure("finish() succeeded after append failed with \(appendError)")
        }
        let oneShot = Result { () throws(ImageDecodingError) in try FuzzRegistry.all.decode(data, options: options) }
        switch (incremental, oneShot) {
        case (.success(let image), .success(let whole)):
            DecodedImageInvariants.check(image, format: whole.format, options: options)
            if whole.format == .jpeg && !samePixels(image, whole) {
                // libjpeg-turbo decodes damaged entropy-coded data differently with a
                // short buffer (its fast Huffman path needs a full one), so slices may
                // change a damaged JPEG's pixels. Everything else must still match, and
                // the whole file in one append must give exactly the one-shot pixels.
                compare(image, whole, pixels: false)
                compare(decodeInOneAppend(data, options: options), whole, pixels: true)
            } else {
                compare(image, whole, pixels: true)
            }
            return .accepted(DecodedImageInvariants.summary(image))
        case (.success(let image), .failure(let error)):
            DecodedImageInvariants.check(image, format: image.format, options: options)
            return .accepted("\(DecodedImageInvariants.summary(image)) (one-shot: \(error))")
        case (.failure(let error), _):
            return .rejected(error.description)
        }
    }

    private static func checkPartial(_ decoder: any IncrementalImageDecoding, info: ImageInfo?, options: DecodeOptions) {
        let partial: DecodedImage?
        do {
            partial = try decoder.partialImage()
        } catch {
            return  // a partial image may fail like any decode; finish() reports it
        }
        guard let partial else { return }
        DecodedImageInvariants.check(partial, format: decoder.format, options: options, partial: true)
        if let info {
            fuzzCheck(partial.size == info.size, "partial image \(partial.size) for a \(info.size) image")
        }
    }

    private static func samePixels(_ image: DecodedImage, _ whole: DecodedImage) -> Bool {
        image.frames.count == whole.frames.count && zip(image.frames, whole.frames).allSatisfy { $0.bitmap == $1.bitmap }
    }

    private static func decodeInOneAppend(_ data: Data, options: DecodeOptions) -> DecodedImage {
        let decoder = FuzzRegistry.all.makeIncrementalDecoder(options: options)
        do {
            try decoder.append(data)
            return try decoder.finish()
        } catch {
            fuzzFailure("sliced and one-shot decodes worked, one append failed: \(error)")
        }
    }

    private static func compare(_ image: DecodedImage, _ whole: DecodedImage, pixels: Bool) {
        fuzzCheck(image.frames.count == whole.frames.count, "incremental: \(image.frames.count) frames, one-shot \(whole.frames.count)")
        fuzzCheck(image.loopCount == whole.loopCount, "incremental loop count \(image.loopCount), one-shot \(whole.loopCount)")
        fuzzCheck(image.orientation == whole.orientation, "incremental orientation \(image.orientation), one-shot \(whole.orientation)")
        fuzzCheck(image.sourceSize == whole.sourceSize, "incremental source \(image.sourceSize), one-shot \(whole.sourceSize)")
        for index in image.frames.indices {
            fuzzCheck(
                !pixels || image.frames[index].bitmap == whole.frames[index].bitmap, "frame \(index) pixels differ from the one-shot decode"
            )
            fuzzCheck(
                image.frames[index].duration == whole.frames[index].duration, "frame \(index) duration differs from the one-shot decode")
        }
    }
}
