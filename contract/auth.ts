import { z } from 'zod';
import { instantSchema } from './common';
import { hasRestrictedLetters, refuseImpersonation } from './display-text';

export const roleSchema = z.enum(['admin', 'user']);
export type Role = z.infer<typeof roleSchema>;

export const userSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  full_name: z.string().nullable(),
  role: roleSchema,
  is_active: z.boolean(),
  is_superuser: z.boolean(),
  /**
   * Still signs in with what the server generated at its first start: the console asks for a new password until
   * it is replaced. (No field of a user says "password": a body that does could be leaking one.)
   */
  generated_credentials: z.boolean(),
  last_login: instantSchema.nullable(),
  created_at: instantSchema,
  updated_at: instantSchema,
});
export type User = z.infer<typeof userSchema>;

/** Passwords are capped well above any real one so hashing cannot be used to exhaust the server. */
export const PASSWORD_MAX_LENGTH = 256;
const password = z.string().max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);

export const usernameSchema = z
  .string()
  .trim()
  .min(1, 'Username is required')
  .max(64, 'Username must be at most 64 characters')
  .regex(/^[\p{L}\p{M}\p{N}._@-]+$/u, 'Username may contain only letters, digits, dot, underscore, @ and hyphen')
  .refine(
    (name) => !hasRestrictedLetters(name),
    'Username may not use IPA, phonetic or modifier letters (ɑ, ᴀ, ɪ): they pass for plain ones',
  )
  .superRefine(refuseImpersonation('Username'));

export const emailSchema = z.string().trim().min(1, 'Email is required').pipe(z.email('Email address is not valid'));
const fullName = z
  .string()
  .trim()
  .max(128, 'Full name must be at most 128 characters')
  .superRefine(refuseImpersonation('Full name'));

export const loginRequestSchema = z.strictObject({
  username: z.string().min(1, 'Username is required').max(128),
  password: password.min(1, 'Password is required'),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const loginResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  user: userSchema,
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const verifyTokenResponseSchema = z.object({ valid: z.literal(true), user: userSchema });

export const changePasswordRequestSchema = z.strictObject({
  current_password: password.min(1, 'Current password is required'),
  new_password: password.min(8, 'Password must be at least 8 characters long'),
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

export const userCreateRequestSchema = z.strictObject({
  username: usernameSchema,
  email: emailSchema,
  full_name: fullName.nullish(),
  password: password.min(8, 'Password must be at least 8 characters long'),
  role: roleSchema.default('admin'),
  is_active: z.boolean().default(true),
  is_superuser: z.boolean().default(false),
});
export type UserCreateRequest = z.input<typeof userCreateRequestSchema>;

export const userUpdateRequestSchema = z.strictObject({
  email: emailSchema.optional(),
  full_name: fullName.nullish(),
  password: password.min(8, 'Password must be at least 8 characters long').optional(),
  role: roleSchema.optional(),
  is_active: z.boolean().optional(),
  is_superuser: z.boolean().optional(),
});
export type UserUpdateRequest = z.infer<typeof userUpdateRequestSchema>;

/** Digits only: `0x1`, `1e3` or ` 1` would otherwise be coerced into some other user's id. */
export const userIdParamsSchema = z.strictObject({
  id: z
    .string()
    .regex(/^[1-9][0-9]{0,14}$/, 'User id must be a positive integer')
    .transform(Number),
});

export const usersListResponseSchema = z.object({
  users: z.array(userSchema),
  /** Every user matching a page query (contract/user-list.ts); absent without one. */
  total: z.number().int().optional(),
});

export const userResponseSchema = z.object({ success: z.literal(true), data: userSchema });

/** The file in DATA_DIR that holds the generated first-run superuser password (docs/architecture.md, Contract for running it). */
export const INITIAL_PASSWORD_FILE = 'initial-admin-password';

/** GET /api/auth/first-run (public): only whether that file still exists, never its content. */
export const firstRunResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ initial_password_file: z.boolean() }),
});
