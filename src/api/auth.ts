import {
  INITIAL_PASSWORD_FILE,
  type ChangePasswordRequest,
  type LoginRequest,
  type LoginResponse,
  type User,
  type UserCreateRequest,
} from '../../contract/auth';
import type { MessageBody } from '../../contract/common';
import { authRoutes } from '../../contract/routes/auth';
import { errorDetail, hasResponse, isNetworkError } from './client';
import { call } from './endpoint';

export const LOGIN_FAILED = 'Login failed';
export const LOGIN_NETWORK_ERROR = 'Network error: Unable to connect to server';
export const REGISTER_FAILED = 'Registration failed';
export const CHANGE_PASSWORD_FAILED = 'Failed to change password';
export const CHANGE_PASSWORD_ERROR = 'An error occurred';
/** docs/reference.md section 8: the change-password service's own fallback, for an answer that does not confirm the change. */
export const PASSWORD_CHANGE_FAILED = 'Password change failed';

export async function login(body: LoginRequest): Promise<LoginResponse> {
  return call(authRoutes.login, { body });
}

/** The login page's message for a failed sign-in (docs/reference.md section 8). */
export function loginErrorMessage(error: unknown): string {
  if (isNetworkError(error)) return LOGIN_NETWORK_ERROR;
  return errorDetail(error) ?? LOGIN_FAILED;
}

/** The file in the server's data folder that holds the first-run superuser password, or null once it is gone (public). */
export async function firstRunPasswordFile(): Promise<string | null> {
  return (await call(authRoutes.firstRun)).data.initial_password_file ? INITIAL_PASSWORD_FILE : null;
}

export async function verifyToken(): Promise<User> {
  const answer = await call(authRoutes.verifyToken);
  if (!answer?.valid || !answer.user) throw new Error('Token is not valid');
  return answer.user;
}

export async function logout(): Promise<void> {
  await call(authRoutes.logout);
}

export async function changePassword(body: ChangePasswordRequest): Promise<MessageBody> {
  const answer = await call(authRoutes.changePassword, { body });
  if (answer?.success !== true) throw new Error(PASSWORD_CHANGE_FAILED);
  return answer;
}

/** The Change Password page's message: the server's detail, else "Failed to change password", else "An error occurred". */
export function changePasswordErrorMessage(error: unknown): string {
  const detail = errorDetail(error);
  if (detail) return detail;
  if (hasResponse(error)) return CHANGE_PASSWORD_FAILED;
  return error instanceof Error && error.message === PASSWORD_CHANGE_FAILED
    ? PASSWORD_CHANGE_FAILED
    : CHANGE_PASSWORD_ERROR;
}

export async function register(body: UserCreateRequest): Promise<User> {
  return (await call(authRoutes.register, { body })).data;
}

/** Register's message for a failed call: the server's detail, else "Registration failed". */
export function registerErrorMessage(error: unknown): string {
  return errorDetail(error) ?? REGISTER_FAILED;
}
