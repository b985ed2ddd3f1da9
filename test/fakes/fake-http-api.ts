/** A loopback REST API for http-api tests; it records every request it receives. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface FakeHttpApi {
  origin: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Starts the API on 127.0.0.1. */
export async function startFakeHttpApi(): Promise<FakeHttpApi> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://localhost");
      const record: RecordedRequest = {
        method: req.method ?? "",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(record);
      const json = (status: number, data: unknown) => {
        res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
        res.end(JSON.stringify(data));
      };
      if (url.pathname === "/v1/big") return json(200, { text: "y".repeat(5_000) });
      if (url.pathname === "/v1/fail") return json(500, { message: "boom" });
      if (url.pathname.startsWith("/v1/")) {
        return json(200, {
          method: record.method,
          path: record.path,
          query: record.query,
          contentType: req.headers["content-type"] ?? null,
          body: record.body,
        });
      }
      json(404, { message: "not found" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
