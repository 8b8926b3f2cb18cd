// What the transport needs to ask for a certificate's revocation status itself: the
// responder and distribution point its extensions name, and the OCSP request to send.
#include "wi_transport.h"

#include <openssl/err.h>
#include <openssl/ocsp.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static X509 *wi_fetch_parse(const unsigned char *der, int length) {
    const unsigned char *cursor = der;
    return der && length > 0 ? d2i_X509(NULL, &cursor, length) : NULL;
}

// Only plain http: a responder or list over https would need a trust decision of its
// own (and its own revocation check) in the middle of this one. RFC 5280 and the CA/B
// Forum's rules have both served over http, their answers being signed.
static int wi_is_http(const char *url) { return url && strncasecmp(url, "http://", 7) == 0; }

static void wi_copy(char *out, size_t size, const char *text) {
    if (size > 0) snprintf(out, size, "%s", text ? text : "");
}

int wi_revocation_sources(const unsigned char *der, int length, char *subject, size_t subject_size, char *ocsp,
                          size_t ocsp_size, char *crl, size_t crl_size) {
    wi_copy(subject, subject_size, "");
    wi_copy(ocsp, ocsp_size, "");
    wi_copy(crl, crl_size, "");
    X509 *certificate = wi_fetch_parse(der, length);
    if (!certificate) return -1;
    if (subject_size > 0) X509_NAME_oneline(X509_get_subject_name(certificate), subject, (int)subject_size);
    STACK_OF(OPENSSL_STRING) *responders = X509_get1_ocsp(certificate);
    for (int i = 0; responders && i < sk_OPENSSL_STRING_num(responders); i++) {
        const char *url = sk_OPENSSL_STRING_value(responders, i);
        if (wi_is_http(url) && strlen(url) < ocsp_size) {
            wi_copy(ocsp, ocsp_size, url);
            break;
        }
    }
    X509_email_free(responders);
    CRL_DIST_POINTS *points = X509_get_ext_d2i(certificate, NID_crl_distribution_points, NULL, NULL);
    for (int i = 0; points && i < sk_DIST_POINT_num(points) && crl[0] == 0; i++) {
        DIST_POINT *point = sk_DIST_POINT_value(points, i);
        if (!point->distpoint || point->distpoint->type != 0) continue;  // 0: a full name
        GENERAL_NAMES *names = point->distpoint->name.fullname;
        for (int j = 0; j < sk_GENERAL_NAME_num(names); j++) {
            GENERAL_NAME *name = sk_GENERAL_NAME_value(names, j);
            if (name->type != GEN_URI) continue;
            const ASN1_IA5STRING *uri = name->d.uniformResourceIdentifier;
            char text[1024];
            int size = ASN1_STRING_length(uri);
            if (size <= 0 || (size_t)size >= sizeof text || (size_t)size >= crl_size) continue;
            memcpy(text, ASN1_STRING_get0_data(uri), (size_t)size);
            text[size] = 0;
            if (strlen(text) != (size_t)size || !wi_is_http(text)) continue;  // no NUL inside
            wi_copy(crl, crl_size, text);
            break;
        }
    }
    CRL_DIST_POINTS_free(points);
    X509_free(certificate);
    ERR_clear_error();
    return 0;
}

int wi_ocsp_request_der(const unsigned char *leaf_der, int leaf_length, const unsigned char *issuer_der, int issuer_length,
                        unsigned char **der) {
    *der = NULL;
    X509 *leaf = wi_fetch_parse(leaf_der, leaf_length);
    X509 *issuer = wi_fetch_parse(issuer_der, issuer_length);
    OCSP_REQUEST *request = OCSP_REQUEST_new();
    // SHA-1 CertID, as RFC 5019 asks of clients and every responder answers.
    OCSP_CERTID *id = leaf && issuer ? OCSP_cert_to_id(NULL, leaf, issuer) : NULL;
    int length = -1;
    if (request && id && OCSP_request_add0_id(request, id)) {
        id = NULL;  // the request owns it
        length = i2d_OCSP_REQUEST(request, der);
    }
    OCSP_CERTID_free(id);
    OCSP_REQUEST_free(request);
    X509_free(issuer);
    X509_free(leaf);
    ERR_clear_error();
    return length > 0 ? length : -1;
}
