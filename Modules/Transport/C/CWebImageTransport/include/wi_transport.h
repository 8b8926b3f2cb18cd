// C glue for WebImageTransport: typed wrappers for libcurl's variadic calls, and the
// OpenSSL hook that hands a server's certificate chain to a Swift trust evaluator during
// the TLS handshake.
#ifndef WI_TRANSPORT_H
#define WI_TRANSPORT_H

#include <curl/curl.h>
#include <stddef.h>
#include <stdint.h>

// MARK: Typed wrappers (curl_easy_setopt and friends are variadic: Swift cannot call them).

CURLcode wi_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode wi_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value);
CURLcode wi_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode wi_easy_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode wi_easy_setopt_blob(CURL *handle, CURLoption option, const void *data, size_t length);
CURLcode wi_easy_setopt_write_function(CURL *handle, size_t (*function)(char *, size_t, size_t, void *));
CURLcode wi_easy_setopt_header_function(CURL *handle, size_t (*function)(char *, size_t, size_t, void *));
/// The process-wide "request ready" callback: libcurl's CURLOPT_PREREQFUNCTION calls
/// `ready(context)` once a hop has its connection (new or reused, any TLS handshake done),
/// just before the request is sent.
typedef void (*wi_request_ready_fn)(void *context);
void wi_request_ready_set_callback(wi_request_ready_fn ready);
/// Reports the handle's hops to the callback with `context`.
CURLcode wi_easy_setopt_request_ready(CURL *handle, void *context);
/// The process-wide trust evaluator: OpenSSL's certificate verification calls
/// `evaluate(context, store_ctx)` for every TLS connection of a handle with a trust hook; a
/// zero result aborts the handshake before any request byte is sent.
typedef int (*wi_trust_evaluate_fn)(void *context, void *x509_store_ctx);
void wi_trust_set_evaluator(wi_trust_evaluate_fn evaluate);
/// Installs (context not NULL) or removes (NULL) the trust hook of a handle.
CURLcode wi_easy_install_trust_hook(CURL *handle, void *context);
/// Installs the trust hook in its stapling form: the handshake asks for the server's OCSP
/// response (status_request), the chain is let through OpenSSL's verification, and the
/// evaluator is called from OpenSSL's status callback instead, once the stapled response
/// (or its absence) is known: TLS 1.2 sends it after the certificates. That is still
/// before the client's Finished, so a zero result aborts the handshake before any
/// request byte. The store context the evaluator gets is made from the peer's chain, with
/// the SSL as its ex_data, so the chain accessors below work on it.
CURLcode wi_easy_install_stapling_trust_hook(CURL *handle, void *context);

CURLcode wi_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode wi_easy_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value);
CURLcode wi_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value);
CURLcode wi_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value);

CURLMcode wi_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
CURLSHcode wi_share_setopt_long(CURLSH *share, CURLSHoption option, long value);
CURLcode wi_easy_setopt_share(CURL *handle, CURLSH *share);

/// The easy handle and result of a finished transfer from curl_multi_info_read; 0 when the
/// queue is empty.
int wi_multi_next_done(CURLM *multi, CURL **handle, CURLcode *result);

// MARK: Bytes on the wire (for the stall timer)

/// Keeps the handle's sockets in a process-wide table (libcurl's socket open and close
/// callbacks), so that ``wi_easy_connection_bytes_received`` can find them.
CURLcode wi_easy_track_sockets(CURL *handle);
/// Every byte the kernel has received on the connection the handle uses now (TCP_INFO:
/// head, body, chunk framing, TLS records), or -1 when unknown (not connected yet, not
/// TCP, or a platform without the counter).
int64_t wi_easy_connection_bytes_received(CURL *handle);

// MARK: Address checks (the URL policy's rules on the address actually connected to)

/// The process-wide address checker: called with a transfer's context and an IPv4 (4
/// bytes) or IPv6 (16 bytes) address in network order; zero refuses the address.
typedef int (*wi_address_check_fn)(void *context, const unsigned char *address, size_t length);
void wi_address_set_checker(wi_address_check_fn check);
/// Checks every connection the handle opens, before connecting (libcurl's open-socket
/// callback: a refused address gets no socket, so libcurl tries the next or fails with
/// CURLE_COULDNT_CONNECT), and the connection of every request before it is sent, reused
/// ones included (the pre-request callback: a refusal is CURLE_ABORTED_BY_CALLBACK).
CURLcode wi_easy_install_address_check(CURL *handle, void *context);

/// libcurl's version text ("7.88.1").
const char *wi_curl_version(void);
/// libcurl's version as 0xXXYYZZ (7.88.1 is 0x075801).
unsigned int wi_curl_version_number(void);
/// CURLAUTH_* are macros with casts, which Swift does not import.
static const long WI_CURLAUTH_BASIC = (long)CURLAUTH_BASIC;
static const long WI_CURLAUTH_DIGEST = (long)CURLAUTH_DIGEST;
static const long WI_CURLAUTH_NTLM = (long)CURLAUTH_NTLM;
static const long WI_CURLAUTH_NEGOTIATE = (long)CURLAUTH_NEGOTIATE;

/// libcurl's configured CA bundle path, or NULL.
const char *wi_curl_default_ca_bundle(void);

// MARK: Certificate chain access for the Swift ServerTrust (valid inside the hook only).

/// Number of certificates the server presented.
int wi_trust_chain_count(void *x509_store_ctx);
/// DER of certificate `index` (0 is the leaf), malloc'd into *der; free with wi_free.
/// Returns the length, or -1.
int wi_trust_chain_der(void *x509_store_ctx, int index, unsigned char **der);
void wi_free(void *pointer);

/// Verifies the presented chain against anchors: the system store (`system_bundle`, a PEM
/// file, loaded once and kept) when `use_system`, plus `anchor_count` DER certificates.
/// When `host` is not NULL the leaf must match it (DNS name, or IP when it parses as one).
/// Returns X509_V_OK (0) or an X509_V_ERR_* code; `message` gets OpenSSL's text.
int wi_trust_verify(void *x509_store_ctx, const char *system_bundle, int use_system,
                    const unsigned char *const *anchors, const int *anchor_lengths, int anchor_count,
                    const char *host, char *message, size_t message_size);

// MARK: Revocation (wi_revocation.c)

enum {
    WI_REVOCATION_GOOD = 0,
    WI_REVOCATION_REVOKED = 1,
    WI_REVOCATION_UNKNOWN = 2,
    WI_REVOCATION_NO_RESPONSE = 3,
    WI_REVOCATION_UNVERIFIABLE = 4,
};

/// One source's answer about one certificate of the presented chain.
typedef struct {
    int certificate_index;
    int status;           // WI_REVOCATION_*
    int has_date;         // revoked_at is set
    int64_t revoked_at;   // seconds since 1970, UTC
    char subject[256];
    char detail[256];     // the reason name when revoked; else why not good
} wi_revocation_answer;

/// The stapled OCSP response about the leaf: parsed, its signature verified (by the
/// leaf's issuer, or by a responder that issuer delegated to with id-kp-OCSPSigning), its
/// dates current (5 minutes' leeway), and it must be about the leaf. The issuer is looked
/// for in the presented chain, then among the anchors. Fills one answer.
void wi_revocation_ocsp(void *x509_store_ctx, const char *system_bundle, int use_system,
                        const unsigned char *const *anchors, const int *anchor_lengths, int anchor_count,
                        wi_revocation_answer *answer);

/// The revocation lists (DER or PEM each) about the leaf (`whole_chain` 0) or every
/// presented certificate that is not self-signed. For each certificate, the lists from
/// its issuer must verify with the issuer's key and be current. Fills up to
/// `answer_capacity` answers and returns how many.
int wi_revocation_crl(void *x509_store_ctx, const unsigned char *const *lists, const int *list_lengths, int list_count,
                      int whole_chain, const char *system_bundle, int use_system,
                      const unsigned char *const *anchors, const int *anchor_lengths, int anchor_count,
                      wi_revocation_answer *answers, int answer_capacity);

/// The DER of the leaf's issuer (a presented certificate, else an anchor), malloc'd into
/// *der (free with wi_free). Returns the length, or -1 when there is none.
int wi_revocation_issuer_der(void *x509_store_ctx, const char *system_bundle, int use_system,
                             const unsigned char *const *anchors, const int *anchor_lengths, int anchor_count,
                             unsigned char **der);

/// A DER OCSP response fetched from the leaf's responder, checked as a stapled one is
/// (signature by `issuer` or its delegated responder, about `leaf`, current). Fills one
/// answer; *next_update gets the response's nextUpdate (seconds since 1970) when it is
/// usable and has one, else -1.
void wi_revocation_fetched_ocsp(const unsigned char *response, int length, const unsigned char *leaf_der, int leaf_length,
                                const unsigned char *issuer_der, int issuer_length, wi_revocation_answer *answer,
                                int64_t *next_update);

/// A CRL (DER or PEM) downloaded from the leaf's distribution point: from the leaf's
/// issuer, signed by `issuer`'s key, current; what it says about the leaf. Fills one
/// answer; *next_update as for wi_revocation_fetched_ocsp.
void wi_revocation_fetched_crl(const unsigned char *list, int length, const unsigned char *leaf_der, int leaf_length,
                               const unsigned char *issuer_der, int issuer_length, wi_revocation_answer *answer,
                               int64_t *next_update);

// MARK: Fetching revocation answers (wi_revocation_fetch.c)

/// A DER certificate's subject (OpenSSL's one-line form) into `subject`, the first `http`
/// OCSP responder URL of its Authority Information Access into `ocsp`, and the first
/// `http` URL of its CRL distribution points into `crl` (each empty when there is none,
/// or it does not fit). 0, or -1 when the certificate does not parse.
int wi_revocation_sources(const unsigned char *der, int length, char *subject, size_t subject_size, char *ocsp,
                          size_t ocsp_size, char *crl, size_t crl_size);

/// The DER OCSP request (one SHA-1 CertID, no nonce) about `leaf`, issued by `issuer`,
/// malloc'd into *der (free with wi_free). Returns the length, or -1.
int wi_ocsp_request_der(const unsigned char *leaf_der, int leaf_length, const unsigned char *issuer_der, int issuer_length,
                        unsigned char **der);

/// SHA-256 of a DER certificate's SubjectPublicKeyInfo into out[32]; 0 on success.
int wi_spki_sha256(const unsigned char *der, int length, unsigned char *out);

#endif
