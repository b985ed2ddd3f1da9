/** The web chat in headless Chromium: error display, hostile text shown as text, access tokens. */
import { describe, expect, it } from "vitest";
import { toChatResponse } from "../../fakes/fake-chat-api.ts";
import { sampleReply, sampleSubsidy } from "../../fakes/sample-subsidies.ts";
import { chromiumAvailable } from "./chromium.ts";
import { ask, screenshot, turnsDone, useChatHarness } from "./harness.ts";

const IMG = `<img src=x onerror="window.__xss=1">`;

describe.skipIf(!chromiumAvailable())("web chat errors and safety in headless Chromium", () => {
  const { api, openChat } = useChatHarness();

  it("shows an error event in Japanese, re-enables the input, and the next question works", async () => {
    api.setScript((_body, i) =>
      i === 0
        ? [
            { event: "progress", data: { type: "searching", keywords: ["省エネ"], filters: {} } },
            { event: "error", data: { error: "jGrants APIに接続できませんでした" } },
          ]
        : [{ event: "reply", data: toChatResponse(sampleReply(1), "web:t") }],
    );
    const page = await openChat();
    await ask(page, "従業員20人の製造業の省エネ設備");
    await turnsDone(page, 1);
    const alert = page.getByRole("alert");
    expect(await alert.textContent()).toBe("jGrants APIに接続できませんでした");
    expect(await page.locator("#message").isEnabled()).toBe(true);
    expect(await page.locator("#send").isEnabled()).toBe(true);

    await ask(page, "もう一度");
    await turnsDone(page, 2);
    expect(await page.locator(".card").count()).toBe(1);
  });

  it("explains HTTP errors before streaming and network failures", async () => {
    const page = await openChat();
    const cases: Array<[number, string, string]> = [
      [400, "message は必須です", "送信できませんでした：message は必須です"],
      [413, "too large", "メッセージが長すぎます。"],
      [503, "agent not ready", "ただいまサービスを利用できません。"],
    ];
    for (const [n, [status, error, shown]] of cases.entries()) {
      api.setScript(() => ({ status, error }));
      await ask(page, `質問${n}`);
      await turnsDone(page, n + 1);
      expect(await page.locator(".msg.bot .error").nth(n).textContent()).toContain(shown);
      expect(await page.locator("#message").isEnabled()).toBe(true);
    }
    await page.route("**/chat/stream", (route) => route.abort("connectionrefused"));
    await ask(page, "通信できる？");
    await turnsDone(page, 4);
    expect(await page.locator(".msg.bot .error").nth(3).textContent()).toBe(
      "通信エラーが発生しました。接続を確認して、もう一度お試しください。",
    );
    await page.unroute("**/chat/stream");

    api.setScript(() => [{ event: "progress", data: { type: "composing" } }]);
    await ask(page, "途中で切れる");
    await turnsDone(page, 5);
    expect(await page.locator(".msg.bot .error").nth(4).textContent()).toContain("応答が途中で終了しました");
    await screenshot(page, "web-chat-errors.png");
  });

  it("shows hostile titles, answers, args and progress as text, and links only http(s)", async () => {
    const hostile = sampleSubsidy(1, {
      title: `${IMG}補助金`,
      summary: `<script>window.__xss=2</script>概要`,
    });
    const unsafeUrl = sampleSubsidy(2, { url: "javascript:window.__xss=3" });
    const reply = sampleReply(2, {
      text: `**${IMG}** と [罠](javascript:window.__xss=4) と [公式](https://www.jgrants-portal.go.jp/)\n- <b>太字?</b>`,
      subsidies: [hostile, unsafeUrl],
    });
    api.setScript(() => [
      { event: "progress", data: { type: "searching", keywords: [IMG], filters: { area: "<i>東京</i>" } } },
      {
        event: "tool",
        data: { server: "jgrants", tool: IMG, args: { keyword: IMG }, reason: IMG, round: 1 },
      },
      { event: "tool", data: { server: "jgrants", tool: IMG, isError: true, summary: IMG, durationMs: 3 } },
      { event: "progress", data: { type: "answer-delta", text: IMG } },
      { event: "reply", data: toChatResponse(reply, "web:x") },
    ]);
    const page = await openChat();
    await ask(page, IMG);
    await turnsDone(page, 1);

    expect(
      await page.locator("#conversation img, #conversation script, #conversation b, #conversation i").count(),
    ).toBe(0);
    expect(await page.evaluate("window.__xss")).toBeUndefined();
    expect(await page.locator(".msg.user .bubble").textContent()).toBe(IMG);
    expect(await page.locator(".card-title").nth(0).textContent()).toBe(`${IMG}補助金`);
    expect(await page.locator(".card-summary").nth(0).textContent()).toBe(
      "<script>window.__xss=2</script>概要",
    );
    expect(await page.locator(".card-title").nth(1).locator("a").count()).toBe(0);
    expect(await page.locator(".answer strong").textContent()).toBe(IMG);
    expect(await page.locator(".answer li").textContent()).toBe("<b>太字?</b>");
    const links = await page.locator(".answer a").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
    expect(links).toEqual(["https://www.jgrants-portal.go.jp/"]);
    expect(await page.locator(".answer").textContent()).toContain("罠");
    expect(await page.locator(".progress li").first().textContent()).toContain(IMG);
    expect(await page.locator(".tool-row .tool-args").textContent()).toContain("onerror");
    expect(await page.locator(".tool-row.failed .tool-status").textContent()).toBe("❌ 失敗");
  });

  it("sends the token from ?token= and asks for one after a 401", async () => {
    api.requireToken("s3cret");
    const page = await openChat("/?token=s3cret");
    expect(new URL(page.url()).search).toBe("");
    await ask(page, "東京都でIT導入に使える補助金");
    await turnsDone(page, 1);
    expect(api.requests[0]?.authorization).toBe("Bearer s3cret");

    const other = await openChat("/");
    await ask(other, "トークンなし");
    await turnsDone(other, 1);
    expect(await other.getByRole("alert").textContent()).toContain("アクセストークンが必要です");
    await other.getByLabel("アクセストークン").fill("s3cret");
    await other.getByRole("button", { name: "保存して再送信" }).click();
    await turnsDone(other, 2);
    expect(await other.locator(".card").count()).toBe(3);
    expect(api.requests.at(-1)).toMatchObject({
      authorization: "Bearer s3cret",
      body: { message: "トークンなし" },
    });
  });
});
