import WebImageConcurrency

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The worker pool's jobs waiting for a thread, highest priority first and then in the
/// order they came, with the blocking wait its threads sleep in.
///
/// A pthread mutex and condition variable, not `Locked`: a worker must sleep until a job
/// comes, which `Mutex` cannot do, and polling would burn the cores the pool exists to
/// use. Both live at fixed addresses (allocated, never moved), as pthreads requires.
final class JobQueue: @unchecked Sendable {
    // Guarded by `mutex`: `jobs`, `isShutdown`.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let jobAdded = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var jobs = PriorityFIFO<UInt8, UnownedJob>()
    private var isShutdown = false

    init() {
        mutex.initialize(to: pthread_mutex_t())
        jobAdded.initialize(to: pthread_cond_t())
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(jobAdded, nil)
    }

    deinit {
        pthread_cond_destroy(jobAdded)
        pthread_mutex_destroy(mutex)
        jobAdded.deallocate()
        mutex.deallocate()
    }

    /// Queues `job` and wakes a worker; returns false, queuing nothing, once shut down.
    func push(_ job: UnownedJob) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard !isShutdown else { return false }
        jobs.append(job, priority: job.priority.rawValue)
        pthread_cond_signal(jobAdded)
        return true
    }

    /// The next job, waiting for one if there is none; nil once the queue is shut down
    /// and empty, which ends the worker.
    func pop() -> UnownedJob? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while true {
            if let job = jobs.popFirst() { return job }
            if isShutdown { return nil }
            pthread_cond_wait(jobAdded, mutex)
        }
    }

    /// How many jobs wait for a thread, for tests.
    var count: Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return jobs.count
    }

    /// Refuses new jobs from now on and wakes every worker, which each end once the jobs
    /// already queued are run.
    func shutdown() {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        isShutdown = true
        pthread_cond_broadcast(jobAdded)
    }
}
