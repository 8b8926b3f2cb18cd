#include "wi_transport.h"

#include <openssl/err.h>
#include <openssl/sha.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

CURLcode wi_easy_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
CURLcode wi_easy_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
CURLcode wi_easy_setopt_string(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
CURLcode wi_easy_setopt_pointer(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }

CURLcode wi_easy_setopt_blob(CURL *h, CURLoption o, const void *data, size_t length) {
    struct curl_blob blob;
    blob.data = (void *)data;
    blob.len = length;
    blob.flags = CURL_BLOB_COPY; // libcurl keeps its own copy
    return curl_easy_setopt(h, o, &blob);
}

CURLcode wi_easy_setopt_write_function(CURL *h, size_t (*f)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, f);
}

CURLcode wi_easy_setopt_header_function(CURL *h, size_t (*f)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, f);
}

static wi_request_ready_fn request_ready_callback;

void wi_request_ready_set_callback(wi_request_ready_fn ready) { request_ready_callback = ready; }

static int request_ready(void *context, char *primary_ip, char *local_ip, int primary_port, int local_port) {
    (void)primary_ip;
    (void)local_ip;
    (void)primary_port;
    (void)local_port;
    if (request_ready_callback != NULL) request_ready_callback(context);
    return CURL_PREREQFUNC_OK;
}

CURLcode wi_easy_setopt_request_ready(CURL *h, void *context) {
    CURLcode result = curl_easy_setopt(h, CURLOPT_PREREQFUNCTION, request_ready);
    if (result != CURLE_OK) return result;
    return curl_easy_setopt(h, CURLOPT_PREREQDATA, context);
}

CURLcode wi_easy_setopt_share(CURL *h, CURLSH *share) { return curl_easy_setopt(h, CURLOPT_SHARE, share); }

CURLcode wi_easy_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
CURLcode wi_easy_getinfo_off(CURL *h, CURLINFO i, curl_off_t *v) { return curl_easy_getinfo(h, i, v); }
CURLcode wi_easy_getinfo_string(CURL *h, CURLINFO i, const char **v) { return curl_easy_getinfo(h, i, v); }
CURLcode wi_easy_getinfo_pointer(CURL *h, CURLINFO i, void **v) { return curl_easy_getinfo(h, i, v); }

CURLMcode wi_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }
CURLSHcode wi_share_setopt_long(CURLSH *s, CURLSHoption o, long v) { return curl_share_setopt(s, o, v); }

int wi_multi_next_done(CURLM *multi, CURL **handle, CURLcode *result) {
    int queued = 0;
    CURLMsg *message;
    while ((message = curl_multi_info_read(multi, &queued)) != NULL) {
        if (message->msg == CURLMSG_DONE) {
            *handle = message->easy_handle;
            *result = message->data.result;
            return 1;
        }
    }
    return 0;
}

const char *wi_curl_version(void) {
    curl_version_info_data *info = curl_version_info(CURLVERSION_NOW);
    return info ? info->version : NULL;
}

unsigned int wi_curl_version_number(void) {
    curl_version_info_data *info = curl_version_info(CURLVERSION_NOW);
    return info ? info->version_num : 0;
}

const char *wi_curl_default_ca_bundle(void) {
    curl_version_info_data *info = curl_version_info(CURLVERSION_NOW);
    return info ? info->cainfo : NULL;
}

// MARK: Trust hook

static wi_trust_evaluate_fn wi_trust_evaluator;

void wi_trust_set_evaluator(wi_trust_evaluate_fn evaluate) {
    __atomic_store_n(&wi_trust_evaluator, evaluate, __ATOMIC_RELEASE);
}

static int wi_verify_certificate(X509_STORE_CTX *store_ctx, void *context) {
    wi_trust_evaluate_fn evaluate = __atomic_load_n(&wi_trust_evaluator, __ATOMIC_ACQUIRE);
    int trusted = evaluate ? evaluate(context, store_ctx) : 0;
    // The evaluator's word replaces OpenSSL's: libcurl reads the verify result after the
    // handshake, so a trusted chain must read as X509_V_OK there.
    if (trusted) {
        X509_STORE_CTX_set_error(store_ctx, X509_V_OK);
        return 1;
    }
    if (X509_STORE_CTX_get_error(store_ctx) == X509_V_OK)
        X509_STORE_CTX_set_error(store_ctx, X509_V_ERR_APPLICATION_VERIFICATION);
    return 0;
}

static CURLcode wi_ssl_ctx_function(CURL *curl, void *ssl_ctx, void *context) {
    (void)curl;
    SSL_CTX_set_cert_verify_callback((SSL_CTX *)ssl_ctx, wi_verify_certificate, context);
    return CURLE_OK;
}

CURLcode wi_easy_install_trust_hook(CURL *h, void *context) {
    CURLcode code = curl_easy_setopt(h, CURLOPT_SSL_CTX_FUNCTION, context ? wi_ssl_ctx_function : NULL);
    if (code == CURLE_OK) code = curl_easy_setopt(h, CURLOPT_SSL_CTX_DATA, context);
    return code;
}

// The chain is decided in the status callback (below), which OpenSSL calls for every
// full handshake that asked for a status; libcurl reads the verify result afterwards, so
// this reads as X509_V_OK. The transport also refuses a response head of a hop whose
// deferred evaluation never ran (TransferState), so a skipped callback cannot pass.
static int wi_verify_deferred(X509_STORE_CTX *store_ctx, void *context) {
    (void)context;
    X509_STORE_CTX_set_error(store_ctx, X509_V_OK);
    return 1;
}

static int wi_status_callback(SSL *ssl, void *context) {
    wi_trust_evaluate_fn evaluate = __atomic_load_n(&wi_trust_evaluator, __ATOMIC_ACQUIRE);
    X509 *leaf = SSL_get0_peer_certificate(ssl);
    STACK_OF(X509) *chain = SSL_get_peer_cert_chain(ssl);
    if (!evaluate || !leaf) return 0;
    X509_STORE *empty = X509_STORE_new();
    X509_STORE_CTX *store_ctx = X509_STORE_CTX_new();
    int trusted = 0;
    if (empty && store_ctx && X509_STORE_CTX_init(store_ctx, empty, leaf, chain) == 1 &&
        X509_STORE_CTX_set_ex_data(store_ctx, SSL_get_ex_data_X509_STORE_CTX_idx(), ssl) == 1) {
        trusted = evaluate(context, store_ctx);
    }
    X509_STORE_CTX_free(store_ctx);
    X509_STORE_free(empty);
    return trusted ? 1 : 0;
}

static CURLcode wi_ssl_ctx_stapling_function(CURL *curl, void *ssl_ctx, void *context) {
    (void)curl;
    SSL_CTX *ctx = ssl_ctx;
    SSL_CTX_set_cert_verify_callback(ctx, wi_verify_deferred, context);
    SSL_CTX_set_tlsext_status_type(ctx, TLSEXT_STATUSTYPE_ocsp);
    SSL_CTX_set_tlsext_status_cb(ctx, wi_status_callback);
    SSL_CTX_set_tlsext_status_arg(ctx, context);
    return CURLE_OK;
}

CURLcode wi_easy_install_stapling_trust_hook(CURL *h, void *context) {
    CURLcode code = curl_easy_setopt(h, CURLOPT_SSL_CTX_FUNCTION, wi_ssl_ctx_stapling_function);
    if (code == CURLE_OK) code = curl_easy_setopt(h, CURLOPT_SSL_CTX_DATA, context);
    return code;
}

// MARK: Chain access

static STACK_OF(X509) *wi_presented_chain(void *x509_store_ctx) {
    return X509_STORE_CTX_get0_untrusted((X509_STORE_CTX *)x509_store_ctx);
}

int wi_trust_chain_count(void *x509_store_ctx) {
    STACK_OF(X509) *chain = wi_presented_chain(x509_store_ctx);
    if (chain) return sk_X509_num(chain);
    return X509_STORE_CTX_get0_cert((X509_STORE_CTX *)x509_store_ctx) ? 1 : 0;
}

int wi_trust_chain_der(void *x509_store_ctx, int index, unsigned char **der) {
    STACK_OF(X509) *chain = wi_presented_chain(x509_store_ctx);
    X509 *certificate = NULL;
    if (chain) {
        if (index < 0 || index >= sk_X509_num(chain)) return -1;
        certificate = sk_X509_value(chain, index);
    } else if (index == 0) {
        certificate = X509_STORE_CTX_get0_cert((X509_STORE_CTX *)x509_store_ctx);
    }
    if (!certificate) return -1;
    *der = NULL;
    return i2d_X509(certificate, der);
}

void wi_free(void *pointer) { OPENSSL_free(pointer); }

// MARK: Verification

static pthread_mutex_t wi_system_store_lock = PTHREAD_MUTEX_INITIALIZER;
static X509_STORE *wi_system_store;
static char wi_system_store_path[4096];

// The system anchors, parsed once per bundle path and shared: parsing ~150 CA
// certificates per handshake would cost milliseconds. X509_STORE is safe to share for
// verification.
X509_STORE *wi_copy_system_store(const char *bundle) {
    X509_STORE *store = NULL;
    pthread_mutex_lock(&wi_system_store_lock);
    if (wi_system_store && strcmp(wi_system_store_path, bundle ? bundle : "") == 0) {
        store = wi_system_store;
    } else {
        X509_STORE *fresh = X509_STORE_new();
        int loaded = fresh && (bundle ? X509_STORE_load_file(fresh, bundle) : X509_STORE_set_default_paths(fresh));
        if (loaded) {
            if (wi_system_store) X509_STORE_free(wi_system_store);
            wi_system_store = fresh;
            snprintf(wi_system_store_path, sizeof wi_system_store_path, "%s", bundle ? bundle : "");
            store = fresh;
        } else if (fresh) {
            X509_STORE_free(fresh);
        }
    }
    if (store) X509_STORE_up_ref(store);
    pthread_mutex_unlock(&wi_system_store_lock);
    return store;
}

static void wi_copy_message(int code, char *message, size_t size) {
    if (message && size) snprintf(message, size, "%s", X509_verify_cert_error_string(code));
}

static int wi_verify_with(X509_STORE *store, STACK_OF(X509) *trusted, X509 *leaf, STACK_OF(X509) *untrusted,
                          const char *host, char *message, size_t message_size) {
    X509_STORE_CTX *context = X509_STORE_CTX_new();
    if (!context) return X509_V_ERR_OUT_OF_MEM;
    int code = X509_V_ERR_UNSPECIFIED;
    if (X509_STORE_CTX_init(context, store, leaf, untrusted) == 1) {
        if (trusted) X509_STORE_CTX_set0_trusted_stack(context, trusted);
        X509_STORE_CTX_set_purpose(context, X509_PURPOSE_SSL_SERVER);
        X509_VERIFY_PARAM *parameters = X509_STORE_CTX_get0_param(context);
        if (host) {
            // An IP literal is checked against IP SANs, a name against DNS SANs.
            if (X509_VERIFY_PARAM_set1_ip_asc(parameters, host) != 1)
                X509_VERIFY_PARAM_set1_host(parameters, host, 0);
        }
        code = X509_verify_cert(context) == 1 ? X509_V_OK : X509_STORE_CTX_get_error(context);
        if (code == X509_V_OK) {
            if (message && message_size) message[0] = 0;
        } else {
            wi_copy_message(code, message, message_size);
        }
    }
    X509_STORE_CTX_free(context);
    return code;
}

int wi_trust_verify(void *x509_store_ctx, const char *system_bundle, int use_system,
                    const unsigned char *const *anchors, const int *anchor_lengths, int anchor_count,
                    const char *host, char *message, size_t message_size) {
    X509_STORE_CTX *handshake = x509_store_ctx;
    X509 *leaf = X509_STORE_CTX_get0_cert(handshake);
    STACK_OF(X509) *untrusted = X509_STORE_CTX_get0_untrusted(handshake);
    if (!leaf) {
        wi_copy_message(X509_V_ERR_UNSPECIFIED, message, message_size);
        return X509_V_ERR_UNSPECIFIED;
    }
    int code = X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY;
    if (use_system) {
        X509_STORE *store = wi_copy_system_store(system_bundle);
        if (!store) {
            if (message && message_size) snprintf(message, message_size, "cannot load the system CA bundle %s", system_bundle ? system_bundle : "(default)");
            return X509_V_ERR_UNSPECIFIED;
        }
        code = wi_verify_with(store, NULL, leaf, untrusted, host, message, message_size);
        X509_STORE_free(store);
        if (code == X509_V_OK || anchor_count == 0) return code;
    }
    if (anchor_count > 0) {
        STACK_OF(X509) *trusted = sk_X509_new_null();
        X509_STORE *empty = X509_STORE_new();
        int parsed = trusted && empty;
        for (int i = 0; parsed && i < anchor_count; i++) {
            const unsigned char *cursor = anchors[i];
            X509 *anchor = d2i_X509(NULL, &cursor, anchor_lengths[i]);
            if (!anchor || !sk_X509_push(trusted, anchor)) {
                X509_free(anchor);
                parsed = 0;
            }
        }
        if (parsed) {
            code = wi_verify_with(empty, trusted, leaf, untrusted, host, message, message_size);
        } else {
            code = X509_V_ERR_UNSPECIFIED;
            if (message && message_size) snprintf(message, message_size, "an anchor certificate cannot be parsed");
        }
        if (trusted) sk_X509_pop_free(trusted, X509_free);
        if (empty) X509_STORE_free(empty);
    }
    return code;
}

int wi_spki_sha256(const unsigned char *der, int length, unsigned char *out) {
    const unsigned char *cursor = der;
    X509 *certificate = d2i_X509(NULL, &cursor, length);
    if (!certificate) return -1;
    unsigned char *spki = NULL;
    int spki_length = i2d_X509_PUBKEY(X509_get_X509_PUBKEY(certificate), &spki);
    int result = -1;
    if (spki_length > 0) {
        SHA256(spki, (size_t)spki_length, out);
        result = 0;
    }
    OPENSSL_free(spki);
    X509_free(certificate);
    return result;
}
