/// The shell functions both test PKIs start from: `ca_dir NAME`, a folder for
/// `openssl ca` (index, serial, crlnumber, config); `key FILE`, a P-256 key; and
/// `ca.ext`, the extensions of a CA certificate.
enum OpenSSLCAScript {
    static let functions = #"""
        # ca_dir NAME: a CA folder for `openssl ca` (index, serial, crlnumber, config)
        ca_dir() {
          mkdir -p "$1/new"; : > "$1/index.txt"; echo 1000 > "$1/serial"; echo 01 > "$1/crlnumber"
          cat > "$1/ca.cnf" <<CNF
        [ ca ]
        default_ca = this
        [ this ]
        dir = $PWD/$1
        database = \$dir/index.txt
        new_certs_dir = \$dir/new
        serial = \$dir/serial
        crlnumber = \$dir/crlnumber
        default_md = sha256
        policy = any
        unique_subject = no
        copy_extensions = none
        [ any ]
        commonName = supplied
        CNF
        }
        key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }
        printf 'basicConstraints=critical,CA:true\nkeyUsage=critical,keyCertSign,cRLSign\nsubjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n' > ca.ext
        """#
}
