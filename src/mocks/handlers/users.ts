import { http, HttpResponse } from 'msw';
import type { UserCreateRequest, UserResponse, UsersListResponse, UserUpdateRequest } from '../../../contract/auth';
import { authorize, errorResponse, readJson } from '../http';
import { findUser, nowIso, store, toPublicUser, type MockUser } from '../store';

const SELF_DEACTIVATION = 'Cannot deactivate your own account';
const LAST_SUPERUSER = 'The last active superuser cannot be demoted or deactivated';

/** Creates a user as POST /api/auth/users and /api/auth/register do. */
export function createMockUser(body: Partial<UserCreateRequest>): Response {
  const username = (body.username ?? '').trim();
  const email = (body.email ?? '').trim();
  if (!username) return errorResponse(400, 'Username is required');
  if (!email) return errorResponse(400, 'Email is required');
  if ((body.password ?? '').length < 8) return errorResponse(400, 'Password must be at least 8 characters long');
  if (findUser(username)) return errorResponse(409, `Username ${username} is already taken`);
  const now = nowIso();
  const user: MockUser = {
    id: store.nextUserId++,
    username,
    email,
    full_name: body.full_name?.trim() || null,
    password: body.password ?? '',
    role: body.role ?? 'admin',
    is_active: body.is_active ?? true,
    is_superuser: body.is_superuser ?? false,
    last_login: null,
    created_at: now,
    updated_at: now,
  };
  store.users.push(user);
  return HttpResponse.json<UserResponse>({ success: true, data: toPublicUser(user) }, { status: 201 });
}

export const userHandlers = [
  http.get('/api/auth/users', ({ request }) => {
    const actor = authorize(request, 'superuser');
    if (actor instanceof Response) return actor;
    return HttpResponse.json<UsersListResponse>({ users: store.users.map(toPublicUser) });
  }),

  http.post('/api/auth/users', async ({ request }) => {
    const actor = authorize(request, 'superuser');
    if (actor instanceof Response) return actor;
    return createMockUser(await readJson<UserCreateRequest>(request));
  }),

  http.put('/api/auth/users/:id', async ({ request, params }) => {
    const actor = authorize(request, 'superuser');
    if (actor instanceof Response) return actor;
    const user = store.users.find((candidate) => candidate.id === Number(params.id));
    if (!user) return errorResponse(404, `User ${String(params.id)} not found`);
    const body = await readJson<UserUpdateRequest>(request);
    if (body.is_active === false && user.id === actor.id) return errorResponse(400, SELF_DEACTIVATION);
    const losesSuper = user.is_superuser && (body.is_superuser === false || body.is_active === false);
    const otherSupers = store.users.filter((other) => other.id !== user.id && other.is_superuser && other.is_active).length;
    if (losesSuper && otherSupers === 0) return errorResponse(409, LAST_SUPERUSER);
    if (body.password !== undefined && body.password.length < 8) return errorResponse(400, 'Password must be at least 8 characters long');
    Object.assign(user, {
      ...(body.email !== undefined && { email: body.email.trim() }),
      ...(body.full_name !== undefined && { full_name: body.full_name?.trim() || null }),
      ...(body.password !== undefined && { password: body.password }),
      ...(body.role !== undefined && { role: body.role }),
      ...(body.is_active !== undefined && { is_active: body.is_active }),
      ...(body.is_superuser !== undefined && { is_superuser: body.is_superuser }),
      updated_at: nowIso(),
    });
    return HttpResponse.json<UserResponse>({ success: true, data: toPublicUser(user) });
  }),
];
