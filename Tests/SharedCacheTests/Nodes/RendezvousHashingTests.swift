import Testing

@testable import WebImageSharedCache

@Suite("Rendezvous hashing")
struct RendezvousHashingTests {
    static let keys = (0..<30_000).map { "https://images.example.com/photos/\($0).jpg" }
    static let three = ["10.0.0.1:6379/0", "10.0.0.2:6379/0", "10.0.0.3:6379/0"]

    @Test("the same key goes to the same node, whatever order the nodes are listed in")
    func stable() {
        let listed = RendezvousHashing(identities: Self.three)
        let reversed = RendezvousHashing(identities: Self.three.reversed())
        for key in Self.keys.prefix(1000) {
            let node = listed.node(for: key)
            #expect(node == listed.node(for: key))
            #expect(reversed.identities[reversed.node(for: key)!] == listed.identities[node!])
        }
    }

    @Test("keys spread evenly over three nodes (each within 30 to 37 %)")
    func even() {
        let ring = RendezvousHashing(identities: Self.three)
        var counts = [0, 0, 0]
        for key in Self.keys { counts[ring.node(for: key)!] += 1 }
        for count in counts {
            let share = Double(count) / Double(Self.keys.count)
            #expect(share > 0.30 && share < 0.37, "\(counts)")
        }
    }

    @Test("adding a fourth node moves about a quarter of the keys, all of them to the new node")
    func addingANode() {
        let before = RendezvousHashing(identities: Self.three)
        let after = RendezvousHashing(identities: Self.three + ["10.0.0.4:6379/0"])
        var moved = 0
        for key in Self.keys {
            let old = before.node(for: key)!
            let new = after.node(for: key)!
            if old != new {
                moved += 1
                #expect(new == 3, "a key moved between two old nodes")
            }
        }
        let share = Double(moved) / Double(Self.keys.count)
        #expect(share > 0.20 && share < 0.30, "moved \(moved) of \(Self.keys.count)")
        #expect(share <= 1.0 / 3.0)
    }

    @Test("removing a node moves only its own keys")
    func removingANode() {
        let before = RendezvousHashing(identities: Self.three)
        let after = RendezvousHashing(identities: Array(Self.three.prefix(2)))
        for key in Self.keys.prefix(5000) {
            let old = before.node(for: key)!
            if old != 2 { #expect(after.node(for: key) == old) }
        }
    }

    @Test("no node, no placement; one node takes every key")
    func edges() {
        #expect(RendezvousHashing(identities: []).node(for: "a") == nil)
        #expect(Self.keys.prefix(100).allSatisfy { RendezvousHashing(identities: ["only"]).node(for: $0) == 0 })
    }
}
