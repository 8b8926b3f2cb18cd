/// What a decode does with the colour space the file states (see
/// ``DecodeOptions/color``).
///
/// Converting needs a colour engine: the decoder registry of WebImageDecoding converts
/// when it is given a ``ColorConverting`` (the `WebImage` umbrella gives it the LittleCMS
/// one of WebImageColor). Without one, pixels stay as stored and
/// ``DecodedImage/colorProfile`` says what they are in.
public enum ColorHandling: Sendable, Hashable {
    /// Pixels in sRGB, as a colour-managed browser shows the file: a file tagged with
    /// another profile is converted (relative colorimetric), an untagged or sRGB file
    /// is left as it is. The default.
    case convertToSRGB
    /// The stored pixels, with the file's profile in ``DecodedImage/colorProfile`` so
    /// that an encoder can write it back. CMYK files are the exception: an RGBA bitmap
    /// cannot hold ink values, so they are converted to sRGB as with ``convertToSRGB``.
    case preserve
    /// Pixels converted to `profile` (an RGB profile), which ``DecodedImage/colorProfile``
    /// then names. Untagged files are taken to be sRGB.
    case convert(to: ColorProfile)
}
