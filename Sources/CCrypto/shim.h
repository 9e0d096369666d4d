#ifndef BT_CCRYPTO_SHIM_H
#define BT_CCRYPTO_SHIM_H
// OpenSSL's libcrypto (Debian libssl-dev): only the EVP digest interface, for SHA-256.
#include <openssl/evp.h>
#endif
