/**
 * The shared adapter contract: every platform adapter (Slack, LINE, …) registers these tests through
 * `runAdapterContract("slack", () => subject)` in its own test file. The subject is a thin view of the
 * adapter made from the platform's own fixtures; the contract knows nothing about any platform.
 *
 * What it checks:
 * - the bot's own messages parse to null (no talking to itself);
 * - thread keys are stable (same input → same key), shared within a conversation, distinct across
 *   conversations, and prefixed with the platform name;
 * - deliveries with a bad or missing signature are rejected, a good one is accepted;
 * - a reply with 30 subsidies renders to messages that are each within the platform's limits.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Reply, Turn } from "../../src/types.ts";
import { sampleReply } from "../fakes/sample-subsidies.ts";

/** A signed delivery: a correct signature, a wrong one, or none. */
export type SignatureCase = "good" | "bad" | "missing";

/** What an adapter exposes to the contract. `F` is the platform's inbound fixture, `M` its outbound message. */
export interface AdapterContractSubject<F = unknown, M = unknown> {
  /** Parses one inbound fixture as the adapter does; null means the adapter stays silent. */
  parse(fixture: F): Turn | null | Promise<Turn | null>;
  /** Messages sent by the bot itself (each must parse to null). */
  ownMessageFixtures: F[];
  /**
   * Conversations: each inner array holds fixtures of ONE conversation (e.g. a mention and a reply in its
   * thread). Every fixture must parse to a Turn; keys must match within a group and differ across groups.
   */
  sameThreadFixtures: F[][];
  /** Renders a reply into the messages the platform would receive. */
  render(reply: Reply): M[];
  /** The platform limits one message breaks, as readable strings ([] when valid). */
  checkLimits(message: M): string[];
  /** Sends one real HTTP delivery to the adapter's endpoint, signed as asked; returns the HTTP status. */
  signedRequest(signature: SignatureCase): Promise<number>;
  /** Status of an accepted delivery (default 200). */
  acceptedStatus?: number;
  /** Status of a rejected delivery (default 401). */
  rejectedStatus?: number;
  /** Releases servers the subject started. */
  close?(): Promise<void>;
}

/** Registers the contract tests for one adapter; `makeSubject` runs in beforeAll (it may start servers). */
export function runAdapterContract<F, M>(
  name: string,
  makeSubject: () => AdapterContractSubject<F, M> | Promise<AdapterContractSubject<F, M>>,
): void {
  describe(`adapter contract: ${name}`, () => {
    let subject: AdapterContractSubject<F, M>;
    beforeAll(async () => {
      subject = await makeSubject();
    });
    afterAll(async () => {
      await subject?.close?.();
    });

    it("parses the bot's own messages to null", async () => {
      expect(subject.ownMessageFixtures.length).toBeGreaterThan(0);
      for (const fixture of subject.ownMessageFixtures) expect(await subject.parse(fixture)).toBeNull();
    });

    it("gives stable thread keys: shared within a conversation, distinct across conversations", async () => {
      expect(subject.sameThreadFixtures.length).toBeGreaterThan(1);
      const keys: string[] = [];
      for (const group of subject.sameThreadFixtures) {
        const groupKeys: string[] = [];
        for (const fixture of group) {
          const first = await subject.parse(fixture);
          const again = await subject.parse(fixture);
          expect(first, "every conversation fixture must parse to a Turn").not.toBeNull();
          expect(again?.threadKey).toBe(first?.threadKey);
          groupKeys.push(first?.threadKey ?? "");
        }
        expect(new Set(groupKeys).size).toBe(1);
        expect(groupKeys[0]?.startsWith(`${name}:`)).toBe(true);
        keys.push(groupKeys[0] ?? "");
      }
      expect(new Set(keys).size).toBe(keys.length);
    });

    it("rejects deliveries with a bad or missing signature, and accepts a good one", async () => {
      const rejected = subject.rejectedStatus ?? 401;
      expect(await subject.signedRequest("bad")).toBe(rejected);
      expect(await subject.signedRequest("missing")).toBe(rejected);
      expect(await subject.signedRequest("good")).toBe(subject.acceptedStatus ?? 200);
    });

    it("keeps a 30-subsidy reply within the platform's limits", () => {
      const messages = subject.render(sampleReply(30));
      expect(messages.length).toBeGreaterThan(0);
      for (const message of messages) expect(subject.checkLimits(message)).toEqual([]);
    });
  });
}
