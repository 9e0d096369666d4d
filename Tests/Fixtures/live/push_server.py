#!/usr/bin/python3
"""A WebSocket server on 127.0.0.1 for WebSocketClientTests (Debian's python3-websockets 10.x).

Prints `PORT <n>` once it listens. Each connection gets, in order: the text "hello", a
200,000-byte message sent in 4 fragments, a binary message of bytes 0..255, a ping (the client
must answer it: the server waits for the pong), the text "pong seen", then a close with code
4001 and reason "bye". With --tls CERT KEY it serves wss:// (a self-signed certificate).
Exits 0 on SIGTERM or when its standard input closes (a parent that blocks SIGTERM in the
children it starts, as Foundation's Process may, can still stop it).
"""
import argparse
import asyncio
import signal
import ssl
import sys

import websockets


async def serve(ws, path):
    await ws.send("hello")

    async def fragments():
        for k in range(4):
            yield ("x" if k % 2 == 0 else "y") * 50_000
    await ws.send(fragments())
    await ws.send(bytes(range(256)))
    pong = await ws.ping(b"bt")
    await asyncio.wait_for(pong, timeout=10)
    await ws.send("pong seen")
    await ws.close(code=4001, reason="bye")


async def main(args):
    context = None
    if args.tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.tls[0], args.tls[1])
    stop = asyncio.get_running_loop().create_future()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, lambda: stop.done() or stop.set_result(None))

    def stdin_closed():
        if not sys.stdin.buffer.read1(4096):
            loop.remove_reader(sys.stdin.fileno())
            stop.done() or stop.set_result(None)
    loop.add_reader(sys.stdin.fileno(), stdin_closed)
    async with websockets.serve(serve, "127.0.0.1", 0, ssl=context, max_size=2 ** 20) as server:
        print("PORT %d" % server.sockets[0].getsockname()[1], flush=True)
        await stop


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    asyncio.run(main(p.parse_args()))
    sys.exit(0)
