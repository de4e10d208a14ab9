import {
  changePasswordRequestSchema,
  firstRunResponseSchema,
  loginRequestSchema,
  loginResponseSchema,
  userCreateRequestSchema,
  userResponseSchema,
  verifyTokenResponseSchema,
} from '../auth';
import { messageBodySchema } from '../common';
import { endpoint } from '../endpoint';

/** Sign-in and the caller's own account. */
export const authRoutes = {
  /** Whether the first-run password file still exists: a yes or no, never the password. */
  firstRun: endpoint({
    method: 'GET',
    path: '/api/auth/first-run',
    access: 'public',
    response: firstRunResponseSchema,
  }),
  login: endpoint({
    method: 'POST',
    path: '/api/auth/login',
    access: 'public',
    body: loginRequestSchema,
    response: loginResponseSchema,
  }),
  verifyToken: endpoint({
    method: 'GET',
    path: '/api/auth/verify-token',
    access: 'session',
    response: verifyTokenResponseSchema,
  }),
  logout: endpoint({ method: 'POST', path: '/api/auth/logout', access: 'session', response: messageBodySchema }),
  changePassword: endpoint({
    method: 'POST',
    path: '/api/auth/change-password',
    access: 'session',
    body: changePasswordRequestSchema,
    response: messageBodySchema,
  }),
  register: endpoint({
    method: 'POST',
    path: '/api/auth/register',
    access: 'superuser',
    body: userCreateRequestSchema,
    response: userResponseSchema,
    status: 201,
  }),
};
