/**
 * An in-process fake of the Google APIs the provisioning chain calls, as their REST fallback sends them
 * (`?$alt=json;enum-encoding=int`): Resource Manager v3 projects and operations, Cloud Billing billingInfo,
 * Billing Budgets v1, Service Usage v1beta1 consumer overrides and operations, Cloud Quotas v1 preferences.
 * Long-running operations finish after `opPolls` looks. Errors are Google's `{error:{code,message,status}}`.
 * A request it does not know is answered 404 and recorded in `unexpected` (tests assert it stays empty).
 *
 * Every request is checked against Google's discovery documents (specs/cloudresourcemanager.v3.json,
 * cloudbilling.v1.json, billingbudgets.v1.json, serviceusage.v1beta1.json) and every 2xx answer against the
 * method's response schema; one the documents do not allow fails the test (discovery-validator.ts). Cloud Quotas,
 * whose discovery document is not stored, is checked against its proto files (specs/cloudquotas.v1,
 * proto-validator.ts). Like Google: a budget whose specifiedAmount.currencyCode is not the billing account's currency is
 * refused (in the Budgets document's words; the 400 INVALID_ARGUMENT is the fake's guess), and an operation can
 * be forgotten (`forgetOperations`), as Google deletes finished ones after some hours.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { discovery, SpecViolation, type DiscoveryValidator, type Matched } from './discovery-validator.ts';
import { cloudQuotasProto } from './proto-validator.ts';

export interface FakeProject {
  number: string;
  projectId: string;
  displayName: string;
  parent: string;
  labels: Record<string, string>;
  billingAccountName: string;
  bindings: { role: string; members: string[] }[];
  etag: number;
  /** Another organisation's project: it exists, but we may not read it. */
  foreign: boolean;
}

export interface FakeFault {
  method: string;
  /** Matched against the decoded path. */
  path: RegExp;
  /** An error answer, or 'lose': do the work, then drop the connection instead of answering. */
  answer: { http: number; status: string; message: string } | 'lose';
}

interface Op {
  polls: number;
  body: () => Record<string, unknown>;
}

const BQ_DEFAULT_MIB_PER_DAY = 200 * 1024 * 1024; // 200 TiB, the default for new projects since 2025

export async function startFakeGcpProvisioning(opts: { token?: string; opPolls?: number } = {}) {
  const token = opts.token ?? 'fake-token';
  let opPolls = opts.opPolls ?? 2;
  const projects = new Map<string, FakeProject>();
  const ops = new Map<string, Op>();
  const budgets = new Map<string, Record<string, unknown>[]>();
  const overrides = new Map<string, Record<string, unknown>[]>();
  const preferences = new Map<string, Record<string, unknown>>();
  const calls: string[] = [];
  const unexpected: string[] = [];
  const faults: FakeFault[] = [];
  let nextNumber = 100_000_000_001;
  /** Each billing account's currency (set when it was created at Google; EUR unless a test says otherwise). */
  const accountCurrencies = new Map<string, string>();
  const currencyOf = (account: string) => accountCurrencies.get(account) ?? 'EUR';
  const specs = ['cloudresourcemanager.v3.json', 'cloudbilling.v1.json', 'billingbudgets.v1.json', 'serviceusage.v1beta1.json'].map(discovery);

  const find = (idOrNumber: string) => projects.get(idOrNumber) ?? [...projects.values()].find((p) => p.number === idOrNumber);
  const projectJson = (p: FakeProject, ints: boolean) => ({
    name: `projects/${p.number}`, projectId: p.projectId, displayName: p.displayName, parent: p.parent, labels: p.labels,
    state: ints ? 1 : 'ACTIVE', etag: `W/"${p.etag}"`, createTime: '2026-01-01T00:00:00Z',
  });
  const policyJson = (p: FakeProject) => ({ version: 1, etag: Buffer.from(String(p.etag)).toString('base64'), bindings: p.bindings });
  const startOp = (prefix: string, body: () => Record<string, unknown>) => {
    const name = `operations/${prefix}.${randomUUID().slice(0, 8)}`;
    ops.set(name, { polls: 0, body });
    return { name, done: false };
  };

  function route(method: string, path: string, q: URLSearchParams, body: Record<string, unknown>, ints: boolean): [number, unknown] {
    const err = (http: number, status: string, message: string): [number, unknown] => [http, { error: { code: http, message, status } }];
    let m: RegExpMatchArray | null;
    if (method === 'POST' && path === '/v3/projects') {
      const id = String(body.projectId ?? '');
      if (projects.has(id)) return err(409, 'ALREADY_EXISTS', 'Requested entity already exists');
      const p: FakeProject = {
        number: String(nextNumber++), projectId: id, displayName: String(body.displayName ?? id), parent: String(body.parent ?? ''),
        labels: (body.labels as Record<string, string>) ?? {}, billingAccountName: '', etag: 1, foreign: false,
        bindings: [{ role: 'roles/owner', members: ['serviceAccount:provisioner@cc-admin.iam.gserviceaccount.com'] }],
      };
      projects.set(id, p);
      const meta = { '@type': 'type.googleapis.com/google.cloud.resourcemanager.v3.CreateProjectMetadata', createTime: '2026-01-01T00:00:00Z', gettable: true, ready: false };
      const op = startOp('cp', () => ({ metadata: { ...meta, ready: true }, response: { '@type': 'type.googleapis.com/google.cloud.resourcemanager.v3.Project', ...projectJson(p, false) } }));
      return [200, { ...op, metadata: meta }];
    }
    if (method === 'GET' && (m = path.match(/^\/(v3|v1beta1)\/(operations\/.+)$/))) {
      const op = ops.get(m[2]);
      if (!op) return err(404, 'NOT_FOUND', `Operation ${m[2]} not found`);
      op.polls++;
      return [200, op.polls >= opPolls ? { name: m[2], done: true, ...op.body() } : { name: m[2], done: false }];
    }
    if ((m = path.match(/^\/v3\/projects\/([^/:]+)(:getIamPolicy|:setIamPolicy)?$/))) {
      const p = find(m[1]);
      // Google answers 403, not 404, for a project that does not exist or that the caller may not see.
      if (!p || p.foreign) return err(403, 'PERMISSION_DENIED', `The caller does not have permission`);
      if (method === 'GET' && !m[2]) return [200, projectJson(p, ints)];
      if (method === 'PATCH' && !m[2]) {
        if (q.get('updateMask') !== 'labels') return err(400, 'INVALID_ARGUMENT', 'updateMask must be labels');
        p.labels = (body.labels as Record<string, string>) ?? {};
        p.etag++;
        return [200, startOp('up', () => ({ response: { '@type': 'type.googleapis.com/google.cloud.resourcemanager.v3.Project', ...projectJson(p, false) } }))];
      }
      if (method === 'POST' && m[2] === ':getIamPolicy') return [200, policyJson(p)];
      if (method === 'POST' && m[2] === ':setIamPolicy') {
        const policy = body.policy as { etag?: string; bindings?: FakeProject['bindings'] };
        if (policy.etag !== policyJson(p).etag) return err(409, 'ABORTED', 'There were concurrent policy changes');
        p.bindings = policy.bindings ?? [];
        p.etag++;
        return [200, policyJson(p)];
      }
    }
    if ((m = path.match(/^\/v1\/projects\/([^/]+)\/billingInfo$/)) && method === 'PUT') {
      const p = find(m[1]);
      if (!p || p.foreign) return err(403, 'PERMISSION_DENIED', 'The caller does not have permission');
      p.billingAccountName = String(body.billingAccountName ?? '');
      return [200, { name: `projects/${p.projectId}/billingInfo`, projectId: p.projectId, billingAccountName: p.billingAccountName, billingEnabled: p.billingAccountName !== '' }];
    }
    if (method === 'GET' && path === '/v3/projects:search') {
      // Only the `labels.KEY:VALUE` terms the product sends; any of them matches (the document's OR).
      const terms = (q.get('query') ?? '').split(/\s+/).filter(Boolean).map((t) => /^labels\.([^:]+):(.+)$/i.exec(t));
      if (terms.some((t) => !t)) return err(400, 'INVALID_ARGUMENT', `fake: only labels.KEY:VALUE terms are understood, got ${q.get('query')}`);
      const found = [...projects.values()].filter((p) => !p.foreign && terms.some((t) => p.labels[t![1]!.toLowerCase()]?.toLowerCase() === t![2]!.toLowerCase()));
      return [200, found.length ? { projects: found.map((p) => projectJson(p, ints)) } : {}];
    }
    if ((m = path.match(/^\/v1\/(billingAccounts\/[^/]+)$/)) && method === 'GET') {
      return [200, { name: m[1], open: true, displayName: 'Customer billing account', masterBillingAccount: '', currencyCode: currencyOf(m[1]!) }];
    }
    if ((m = path.match(/^\/v1\/(billingAccounts\/[^/]+)\/budgets$/))) {
      const list = budgets.get(m[1]) ?? [];
      if (method === 'GET') return [200, { budgets: list }];
      if (method === 'POST') {
        const money = (body.amount as { specifiedAmount?: { currencyCode?: string } } | undefined)?.specifiedAmount;
        if (money?.currencyCode && money.currencyCode !== currencyOf(m[1]!)) {
          try {
            discovery('billingbudgets.v1.json').refuseField('GoogleCloudBillingBudgetsV1BudgetAmount', 'specifiedAmount', money);
          } catch (e) {
            return err(400, 'INVALID_ARGUMENT', `${(e as Error).message} (the billing account's currency is ${currencyOf(m[1]!)})`);
          }
        }
        const b = { ...body, name: `${m[1]}/budgets/${randomUUID()}`, etag: randomUUID().slice(0, 8) };
        budgets.set(m[1], [...list, b]);
        return [200, b];
      }
    }
    if ((m = path.match(/^\/v1beta1\/(projects\/([^/]+)\/services\/[^/]+\/consumerQuotaMetrics\/[^/]+\/limits\/[^/]+)\/consumerOverrides$/)) && method === 'POST') {
      if (!find(m[2])) return err(403, 'PERMISSION_DENIED', 'The caller does not have permission');
      const list = overrides.get(m[1]) ?? [];
      if (list.length > 0) return err(409, 'ALREADY_EXISTS', 'COMMON_QUOTA_CONSUMER_OVERRIDE_ALREADY_EXISTS');
      const value = Number(body.overrideValue);
      if (value > BQ_DEFAULT_MIB_PER_DAY) return err(400, 'FAILED_PRECONDITION', 'A consumer override can only lower a limit');
      const o = { name: `${m[1]}/consumerOverrides/${randomUUID().slice(0, 8)}`, overrideValue: String(value), dimensions: body.dimensions ?? {} };
      overrides.set(m[1], [o]);
      const meta = { '@type': 'type.googleapis.com/google.api.serviceusage.v1beta1.OperationMetadata', resourceNames: [o.name] };
      return [200, startOp('su', () => ({ metadata: meta, response: { '@type': 'type.googleapis.com/google.api.serviceusage.v1beta1.QuotaOverride', ...o } }))];
    }
    if ((m = path.match(/^\/v1\/(projects\/([^/]+)\/locations\/global)\/quotaPreferences(?:\/([^/]+))?$/))) {
      if (!find(m[2])) return err(403, 'PERMISSION_DENIED', 'The caller does not have permission');
      if (method === 'POST' && !m[3]) {
        const name = `${m[1]}/quotaPreferences/${q.get('quotaPreferenceId')}`;
        if (preferences.has(name)) return err(409, 'ALREADY_EXISTS', 'Quota preference already exists');
        const config = body.quotaConfig as { preferredValue?: string };
        const pref = { ...body, name, etag: 'e1', reconciling: true, quotaConfig: { ...config, grantedValue: '24', traceId: 't1' } };
        preferences.set(name, pref);
        return [200, pref];
      }
      if (method === 'GET' && m[3]) {
        const pref = preferences.get(`${m[1]}/quotaPreferences/${m[3]}`);
        return pref ? [200, pref] : err(404, 'NOT_FOUND', 'Quota preference not found');
      }
    }
    unexpected.push(`${method} ${path}`);
    return err(404, 'NOT_FOUND', `The fake does not know ${method} ${path}`);
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    let raw = '';
    for await (const c of req) raw += c;
    const url = new URL(req.url ?? '/', 'http://fake');
    // Resource names carry URL-encoded parts (a quota metric such as bigquery.googleapis.com%2Fquota%2F…): decode each segment once.
    const path = url.pathname.split('/').map(decodeURIComponent).join('/');
    const method = req.method ?? 'GET';
    calls.push(`${method} ${path}`);
    const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify(body));
    if (req.headers.authorization !== `Bearer ${token}`) return send(401, { error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } });
    const i = faults.findIndex((f) => f.method === method && f.path.test(path));
    const fault = i >= 0 ? faults.splice(i, 1)[0] : null;
    if (fault && fault.answer !== 'lose') return send(fault.answer.http, { error: { code: fault.answer.http, message: fault.answer.message, status: fault.answer.status } });
    const ints = (url.searchParams.get('$alt') ?? '').includes('enum-encoding=int');
    const parsed = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
    let checked: { v: DiscoveryValidator; matched: Matched } | null = null;
    let checkAnswer: ((body: unknown) => void) | null = null;
    try {
      if (/\/quotaPreferences(\/|$)/.test(url.pathname)) {
        // Cloud Quotas: checked against its proto (no discovery document stored).
        const proto = cloudQuotasProto();
        const matched = proto.request(method, path, url.searchParams, parsed);
        checkAnswer = (body) => proto.response(matched, body);
      } else {
        const v = specs.find((x) => x.owns(url.pathname)) ?? specs[0]!;
        checked = { v, matched: v.request(method, url.pathname, url.searchParams, parsed) };
        checkAnswer = (body) => checked!.v.response(checked!.matched, body);
      }
    } catch (e) {
      if (!(e instanceof SpecViolation)) throw e;
      return send(400, { error: { code: 400, message: e.message, status: 'INVALID_ARGUMENT' } });
    }
    const [status, body] = route(method, path, url.searchParams, parsed ?? {}, ints);
    if (fault?.answer === 'lose') return void res.destroy();
    if (checkAnswer && status < 300) {
      try {
        checkAnswer(body);
      } catch (e) {
        return send(500, { error: { code: 500, message: `fake answered outside the document: ${(e as Error).message}`, status: 'INTERNAL' } });
      }
    }
    send(status, body);
  }

  const server = createServer((req, res) =>
    void handle(req, res).catch((e: Error) => {
      unexpected.push(`${req.method} ${req.url} threw ${e.message}`);
      if (!res.headersSent) res.writeHead(500).end();
    }),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    projects,
    budgets,
    overrides,
    preferences,
    calls,
    unexpected,
    /** The next request matching `method` and `path` gets `answer` instead of the normal one. */
    fail(method: string, path: RegExp, answer: FakeFault['answer']) {
      faults.push({ method, path, answer });
    },
    /** The currency a billing account was created in (`billingAccounts/…`). */
    setBillingAccountCurrency(account: string, currency: string) {
      accountCurrencies.set(account, currency);
    },
    /** Looks an operation needs before it is done, from now on. */
    setOpPolls(n: number) {
      opPolls = n;
    },
    /** Google deletes an operation some hours after it finished: every one known so far is gone. */
    forgetOperations() {
      ops.clear();
    },
    /** A project id already taken by someone else's project. */
    addForeignProject(projectId: string) {
      projects.set(projectId, { number: String(nextNumber++), projectId, displayName: projectId, parent: 'folders/999', labels: {}, billingAccountName: '', bindings: [], etag: 1, foreign: true });
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export type FakeGcpProvisioning = Awaited<ReturnType<typeof startFakeGcpProvisioning>>;
