/** Reads a JSON response body for field-by-field assertions (tests check shapes explicitly). */
// biome-ignore lint/suspicious/noExplicitAny: a test reads arbitrary JSON and asserts on its fields
export type Json = any;

export async function readJson(res: Response): Promise<Json> {
  return res.json();
}
