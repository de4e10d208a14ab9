import {
  isValidTimeZone,
  LANGUAGE_CODE_PATTERN,
  LOCAL_TIME_PATTERN,
  MOSQUE_ID_PATTERN,
  type BroadcastStatus,
  type CalculationMethod,
  type Mosque,
  type MosqueCreateRequest,
  type MosqueUpdateRequest,
} from '../../../contract/mosques';

/** The Add / Edit Mosque form, every field as typed. */
export interface MosqueFormValues {
  mosque_id: string;
  name: string;
  name_ar: string;
  languages: string[];
  google_maps_url: string;
  latitude: string;
  longitude: string;
  timezone: string;
  city: string;
  district: string;
  country: string;
  ID_token: string;
  active: boolean;
  broadcast_status: BroadcastStatus;
  fixed_jumuah_time: string;
  /** '' means "by country" (the server's default). */
  calculation_method: CalculationMethod | '';
}

export type MosqueFormErrors = Partial<Record<keyof MosqueFormValues, string>>;

export const EMPTY_MOSQUE_FORM: MosqueFormValues = {
  mosque_id: '',
  name: '',
  name_ar: '',
  languages: [],
  google_maps_url: '',
  latitude: '',
  longitude: '',
  timezone: '',
  city: '',
  district: '',
  country: '',
  ID_token: '',
  active: true,
  broadcast_status: 'inactive',
  fixed_jumuah_time: '',
  calculation_method: '',
};

export function formFromMosque(mosque: Mosque): MosqueFormValues {
  return {
    mosque_id: mosque.mosque_id,
    name: mosque.name,
    name_ar: mosque.name_ar ?? '',
    languages: [...mosque.languages],
    google_maps_url: mosque.google_maps_url ?? '',
    latitude: mosque.latitude === null ? '' : String(mosque.latitude),
    longitude: mosque.longitude === null ? '' : String(mosque.longitude),
    timezone: mosque.timezone ?? '',
    city: mosque.city ?? '',
    district: mosque.district ?? '',
    country: mosque.country ?? '',
    ID_token: mosque.ID_token ?? '',
    active: mosque.active,
    broadcast_status: mosque.broadcast_status,
    fixed_jumuah_time: mosque.fixed_jumuah_time ?? '',
    calculation_method: mosque.calculation_method ?? '',
  };
}

/** A coordinate as typed: null when empty, NaN when it is not a number. */
export function parseCoordinate(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  return /^[-+]?(\d+\.?\d*|\.\d+)$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

function coordinateError(text: string, limit: number, name: string): string | undefined {
  const value = parseCoordinate(text);
  if (value === null) return undefined;
  if (Number.isNaN(value) || Math.abs(value) > limit) return `${name} must be a number between -${limit} and ${limit}`;
  return undefined;
}

/**
 * docs/reference.md section 5: mosque_id (on add), English name and at least one language are required; the rest is
 * checked as the server checks it, so a form that passes here is not refused for its shape.
 */
export function validateMosqueForm(values: MosqueFormValues, editing: boolean): MosqueFormErrors {
  const errors: MosqueFormErrors = {};
  if (!editing) {
    if (!values.mosque_id) errors.mosque_id = 'Mosque ID is required';
    else if (!MOSQUE_ID_PATTERN.test(values.mosque_id))
      errors.mosque_id = 'Mosque ID must be 10 lowercase letters or digits';
  }
  if (!values.name.trim()) errors.name = 'English name is required';
  if (values.languages.length === 0) errors.languages = 'At least one language is required';
  else {
    const invalid = values.languages.filter((code) => !LANGUAGE_CODE_PATTERN.test(code));
    if (invalid.length > 0)
      errors.languages = `Not a language code: ${invalid.join(', ')} (codes look like en, ar or pt-BR)`;
  }
  const latitude = coordinateError(values.latitude, 90, 'Latitude');
  const longitude = coordinateError(values.longitude, 180, 'Longitude');
  if (latitude) errors.latitude = latitude;
  if (longitude) errors.longitude = longitude;
  if (
    !latitude &&
    !longitude &&
    (parseCoordinate(values.latitude) === null) !== (parseCoordinate(values.longitude) === null)
  ) {
    errors[parseCoordinate(values.latitude) === null ? 'latitude' : 'longitude'] =
      'Latitude and longitude must be given together';
  }
  if (values.timezone.trim() && !isValidTimeZone(values.timezone.trim()))
    errors.timezone = 'Not a known time zone (e.g. Europe/London)';
  if (values.fixed_jumuah_time && !LOCAL_TIME_PATTERN.test(values.fixed_jumuah_time))
    errors.fixed_jumuah_time = 'Use HH:MM, 24-hour';
  return errors;
}

export const hasErrors = (errors: MosqueFormErrors) => Object.keys(errors).length > 0;

/** The form as the server stores it: trimmed text, '' as null, coordinates as numbers. */
function normalized(values: MosqueFormValues) {
  const text = (value: string) => value.trim() || null;
  return {
    name: values.name.trim(),
    name_ar: text(values.name_ar),
    languages: values.languages,
    google_maps_url: text(values.google_maps_url),
    latitude: parseCoordinate(values.latitude),
    longitude: parseCoordinate(values.longitude),
    timezone: text(values.timezone),
    city: text(values.city),
    district: text(values.district),
    country: text(values.country),
    ID_token: text(values.ID_token),
    active: values.active,
    broadcast_status: values.broadcast_status,
    fixed_jumuah_time: text(values.fixed_jumuah_time),
    calculation_method: values.calculation_method || null,
  };
}

/** Add: the id, the required fields, and every optional field that was filled in. */
export function createPayload(values: MosqueFormValues): MosqueCreateRequest {
  const fields = normalized(values);
  const filled = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null));
  return {
    ...filled,
    mosque_id: values.mosque_id,
    name: fields.name,
    languages: fields.languages,
  } as MosqueCreateRequest;
}

/** Edit: only the editable fields that changed (the server keeps what is not sent; null clears a field). */
export function updatePayload(initial: MosqueFormValues, values: MosqueFormValues): MosqueUpdateRequest {
  const before = normalized(initial);
  const after = normalized(values);
  const changed = (Object.keys(after) as (keyof typeof after)[]).filter(
    (key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]),
  );
  return Object.fromEntries(changed.map((key) => [key, after[key]])) as MosqueUpdateRequest;
}
