// `import WebImage` brings every module: the vocabulary, the default implementations
// and the manager.
@_exported import WebImageAVIF
@_exported import WebImageCache
@_exported import WebImageCallbackRegistry
@_exported import WebImageColor
@_exported import WebImageConcurrency
@_exported import WebImageCore
@_exported import WebImageDecoding
@_exported import WebImageEncoding
@_exported import WebImageHTTP
@_exported import WebImageManager
@_exported import WebImageOperations
@_exported import WebImageReachability
@_exported import WebImageResources
@_exported import WebImageSecurity
@_exported import WebImageTransport
@_exported import WebImageWebP
