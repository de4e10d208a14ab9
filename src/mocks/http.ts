import { HttpResponse } from 'msw';
import { userForToken, type MockUser } from './store';

/** The API's error body: both field names carry the sentence. */
export function errorResponse(status: number, detail: string) {
  return HttpResponse.json({ success: false as const, detail, error: detail }, { status });
}

export function bearer(request: Request): string | null {
  const header = request.headers.get('authorization') ?? '';
  return header.startsWith('Bearer ') ? header.slice(7) : null;
}

/** The signed-in user, or the response to send instead (401, or 403 when a superuser is required). */
export function authorize(request: Request, access: 'session' | 'superuser' = 'session'): MockUser | Response {
  const token = bearer(request);
  if (!token) return errorResponse(401, 'Not authenticated');
  const user = userForToken(token);
  if (!user) return errorResponse(401, 'Session expired or invalid');
  if (access === 'superuser' && !user.is_superuser) return errorResponse(403, 'Only a superuser may do this');
  return user;
}

export async function readJson<T>(request: Request): Promise<Partial<T>> {
  try {
    return (await request.json()) as Partial<T>;
  } catch {
    return {};
  }
}
