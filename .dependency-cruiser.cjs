/**
 * Import rules of the repository, checked by `make deps` (part of `make check`). docs/ARCHITECTURE.md explains
 * the layers; docs/decisions.md ("Import rules") why infra may use the apps only through their front doors.
 * @type {import('dependency-cruiser').IConfiguration}
 */

/** What infra/ (scripts, the cc CLI) may import of the apps: the modules an app offers for use from outside. */
const PUBLIC_ENTRY_POINTS = [
  '^api/src/app[.]ts$', // buildApp
  '^workers/src/worker-host[.]ts$', // startWorkers
  '^workers/src/handlers[.]ts$', // buildHandlers
  '^workers/src/[^/]+/index[.]ts$', // each workers module's front door, e.g. billing-ingest/index.ts (ingest, CLI, demo sources)
];

/** Client libraries of external systems: only their adapters (shared/src/adapters/<system>/) import them. */
const VENDOR_CLIENTS = '(^|/)node_modules/(@types/)?(googleapis|@googleapis/[^/]+|@google-cloud/[^/]+|google-auth-library|@aws-sdk/[^/]+|@azure/[^/]+|nodemailer|smtp-server|mailparser)/';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import circle in api, workers or shared: modules that load each other half-initialised. Break it by moving the shared part down.',
      severity: 'error',
      from: { path: '^(api|workers|shared)/' },
      to: { circular: true },
    },
    {
      name: 'no-circular-via-route-table',
      comment: 'web/src/app/routes.ts lazy-loads the pages; a page importing the route table back closes a circle. Put what pages need in a module the table does not import.',
      severity: 'error',
      from: { path: '^web/src/' },
      to: { circular: true, via: { path: '^web/src/app/routes[.]ts$' } },
    },
    {
      name: 'shared-imports-no-app',
      comment: 'shared/ is used by every app and must not depend on any of them.',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: '^(api|workers|web|infra)/' },
    },
    {
      name: 'web-imports-no-server',
      comment: 'The browser bundle may use shared/ but never the api or the workers.',
      severity: 'error',
      from: { path: '^web/' },
      to: { path: '^(api|workers)/' },
    },
    {
      name: 'api-imports-no-workers',
      comment: 'The api reaches the workers only through queues (shared/src/queues.ts).',
      severity: 'error',
      from: { path: '^api/' },
      to: { path: '^workers/' },
    },
    {
      name: 'workers-import-no-api',
      comment: 'The workers never need the HTTP server; what both use belongs in shared/.',
      severity: 'error',
      from: { path: '^workers/' },
      to: { path: '^api/' },
    },
    {
      name: 'auth-imports-no-billing',
      comment:
        'Authentication and the access cache admit callers of every route and must not depend on one area: what they share with the billing chart cache (the access check read in its lookup) lives in shared/src/access-check.ts.',
      severity: 'error',
      from: { path: '^api/src/plugins/app/(auth|access)[^/]*$' },
      to: { path: '^shared/src/billing/' },
    },
    {
      name: 'route-imports-no-route',
      comment:
        'A route file registers routes and calls logic; what two routes share lives in api/src/<area>/, never in another route file. Only an area\'s index.ts composes the route files of its own folder.',
      severity: 'error',
      from: { path: '^api/src/routes/', pathNot: '^api/src/routes/[^/]+/index[.]ts$' },
      to: { path: '^api/src/routes/' },
    },
    {
      name: 'route-index-composes-own-area',
      comment: 'An area\'s index.ts registers the route files of its own folder; another area\'s are registered by app.ts.',
      severity: 'error',
      from: { path: '^api/src/routes/([^/]+)/index[.]ts$' },
      to: { path: '^api/src/routes/', pathNot: '^api/src/routes/$1/' },
    },
    {
      name: 'routes-loaded-only-by-app',
      comment: 'Nothing outside api/src/routes uses a route file except app.ts, which registers them: logic a route calls lives in api/src/<area>/.',
      severity: 'error',
      from: { path: '^(api|workers|shared|web|infra)/', pathNot: '^(api/src/routes/|api/src/app[.]ts$)' },
      to: { path: '^api/src/routes/' },
    },
    {
      name: 'vendor-clients-only-in-adapters',
      comment:
        'A client library of an external system (Google, AWS, Azure, SMTP) is used only by that system\'s adapter in shared/src/adapters/<system>/; the rest of the code sees the port (shared/src/ports/) and gets the adapter from its from-config.ts.',
      severity: 'error',
      from: { path: '^(api|workers|shared|web|infra)/', pathNot: '^shared/src/adapters/' },
      to: { path: VENDOR_CLIENTS },
    },
    {
      name: 'adapters-through-from-config',
      comment:
        'Outside its own folder an adapter is reached through its from-config.ts (the one place a setting picks local or real) and the port\'s types; its local/real files are imported directly only by their own folder and by tests.',
      severity: 'error',
      from: { path: '^(api|workers|shared|web|infra)/', pathNot: ['^shared/src/adapters/', '[.]test[.]ts$'] },
      to: { path: '^shared/src/adapters/[^/]+/', pathNot: '/from-config[.]ts$' },
    },
    {
      name: 'no-loose-adapter-files',
      comment:
        'Every adapter lives in its system\'s folder, shared/src/adapters/<system>/ (local, real, from-config, and what its providers share): a file loose in shared/src/adapters/ belongs to no system, so nothing may import it and it may import nothing.',
      severity: 'error',
      from: {},
      to: { path: '^shared/src/adapters/[^/]+$' },
    },
    {
      name: 'no-loose-adapter-files-importing',
      comment: 'See no-loose-adapter-files: a file directly in shared/src/adapters/ goes into its system\'s folder.',
      severity: 'error',
      from: { path: '^shared/src/adapters/[^/]+$' },
      to: {},
    },
    {
      name: 'adapter-reaches-other-adapters-through-from-config',
      comment: 'One adapter uses another system the way the rest of the code does: through that system\'s from-config.ts.',
      severity: 'error',
      from: { path: '^shared/src/adapters/([^/]+)/', pathNot: '[.]test[.]ts$' },
      to: { path: '^shared/src/adapters/[^/]+/', pathNot: ['^shared/src/adapters/$1/', '/from-config[.]ts$'] },
    },
    {
      name: 'infra-uses-public-entry-points',
      comment: `infra/ may use an app only through its public entry points: ${PUBLIC_ENTRY_POINTS.join(' ')}`,
      severity: 'error',
      from: { path: '^infra/' },
      to: { path: '^(api|workers)/', pathNot: PUBLIC_ENTRY_POINTS },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // node_modules is not followed but stays in the graph: vendor-clients-only-in-adapters needs to see who imports a client.
    exclude: { path: '^(api|workers|shared|web|infra)/dist/' },
    // Type-only imports count too: they load nothing at run time, but they tie the modules together all the
    // same (a change to one re-checks the other, and a reader follows them both ways).
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    // Workspace packages (@cc/shared) are symlinks; their real path is what the rules name.
    preserveSymlinks: false,
    combinedDependencies: false,
    cache: { folder: 'node_modules/.cache/dependency-cruiser', strategy: 'content' },
    progress: { type: 'none' },
  },
};
