/// WebImageFixtures: deterministic sample images and encoders for tests, benchmarks
/// and the `webimage` program.
///
/// Developer tooling: apps do not need this module. It makes synthetic pictures from
/// a seed (``SyntheticImage``, ``SyntheticAnimation``) and writes them with the
/// system C encoders (``JPEGFixtureEncoder`` on libjpeg, ``GIFFixtureEncoder`` on
/// giflib, ``PNGFixtureEncoder`` on libpng), with the knobs a decoder test wants:
/// subsampling, progressive scans, EXIF orientation, GIF disposal and interlacing,
/// Adam7. The same seed gives the same bytes on every run and machine.
public enum WebImageFixtures {
    /// The seed used when a caller does not care.
    public static let defaultSeed: UInt64 = 0x5EED_1A6E
}
