import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCaptureDriver } from '../../../server/capture';
import { loadConfig } from '../../../server/config';
import { systemClock } from '../../../server/lib/clock';
import { configProblems } from '../helpers/config-problems';

/** SERVER_HOST_NAME: the machine as servers sharing a database tell machines apart; it names local recorders' scope. */
describe('SERVER_HOST_NAME', () => {
  const dataDir = path.join(os.tmpdir(), 'capture-host-name');

  it("names the local recorders' scope, the hostname by default", () => {
    const named = loadConfig({ DATA_DIR: dataDir, SERVER_HOST_NAME: 'host-a' });
    expect(named.hostName).toBe('host-a');
    expect(createCaptureDriver(named, systemClock).scope).toBe(`local:host-a:${dataDir}`);
    const unnamed = loadConfig({ DATA_DIR: dataDir, SERVER_HOST_NAME: '' });
    expect(unnamed.hostName).toBe(os.hostname());
    expect(createCaptureDriver(unnamed, systemClock).scope).toBe(`local:${os.hostname()}:${dataDir}`);
  });

  it('refuses a name that is no host name (a colon would split the scope wrongly)', () => {
    expect(configProblems({ SERVER_HOST_NAME: 'host:a' })).toEqual([
      'SERVER_HOST_NAME: SERVER_HOST_NAME must be a host name: letters, digits, ".", "_" and "-", at most 253 characters',
    ]);
    expect(configProblems({ SERVER_HOST_NAME: '-a' })).toHaveLength(1);
  });
});
