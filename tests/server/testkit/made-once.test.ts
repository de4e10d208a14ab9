import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { madeOnce } from '../../../testkit/made-once';

const MADE_ONCE = path.resolve('testkit/made-once.ts');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'made-once-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A test process of its own asking for the fixture: its making notes itself in `log`, takes a while, then writes it. */
function askInAnotherProcess(target: string, log: string): Promise<number | null> {
  const make = ['sh', '-c', 'echo making >> "$0"; sleep 0.5; echo whole > "$1"', log];
  const script = `import { madeOnce } from ${JSON.stringify(MADE_ONCE)};
madeOnce(${JSON.stringify(target)}, 'the fixture', (partial) => [...${JSON.stringify(make)}, partial]);`;
  // Node 22 runs the TypeScript module as it is (its types stripped).
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'ignore' });
  return new Promise((resolve) => child.once('exit', resolve));
}

describe('a fixture made once per machine', () => {
  it('is made by one of the processes that ask for it at the same moment; the others find it whole', async () => {
    const target = path.join(dir, 'fixture.txt');
    const log = path.join(dir, 'makings.log');
    const exits = await Promise.all([1, 2, 3].map(() => askInAnotherProcess(target, log)));
    expect(exits).toEqual([0, 0, 0]);
    expect(fs.readFileSync(log, 'utf8')).toBe('making\n');
    expect(fs.readFileSync(target, 'utf8')).toBe('whole\n');
    expect(fs.readdirSync(dir).filter((name) => name.endsWith('.partial'))).toEqual([]);
  });

  it('says what could not be made, with the command’s error, and leaves nothing behind as made', () => {
    const target = path.join(dir, 'broken.txt');
    expect(() => madeOnce(target, 'the broken fixture', () => ['sh', '-c', 'echo no such codec >&2; exit 1'])).toThrow(
      /could not make the broken fixture: no such codec/,
    );
    expect(fs.existsSync(target)).toBe(false);
  });
});
