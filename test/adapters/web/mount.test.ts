/** mountWebChat over real HTTP on loopback: the page, its headers, its assets. */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTENT_SECURITY_POLICY, mountWebChat } from "../../../adapters/web/index.ts";

async function serve(title?: string): Promise<{ url: string; server: Server }> {
  const app = express();
  mountWebChat(app, title === undefined ? undefined : { title });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe("mountWebChat", () => {
  let plain: { url: string; server: Server };
  let custom: { url: string; server: Server };
  beforeAll(async () => {
    plain = await serve();
    custom = await serve(`<script>x</script> & 会社`);
  });
  afterAll(() => {
    plain.server.close();
    custom.server.close();
  });

  it("serves the Japanese page with a strict CSP and only local assets", async () => {
    const res = await fetch(`${plain.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.headers.get("content-security-policy")).toBe(CONTENT_SECURITY_POLICY);
    const html = await res.text();
    expect(html).toContain("<title>補助金コンシェルジュ</title>");
    expect(html).toContain('<html lang="ja">');
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(html).not.toContain("{{TITLE}}");
  });

  it("escapes a custom title", async () => {
    const html = await (await fetch(`${custom.url}/`)).text();
    expect(html).toContain("<title>&lt;script&gt;x&lt;/script&gt; &amp; 会社</title>");
    expect(html).not.toContain("<script>x</script>");
  });

  it("serves the modules as JavaScript under /web and nothing outside public/", async () => {
    for (const file of ["app.js", "api.js", "sse.js", "markdown.js", "format.js", "cards.js", "message.js"]) {
      const res = await fetch(`${plain.url}/web/${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/javascript");
    }
    for (const file of ["style.css", "chat.css"]) {
      expect((await fetch(`${plain.url}/web/${file}`)).headers.get("content-type")).toContain("text/css");
    }
    expect((await fetch(`${plain.url}/web/nope.js`)).status).toBe(404);
    expect((await fetch(`${plain.url}/web/..%2Findex.ts`)).status).toBe(404);
    const raw = await fetch(`${plain.url}/web/index.html`, { redirect: "manual" });
    expect(raw.status).toBe(301);
  });
});
