// The admin page: the token once per tab, the server table refreshed live, add/edit/test, enable/disable,
// reconnect and delete with a confirmation. Every change is announced in the status line.
import * as client from "./admin-api.js";
import { clearErrors, fillForm, readForm, showError, showKind } from "./admin-form.js";

const $ = (id) => document.getElementById(id);
const REFRESH_MS = 2000;
const STATES = {
  connected: "接続中",
  connecting: "接続しています",
  reconnecting: "再接続しています",
  failed: "接続できません",
  idle: "待機中",
  disabled: "無効",
  closed: "停止",
  invalid: "設定エラー",
};
const KINDS = { remote: "リモート", stdio: "stdio", builtin: "内蔵" };
let editing = null;
let timer = null;
let allowStdio = false;

const announce = (text) => {
  $("announce").textContent = text;
};

function cell(row, text, className) {
  const td = row.insertCell();
  td.textContent = text ?? "";
  if (className) td.className = className;
  return td;
}

function button(label, onClick, className = "secondary", disabled = false) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  b.className = className;
  b.disabled = disabled;
  b.addEventListener("click", onClick);
  return b;
}

function render(servers) {
  const body = $("servers").tBodies[0];
  body.replaceChildren();
  for (const s of servers) {
    const row = body.insertRow();
    row.dataset.name = s.name;
    const name = document.createElement("th");
    name.scope = "row";
    name.textContent = s.name;
    row.append(name);
    cell(row, s.config?.builtin === "http-api" ? "HTTP API" : (KINDS[s.kind] ?? s.kind));
    cell(row, s.source === "file" ? "mcp.json（読み取り専用）" : "管理画面");
    cell(row, STATES[s.state] ?? s.state, `state state-${s.state}`);
    cell(row, String(s.toolCount), "tools");
    cell(row, s.lastOkAt ? new Date(s.lastOkAt).toLocaleString("ja-JP") : "—");
    cell(row, s.lastError ?? "", "error-text");
    const ops = row.insertCell();
    ops.className = "ops";
    const fromFile = s.source === "file";
    const label = (verb) => `${verb}（${s.name}）`;
    ops.append(
      button("編集", () => openEditor(s), "secondary", fromFile),
      button(s.enabled ? "無効にする" : "有効にする", () => toggle(s), "secondary", fromFile),
      button("再接続", () => reconnect(s), "secondary", !s.enabled),
      button("削除", () => confirmDelete(s), "danger", fromFile),
    );
    for (const [i, verb] of ["編集", s.enabled ? "無効にする" : "有効にする", "再接続", "削除"].entries()) {
      ops.children[i].setAttribute("aria-label", label(verb));
    }
  }
}

async function refresh() {
  try {
    const data = await client.listServers();
    allowStdio = data.allowStdio === true;
    render(data.servers);
  } catch (error) {
    if (error.status === 401) return logout("トークンが正しくありません。");
    announce(error.message);
  }
}

function startPanel() {
  $("login").hidden = true;
  $("panel").hidden = false;
  refresh();
  clearInterval(timer);
  timer = setInterval(refresh, REFRESH_MS);
}

function logout(message = "") {
  client.setToken("");
  clearInterval(timer);
  $("panel").hidden = true;
  $("editor").hidden = true;
  $("login").hidden = false;
  $("token-error").textContent = message;
  $("token").focus();
}

function openEditor(server) {
  editing = server ?? null;
  const form = $("server-form");
  fillForm(form, server);
  clearErrors(form);
  $("test-result").replaceChildren();
  $("editor-title").textContent = server ? `「${server.name}」を編集` : "サーバーを追加";
  const stdio = form.querySelector('input[name="kind"][value="stdio"]');
  if (!allowStdio) stdio.disabled = true;
  $("stdio-note").textContent = allowStdio
    ? ""
    : "stdio はこのホストでコマンドを実行するため、ADMIN_ALLOW_STDIO=true のときだけ追加できます。";
  $("editor").hidden = false;
  (server ? form.elements.url : form.elements.name).focus();
}

function closeEditor() {
  $("editor").hidden = true;
  editing = null;
  $("add-button").focus();
}

function formConfig(form) {
  clearErrors(form);
  try {
    return readForm(form);
  } catch (problem) {
    showError(form, problem.field, problem.message);
    return null;
  }
}

async function save(event) {
  event.preventDefault();
  const form = event.target;
  const config = formConfig(form);
  if (!config) return;
  const name = form.elements.name.value.trim();
  try {
    if (editing) await client.updateServer(editing.name, config);
    else await client.addServer(name, config);
    announce(
      editing ? `「${editing.name}」を保存しました。` : `「${name}」を追加しました。接続を確認しています…`,
    );
    closeEditor();
    refresh();
  } catch (error) {
    showError(form, error.field, error.message);
  }
}

async function test() {
  const form = $("server-form");
  const config = formConfig(form);
  if (!config) return;
  const out = $("test-result");
  out.textContent = "接続しています…";
  try {
    const result = await client.testServer(form.elements.name.value.trim(), config);
    const heading = document.createElement("p");
    heading.textContent = `接続できました。ツール ${result.tools.length} 件:`;
    const ul = document.createElement("ul");
    ul.className = "found-tools";
    for (const tool of result.tools) {
      const li = document.createElement("li");
      li.textContent = tool.description ? `${tool.name} — ${tool.description}` : tool.name;
      ul.append(li);
    }
    out.replaceChildren(heading, ul);
  } catch (error) {
    out.textContent = "";
    showError(form, error.field, error.message);
  }
}

async function toggle(server) {
  try {
    await client.updateServer(server.name, { enabled: !server.enabled });
    announce(`「${server.name}」を${server.enabled ? "無効" : "有効"}にしました。`);
  } catch (error) {
    announce(error.message);
  }
  refresh();
}

async function reconnect(server) {
  announce(`「${server.name}」に再接続しています…`);
  try {
    await client.reconnectServer(server.name);
    announce(`「${server.name}」に再接続しました。`);
  } catch (error) {
    announce(error.message);
  }
  refresh();
}

function confirmDelete(server) {
  const dialog = $("confirm");
  $("confirm-text").textContent = `「${server.name}」を削除します。このサーバーのツールは使えなくなります。`;
  dialog.returnValue = "";
  dialog.onclose = async () => {
    if (dialog.returnValue !== "delete") return;
    try {
      await client.removeServer(server.name);
      announce(`「${server.name}」を削除しました。`);
    } catch (error) {
      announce(error.message);
    }
    refresh();
  };
  dialog.showModal();
}

document.addEventListener("DOMContentLoaded", () => {
  $("login-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const token = $("token").value.trim();
    if (!token) {
      $("token-error").textContent = "トークンを入力してください。";
      return;
    }
    client.setToken(token);
    $("token").value = "";
    $("token-error").textContent = "";
    startPanel();
  });
  $("logout").addEventListener("click", () => logout());
  $("add-button").addEventListener("click", () => openEditor(null));
  $("cancel").addEventListener("click", closeEditor);
  $("test-button").addEventListener("click", test);
  const form = $("server-form");
  form.addEventListener("submit", save);
  form.addEventListener("change", (event) => {
    if (event.target.name === "kind" || event.target.name === "apiSource") showKind(form);
  });
  if (client.getToken()) startPanel();
});
