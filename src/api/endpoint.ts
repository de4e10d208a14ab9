import type { AxiosRequestConfig } from 'axios';
import type { z } from 'zod';
import {
  endpointPath,
  type BodyOf,
  type Endpoint,
  type PathParams,
  type QueryOf,
  type ResponseOf,
} from '../../contract/endpoint';
import { api } from './client';

/** What a call of an endpoint needs: its path parameters and body when it declares them, its query, axios options. */
export type CallInput<E extends Endpoint> = (PathParams<E> extends undefined
  ? { params?: undefined }
  : { params: PathParams<E> }) &
  (E['body'] extends z.ZodType ? { body: BodyOf<E> } : { body?: undefined }) & {
    query?: QueryOf<E>;
    /** Extra axios options (signal, timeout, responseType). */
    config?: AxiosRequestConfig;
  };

type CallArguments<E extends Endpoint> = object extends CallInput<E> ? [input?: CallInput<E>] : [input: CallInput<E>];

/**
 * Calls an endpoint of the route table (contract/routes): method, URL and the answer's type all come from
 * its declaration, so a fetcher names the endpoint, never a path.
 */
export async function call<E extends Endpoint>(declaration: E, ...[input]: CallArguments<E>): Promise<ResponseOf<E>> {
  const request = (input ?? {}) as {
    params?: PathParams<E>;
    body?: unknown;
    query?: unknown;
    config?: AxiosRequestConfig;
  };
  const response = await api.request<ResponseOf<E>>({
    ...request.config,
    method: declaration.method,
    url: endpointPath(declaration, request.params),
    params: request.query,
    data: request.body,
  });
  return response.data;
}
