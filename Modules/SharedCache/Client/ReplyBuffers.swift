internal import CWebImageSharedCache

/// The buffers string replies are read into, recycled by size class rather than taken
/// from `malloc` and freed for every reply (`wi_reply_buffers.h` says why: in a run of
/// 50 KB hits most fresh buffers were new pages, a fifth of the client's CPU in page
/// faults). At most 16 MiB wait for reuse in a pool, 64 buffers of a class; the rest is
/// freed. Replies use ``shared``; a pool of its own keeps a test's counts its own.
///
/// Thread contract: any thread; the pool locks around its stash.
final class ReplyBuffers: @unchecked Sendable {
    /// The pool replies are read into.
    static let shared = ReplyBuffers(pool: wi_reply_pool_shared(), owned: false)

    private let pool: OpaquePointer
    private let owned: Bool

    private init(pool: OpaquePointer, owned: Bool) {
        self.pool = pool
        self.owned = owned
    }

    /// A pool of its own; `nil` when out of memory. Every buffer it hands out must be
    /// given back before it goes.
    convenience init?() {
        guard let pool = wi_reply_pool_create() else { return nil }
        self.init(pool: pool, owned: true)
    }

    deinit {
        if owned { wi_reply_pool_destroy(pool) }
    }

    /// Room for `count` bytes; `nil` when out of memory. Give it back with ``release(_:)``.
    func allocate(_ count: Int) -> UnsafeMutableRawPointer? {
        wi_reply_pool_allocate(pool, count)
    }

    /// Gives back a buffer from ``allocate(_:)`` or from a reply, to the pool it came
    /// from. Any thread.
    static func release(_ buffer: UnsafeMutableRawPointer?) {
        wi_reply_buffer_release(buffer)
    }

    /// The room of the buffer ``allocate(_:)`` returns for `count` bytes: its size class
    /// (from 16 KiB to 8 MiB, four per power of two), or `count` outside them.
    static func capacity(for count: Int) -> Int {
        wi_reply_buffer_capacity(count)
    }

    /// The bytes waiting for reuse.
    var stashedBytes: Int { wi_reply_pool_stashed_bytes(pool) }

    /// The buffers waiting for reuse in the size class of `count` bytes.
    func stashedCount(for count: Int) -> Int {
        Int(wi_reply_pool_stashed_count(pool, count))
    }

    /// Frees every buffer waiting for reuse.
    func drain() {
        wi_reply_pool_drain(pool)
    }

    /// hiredis's reply functions that use the shared pool, for a reader's `fn`.
    static var replyFunctions: UnsafeMutableRawPointer { wi_reply_functions() }
}
