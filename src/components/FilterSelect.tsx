import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';

interface FilterSelectProps {
  label: string;
  /** null: every value (All). */
  value: string | null;
  options: readonly (readonly [value: string, label: string])[];
  onChange: (value: string | null) => void;
}

/** One filter of the table: All, or one of its values. */
export function FilterSelect({ label, value, options, onChange }: FilterSelectProps) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value ?? 'all'}
      onChange={(event) => onChange(event.target.value === 'all' ? null : event.target.value)}
      sx={{ minWidth: 140 }}
    >
      <MenuItem value="all">All</MenuItem>
      {options.map(([option, text]) => (
        <MenuItem key={option} value={option}>
          {text}
        </MenuItem>
      ))}
    </TextField>
  );
}
