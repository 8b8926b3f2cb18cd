// The async forms of the downloader (`download(_:)` and `events(for:)` on
// `ImageDownloading`) live in WebImageConcurrency: re-exported, so that
// `import WebImageOperations` is enough to await a download.
@_exported import WebImageConcurrency
