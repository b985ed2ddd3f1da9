/**
 * The shared vocabulary of the project. Every seam speaks in these types; adapters never see which LLM
 * or MCP server answered, and the agent never sees which platform asked.
 */

/** One string that names a conversation everywhere: history, locks, logs. e.g. "slack:T1:C1:1700.0001". */
export type ThreadKey = string;

export type Platform = "slack" | "line" | "web" | "cli" | "http";

/** A user's message, as parsed by an adapter. */
export interface Turn {
  threadKey: ThreadKey;
  platform: Platform;
  userId: string;
  text: string;
  /** The platform's delivery id (Slack event_id, LINE webhookEventId), used for exactly-once delivery. */
  eventId?: string;
  /** The platform's message id (Slack ts, LINE message id), recorded in history. */
  messageId?: string;
  /** ISO time the platform received the message. */
  receivedAt?: string;
}

/** One tool call planned by a planner. `server` is the MCP server name in the host, e.g. "jgrants". */
export interface ToolCall {
  server: string;
  tool: string;
  args: Record<string, unknown>;
  /** Why the planner wants this call (shown in `plan`, never to end users in chat). */
  reason?: string;
}

/** The outcome of one tool call. A failure is a result with `isError`, never a throw. */
export interface ToolResult {
  call: ToolCall;
  isError: boolean;
  /** Parsed JSON of the result (structuredContent, or the JSON text block), when there is one. */
  data?: unknown;
  /** Plain text of the result's text blocks (capped). */
  text: string;
  /** Error message readable by a planner, when isError. */
  error?: string;
  truncated?: boolean;
  durationMs: number;
}

/** A tool as the host offers it to planners. */
export interface ToolInfo {
  server: string;
  name: string;
  /** server + "__" + name: unique across servers, safe as a Gemini function name. */
  qualifiedName: string;
  description: string;
  inputSchema: Record<string, unknown>;
  readOnly: boolean;
}

/** Status of one MCP server in the host, for /healthz and /tools. */
export interface ServerStatus {
  name: string;
  state: "idle" | "connecting" | "connected" | "reconnecting" | "failed" | "disabled" | "closed";
  transport?: string;
  toolCount: number;
  lastError?: string;
  lastOkAt?: string;
}

/** The ToolHost seam: every tool the agent uses goes through it. */
export interface ToolHost {
  /** Tools of all connected servers (connects lazily). */
  listTools(signal?: AbortSignal): Promise<ToolInfo[]>;
  /** Calls one tool; failures come back as `isError` results. */
  callTool(call: ToolCall, options?: { signal?: AbortSignal; timeoutMs?: number }): Promise<ToolResult>;
  /** Per-server status, without connecting. */
  status(): ServerStatus[];
  /** Ends every connection and child process. */
  close(): Promise<void>;
}

export type SubsidyStatus = "受付前" | "受付中" | "受付終了" | "不明";

/** A moment shown to users: the ISO string as given (UTC) and its Asia/Tokyo display form. */
export interface DisplayDate {
  iso: string;
  /** e.g. "2026/12/17(木) 23:59" in Asia/Tokyo. */
  jst: string;
}

/** Where a record came from: the live API or the bundled snapshot (with its date). */
export interface DataSource {
  mode: "live" | "snapshot";
  /** YYYY-MM-DD of the data for a snapshot; the fetch time for live data. */
  asOf?: string;
}

/** A normalised jGrants subsidy, the unit every renderer shows. */
export interface Subsidy {
  id: string;
  title: string;
  /** The S-number, when known. */
  name?: string;
  maxAmountYen: number | null;
  /** e.g. "1,000万円", or "公募要領を確認" when not set. */
  maxAmountText: string;
  rate: string | null;
  start: DisplayDate | null;
  end: DisplayDate | null;
  status: SubsidyStatus;
  /** Whole days until the deadline in JST (0 = today), null when unknown or closed. */
  daysLeft: number | null;
  area: string | null;
  employees: string | null;
  industry: string | null;
  purpose: string | null;
  institution: string | null;
  /** Plain text, at most about 200 characters. */
  summary: string;
  /** The jGrants portal page. */
  url: string;
  source: DataSource;
  /** True when the detail record was fetched (rate, summary, purpose are then as complete as the API has). */
  detailed: boolean;
  /** The city (市区町村) when the programme is a city's, e.g. "宗像市" (area then holds its prefecture). */
  city?: string | null;
  /** Ranked search: the words of the question this subsidy matched, e.g. ["電子カルテ"]. */
  matchedTerms?: string[];
  /** Ranked search: a short piece of its text around the match. */
  snippet?: string;
  /** Other rounds or courses of the same programme, grouped into this card (e.g. 第19次, 第20次). */
  otherRounds?: Array<{ id: string; label: string }>;
  /** Detail: the attached documents by name (公募要領, 交付要綱, 申請様式), never their contents. */
  attachments?: SubsidyAttachment[];
  /** Detail: the deadline for finishing the funded project (事業終了期限). */
  projectEnd?: DisplayDate | null;
  /** Detail: whether one business may apply more than once (null when unknown). */
  multipleApplications?: boolean | null;
}

/** One attached document of a subsidy, by name only. */
export interface SubsidyAttachment {
  /** What it is: 公募要領, 交付要綱, 申請様式 (or the source's own category name). */
  kind: string;
  name: string;
}

/**
 * How well a search answer fits: "good" (fitting subsidies shown), "weak" (nothing clearly fits; only the
 * nearest ones are shown, labelled as such), "none" (nothing to show).
 */
export type MatchQuality = "good" | "weak" | "none";

/** The search conditions of a turn, as a user would read them. */
export interface SearchConditions {
  keywords: string[];
  /** Ranked search: the need in the user's words (the question's content, not one or two keywords). */
  query?: string;
  /** A city, ward, town or village (ranked search), e.g. 宗像市. */
  city?: string;
  area?: string;
  employees?: string;
  industry?: string;
  purpose?: string;
  sort?: "created_date" | "acceptance_start_datetime" | "acceptance_end_datetime";
  order?: "ASC" | "DESC";
  /** "1" = open now only. */
  acceptance?: "0" | "1";
}

/** Typed progress events; adapters render them ("🔍 検索中…", "📋 12件見つかりました…"). */
export type ProgressEvent =
  | { type: "searching"; keywords: string[]; filters: Partial<Omit<SearchConditions, "keywords">> }
  | { type: "found"; count: number; shown: number }
  | { type: "retrying"; why: string; keywords: string[] }
  | {
      type: "fetching-details";
      count: number;
      /** How many of the `count` details have arrived (absent: none yet). */
      done?: number;
      /** How many subsidies the search found (so the line can say it, even when "found" was not shown). */
      found?: number;
    }
  | {
      type: "composing";
      /** The search's count and how many are shown, repeated so a throttled status line still says them. */
      found?: number;
      shown?: number;
    }
  | { type: "answer-delta"; text: string }
  | { type: "done" }
  | { type: "error"; message: string };

export interface PlanEntry {
  server: string;
  tool: string;
  args: Record<string, unknown>;
  reason: string;
  round: number;
}

/** A tool result as reported in replies: small, never raw HTML or base64. */
export interface CompactToolResult {
  server: string;
  tool: string;
  args: Record<string, unknown>;
  isError: boolean;
  summary: string;
  durationMs: number;
}

export interface ReplyMeta {
  mode: "gemini" | "offline";
  model: string | null;
  rounds: number;
  llmCalls: number;
  toolCalls: number;
  promptBytes: number;
  durationMs: number;
  /** Why the turn fell back to offline, when it did. */
  degraded?: string;
  /** True when the turn could not be saved to history. */
  historyNotSaved?: boolean;
  /** How well a search answer fits (absent for help, cleared, error and details replies). */
  match?: MatchQuality;
  /** The turn's trace id: on every log line of the turn, and shown to users in error replies (参照ID). */
  traceId?: string;
}

/** What the agent returns for one turn. */
export interface Reply {
  threadKey: ThreadKey;
  /** The full answer text (markdown-ish: **bold**, [text](url), headings, lists). */
  text: string;
  /** The subsidies shown, in order. */
  subsidies: Subsidy[];
  /** How many matched in total (may exceed subsidies.length). */
  totalCount: number;
  conditions: SearchConditions | null;
  plan: PlanEntry[];
  toolResults: CompactToolResult[];
  meta: ReplyMeta;
  /** What kind of reply this is; adapters may render help and cleared differently ("watch": a watch command). */
  kind: "answer" | "help" | "cleared" | "error" | "watch";
  /** Short notes for the user, e.g. that the data is a snapshot or history was not saved. */
  notes: string[];
  /** What the user could ask instead when nothing clearly fits (quick replies / suggestion buttons). */
  suggestions?: string[];
  /** "details" when the turn answered a follow-up about specific subsidies (no search happened). */
  view?: "list" | "details";
}

export interface HandleOptions {
  onProgress?: (event: ProgressEvent) => void;
  signal?: AbortSignal;
}

/** The agent seam the adapters and the HTTP API call. */
export interface AgentLike {
  handle(turn: Turn, options?: HandleOptions): Promise<Reply>;
}

/** One remembered turn of a thread. */
export interface HistoryTurn {
  question: string;
  answer: string;
  /** The subsidies shown, in order (ids and titles; enough to resolve "2番目"). */
  subsidies: Array<{ id: string; title: string }>;
  conditions: SearchConditions | null;
  /** Platform message ids of the question and the answer, when known. */
  messageIds?: string[];
  at: string;
}

/** The ThreadStore seam: history, exactly-once delivery and per-thread order. */
export interface ThreadStore {
  /** Turns of a thread, oldest first. Throws (StoreError) when the backend is down: never a silent []. */
  load(threadKey: ThreadKey): Promise<HistoryTurn[]>;
  /** Appends a turn, trimming to the configured bounds. */
  append(threadKey: ThreadKey, turn: HistoryTurn): Promise<void>;
  /** Forgets a thread. */
  clear(threadKey: ThreadKey): Promise<void>;
  /** True the first time an event id is seen (atomic), false for a duplicate. */
  markDelivered(eventId: string, ttlMs?: number): Promise<boolean>;
  /** Runs fn while holding the thread's lock; turns on one thread run one at a time, in arrival order. */
  withThreadLock<T>(threadKey: ThreadKey, fn: () => Promise<T>): Promise<T>;
  /** Backend health for /healthz. */
  health(): Promise<{ ok: boolean; backend: string; error?: string }>;
  close(): Promise<void>;
}

/** A platform adapter (Slack, LINE, …), started and stopped by main.ts. */
export interface PlatformAdapter {
  readonly name: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}
