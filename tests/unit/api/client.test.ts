import { AxiosError, AxiosHeaders } from 'axios';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { changePasswordErrorMessage, loginErrorMessage, registerErrorMessage } from '../../../src/api/auth';
import { api, apiErrorMessage, errorDetail, isNetworkError } from '../../../src/api/client';
import { setUnauthorizedListener } from '../../../src/api/token';
import { server } from '../support/server';

function responseError(status: number, data: unknown): AxiosError {
  const config = { headers: new AxiosHeaders() };
  return new AxiosError(
    'Request failed',
    'ERR_BAD_RESPONSE',
    config,
    {},
    { status, statusText: '', headers: {}, config, data },
  );
}

const networkError = () => new AxiosError('Network Error', 'ERR_NETWORK', { headers: new AxiosHeaders() }, {});

describe('api client', () => {
  afterEach(() => setUnauthorizedListener(null));

  it('sends the stored token as a bearer header, and none without one', async () => {
    const seen: Array<string | null> = [];
    server.use(
      http.get('/api/echo', ({ request }) => (seen.push(request.headers.get('authorization')), HttpResponse.json({}))),
    );
    await api.get('/api/echo');
    localStorage.setItem('token', 'abc.def');
    await api.get('/api/echo');
    expect(seen).toEqual([null, 'Bearer abc.def']);
  });

  it('calls the same origin (relative URLs)', async () => {
    let url = '';
    server.use(http.get('/api/where', ({ request }) => ((url = request.url), HttpResponse.json({}))));
    await api.get('/api/where');
    expect(new URL(url).origin).toBe(window.location.origin);
  });

  it('tells the session listener about a 401 on an ordinary call, not on login or verification', async () => {
    const listener = vi.fn();
    setUnauthorizedListener(listener);
    server.use(
      http.get('/api/thing', () => HttpResponse.json({ success: false, detail: 'x', error: 'x' }, { status: 401 })),
      http.get('/api/auth/verify-token', () => HttpResponse.json({}, { status: 401 })),
    );
    await expect(api.post('/api/auth/login', { username: 'a', password: 'b' })).rejects.toThrow();
    await expect(api.get('/api/auth/verify-token')).rejects.toThrow();
    expect(listener).not.toHaveBeenCalled();
    await expect(api.get('/api/thing')).rejects.toThrow();
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('does not treat 403 as a dead session', async () => {
    const listener = vi.fn();
    setUnauthorizedListener(listener);
    server.use(
      http.get('/api/forbidden', () =>
        HttpResponse.json({ success: false, detail: 'no', error: 'no' }, { status: 403 }),
      ),
    );
    await expect(api.get('/api/forbidden')).rejects.toThrow();
    expect(listener).not.toHaveBeenCalled();
  });

  it('marks a request that got no answer as a network error', async () => {
    server.use(http.get('/api/down', () => HttpResponse.error()));
    const error = await api.get('/api/down').catch((e: unknown) => e);
    expect(isNetworkError(error)).toBe(true);
    expect(errorDetail(error)).toBeUndefined();
  });
});

describe('error messages', () => {
  it('prefers detail, then error, then the fallback', () => {
    expect(apiErrorMessage(responseError(400, { detail: 'Bad mosque id', error: 'other' }), 'fallback')).toBe(
      'Bad mosque id',
    );
    expect(apiErrorMessage(responseError(400, { error: 'Only error' }), 'fallback')).toBe('Only error');
    expect(apiErrorMessage(responseError(500, {}), 'fallback')).toBe('fallback');
    expect(apiErrorMessage(responseError(500, 'plain text'), 'fallback')).toBe('fallback');
    expect(apiErrorMessage(responseError(422, { detail: [{ msg: 'x' }] }), 'fallback')).toBe('fallback');
  });

  it('uses the network message only for network failures', () => {
    expect(apiErrorMessage(networkError(), 'fallback', 'Network error occurred')).toBe('Network error occurred');
    expect(apiErrorMessage(networkError(), 'fallback')).toBe('fallback');
    expect(apiErrorMessage(responseError(500, {}), 'fallback', 'Network error occurred')).toBe('fallback');
    expect(apiErrorMessage(new Error('boom'), 'fallback', 'Network error occurred')).toBe('fallback');
  });

  it('login: detail, else "Login failed"; network "Network error: Unable to connect to server"', () => {
    expect(loginErrorMessage(responseError(401, { detail: 'Incorrect username or password' }))).toBe(
      'Incorrect username or password',
    );
    expect(loginErrorMessage(responseError(500, {}))).toBe('Login failed');
    expect(loginErrorMessage(networkError())).toBe('Network error: Unable to connect to server');
  });

  it('change password: detail, else "Failed to change password", else "An error occurred"', () => {
    expect(changePasswordErrorMessage(responseError(400, { detail: 'Current password is incorrect' }))).toBe(
      'Current password is incorrect',
    );
    expect(changePasswordErrorMessage(responseError(500, {}))).toBe('Failed to change password');
    expect(changePasswordErrorMessage(networkError())).toBe('An error occurred');
    expect(changePasswordErrorMessage(new Error('x'))).toBe('An error occurred');
  });

  it('register: detail, else "Registration failed"', () => {
    expect(registerErrorMessage(responseError(409, { detail: 'Username taken' }))).toBe('Username taken');
    expect(registerErrorMessage(responseError(500, {}))).toBe('Registration failed');
  });
});
