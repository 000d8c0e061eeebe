/**
 * An in-process fake of Grafana's HTTP API (legacy /api, as served by Grafana 11 to 13), speaking its paths, JSON
 * bodies and status codes: organisations and their members, admin user creation (412 on a duplicate login), folders
 * (409) and their permissions, data sources (409 on a duplicate name or uid), dashboards (412 version-mismatch /
 * name-exists). Basic auth only; /api/admin/* and /api/orgs* need a server admin; X-Grafana-Org-Id selects the
 * organisation and must name one the caller belongs to.
 *
 * Every request is checked against Grafana's OpenAPI document (test/fakes/specs/grafana-http-api.json, the
 * operations the adapter calls): operation, path and query parameters, body fields, types and enums. Grafana's
 * server ignores body fields it does not know, so a misspelt field would be lost in silence: the fake refuses any
 * field the document does not name (`strict`). A request the document does not allow is answered 400 with the
 * document's words and recorded (spec-violations.ts: the test file fails). Every answer is checked against the
 * operation's schema for its status, with nothing but the document's fields and all of its required ones.
 *
 * Where the document is silent, the fake guesses (each marked [guess] below): the X-Grafana-Org-Id header itself
 * (no operation of the document lists it; Grafana's HTTP API pages say it selects the organisation) and the 403 for a
 * header naming an organisation the caller is not in; 404 from getOrgByName and getDataSourceByName and 409 from
 * addOrgUser (statuses the document does not list for them, though Grafana answers them); the 400 for a dashboard
 * saved into a folder that does not exist; and the wording of every error message.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpecViolation } from './discovery-validator.ts';
import { openApi, type MatchedOperation } from './openapi-validator.ts';

export interface FakeUser {
  id: number;
  login: string;
  email: string;
  name: string;
  password: string;
  isGrafanaAdmin: boolean;
  /** orgId → role */
  orgs: Map<number, string>;
}
export interface FakeFolder {
  id: number;
  uid: string;
  title: string;
  version: number;
  permissions: { userId?: number; teamId?: number; role?: string; permission: number }[];
}
export interface FakeDatasource {
  id: number;
  uid: string;
  name: string;
  type: string;
  access: string;
  isDefault: boolean;
  jsonData: Record<string, unknown>;
  secureJsonData: Record<string, string>;
}
export interface FakeDashboard {
  id: number;
  uid: string;
  title: string;
  folderUid: string;
  version: number;
  json: Record<string, unknown>;
}
export interface FakeOrg {
  id: number;
  name: string;
  folders: Map<string, FakeFolder>;
  datasources: Map<string, FakeDatasource>;
  dashboards: Map<string, FakeDashboard>;
}

export interface FakeGrafana {
  url: string;
  users: Map<number, FakeUser>;
  orgs: Map<number, FakeOrg>;
  requests: { method: string; path: string; headers: IncomingMessage['headers']; body: string; status: number }[];
  unhandled: string[];
  /** The next request matching `method path` (path without query) answers `status` with Grafana's error body. */
  failNext(method: string, path: string, status: number, message?: string): void;
  addUser(u: { login: string; password: string; email?: string; isGrafanaAdmin?: boolean }): FakeUser;
  addOrg(name: string): FakeOrg;
  orgByName(name: string): FakeOrg | undefined;
  userByLogin(login: string): FakeUser | undefined;
  close(): Promise<void>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export async function startFakeGrafana(opts: { adminUser: string; adminPassword: string }): Promise<FakeGrafana> {
  const users = new Map<number, FakeUser>();
  const orgs = new Map<number, FakeOrg>();
  const requests: FakeGrafana['requests'] = [];
  const unhandled: string[] = [];
  const failures: { method: string; path: string; status: number; message: string }[] = [];
  let nextId = 1;

  const addOrg = (name: string): FakeOrg => {
    const org: FakeOrg = { id: nextId++, name, folders: new Map(), datasources: new Map(), dashboards: new Map() };
    orgs.set(org.id, org);
    return org;
  };
  const addUser: FakeGrafana['addUser'] = (u) => {
    const user: FakeUser = { id: nextId++, login: u.login, email: u.email ?? u.login, name: u.login, password: u.password, isGrafanaAdmin: !!u.isGrafanaAdmin, orgs: new Map() };
    users.set(user.id, user);
    return user;
  };
  const userByLogin = (login: string) => [...users.values()].find((u) => u.login === login || u.email === login);
  const orgByName = (name: string) => [...orgs.values()].find((o) => o.name === name);

  const mainOrg = addOrg('Main Org.');
  addUser({ login: opts.adminUser, password: opts.adminPassword, email: 'admin@localhost', isGrafanaAdmin: true }).orgs.set(mainOrg.id, 'Admin');

  const authenticate = (req: IncomingMessage): FakeUser => {
    const m = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
    if (!m) throw new HttpError(401, 'Unauthorized');
    const [login, ...rest] = Buffer.from(m[1], 'base64').toString('utf8').split(':');
    const user = userByLogin(login);
    if (!user || user.password !== rest.join(':')) throw new HttpError(401, 'Invalid username or password');
    return user;
  };
  const orgOf = (req: IncomingMessage, user: FakeUser): FakeOrg => {
    // [guess] the header is in no operation of the document; Grafana's HTTP API pages say it selects the organisation
    const header = req.headers['x-grafana-org-id'];
    const id = header === undefined ? mainOrg.id : Number(header);
    // [guess] Grafana refuses a header naming an organisation the user is not in (status and message)
    if (!user.orgs.has(id)) throw new HttpError(403, 'User is not a member of the organization');
    return orgs.get(id)!;
  };
  const need = (cond: unknown, message: string) => {
    if (!cond) throw new HttpError(400, message);
  };

  type Handler = (ctx: { req: IncomingMessage; user: FakeUser; body: Record<string, unknown>; m: RegExpExecArray; query: URLSearchParams }) => [number, unknown];
  const routes: [string, RegExp, Handler][] = [
    ['GET', /^\/api\/orgs\/name\/([^/]+)$/, ({ m }) => {
      const org = orgByName(decodeURIComponent(m[1]));
      // [guess] the document lists no 404 here; Grafana answers it for an unknown name
      if (!org) throw new HttpError(404, 'Organization not found');
      return [200, { id: org.id, name: org.name, address: { address1: '', address2: '', city: '', zipCode: '', state: '', country: '' } }];
    }],
    ['POST', /^\/api\/orgs$/, ({ user, body }) => {
      need(typeof body.name === 'string' && body.name, 'bad request data');
      if (orgByName(body.name as string)) throw new HttpError(409, 'Organization name taken');
      const org = addOrg(body.name as string);
      user.orgs.set(org.id, 'Admin');
      return [200, { orgId: org.id, message: 'Organization created' }];
    }],
    ['POST', /^\/api\/orgs\/(\d+)\/users$/, ({ body, m }) => {
      const org = orgs.get(Number(m[1]));
      if (!org) throw new HttpError(404, 'Organization not found');
      const u = userByLogin(String(body.loginOrEmail));
      if (!u) throw new HttpError(404, 'User not found');
      // [guess] the document lists no 409 here; Grafana answers it for a member already there
      if (u.orgs.has(org.id)) throw new HttpError(409, 'User is already member of this organization');
      u.orgs.set(org.id, body.role as string);
      return [200, { message: 'User added to organization' }];
    }],
    ['POST', /^\/api\/admin\/users$/, ({ body }) => {
      need(typeof body.login === 'string' && body.login && typeof body.password === 'string' && body.password, 'bad request data');
      const email = (body.email as string) || (body.login as string);
      if (userByLogin(body.login as string) || userByLogin(email)) {
        throw new HttpError(412, `User with email '${body.email ?? ''}' or username '${body.login}' already exists`);
      }
      const orgId = body.orgId === undefined ? mainOrg.id : Number(body.orgId);
      if (!orgs.has(orgId)) throw new HttpError(404, 'Organization not found');
      const u = addUser({ login: body.login as string, password: body.password as string, email });
      u.name = (body.name as string) ?? u.login;
      u.orgs.set(orgId, 'Viewer');
      return [200, { id: u.id, message: 'User created' }];
    }],
    ['PUT', /^\/api\/admin\/users\/(\d+)\/password$/, ({ body, m }) => {
      const u = users.get(Number(m[1]));
      if (!u) throw new HttpError(404, 'user not found');
      need(typeof body.password === 'string' && body.password.length >= 4, 'New password is too short');
      u.password = body.password as string;
      return [200, { message: 'User password updated' }];
    }],
    ['GET', /^\/api\/users\/lookup$/, ({ query }) => {
      const u = userByLogin(query.get('loginOrEmail') ?? '');
      if (!u) throw new HttpError(404, 'user not found');
      return [200, { id: u.id, email: u.email, name: u.name, login: u.login, isGrafanaAdmin: u.isGrafanaAdmin, isDisabled: false }];
    }],
    ['POST', /^\/api\/folders$/, ({ req, user, body }) => {
      const org = orgOf(req, user);
      need(typeof body.title === 'string' && body.title, 'folder title cannot be empty');
      const uid = (body.uid as string) || `f${nextId}`;
      if (org.folders.has(uid)) throw new HttpError(409, 'a folder with the same uid already exists');
      if ([...org.folders.values()].some((f) => f.title === body.title)) throw new HttpError(409, 'a folder or dashboard in the general folder with the same name already exists');
      const f: FakeFolder = { id: nextId++, uid, title: body.title as string, version: 1, permissions: [{ role: 'Viewer', permission: 1 }, { role: 'Editor', permission: 2 }] };
      org.folders.set(uid, f);
      return [200, { id: f.id, uid, title: f.title, url: `/dashboards/f/${uid}/${f.title.toLowerCase().replace(/\W+/g, '-')}`, hasAcl: false, canSave: true, canEdit: true, canAdmin: true, version: 1 }];
    }],
    ['GET', /^\/api\/folders\/([^/]+)$/, ({ req, user, m }) => {
      const f = orgOf(req, user).folders.get(decodeURIComponent(m[1]));
      if (!f) throw new HttpError(404, 'folder not found');
      return [200, { id: f.id, uid: f.uid, title: f.title, url: `/dashboards/f/${f.uid}/`, version: f.version }];
    }],
    ['POST', /^\/api\/folders\/([^/]+)\/permissions$/, ({ req, user, body, m }) => {
      const f = orgOf(req, user).folders.get(decodeURIComponent(m[1]));
      if (!f) throw new HttpError(404, 'folder not found');
      const items = body.items as FakeFolder['permissions'];
      need(Array.isArray(items) && items.every((i) => [1, 2, 4].includes(i.permission) && (i.userId ?? i.teamId ?? i.role) !== undefined), 'bad request data');
      f.permissions = items;
      return [200, { message: 'Folder permissions updated' }];
    }],
    ['POST', /^\/api\/datasources$/, ({ req, user, body }) => {
      const org = orgOf(req, user);
      need(typeof body.name === 'string' && body.name && typeof body.type === 'string', 'bad request data');
      const all = [...org.datasources.values()];
      if (all.some((d) => d.name === body.name)) throw new HttpError(409, 'data source with the same name already exists');
      if (body.uid && org.datasources.has(body.uid as string)) throw new HttpError(409, 'data source with the same uid already exists');
      const d: FakeDatasource = {
        id: nextId++, uid: (body.uid as string) || `ds${nextId}`, name: body.name as string, type: body.type as string, access: (body.access as string) ?? 'proxy',
        isDefault: !!body.isDefault, jsonData: (body.jsonData as Record<string, unknown>) ?? {}, secureJsonData: (body.secureJsonData as Record<string, string>) ?? {},
      };
      org.datasources.set(d.uid, d);
      return [200, { datasource: publicDs(d, org), id: d.id, message: 'Datasource added', name: d.name }];
    }],
    ['GET', /^\/api\/datasources\/(uid|name)\/([^/]+)$/, ({ req, user, m }) => {
      const org = orgOf(req, user);
      const key = decodeURIComponent(m[2]);
      const d = m[1] === 'uid' ? org.datasources.get(key) : [...org.datasources.values()].find((x) => x.name === key);
      // [guess] the document lists no 404 for getDataSourceByName; Grafana answers it for an unknown name
      if (!d) throw new HttpError(404, 'Data source not found');
      return [200, publicDs(d, org)];
    }],
    ['PUT', /^\/api\/datasources\/uid\/([^/]+)$/, ({ req, user, body, m }) => {
      const org = orgOf(req, user);
      const d = org.datasources.get(decodeURIComponent(m[1]));
      if (!d) throw new HttpError(404, 'Data source not found');
      need(typeof body.name === 'string' && typeof body.type === 'string', 'bad request data');
      Object.assign(d, { name: body.name, type: body.type, access: body.access ?? d.access, isDefault: !!body.isDefault, jsonData: body.jsonData ?? {} });
      // secure fields are kept unless sent again, as Grafana does
      if (body.secureJsonData) d.secureJsonData = body.secureJsonData as Record<string, string>;
      return [200, { datasource: publicDs(d, org), id: d.id, message: 'Datasource updated', name: d.name }];
    }],
    ['POST', /^\/api\/dashboards\/db$/, ({ req, user, body }) => {
      const org = orgOf(req, user);
      const dash = body.dashboard as Record<string, unknown>;
      need(dash && typeof dash.title === 'string' && dash.title, 'Dashboard title cannot be empty');
      const folderUid = (body.folderUid as string) ?? '';
      // [guess] status and message for a folder that does not exist
      if (folderUid && !org.folders.has(folderUid)) throw new HttpError(400, 'folder not found');
      const uid = (dash.uid as string) || `d${nextId}`;
      const existing = org.dashboards.get(uid);
      const sameName = [...org.dashboards.values()].find((d) => d.uid !== uid && d.title === dash.title && d.folderUid === folderUid);
      if (sameName && !body.overwrite) throw new HttpError(412, 'A dashboard with the same name in the folder already exists', { status: 'name-exists' });
      if (sameName) org.dashboards.delete(sameName.uid);
      if (existing && !body.overwrite && ((dash.version as number | undefined) ?? 0) !== existing.version) {
        throw new HttpError(412, 'The dashboard has been changed by someone else', { status: 'version-mismatch' });
      }
      const version = (existing?.version ?? 0) + 1;
      const saved: FakeDashboard = { id: existing?.id ?? nextId++, uid, title: dash.title as string, folderUid, version, json: { ...dash, id: existing?.id, uid, version } };
      org.dashboards.set(uid, saved);
      const slug = saved.title.toLowerCase().replace(/\W+/g, '-');
      // The document names the answer's fields (title, not Grafana's older slug) and requires all but folderUid.
      return [200, { id: saved.id, uid, url: `/d/${uid}/${slug}`, status: 'success', version, title: saved.title, folderUid }];
    }],
    ['GET', /^\/api\/dashboards\/uid\/([^/]+)$/, ({ req, user, m }) => {
      const d = orgOf(req, user).dashboards.get(decodeURIComponent(m[1]));
      if (!d) throw new HttpError(404, 'Dashboard not found');
      return [200, { dashboard: d.json, meta: { url: `/d/${d.uid}/`, folderUid: d.folderUid, version: d.version, slug: '' } }];
    }],
  ];

  function publicDs(d: FakeDatasource, org: FakeOrg) {
    const { secureJsonData, ...rest } = d;
    return { ...rest, orgId: org.id, basicAuth: false, readOnly: false, secureJsonFields: Object.fromEntries(Object.keys(secureJsonData).map((k) => [k, true])) };
  }

  const spec = openApi('grafana-http-api.json', { strict: true });
  /** The operation the current request is, for checking the answer. */
  let matched: MatchedOperation | null = null;
  const send = (res: ServerResponse, status: number, body: unknown) => {
    // Errors the document does not list for the operation are the fake's guesses (above); the rest are checked.
    if (matched && (status < 300 || matched.operation.responses[String(status)])) spec.response(matched, status, body);
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://x');
    const method = req.method ?? 'GET';
    const record = { method, path: url.pathname + url.search, headers: req.headers, body: raw, status: 0 };
    requests.push(record);
    const reply = (status: number, body: unknown) => {
      record.status = status;
      send(res, status, body);
    };
    matched = null;
    try {
      const user = authenticate(req);
      let body: Record<string, unknown> = {};
      if (raw) {
        if (!String(req.headers['content-type']).startsWith('application/json')) throw new HttpError(415, 'Unsupported Media Type');
        body = JSON.parse(raw) as Record<string, unknown>;
      }
      // The document's paths are relative to its server, /api.
      try {
        matched = spec.request(method, url.pathname.replace(/^\/api(?=\/)/, ''), url.searchParams, raw ? body : undefined, String(req.headers['content-type'] ?? ''));
      } catch (err) {
        if (err instanceof SpecViolation) throw new HttpError(400, err.message);
        throw err;
      }
      const route = routes.find(([m, re]) => m === method && re.test(url.pathname));
      if (!route) {
        unhandled.push(`${method} ${url.pathname}`);
        throw new HttpError(404, 'Not found');
      }
      if (/^\/api\/(admin\/|orgs)/.test(url.pathname) && !user.isGrafanaAdmin) throw new HttpError(403, 'Permission denied');
      const failure = failures.findIndex((f) => f.method === method && f.path === url.pathname);
      if (failure >= 0) {
        const [f] = failures.splice(failure, 1);
        throw new HttpError(f.status, f.message);
      }
      const [status, out] = route[2]({ req, user, body, m: route[1].exec(url.pathname)!, query: url.searchParams });
      reply(status, out);
    } catch (err) {
      if (err instanceof HttpError) return reply(err.status, { message: err.message, ...err.extra });
      reply(500, { message: 'Internal Server Error' });
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    users,
    orgs,
    requests,
    unhandled,
    failNext(method, path, status, message = 'Internal Server Error') {
      failures.push({ method, path, status, message });
    },
    addUser,
    addOrg,
    orgByName,
    userByLogin,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
