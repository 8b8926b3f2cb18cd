import NIOHTTP1

// The server speaks NIO's HTTP types; WebImageCore (imported for its `Locked`) has
// types of the same names. Declarations in this module win over imported ones.
typealias HTTPHeaders = NIOHTTP1.HTTPHeaders
typealias HTTPVersion = NIOHTTP1.HTTPVersion
