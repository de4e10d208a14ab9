import { MIN_PASSWORD_LENGTH } from './password-strength';

export interface PasswordChangeForm {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** The client-side checks of the Change Password form, in docs/reference.md's order; null when the form may be sent. */
export function validatePasswordChange(form: PasswordChangeForm): string | null {
  if (!form.currentPassword || !form.newPassword || !form.confirmPassword) return 'All fields are required';
  if (form.newPassword !== form.confirmPassword) return 'New passwords do not match';
  if (form.newPassword.length < MIN_PASSWORD_LENGTH)
    return `Password must be at least ${MIN_PASSWORD_LENGTH} characters long`;
  if (form.newPassword === form.currentPassword) return 'New password must be different from current password';
  return null;
}
