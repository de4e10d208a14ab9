import { expect } from 'vitest';
import type { TestApp } from './test-app';

/** Adds mosques with these ids (launches refuse a mosque id that names no mosque). */
export async function addMosques(t: TestApp, token: string, ...ids: string[]): Promise<void> {
  for (const id of ids) {
    const response = await t.request({
      method: 'POST',
      url: '/api/config/mosques',
      token,
      payload: { mosque_id: id, name: `Mosque ${id}`, languages: ['en'] },
    });
    expect(response.statusCode, response.body).toBe(201);
  }
}
