/** The web chat page: composer, thread kept in sessionStorage, streaming turns, errors. */
import { ChatHttpError, openThread, streamChat } from "./api.js";
import { el } from "./cards.js";
import { assistantMessage, userMessage } from "./message.js";

const THREAD_KEY = "subsidy-concierge.threadId";
const TOKEN_KEY = "subsidy-concierge.token";

const form = /** @type {HTMLFormElement} */ (document.getElementById("composer"));
const input = /** @type {HTMLTextAreaElement} */ (document.getElementById("message"));
const send = /** @type {HTMLButtonElement} */ (document.getElementById("send"));
const conversation = /** @type {HTMLElement} */ (document.getElementById("conversation"));
const welcome = /** @type {HTMLElement} */ (document.getElementById("welcome"));
const newThread = /** @type {HTMLButtonElement} */ (document.getElementById("new-thread"));
const status = /** @type {HTMLElement} */ (document.getElementById("status"));

let busy = false;

// An access token may arrive once as ?token=…; keep it for the tab and drop it from the address bar.
const params = new URLSearchParams(location.search);
if (params.get("token")) {
  sessionStorage.setItem(TOKEN_KEY, params.get("token") ?? "");
  params.delete("token");
  history.replaceState(null, "", `${location.pathname}${params.size ? `?${params}` : ""}`);
}

/** @param {boolean} value */
function setBusy(value) {
  busy = value;
  input.disabled = value;
  send.disabled = value;
  newThread.disabled = value;
  /** @type {HTMLButtonElement} */ for (const chip of document.querySelectorAll(".chip"))
    chip.disabled = value;
  status.textContent = value ? "回答を作成しています…" : "";
  // Focus without scrolling: the answer's start is what should be in view.
  if (!value) input.focus({ preventScroll: true });
}

/** @param {unknown} error */
export function errorText(error) {
  if (error instanceof ChatHttpError) {
    if (error.status === 400) return `送信できませんでした：${error.message}`;
    if (error.status === 401) return "アクセストークンが必要です。正しいトークンを入力してください。";
    if (error.status === 413)
      return `メッセージが長すぎます。短くしてもう一度お試しください。（${error.message}）`;
    if (error.status === 429) return "リクエストが多すぎます。少し待ってからお試しください。";
    if (error.status === 503)
      return "ただいまサービスを利用できません。しばらくしてからもう一度お試しください。";
    return `サーバーでエラーが発生しました（${error.status}）：${error.message}`;
  }
  return "通信エラーが発生しました。接続を確認して、もう一度お試しください。";
}

/** Sends one message and renders the streamed answer. @param {string} text */
async function ask(text) {
  const message = text.trim();
  if (!message || busy) return;
  welcome.hidden = true;
  conversation.append(userMessage(message));
  const bot = assistantMessage((question) => void ask(question));
  conversation.append(bot.root);
  const still = matchMedia("(prefers-reduced-motion: reduce)").matches;
  const showStart = () => bot.root.scrollIntoView({ block: "start", behavior: still ? "auto" : "smooth" });
  showStart();
  input.value = "";
  setBusy(true);
  let replied = false;
  let failed = false;
  try {
    await streamChat(
      { message, threadId: sessionStorage.getItem(THREAD_KEY), token: sessionStorage.getItem(TOKEN_KEY) },
      {
        progress: (event) => bot.progress(event),
        tool: (event) => bot.tool(event),
        reply: (reply) => {
          replied = true;
          if (typeof reply?.threadId === "string" && reply.threadId)
            sessionStorage.setItem(THREAD_KEY, reply.threadId);
          bot.reply(reply);
        },
        error: (event) => {
          failed = true;
          // The server's message is already user-facing Japanese.
          const text = typeof event?.error === "string" ? event.error.trim() : "";
          bot.fail(text || "回答中にエラーが発生しました。もう一度お試しください。");
        },
      },
    );
    if (!replied && !failed) bot.fail("応答が途中で終了しました。もう一度お試しください。");
  } catch (error) {
    const box = bot.fail(errorText(error));
    if (error instanceof ChatHttpError && error.status === 401) box.after(tokenForm(message));
  } finally {
    bot.finish();
    setBusy(false);
    // The answer's start (and its first card) comes into view, not its end under the input box.
    if (replied) requestAnimationFrame(showStart);
    status.textContent = replied ? "回答を表示しました。" : "エラーが発生しました。";
  }
}

/** A small form to enter the access token after a 401, then retry. @param {string} retry */
function tokenForm(retry) {
  const box = /** @type {HTMLFormElement} */ (el("form", "token-form"));
  const label = el("label", undefined, "アクセストークン");
  const field = /** @type {HTMLInputElement} */ (el("input"));
  field.type = "password";
  field.autocomplete = "off";
  label.append(field);
  box.append(label, el("button", undefined, "保存して再送信"));
  box.addEventListener("submit", (event) => {
    event.preventDefault();
    sessionStorage.setItem(TOKEN_KEY, field.value.trim());
    box.remove();
    void ask(retry);
  });
  return box;
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  void ask(input.value);
});

input.addEventListener("keydown", (event) => {
  // Enter sends; Shift+Enter is a newline; never send while an IME is composing Japanese text.
  if (event.key === "Enter" && !event.shiftKey && !event.isComposing && event.keyCode !== 229) {
    event.preventDefault();
    form.requestSubmit();
  }
});

for (const chip of document.querySelectorAll(".chip")) {
  chip.addEventListener("click", () => void ask(chip.textContent ?? ""));
}

newThread.addEventListener("click", () => {
  sessionStorage.removeItem(THREAD_KEY);
  for (const node of [...conversation.children]) if (node !== welcome) node.remove();
  welcome.hidden = false;
  input.value = "";
  input.focus();
  status.textContent = "新しい会話を始めました。";
});

/** A stored thread opened again: the watch digests that arrived meanwhile come first. */
async function showKept() {
  const threadId = sessionStorage.getItem(THREAD_KEY);
  if (!threadId) return;
  const digests = await openThread({ threadId, token: sessionStorage.getItem(TOKEN_KEY) });
  for (const digest of digests) {
    welcome.hidden = true;
    const bot = assistantMessage((question) => void ask(question));
    bot.reply(digest);
    bot.finish();
    conversation.append(bot.root);
  }
  if (digests.length > 0) status.textContent = `ウォッチの新着が${digests.length}件あります。`;
}

// The page works without the digests (an old server, a token still to enter): they wait for 「新着は？」.
showKept()
  .catch(() => undefined)
  .finally(() => {
    document.documentElement.dataset.ready = "true";
  });
