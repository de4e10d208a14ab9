import { useMutation } from '@tanstack/react-query';
import type {
  ChangePasswordRequest,
  FirstRunResponse,
  LoginRequest,
  LoginResponse,
  User,
  UserCreateRequest,
  UserResponse,
  VerifyTokenResponse,
} from '../../contract/auth';
import type { MessageBody } from '../../contract/common';
import { api, errorDetail, hasResponse, isNetworkError } from './client';

export const LOGIN_FAILED = 'Login failed';
export const LOGIN_NETWORK_ERROR = 'Network error: Unable to connect to server';
export const REGISTER_FAILED = 'Registration failed';
export const CHANGE_PASSWORD_FAILED = 'Failed to change password';
export const CHANGE_PASSWORD_ERROR = 'An error occurred';
/** SPEC.md section 8: the change-password service's own fallback, for an answer that does not confirm the change. */
export const PASSWORD_CHANGE_FAILED = 'Password change failed';

export async function login(body: LoginRequest): Promise<LoginResponse> {
  const response = await api.post<LoginResponse>('/api/auth/login', body);
  return response.data;
}

/** The login page's message for a failed sign-in (SPEC.md section 8). */
export function loginErrorMessage(error: unknown): string {
  if (isNetworkError(error)) return LOGIN_NETWORK_ERROR;
  return errorDetail(error) ?? LOGIN_FAILED;
}

/** Whether the first-run password file still exists on the server (public; a yes or no only). */
export async function initialPasswordFileExists(): Promise<boolean> {
  const response = await api.get<FirstRunResponse>('/api/auth/first-run');
  return response.data.data.initial_password_file;
}

export async function verifyToken(): Promise<User> {
  const response = await api.get<VerifyTokenResponse>('/api/auth/verify-token');
  if (!response.data?.valid || !response.data.user) throw new Error('Token is not valid');
  return response.data.user;
}

export async function logout(): Promise<void> {
  await api.post('/api/auth/logout');
}

export async function changePassword(body: ChangePasswordRequest): Promise<MessageBody> {
  const response = await api.post<MessageBody>('/api/auth/change-password', body);
  if (response.data?.success !== true) throw new Error(PASSWORD_CHANGE_FAILED);
  return response.data;
}

/** The Change Password page's message: the server's detail, else "Failed to change password", else "An error occurred". */
export function changePasswordErrorMessage(error: unknown): string {
  const detail = errorDetail(error);
  if (detail) return detail;
  if (hasResponse(error)) return CHANGE_PASSWORD_FAILED;
  return error instanceof Error && error.message === PASSWORD_CHANGE_FAILED ? PASSWORD_CHANGE_FAILED : CHANGE_PASSWORD_ERROR;
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}

export async function register(body: UserCreateRequest): Promise<User> {
  const response = await api.post<UserResponse>('/api/auth/register', body);
  return response.data.data;
}

/** Register's message for a failed call: the server's detail, else "Registration failed". */
export function registerErrorMessage(error: unknown): string {
  return errorDetail(error) ?? REGISTER_FAILED;
}
