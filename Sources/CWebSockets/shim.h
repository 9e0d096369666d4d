#ifndef BT_CWEBSOCKETS_SHIM_H
#define BT_CWEBSOCKETS_SHIM_H
// libwebsockets (Debian libwebsockets-dev): the WebSocket client of `bt live` (ws:// and wss://
// through OpenSSL, ping/pong, close codes). Called from IO/Live/WebSocketClient.swift only.
#include <libwebsockets.h>
#endif
