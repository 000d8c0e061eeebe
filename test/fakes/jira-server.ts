/**
 * An in-process fake of Jira Cloud REST v3, speaking its wire format (paths, JSON shapes, status codes):
 * issue create/get/edit, the enhanced JQL search with nextPageToken and `reconcileIssues`, comments, comment
 * properties (read only where Atlassian's OpenAPI document offers them: `POST /rest/api/3/comment/list?expand=properties`
 * and `GET /rest/api/3/comment/{id}/properties/{key}`), transitions, multipart attachments guarded by X-Atlassian-Token,
 * 429 with Retry-After, Basic auth.
 * It refuses (400, Jira's ErrorCollection) a query parameter, an `expand` value or a search body field the document
 * does not offer on that operation, so an adapter relying on something Jira does not promise fails its test instead
 * of passing against a fake that agrees with it. Its search index lags like Jira's: an issue is searchable
 * `indexLag` ms after its creation, at once only when its id is named in `reconcileIssues`.
 * Requests it does not know are recorded in `unhandled` (tests assert it stays empty) and answered 404.
 * Every request is checked against Atlassian's OpenAPI document (specs/jira-platform.v3.json, the operations the
 * adapter uses) and every JSON answer against the operation's response schema (openapi-validator.ts): a request
 * the document does not allow is answered 400 with its words and fails the test. Where the document is silent the
 * fake guesses, marked here: the getCommentsByIds page size, the wording of Jira's error messages, Retry-After.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpecViolation } from './discovery-validator.ts';
import { openApi, type MatchedOperation } from './openapi-validator.ts';

interface AdfDoc {
  type: 'doc';
  version: number;
  content: unknown[];
}

export interface FakeComment {
  id: string;
  body: AdfDoc;
  /** UserDetails: `accountType` 'atlassian' (an agent), 'customer' (a service desk customer); `emailAddress` as privacy allows. */
  author: { accountId: string; displayName: string; accountType?: string; emailAddress?: string };
  created: string;
  updated: string;
  properties: { key: string; value: unknown }[];
  /** Comment.jsdPublic: false for a service desk internal note; Jira answers true for every other comment. */
  jsdPublic?: boolean;
  /** Comment.visibility: present only when the comment is restricted to a group or a project role. */
  visibility?: { type: 'group' | 'role'; value: string; identifier?: string };
}

export interface FakeAttachment {
  id: string;
  filename: string;
  mimeType: string;
  size: number;
  created: string;
  content: Buffer;
}

export interface FakeIssue {
  id: string;
  key: string;
  fields: Record<string, unknown> & { summary: string; description: AdfDoc | null; status: { name: string }; priority: { name: string }; labels: string[]; created: string; updated: string };
  comments: FakeComment[];
  attachments: FakeAttachment[];
}

const STATUSES = ['Open', 'In Progress', 'Resolved', 'Closed', 'Cancel'];
/** Transition names differ from the status they lead to, as in real workflows. */
const TRANSITION_NAMES: Record<string, string> = { Open: 'Reopen', 'In Progress': 'Start work', Resolved: 'Resolve', Closed: 'Close', Cancel: 'Cancel request' };
const PRIORITIES = ['Highest', 'High', 'Medium', 'Low', 'Lowest'];
/** The body fields of POST /rest/api/3/search/jql (SearchAndReconcileRequestBean). */
const SEARCH_BODY_FIELDS = ['jql', 'nextPageToken', 'maxResults', 'fields', 'expand', 'properties', 'fieldsByKeys', 'failFast', 'reconcileIssues'];

/** A message when the query has a parameter, or an `expand` value, the operation does not document; else null. */
function refuseParams(url: URL, params: string[], expand: string[]): string | null {
  for (const name of url.searchParams.keys()) if (!params.includes(name)) return `The query parameter '${name}' is not supported by this operation.`;
  for (const value of (url.searchParams.get('expand') ?? '').split(',').filter(Boolean)) {
    if (!expand.includes(value)) return `The value '${value}' is not valid for the parameter 'expand' (valid: ${expand.join(', ')}).`;
  }
  return null;
}

/** Jira's own timestamp format: 2026-11-22T10:00:00.000+0000. */
const jiraTime = (d = new Date()) => d.toISOString().replace('Z', '+0000');

export interface FakeJira {
  url: string;
  issues: Map<string, FakeIssue>;
  requests: { method: string; path: string; headers: IncomingMessage['headers']; body: string }[];
  unhandled: string[];
  /**
   * The next `n` requests answer 429 with `Retry-After: seconds` and `X-RateLimit-Reset` (ISO 8601 to the minute,
   * Atlassian's "yyyy-MM-ddTHH:mmZ"); `resetOnly` leaves Retry-After out, which Jira's docs say may happen.
   */
  rateLimitNext(n: number, seconds: number, opts?: { resetOnly?: boolean }): void;
  /** The next issue create succeeds in Jira, but the answer is lost (502), as when a proxy or the network fails. */
  loseNextCreateAnswer(): void;
  /** The next request matching `method` and `path` is carried out, but its answer is lost (502). */
  loseNextAnswer(method: string, path: RegExp): void;
  /**
   * JQL search sees an issue only `ms` after its creation (default 1500), as Jira's eventually consistent search
   * index does; an id named in `reconcileIssues` is seen at once.
   */
  indexLag(ms: number): void;
  /** An engineer's comment written in Jira (no portal property). */
  engineerComment(key: string, text: string, at?: Date): FakeComment;
  /** A comment by a service desk customer (UserDetails `accountType: 'customer'`), or by `accountType` given, with their e-mail shown. */
  customerComment(key: string, text: string, who: { email: string; displayName: string; accountType?: string }, at?: Date): FakeComment;
  /**
   * An engineer's internal note on the service desk (`jsdPublic: false`). Jira's platform API cannot create one (the
   * document sends you to the service desk API's "Create request comment" with `public: false`): a test places it.
   */
  internalNote(key: string, text: string, at?: Date): FakeComment;
  /** An engineer's comment restricted to a group or project role (`visibility`), as the platform API creates it. */
  restrictedComment(key: string, text: string, visibility: { type: 'group' | 'role'; value: string; identifier?: string }, at?: Date): FakeComment;
  /** An engineer moves the issue in Jira. */
  engineerSet(key: string, change: { status?: string; priority?: string; assignee?: string }, at?: Date): void;
  /** Makes `n` extra issues in the project (for pagination). */
  seedIssues(n: number): void;
  /**
   * getCommentsByIds answers at most `n` comments a call with `isLast: false` when more were asked, as a
   * PageBeanComment may (the default answers every id at once).
   */
  commentListPage(n: number): void;
  close(): Promise<void>;
}

const ENGINEER: FakeComment['author'] = { accountId: 'eng-1', displayName: 'Erin Engineer', accountType: 'atlassian' };

const isAdf = (v: unknown): v is AdfDoc => typeof v === 'object' && v !== null && (v as AdfDoc).type === 'doc' && (v as AdfDoc).version === 1 && Array.isArray((v as AdfDoc).content);

function parseMultipart(body: Buffer, contentType: string): { name: string; filename?: string; type?: string; data: Buffer }[] {
  const m = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  if (!m) return [];
  const boundary = Buffer.from(`--${m[1] ?? m[2]}`);
  const parts = [];
  let at = body.indexOf(boundary);
  while (at >= 0) {
    const next = body.indexOf(boundary, at + boundary.length);
    if (next < 0) break;
    const part = body.subarray(at + boundary.length + 2, next - 2);
    const split = part.indexOf('\r\n\r\n');
    const head = part.subarray(0, split).toString('utf8');
    const disposition = /content-disposition:\s*form-data;\s*name="([^"]*)"(?:;\s*filename="([^"]*)")?/i.exec(head);
    const type = /content-type:\s*([^\r\n]+)/i.exec(head);
    if (disposition) parts.push({ name: disposition[1], filename: disposition[2], type: type?.[1].trim(), data: part.subarray(split + 4) });
    at = next;
  }
  return parts;
}

export async function startFakeJira(opts: { email: string; apiToken: string; project: string; satisfactionField?: string }): Promise<FakeJira> {
  const issues = new Map<string, FakeIssue>();
  const requests: FakeJira['requests'] = [];
  const unhandled: string[] = [];
  let nextIssue = 10000;
  let nextComment = 20000;
  let nextAttachment = 30000;
  let limited = 0;
  let retryAfter = 1;
  let resetOnly = false;
  const lose: { method: string; path: RegExp }[] = [];
  let lagMs = 1500;
  let commentListMax = 1000;
  const indexedAt = new Map<string, number>();
  const auth = `Basic ${Buffer.from(`${opts.email}:${opts.apiToken}`).toString('base64')}`;
  let base = '';

  const spec = openApi('jira-platform.v3.json');
  /** The operation the current request is, for checking the answer. */
  let matched: MatchedOperation | null = null;
  const send = (res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) => {
    if (matched && status < 300) spec.response(matched, status, body);
    res.writeHead(status, { ...(body === undefined ? {} : { 'content-type': 'application/json;charset=UTF-8' }), ...headers });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };
  const errors = (res: ServerResponse, status: number, errorMessages: string[], errs: Record<string, string> = {}) => send(res, status, { errorMessages, errors: errs });

  const createIssue = (fields: Record<string, unknown>, at = new Date()): FakeIssue => {
    const id = String(nextIssue++);
    const key = `${opts.project}-${issues.size + 1}`;
    const issue: FakeIssue = {
      id,
      key,
      fields: {
        summary: String(fields.summary),
        description: (fields.description as AdfDoc) ?? null,
        status: { name: 'Open' },
        priority: { name: (fields.priority as { name?: string } | undefined)?.name ?? 'Medium' },
        labels: (fields.labels as string[]) ?? [],
        assignee: null,
        created: jiraTime(at),
        updated: jiraTime(at),
        issuetype: { name: (fields.issuetype as { name: string }).name },
        project: { key: opts.project },
      },
      comments: [],
      attachments: [],
    };
    issues.set(key, issue);
    return issue;
  };
  const touch = (issue: FakeIssue, at = new Date()) => {
    issue.fields.updated = jiraTime(at);
  };
  /** The current request's answer is to be lost (loseNextAnswer); read by the routes after they did their work. */
  let current = { method: '', path: '' };
  const lost = () => {
    const i = lose.findIndex((l) => l.method === current.method && l.path.test(current.path));
    if (i < 0) return false;
    lose.splice(i, 1);
    return true;
  };
  /** A comment written in Jira itself (no portal property). */
  const writtenInJira = (key: string, text: string, author: FakeComment['author'], at: Date, hidden: Pick<FakeComment, 'jsdPublic' | 'visibility'> = {}): FakeComment => {
    const issue = issues.get(key)!;
    const c: FakeComment = {
      id: String(nextComment++),
      body: { type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] },
      author,
      created: jiraTime(at),
      updated: jiraTime(at),
      properties: [],
      ...hidden,
    };
    issue.comments.push(c);
    touch(issue, at);
    return c;
  };
  const commentView = (issue: FakeIssue, c: FakeComment, withProperties: boolean) => ({
    self: `${base}/rest/api/3/issue/${issue.id}/comment/${c.id}`,
    id: c.id,
    author: c.author,
    body: c.body,
    created: c.created,
    updated: c.updated,
    jsdPublic: c.jsdPublic ?? true,
    ...(c.visibility ? { visibility: c.visibility } : {}),
    ...(withProperties ? { properties: c.properties } : {}),
  });

  const view = (issue: FakeIssue, fieldList: string[] | null) => {
    const all: Record<string, unknown> = {
      ...issue.fields,
      attachment: issue.attachments.map((a) => ({
        self: `${base}/rest/api/3/attachment/${a.id}`,
        id: a.id,
        filename: a.filename,
        mimeType: a.mimeType,
        size: a.size,
        created: a.created,
        content: `${base}/rest/api/3/attachment/content/${a.id}`,
        author: { accountId: 'portal', displayName: 'CommandCenter' },
      })),
    };
    // the enhanced search returns only `id` unless fields are asked for
    const wanted = fieldList === null ? [] : fieldList.includes('*all') || fieldList.includes('*navigable') ? Object.keys(all) : fieldList;
    const fields = Object.fromEntries(wanted.filter((f) => f in all).map((f) => [f, all[f]]));
    return { id: issue.id, key: issue.key, self: `${base}/rest/api/3/issue/${issue.id}`, fields };
  };

  /** The JQL the adapter sends: project, labels, updated >= "-Nm", ORDER BY updated. */
  const runJql = (jql: string): FakeIssue[] | string => {
    const [where, order] = jql.split(/\s+ORDER BY\s+/i);
    let list = [...issues.values()];
    for (const clause of where.split(/\s+AND\s+/i)) {
      let m: RegExpExecArray | null;
      if ((m = /^project\s*=\s*"?([^"]+)"?$/i.exec(clause.trim()))) {
        const p = m[1];
        list = list.filter(() => p === opts.project);
      } else if ((m = /^labels\s*=\s*"([^"]+)"$/i.exec(clause.trim()))) {
        const l = m[1];
        list = list.filter((i) => i.fields.labels.includes(l));
      } else if ((m = /^updated\s*>=\s*"-(\d+)m"$/i.exec(clause.trim()))) {
        const since = Date.now() - Number(m[1]) * 60_000;
        list = list.filter((i) => Date.parse(i.fields.updated.replace('+0000', 'Z')) >= since);
      } else return `Error in the JQL Query: unsupported clause '${clause}'`;
    }
    if (!/^project\s*=/i.test(where.trim())) return 'Unbounded JQL queries are not allowed here. Please add a search restriction to your query.';
    if (order && /updated/i.test(order)) list.sort((a, b) => a.fields.updated.localeCompare(b.fields.updated) || a.key.localeCompare(b.key, 'en', { numeric: true }));
    else list.sort((a, b) => a.key.localeCompare(b.key, 'en', { numeric: true }));
    return list;
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', 'http://fake');
      const path = url.pathname;
      const method = req.method ?? 'GET';
      current = { method, path };
      requests.push({ method, path: path + url.search, headers: req.headers, body: req.headers['content-type']?.startsWith('multipart/') ? '<multipart>' : raw.toString('utf8') });
      if (limited > 0) {
        limited--;
        const reset = new Date(Date.now() + retryAfter * 1000).toISOString().slice(0, 16) + 'Z';
        const headers: Record<string, string> = { 'x-ratelimit-reset': reset, ...(resetOnly ? {} : { 'retry-after': String(retryAfter) }) };
        return send(res, 429, { errorMessages: ['Rate limit exceeded.'], errors: {} }, headers);
      }
      if (req.headers.authorization !== auth) return errors(res, 401, ['Client must be authenticated to access this resource.']);
      const contentType = String(req.headers['content-type'] ?? '');
      matched = null;
      try {
        const parsed = raw.length && !contentType.startsWith('multipart/') ? (JSON.parse(raw.toString('utf8')) as unknown) : undefined;
        matched = spec.request(method, path, url.searchParams, parsed, contentType);
      } catch (err) {
        if (!(err instanceof SpecViolation)) throw err;
        return errors(res, 400, [err.message]);
      }
      const json = () => (raw.length ? JSON.parse(raw.toString('utf8')) : {});
      let m: RegExpExecArray | null;

      if (method === 'POST' && path === '/rest/api/3/issue') {
        const { fields } = json();
        const problems: Record<string, string> = {};
        if (fields?.project?.key !== opts.project) problems.project = 'valid project is required';
        if (!fields?.summary) problems.summary = 'You must specify a summary of the issue.';
        if (!fields?.issuetype?.name) problems.issuetype = 'Specify an issue type';
        if (fields?.description !== undefined && !isAdf(fields.description)) problems.description = 'Operation value must be an Atlassian Document.';
        if (fields?.priority && !PRIORITIES.includes(fields.priority.name)) problems.priority = `Specify the Priority (name) in the string format`;
        if (Object.keys(problems).length) return errors(res, 400, [], problems);
        const issue = createIssue(fields);
        indexedAt.set(issue.key, Date.now() + lagMs);
        if (lost()) return send(res, 502, undefined);
        return send(res, 201, { id: issue.id, key: issue.key, self: `${base}/rest/api/3/issue/${issue.id}` });
      }
      if (method === 'POST' && path === '/rest/api/3/search/jql') {
        const body = json();
        const unknown = Object.keys(body).filter((k) => !SEARCH_BODY_FIELDS.includes(k));
        if (unknown.length) return errors(res, 400, [`Unrecognized field "${unknown[0]}" (known: ${SEARCH_BODY_FIELDS.join(', ')})`]);
        const reconcile = body.reconcileIssues ?? [];
        // SearchAndReconcileRequestBean: reconcileIssues is an array of int64 issue ids, at most 50
        if (!Array.isArray(reconcile) || reconcile.some((id: unknown) => !Number.isInteger(id))) return errors(res, 400, [], { reconcileIssues: 'must be an array of issue ids (integers)' });
        if (reconcile.length > 50) return errors(res, 400, [], { reconcileIssues: 'at most 50 issues can be reconciled' });
        const matched = runJql(String(body.jql ?? ''));
        if (typeof matched === 'string') return errors(res, 400, [matched]);
        const found = matched.filter((i) => reconcile.includes(Number(i.id)) || (indexedAt.get(i.key) ?? 0) <= Date.now());
        const start = body.nextPageToken ? Number(Buffer.from(String(body.nextPageToken), 'base64url').toString()) : 0;
        const max = Math.min(Number(body.maxResults ?? 50), 5000);
        const page = found.slice(start, start + max);
        const isLast = start + max >= found.length;
        return send(res, 200, {
          issues: page.map((i) => view(i, Array.isArray(body.fields) ? body.fields : null)),
          ...(isLast ? {} : { nextPageToken: Buffer.from(String(start + max)).toString('base64url') }),
          isLast,
        });
      }
      if (method === 'POST' && path === '/rest/api/3/comment/list') {
        // getCommentsByIds: body {ids} (1..1000), expand renderedBody and/or properties; a PageBeanComment answer
        const refused = refuseParams(url, ['expand'], ['renderedBody', 'properties']);
        if (refused) return errors(res, 400, [refused]);
        const ids = json().ids;
        if (!Array.isArray(ids) || ids.length === 0 || ids.length > 1000 || ids.some((id: unknown) => !Number.isInteger(id))) {
          return errors(res, 400, ['The request contains more than 1000 IDs or is empty.']);
        }
        const withProperties = (url.searchParams.get('expand') ?? '').split(',').includes('properties');
        const values = [];
        for (const issue of issues.values()) for (const c of issue.comments) if (ids.includes(Number(c.id))) values.push(commentView(issue, c, withProperties));
        values.sort((a, b) => Number(a.id) - Number(b.id));
        const page = values.slice(0, commentListMax);
        return send(res, 200, { self: `${base}/rest/api/3/comment/list`, maxResults: commentListMax, startAt: 0, total: page.length, isLast: page.length === values.length, values: page });
      }
      if ((m = /^\/rest\/api\/3\/comment\/(\d+)\/properties\/([^/]+)$/.exec(path)) && method === 'GET') {
        const c = [...issues.values()].flatMap((i) => i.comments).find((x) => x.id === m![1]);
        if (!c) return errors(res, 404, ['The comment does not exist or you do not have permission to see it.']);
        const p = c.properties.find((x) => x.key === decodeURIComponent(m![2]));
        if (!p) return errors(res, 404, [`The property with key '${decodeURIComponent(m[2])}' does not exist.`]);
        return send(res, 200, { key: p.key, value: p.value });
      }
      if ((m = /^\/rest\/api\/3\/attachment\/(\d+)$/.exec(path)) && method === 'DELETE') {
        for (const issue of issues.values()) {
          const i = issue.attachments.findIndex((a) => a.id === m![1]);
          if (i >= 0) {
            issue.attachments.splice(i, 1);
            touch(issue);
            return send(res, 204);
          }
        }
        return errors(res, 404, ['The attachment with id does not exist']);
      }
      if ((m = /^\/rest\/api\/3\/issue\/([^/]+)(\/[a-z]+)?$/.exec(path))) {
        const issue = issues.get(decodeURIComponent(m[1])) ?? [...issues.values()].find((i) => i.id === m![1]);
        if (!issue) return errors(res, 404, ['Issue does not exist or you do not have permission to see it.']);
        const sub = m[2] ?? '';
        if (sub === '' && method === 'GET') {
          const f = url.searchParams.get('fields');
          return send(res, 200, view(issue, f ? f.split(',') : ['*all']));
        }
        if (sub === '' && method === 'PUT') {
          const { fields } = json();
          for (const [k, v] of Object.entries(fields ?? {})) {
            if (k === 'priority') {
              if (!PRIORITIES.includes((v as { name: string }).name)) return errors(res, 400, [], { priority: 'Specify the Priority (name) in the string format' });
              issue.fields.priority = { name: (v as { name: string }).name };
            } else if (k === opts.satisfactionField) {
              if (typeof v !== 'number') return errors(res, 400, [], { [k]: 'Operation value must be a number' });
              issue.fields[k] = v;
            } else return errors(res, 400, [], { [k]: `Field '${k}' cannot be set. It is not on the appropriate screen, or unknown.` });
          }
          touch(issue);
          return send(res, 204);
        }
        if (sub === '/comment' && method === 'GET') {
          // getComments: startAt, maxResults, orderBy, and expand accepting only renderedBody (no comment properties here)
          const refused = refuseParams(url, ['startAt', 'maxResults', 'orderBy', 'expand'], ['renderedBody']);
          if (refused) return errors(res, 400, [refused]);
          const startAt = Number(url.searchParams.get('startAt') ?? 0);
          const max = Math.min(Number(url.searchParams.get('maxResults') ?? 100), 100);
          const page = issue.comments.slice(startAt, startAt + max).map((c) => commentView(issue, c, false));
          return send(res, 200, { comments: page, startAt, maxResults: max, total: issue.comments.length });
        }
        if (sub === '/comment' && method === 'POST') {
          const body = json();
          if (!isAdf(body.body)) return errors(res, 400, [], { comment: 'Comment body can not be empty!' });
          const c: FakeComment = {
            id: String(nextComment++),
            body: body.body,
            author: { accountId: 'portal', displayName: 'CommandCenter' },
            created: jiraTime(),
            updated: jiraTime(),
            properties: body.properties ?? [],
            // kept as sent: a create asking for a restriction makes a comment the customer does not see
            ...(body.visibility ? { visibility: body.visibility } : {}),
          };
          issue.comments.push(c);
          touch(issue);
          if (lost()) return send(res, 502, undefined);
          return send(res, 201, commentView(issue, c, false));
        }
        if (sub === '/transitions' && method === 'GET') {
          const transitions = STATUSES.filter((s) => s !== issue.fields.status.name).map((s) => ({
            id: String(11 + STATUSES.indexOf(s) * 10),
            name: TRANSITION_NAMES[s],
            to: { self: `${base}/rest/api/3/status/${s}`, id: String(STATUSES.indexOf(s) + 1), name: s, statusCategory: { key: s === 'Closed' || s === 'Cancel' || s === 'Resolved' ? 'done' : 'indeterminate' } },
            hasScreen: false,
            isAvailable: true,
          }));
          return send(res, 200, { transitions });
        }
        if (sub === '/transitions' && method === 'POST') {
          const id = json().transition?.id;
          const to = STATUSES.find((s) => String(11 + STATUSES.indexOf(s) * 10) === String(id));
          if (!to || to === issue.fields.status.name) return errors(res, 400, [`Transition id '${id}' is not valid for this issue.`]);
          issue.fields.status = { name: to };
          touch(issue);
          return send(res, 204);
        }
        if (sub === '/attachments' && method === 'POST') {
          if (req.headers['x-atlassian-token'] !== 'no-check') return errors(res, 403, ['XSRF check failed']);
          const files = parseMultipart(raw, String(req.headers['content-type'] ?? '')).filter((p) => p.name === 'file' && p.filename);
          if (!files.length) return errors(res, 400, ['No file was attached']);
          const added = files.map((f) => {
            const a: FakeAttachment = { id: String(nextAttachment++), filename: f.filename!, mimeType: f.type ?? 'application/octet-stream', size: f.data.length, created: jiraTime(), content: Buffer.from(f.data) };
            issue.attachments.push(a);
            return a;
          });
          touch(issue);
          return send(
            res,
            200,
            added.map((a) => ({ self: `${base}/rest/api/3/attachment/${a.id}`, id: a.id, filename: a.filename, mimeType: a.mimeType, size: a.size, created: a.created, content: `${base}/rest/api/3/attachment/content/${a.id}` })),
          );
        }
      }
      unhandled.push(`${method} ${path}`);
      return errors(res, 404, [`fake Jira has no route ${method} ${path}`]);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    issues,
    requests,
    unhandled,
    rateLimitNext(n, seconds, opts = {}) {
      limited = n;
      retryAfter = seconds;
      resetOnly = opts.resetOnly ?? false;
    },
    indexLag(ms) {
      lagMs = ms;
    },
    loseNextCreateAnswer() {
      lose.push({ method: 'POST', path: /^\/rest\/api\/3\/issue$/ });
    },
    loseNextAnswer(method, path) {
      lose.push({ method, path });
    },
    engineerComment(key, text, at = new Date()) {
      return writtenInJira(key, text, ENGINEER, at);
    },
    customerComment(key, text, who, at = new Date()) {
      return writtenInJira(key, text, { accountId: `customer-${who.email}`, displayName: who.displayName, accountType: who.accountType ?? 'customer', emailAddress: who.email }, at);
    },
    internalNote(key, text, at = new Date()) {
      return writtenInJira(key, text, ENGINEER, at, { jsdPublic: false });
    },
    restrictedComment(key, text, visibility, at = new Date()) {
      return writtenInJira(key, text, ENGINEER, at, { visibility });
    },
    engineerSet(key, change, at = new Date()) {
      const issue = issues.get(key)!;
      if (change.status) issue.fields.status = { name: change.status };
      if (change.priority) issue.fields.priority = { name: change.priority };
      if (change.assignee) issue.fields.assignee = { accountId: 'eng-1', displayName: change.assignee };
      touch(issue, at);
    },
    seedIssues(n) {
      for (let i = 0; i < n; i++) {
        createIssue({ summary: `Seeded ${i}`, issuetype: { name: 'Task' }, labels: [] }, new Date(Date.now() - (n - i) * 1000));
      }
    },
    commentListPage(n) {
      commentListMax = n;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
