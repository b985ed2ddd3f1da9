/** Reads a JSON response body for field-by-field assertions (tests check shapes explicitly). */
// biome-ignore lint/suspicious/noExplicitAny: a test reads arbitrary JSON and asserts on its fields
export type Json = any;

export async function readJson(res: Response): Promise<Json> {
  return res.json();
}

/** POSTs one question to /chat of a running app; throws unless it answers 200. */
export async function postChat(baseUrl: string, message: string, threadId?: string): Promise<Json> {
  const res = await fetch(`${baseUrl}/chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ message, threadId }),
  });
  if (res.status !== 200) throw new Error(`/chat answered ${res.status}: ${await res.text()}`);
  return readJson(res);
}
