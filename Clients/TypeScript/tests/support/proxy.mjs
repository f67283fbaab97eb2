// A TCP proxy between the client and the server, for what a test cannot ask of a server: an answer lost on the way
// back, connections cut, and a server that moves to another port (a restart on port 0).
import { createServer, connect } from "node:net";

export async function startProxy(upstreamPort) {
  const sockets = new Set();
  const proxy = {
    upstreamPort,
    /** Requests seen, as their first lines (`POST /v1/sessions/…/events HTTP/1.1`). */
    requests: [],
    /** When set, the answer to the next request whose first line matches it is dropped: the request reaches the
     * server, and the client's connection is cut before any byte of the answer. */
    dropAnswerTo: null,
    /** When set, the answer to the next request whose first line matches it is replaced by a `502` page (a proxy
     * that lost its server after forwarding the request), and the client's connection is closed. */
    badGatewayTo: null,
    port: 0,
    /** Cuts every connection. */
    dropConnections() { for (const socket of sockets) socket.destroy(); },
    close() {
      proxy.dropConnections();
      return new Promise((resolveClose) => server.close(() => resolveClose()));
    },
  };
  const server = createServer((client) => {
    const upstream = connect(proxy.upstreamPort, "127.0.0.1");
    sockets.add(client);
    sockets.add(upstream);
    let dropping = false;
    let replacing = false;
    const end = () => { client.destroy(); upstream.destroy(); sockets.delete(client); sockets.delete(upstream); };
    client.on("data", (chunk) => {
      const line = chunk.toString("latin1").split("\r\n", 1)[0];
      if (/^[A-Z]+ \S+ HTTP\/1\.1$/.test(line)) {
        proxy.requests.push(line);
        if (proxy.dropAnswerTo && proxy.dropAnswerTo.test(line)) {
          proxy.dropAnswerTo = null;
          dropping = true;
        }
        if (proxy.badGatewayTo && proxy.badGatewayTo.test(line)) {
          proxy.badGatewayTo = null;
          replacing = true;
        }
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      if (dropping) { end(); return; }
      if (replacing) {
        const page = "<html><body>502 Bad Gateway</body></html>";
        client.end(`HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/html\r\nContent-Length: ${page.length}\r\n`
          + `Connection: close\r\n\r\n${page}`);
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
    client.on("error", end);
    upstream.on("error", end);
    client.on("close", end);
    upstream.on("close", end);
  });
  await new Promise((resolveListen) => server.listen(0, "127.0.0.1", resolveListen));
  proxy.port = server.address().port;
  return proxy;
}
