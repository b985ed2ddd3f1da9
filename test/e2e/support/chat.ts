/** Small HTTP helpers for the end-to-end tests: POST /chat and GET JSON, with the status checked. */
import { type Json, readJson } from "../../helpers/json.ts";

/** POSTs a question to /chat and returns the JSON reply; throws with the body on a non-200 status. */
export async function postChat(baseUrl: string, message: string, threadId?: string): Promise<Json> {
  const res = await fetch(`${baseUrl}/chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(threadId ? { message, threadId } : { message }),
  });
  if (res.status !== 200) throw new Error(`POST /chat → ${res.status}: ${await res.text()}`);
  return readJson(res);
}

/** GETs a path and returns its status and JSON body. */
export async function getJson(baseUrl: string, path: string): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${baseUrl}${path}`);
  return { status: res.status, body: await readJson(res) };
}

/** The ids of a reply's subsidies, in order. */
export function idsOf(reply: Json): string[] {
  return (reply.subsidies as Array<{ id: string }>).map((s) => s.id);
}

/** A loopback port nobody listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const { createServer } = await import("node:net");
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
