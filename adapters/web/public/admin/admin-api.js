// The admin API client: the token lives in sessionStorage (this tab only) and goes in every request.

const TOKEN_KEY = "sc-admin-token";
const BASE = "/admin/mcp-servers";

export function getToken() {
  return sessionStorage.getItem(TOKEN_KEY) ?? "";
}

export function setToken(token) {
  if (token) sessionStorage.setItem(TOKEN_KEY, token);
  else sessionStorage.removeItem(TOKEN_KEY);
}

/** An API error: the HTTP status, the field at fault (when the server names one) and the message. */
export class ApiError extends Error {
  constructor(status, message, field) {
    super(message);
    this.status = status;
    this.field = field;
  }
}

/** Calls the admin API; resolves with the JSON body, rejects with ApiError. */
export async function api(method, path = "", body) {
  const headers = { authorization: `Bearer ${getToken()}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  let res;
  try {
    res = await fetch(`${BASE}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "サーバーに接続できませんでした。");
  }
  const text = await res.text();
  let data;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (!res.ok) throw new ApiError(res.status, data?.error ?? `エラー（HTTP ${res.status}）`, data?.field);
  return data;
}

export const listServers = () => api("GET");
export const addServer = (name, config) => api("POST", "", { name, config });
export const updateServer = (name, patch) => api("PATCH", `/${encodeURIComponent(name)}`, patch);
export const removeServer = (name) => api("DELETE", `/${encodeURIComponent(name)}`);
export const reconnectServer = (name) => api("POST", `/${encodeURIComponent(name)}/reconnect`);
export const testServer = (name, config) =>
  api("POST", `/${encodeURIComponent(name || "new")}/test`, config ? { config } : {});
