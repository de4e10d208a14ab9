import fs from 'node:fs';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  disposeFixture,
  expectRefused,
  expectStillServing,
  hostileFixture,
  snapshot,
  type HostileFixture,
  type Snapshot,
} from './hostile-support';

const SQL = "' OR 1=1 --";
const enc = encodeURIComponent;
/** `../../etc/passwd` spelled as a client would smuggle it into one path segment. */
/** Refused by an id's pattern (400) or simply unknown (404): either way, nothing is read or touched. */
const REFUSED_OR_UNKNOWN = [400, 404];
const INVALID_OR_NOT_FOUND =
  /^(Path parameters are invalid|Request body is invalid|Query string is invalid): |not found$/;
const TRAVERSALS = [
  enc('../../etc/passwd'),
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..%2F..%2F..%2Fetc%2Fpasswd',
  '%252e%252e%252fetc',
];

/**
 * Hostile ids and filters: SQL, LIKE wildcards and path traversal in every id the API takes
 * (instances and their logs, recording files, AMIs, mosques, scheduler jobs, users). None matches
 * anything it should not, none reaches a file outside the data folders, and nothing changes.
 */
describe('hostile input: ids, filters and paths', () => {
  let f: HostileFixture;
  let before: Snapshot;

  beforeAll(async () => {
    f = await hostileFixture();
  });
  afterAll(() => disposeFixture(f));
  beforeEach(async () => {
    before = await snapshot(f.t);
  });
  afterEach(async () => {
    await expectStillServing(f);
    expect(await snapshot(f.t)).toEqual(before);
    expect(fs.readFileSync(f.sentinel, 'utf8')).toBe('must survive\n');
  });

  const send = (options: InjectOptions & { token?: string | null }) =>
    f.t.request({ ...options, token: options.token === null ? undefined : (options.token ?? f.admin) });

  describe('SQL and LIKE wildcards match nothing', () => {
    it.each([SQL, '%', '__________', 'seedmosqu_', 'seed%'])(
      'mosque id %j: get, update and delete answer 404',
      async (id) => {
        expectRefused(
          await send({ method: 'GET', url: `/api/config/mosques/${enc(id)}` }),
          REFUSED_OR_UNKNOWN,
          INVALID_OR_NOT_FOUND,
        );
        expectRefused(
          await send({ method: 'PUT', url: `/api/config/mosques/${enc(id)}`, payload: { name: 'Hijacked' } }),
          REFUSED_OR_UNKNOWN,
          INVALID_OR_NOT_FOUND,
        );
        expectRefused(
          await send({ method: 'DELETE', url: `/api/config/mosques/${enc(id)}` }),
          REFUSED_OR_UNKNOWN,
          INVALID_OR_NOT_FOUND,
        );
      },
    );

    it('recording filters with wildcards find nothing, the exact id finds its recording', async () => {
      for (const query of [
        'mosque_id=%25',
        'mosque_id=_',
        `mosque_id=${enc(SQL)}`,
        'instance_id=%25',
        `instance_id=${enc("cap-%' OR '1'='1")}`,
      ]) {
        const response = await send({ method: 'GET', url: `/api/recordings?${query}` });
        // Refused by the filter's pattern, or accepted and matching nothing: never every recording.
        if (response.statusCode === 400) expectRefused(response, 400, /^Query string is invalid/);
        else expect(response.json().data.recordings, query).toEqual([]);
      }
      const exact = await send({ method: 'GET', url: '/api/recordings?mosque_id=seedmosque' });
      expect(exact.json().data.recordings).toHaveLength(2);
    });

    it.each([SQL, '%', '%%', 'seedmosque-%'])('scheduler job %j cannot be cancelled', async (id) => {
      expectRefused(
        await send({ method: 'POST', url: `/api/scheduler/cancel/${enc(id)}` }),
        REFUSED_OR_UNKNOWN,
        INVALID_OR_NOT_FOUND,
      );
    });

    it('instance ids with SQL or wildcards are unknown, and terminate does nothing', async () => {
      for (const id of [SQL, '%', 'cap-%', 'cap-000000seed_']) {
        expectRefused(
          await send({ method: 'GET', url: `/api/instances/${enc(id)}` }),
          REFUSED_OR_UNKNOWN,
          INVALID_OR_NOT_FOUND,
        );
      }
      expectRefused(
        await send({ method: 'POST', url: '/api/instances/terminate', payload: { instance_ids: ['%', SQL] } }),
        REFUSED_OR_UNKNOWN,
        INVALID_OR_NOT_FOUND,
      );
      expectRefused(
        await send({ method: 'POST', url: '/api/instances/terminate', payload: { instance_ids: ['cap-000000seed_'] } }),
        REFUSED_OR_UNKNOWN,
        INVALID_OR_NOT_FOUND,
      );
    });

    it.each(['1 OR 1=1', '1;DROP TABLE users', '0', '-1', '1e3', '0x1', '1.0', ' 1'])(
      'user id %j is refused before the database',
      async (id) => {
        expectRefused(
          await send({ method: 'PUT', url: `/api/auth/users/${enc(id)}`, payload: { is_active: false } }),
          400,
          /^Path parameters are invalid: id/,
        );
      },
    );

    it.each([SQL, '%', 'admin%', "admin'--"])('sign-in as %j gets the one generic refusal', async (username) => {
      expectRefused(
        await send({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username, password: 'anything-at-all' },
          token: null,
        }),
        401,
        'Incorrect username or password',
      );
    });
  });

  describe('path traversal reaches no file', () => {
    it.each(TRAVERSALS)('instance logs of %s', async (id) => {
      const response = await send({ method: 'GET', url: `/api/instances/${id}/logs?lines=50` });
      expectRefused(response, REFUSED_OR_UNKNOWN, INVALID_OR_NOT_FOUND);
      expect(response.body).not.toContain('root:');
    });

    it.each(TRAVERSALS)('recording file %s', async (id) => {
      const response = await send({ method: 'GET', url: `/api/recordings/${id}/file` });
      expectRefused(response, REFUSED_OR_UNKNOWN, INVALID_OR_NOT_FOUND);
      expect(response.body).not.toContain('root:');
    });

    it('a recording row naming a file outside the recordings folder is not served; one inside is', async () => {
      expectRefused(
        await send({ method: 'GET', url: `/api/recordings/${f.seeds.outsideRecordingId}/file` }),
        404,
        /has no file on this server/,
      );
      const inside = await send({ method: 'GET', url: `/api/recordings/${f.seeds.recordingId}/file` });
      expect(inside.statusCode).toBe(200);
      expect(inside.rawPayload.length).toBe(2048);
    });

    it.each([...TRAVERSALS, enc('../images'), enc('..')])('AMI delete of %s', async (id) => {
      expectRefused(
        await send({ method: 'DELETE', url: `/api/ami/${id}` }),
        REFUSED_OR_UNKNOWN,
        /^Path parameters are invalid: |not found$|^No such endpoint/,
      );
    });

    it('AMI delete aimed at a file beside the data folder leaves it alone', async () => {
      const fromImages = path.relative(path.join(f.t.config.dataDir, 'images'), f.sentinel);
      expectRefused(
        await send({ method: 'DELETE', url: `/api/ami/${enc(fromImages)}` }),
        REFUSED_OR_UNKNOWN,
        INVALID_OR_NOT_FOUND,
      );
    });

    it('an AMI cannot be made from a traversal instance id', async () => {
      const payload = { instance_id: '../../etc', name: 'escape', version: '1.0.0' };
      expectRefused(
        await send({ method: 'POST', url: '/api/ami/create', payload }),
        REFUSED_OR_UNKNOWN,
        INVALID_OR_NOT_FOUND,
      );
    });

    it.each(TRAVERSALS)('mosque %s', async (id) => {
      expectRefused(
        await send({ method: 'GET', url: `/api/config/mosques/${id}` }),
        REFUSED_OR_UNKNOWN,
        INVALID_OR_NOT_FOUND,
      );
      expectRefused(
        await send({ method: 'DELETE', url: `/api/config/mosques/${id}` }),
        REFUSED_OR_UNKNOWN,
        INVALID_OR_NOT_FOUND,
      );
    });

    it.each(TRAVERSALS)('scheduler cancel of %s', async (id) => {
      expectRefused(
        await send({ method: 'POST', url: `/api/scheduler/cancel/${id}` }),
        REFUSED_OR_UNKNOWN,
        INVALID_OR_NOT_FOUND,
      );
    });

    it.each(TRAVERSALS)('user %s', async (id) => {
      expectRefused(
        await send({ method: 'PUT', url: `/api/auth/users/${id}`, payload: { is_active: false } }),
        400,
        /^Path parameters are invalid: id/,
      );
    });

    it.each(TRAVERSALS)('demo stream file %s', async (id) => {
      const response = await send({ method: 'GET', url: `/demo/${id}`, token: null });
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain('root:');
    });

    it('an unencoded ../ never leaves the API', async () => {
      const response = await send({ method: 'GET', url: '/api/instances/../../etc/passwd' });
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain('root:');
    });

    it('a huge log request is refused rather than read', async () => {
      expectRefused(
        await send({ method: 'GET', url: `/api/instances/${f.seeds.instanceId}/logs?lines=99999999` }),
        400,
        /^Query string is invalid: lines/,
      );
    });
  });
});
