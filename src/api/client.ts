import axios, { isAxiosError, isCancel } from 'axios';
import type { ErrorBody } from '../../contract/common';
import { authRoutes } from '../../contract/routes/auth';
import { getToken, notifyUnauthorized } from './token';

/**
 * The one HTTP client of the console. baseURL '' keeps every call same-origin, so it works behind the
 * server that serves the console and behind the Vite dev proxy alike.
 */
export const api = axios.create({ baseURL: '', headers: { 'Content-Type': 'application/json' } });

api.interceptors.request.use((config) => {
  const token = getToken();
  if (token) config.headers.set('Authorization', `Bearer ${token}`);
  return config;
});

/** Calls whose 401 is an answer in itself rather than a sign that the session died. */
const SESSION_PROBES = [authRoutes.login, authRoutes.verifyToken, authRoutes.logout].map((probe) => probe.path);

api.interceptors.response.use(
  (response) => response,
  (error: unknown) => {
    if (isAxiosError(error) && error.response?.status === 401) {
      const url = error.config?.url ?? '';
      if (!SESSION_PROBES.some((probe) => url.startsWith(probe))) notifyUnauthorized();
    }
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  },
);

/** True when the request never got an answer (server down, network cut), as opposed to an error response. */
export function isNetworkError(error: unknown): boolean {
  return isAxiosError(error) && !error.response && !isCancel(error);
}

/** True when the server answered (with an error status). */
export function hasResponse(error: unknown): boolean {
  return isAxiosError(error) && error.response !== undefined;
}

/** The human sentence of an error response: `detail`, else `error`; undefined when there is none. */
export function errorDetail(error: unknown): string | undefined {
  if (!isAxiosError(error) || !error.response) return undefined;
  const body = error.response.data as Partial<ErrorBody> | undefined;
  if (body && typeof body === 'object') {
    if (typeof body.detail === 'string' && body.detail) return body.detail;
    if (typeof body.error === 'string' && body.error) return body.error;
  }
  return undefined;
}

/** The field errors of a refused request body (`{ "configs.0.width": "Width must be an even number" }`); empty otherwise. */
export function errorFields(error: unknown): Record<string, string> {
  if (!isAxiosError(error) || !error.response) return {};
  const fields = (error.response.data as Partial<ErrorBody> | undefined)?.fields;
  return fields && typeof fields === 'object' ? fields : {};
}

/** The message to show for a failed call: the server's sentence, else `network` for network failures, else `fallback`. */
export function apiErrorMessage(error: unknown, fallback: string, network?: string): string {
  const detail = errorDetail(error);
  if (detail) return detail;
  if (network && isNetworkError(error)) return network;
  return fallback;
}
