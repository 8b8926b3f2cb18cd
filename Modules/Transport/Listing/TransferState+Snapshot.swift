import WebImageCore

extension TransferState {
    /// What ``CurlTransport/transfersInFlight()`` shows of this transfer. Loop thread only.
    var snapshot: TransferSnapshot {
        TransferSnapshot(
            task: task, requestURL: request.url, url: url, state: snapshotState,
            progress: TransferProgress(received: bodyBytes, expected: expectedLength))
    }

    /// A challenge with its handler first (pausing then waits for the answer), then a
    /// pause, wherever the hop is; a hop between two others counts as running.
    private var snapshotState: TransferSnapshot.State {
        if case .awaitingChallenge = lifecycle.state { return .awaitingChallengeAnswer }
        if lifecycle.isPaused { return .paused }
        if case .waitingForSlot = lifecycle.state { return .waitingForConnection }
        return .running
    }
}
