// The add/edit form: config object ⇄ form fields, and API errors shown next to the field they name.

const lines = (text) =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
const list = (text) =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** "Name: value" lines (or "NAME=value" with sep "=") to an object; undefined when empty. */
function pairs(text, sep) {
  const out = {};
  for (const line of lines(text)) {
    const at = line.indexOf(sep);
    if (at > 0) out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return Object.keys(out).length ? out : undefined;
}

const unpairs = (map, sep) =>
  Object.entries(map ?? {})
    .map(([k, v]) => `${k}${sep}${v}`)
    .join("\n");

// The server being edited, so fields the form does not show (an API's headers) survive an edit.
const originals = new WeakMap();

/** The kind chosen in the form: remote, http-api or stdio. */
export function kindOf(form) {
  return form.elements.kind.value;
}

/** Shows the fields of the chosen kind and API source only. */
export function showKind(form) {
  const kind = kindOf(form);
  for (const group of form.querySelectorAll(".group")) group.hidden = group.dataset.kind !== kind;
  const source = form.elements.apiSource.value;
  for (const part of form.querySelectorAll("[data-source]")) part.hidden = part.dataset.source !== source;
}

/** The mcp.json entry the form describes; throws { field, message } for input it cannot read. */
export function readForm(form) {
  const f = form.elements;
  const config = { enabled: f.enabled.checked };
  if (f.readOnly.checked) config.readOnly = true;
  const allow = list(f.allowTools.value);
  const block = list(f.blockTools.value);
  if (allow.length) config.allowTools = allow;
  if (block.length) config.blockTools = block;
  if (f.timeoutMs.value) config.timeoutMs = Number(f.timeoutMs.value);
  const kind = kindOf(form);
  if (kind === "remote") {
    config.url = f.url.value.trim();
    if (f.type.value) config.type = f.type.value;
    const headers = pairs(f.headers.value, ":");
    if (headers) config.headers = headers;
  } else if (kind === "stdio") {
    config.command = f.command.value.trim();
    config.args = lines(f.args.value);
    const env = pairs(f.env.value, "=");
    if (env) config.env = env;
  } else {
    config.builtin = "http-api";
    if (f.apiSource.value === "openapi") {
      const previous = (originals.get(form)?.apis ?? []).find((a) => a.openapiUrl);
      const api = { ...previous, openapiUrl: f.openapiUrl.value.trim() };
      if (f.baseUrl.value.trim()) api.baseUrl = f.baseUrl.value.trim();
      else delete api.baseUrl;
      config.apis = [api];
    } else {
      try {
        config.apis = JSON.parse(f.apis.value || "[]");
      } catch {
        throw { field: "apis", message: "API の一覧を JSON の配列として読めませんでした。" };
      }
    }
  }
  return config;
}

/** Fills the form with a server as the API lists it (secrets arrive masked and stay masked). */
export function fillForm(form, server) {
  form.reset();
  const f = form.elements;
  const c = server?.config ?? {};
  originals.set(form, c);
  f.name.value = server?.name ?? "";
  f.name.readOnly = Boolean(server);
  const kind = c.command ? "stdio" : c.builtin === "http-api" ? "http-api" : "remote";
  f.kind.value = server ? kind : "remote";
  for (const radio of f.kind) radio.disabled = Boolean(server) && radio.value !== kind;
  f.enabled.checked = c.enabled !== false;
  f.readOnly.checked = c.readOnly === true;
  f.allowTools.value = (c.allowTools ?? []).join(", ");
  f.blockTools.value = (c.blockTools ?? []).join(", ");
  f.timeoutMs.value = c.timeoutMs ?? "";
  f.url.value = c.url ?? "";
  f.type.value = c.type === "sse" ? "sse" : "";
  f.headers.value = unpairs(c.headers, ": ");
  f.command.value = c.command ?? "";
  f.args.value = (c.args ?? []).join("\n");
  f.env.value = unpairs(c.env, "=");
  const openapi = (c.apis ?? []).find((a) => a.openapiUrl);
  f.apiSource.value = openapi || !c.apis ? "openapi" : "list";
  f.openapiUrl.value = openapi?.openapiUrl ?? "";
  f.baseUrl.value = openapi?.baseUrl ?? "";
  f.apis.value = c.apis && !openapi ? JSON.stringify(c.apis, null, 2) : "";
  showKind(form);
}

/** The form control an API field path points at (e.g. "url", "headers.X", "apis.0.openapiFile"). */
function controlFor(form, field) {
  const head = String(field ?? "").split(".")[0];
  const openapi = head === "apis" && form.elements.apiSource.value === "openapi";
  const name = openapi ? "openapiUrl" : head === "type" ? "url" : head === "args" ? "command" : head;
  return form.querySelector(`#f-${CSS.escape(name)}`) ? name : undefined;
}

/** Removes every error message and aria-invalid mark. */
export function clearErrors(form) {
  for (const p of form.querySelectorAll(".field-error")) p.textContent = "";
  for (const el of form.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
}

/** Shows `message` next to the field it names (or above the form), marks the field and focuses it. */
export function showError(form, field, message) {
  const name = controlFor(form, field);
  const target = name ? form.querySelector(`#f-${name}-error`) : null;
  (target ?? form.querySelector("#form-error")).textContent = message;
  const control = name ? form.querySelector(`#f-${name}`) : null;
  if (control) {
    control.setAttribute("aria-invalid", "true");
    control.focus();
  }
}
