/**
 * Jira Cloud REST API v3 adapter (https://developer.atlassian.com/cloud/jira/platform/rest/v3/).
 * Basic auth with an account e-mail and API token; 429/503 honour Retry-After (else X-RateLimit-Reset); search uses the enhanced
 * `/rest/api/3/search/jql` endpoint (the legacy `/search` is removed), paged by nextPageToken.
 * Only what Atlassian's OpenAPI document offers on each operation is sent: comment properties (the portal's markers)
 * are read through `POST /rest/api/3/comment/list?expand=properties` — `GET /issue/{key}/comment` expands only
 * `renderedBody` — and searches right after a create name the new issue in `reconcileIssues`, Jira's read-after-write
 * parameter (search is eventually consistent otherwise).
 *
 * Longer than 300 lines on purpose: one class implements the TicketSystem port operation by operation, every one
 * through the same request helper (auth, Retry-After, errors); split by operation, each file would re-import it.
 */
import type { NewIssue, RemoteAttachment, RemoteComment, RemoteIssue, TicketSystem } from '../../ports/ticket-system.ts';
import type { TicketPriority } from '../../tickets/rules.ts';
import { adfToText, textToAdf } from './adf.ts';

export interface JiraCloudOptions {
  /** https://{site}.atlassian.net */
  site: string;
  email: string;
  apiToken: string;
  project: string;
  issueType: string;
  /** Jira priority name of each portal priority. */
  priorities: Record<TicketPriority, string>;
  /** Number custom field for the satisfaction score (e.g. customfield_10050); empty: not written. */
  satisfactionField?: string;
  fetch?: typeof fetch;
  /** Retries after 429/503 (each waits Retry-After, capped at maxWaitMs). */
  maxRetries?: number;
  maxWaitMs?: number;
  pageSize?: number;
  sleep?: (ms: number) => Promise<void>;
}

/** A non-2xx answer from Jira, with its ErrorCollection messages. */
export class JiraError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'JiraError';
  }
}

/** The comment property that carries the portal's id of a comment it wrote (check-before-create). */
export const COMMENT_PROPERTY = 'commandcenter';
/** Issues read by key after a lost create answer: the gap of missing numbers that ends the scan, and its bound. */
const CREATE_SCAN_GAP = 5;
const CREATE_SCAN_MAX = 500;
/** `reconcileIssues` takes at most 50 issue ids (Atlassian, "Search after write with search and reconcile"). */
const MAX_RECONCILE = 50;
/** getComments pages by at most 100; getCommentsByIds takes at most 1000 ids. */
const COMMENT_PAGE = 100;
const COMMENT_IDS_PER_CALL = 1000;

interface JiraComment {
  id: string;
  body: unknown;
  author?: { displayName?: string; emailAddress?: string; accountType?: string };
  created: string;
  properties?: { key: string; value: { id?: string } | null }[];
  /** false: a Jira Service Management internal note (Comment.jsdPublic; true or absent elsewhere). */
  jsdPublic?: boolean;
  /** Set only when the comment is restricted to a group or a project role (Comment.visibility). */
  visibility?: { type?: 'group' | 'role'; value?: string; identifier?: string | null } | null;
}

/**
 * Either of Jira's two ways to keep a comment from the customer. Any visibility object counts, however little it
 * names: a restriction read too widely hides an engineer's remark, read too narrowly shows an internal one.
 */
const isInternal = (c: JiraComment) => c.jsdPublic === false || (c.visibility !== undefined && c.visibility !== null);

/** `KEY` = "P1=Highest,P2=High" → record. */
export function parsePriorityMap(raw: string): Record<TicketPriority, string> {
  const map: Record<string, string> = { P1: 'P1', P2: 'P2', P3: 'P3', P4: 'P4' };
  for (const pair of raw.split(',')) {
    const [k, v] = pair.split('=').map((s) => s.trim());
    if (k in map && v) map[k] = v;
  }
  return map as Record<TicketPriority, string>;
}

/**
 * How long to wait after a 429/503: Retry-After (seconds or an HTTP date), else X-RateLimit-Reset (ISO 8601, to the
 * minute, "yyyy-MM-ddTHH:mmZ" — Atlassian documents both headers as optional), else the exponential fallback.
 */
export function retryAfterMs(headers: { get(name: string): string | null }, fallbackMs: number, now = Date.now()): number {
  const retryAfter = headers.get('retry-after')?.trim();
  if (retryAfter) {
    if (/^\d+$/.test(retryAfter)) return Number(retryAfter) * 1000;
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return Math.max(0, at - now);
  }
  const reset = Date.parse(headers.get('x-ratelimit-reset')?.trim() ?? '');
  // a reset already past (its minutes are truncated) still deserves the fallback pause, not an instant retry
  if (!Number.isNaN(reset)) return Math.max(fallbackMs, reset - now);
  return fallbackMs;
}

interface JiraIssueBean {
  id: string;
  key: string;
  fields: Record<string, unknown> & {
    summary?: string;
    description?: unknown;
    status?: { name: string };
    priority?: { name: string } | null;
    assignee?: { displayName?: string; emailAddress?: string } | null;
    labels?: string[];
    created?: string;
    updated?: string;
    attachment?: { id: string; filename: string; mimeType: string; size: number; created: string }[];
  };
}

export function jiraCloudTicketSystem(opts: JiraCloudOptions): TicketSystem {
  const doFetch = opts.fetch ?? fetch;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const maxRetries = opts.maxRetries ?? 5;
  const maxWaitMs = opts.maxWaitMs ?? 60_000;
  const pageSize = opts.pageSize ?? 50;
  const base = opts.site.replace(/\/$/, '');
  const auth = `Basic ${Buffer.from(`${opts.email}:${opts.apiToken}`).toString('base64')}`;
  const byJiraName = new Map(Object.entries(opts.priorities).map(([p, name]) => [name.toLowerCase(), p as TicketPriority]));
  const fields = ['summary', 'description', 'status', 'priority', 'assignee', 'labels', 'created', 'updated', 'attachment'];
  if (opts.satisfactionField) fields.push(opts.satisfactionField);

  async function request<T>(method: string, path: string, init: { json?: unknown; body?: FormData; headers?: Record<string, string>; okEmpty?: boolean } = {}): Promise<T> {
    const headers: Record<string, string> = { authorization: auth, accept: 'application/json', ...init.headers };
    let body: string | FormData | undefined;
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    } else if (init.body) body = init.body;
    for (let attempt = 0; ; attempt++) {
      const res = await doFetch(`${base}${path}`, { method, headers, body });
      if ((res.status === 429 || res.status === 503) && attempt < maxRetries) {
        await res.arrayBuffer().catch(() => undefined);
        await sleep(Math.min(maxWaitMs, retryAfterMs(res.headers, 1000 * 2 ** attempt)));
        continue;
      }
      const text = await res.text();
      if (!res.ok) {
        let message = `${method} ${path} answered ${res.status}`;
        try {
          const e = JSON.parse(text) as { errorMessages?: string[]; errors?: Record<string, string> };
          const all = [...(e.errorMessages ?? []), ...Object.entries(e.errors ?? {}).map(([k, v]) => `${k}: ${v}`)];
          if (all.length) message += `: ${all.join('; ')}`;
        } catch {
          /* not JSON: keep the status line */
        }
        throw new JiraError(res.status, message);
      }
      return (text ? JSON.parse(text) : undefined) as T;
    }
  }

  const toAttachment = (a: { id: string; filename: string; mimeType: string; size: number; created: string }): RemoteAttachment => ({
    id: String(a.id),
    filename: a.filename,
    mimeType: a.mimeType,
    size: a.size,
    created: a.created,
  });

  const toRemote = (bean: JiraIssueBean): RemoteIssue => {
    const f = bean.fields;
    const score = opts.satisfactionField ? f[opts.satisfactionField] : null;
    return {
      key: bean.key,
      summary: f.summary ?? '',
      description: adfToText(f.description),
      status: f.status?.name ?? '',
      priority: f.priority ? (byJiraName.get(f.priority.name.toLowerCase()) ?? null) : null,
      assignee: f.assignee ? (f.assignee.displayName ?? f.assignee.emailAddress ?? null) : null,
      labels: f.labels ?? [],
      satisfaction: typeof score === 'number' ? score : null,
      created: f.created ?? '',
      updated: f.updated ?? '',
      attachments: (f.attachment ?? []).map(toAttachment),
    };
  };

  /**
   * Issues this process created lately, by label, newest last: a search for one of them right after its create (the
   * key not yet recorded because that write failed) names its id in `reconcileIssues`, so Jira answers consistently.
   */
  const recentCreates = new Map<string, string>();
  const rememberCreate = (labels: string[], id: string) => {
    for (const label of labels) {
      recentCreates.delete(label);
      recentCreates.set(label, id);
    }
    while (recentCreates.size > MAX_RECONCILE) recentCreates.delete(recentCreates.keys().next().value!);
  };

  async function* search(jql: string, reconcile: string[] = []): AsyncGenerator<RemoteIssue> {
    const reconcileIssues = [...new Set(reconcile)].slice(-MAX_RECONCILE).map(Number).filter(Number.isInteger);
    let nextPageToken: string | undefined;
    for (;;) {
      const page = await request<{ issues: JiraIssueBean[]; nextPageToken?: string; isLast?: boolean }>('POST', '/rest/api/3/search/jql', {
        json: { jql, maxResults: pageSize, fields, ...(reconcileIssues.length ? { reconcileIssues } : {}), ...(nextPageToken ? { nextPageToken } : {}) },
      });
      for (const issue of page.issues) yield toRemote(issue);
      if (page.isLast || !page.nextPageToken) return;
      nextPageToken = page.nextPageToken;
    }
  }

  /** The portal's marker of each comment (null: written in Jira), read with getCommentsByIds and expand=properties. */
  async function commentMarkers(ids: string[]): Promise<Map<string, string | null>> {
    const markers = new Map<string, string | null>();
    if (ids.length === 0) return markers;
    // The operation takes no startAt: a page that is not the last is followed by a call for the ids it left out,
    // at most 1000 ids a call (the document's limit). A call that returns nothing new ends the reading.
    let left = [...new Set(ids)];
    while (left.length > 0) {
      const asked = left.slice(0, COMMENT_IDS_PER_CALL);
      const page = await request<{ values: JiraComment[]; isLast?: boolean }>('POST', '/rest/api/3/comment/list?expand=properties', { json: { ids: asked.map(Number) } });
      for (const c of page.values) {
        const value = c.properties?.find((p) => p.key === COMMENT_PROPERTY)?.value;
        markers.set(String(c.id), typeof value?.id === 'string' ? value.id : null);
      }
      const rest = asked.filter((id) => !markers.has(id));
      const progressed = rest.length < asked.length;
      left = [...(page.isLast === false && progressed ? rest : []), ...left.slice(COMMENT_IDS_PER_CALL)];
    }
    return markers;
  }

  const quote = (s: string) => `"${s.replace(/["\\]/g, '\\$&')}"`;
  const issuePath = (key: string) => `/rest/api/3/issue/${encodeURIComponent(key)}`;

  async function getIssue(key: string): Promise<RemoteIssue | null> {
    try {
      return toRemote(await request<JiraIssueBean>('GET', `${issuePath(key)}?fields=${fields.join(',')}`));
    } catch (err) {
      if (err instanceof JiraError && err.status === 404) return null;
      throw err;
    }
  }

  return {
    name: 'jira',
    async findIssueByLabel(label, find = {}) {
      const known = recentCreates.get(label);
      const reconcile = [...(find.reconcile ?? []), ...(known ? [known] : [])];
      for await (const issue of search(`project = ${quote(opts.project)} AND labels = ${quote(label)} ORDER BY created ASC`, reconcile)) return issue;
      return null;
    },
    async createIssue(issue: NewIssue) {
      const created = await request<{ id: string; key: string }>('POST', '/rest/api/3/issue', {
        json: {
          fields: {
            project: { key: opts.project },
            issuetype: { name: opts.issueType },
            summary: issue.summary,
            description: textToAdf(issue.description),
            priority: { name: opts.priorities[issue.priority] },
            labels: issue.labels,
          },
        },
      });
      rememberCreate(issue.labels, String(created.id));
      return { key: created.key, id: String(created.id) };
    },
    async findCreatedAfter(label, afterNumber) {
      // GET /rest/api/3/issue/{key} reads the issue itself, not the search index. Numbers left by deleted or moved
      // issues answer 404; after CREATE_SCAN_GAP of them in a row the project's newest issue is behind us.
      let misses = 0;
      for (let n = afterNumber + 1; n <= afterNumber + CREATE_SCAN_MAX && misses < CREATE_SCAN_GAP; n++) {
        const issue = await getIssue(`${opts.project}-${n}`);
        if (!issue) misses++;
        else {
          misses = 0;
          if (issue.labels.includes(label)) return issue;
        }
      }
      return null;
    },
    getIssue,
    searchUpdatedSince(since) {
      // JQL reads absolute dates in the Jira user's time zone; a relative offset in minutes does not depend on it.
      const minutes = Math.max(1, Math.ceil((Date.now() - since.getTime()) / 60_000) + 1);
      return search(`project = ${quote(opts.project)} AND updated >= "-${minutes}m" ORDER BY updated ASC, key ASC`);
    },
    async listComments(key) {
      const out: RemoteComment[] = [];
      for (let startAt = 0; ; ) {
        // getComments documents `expand=renderedBody` only: properties come from getCommentsByIds below.
        const page = await request<{ comments: JiraComment[]; startAt: number; maxResults: number; total: number }>(
          'GET',
          `${issuePath(key)}/comment?startAt=${startAt}&maxResults=${COMMENT_PAGE}&orderBy=created`,
        );
        const markers = await commentMarkers(page.comments.map((c) => c.id));
        for (const c of page.comments) {
          // deleted between the two reads: gone in Jira, so not listed
          if (!markers.has(String(c.id))) continue;
          out.push({
            id: String(c.id),
            body: adfToText(c.body),
            author: c.author?.displayName ?? c.author?.emailAddress ?? 'Jira',
            created: c.created,
            marker: markers.get(String(c.id)) ?? null,
            authorEmail: c.author?.emailAddress ?? null,
            // UserDetails.accountType: 'atlassian' (an agent), 'app', or 'customer' (a Jira Service Management customer)
            authorIsCustomer: c.author?.accountType === 'customer',
            internal: isInternal(c),
          });
        }
        startAt = page.startAt + page.comments.length;
        if (page.comments.length === 0 || startAt >= page.total) return out;
      }
    },
    async addComment(key, comment) {
      // No `visibility` and no jsdPublic (read-only in Jira's document): a comment created through the platform API
      // is public, also on the service desk ("Defaults to true when comments are created in the Jira Cloud Platform").
      const c = await request<{ id: string; body: unknown; author?: { displayName?: string }; created: string }>('POST', `${issuePath(key)}/comment`, {
        json: { body: textToAdf(comment.body), properties: [{ key: COMMENT_PROPERTY, value: { id: comment.marker } }] },
      });
      return { id: String(c.id), body: adfToText(c.body), author: c.author?.displayName ?? opts.email, created: c.created, marker: comment.marker };
    },
    async transitionTo(key, status) {
      const issue = await request<JiraIssueBean>('GET', `${issuePath(key)}?fields=status`);
      if (issue.fields.status?.name.toLowerCase() === status.toLowerCase()) return;
      const { transitions } = await request<{ transitions: { id: string; name: string; to?: { name: string } }[] }>('GET', `${issuePath(key)}/transitions`);
      const t = transitions.find((x) => (x.to?.name ?? x.name).toLowerCase() === status.toLowerCase());
      if (!t) throw new JiraError(409, `Jira offers no transition of ${key} to ${status} (offered: ${transitions.map((x) => x.to?.name ?? x.name).join(', ')})`);
      await request('POST', `${issuePath(key)}/transitions`, { json: { transition: { id: t.id } } });
    },
    async setPriority(key, priority) {
      await request('PUT', issuePath(key), { json: { fields: { priority: { name: opts.priorities[priority] } } } });
    },
    async setSatisfaction(key, score) {
      if (!opts.satisfactionField) return;
      await request('PUT', issuePath(key), { json: { fields: { [opts.satisfactionField]: score } } });
    },
    async addAttachment(key, file) {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(file.content)], { type: file.mimeType }), file.filename);
      const added = await request<{ id: string; filename: string; mimeType: string; size: number; created: string }[]>('POST', `${issuePath(key)}/attachments`, {
        body: form,
        // Without it Jira blocks the upload (XSRF check).
        headers: { 'X-Atlassian-Token': 'no-check' },
      });
      return toAttachment(added[0]);
    },
    async deleteAttachment(id) {
      try {
        await request('DELETE', `/rest/api/3/attachment/${encodeURIComponent(id)}`);
      } catch (err) {
        if (err instanceof JiraError && err.status === 404) return;
        throw err;
      }
    },
  };
}
