import { http, HttpResponse } from 'msw';
import type { ChangePasswordRequest, LoginRequest, LoginResponse, UserCreateRequest, VerifyTokenResponse } from '../../../contract/auth';
import type { MessageBody } from '../../../contract/common';
import { authorize, bearer, errorResponse, readJson } from '../http';
import { findUser, nowIso, openSession, revokeSession, toPublicUser } from '../store';
import { createMockUser } from './users';

export const authHandlers = [
  http.post('/api/auth/login', async ({ request }) => {
    const body = await readJson<LoginRequest>(request);
    if (!body.username || !body.password) return errorResponse(400, 'Username and password are required');
    const user = findUser(body.username);
    if (!user || user.password !== body.password) return errorResponse(401, 'Incorrect username or password');
    if (!user.is_active) return errorResponse(403, 'This account is deactivated. Ask an administrator to activate it again.');
    user.last_login = nowIso();
    const response: LoginResponse = { access_token: openSession(user.id), token_type: 'bearer', user: toPublicUser(user) };
    return HttpResponse.json(response);
  }),

  http.get('/api/auth/first-run', () => HttpResponse.json({ success: true, data: { initial_password_file: false } })),

  http.get('/api/auth/verify-token', ({ request }) => {
    const user = authorize(request);
    if (user instanceof Response) return user;
    const response: VerifyTokenResponse = { valid: true, user: toPublicUser(user) };
    return HttpResponse.json(response);
  }),

  http.post('/api/auth/logout', ({ request }) => {
    const user = authorize(request);
    if (user instanceof Response) return user;
    const token = bearer(request);
    if (token) revokeSession(token);
    return HttpResponse.json<MessageBody>({ success: true, message: 'Signed out' });
  }),

  http.post('/api/auth/change-password', async ({ request }) => {
    const user = authorize(request);
    if (user instanceof Response) return user;
    const body = await readJson<ChangePasswordRequest>(request);
    if (!body.current_password || !body.new_password) return errorResponse(400, 'Current password is required');
    if ((body.new_password ?? '').length < 8) return errorResponse(400, 'Password must be at least 8 characters long');
    if (body.current_password !== user.password) return errorResponse(400, 'Current password is incorrect');
    if (body.current_password === body.new_password) return errorResponse(400, 'New password must be different from current password');
    user.password = body.new_password;
    user.updated_at = nowIso();
    return HttpResponse.json<MessageBody>({ success: true, message: 'Password changed successfully' });
  }),

  http.post('/api/auth/register', async ({ request }) => {
    const actor = authorize(request, 'superuser');
    if (actor instanceof Response) return actor;
    return createMockUser(await readJson<UserCreateRequest>(request));
  }),
];
