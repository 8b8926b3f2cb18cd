import Testing
import WebImageCore
import WebImageSecurity

@Suite("CredentialStore: credentials by protection space, host, or for all")
struct CredentialStoreTests {
    let alice = Credential(user: "alice", password: "a")
    let bob = Credential(user: "bob", password: "b")
    let carol = Credential(user: "carol", password: "c")

    func space(
        _ host: String = "images.example.com", port: Int = 443, realm: String? = "photos", method: AuthenticationMethod = .basic,
        scheme: String = "https"
    ) -> ProtectionSpace {
        ProtectionSpace(scheme: scheme, host: host, port: port, realm: realm, method: method)
    }

    @Test("a credential answers exactly its protection space")
    func exact() {
        let store = CredentialStore()
        store.set(alice, for: space())
        #expect(store.credential(for: space()) == alice)
        #expect(store.credential(for: space("IMAGES.example.com")) == alice)
        #expect(store.credential(for: space(realm: "other")) == nil)
        #expect(store.credential(for: space(realm: nil)) == nil)
        #expect(store.credential(for: space(method: .digest)) == nil)
        #expect(store.credential(for: space(port: 8443)) == nil)
        #expect(store.credential(for: space(scheme: "http")) == nil)
        #expect(store.credential(for: space("other.example.com")) == nil)
    }

    @Test("setting again replaces; the initializer takes a dictionary")
    func replace() {
        let store = CredentialStore([space(): alice])
        #expect(store.credential(for: space()) == alice)
        store.set(bob, for: space())
        #expect(store.credential(for: space()) == bob)
    }

    @Test("exact space, then the host's default, then the global default")
    func precedence() {
        let store = CredentialStore()
        store.setDefault(carol)
        #expect(store.credential(for: space("anywhere.org", port: 80)) == carol)
        store.setDefault(bob, forHost: "Images.Example.com", port: 443)
        #expect(store.credential(for: space(realm: "any realm", method: .digest)) == bob)
        #expect(store.credential(for: space(port: 8443)) == carol)
        store.set(alice, for: space())
        #expect(store.credential(for: space()) == alice)
        #expect(store.credential(for: space(realm: "other")) == bob)
    }

    @Test("remove takes away one level; removeAll everything")
    func removal() {
        let store = CredentialStore()
        store.set(alice, for: space())
        store.setDefault(bob, forHost: "images.example.com", port: 443)
        store.setDefault(carol)
        store.remove(for: space())
        #expect(store.credential(for: space()) == bob)
        store.removeDefault(forHost: "IMAGES.example.com", port: 443)
        #expect(store.credential(for: space()) == carol)
        store.removeDefault()
        #expect(store.credential(for: space()) == nil)

        store.set(alice, for: space())
        store.setDefault(bob, forHost: "images.example.com", port: 443)
        store.setDefault(carol)
        store.removeAll()
        #expect(store.credential(for: space()) == nil)
        #expect(store.credential(for: space("anywhere.org")) == nil)
    }

    @Test("a space whose host was changed after it was made is still found")
    func hostSetLater() {
        let store = CredentialStore()
        var changed = space()
        changed.host = "IMAGES.EXAMPLE.COM"
        store.set(alice, for: changed)
        #expect(store.credential(for: space()) == alice)
    }

    @Test("many tasks setting, reading and removing at once: every read sees a credential that was set for it")
    func concurrency() async {
        let store = CredentialStore()
        let hosts = (0..<16).map { "host\($0).example.com" }
        let credentials = hosts.map { Credential(user: $0, password: "p") }
        let wrongReads = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var wrong = 0
                    for step in 0..<5_000 {
                        let index = (step &* 7 &+ worker) % hosts.count
                        let space = ProtectionSpace(scheme: "https", host: hosts[index], port: 443, realm: "r\(step % 3)", method: .basic)
                        switch step % 4 {
                        case 0: store.set(credentials[index], for: space)
                        case 1: store.setDefault(credentials[index], forHost: hosts[index], port: 443)
                        case 2:
                            if step % 100 == 2 { store.remove(for: space) } else { store.removeDefault(forHost: hosts[index], port: 443) }
                        default:
                            if let found = store.credential(for: space), found != credentials[index] { wrong += 1 }
                        }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrongReads == 0)
        for (index, host) in hosts.enumerated() {
            store.setDefault(credentials[index], forHost: host, port: 443)
        }
        for (index, host) in hosts.enumerated() {
            #expect(
                store.credential(for: ProtectionSpace(scheme: "https", host: host, port: 443, realm: nil, method: .digest))
                    == credentials[index])
        }
    }
}
