#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
