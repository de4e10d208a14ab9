import type { Role, User, UserCreateRequest, UserUpdateRequest } from '../../../contract/auth';

export interface UserFormValues {
  username: string;
  email: string;
  full_name: string;
  password: string;
  role: Role;
  is_active: boolean;
  is_superuser: boolean;
}

/** Create-form defaults (docs/reference.md section 3, User). */
export const EMPTY_USER_FORM: UserFormValues = {
  username: '',
  email: '',
  full_name: '',
  password: '',
  role: 'admin',
  is_active: true,
  is_superuser: false,
};

export function formFromUser(user: User): UserFormValues {
  return {
    username: user.username,
    email: user.email,
    full_name: user.full_name ?? '',
    password: '',
    role: user.role,
    is_active: user.is_active,
    is_superuser: user.is_superuser,
  };
}

/** Username and email required; password required only on create (docs/reference.md section 5, User form). */
export function canSubmit(values: UserFormValues, editing: boolean): boolean {
  if (!values.email.trim()) return false;
  if (editing) return true;
  return values.username.trim() !== '' && values.password !== '';
}

export function createPayload(values: UserFormValues): UserCreateRequest {
  return {
    username: values.username.trim(),
    email: values.email.trim(),
    full_name: values.full_name.trim(),
    password: values.password,
    role: values.role,
    is_active: values.is_active,
    is_superuser: values.is_superuser,
  };
}

/** The edit form sends everything but the username, and the password only when one was typed. */
export function updatePayload(values: UserFormValues): UserUpdateRequest {
  const payload: UserUpdateRequest = {
    email: values.email.trim(),
    full_name: values.full_name.trim(),
    role: values.role,
    is_active: values.is_active,
    is_superuser: values.is_superuser,
  };
  if (values.password) payload.password = values.password;
  return payload;
}
