import { HttpResponse } from 'msw';
import { usersPageOf } from '../../../contract/user-list';
import type { z } from 'zod';
import { accountUpdateEffects, accountUpdateRefusal } from '../../../contract/account-rules';
import type { userCreateRequestSchema } from '../../../contract/auth';
import { userRoutes } from '../../../contract/routes/users';
import { mock } from '../endpoint';
import { errorResponse } from '../http';
import { findUser, nowIso, store, toPublicUser, type MockUser } from '../store';

/** Creates a user as POST /api/auth/users and /api/auth/register do, from a body their schema accepted. */
export function createMockUser(body: z.infer<typeof userCreateRequestSchema>): Response {
  if (findUser(body.username)) return errorResponse(409, `Username ${body.username} is already taken`);
  const now = nowIso();
  const user: MockUser = {
    id: store.nextUserId++,
    username: body.username,
    email: body.email,
    full_name: body.full_name || null,
    password: body.password,
    role: body.role,
    is_active: body.is_active,
    is_superuser: body.is_superuser,
    generated_credentials: false,
    last_login: null,
    created_at: now,
    updated_at: now,
  };
  store.users.push(user);
  return HttpResponse.json({ success: true, data: toPublicUser(user) }, { status: 201 });
}

export const userHandlers = [
  mock(userRoutes.list, ({ query }) => HttpResponse.json(usersPageOf(store.users.map(toPublicUser), query))),

  mock(userRoutes.create, ({ body }) => createMockUser(body)),

  mock(userRoutes.update, ({ params, user: actor, body }) => {
    const user = store.users.find((candidate) => candidate.id === Number(params.id));
    if (!user) return errorResponse(404, `User ${params.id} not found`);
    const effects = accountUpdateEffects(user, body);
    const otherSupers = store.users.filter(
      (other) => other.id !== user.id && other.is_superuser && other.is_active,
    ).length;
    const refusal = accountUpdateRefusal(effects, user.id === actor.id, otherSupers);
    if (refusal) return errorResponse(refusal.status, refusal.message);
    Object.assign(user, {
      ...(body.email !== undefined && { email: body.email }),
      ...(body.full_name !== undefined && { full_name: body.full_name || null }),
      ...(body.password !== undefined && { password: body.password, generated_credentials: false }),
      ...(body.role !== undefined && { role: body.role }),
      ...(body.is_active !== undefined && { is_active: body.is_active }),
      ...(body.is_superuser !== undefined && { is_superuser: body.is_superuser }),
      updated_at: nowIso(),
    });
    return HttpResponse.json({ success: true, data: toPublicUser(user) });
  }),
];
