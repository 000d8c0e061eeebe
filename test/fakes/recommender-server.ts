/**
 * An in-process fake of Recommender v1, speaking its REST wire format: recommendations.list
 * (GET /v1/projects/{p}/locations/{l}/recommenders/{r}/recommendations) with paging, and the state changes
 * recommendations.get, and POST /v1/{name}:markClaimed | :markSucceeded | :markFailed with `etag` and `stateMetadata`.
 * Requests and answers are checked against Google's discovery document (specs/recommender.v1.json). The states
 * each change applies to are the document's (ACTIVE, CLAIMED, SUCCEEDED, FAILED; never DISMISSED). The document
 * does not say how a stale etag is refused: the fake answers 400 FAILED_PRECONDITION, which is a guess.
 * Enums are numbers when the client asks `$alt=json;enum-encoding=int`, as the gax REST fallback does.
 * A daily read quota answers 429 RESOURCE_EXHAUSTED once spent, as the free tier does (100 reads a day).
 * https://cloud.google.com/recommender/docs/reference/rest/v1/projects.locations.recommenders.recommendations
 */
import { createHash } from 'node:crypto';
import { googleError, startGoogleFake, wantsIntEnums, type GoogleFake, type Route } from './google-rest.ts';

export interface FakeRecommendation {
  name: string;
  description: string;
  recommenderSubtype: string;
  priority: 'P1' | 'P2' | 'P3' | 'P4';
  category: 'COST' | 'SECURITY' | 'PERFORMANCE';
  /** Money as the API carries it: `units` a string, `nanos` with the same sign. */
  cost?: { currencyCode: string; units: string; nanos: number };
  state: 'ACTIVE' | 'CLAIMED' | 'SUCCEEDED' | 'FAILED' | 'DISMISSED';
  stateMetadata: Record<string, string>;
  targetResources: string[];
  etag: string;
}

export interface FakeRecommender extends GoogleFake {
  /** Keyed by parent `projects/{id}/locations/{loc}/recommenders/{recommender}`. */
  recommendations: Map<string, FakeRecommendation[]>;
  /** Reads left today; each list call costs one. */
  readsLeft: number;
  /** The state changes received, in order. */
  marks: { verb: 'markClaimed' | 'markSucceeded' | 'markFailed'; name: string; etag: string; stateMetadata: unknown }[];
  pageSize: number;
  /** Google changed the recommendation (a refresh): its etag is new, so an etag read before is stale. */
  refresh(name: string): void;
}

const STATE_NUMBERS = { ACTIVE: 1, CLAIMED: 6, SUCCEEDED: 3, FAILED: 4, DISMISSED: 5 };
const CATEGORY_NUMBERS = { COST: 1, SECURITY: 2, PERFORMANCE: 3 };
const PRIORITY_NUMBERS = { P4: 1, P3: 2, P2: 3, P1: 4 };
const KEY = /^[a-z0-9][a-z0-9_.-]{0,62}$/;
const VALUE = /^[a-zA-Z0-9_./-]{0,255}$/;

let refreshes = 0;
const etagFor = (r: Pick<FakeRecommendation, 'name' | 'state' | 'stateMetadata'>) =>
  `"${createHash('sha1').update(JSON.stringify([r.name, r.state, r.stateMetadata, refreshes])).digest('hex').slice(0, 16)}"`;
const VERB_STATE = { markClaimed: 'CLAIMED', markSucceeded: 'SUCCEEDED', markFailed: 'FAILED' } as const;

export function fakeRecommendation(parent: string, id: string, o: Omit<FakeRecommendation, 'name' | 'etag' | 'state' | 'stateMetadata'> & { projectNumber: string }): FakeRecommendation {
  // Recommender names the project by number, whatever the caller's parent named it by.
  const name = `${parent.replace(/^projects\/[^/]+/, `projects/${o.projectNumber}`)}/recommendations/${id}`;
  const { projectNumber: _n, ...rest } = o;
  const r = { ...rest, name, state: 'ACTIVE' as const, stateMetadata: {} };
  return { ...r, etag: etagFor(r) };
}

function wire(r: FakeRecommendation, ints: boolean) {
  return {
    name: r.name,
    description: r.description,
    recommenderSubtype: r.recommenderSubtype,
    lastRefreshTime: '2026-01-05T06:00:00Z',
    priority: ints ? PRIORITY_NUMBERS[r.priority] : r.priority,
    primaryImpact: {
      category: ints ? CATEGORY_NUMBERS[r.category] : r.category,
      ...(r.cost ? { costProjection: { cost: r.cost, duration: '2592000s' } } : {}),
    },
    stateInfo: { state: ints ? STATE_NUMBERS[r.state] : r.state, ...(Object.keys(r.stateMetadata).length ? { stateMetadata: r.stateMetadata } : {}) },
    etag: r.etag,
    targetResources: r.targetResources,
    content: {
      overview: { resourceName: r.targetResources[0] },
      operationGroups: [{ operations: [{ action: 'replace', resourceType: 'compute.googleapis.com/Instance', resource: r.targetResources[0], path: '/machineType', value: 'e2-small' }] }],
    },
  };
}

export async function startFakeRecommender(opts: { token?: string; readsPerDay?: number } = {}): Promise<FakeRecommender> {
  const recommendations = new Map<string, FakeRecommendation[]>();
  const marks: FakeRecommender['marks'] = [];

  const list: Route = (req, send) => {
    const m = /^\/v1\/(projects\/[^/]+\/locations\/[^/]+\/recommenders\/[^/]+)\/recommendations$/.exec(req.path);
    if (req.method !== 'GET' || !m) return false;
    if (fake.readsLeft <= 0) {
      send(429, googleError(429, "Quota exceeded for quota metric 'Read requests per day' of service 'recommender.googleapis.com'."));
      return true;
    }
    fake.readsLeft--;
    const all = recommendations.get(m[1]!) ?? [];
    const pageSize = Math.min(Number(req.query.get('pageSize') || fake.pageSize), fake.pageSize);
    const offset = Number(req.query.get('pageToken') || 0);
    const page = all.slice(offset, offset + pageSize);
    const ints = wantsIntEnums(req.query);
    send(200, { ...(page.length ? { recommendations: page.map((r) => wire(r, ints)) } : {}), ...(offset + pageSize < all.length ? { nextPageToken: String(offset + pageSize) } : {}) });
    return true;
  };

  const get: Route = (req, send) => {
    const m = /^\/v1\/(projects\/[^/]+\/locations\/[^/]+\/recommenders\/[^/]+\/recommendations\/[^/:]+)$/.exec(req.path);
    if (req.method !== 'GET' || !m) return false;
    const r = [...recommendations.values()].flat().find((x) => x.name === m[1]);
    if (!r) send(404, googleError(404, `Recommendation ${m[1]} not found.`));
    else send(200, wire(r, wantsIntEnums(req.query)));
    return true;
  };

  const mark: Route = (req, send) => {
    const m = /^\/v1\/(projects\/.+\/recommendations\/[^/:]+):(markClaimed|markSucceeded|markFailed)$/.exec(req.path);
    if (req.method !== 'POST' || !m) return false;
    const verb = m[2] as keyof typeof VERB_STATE;
    const body = req.body ?? {};
    marks.push({ verb, name: m[1]!, etag: String(body.etag), stateMetadata: body.stateMetadata });
    const r = [...recommendations.values()].flat().find((x) => x.name === m[1]);
    if (!r) {
      send(404, googleError(404, `Recommendation ${m[1]} not found.`));
      return true;
    }
    const metadata = (body.stateMetadata ?? {}) as Record<string, string>;
    if (!body.etag) send(400, googleError(400, 'etag is required.'));
    else if (body.etag !== r.etag) send(400, googleError(400, 'Etag does not match the current recommendation.', 'FAILED_PRECONDITION'));
    else if (!Object.entries(metadata).every(([k, v]) => KEY.test(k) && VALUE.test(v))) send(400, googleError(400, 'Invalid state_metadata.'));
    else if (r.state === 'DISMISSED') send(400, googleError(400, `Cannot mark ${r.state} recommendation as ${VERB_STATE[verb]}.`, 'FAILED_PRECONDITION'));
    else {
      r.state = VERB_STATE[verb];
      r.stateMetadata = metadata;
      r.etag = etagFor(r);
      send(200, wire(r, wantsIntEnums(req.query)));
    }
    return true;
  };

  const fake: FakeRecommender = Object.assign(await startGoogleFake('recommender.googleapis.com', [list, get, mark], { ...opts, specs: ['recommender.v1.json'] }), {
    recommendations,
    readsLeft: opts.readsPerDay ?? 100,
    marks,
    pageSize: 500,
    refresh(name: string) {
      const r = [...recommendations.values()].flat().find((x) => x.name === name)!;
      refreshes++;
      r.etag = etagFor(r);
    },
  });
  return fake;
}
