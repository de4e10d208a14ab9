import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../../contract/common';
import { createTestApp, type TestApp } from '../helpers/test-app';

/** A refused body names each offending field, so the console can show the sentence beside it. */
describe('refused launches: field errors and unknown mosques', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login();
  });
  afterAll(() => t.close());

  it('lists each invalid launch field by its path, with the sentence also in detail', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/instances/launch',
      token: admin,
      payload: { configs: [{ url: 'https://example.com/live.m3u8', width: 1281, height: 15 }] },
    });
    expect(response.statusCode).toBe(400);
    const body = errorBodySchema.strict().parse(response.json());
    expect(body.fields).toEqual({
      'configs.0.width': 'Width must be an even number',
      'configs.0.height': 'Height must be at least 16',
    });
    expect(body.detail).toMatch(/^Request body is invalid: configs\.0\.width: Width must be an even number/);
  });

  it('adds no field list to errors that are not about fields', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/instances/terminate',
      token: admin,
      payload: { instance_ids: ['nope'] },
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.json()).not.toHaveProperty('fields');
  });

  it('refuses an unknown mosque id with 400 and a sentence, and launches nothing', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/instances/launch',
      token: admin,
      payload: { configs: [{ url: 'http://127.0.0.1:9/live.m3u8', duration: 5, mosque_id: 'doesnotexist' }] },
    });
    expect(response.statusCode).toBe(400);
    expect(errorBodySchema.parse(response.json()).detail).toBe(
      'Unknown mosque "doesnotexist": add it in the Config Generator first, or launch without a mosque',
    );
    const list = await t.request({ method: 'GET', url: '/api/instances/', token: admin });
    expect(list.json().data).toEqual([]);
  });
});
