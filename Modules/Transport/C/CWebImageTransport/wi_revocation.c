// Revocation answers for the Swift ServerTrust: the stapled OCSP response, the
// configured CRLs, and the responses and lists the transport fetched from the
// certificate's responder or distribution point, each verified before it is believed.
// No network here: the fetching is the transport's, outside the handshake.
#include "wi_transport.h"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/ocsp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

X509_STORE *wi_copy_system_store(const char *bundle);

// OCSP's clock leeway and CRLs' too: a response made a moment ago on a clock a little
// ahead is still current.
static const long wi_clock_leeway = 300;

static void wi_answer_init(wi_revocation_answer *answer, int index, X509 *certificate) {
    memset(answer, 0, sizeof *answer);
    answer->certificate_index = index;
    if (certificate) X509_NAME_oneline(X509_get_subject_name(certificate), answer->subject, sizeof answer->subject);
}

static void wi_answer_set(wi_revocation_answer *answer, int status, const char *detail) {
    answer->status = status;
    snprintf(answer->detail, sizeof answer->detail, "%s", detail ? detail : "");
}

// Seconds since 1970 of an ASN.1 time, or -1 when there is none or it does not parse.
static int64_t wi_epoch_seconds(const ASN1_TIME *time) {
    struct tm parts;
    if (!time || ASN1_TIME_to_tm(time, &parts) != 1) return -1;
    return (int64_t)timegm(&parts);
}

static void wi_answer_date(wi_revocation_answer *answer, const ASN1_TIME *time) {
    int64_t seconds = wi_epoch_seconds(time);
    if (seconds >= 0) {
        answer->has_date = 1;
        answer->revoked_at = seconds;
    }
}

static X509 *wi_parse_certificate(const unsigned char *der, int length) {
    const unsigned char *cursor = der;
    return der && length > 0 ? d2i_X509(NULL, &cursor, length) : NULL;
}

static int wi_is_self_signed(X509 *certificate) {
    return X509_check_issued(certificate, certificate) == X509_V_OK;
}

// The issuer of `certificate`: a presented certificate that issued it, else an anchor
// (custom, then the system's). The result is up-ref'd (free it), or NULL.
static X509 *wi_find_issuer(X509 *certificate, STACK_OF(X509) *presented, const char *system_bundle, int use_system,
                            const unsigned char *const *anchors, const int *anchor_lengths, int anchor_count) {
    for (int i = 0; presented && i < sk_X509_num(presented); i++) {
        X509 *candidate = sk_X509_value(presented, i);
        if (candidate != certificate && X509_check_issued(candidate, certificate) == X509_V_OK) {
            X509_up_ref(candidate);
            return candidate;
        }
    }
    for (int i = 0; i < anchor_count; i++) {
        const unsigned char *cursor = anchors[i];
        X509 *anchor = d2i_X509(NULL, &cursor, anchor_lengths[i]);
        if (anchor && X509_check_issued(anchor, certificate) == X509_V_OK) return anchor;
        X509_free(anchor);
    }
    if (!use_system) return NULL;
    X509_STORE *store = wi_copy_system_store(system_bundle);
    if (!store) return NULL;
    X509 *issuer = NULL;
    X509_STORE_CTX *context = X509_STORE_CTX_new();
    if (context && X509_STORE_CTX_init(context, store, certificate, NULL) == 1) {
        if (X509_STORE_CTX_get1_issuer(&issuer, context, certificate) != 1) issuer = NULL;
    }
    X509_STORE_CTX_free(context);
    X509_STORE_free(store);
    return issuer;
}

static const char *wi_reason_name(int reason) {
    // OCSP_crl_reason_str says "unspecified" for codes it does not know.
    return reason < 0 ? NULL : OCSP_crl_reason_str(reason);
}

// MARK: OCSP

static void wi_check_basic_response(OCSP_BASICRESP *basic, X509 *leaf, X509 *issuer, wi_revocation_answer *answer,
                                    int64_t *next_update_out) {
    // Trust the response as far as the issuer is trusted: the issuer is the only anchor
    // (a partial chain), so the signer must be the issuer or a responder it certified;
    // OCSP_basic_verify then checks the responder's id-kp-OCSPSigning.
    X509_STORE *store = X509_STORE_new();
    STACK_OF(X509) *signers = sk_X509_new_null();
    if (!store || !signers || X509_STORE_add_cert(store, issuer) != 1 || !sk_X509_push(signers, issuer)) {
        wi_answer_set(answer, WI_REVOCATION_UNVERIFIABLE, "out of memory");
    } else {
        X509_STORE_set_flags(store, X509_V_FLAG_PARTIAL_CHAIN);
        if (OCSP_basic_verify(basic, signers, store, 0) != 1) {
            wi_answer_set(answer, WI_REVOCATION_UNVERIFIABLE, "the OCSP response's signature does not verify with the certificate's issuer");
        } else {
            OCSP_CERTID *id = OCSP_cert_to_id(NULL, leaf, issuer);
            int status = -1, reason = -1;
            ASN1_GENERALIZEDTIME *revoked_at = NULL, *this_update = NULL, *next_update = NULL;
            if (!id || OCSP_resp_find_status(basic, id, &status, &reason, &revoked_at, &this_update, &next_update) != 1) {
                wi_answer_set(answer, WI_REVOCATION_UNVERIFIABLE, "the OCSP response is not about this certificate");
            } else if (OCSP_check_validity(this_update, next_update, wi_clock_leeway, -1) != 1) {
                wi_answer_set(answer, WI_REVOCATION_UNVERIFIABLE, "the OCSP response has expired or is not yet valid");
            } else if (status == V_OCSP_CERTSTATUS_GOOD) {
                wi_answer_set(answer, WI_REVOCATION_GOOD, "");
            } else if (status == V_OCSP_CERTSTATUS_REVOKED) {
                wi_answer_set(answer, WI_REVOCATION_REVOKED, wi_reason_name(reason));
                wi_answer_date(answer, revoked_at);
            } else {
                wi_answer_set(answer, WI_REVOCATION_UNKNOWN, "the OCSP responder does not know the certificate");
            }
            // How long the answer may be kept: only a current one is.
            if (next_update_out && answer->status != WI_REVOCATION_UNVERIFIABLE) *next_update_out = wi_epoch_seconds(next_update);
            OCSP_CERTID_free(id);
        }
    }
    sk_X509_free(signers);
    X509_STORE_free(store);
    ERR_clear_error();
}

// A DER OCSP response about `leaf`, checked as wi_check_basic_response says, with `issuer`
// found by the caller.
static void wi_check_response(const unsigned char *bytes, long length, X509 *leaf, X509 *issuer, const char *what,
                              wi_revocation_answer *answer, int64_t *next_update) {
    const unsigned char *cursor = bytes;
    OCSP_RESPONSE *response = d2i_OCSP_RESPONSE(NULL, &cursor, length);
    OCSP_BASICRESP *basic = NULL;
    char detail[160];
    if (!response) {
        snprintf(detail, sizeof detail, "the %s OCSP response cannot be parsed", what);
        wi_answer_set(answer, WI_REVOCATION_UNVERIFIABLE, detail);
    } else if (OCSP_response_status(response) != OCSP_RESPONSE_STATUS_SUCCESSFUL) {
        snprintf(detail, sizeof detail, "the OCSP responder answered %s",
                 OCSP_response_status_str(OCSP_response_status(response)));
        wi_answer_set(answer, WI_REVOCATION_UNVERIFIABLE, detail);
    } else if (!(basic = OCSP_response_get1_basic(response))) {
        snprintf(detail, sizeof detail, "the %s OCSP response is not a basic response", what);
        wi_answer_set(answer, WI_REVOCATION_UNVERIFIABLE, detail);
    } else if (!issuer) {
        wi_answer_set(answer, WI_REVOCATION_UNVERIFIABLE, "the certificate's issuer is neither presented nor an anchor");
    } else {
        wi_check_basic_response(basic, leaf, issuer, answer, next_update);
    }
    OCSP_BASICRESP_free(basic);
    OCSP_RESPONSE_free(response);
    ERR_clear_error();
}

void wi_revocation_ocsp(void *x509_store_ctx, const char *system_bundle, int use_system,
                        const unsigned char *const *anchors, const int *anchor_lengths, int anchor_count,
                        wi_revocation_answer *answer) {
    X509_STORE_CTX *context = x509_store_ctx;
    X509 *leaf = X509_STORE_CTX_get0_cert(context);
    wi_answer_init(answer, 0, leaf);
    SSL *ssl = X509_STORE_CTX_get_ex_data(context, SSL_get_ex_data_X509_STORE_CTX_idx());
    const unsigned char *bytes = NULL;
    long length = ssl ? SSL_get_tlsext_status_ocsp_resp(ssl, &bytes) : -1;
    if (!leaf || !bytes || length <= 0) {
        wi_answer_set(answer, WI_REVOCATION_NO_RESPONSE, "the server stapled no OCSP response");
        return;
    }
    X509 *issuer = wi_find_issuer(leaf, X509_STORE_CTX_get0_untrusted(context), system_bundle, use_system, anchors,
                                  anchor_lengths, anchor_count);
    wi_check_response(bytes, length, leaf, issuer, "stapled", answer, NULL);
    X509_free(issuer);
    ERR_clear_error();
}

int wi_revocation_issuer_der(void *x509_store_ctx, const char *system_bundle, int use_system,
                             const unsigned char *const *anchors, const int *anchor_lengths, int anchor_count,
                             unsigned char **der) {
    X509_STORE_CTX *context = x509_store_ctx;
    X509 *leaf = X509_STORE_CTX_get0_cert(context);
    *der = NULL;
    if (!leaf) return -1;
    X509 *issuer = wi_find_issuer(leaf, X509_STORE_CTX_get0_untrusted(context), system_bundle, use_system, anchors,
                                  anchor_lengths, anchor_count);
    int length = issuer ? i2d_X509(issuer, der) : -1;
    X509_free(issuer);
    ERR_clear_error();
    return length > 0 ? length : -1;
}

void wi_revocation_fetched_ocsp(const unsigned char *response, int length, const unsigned char *leaf_der, int leaf_length,
                                const unsigned char *issuer_der, int issuer_length, wi_revocation_answer *answer,
                                int64_t *next_update) {
    X509 *leaf = wi_parse_certificate(leaf_der, leaf_length);
    X509 *issuer = wi_parse_certificate(issuer_der, issuer_length);
    wi_answer_init(answer, 0, leaf);
    *next_update = -1;
    if (!leaf || !response || length <= 0) {
        wi_answer_set(answer, WI_REVOCATION_UNVERIFIABLE, "the responder's OCSP response is empty");
    } else {
        wi_check_response(response, length, leaf, issuer, "responder's", answer, next_update);
    }
    X509_free(issuer);
    X509_free(leaf);
    ERR_clear_error();
}

// MARK: CRL

static X509_CRL *wi_parse_crl(const unsigned char *bytes, int length) {
    BIO *bio = BIO_new_mem_buf(bytes, length);
    X509_CRL *crl = bio ? PEM_read_bio_X509_CRL(bio, NULL, NULL, NULL) : NULL;
    BIO_free(bio);
    if (!crl) {
        const unsigned char *cursor = bytes;
        crl = d2i_X509_CRL(NULL, &cursor, length);
    }
    ERR_clear_error();
    return crl;
}

// One certificate against the parsed lists: every list from its issuer must verify and be
// current; any of them listing it makes it revoked.
static void wi_check_lists(X509 *certificate, X509 *issuer, STACK_OF(X509_CRL) *lists, int unparsed,
                           wi_revocation_answer *answer) {
    int from_issuer = 0;
    for (int i = 0; i < sk_X509_CRL_num(lists); i++) {
        X509_CRL *crl = sk_X509_CRL_value(lists, i);
        if (X509_NAME_cmp(X509_CRL_get_issuer(crl), X509_get_issuer_name(certificate)) != 0) continue;
        from_issuer++;
        if (!issuer) {
            wi_answer_set(answer, WI_REVOCATION_UNVERIFIABLE, "the issuer, whose key signs its CRL, is neither presented nor an anchor");
            return;
        }
        EVP_PKEY *key = X509_get0_pubkey(issuer);
        if (!key || X509_CRL_verify(crl, key) != 1) {
            wi_answer_set(answer, WI_REVOCATION_UNVERIFIABLE, "a CRL's signature does not verify with the certificate's issuer");
            ERR_clear_error();
            return;
        }
        time_t now = time(NULL);
        time_t late = now - wi_clock_leeway, early = now + wi_clock_leeway;
        const ASN1_TIME *next_update = X509_CRL_get0_nextUpdate(crl);
        if (X509_cmp_time(X509_CRL_get0_lastUpdate(crl), &early) > 0) {
            wi_answer_set(answer, WI_REVOCATION_UNVERIFIABLE, "a CRL of the issuer is not yet valid");
            return;
        }
        if (next_update && X509_cmp_time(next_update, &late) < 0) {
            wi_answer_set(answer, WI_REVOCATION_UNVERIFIABLE, "a CRL of the issuer has expired (its next update has passed)");
            return;
        }
        X509_REVOKED *entry = NULL;
        if (X509_CRL_get0_by_cert(crl, &entry, certificate) == 1 && entry) {
            ASN1_ENUMERATED *code = X509_REVOKED_get_ext_d2i(entry, NID_crl_reason, NULL, NULL);
            int reason = code ? (int)ASN1_ENUMERATED_get(code) : -1;
            ASN1_ENUMERATED_free(code);
            wi_answer_set(answer, WI_REVOCATION_REVOKED, wi_reason_name(reason));
            wi_answer_date(answer, X509_REVOKED_get0_revocationDate(entry));
            return;
        }
    }
    if (from_issuer > 0) {
        wi_answer_set(answer, WI_REVOCATION_GOOD, "");
    } else if (unparsed > 0) {
        wi_answer_set(answer, WI_REVOCATION_UNVERIFIABLE, "a configured CRL cannot be parsed");
    } else {
        wi_answer_set(answer, WI_REVOCATION_UNKNOWN, "no configured CRL is from the certificate's issuer");
    }
}

int wi_revocation_crl(void *x509_store_ctx, const unsigned char *const *lists, const int *list_lengths, int list_count,
                      int whole_chain, const char *system_bundle, int use_system,
                      const unsigned char *const *anchors, const int *anchor_lengths, int anchor_count,
                      wi_revocation_answer *answers, int answer_capacity) {
    X509_STORE_CTX *context = x509_store_ctx;
    X509 *leaf = X509_STORE_CTX_get0_cert(context);
    STACK_OF(X509) *presented = X509_STORE_CTX_get0_untrusted(context);
    if (!leaf || answer_capacity <= 0) return 0;
    STACK_OF(X509_CRL) *parsed = sk_X509_CRL_new_null();
    int unparsed = 0;
    for (int i = 0; parsed && i < list_count; i++) {
        X509_CRL *crl = wi_parse_crl(lists[i], list_lengths[i]);
        if (!crl || !sk_X509_CRL_push(parsed, crl)) {
            X509_CRL_free(crl);
            unparsed++;
        }
    }
    int count = 0;
    int total = presented ? sk_X509_num(presented) : 1;
    for (int index = 0; index < total && count < answer_capacity; index++) {
        X509 *certificate = presented ? sk_X509_value(presented, index) : leaf;
        if (index == 0) certificate = leaf;
        if (index > 0 && (!whole_chain || wi_is_self_signed(certificate))) continue;
        wi_revocation_answer *answer = &answers[count++];
        wi_answer_init(answer, index, certificate);
        if (!parsed) {
            wi_answer_set(answer, WI_REVOCATION_UNVERIFIABLE, "out of memory");
            continue;
        }
        X509 *issuer = wi_find_issuer(certificate, presented, system_bundle, use_system, anchors, anchor_lengths, anchor_count);
        wi_check_lists(certificate, issuer, parsed, unparsed, answer);
        X509_free(issuer);
    }
    sk_X509_CRL_pop_free(parsed, X509_CRL_free);
    ERR_clear_error();
    return count;
}

void wi_revocation_fetched_crl(const unsigned char *list, int length, const unsigned char *leaf_der, int leaf_length,
                               const unsigned char *issuer_der, int issuer_length, wi_revocation_answer *answer,
                               int64_t *next_update) {
    X509 *leaf = wi_parse_certificate(leaf_der, leaf_length);
    X509 *issuer = wi_parse_certificate(issuer_der, issuer_length);
    wi_answer_init(answer, 0, leaf);
    *next_update = -1;
    X509_CRL *crl = list && length > 0 ? wi_parse_crl(list, length) : NULL;
    STACK_OF(X509_CRL) *lists = crl ? sk_X509_CRL_new_null() : NULL;
    if (!leaf || !crl) {
        wi_answer_set(answer, WI_REVOCATION_UNVERIFIABLE, "the downloaded CRL cannot be parsed");
    } else if (X509_NAME_cmp(X509_CRL_get_issuer(crl), X509_get_issuer_name(leaf)) != 0) {
        wi_answer_set(answer, WI_REVOCATION_UNVERIFIABLE, "the downloaded CRL is not from the certificate's issuer");
    } else if (!lists || !sk_X509_CRL_push(lists, crl)) {
        wi_answer_set(answer, WI_REVOCATION_UNVERIFIABLE, "out of memory");
    } else {
        crl = NULL;  // the stack owns it
        wi_check_lists(leaf, issuer, lists, 0, answer);
        if (answer->status != WI_REVOCATION_UNVERIFIABLE) {
            *next_update = wi_epoch_seconds(X509_CRL_get0_nextUpdate(sk_X509_CRL_value(lists, 0)));
        }
    }
    X509_CRL_free(crl);
    sk_X509_CRL_pop_free(lists, X509_CRL_free);
    X509_free(issuer);
    X509_free(leaf);
    ERR_clear_error();
}
