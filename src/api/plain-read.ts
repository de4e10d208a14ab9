import { getToken } from './token';

/**
 * A signed-in GET by fetch, for the reads a stored session starts before the HTTP client (axios) and
 * the contract's schemas have loaded: the session check and a page's first data. It resolves with the
 * JSON answer of a 2xx and rejects on anything else; whoever needs the server's own error asks again
 * through the HTTP client (src/api/preloaded.ts does).
 */
export async function plainGet<T>(path: string, query: Record<string, unknown> = {}): Promise<T> {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query))
    if (value !== undefined && value !== null) search.append(name, String(value));
  const token = getToken();
  const response = await fetch(search.size > 0 ? `${path}?${search}` : path, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  if (!response.ok) throw new Error(`GET ${path}: ${response.status}`);
  return (await response.json()) as T;
}
