import type { Ami, AmiCreateRequest } from '../../../contract/ami';

/** The Create New AMI form (docs/reference.md sections 3 and 5, AMI and Create AMI). */
export interface AmiFormValues {
  instance_id: string;
  name: string;
  description: string;
  version: string;
}

/** The base name new images start from; the server adds a timestamp to it. */
export const DEFAULT_AMI_NAME = 'mosque-recorder';
export const DEFAULT_AMI_DESCRIPTION = 'Recorder image for Friday sermon captures';

export const DEFAULT_AMI_FORM: AmiFormValues = {
  instance_id: '',
  name: DEFAULT_AMI_NAME,
  description: DEFAULT_AMI_DESCRIPTION,
  version: '',
};

/** Instance, name and version must be filled (docs/reference.md); the description may be left empty. Disabled while sending. */
export function canCreateAmi(values: AmiFormValues, busy: boolean): boolean {
  return !busy && [values.instance_id, values.name, values.version].every((value) => value.trim() !== '');
}

export function amiCreatePayload(values: AmiFormValues): AmiCreateRequest {
  return {
    instance_id: values.instance_id,
    name: values.name.trim(),
    description: values.description.trim(),
    version: values.version.trim(),
    tags: {},
  };
}

export interface AmiSummary {
  total: number;
  available: number;
  pending: number;
  latest: Ami | undefined;
}

export function amiSummary(amis: readonly Ami[]): AmiSummary {
  return {
    total: amis.length,
    available: amis.filter((ami) => ami.state === 'available').length,
    pending: amis.filter((ami) => ami.state === 'pending').length,
    latest: amis.find((ami) => ami.is_latest),
  };
}

export function amiStateColor(state: string): 'success' | 'warning' | 'error' {
  if (state === 'available') return 'success';
  if (state === 'pending') return 'warning';
  return 'error';
}

/** Newest first. */
export function sortAmis(amis: readonly Ami[]): Ami[] {
  return [...amis].sort((a, b) => b.created_at.localeCompare(a.created_at));
}

/** Size in GB with at most 2 decimals; a tiny non-zero size (a local image) reads "< 0.01". */
export function formatSizeGb(size: number): string {
  if (!Number.isFinite(size) || size <= 0) return '0';
  if (size < 0.01) return '< 0.01';
  return String(Number(size.toFixed(2)));
}
