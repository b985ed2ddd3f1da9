/** A loopback web site for fetch tests: a page, redirects (to itself and to forbidden places), odd types. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeHttpPages {
  origin: string;
  port: number;
  close(): Promise<void>;
}

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>ものづくり補助金 | テスト</title>
<script>alert("x")</script><style>p{color:red}</style></head>
<body><nav>メニュー</nav><h1>ものづくり補助金</h1><p>補助上限額は<b>1,250万円</b>です。</p>
<p><a href="https://example.com/apply">申請はこちら</a></p></body></html>`;

/** Starts the site on 127.0.0.1 (any free port). */
export async function startFakeHttpPages(): Promise<FakeHttpPages> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    const redirect = (location: string) => {
      res.writeHead(302, { location });
      res.end();
    };
    switch (path) {
      case "/page":
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        return res.end(PAGE);
      case "/sjis":
        res.writeHead(200, { "content-type": "text/plain; charset=shift_jis" });
        // "補助金" in Shift_JIS.
        return res.end(Buffer.from([0x95, 0xe2, 0x8f, 0x95, 0x8b, 0xe0]));
      case "/to-page":
        return redirect("/page");
      case "/to-private":
        return redirect("http://10.0.0.5/secret");
      case "/to-metadata":
        return redirect("http://169.254.169.254/latest/meta-data/");
      case "/to-rebind":
        return redirect("http://rebind.example/admin");
      case "/to-file":
        return redirect("file:///etc/passwd");
      case "/pdf":
        res.writeHead(200, { "content-type": "application/pdf" });
        return res.end("%PDF-1.4");
      case "/big":
        res.writeHead(200, { "content-type": "text/plain" });
        return res.end("x".repeat(200_000));
      case "/slow":
        return; // never answers
      default:
        res.writeHead(404, { "content-type": "text/plain" });
        return res.end("not found");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
