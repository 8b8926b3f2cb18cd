import Foundation
import WebImageConcurrency
import WebImageCore

/// Online revocation: a handshake that lacked a fetched answer (``HopOutcome/revocationPending(_:)``)
/// has ended; the answer is fetched as a transfer of this transport (one that fetches no
/// answer itself), checked, cached, and the transfer connects again. Transfers that need
/// the same answer wait on one fetch.
extension CurlEventLoop {
    func fetchRevocation(for state: TransferState, _ plan: RevocationFetchPlan) {
        guard let first = plan.steps.first, !state.revocationFetchedHosts.contains(plan.host) else {
            complete(
                state,
                .failure(
                    TransportError(
                        .serverTrustFailed, "no revocation answer for \(plan.host) after fetching one", url: state.url,
                        trustFailure: ServerTrustError(
                            .revocationUnverified, "the fetched revocation answer was not kept for the retry", host: plan.host))))
            return
        }
        state.revocationFetchedHosts.insert(plan.host)
        if revocationAnswers.waiting[first.key] != nil {
            revocationAnswers.waiting[first.key]?.append(state)
            return
        }
        // A fetch of the same answer can end between this handshake's miss and now (both
        // in one pass of the loop): the answer is cached, so connect again without asking.
        if revocationAnswers.cache.answer(for: first.key, now: Date()) != nil {
            startHop(state)
            return
        }
        revocationAnswers.waiting[first.key] = [state]
        fetch(plan, step: 0, as: RevocationFetchSettings(urlPolicy: state.policy, proxy: state.request.proxy), waitingOn: first.key)
    }

    private func fetch(_ plan: RevocationFetchPlan, step index: Int, as settings: RevocationFetchSettings, waitingOn key: String) {
        let step = plan.steps[index]
        let budget = plan.policy.timeout
        let request = TransportRequest(
            url: step.url, headers: ["Accept": step.accept], timeouts: .init(connect: budget, total: budget, stall: budget),
            maximumBodySize: step.maximumBodySize, acceptsCompressedResponses: false, proxy: settings.proxy,
            preferredHTTPVersion: .http1_1, urlPolicy: settings.urlPolicy)
        let delegate = RevocationFetchDelegate { [weak self] result in
            self?.fetched(result, plan, step: index, as: settings, waitingOn: key)
        }
        // Not cancellable from outside: transfers that wait on it come and go.
        let task = TransferTask(onCancel: { _ in })
        begin(TransferState(task: task, request: request, delegate: delegate, environment: environment))
    }

    /// One step's fetch ended (on this thread, from the fetch's completion): its answer
    /// cached, then the next step when it could not be reached, else the waiting
    /// transfers started again.
    private func fetched(
        _ result: Result<[UInt8], TransportError>, _ plan: RevocationFetchPlan, step index: Int, as settings: RevocationFetchSettings,
        waitingOn key: String
    ) {
        let step = plan.steps[index]
        let now = Date()
        let outcome: RevocationFetchReport.Outcome
        switch result {
        case .failure(let error):
            let why = error.description
            revocationAnswers.cache.store(.unreachable(why), for: step.key, until: now + plan.policy.failureLifetime.timeInterval, now: now)
            outcome = .unreachable(why)
        case .success(let bytes):
            let (answer, nextUpdate) = FetchedRevocationCheck.check(bytes, from: step.source, leaf: plan.leaf, issuer: plan.issuer)
            let expiry = FetchedRevocationCheck.expiry(of: answer, nextUpdate: nextUpdate, policy: plan.policy, now: now)
            revocationAnswers.cache.store(.bytes(bytes), for: step.key, until: expiry, now: now)
            if case .unverifiable(let why) = answer.status { outcome = .unusable(why) } else { outcome = .answered(answer.status) }
        }
        let waiting = revocationAnswers.waiting[key] ?? []
        if !environment.monitors.isEmpty {
            let report = RevocationFetchReport(host: plan.host, source: step.source, url: step.reported, outcome: outcome)
            for state in waiting {
                let task = state.task
                environment.monitors.emit { $0.transfer(task, didFetchRevocation: report) }
            }
        }
        if case .unreachable = outcome, index + 1 < plan.steps.count, !refusesTransfers {
            fetch(plan, step: index + 1, as: settings, waitingOn: key)
            return
        }
        revocationAnswers.waiting[key] = nil
        guard !refusesTransfers else { return }
        // Those still under way (not cancelled meanwhile) connect again.
        for state in waiting where transfers[state.task.id] === state {
            startHop(state)
        }
    }
}

/// What a revocation fetch takes from the transfer that needed it: where it may connect,
/// and through which proxy.
struct RevocationFetchSettings {
    let urlPolicy: URLPolicy
    let proxy: TransportRequest.Proxy
}

/// Collects a revocation fetch's body for the loop. Its events arrive on the loop's
/// thread (a transfer delegate's contract), which is the only thread that touches it.
final class RevocationFetchDelegate: TransferDelegate, @unchecked Sendable {
    private var body: [UInt8] = []
    private let done: (Result<[UInt8], TransportError>) -> Void

    init(done: @escaping (Result<[UInt8], TransportError>) -> Void) {
        self.done = done
    }

    func transfer(_ task: TransferTask, didReceive bytes: UnsafeRawBufferPointer, progress: TransferProgress) {
        body.append(contentsOf: bytes)
    }

    func transfer(_ task: TransferTask, didComplete completion: TransferCompletion) {
        done(completion.result.map { _ in body })
    }
}
