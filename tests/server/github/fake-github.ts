import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeToken {
  login: string;
  /** Sent as x-oauth-scopes; undefined sends no header (a fine-grained token). */
  scopes?: string;
  /** Answer every call with GitHub's rate-limit refusal: 403 with remaining 0, or 429 with retry-after. */
  rateLimited?: 403 | 429;
}

export interface FakeRepo {
  owner: string;
  name: string;
  private: boolean;
  default_branch?: string;
  /** Logins that may push; everyone else gets read access. */
  pushers: string[];
}

/** The moment the fake's rate limit resets (x-ratelimit-reset, epoch seconds). */
export const RATE_LIMIT_RESET_EPOCH = 1_795_000_000;

/**
 * A local HTTP server answering the two GitHub REST calls the server makes, with GitHub's shapes:
 * GET /user (x-oauth-scopes) and GET /repos/{owner}/{repo} (permissions). Private repositories are
 * invisible (404) to tokens without the repo scope, as on GitHub.
 */
export async function startFakeGithub(options: { tokens: Record<string, FakeToken>; repos: FakeRepo[] }) {
  const seenAuthorization: string[] = [];
  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'x-ratelimit-remaining': '4999',
        ...headers,
      });
      res.end(JSON.stringify(body));
    };
    const auth = req.headers.authorization ?? '';
    seenAuthorization.push(auth);
    const token = /^(?:token|bearer)\s+(\S+)$/i.exec(auth)?.[1];
    const account = token ? options.tokens[token] : undefined;
    if (!account) return send(401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
    if (account.rateLimited === 403) {
      return send(
        403,
        { message: 'API rate limit exceeded for user ID 1.' },
        { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(RATE_LIMIT_RESET_EPOCH) },
      );
    }
    if (account.rateLimited === 429)
      return send(429, { message: 'You have exceeded a secondary rate limit.' }, { 'retry-after': '60' });
    const scopeHeader: Record<string, string> =
      account.scopes !== undefined ? { 'x-oauth-scopes': account.scopes } : {};
    const scopes = account.scopes?.split(',').map((s) => s.trim()) ?? null;
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'GET' && url.pathname === '/user') {
      return send(200, { login: account.login, id: 1, name: `${account.login} name`, type: 'User' }, scopeHeader);
    }
    const repoMatch = /^\/repos\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && repoMatch) {
      const repo = options.repos.find((r) => r.owner === repoMatch[1] && r.name === repoMatch[2]);
      const canSee = repo && (!repo.private || scopes === null || scopes.includes('repo'));
      if (!repo || !canSee) return send(404, { message: 'Not Found' }, scopeHeader);
      const push = repo.pushers.includes(account.login);
      return send(
        200,
        {
          id: 7,
          name: repo.name,
          full_name: `${repo.owner}/${repo.name}`,
          owner: { login: repo.owner, id: 2, type: 'Organization' },
          private: repo.private,
          default_branch: repo.default_branch ?? 'main',
          permissions: { admin: false, maintain: false, push, triage: push, pull: true },
        },
        scopeHeader,
      );
    }
    return send(404, { message: 'Not Found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seenAuthorization,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
