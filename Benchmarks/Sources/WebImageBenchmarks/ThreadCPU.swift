import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// CPU time of this process's threads, grouped by role through their names: where a
/// case's CPU went, to the nanosecond (getrusage gives the process's total alone).
///
/// Each live thread's clock is read with `clock_gettime` on its per-thread CPU clock
/// (Linux makes one from the thread id: `~tid << 3 | CPUCLOCK_PERTHREAD | CPUCLOCK_SCHED`),
/// which any thread of the same process may read. A thread that ends between two
/// snapshots is missed, so ``Role/other`` is the process's total less the named roles.
enum ThreadCPU {
    enum Role: String, CaseIterable {
        /// The manager's own executor (`webimage-work-N`).
        case workers = "decode workers"
        /// The transport's libcurl loop (`webimage.curl`).
        case transport = "transport thread"
        /// The in-process loopback server (swift-nio's `NIO-ELT-…`).
        case server = "loopback server"
        /// Everything else: Swift's cooperative pool, dispatch's threads, the main thread.
        case other = "other threads"

        init(threadName: String) {
            if threadName.hasPrefix("webimage-work") {
                self = .workers
            } else if threadName == "webimage.curl" {
                self = .transport
            } else if threadName.hasPrefix("NIO-ELT") {
                self = .server
            } else {
                self = .other
            }
        }
    }

    /// Seconds of CPU by thread id, with each thread's role.
    struct Snapshot {
        var seconds: [Int32: (role: Role, seconds: Double)] = [:]
        var process: Double

        static func now() -> Snapshot {
            var snapshot = Snapshot(process: MemoryProbe.processCPUSeconds())
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
            for task in tasks {
                guard let tid = Int32(task),
                    let name = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
                else { continue }
                var time = timespec()
                // CPUCLOCK_PERTHREAD_MASK (4) | CPUCLOCK_SCHED (2).
                guard clock_gettime(clockid_t((~tid) << 3 | 6), &time) == 0 else { continue }
                let role = Role(threadName: name.trimmingCharacters(in: .whitespacesAndNewlines))
                snapshot.seconds[tid] = (role, Double(time.tv_sec) + Double(time.tv_nsec) / 1e9)
            }
            return snapshot
        }

        /// CPU seconds spent by each role since `earlier`.
        func spent(since earlier: Snapshot) -> [Role: Double] {
            var spent: [Role: Double] = [:]
            for (tid, now) in seconds where now.role != .other {
                spent[now.role, default: 0] += now.seconds - (earlier.seconds[tid]?.seconds ?? 0)
            }
            spent[.other] = (process - earlier.process) - spent.values.reduce(0, +)
            return spent
        }
    }
}
