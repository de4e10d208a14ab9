/** Password strength and the requirement checklist (docs/reference.md section 4, "Password strength"; section 5). */

export type StrengthLabel = 'Weak' | 'Fair' | 'Good' | 'Strong';
export type StrengthColor = 'error' | 'warning' | 'info' | 'success';

export interface PasswordStrength {
  /** 0 to 5. */
  points: number;
  label: StrengthLabel;
  color: StrengthColor;
  /** points / 5 as a percentage, for the bar. */
  percent: number;
}

export const MIN_PASSWORD_LENGTH = 8;
const LONG_PASSWORD_LENGTH = 12;

const hasLower = (value: string) => /\p{Ll}/u.test(value);
const hasUpper = (value: string) => /\p{Lu}/u.test(value);
const hasDigit = (value: string) => /\p{Nd}/u.test(value);
const hasSpecial = (value: string) => /[^\p{L}\p{N}]/u.test(value);

export function passwordStrength(password: string): PasswordStrength {
  let points = 0;
  if (password.length >= MIN_PASSWORD_LENGTH) points += 1;
  if (password.length >= LONG_PASSWORD_LENGTH) points += 1;
  if (hasLower(password) && hasUpper(password)) points += 1;
  if (hasDigit(password)) points += 1;
  if (hasSpecial(password)) points += 1;
  const percent = (points / 5) * 100;
  if (points <= 2) return { points, label: 'Weak', color: 'error', percent };
  if (points === 3) return { points, label: 'Fair', color: 'warning', percent };
  if (points === 4) return { points, label: 'Good', color: 'info', percent };
  return { points, label: 'Strong', color: 'success', percent };
}

export interface PasswordRequirement {
  label: string;
  met: boolean;
}

/** The live checklist. Only the length rule is enforced on submit. */
export function passwordRequirements(password: string): PasswordRequirement[] {
  return [
    { label: `At least ${MIN_PASSWORD_LENGTH} characters`, met: password.length >= MIN_PASSWORD_LENGTH },
    { label: 'One uppercase letter', met: hasUpper(password) },
    { label: 'One lowercase letter', met: hasLower(password) },
    { label: 'One number', met: hasDigit(password) },
    { label: 'One special character', met: hasSpecial(password) },
  ];
}
