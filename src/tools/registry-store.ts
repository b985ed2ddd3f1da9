/**
 * The stored registry document: one record `{ rev, servers }` under `sc:v1:mcp:registry`, changed under a
 * short exclusive claim so two instances never overwrite each other's edit, and polled by revision.
 */
import type { Logger } from "../logger.ts";
import { KEY_PREFIX } from "../store/keys.ts";
import type { RecordStore } from "../store/records.ts";
import type { RawEntry } from "./registry-entry.ts";

export const REGISTRY_KEY = `${KEY_PREFIX}:mcp:registry`;
const CLAIM_KEY = `${KEY_PREFIX}:mcp:registry-claim`;
const CLAIM_TTL_MS = 5_000;
const CLAIM_TRIES = 100;

/** A runtime entry as stored: the raw mcp.json entry (with `${VAR}` references kept) and who changed it. */
export interface StoredEntry {
  config: RawEntry;
  createdAt: string;
  updatedAt: string;
  updatedBy: string;
}

export interface RegistryDoc {
  rev: number;
  servers: Record<string, StoredEntry>;
}

export interface RegistryDocument {
  read(): Promise<RegistryDoc>;
  /** Reads, changes and writes the document under the claim; resolves with what was written. */
  update(change: (servers: Record<string, StoredEntry>) => Record<string, StoredEntry>): Promise<RegistryDoc>;
  /** The document when its revision moved since the last read or write, else undefined. */
  poll(): Promise<RegistryDoc | undefined>;
}

function parseDoc(value: unknown): RegistryDoc {
  const doc = value as Partial<RegistryDoc> | undefined;
  const servers = doc?.servers && typeof doc.servers === "object" ? doc.servers : {};
  return { rev: typeof doc?.rev === "number" ? doc.rev : 0, servers: { ...servers } };
}

/** The document in `records`, or in memory when there is no store. */
export function createRegistryDocument(records: RecordStore | undefined, logger: Logger): RegistryDocument {
  let memory: RegistryDoc = { rev: 0, servers: {} };
  let seenRev = 0;
  const load = async () => (records ? parseDoc(await records.get(REGISTRY_KEY)) : parseDoc(memory));
  const save = async (doc: RegistryDoc) => {
    if (records) await records.set(REGISTRY_KEY, doc);
    else memory = doc;
  };

  async function claimed<T>(run: () => Promise<T>): Promise<T> {
    if (!records) return run();
    for (let i = 0; i < CLAIM_TRIES; i++) {
      if (await records.claim(CLAIM_KEY, CLAIM_TTL_MS)) {
        try {
          return await run();
        } finally {
          await records.delete(CLAIM_KEY).catch(() => undefined);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error("the MCP server registry stayed busy (another instance is changing it)");
  }

  return {
    async read() {
      const doc = await load();
      seenRev = doc.rev;
      return doc;
    },
    update(change) {
      return claimed(async () => {
        const doc = await load();
        const next = { rev: doc.rev + 1, servers: change(structuredClone(doc.servers)) };
        await save(next);
        seenRev = next.rev;
        return next;
      });
    },
    async poll() {
      try {
        const doc = await load();
        if (doc.rev === seenRev) return undefined;
        seenRev = doc.rev;
        return doc;
      } catch (error) {
        logger.warn({ err: error }, "reading the MCP server registry failed; retrying");
        return undefined;
      }
    },
  };
}
