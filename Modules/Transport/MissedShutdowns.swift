import Foundation
import Synchronization
import WebImageConcurrency

/// Transports deinitialised without ``CurlTransport/shutdown()``, as debug builds see
/// them: the first in the process is reported on standard error, and each is recorded,
/// so that a test can tell the check fires. Such a transport still ends its thread once
/// its transfers in flight have finished; the report points at code that never says it
/// is done with its transport.
package enum MissedShutdowns {
    private static let missed = Locked<(count: Int, serials: Set<UInt64>)>((0, []))

    /// How many transports were deinitialised without a shutdown so far.
    package static var count: Int { missed.withLock { $0.count } }

    /// Whether the transport with this ``CurlTransport/serial`` was deinitialised without
    /// a shutdown.
    package static func contains(_ serial: UInt64) -> Bool {
        missed.withLock { $0.serials.contains(serial) }
    }

    static func record(_ serial: UInt64) {
        let first = missed.withLock { missed in
            missed.count += 1
            missed.serials.insert(serial)
            return missed.count == 1
        }
        guard first else { return }
        let warning = """
            warning: CurlTransport deinitialised without shutdown(); call shutdown() when done with a transport \
            (reported once per process, in debug builds)

            """
        FileHandle.standardError.write(Data(warning.utf8))
    }
}
