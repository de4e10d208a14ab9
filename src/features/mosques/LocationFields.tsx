import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import type { MosqueFormErrors, MosqueFormValues } from './mosque-form';

type LocationField = 'google_maps_url' | 'latitude' | 'longitude' | 'timezone' | 'city' | 'district' | 'country';

interface LocationFieldsProps {
  values: Pick<MosqueFormValues, LocationField>;
  errors: MosqueFormErrors;
  extracting: boolean;
  geocoding: boolean;
  /** Why the last lookups gave nothing (null when they did, or none ran): shown beside their fields. */
  problems: { link: string | null; place: string | null; timezone: string | null };
  onChange: (field: LocationField, value: string) => void;
}

const pairs = { display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2 } as const;
const triple = { display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr 1fr' }, gap: 2 } as const;

/** Map link, coordinates, time zone and place. Coordinates are read-only while they are being read from the link. */
export function LocationFields({ values, errors, extracting, geocoding, problems, onChange }: LocationFieldsProps) {
  const timezoneProblem = values.timezone.trim() === '' ? problems.timezone : null;
  const coordinate = (field: 'latitude' | 'longitude', label: string, limit: number) => (
    <TextField
      label={label}
      type="number"
      value={values[field]}
      onChange={(event) => onChange(field, event.target.value)}
      error={Boolean(errors[field])}
      helperText={errors[field] ?? (extracting ? 'Reading from the map link...' : ' ')}
      slotProps={{ htmlInput: { readOnly: extracting, step: 'any', min: -limit, max: limit } }}
      fullWidth
    />
  );
  const place = (field: 'city' | 'district' | 'country', label: string) => (
    <TextField
      label={label}
      value={values[field]}
      onChange={(event) => onChange(field, event.target.value)}
      helperText={geocoding ? 'Looking up the place...' : (field === 'city' && problems.place) || ' '}
      error={!geocoding && field === 'city' && problems.place !== null}
      fullWidth
    />
  );

  return (
    <>
      <TextField
        label="Google Maps URL"
        value={values.google_maps_url}
        onChange={(event) => onChange('google_maps_url', event.target.value)}
        error={!extracting && problems.link !== null}
        helperText={
          extracting
            ? 'Extracting coordinates from the link...'
            : problems.link
              ? `${problems.link.replace(/\.$/, '')}. Type the latitude and longitude below, or the mosque cannot be scheduled.`
              : 'Paste a Google Maps link (long, maps.google, goo.gl/maps or maps.app.goo.gl): coordinates, time zone and place are filled in'
        }
        slotProps={{
          htmlInput: { autoComplete: 'off', spellCheck: false },
          input: {
            endAdornment: extracting ? (
              <InputAdornment position="end">
                <CircularProgress size={20} aria-label="Extracting coordinates" />
              </InputAdornment>
            ) : undefined,
          },
        }}
        fullWidth
      />
      <Box sx={pairs}>
        {coordinate('latitude', 'Latitude', 90)}
        {coordinate('longitude', 'Longitude', 180)}
      </Box>
      <TextField
        label="Timezone"
        value={values.timezone}
        onChange={(event) => onChange('timezone', event.target.value)}
        error={Boolean(errors.timezone ?? timezoneProblem)}
        helperText={
          errors.timezone ?? timezoneProblem ?? 'IANA time zone, e.g. Europe/London (filled in from the coordinates)'
        }
        slotProps={{ htmlInput: { autoComplete: 'off', spellCheck: false } }}
        fullWidth
      />
      <Box sx={triple}>
        {place('city', 'City')}
        {place('district', 'District')}
        {place('country', 'Country')}
      </Box>
    </>
  );
}
