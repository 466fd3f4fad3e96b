// A small HTTP CONNECT proxy on 127.0.0.1 for transport tests: it tunnels to wherever it is
// asked and counts the tunnels, or refuses while quoting the credentials it was sent.
import * as http from "node:http";
import * as net from "node:net";
import type { AddressInfo } from "node:net";

/** A small HTTP CONNECT proxy that tunnels to wherever it is asked and counts the tunnels. */
export interface ConnectProxy {
  url: string;
  tunnels: string[];
  close(): Promise<void>;
}

export async function startConnectProxy(options: { refuseEchoing?: boolean } = {}): Promise<ConnectProxy> {
  const tunnels: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((_req, res) => res.writeHead(405).end());
  server.on("connect", (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    tunnels.push(req.url ?? "");
    if (options.refuseEchoing) {
      // A careless proxy: it refuses, quoting the credentials it was sent.
      const body = `denied: Proxy-Authorization: ${req.headers["proxy-authorization"] ?? "(none)"}`;
      client.end(
        `HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
      return;
    }
    const [host, port] = (req.url ?? "").split(":");
    const upstream = net.connect(Number(port), host, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("error", () => s.destroy());
      s.on("close", () => sockets.delete(s));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => {
          resolve();
        });
      }),
  };
}
