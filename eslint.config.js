import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/*
 * The layers and the walls between them (docs/architecture.md, "Shape of the code" and "Walls").
 * Every folder of product code is an element; an import between elements is refused unless a policy
 * below allows it (a later policy overrides an earlier one). tests/, bench/ and scripts/ are no element:
 * they may import anything.
 */
const ELEMENTS = [
  { type: 'contract', pattern: 'contract' },
  { type: 'recorder', pattern: 'recorder' },
  { type: 'server-module', pattern: 'server/modules/*', capture: ['module'] },
  // lib, db, geo, storage, capture, plugins, and any folder added beside them.
  { type: 'server-base', pattern: 'server/*', capture: ['layer'] },
  // server/app.ts, main.ts, config.ts, context.ts: the files that build and start the server.
  { type: 'server-entry', pattern: 'server' },
  { type: 'feature', pattern: 'src/features/*', capture: ['feature'] },
  { type: 'components', pattern: 'src/components' },
  { type: 'widgets', pattern: 'src/widgets' },
  { type: 'api', pattern: 'src/api' },
  { type: 'console-lib', pattern: 'src/lib' },
  { type: 'mocks', pattern: 'src/mocks' },
  { type: 'console-shell', pattern: ['src/app', 'src/layout', 'src/auth', 'src/live', 'src/notifications'] },
  // src/main.tsx, and any folder of src/ not named above.
  { type: 'console-shell', pattern: 'src' },
  { type: 'testkit', pattern: 'testkit' },
].map((element) => ({ partialMatch: false, ...element }));

/** The product's folders, where the walls stand. */
const WALLED = ['contract/**/*.ts', 'recorder/**/*.ts', 'server/**/*.ts', 'src/**/*.{ts,tsx}', 'testkit/**/*.ts'];

const from = (...types) => ({ element: { types: { anyOf: types } } });
const to = (...types) => ({ to: { element: { types: { anyOf: types } } } });
const packages = (...sources) => ({ to: { module: { origin: 'external', source: sources } } });
const LOCAL = { to: { module: { origin: 'local' } } };
const EXTERNAL_OR_CORE = { to: { module: { origin: ['external', 'core'] } } };
/** Of the files that build the server, only its settings are beneath the modules. */
const SERVER_CONFIG = { to: { element: { type: 'server-entry' }, file: { path: 'server/config.ts' } } };
const BENEATH_MODULES = [to('server-base', 'contract', 'recorder'), SERVER_CONFIG];

/**
 * A layer's walls: a first policy refuses every import of the project's own files (with the message the
 * developer sees), and the next allows the layers it may use (the last matching policy wins).
 */
const layer = (type, message, allow) => [
  { from: from(type), disallow: LOCAL, message },
  { from: from(type), allow },
];

const CONTRACT_WALL = 'contract/ is shared by the server, the console and the mocks: it imports only zod and itself.';
const RECORDER_WALL = 'The recorder imports only Node built-ins and its own files in recorder/.';

const COMPONENTS_WALL =
  'src/components draws what it is given and fetches nothing: a shared piece that reads server or live state goes to src/widgets.';

const POLICIES = [
  { allow: EXTERNAL_OR_CORE },
  ...layer('contract', CONTRACT_WALL, to('contract')),
  { from: from('contract'), disallow: EXTERNAL_OR_CORE, message: CONTRACT_WALL },
  { from: from('contract'), allow: packages('zod') },
  // The recorder runs alone on a recorder's machine (one built file, or its sources copied into an image).
  ...layer('recorder', RECORDER_WALL, to('recorder')),
  { from: from('recorder'), disallow: { to: { module: { origin: 'external' } } }, message: RECORDER_WALL },
  {
    // Loaded only when a recording is delivered to S3 (the EC2 image installs the SDK beside the recorder).
    from: { ...from('recorder'), file: { path: 'recorder/recorder-delivery.ts' } },
    allow: { ...packages('@aws-sdk/client-s3', '@aws-sdk/lib-storage'), dependency: { nodeKind: 'dynamic-import' } },
  },
  ...layer(
    'server-base',
    'server/{{from.element.captured.layer}} sits beneath the modules: it imports no module, only server/lib, db, geo, storage, capture, plugins, server/config.ts, contract/ and recorder/.',
    BENEATH_MODULES,
  ),
  ...layer(
    'server-module',
    'The {{from.element.captured.module}} module imports another module only through its index.ts (`../<module>`), and nothing of src/ or testkit/.',
    [
      ...BENEATH_MODULES,
      { to: { element: { type: 'server-module', captured: { module: '{{from.element.captured.module}}' } } } },
      { to: { element: { type: 'server-module', fileInternalPath: 'index.ts' } } },
    ],
  ),
  ...layer('server-entry', 'The server never imports src/ or testkit/, and reaches a module through its index.ts.', [
    to('server-entry', 'server-base', 'contract', 'recorder'),
    { to: { element: { type: 'server-module', fileInternalPath: 'index.ts' } } },
  ]),
  ...layer(
    'console-lib',
    'src/lib holds plain helpers: it imports only contract/ and itself.',
    to('console-lib', 'contract'),
  ),
  ...layer('components', COMPONENTS_WALL, to('components', 'console-lib', 'contract')),
  { from: from('components'), disallow: packages('@tanstack/react-query', 'axios'), message: COMPONENTS_WALL },
  ...layer('api', 'src/api imports only src/lib, contract/ and itself.', to('api', 'console-lib', 'contract')),
  ...layer(
    'widgets',
    'src/widgets imports no feature, no mock and nothing of the server.',
    to('widgets', 'components', 'api', 'console-lib', 'console-shell', 'contract'),
  ),
  ...layer(
    'feature',
    'The {{from.element.captured.feature}} feature imports no other feature, no mock and nothing of the server: move what two features need to src/components, src/widgets or src/lib.',
    [
      to('components', 'widgets', 'api', 'console-lib', 'console-shell', 'contract'),
      { to: { element: { type: 'feature', captured: { feature: '{{from.element.captured.feature}}' } } } },
    ],
  ),
  ...layer(
    'mocks',
    'src/mocks imports only src/api, src/lib, contract/ and itself.',
    to('mocks', 'api', 'console-lib', 'contract'),
  ),
  ...layer(
    'console-shell',
    'The console never imports the server or testkit/.',
    to('console-shell', 'feature', 'components', 'widgets', 'api', 'console-lib', 'mocks', 'contract'),
  ),
  // What tests and benchmarks share; product code never imports it.
  ...layer('testkit', 'testkit/ imports the server, the recorder and contract/, never the console.', [
    to('testkit', 'server-module', 'server-entry', 'server-base', 'contract', 'recorder'),
  ]),
];

/**
 * Imported as an ES module, node:http builds its module namespace by reading every export, and its
 * lazy WebSocket, CloseEvent and MessageEvent getters load undici: about 35 ms of every server start.
 */
const NO_ESM_HTTP = {
  group: ['node:http', 'http'],
  message:
    'Importing node:http as an ES module loads undici at start (~35 ms); Fastify already gives what a route needs.',
};

export default tseslint.config(
  { ignores: ['dist', 'build', 'node_modules', 'data', 'coverage', 'public/mockServiceWorker.js', 'bench/.work'] },
  {
    // ESLint keeps only what oxlint cannot do: the walls between layers, the React Compiler's rules and the
    // import bans below. ESLint's and typescript-eslint's recommended rules, unused names, type-only imports
    // and the rules that need types run in oxlint (.oxlintrc.json, `npm run lint`), natively: here they
    // cost half of ESLint's 43 CPU-s, most of it parsing tests, benchmarks and scripts no rule below reads.
    files: WALLED,
    languageOptions: { parser: tseslint.parser },
  },
  {
    files: WALLED,
    plugins: { boundaries },
    settings: {
      'boundaries/elements': ELEMENTS,
      'boundaries/elements-single-match': true,
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] } },
    },
    rules: {
      'boundaries/dependencies': ['error', { default: 'disallow', checkAllOrigins: true, policies: POLICIES }],
    },
  },
  {
    // The console's code, which the React Compiler reads; the component tests get the rules of hooks in oxlint.
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // The server imports some of the recorder's files (its state, ledger and guards), so they keep the server's start-up wall too.
    files: ['server/**/*.ts', 'recorder/**/*.ts'],
    ignores: ['recorder/hls-http.ts', 'recorder/egress-proxy.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [NO_ESM_HTTP] }],
    },
  },
  {
    // What the server and a recorder exchange (docs/architecture.md, "Recorder protocol"). A sibling in
    // the same folder is no dependency between elements for the walls above, so this rule says it.
    files: ['recorder/protocol.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '.*',
              message:
                'recorder/protocol.ts is what the server and a recorder exchange: it imports nothing, so either side reads it without the other.',
            },
          ],
        },
      ],
    },
  },
);
