import Foundation
import WebImageConcurrency
import WebImageCore

/// Redirects: a 3xx the redirect policy lets through is followed once the URL policy
/// allows its target and the redirect handler, when there is one, agrees; the handler may
/// send the next hop elsewhere or with other headers, under the same rules.
extension CurlEventLoop {
    /// Follows `proposed`, the hop ``RedirectPlanner`` made of `response`, or ends the
    /// transfer with why not (the 3xx kept in the error).
    func follow(_ state: TransferState, to proposed: RedirectPlanner.Hop, from response: TransportResponse) {
        let hop: RedirectPlanner.Hop
        switch decide(state, proposed, response) {
        case .success(let decided):
            hop = decided
        case .failure(var error):
            error.response = response
            error.bytesReceived = 0
            complete(state, .failure(error))
            return
        }
        if !environment.monitors.isEmpty {
            let (task, url) = (state.task, hop.url)
            environment.monitors.emit { $0.transfer(task, willRedirectTo: url, from: response) }
        }
        state.redirectCount += 1
        state.url = hop.url
        state.method = hop.method
        if hop.crossesOrigin { state.authentication.leftOrigin() }
        startHop(state)
    }

    /// The hop to follow: `proposed` once the URL policy allows it, then as the redirect
    /// handler decides. A rewritten URL passes the same checks as a `Location`.
    private func decide(
        _ state: TransferState, _ proposed: RedirectPlanner.Hop, _ response: TransportResponse
    ) -> Result<RedirectPlanner.Hop, TransportError> {
        if let violation = state.policy.violation(for: proposed.url) { return .failure(state.refusal(violation)) }
        guard let handler = state.request.redirectHandler ?? environment.configuration.redirectHandler else {
            return .success(proposed)
        }
        let asked = RedirectHop(
            request: state.request, url: state.url, response: response, proposedURL: proposed.url, headers: state.headers,
            redirectsSoFar: state.redirectCount)
        switch handler.decision(for: asked) {
        case .follow:
            return .success(proposed)
        case .refuse:
            return .failure(
                TransportError(
                    .redirectRefused, "the redirect handler refused the redirect to \(proposed.url.absoluteString)", url: state.url))
        case .rewrite(let url, let headers):
            let checked = RedirectPlanner.nextHop(
                from: state.url, method: state.method, statusCode: response.statusCode, location: url.absoluteString,
                policy: state.request.redirects, redirectsSoFar: state.redirectCount)
            // `nil` only for a response that is no redirect to follow, which this one is.
            guard let checked else { return .success(proposed) }
            if case .success(let rewritten) = checked {
                if let violation = state.policy.violation(for: rewritten.url) { return .failure(state.refusal(violation)) }
                if let headers { state.headers = headers }
            }
            return checked
        }
    }
}
