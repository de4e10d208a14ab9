import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/*
 * The import walls of docs/architecture.md ("Walls"), checked against the project's own ESLint config:
 * for each wall, a small source that breaks it, linted as if it were a file inside the walled folder,
 * must be reported, and one that keeps it must not. The files need not exist; what they import does
 * (the walls are decided on the resolved file).
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const WALL_RULES = new Set(['boundaries/dependencies', 'no-restricted-imports']);

interface Wall {
  name: string;
  /** Where the source is linted from, relative to the repository root. */
  file: string;
  breaks: string;
  keeps: string;
}

const SERVER_LAYERS = ['lib', 'db', 'geo', 'storage', 'capture', 'plugins'];

const WALLS: Wall[] = [
  {
    name: "a server module reaches another module only through that module's index.ts",
    file: 'server/modules/scheduler/wall-probe.ts',
    breaks: "import { MosquesService } from '../mosques/service';\nexport { MosquesService };",
    keeps: "import { MosquesService } from '../mosques';\nexport { MosquesService };",
  },
  {
    name: 'a server module re-exports no internals of another module either',
    file: 'server/modules/scheduler/wall-probe.ts',
    breaks: "export { MosquesRepository } from '../mosques/repository';",
    keeps: "export { MosquesRepository } from '../mosques';",
  },
  ...SERVER_LAYERS.map((layer) => ({
    name: `server/${layer} imports no module`,
    file: `server/${layer}/wall-probe.ts`,
    breaks: "import type { MosquesService } from '../modules/mosques';\nexport type { MosquesService };",
    keeps: "import type { Clock } from '../lib/clock';\nexport type { Clock };",
  })),
  {
    name: 'beneath the modules, the only file of server/ itself imported is its settings',
    file: 'server/capture/wall-probe.ts',
    breaks: "import { buildApp } from '../app';\nexport { buildApp };",
    keeps: "import type { Config } from '../config';\nexport type { Config };",
  },
  {
    name: 'the server never imports the console',
    file: 'server/lib/wall-probe.ts',
    breaks: "import { formatDateTime } from '../../src/lib/dates';\nexport { formatDateTime };",
    keeps: "import { systemClock } from './clock';\nexport { systemClock };",
  },
  {
    name: 'the server never loads node:http as an ES module',
    file: 'server/lib/wall-probe.ts',
    breaks: "import http from 'node:http';\nexport { http };",
    keeps: "import fs from 'node:fs';\nexport { fs };",
  },
  {
    name: 'product code never imports the test kit',
    file: 'server/modules/scheduler/wall-probe.ts',
    breaks: "import { ManualClock } from '../../../testkit/manual-clock';\nexport { ManualClock };",
    keeps: "import { systemClock } from '../../lib/clock';\nexport { systemClock };",
  },
  {
    name: 'contract/ imports no recorder file',
    file: 'contract/wall-probe.ts',
    breaks: "import type { RecorderState } from '../recorder/recorder-state';\nexport type { RecorderState };",
    keeps: "import { z } from 'zod';\nimport { envelope } from './common';\nexport { z, envelope };",
  },
  {
    name: 'contract/ imports no Node built-in',
    file: 'contract/wall-probe.ts',
    breaks: "import fs from 'node:fs';\nexport { fs };",
    keeps: "import { z } from 'zod';\nexport { z };",
  },
  {
    name: 'contract/ imports no package but zod',
    file: 'contract/wall-probe.ts',
    breaks: "import { formatISO } from 'date-fns';\nexport { formatISO };",
    keeps: "import { z } from 'zod';\nexport { z };",
  },
  {
    name: 'the recorder imports no package',
    file: 'recorder/wall-probe.ts',
    breaks: "import { z } from 'zod';\nexport { z };",
    keeps:
      "import fs from 'node:fs';\nimport type { RecorderState } from './recorder-state';\nexport { fs, type RecorderState };",
  },
  {
    name: 'the recorder imports nothing of the server',
    file: 'recorder/wall-probe.ts',
    breaks: "import type { Clock } from '../server/lib/clock';\nexport type { Clock };",
    keeps: "import type { RecorderState } from './recorder-state';\nexport type { RecorderState };",
  },
  {
    name: 'recorder/protocol.ts imports nothing, not even a sibling in recorder/',
    file: 'recorder/protocol.ts',
    breaks: "import { maskUrlSecrets } from './url-secrets';\nexport { maskUrlSecrets };",
    keeps: 'export const STATE_FORMAT_VERSION = 1;\nexport interface Probe {\n  version: number;\n}',
  },
  {
    name: 'src/components imports no API module',
    file: 'src/components/WallProbe.tsx',
    breaks: "import { apiErrorMessage } from '../api/client';\nexport { apiErrorMessage };",
    keeps: "import { formatDateTime } from '../lib/dates';\nexport { formatDateTime };",
  },
  {
    name: 'src/components uses no react-query',
    file: 'src/components/WallProbe.tsx',
    breaks: "import { useQuery } from '@tanstack/react-query';\nexport { useQuery };",
    keeps: "import Alert from '@mui/material/Alert';\nexport { Alert };",
  },
  {
    name: 'a feature never imports another feature',
    file: 'src/features/users/WallProbe.tsx',
    breaks: "import ConfigPage from '../mosques/ConfigPage';\nexport { ConfigPage };",
    keeps: "import { EmptyState } from '../../components/EmptyState';\nexport { EmptyState };",
  },
  {
    name: 'a feature never imports the mocks',
    file: 'src/features/users/WallProbe.tsx',
    breaks: "import { mock } from '../../mocks/endpoint';\nexport { mock };",
    keeps: "import { apiErrorMessage } from '../../api/client';\nexport { apiErrorMessage };",
  },
  {
    name: 'the console never imports the server',
    file: 'src/features/users/WallProbe.tsx',
    breaks: "import type { Clock } from '../../../server/lib/clock';\nexport type { Clock };",
    keeps: "import type { User } from '../../../contract/auth';\nexport type { User };",
  },
  {
    name: 'src/lib imports no API module',
    file: 'src/lib/wall-probe.ts',
    breaks: "import { apiErrorMessage } from '../api/client';\nexport { apiErrorMessage };",
    keeps: "import { formatDateTime } from './dates';\nexport { formatDateTime };",
  },
];

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

/** The wall messages ESLint reports for `code` linted as `file`; a parse error fails the test instead. */
async function wallMessages(code: string, file: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  const fatal = result.messages.find((message) => message.fatal);
  if (fatal) throw new Error(`${file} did not parse: ${fatal.message}`);
  return result.messages.filter((message) => WALL_RULES.has(message.ruleId ?? '')).map((message) => message.message);
}

describe('import walls', () => {
  it.each(WALLS)('$name', async ({ file, breaks, keeps }) => {
    expect(await wallMessages(breaks, file)).not.toEqual([]);
    expect(await wallMessages(keeps, file)).toEqual([]);
  });
});
