import { HttpResponse } from 'msw';
import { authRoutes } from '../../../contract/routes/auth';
import { mock } from '../endpoint';
import { bearer, errorResponse } from '../http';
import { findUser, nowIso, openSession, revokeSession, toPublicUser } from '../store';
import { createMockUser } from './users';

export const authHandlers = [
  mock(authRoutes.login, ({ body }) => {
    const user = findUser(body.username);
    if (!user || user.password !== body.password) return errorResponse(401, 'Incorrect username or password');
    if (!user.is_active)
      return errorResponse(403, 'This account is deactivated. Ask an administrator to activate it again.');
    user.last_login = nowIso();
    return HttpResponse.json({ access_token: openSession(user.id), token_type: 'bearer', user: toPublicUser(user) });
  }),

  mock(authRoutes.firstRun, () => HttpResponse.json({ success: true, data: { initial_password_file: false } })),

  mock(authRoutes.verifyToken, ({ user }) => HttpResponse.json({ valid: true, user: toPublicUser(user) })),

  mock(authRoutes.logout, ({ request }) => {
    const token = bearer(request);
    if (token) revokeSession(token);
    return HttpResponse.json({ success: true, message: 'Signed out' });
  }),

  mock(authRoutes.changePassword, ({ user, body }) => {
    if (body.current_password !== user.password) return errorResponse(400, 'Current password is incorrect');
    if (body.current_password === body.new_password)
      return errorResponse(400, 'New password must be different from current password');
    user.password = body.new_password;
    user.generated_credentials = false;
    user.updated_at = nowIso();
    return HttpResponse.json({ success: true, message: 'Password changed successfully' });
  }),

  mock(authRoutes.register, ({ body }) => createMockUser(body)),
];
