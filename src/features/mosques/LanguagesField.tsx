import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import { LANGUAGE_CODES, languageLabel, normalizeLanguageCode } from './languages';

interface LanguagesFieldProps {
  value: string[];
  onChange: (codes: string[]) => void;
  onBlur?: () => void;
  error?: string;
}

/** Languages as chips: the listed options, or any code typed and confirmed with Enter (docs/reference.md section 3). */
export function LanguagesField({ value, onChange, onBlur, error }: LanguagesFieldProps) {
  return (
    <Autocomplete<string, true, false, true>
      multiple
      freeSolo
      options={LANGUAGE_CODES}
      value={value}
      getOptionLabel={languageLabel}
      filterSelectedOptions
      onChange={(_event, codes) => onChange([...new Set(codes.map(normalizeLanguageCode).filter(Boolean))])}
      onBlur={onBlur}
      renderValue={(codes, getItemProps) =>
        codes.map((code, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          return <Chip key={key} size="small" label={languageLabel(code)} {...itemProps} />;
        })
      }
      renderInput={(params) => (
        <TextField
          {...params}
          label="Languages"
          required
          error={Boolean(error)}
          helperText={error ?? 'Pick languages, or type a code such as tr or pt-BR and press Enter'}
        />
      )}
    />
  );
}
