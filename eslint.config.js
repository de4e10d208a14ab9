import fs from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/*
 * Import walls. Each folder block repeats the walls of its parent folder: ESLint takes a rule's
 * options from the last block that matches a file, it does not merge them.
 */
const folders = (dir) =>
  fs
    .readdirSync(new URL(dir, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
const CONSOLE_WALL = { group: ['**/server/**'], message: 'The console may import contract/, never server/.' };
const SERVER_WALL = { group: ['**/src/**'], message: 'The server never imports the console.' };
/**
 * Imported as an ES module, node:http builds its module namespace by reading every export, and its
 * lazy WebSocket, CloseEvent and MessageEvent getters load undici: about 35 ms of every server start.
 */
const NO_ESM_HTTP = {
  group: ['node:http', 'http'],
  message:
    'Importing node:http as an ES module loads undici at start (~35 ms); Fastify already gives what a route needs.',
};
/** Plugins, capture and the database sit beneath the modules: a module may use them, never the other way round. */
const NO_MODULES = {
  group: ['**/modules/**'],
  message: 'server/plugins, server/capture, server/db and server/lib sit beneath the modules and import none of them.',
};
/** The recorder runs alone on a recorder's machine (one built file, or its sources copied into an image): Node and its own files only. */
const RECORDER_WALL = {
  regex: '^(?!node:|\\./)',
  message: 'The recorder imports only Node built-ins and its own files in recorder/.',
};
/** The console's mock server is for the demo and the tests: a feature that imported it would ship it. */
const NO_MOCKS = {
  regex: '^(\\.\\./)+mocks(/|$)',
  message: 'A feature never imports src/mocks: it talks to the API and the demo answers it.',
};
const others = (names, own) => names.filter((name) => name !== own).join('|');

/** A feature never imports another feature: what two features share lives in src/components, src/lib or contract/. */
const featureWalls = folders('./src/features').map((feature) => ({
  files: [`src/features/${feature}/**/*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          CONSOLE_WALL,
          NO_MOCKS,
          {
            regex: `^(\\.\\./)+(features/)?(${others(folders('./src/features'), feature)})(/|$)`,
            message: `The ${feature} feature may not import another feature; move what both need to src/components or src/lib.`,
          },
        ],
      },
    ],
  },
}));

/** A server module reaches another module through its service, never its repository. */
const moduleWalls = folders('./server/modules').map((module) => ({
  files: [`server/modules/${module}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          SERVER_WALL,
          NO_ESM_HTTP,
          {
            regex: `^(\\.\\./)+(modules/)?(${others(folders('./server/modules'), module)})/([a-z-]+-)?repository$`,
            message: `The ${module} module may not import another module's repository; use that module's service.`,
          },
        ],
      },
    ],
  },
}));

export default tseslint.config(
  { ignores: ['dist', 'build', 'node_modules', 'data', 'coverage', 'public/mockServiceWorker.js', 'bench/.work'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    // The rules that need types (promises not awaited, misused or awaited for nothing) run in oxlint on
    // TypeScript 7 (.oxlintrc.json, `npm run lint`): here they cost 80 s of CPU for a type program in TypeScript 6.
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'tests/unit/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // The console never reaches into the server's code, only into the shared contract.
      'no-restricted-imports': ['error', { patterns: [CONSOLE_WALL] }],
    },
  },
  {
    files: [
      'server/**/*.ts',
      'scripts/**/*.ts',
      'tests/server/**/*.ts',
      'tests/e2e/**/*.ts',
      'tests/faults/**/*.ts',
      'tests/support/**/*.ts',
      'testkit/**/*.ts',
      'bench/**/*.ts',
    ],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [SERVER_WALL, NO_ESM_HTTP] }],
    },
  },
  {
    files: ['server/plugins/**/*.ts', 'server/capture/**/*.ts', 'server/db/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [SERVER_WALL, NO_ESM_HTTP, NO_MODULES] }],
    },
  },
  {
    // The server imports some of the recorder's files (its state, ledger and guards), so they keep the server's start-up wall too.
    files: ['recorder/**/*.ts'],
    languageOptions: { globals: globals.node },
    rules: {
      'no-restricted-imports': ['error', { patterns: [RECORDER_WALL, NO_ESM_HTTP] }],
    },
  },
  {
    // The recorder's HTTP client and egress proxy run in the recorder's own process, never the server's:
    // a start there does not wait on undici, and fetch would refuse the ports its specification calls bad.
    files: ['recorder/hls-http.ts', 'recorder/egress-proxy.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [RECORDER_WALL] }],
    },
  },
  {
    // src/lib holds the console's plain helpers: the features and the API client build on them, not the reverse.
    files: ['src/lib/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            CONSOLE_WALL,
            {
              regex: '^(\\.\\./)+(features|api)(/|$)',
              message: 'src/lib imports no feature and no API module; move what it needs into src/lib.',
            },
          ],
        },
      ],
    },
  },
  ...featureWalls,
  ...moduleWalls,
  {
    files: ['server/lib/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [SERVER_WALL, NO_ESM_HTTP, NO_MODULES] }],
    },
  },
  {
    files: ['contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/server/**', '**/src/**'], message: 'The contract depends on nothing but zod.' }] },
      ],
    },
  },
  {
    files: ['**/*.js'],
    languageOptions: { globals: globals.node },
  },
);
